/* hr-activations-ssm.c: what a state-space (Mamba) layer saves for backward
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The scans are fused CUDA and Triton kernels inside autograd Functions:
 * what a layer keeps is those Functions' ctx.save_for_backward lists, plus
 * what the PyTorch modules around them save (the in_proj's input, the
 * norms).  T = b·s tokens, d_inner = expand·h, R = dt_rank, N = d_state,
 * 16-bit activations of `bytes`:
 *
 * Mamba (mamba_ssm/ops/selective_scan_interface.py, MambaInnerFn.forward,
 * checkpoint_lvl 1 as Mamba.forward and Hugging Face's MambaMixer
 * .cuda_kernels_forward call it in training): xz, the in_proj's output
 * (T·2·d_inner); x_dbl, x_proj's output (T·(R + 2N)); B and C made
 * contiguous (2·T·N); the scan's output before the gate, out (T·d_inner);
 * scan_intermediates, the fp32 state at every 2048-token chunk's end
 * (csrc/selective_scan/selective_scan.cpp, selective_scan_fwd: x of
 * batch x dim x ceil(s / 2048) x 2N, weight type); the weights; and A =
 * -exp(A_log) (fp32, d_inner x N), which exp keeps.  conv1d_out and
 * delta are recomputed in the backward pass (checkpoint_lvl 1).
 *
 * Jamba's Mamba layers (transformers' modeling_jamba.py,
 * JambaMambaMixer.cuda_kernels_forward) cannot use MambaInnerFn (their
 * dt/B/C norms) and call the pieces: in_proj (xz kept by causal_conv1d_fn
 * and, as the gate z, by SelectiveScanFn), the convolution's output (kept
 * by x_proj and by the scan as u), three JambaRMSNorms over dt, B and C
 * (each its fp32 input and normalised copy), dt_proj's input, the scan's
 * delta (T·d_inner), B and C made contiguous, its intermediates and its
 * output out, and out_proj's input (out_z) — SelectiveScanFn.forward
 * saves u, delta, A, B, C, D, z, delta_bias, x and out.
 *
 * Mamba-2 (mamba_ssm/ops/triton/ssd_combined.py,
 * MambaSplitConv1dScanCombinedFn.forward, which Mamba2.forward and Hugging
 * Face's Mamba2Mixer call in training): zxbcdt, the in_proj's output
 * (T·(2·d_inner + 2·G·N + H)); out_x, the scan's output before the gated
 * norm (T·d_inner); the norm's rstd (fp32, T·G); the weights.  The
 * convolution, the chunk states and the gated output are recomputed.
 *
 * Every layer's own norm, its MLP or experts (Jamba) are a transformer
 * layer's (hr-activations.c).  With full checkpointing a layer keeps its
 * input, the residual stream: fp32 for Mamba and Mamba-2
 * (residual_in_fp32, true in their configs and MambaConfig's default).
 */

#include "hr-activations-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* What a layer keeps under full checkpointing: its input, the residual
 * stream.  mamba_ssm's blocks keep it in fp32 (residual_in_fp32, true in
 * Mamba's and Mamba-2's configs); Jamba's, Nemotron-H's and Bamba's
 * blocks in the model's type (JambaMambaDecoderLayer; NemotronHBlock,
 * whose residual_in_fp32 defaults to false; BambaDecoderLayer), fp32
 * under autocast. */
static double
layer_checkpoint (const HrScenario *sc)
{
  const HrModelArch *m = &sc->model;
  double ab = hr_dtype_bytes (sc->training.dtypes.activations);
  double T = (double) sc->training.micro_batch * (double) sc->training.seq_len;
  double rep = sc->parallel.sp ? (double) MAX (sc->parallel.tp, 1) : 1.0;
  gboolean autocast = hr_activations_autocast (&sc->training);
  gboolean model_type = m->ssm_bc_norm || m->layer_pattern[0] != '\0' || m->layer_mixers[0] != '\0';

  return T * (double) m->hidden * (model_type ? (autocast ? 4.0 : ab) : 4.0) / rep;
}

