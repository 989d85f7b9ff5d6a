/* hr-activations-policy.c: what a layer keeps when something else than
 * autograd decides
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * torch.compile's partitioner keeps its own set of a traced layer's
 * tensors, and torchtitan's per-op checkpointing policy its own; both
 * start from the layer hr-activations.c describes (its checkpoint, the
 * layer's input) and replace what it saves.
 */

#include "hr-activations-private.h"
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>

/* training.compile: what a layer keeps when torch.compile traces it.
 * AOTAutograd's partitioner (torch/_functorch/partitioners.py,
 * min_cut_rematerialization_partition) never recomputes the
 * compute-intensive ops (mm, bmm, the SDPA kernels) nor a node its
 * backward would materialise anyway (should_ban_recomputation with
 * functorch config ban_recompute_materialized_backward, on by default:
 * every matmul's input, which the weight's gradient reads whole), and
 * recomputes the pointwise ops it can fuse into the backward.  So a
 * layer keeps its input and each norm's per-row statistics, the 16-bit
 * inputs of Q/K/V, of O and of the MLP, Q, K and V as the attention
 * kernel takes them (K and V not repeated), its output and log-sum-exp,
 * the gate's and up's outputs and the down projection's input, the
 * dropout masks, and for an MoE its routing.  Measured on an H200
 * (tests/reference/measure-stacks.py, saved-compile: Hugging Face's
 * Llama 3.2 1B layer, 4096 tokens, torch 2.11): 310,935,568 bytes a
 * layer, this sum to the byte; the sum without the matmul inputs and the
 * down input, which this function returned before, was 32 % under.
 * Full training only: with adapters the partitioner's choices depend on
 * which matmuls need inputs, and the eager figures stand. */
void
hr_activations_compiled_layer (const LayerShape   *L,
                               HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double c = L->c;
  double rep = L->rep;
  double ab = L->ab;
  double rb = L->autocast && !L->residual16 ? 4.0 : ab;   /* the residual stream's type */
  double h = L->h;
  double d = L->d;
  double a = L->a;
  double k = L->k;
  double s = L->s;
  double b = L->b;
  double T = L->T;
  gboolean moe = L->moe;
  double routed = L->routed;
  double w = L->w;
  double norms = m->parallel_block && hr_model_norms_per_layer (m) > 1
                 ? 1.0 : (double) hr_model_norms_per_layer (m);
  double stats = m->norm == HR_NORM_RMSNORM ? 4.0 : 8.0;   /* rstd, or mean and rstd */

  out->n = 0;
  out->total = 0;
  hr_activations_add (out, N_("layer input and norm statistics (compiled)"), "b·s·(h·bytes / c + norms·stats)",
                      T * (h * rb / rep + norms * stats));
  /* one input for Q, K and V, one for O, one for the MLP (a parallel
   * block's attention and MLP read the same norm output) */
  hr_activations_add (out, N_("matmul inputs (compiled)"), "b·s·((1 or 2)·h + a·d)·bytes / (t·c)",
                      T * ((m->parallel_block ? 1.0 : 2.0) * h + a * d) * ab);
  hr_activations_add (out, N_("Q, K, V (compiled)"), "b·s·(a + 2k)·d·bytes / (t·c)", T * (a + 2 * k) * d * ab
                      + (m->qk_norm != HR_QK_NORM_NONE ? T * (a + k) * 4.0 : 0.0));
  if (hr_attentions[tr->attention].scores)
    hr_activations_add (out, N_("attention scores (softmax, dropout)"),
                        "a·b·s²·(softmax + dropout mask) / (t·c) + context", a * b * (s / c) * s
                        * ((hr_activations_autocast (tr) ? 4.0 : ab) + (m->dropout ? 1.0 : 0.0)) + T * a * d * ab);
  else
    hr_activations_add (out, N_("attention output + log-sum-exp"), "b·s·a·(d·bytes + 4) / (t·c)",
                        T * a * (d * ab + 4.0));
  out->mlp_saved = 0;
  {
    double before = out->total;

    hr_activations_add (out, N_("MLP projections' outputs and down's input (compiled)"),
                        "(gate + up + down's input)·b·s·k_e·f·bytes / (t·c)",
                        (hr_model_gated (m) ? 3.0 : 2.0) * T * routed * w * ab);
    if (moe)
      hr_activations_add (out, N_("routing indices and weights"), "b·s·(k_e·(16 + 8 + 4 + bytes) + 4) / c",
                         T * (routed * (16.0 + 8.0 + 4.0 + rb) + 4.0) + T * (double) m->experts * 4.0);
    if (moe)
      hr_activations_add (out, N_("expert inputs, outputs and weighted outputs"), "b·s·k_e·h·bytes / c",
                          T * routed * h * ab / rep);
    out->mlp_saved = out->total - before;
  }
  if (m->dropout)
    hr_activations_add (out, N_("dropout masks"), "2·b·s·h / c", 2.0 * T * h / rep);
}

