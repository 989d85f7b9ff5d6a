/* hr-activations-lora.c: what LoRA's and QLoRA's adapters add to a layer
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The frozen base layer keeps what hr-activations.c lists for a layer
 * whose weights need no gradient; the adapters keep their own tensors on
 * top: each A projection's output, with dropout the dropped-out copy of
 * its input and the mask, with DoRA the two products' other factors
 * (peft/tuners/lora/layer.py and dora.py; LitGPT's lora.py), and under
 * QLoRA the inputs bitsandbytes' 4-bit matmuls hold outside the graph.
 */

#include "hr-activations-private.h"

#include <glib/gi18n-lib.h>

/* LoRA's adapters: their A outputs, their dropout. */
void
hr_activations_adapters (const LayerShape   *L,
                         HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double ab = L->ab;
  double h = L->h;
  double d = L->d;
  double a = L->a;
  double T = L->T;
  double routed = L->routed;
  double w = L->w;
  gboolean lora = L->lora;
  double r = L->r;
  guint attn_in = L->attn_in;
  guint mlp_in = L->mlp_in;
  gboolean attn_grad = L->attn_grad;
  gboolean mlp_in_grad = L->mlp_in_grad;
  gboolean mlp_grad = L->mlp_grad;
  gboolean input_grad = L->input_grad;

  /* LoRA adapters: the A projection's output feeds B; with dropout each
   * adapter also keeps its dropped-out copy of its layer's input and the
   * mask.  The inputs are h wide for Q, K, V, gate and up, a·d for O and f
   * for down.  LitGPT computes Q, K and V with one fused linear whose
   * adapter drops its input out once (lora.py, LoRAQKVLinear.forward). */
  if (lora)
    {
      guint layer_targets = tr->lora_targets & ~HR_LORA_LM_HEAD;
      guint mlp_targets = layer_targets & (HR_LORA_GATE | HR_LORA_UP | HR_LORA_DOWN);
      guint qkv_targets = layer_targets & attn_in;
      double adapters = hr_lora_n_targets (layer_targets & ~mlp_targets)
                        + hr_lora_n_targets (mlp_targets) * routed;
      double qkv_inputs = tr->lora_fused_qkv ? MIN (hr_lora_n_targets (qkv_targets), 1)
                                             : hr_lora_n_targets (qkv_targets);
      double in_width = qkv_inputs * h
                        + ((layer_targets & HR_LORA_O) ? a * d : 0.0)
                        + hr_lora_n_targets (layer_targets & mlp_in) * routed * h
                        + ((layer_targets & HR_LORA_DOWN) ? routed * w : 0.0);

      double in_width_masks;
      /* DeepSeek's latent attention (hr_params_mla_lora): q adapts q_a_proj
       * and q_b_proj (its input the query latent) where there is a query
       * latent, k kv_a_proj_with_mqa (the norm's output), v kv_b_proj (the
       * key/value latent), o o_proj (a·v); its MoE layers' shared experts
       * are one more MLP adapted like a routed expert, f_e·n_shared wide. */
      double mla_no_mask = 0, shared_no_mask = 0;

      if (hr_model_mla (m))
        {
          double ql = (double) m->q_lora_rank, kvl = (double) m->kv_lora_rank;
          double v = (double) m->v_head_dim;
          gboolean q = (layer_targets & HR_LORA_Q) != 0;

          adapters += q && ql > 0 ? 1.0 : 0.0;
          in_width += (q && ql > 0 ? ql : 0.0)
                      + ((layer_targets & HR_LORA_V) ? kvl - h : 0.0)
                      + ((layer_targets & HR_LORA_O) ? a * v - a * d : 0.0);
          /* (in a first layer: the latents need gradients only through
           * their own down projection's adapter, the core through any) */
          mla_no_mask = ((layer_targets & HR_LORA_V) && !(layer_targets & HR_LORA_K) ? kvl : 0.0)
                        + (!attn_grad && (layer_targets & HR_LORA_O) ? a * v : 0.0);
        }
      if (m->shared_experts > 0 && L->moe)
        {
          double ws = (double) (m->shared_experts * hr_model_expert_ffn (m)) / L->t;
          guint in = hr_model_gated (m) ? mlp_in : HR_LORA_UP;

          adapters += hr_lora_n_targets (mlp_targets & (in | HR_LORA_DOWN));
          in_width += hr_lora_n_targets (layer_targets & in) * h + ((layer_targets & HR_LORA_DOWN) ? ws : 0.0);
          shared_no_mask = (!mlp_in_grad ? hr_lora_n_targets (layer_targets & in) * h : 0.0)
                           + (!mlp_grad && (layer_targets & HR_LORA_DOWN) ? ws : 0.0);
        }

      if (!hr_model_gated (m) && (layer_targets & HR_LORA_GATE))
        {
          adapters -= routed;
          in_width -= routed * h;
        }
      in_width_masks = in_width;
      /* A cross-attention layer's K and V adapters read the image tokens
       * (kv_T of them, hr-activations-mllama.c); validation leaves them
       * unfused, without DoRA, in a layer whose input needs a gradient. */
      if (L->kv_T != T)
        {
          double kv = hr_lora_n_targets (qkv_targets & (HR_LORA_K | HR_LORA_V));

          hr_activations_add (out, N_("LoRA A outputs"), "adapters·b·s·r·bytes / c",
                              ((adapters - kv) * T + kv * L->kv_T) * r * ab);
          if (tr->lora_dropout > 0)
            hr_activations_add (out, N_("LoRA dropout inputs and masks"),
                                "b·s·Σ d_in·(bytes + 1) / c",
                                ((in_width - kv * h) * T + kv * h * L->kv_T) * (ab + 1.0));
          return;
        }
      hr_activations_add (out, N_("LoRA A outputs"), "adapters·b·s·r·bytes / c", adapters * T * r * ab);
      /* DoRA (peft/tuners/lora/dora.py, DoraLinearLayer.forward):
       * result_dora = (mag_norm_scale - 1) * base_result
       *               + mag_norm_scale * lora_result * scaling,
       * the magnitude training, so each product keeps its other factor:
       * the base layer's output and lora_B's, d_out wide each (the norm
       * is detached, §4.3 of the paper: nothing of it is saved). */
      if (tr->lora_dora)
        {
          double out_width = ((layer_targets & HR_LORA_Q) ? a * d : 0.0)
                             + hr_lora_n_targets (layer_targets & (HR_LORA_K | HR_LORA_V)) * L->k * d
                             + ((layer_targets & HR_LORA_O) ? h : 0.0)
                             + routed * ((hr_model_gated (m) && (layer_targets & HR_LORA_GATE) ? w : 0.0)
                                         + ((layer_targets & HR_LORA_UP) ? w : 0.0)
                                         + ((layer_targets & HR_LORA_DOWN) ? h : 0.0));

          hr_activations_add (out, N_("DoRA base and adapter outputs"), "2·b·s·Σ d_out·bytes / c",
                              2.0 * T * out_width * ab);
        }
      /* A dropout keeps its mask only when its input needs a gradient: in
       * a first layer not for the inputs before the first adapter. */
      if (tr->lora_dropout > 0 && !input_grad)
        {
          double no_mask = hr_model_mla (m)
                           ? mla_no_mask + ((layer_targets & HR_LORA_Q) ? h : 0.0)
                             + ((layer_targets & HR_LORA_K) ? h : 0.0)
                           : qkv_inputs * h + (!attn_grad && (layer_targets & HR_LORA_O) ? a * d : 0.0);

          no_mask = no_mask + shared_no_mask
                           + (!mlp_in_grad ? hr_lora_n_targets (layer_targets & (hr_model_gated (m) ? mlp_in : HR_LORA_UP))
                                             * routed * h : 0.0)
                           + (!mlp_grad && (layer_targets & HR_LORA_DOWN) ? routed * w : 0.0);

          in_width_masks = in_width - no_mask;
        }
      if (tr->lora_dropout > 0)
        hr_activations_add (out, N_("LoRA dropout inputs and masks"), "b·s·Σ d_in·(bytes + 1) / c",
                            T * (in_width * ab + in_width_masks));
    }
}