/* SC as a plain transformer's: no SSM layers or pattern, its experts kept
 * or not (EXPERTS), its adapters those of TARGETS. */
static void
plain_transformer (const HrScenario *sc,
                   gboolean          experts,
                   guint             targets,
                   HrScenario       *out)
{
  *out = *sc;
  out->model.ssm = HR_SSM_NONE;
  out->model.layer_pattern[0] = '\0';
  out->model.layer_mixers[0] = '\0';
  out->model.attn_layer_period = out->model.attn_layer_offset = 0;
  out->model.expert_layer_period = out->model.expert_layer_offset = 0;
  if (!experts)
    out->model.experts = out->model.experts_active = 1;
  out->training.lora.targets &= targets;
}

/* The same layer with a transformer's mixer, its input needing a gradient
 * or not (INPUT_GRAD), its adapters those of TARGETS: what an attention
 * layer of the pattern keeps, and from its MLP's input on (mlp_first) what
 * an SSM layer of the same pattern has after its mixer. */
static void
transformer_layer (const HrScenario   *sc,
                   gboolean            experts,
                   guint               targets,
                   gboolean            input_grad,
                   HrLayerActivations *out)
{
  HrScenario plain;

  plain_transformer (sc, experts, targets, &plain);
  /* (a pattern's experts are Nemotron-H's, those with a shared MLP
   * beside listed mixers Granite 4.0-H's; Jamba's, by
   * expert_layer_period or beside listed mixers, Mixtral's) */
  hr_activations_layer_with_moe (&plain, input_grad,
                                 sc->model.layer_pattern[0] != '\0' ? HR_MOE_ROUTER_NEMOTRON
                                 : sc->model.layer_mixers[0] != '\0' && sc->model.shared_experts > 0
                                 ? HR_MOE_ROUTER_JETMOE : HR_MOE_ROUTER_MODEL, out);
}

/* A pattern's attention block (Nemotron-H's '*'): a norm and the
 * attention with its adapters, no MLP. */
static void
attention_block (const HrScenario   *sc,
                 gboolean            input_grad,
                 HrLayerActivations *out)
{
  HrScenario plain;

  plain_transformer (sc, FALSE, HR_LORA_Q | HR_LORA_K | HR_LORA_V | HR_LORA_O, &plain);
  plain.model.norms_per_layer = 1;
  hr_activations_attention_block (&plain, input_grad, out);
  out->checkpoint = layer_checkpoint (sc);
  out->op_saved = out->total;
}

/* Mamba's selective scan (mamba_ssm's MambaInnerFn, or Jamba's unfused
 * path with its dt, B and C norms) when the scan's inputs need a
 * gradient: what it keeps, and its backward's working set. */