/* Per-op selective checkpointing (training.checkpointing "op"):
 * torchtitan's SelectiveAC (torchtitan/distributed/
 * activation_checkpoint.py, _wrap_block's policy) keeps the outputs of
 * the compute-intensive ops (torch/_functorch/partitioners.py,
 * get_default_op_list: mm, addmm, bmm, the SDPA kernels), of topk and of
 * reduce-scatter, but recomputes every second mm of the layer, counted in
 * forward order; the layer's input is its checkpoint.  The order is Q,
 * K, V, O, then gate, up, down (fc1, fc2); a linear with a bias is an
 * addmm, kept and not counted.  The router's gate is recomputed
 * (force_recompute_mm_shapes_by_fqns: "moe.router.gate"). */
void
hr_activations_op_policy (const LayerShape   *L,
                          HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  const HrParallel *par = L->par;
  double c = L->c;
  double rep = L->rep;
  double ab = L->ab;
  double h = L->h;
  double d = L->d;
  double a = L->a;
  double k = L->k;
  double s = L->s;
  double b = L->b;
  double T = L->T;
  gboolean moe = L->moe;
  double routed = L->routed;
  double w = L->w;
  gboolean gated = hr_model_gated (m);
  double widths[7] = { a * d, k * d, k * d, h,
                       routed * w, routed * w, routed * h };
  gboolean all = hr_model_linear_biases (m);
  gboolean biased[7] = { m->bias != HR_BIAS_NONE, hr_model_key_bias (m), m->bias != HR_BIAS_NONE,
                         all, all, all, all };
  double inputs[7] = { h, h, h, a * d, h, h, w };
  double flops = 0, again = 0;
  guint mm = 0;

  out->op_saved = out->checkpoint;
  out->op_only = 0;
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      if (i == 4 && !gated)
        continue;   /* no gate: fc1 (up), fc2 (down) */
      flops += inputs[i] * widths[i];
      if (!biased[i] && ++mm % 2 == 0)
        again += inputs[i] * widths[i];
      else
        {
          out->op_saved += T * widths[i] * ab;
          /* O's and down's outputs are kept by no backward of theirs */
          if (i == 3 || i == 6)
            out->op_only += T * widths[i] * ab;
        }
    }
  out->op_recomputed_flops = flops > 0 ? again / flops : 0.0;
  if (hr_attentions[tr->attention].scores)
    out->op_saved += a * b * (s / c) * s * ab + T * a * d * ab;   /* Q·Kᵀ, probs·V (bmm) */
  else
    out->op_saved += T * a * (d * ab + 4.0);                        /* output, log-sum-exp */
  if (moe)
    out->op_saved += T * routed * (8.0 + ab);                       /* topk: indices, values */
  if (par->tp > 1 && par->sp)
    {
      out->op_saved += 2.0 * T * h * ab / rep;                      /* two reduce-scatters */
      out->op_only += 2.0 * T * h * ab / rep;
    }
  /* Compiled blocks (training.compile, the loss compiled or not): the
   * policy's answers become tags on the traced graph's nodes
   * (torch/utils/checkpoint.py _CachingTorchDispatchMode, when compiling:
   * fx meta "recompute"), and AOTAutograd's partitioner saves the cut
   * between the forward's inputs and the nodes the backward reads
   * (torch/_functorch/partitioners.py solve_min_cut: MUST_SAVE only bans
   * a node's recomputation, should_ban_recomputation).  An output no
   * backward reads (O's and down's, the reduce-scatters': each is only
   * added to the residual stream) lies on no path to the backward and is
   * not saved, where eager SAC caches every listed op's output
   * (CheckpointPolicy's note: a policy saving every op "would save
   * additional tensors not limited to ones that are actually needed for
   * gradient computation").  torchtitan compiles each block after
   * wrapping it (torchtitan/parallelisms/parallelize_llama.py at 9dec370:
   * apply_ac, then apply_compile; its policy answers MUST_SAVE or
   * PREFER_RECOMPUTE). */
  if (tr->compile)
    {
      out->op_saved -= out->op_only;
      out->op_only = 0;
    }
}
