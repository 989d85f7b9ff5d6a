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

/* DeepSeek's latent attention under LoRA (hr_params_mla_lora): q adapts
 * q_a_proj and q_b_proj (its input the query latent) where there is a
 * query latent, k kv_a_proj_with_mqa (the norm's output), v kv_b_proj
 * (the key/value latent), o o_proj (a·v).  Adds to ADAPTERS and
 * IN_WIDTH; returns the widths whose dropout keeps no mask in a first
 * layer (the latents need gradients only through their own down
 * projection's adapter, the core through any). */
static double
mla_adapters (const LayerShape *L,
              guint             targets,
              double           *adapters,
              double           *in_width)
{
  const HrModelArch *m = L->m;
  double ql = (double) m->q_lora_rank, kvl = (double) m->kv_lora_rank;
  double v = (double) m->v_head_dim;
  gboolean q = (targets & HR_LORA_Q) != 0;

  *adapters += q && ql > 0 ? 1.0 : 0.0;
  *in_width += (q && ql > 0 ? ql : 0.0)
               + ((targets & HR_LORA_V) ? kvl - L->h : 0.0)
               + ((targets & HR_LORA_O) ? L->a * v - L->a * L->d : 0.0);
  return ((targets & HR_LORA_V) && !(targets & HR_LORA_K) ? kvl : 0.0)
         + (!L->attn_grad && (targets & HR_LORA_O) ? L->a * v : 0.0);
}

/* An MoE layer's shared experts, one more MLP f_e·n_shared wide adapted
 * like a routed expert: adds to ADAPTERS and IN_WIDTH; returns the widths
 * whose dropout keeps no mask in a first layer. */
static double
shared_expert_adapters (const LayerShape *L,
                        guint             targets,
                        double           *adapters,
                        double           *in_width)
{
  const HrModelArch *m = L->m;
  guint mlp_targets = targets & (HR_LORA_GATE | HR_LORA_UP | HR_LORA_DOWN);
  double ws = (double) (m->shared_experts * hr_model_expert_ffn (m)) / L->t;
  guint in = hr_model_gated (m) ? L->mlp_in : HR_LORA_UP;

  *adapters += hr_lora_n_targets (mlp_targets & (in | HR_LORA_DOWN));
  *in_width += hr_lora_n_targets (targets & in) * L->h + ((targets & HR_LORA_DOWN) ? ws : 0.0);
  return (!L->mlp_in_grad ? hr_lora_n_targets (targets & in) * L->h : 0.0)
         + (!L->mlp_grad && (targets & HR_LORA_DOWN) ? ws : 0.0);
}

/* DoRA (peft/tuners/lora/dora.py, DoraLinearLayer.forward):
 * result_dora = (mag_norm_scale - 1) * base_result
 *               + mag_norm_scale * lora_result * scaling,
 * the magnitude training, so each product keeps its other factor: the
 * base layer's output and lora_B's, d_out wide each (the norm is
 * detached, §4.3 of the paper: nothing of it is saved). */
static void
add_dora_outputs (const LayerShape   *L,
                  guint               targets,
                  HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  double h = L->h, d = L->d, w = L->w;
  double out_width = ((targets & HR_LORA_Q) ? L->a * d : 0.0)
                     + hr_lora_n_targets (targets & (HR_LORA_K | HR_LORA_V)) * L->k * d
                     + ((targets & HR_LORA_O) ? h : 0.0)
                     + L->routed * ((hr_model_gated (m) && (targets & HR_LORA_GATE) ? w : 0.0)
                                    + ((targets & HR_LORA_UP) ? w : 0.0)
                                    + ((targets & HR_LORA_DOWN) ? h : 0.0));

  hr_activations_add (out, N_("DoRA base and adapter outputs"), "2·b·s·Σ d_out·bytes / c",
                      2.0 * L->T * out_width * L->ab);
}

/* LoRA's adapters: their A outputs, their dropout. */
void
hr_activations_adapters (const LayerShape   *L,
                         HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double ab = L->ab, h = L->h, d = L->d, a = L->a, T = L->T, routed = L->routed, w = L->w;
  double r = L->r;
  guint layer_targets, mlp_targets, qkv_targets;
  double adapters, qkv_inputs, in_width, in_width_masks;
  /* (the widths whose dropout keeps no mask in a first layer) */
  double mla_no_mask = 0, shared_no_mask = 0;

  /* LoRA adapters: the A projection's output feeds B; with dropout each
   * adapter also keeps its dropped-out copy of its layer's input and the
   * mask.  The inputs are h wide for Q, K, V, gate and up, a·d for O and f
   * for down.  LitGPT computes Q, K and V with one fused linear whose
   * adapter drops its input out once (lora.py, LoRAQKVLinear.forward). */
  if (!L->lora)
    return;
  layer_targets = tr->lora.targets & ~HR_LORA_LM_HEAD;
  mlp_targets = layer_targets & (HR_LORA_GATE | HR_LORA_UP | HR_LORA_DOWN);
  qkv_targets = layer_targets & L->attn_in;
  adapters = hr_lora_n_targets (layer_targets & ~mlp_targets) + hr_lora_n_targets (mlp_targets) * routed;
  qkv_inputs = tr->lora.fused_qkv ? MIN (hr_lora_n_targets (qkv_targets), 1) : hr_lora_n_targets (qkv_targets);
  in_width = qkv_inputs * h
             + ((layer_targets & HR_LORA_O) ? a * d : 0.0)
             + hr_lora_n_targets (layer_targets & L->mlp_in) * routed * h
             + ((layer_targets & HR_LORA_DOWN) ? routed * w : 0.0);
  if (hr_model_mla (m))
    mla_no_mask = mla_adapters (L, layer_targets, &adapters, &in_width);
  if (m->shared_experts > 0 && L->moe)
    shared_no_mask = shared_expert_adapters (L, layer_targets, &adapters, &in_width);
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
      if (tr->lora.dropout > 0)
        hr_activations_add (out, N_("LoRA dropout inputs and masks"),
                            "b·s·Σ d_in·(bytes + 1) / c",
                            ((in_width - kv * h) * T + kv * h * L->kv_T) * (ab + 1.0));
      return;
    }
  hr_activations_add (out, N_("LoRA A outputs"), "adapters·b·s·r·bytes / c", adapters * T * r * ab);
  if (tr->lora.dora)
    add_dora_outputs (L, layer_targets, out);
  /* A dropout keeps its mask only when its input needs a gradient: in
   * a first layer not for the inputs before the first adapter. */
  if (tr->lora.dropout > 0 && !L->input_grad)
    {
      double no_mask = hr_model_mla (m)
                       ? mla_no_mask + ((layer_targets & HR_LORA_Q) ? h : 0.0)
                         + ((layer_targets & HR_LORA_K) ? h : 0.0)
                       : qkv_inputs * h + (!L->attn_grad && (layer_targets & HR_LORA_O) ? a * d : 0.0);

      no_mask = no_mask + shared_no_mask
                + (!L->mlp_in_grad ? hr_lora_n_targets (layer_targets & (hr_model_gated (m) ? L->mlp_in : HR_LORA_UP))
                                     * routed * h : 0.0)
                + (!L->mlp_grad && (layer_targets & HR_LORA_DOWN) ? routed * w : 0.0);
      in_width_masks = in_width - no_mask;
    }
  if (tr->lora.dropout > 0)
    hr_activations_add (out, N_("LoRA dropout inputs and masks"), "b·s·Σ d_in·(bytes + 1) / c",
                        T * (in_width * ab + in_width_masks));
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