static void
add_mamba_scan (const HrScenario   *sc,
                double              T,
                double              ab,
                gboolean            full,
                gboolean            dropout,
                guint               lt,
                HrLayerActivations *out)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *tr = &sc->training;
  double b = (double) tr->micro_batch;
  double h = (double) m->hidden;
  double di = (double) hr_model_ssm_inner (m);
  double N = (double) hr_model_ssm_state (m);
  double R = (double) hr_model_ssm_dt_rank (m);
  double chunks = (double) ((tr->seq_len + 2047) / 2048);

  hr_activations_add (out, N_("SSM in_proj output (x, z)"), "b·s·2·d_inner·bytes", T * 2.0 * di * ab);
  /* (x_dbl is MambaInnerFn's; Jamba's path normalises copies of its
   * parts instead, below.) */
  if (m->ssm_bc_norm)
    hr_activations_add (out, N_("SSM scan output"), "b·s·d_inner·bytes", T * di * ab);
  else
    hr_activations_add (out, N_("SSM scan output and x_proj output"), "b·s·(d_inner + R + 2N)·bytes",
                        T * (di + R + 2.0 * N) * ab);
  hr_activations_add (out, N_("SSM B and C (contiguous copies)"), "2·b·s·N·bytes", 2.0 * T * N * ab);
  hr_activations_add (out, N_("SSM scan states (fp32, per 2048 tokens)"), "b·d_inner·⌈s/2048⌉·2N·4",
                      b * di * chunks * 2.0 * N * 4.0);
  hr_activations_add (out, N_("SSM A = −exp(A_log) (fp32)"), "d_inner·N·4", di * N * 4.0);
  if (m->ssm_bc_norm)
    {
      /* Hugging Face's unfused path: the convolution's output, delta,
       * the norms' fp32 inputs and normalised copies, dt_proj's input
       * and out_proj's (the gated output).  Under LoRA the frozen
       * dt_proj (its weight read directly: dt_proj.weight @ time_step)
       * and norm weights keep no input and no normalised copy, a
       * frozen out_proj not the gated output; the norms' fp32 inputs
       * and statistics stay, as the scan needs Δ's, B's and C's
       * gradients. */
      gboolean keeps_gated = full || ((lt & HR_LORA_OUT_PROJ) && !dropout);

      hr_activations_add (out, N_("SSM convolution output, Δ and gated output"),
                          keeps_gated ? "3·b·s·d_inner·bytes" : "2·b·s·d_inner·bytes",
                          (keeps_gated ? 3.0 : 2.0) * T * di * ab);
      hr_activations_add (out, N_("SSM Δ, B, C norm inputs (fp32) and outputs"),
                          full ? "b·s·(R + 2N)·(4 + bytes) + b·s·R·bytes + 3·b·s·4"
                               : "b·s·(R + 2N)·4 + 3·b·s·4",
                          T * (R + 2.0 * N) * (4.0 + (full ? ab : 0.0)) + (full ? T * R * ab : 0.0)
                          + 3.0 * T * 4.0);
    }
  /* MambaInnerFn.backward: conv1d_out and delta recomputed, dxz,
   * dout_y, then the scan's dconv1d_out, ddelta and out_z. */
  out->backward_work = 8.0 * T * di * ab + T * h * ab;
}

/* Mamba-2's SSD block (mamba_ssm's mamba_split_conv1d_scan_combined), a
 * t-th of it on each tensor-parallel rank. */
static void
add_mamba2_scan (const HrScenario   *sc,
                 double              T,
                 double              ab,
                 HrLayerActivations *out)
{
  const HrModelArch *m = &sc->model;
  double t = (double) MAX (sc->parallel.tp, 1);
  double rep = sc->parallel.sp ? t : 1.0;
  double h = (double) m->hidden;
  double di = (double) hr_model_ssm_inner (m);
  double N = (double) hr_model_ssm_state (m);
  double H = (double) hr_model_ssm_heads (m), G = (double) hr_model_ssm_groups (m);
  double in_proj = 2.0 * di + 2.0 * G * N + H;
  double conv = di + 2.0 * G * N;

  hr_activations_add (out, N_("SSM in_proj output (z, x, B, C, dt)"),
                      "b·s·(2·d_inner + 2GN + H)·bytes / t", T * in_proj * ab / t);
  hr_activations_add (out, N_("SSM scan output and norm statistics"),
                      "b·s·(d_inner·bytes + G·4) / t", T * (di * ab + G * 4.0) / t);
  /* MambaSplitConv1dScanCombinedFn.backward: the convolution's output
   * recomputed and its gradient, dzxbcdt, the gated output recomputed
   * for out_proj's weight gradient and its gradient. */
  out->backward_work = T * (2.0 * conv + in_proj + 2.0 * di) * ab / t + T * h * ab / rep;
}

/* The MLP (or the experts) after the mixer; returns its backward's
 * working set. */