/* QLoRA: what bitsandbytes' 4-bit matmuls hold outside the graph. */
void
hr_activations_quantized_inputs (const LayerShape   *L,
                                 HrLayerActivations *out)
{
  const HrModelArch *m = L->m;

  if (L->tr->method != HR_METHOD_QLORA)
    return;
  /* bitsandbytes' MatMul4Bit keeps its input on ctx.tensors rather than
   * through save_for_backward, so the backward pass does not release it:
   * it lives as long as the graph does.  Those inputs are the attention
   * input, the O projection's input (the attention output), the MLP input
   * (the same tensor in a parallel block) and the down projection's. */
  out->matmul4_inputs = L->T * L->h * L->ab / L->rep
                        + L->T * L->a * L->d * L->ab
                        + (m->parallel_block ? 0.0 : L->T * L->h * L->ab / L->rep)
                        + L->T * L->routed * L->w * L->ab;
  /* DeepSeek's latent attention: the up projections read the latents, O
   * the a·v-wide context; its shared experts' down projection its own
   * input (hr-params-mla.c) */
  if (hr_model_mla (m))
    out->matmul4_inputs += L->T * ((double) m->q_lora_rank + (double) m->kv_lora_rank
                                   + L->a * (double) m->v_head_dim - L->a * L->d) * L->ab;
  if (L->moe && m->shared_experts > 0)
    out->matmul4_inputs += L->T * (double) (m->shared_experts * hr_model_expert_ffn (m)) / L->t * L->ab;
}