static double
add_ssm_mlp (const HrScenario         *sc,
             gboolean                  experts,
             gboolean                  mlp_in_grad,
             const HrLayerActivations *same_mlp,
             HrLayerActivations       *out)
{
  const HrModelArch *m = &sc->model;
  double ab = hr_dtype_bytes (sc->training.dtypes.activations);
  double T = (double) sc->training.micro_batch * (double) sc->training.seq_len;
  double rep = sc->parallel.sp ? (double) MAX (sc->parallel.tp, 1) : 1.0;
  double h = (double) m->hidden;
  HrLayerActivations ffn = { 0 };
  const HrLayerActivations *f = &ffn;

  /* The MLP's own tensors and its adapters': the transformer layer's
   * from its MLP's input on (no parallel block here, hr-validate.c),
   * that input needing a gradient as this layer's does. */
  if (same_mlp != NULL && sc->training.method == HR_METHOD_FULL)
    f = same_mlp;
  else
    transformer_layer (sc, experts, HR_LORA_GATE | HR_LORA_UP | HR_LORA_DOWN, mlp_in_grad, &ffn);
  for (guint i = f->mlp_first; i < f->n; i++)
    hr_activations_add (out, f->saved[i].name, f->saved[i].formula, f->saved[i].bytes);
  out->mlp_saved = f->mlp_saved;
  /* (of a transformer layer's 4-bit inputs, the MLP's and the down
   * projection's: no attention here; tp is 1 with adapters) */
  out->matmul4_inputs = f->matmul4_inputs > 0
                        ? f->matmul4_inputs - T * h * ab / rep
                          - T * (double) m->heads * (double) hr_model_head_dim (m) * ab
                        : 0.0;
  out->mlp_weights = f->mlp_weights;
  out->mlp_linear = f->mlp_linear;
  /* a first layer's MLP whose input needs no gradient keeps no casts of
   * the weights that read it (hr_activations_layer_with_input) */
  out->uncast_weights = f->mlp_uncast;
  out->backward_weight = f->backward_weight;
  return f->backward_work;
}

/* One SSM layer: its norm, the mixer, and the MLP or experts after it;
 * INPUT_GRAD whether its input needs a gradient (not in a LoRA model's
 * first layer, whose embeddings are frozen).  SAME_MLP, where not NULL, is
 * an attention layer with the same MLP whose input needs a gradient: in
 * full training its MLP part is this layer's (under LoRA its list joins
 * the attention's adapters to the MLP's). */
static void
ssm_layer (const HrScenario         *sc,
           HrLayerMlp                mlp_kind,
           gboolean                  input_grad,
           const HrLayerActivations *same_mlp,
           HrLayerActivations       *out)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *tr = &sc->training;
  double ab = hr_dtype_bytes (tr->dtypes.activations);
  double b = (double) tr->micro_batch, s = (double) tr->seq_len;
  double T = b * s;
  /* Tensor parallelism (Mamba-2 only, hr-validate.c): Megatron's
   * MambaMixer holds a t-th of the heads and groups, so every tensor
   * inside the block is a t-th; the norm and in_proj's input are whole
   * but with sequence parallelism. */
  double t = (double) MAX (sc->parallel.tp, 1);
  double rep = sc->parallel.sp ? t : 1.0;
  double h = (double) m->hidden;
  double di = (double) hr_model_ssm_inner (m);
  /* (a Mamba block without one: mamba_ssm's d_intermediate 0; a
   * pattern's SSM block) */
  gboolean mlp = mlp_kind != HR_LAYER_MLP_NONE;
  double mlp_work = 0;

  /* LoRA (hr-validate-ssm.c): a frozen linear keeps no input, an adapter
   * reads it (with dropout its dropped-out copy, and the mask where the
   * input needs a gradient).  The scan's inputs need a gradient from the
   * layer's input or from an adapter before the scan (in_proj's, x_proj's);
   * where none does (a first layer adapting out_proj alone) the kernels
   * keep nothing, as autograd makes no node for them.  The MLP's input needs
   * one from the mixer, or from out_proj's adapter.  QLoRA leaves the
   * mixers in 16 bits (hr-params-kinds.c): their adapters are LoRA's. */
  gboolean lora = tr->method != HR_METHOD_FULL;
  gboolean full = tr->method == HR_METHOD_FULL;
  gboolean dropout = lora && tr->lora.dropout > 0;
  guint lt = lora ? tr->lora.targets : 0;
  double r = (double) tr->lora.rank;
  gboolean scan_grad = input_grad || (lt & (HR_LORA_IN_PROJ | HR_LORA_X_PROJ));
  gboolean mlp_in_grad = scan_grad || (lt & HR_LORA_OUT_PROJ);
  /* x_proj's input, the convolution's output, needs one unless only
   * x_proj's adapter gives the scan one */
  gboolean conv_grad = input_grad || (lt & HR_LORA_IN_PROJ);

  *out = (HrLayerActivations) { 0 };

  /* (a frozen norm keeps its fp32 input for the input's gradient only:
   * none in the first layer of a LoRA model) */
  hr_activations_add (out, N_("norm inputs"), "norms·b·s·h·bytes",
                      ((mlp && mlp_in_grad ? 1.0 : 0.0) + (input_grad ? 1.0 : 0.0)) * T * h
                      * hr_activations_norm_bytes (sc) / rep);
  /* The in_proj reads the norm's output (under autocast, its cast). */
  hr_activations_add (out, N_("SSM input (norm output)"), "b·s·h·bytes",
                      full || ((lt & HR_LORA_IN_PROJ) && !dropout) ? T * h * ab / rep : 0.0);
  if (lora)
    {
      double adapters = hr_lora_n_targets (lt & HR_LORA_SSM);

      hr_activations_add (out, N_("LoRA A outputs"), "adapters·b·s·r·bytes / c", adapters * T * r * ab);
      if (dropout)
        hr_activations_add (out, N_("LoRA dropout inputs and masks"), "b·s·Σ d_in·(bytes + 1) / c",
                            ((lt & HR_LORA_IN_PROJ) ? T * h * (ab + (input_grad ? 1.0 : 0.0)) : 0.0)
                            + ((lt & HR_LORA_X_PROJ) ? T * di * (ab + (conv_grad ? 1.0 : 0.0)) : 0.0)
                            + ((lt & HR_LORA_OUT_PROJ) ? T * di * (ab + (scan_grad ? 1.0 : 0.0)) : 0.0));
    }

  if (!scan_grad)
    {
      /* out_proj's adapter alone: it reads the gated output */
      hr_activations_add (out, N_("SSM gated output (out_proj input)"), "b·s·d_inner·bytes",
                          (lt & HR_LORA_OUT_PROJ) && !dropout ? T * di * ab : 0.0);
    }
  else if (m->ssm == HR_SSM_MAMBA)
    add_mamba_scan (sc, T, ab, full, dropout, lt, out);
  else
    add_mamba2_scan (sc, T, ab, out);

  if (mlp)
    mlp_work = add_ssm_mlp (sc, mlp_kind == HR_LAYER_MLP_EXPERTS, mlp_in_grad, same_mlp, out);
  else
    /* The first weight gradient the backward makes: out_proj's. */
    out->backward_weight = tr->method == HR_METHOD_FULL ? di * h : 0.0;
  out->backward_work = MAX (out->backward_work, mlp_work);
  out->backward_attn_work = out->backward_work;
  out->checkpoint = layer_checkpoint (sc);
  out->op_saved = out->total;
}

/* A pattern's MLP block (Nemotron-H's '-' or 'E'): a norm and the MLP or
 * the experts, as an SSM layer's after its mixer. */
static void
mlp_block (const HrScenario         *sc,
           HrLayerMlp                mlp_kind,
           gboolean                  input_grad,
           const HrLayerActivations *same_mlp,
           HrLayerActivations       *out)
{
  double T = (double) sc->training.micro_batch * (double) sc->training.seq_len;
  double rep = sc->parallel.sp ? (double) MAX (sc->parallel.tp, 1) : 1.0;

  *out = (HrLayerActivations) { 0 };
  hr_activations_add (out, N_("norm inputs"), "b·s·h·bytes",
                      input_grad ? T * (double) sc->model.hidden * hr_activations_norm_bytes (sc) / rep : 0.0);
  out->backward_work = add_ssm_mlp (sc, mlp_kind == HR_LAYER_MLP_EXPERTS, input_grad, same_mlp, out);
  out->backward_attn_work = out->backward_work;
  out->checkpoint = layer_checkpoint (sc);
  out->op_saved = out->total;
}

static void shared_block (const HrScenario *sc, gboolean input_grad, HrLayerActivations *out);

/* One layer of kind [mixer][mlp], its input needing a gradient or not;
 * SAME_MLP as ssm_layer's. */
static void
pattern_layer (const HrScenario         *sc,
               HrLayerMixer              mixer,
               HrLayerMlp                mlp,
               gboolean                  input_grad,
               const HrLayerActivations *same_mlp,
               HrLayerActivations       *out)
{
  if (mixer == HR_LAYER_MIXER_SHARED)
    shared_block (sc, input_grad, out);
  else if (mixer == HR_LAYER_MIXER_SSM)
    ssm_layer (sc, mlp, input_grad, same_mlp, out);
  else if (mixer == HR_LAYER_MIXER_NONE)
    mlp_block (sc, mlp, input_grad, same_mlp, out);
  else if (mlp == HR_LAYER_MLP_NONE)
    attention_block (sc, input_grad, out);
  else
    transformer_layer (sc, mlp == HR_LAYER_MLP_EXPERTS, ~(guint) HR_LORA_SSM, input_grad, out);
}

static void
average_into (HrLayerActivations       *sum,
              double                   *n_sum,
              const HrLayerActivations *la,
              double                    n)
{
  HrLayerActivations mixed;

  if (n <= 0)
    return;
  if (*n_sum <= 0)
    {
      *sum = *la;
      *n_sum = n;
      return;
    }
  hr_activations_stack_average (sum, (guint64) *n_sum, la, (guint64) n, &mixed);
  mixed.backward_work = MAX (sum->backward_work, la->backward_work);
  mixed.backward_attn_work = MAX (sum->backward_attn_work, la->backward_attn_work);
  *sum = mixed;
  *n_sum += n;
}

/* Whether a layer of kind [A][X] holds an adapter of the scenario's. */
static gboolean
kind_adapted (const HrScenario *sc,
              HrLayerMixer      a,
              HrLayerMlp        x)
{
  guint lt = sc->training.lora.targets;
  guint mlp = HR_LORA_UP | HR_LORA_DOWN | (hr_model_gated (&sc->model) ? HR_LORA_GATE : 0u);

  /* (a Zamba2 shared block's attention, or its MLP: x is dense) */
  return ((a == HR_LAYER_MIXER_ATTENTION || a == HR_LAYER_MIXER_SHARED)
          && (lt & (HR_LORA_Q | HR_LORA_K | HR_LORA_V | HR_LORA_O)))
         || (a == HR_LAYER_MIXER_SSM && (lt & HR_LORA_SSM))
         || (x != HR_LAYER_MLP_NONE && (lt & mlp));
}

/* In a model whose embeddings are frozen and whose first layer's input
 * needs no gradient (hr_activations_input_grad), the layers before the
 * first with an adapter have nothing that needs one either: autograd
 * records nothing for them, and they keep nothing.  A pattern's block
 * may have no adapted linear (an MLP block under adapters on the
 * attention alone, a Mamba block without in_proj's): how many lead the
 * stack so (at most all but the last). */
static guint64
unadapted_lead (const HrScenario *sc)
{
  const HrModelArch *m = &sc->model;

  if (sc->training.method == HR_METHOD_FULL || hr_activations_input_grad (sc))
    return 0;
  for (guint64 i = 0; i + 1 < m->layers; i++)
    if (kind_adapted (sc, hr_model_layer_mixer (m, i), hr_model_layer_mlp (m, i)))
      return i;
  return m->layers > 0 ? m->layers - 1 : 0;
}

/* Adds LA's saved tensors into SUM by name, and its totals. */
static void
add_by_name (HrLayerActivations       *sum,
             const HrLayerActivations *la)
{
  for (guint i = 0; i < la->n; i++)
    {
      int j = hr_layer_find_saved (sum, la->saved[i].name);

      if (j >= 0)
        sum->saved[j].bytes += la->saved[i].bytes;
      else if (sum->n < HR_MAX_SAVED)
        sum->saved[sum->n++] = la->saved[i];
      else
        sum->saved[sum->n - 1].bytes += la->saved[i].bytes;
    }
  sum->total += la->total;
  sum->uncast_weights += la->uncast_weights;
}

/* Zamba2's shared transformer block, one use of it
 * (Zamba2AttentionDecoderLayer.forward, Zamba2HybridLayer.forward): the
 * hidden state joined to the embeddings (torch.concatenate, 2h wide, which
 * input_layernorm upcasts and keeps as any norm's input), attention over
 * it as a 2h-wide model's (Q, K, V from the 2h norm output, O back to h),
 * no residual; pre_ff_layernorm and the MLP as an MLP block's over h; each
 * of the use's adapters' rank-r middle, which its second linear keeps (the
 * first reads the norm output the block's linears keep); and the h x h
 * linear's input, the MLP's output.  Under LoRA the block's linears, the
 * use's adapters and its h x h linear are frozen and keep no input
 * (PEFT's adapters on the block read them: hr_activations_adapters), the
 * MLP's gate and up one linear with one adapter (gate_up_proj,
 * hr-validate-shared.c); the MLP's input needs a gradient from the
 * block's input or from an adapter on the attention.  Its output joins the
 * next M block's input: the hybrid layer is one checkpointed layer, whose
 * input the M block keeps (checkpoint 0 here).  The embeddings' copy
 * every use reads is kept once (hr-calc-activations.c). */
static void
shared_block (const HrScenario   *sc,
              gboolean            input_grad,
              HrLayerActivations *out)
{
  const HrModelArch *m = &sc->model;
  gboolean full = sc->training.method == HR_METHOD_FULL;
  guint lt = full ? 0 : sc->training.lora.targets;
  double T = (double) sc->training.micro_batch * (double) sc->training.seq_len;
  double ab = hr_dtype_bytes (sc->training.dtypes.activations);
  double h = (double) m->hidden, r = (double) m->shared_adapter_rank;
  double adapters = r > 0 ? 1.0 + (m->shared_attention_adapters ? 3.0 : 0.0) : 0.0;
  gboolean mlp_in_grad = full || input_grad || (lt & (HR_LORA_Q | HR_LORA_K | HR_LORA_V | HR_LORA_O));
  HrScenario wide, fused;
  HrLayerActivations mlp;

  plain_transformer (sc, FALSE, HR_LORA_Q | HR_LORA_K | HR_LORA_V | HR_LORA_O, &wide);
  wide.model.hidden = 2 * m->hidden;
  wide.model.head_dim = hr_model_head_dim (m);
  wide.model.norms_per_layer = 1;
  hr_activations_attention_block (&wide, full || input_grad, out);
  /* gate_up_proj's one adapter reads what up's alone would */
  fused = *sc;
  if ((lt & HR_LORA_GATE) && (lt & HR_LORA_UP))
    fused.training.lora.targets &= ~(guint) HR_LORA_GATE;
  mlp_block (&fused, HR_LAYER_MLP_DENSE, mlp_in_grad, NULL, &mlp);
  add_by_name (out, &mlp);
  if (full)
    {
      hr_activations_add (out, N_("shared block adapters' middles"), "uses' adapters·b·s·r·bytes",
                          adapters * T * r * ab);
      hr_activations_add (out, N_("shared block output (its linear's input)"), "b·s·h·bytes", T * h * ab);
    }
  out->backward_work = MAX (out->backward_work, mlp.backward_work);
  out->backward_weight = full ? h * h : 0.0;
  out->checkpoint = 0;
  out->op_saved = out->total;
}

void
hr_activations_pattern_kinds (const HrScenario *sc,
                              HrPatternKinds   *out)
{
  const HrModelArch *m = &sc->model;

  memset (out->has, 0, sizeof out->has);
  for (guint64 i = 0; i < m->layers; i++)
    out->has[hr_model_layer_mixer (m, i)][hr_model_layer_mlp (m, i)] = TRUE;
  /* The attention layers first: an SSM layer or an MLP block with the
   * same MLP takes that part from theirs. */
  for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
    {
      const HrLayerActivations *same = out->has[HR_LAYER_MIXER_ATTENTION][x] && x != HR_LAYER_MLP_NONE
                                       ? &out->kind[HR_LAYER_MIXER_ATTENTION][x] : NULL;

      static const HrLayerMixer order[] = { HR_LAYER_MIXER_ATTENTION, HR_LAYER_MIXER_SSM,
                                            HR_LAYER_MIXER_NONE, HR_LAYER_MIXER_SHARED };

      for (guint i = 0; i < G_N_ELEMENTS (order); i++)
        if (out->has[order[i]][x])
          pattern_layer (sc, order[i], x, TRUE, order[i] == HR_LAYER_MIXER_ATTENTION ? NULL : same,
                         &out->kind[order[i]][x]);
    }
  /* What the first layer and the unadapted ones before it would keep as
   * any other layers: what the stack keeps less there is taken from it. */
  out->lead = out->kind[hr_model_layer_mixer (m, 0)][hr_model_layer_mlp (m, 0)];
  for (guint64 i = 1, n = unadapted_lead (sc); i <= n; i++)
    add_by_name (&out->lead, &out->kind[hr_model_layer_mixer (m, i)][hr_model_layer_mlp (m, i)]);
}

void
hr_activations_pattern_first_layer (const HrScenario   *sc,
                                    HrLayerActivations *out)
{
  const HrModelArch *m = &sc->model;
  guint64 n = unadapted_lead (sc);

  /* The first adapted layer, its input needing no gradient, and the
   * unadapted ones before it: nothing saved, no weight cast kept. */
  pattern_layer (sc, hr_model_layer_mixer (m, n), hr_model_layer_mlp (m, n),
                 hr_activations_input_grad (sc), NULL, out);
  for (guint64 i = 0; i < n; i++)
    {
      HrLayerActivations lead;

      pattern_layer (sc, hr_model_layer_mixer (m, i), hr_model_layer_mlp (m, i), FALSE, NULL, &lead);
      add_by_name (out, &lead);
    }
}

/* The last layer's kind last: the values the average takes from its
 * second layer (its MLP's, for the backward's first moment) are the last
 * layer's, which the backward starts with. */
void
hr_activations_pattern_average (const HrPatternKinds *kinds,
                                const guint64         count[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS],
                                guint                 last_mixer,
                                guint                 last_mlp,
                                HrLayerActivations   *out)
{
  double n = 0;

  *out = (HrLayerActivations) { 0 };
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
      if ((a != last_mixer || x != last_mlp) && count[a][x] > 0)
        average_into (out, &n, &kinds->kind[a][x], (double) count[a][x]);
  average_into (out, &n, &kinds->kind[last_mixer][last_mlp], (double) count[last_mixer][last_mlp]);
}

void
hr_activations_pattern_layer (const HrScenario   *sc,
                              HrLayerActivations *out,
                              HrLayerActivations *first,
                              HrLayerActivations *last)
{
  const HrModelArch *m = &sc->model;
  HrPatternKinds kinds;
  guint64 count[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS] = { { 0 } };
  guint64 l = m->layers - 1;
  guint la = hr_model_layer_mixer (m, l), lx = hr_model_layer_mlp (m, l);

  for (guint64 i = 0; i < m->layers; i++)
    count[hr_model_layer_mixer (m, i)][hr_model_layer_mlp (m, i)]++;
  hr_activations_pattern_kinds (sc, &kinds);
  hr_activations_pattern_average (&kinds, count, la, lx, out);
  *last = kinds.kind[la][lx];
  *first = kinds.kind[hr_model_layer_mixer (m, 0)][hr_model_layer_mlp (m, 0)];
}
