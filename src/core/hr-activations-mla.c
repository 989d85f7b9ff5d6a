/* hr-activations-mla.c: what DeepSeek's latent attention and shared
 * experts save for the backward pass
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hugging Face's modeling_deepseek_v3.py, DeepseekV3Attention.forward, in
 * full training (validation leaves no adapters, no torch.compile, no per-op
 * checkpointing with it), per token on a rank of a/t heads:
 * - the attention's input (the norm's output), read by q_a_proj (or
 *   q_proj) and kv_a_proj_with_mqa: one tensor, or under autocast each
 *   linear's own 16-bit cast;
 * - each latent (q_lora_rank wide when there is one, kv_lora_rank) passes
 *   an RMSNorm (q_a_layernorm, kv_a_layernorm), which keeps its fp32 upcast
 *   and the normalised copy its weight multiplies (DeepseekV3RMSNorm
 *   .forward, as LlamaRMSNorm), then an up projection (q_b_proj,
 *   kv_b_proj), which keeps its input: the latents are not split by
 *   tensor parallelism (Megatron's down projections are whole on each rank);
 * - rope multiplies the rope parts by cos and sin, which keep nothing of
 *   the tokens' (cos and sin are one tensor for every layer, b·s·rope);
 * - torch.cat joins the no-rope and rope parts of Q and of K into new
 *   tensors, a·(nope + rope) wide each; V is a view of kv_b_proj's output,
 *   a·(nope + v) wide, which a kernel that keeps V keeps whole;
 * - the kernel: FlashAttention-2 needs V as wide as Q and K, so Hugging
 *   Face pads it (F.pad: a new tensor) and slices the output back; the
 *   kernel keeps Q, K, the padded V, its padded output and an fp32
 *   log-sum-exp per row and head.  PyTorch's SDPA with V narrower than Q
 *   runs the memory-efficient kernel (the flash one needs equal head
 *   dimensions), which keeps Q, K, V (the view: kv_b_proj's output), its
 *   output and the log-sum-exp; FlashAttention-2 does so too where V is as
 *   wide as Q (Hugging Face pads it only when it is narrower).  Eager
 *   attention keeps Q and K for Q·Kᵀ, the softmax (hr-activations.c's
 *   scores) and V for probs·V, where torch.matmul folds (b, a) into one
 *   batch dimension and so copies the strided view: a·v wide;
 * - o_proj keeps its input, the output made contiguous: a·v wide (a
 *   copy after FlashAttention-2's slice and eager attention's transpose;
 *   SDPA's output is (b, s, a, v) in memory already, a view).
 * DeepseekV3MoE adds the shared experts (one MLP of shared_experts x
 * expert_ffn over every token, reading the same MLP input as the router),
 * and DeepSeek's gate upcasts its input for its fp32 logits
 * (DeepseekV3TopkRouter.forward: F.linear (hidden_states.type
 * (torch.float32), ...)), a copy F.linear keeps.
 */

#include "hr-activations-private.h"

#include <glib/gi18n-lib.h>

void
hr_activations_mla (const HrScenario   *scenario,
                    double              scores,
                    HrLayerActivations *out,
                    double             *attn_work)
{
  const HrModelArch *m = &scenario->model;
  const HrTraining *tr = &scenario->training;
  const HrParallel *par = &scenario->parallel;
  double t = (double) MAX (par->tp, 1);
  double rep = par->sp ? t : 1.0;
  double ab = hr_dtype_bytes (tr->dtypes.activations);
  gboolean autocast = tr->dtypes.weights == HR_DTYPE_FP32 && tr->dtypes.activations != HR_DTYPE_FP32;
  double h = (double) m->hidden;
  double a = (double) m->heads / t;
  double qk = (double) (m->qk_nope_head_dim + m->qk_rope_head_dim);
  double v = (double) m->v_head_dim;
  double kv_up = (double) (m->qk_nope_head_dim + m->v_head_dim);
  double T = (double) tr->micro_batch * (double) tr->seq_len / (double) MAX (par->cp, 1);
  double latent = 4.0 + 2.0 * ab;    /* fp32 upcast, normalised copy, up projection's input */
  /* Hugging Face pads V for FlashAttention-2 only where it is narrower */
  gboolean padded = tr->attention == HR_ATTENTION_FLASH && v != qk;

  hr_activations_add (out, N_("attention input (norm output)"), "b·s·h·bytes·copies / c",
                      (autocast ? 2.0 : 1.0) * T * h * ab / rep);
  if (m->q_lora_rank > 0)
    hr_activations_add (out, N_("query latent (its norm's and q_b's inputs)"), "b·s·q_lora·(4 + 2·bytes) / c",
                        T * (double) m->q_lora_rank * latent);
  /* (in fp32 the norm's upcast is its input itself, a view of
   * kv_a_proj_with_mqa's output: that whole output, the rope key too) */
  hr_activations_add (out, N_("key/value latent (its norm's and kv_b's inputs)"), "b·s·kv_lora·(4 + 2·bytes) / c",
                      T * (double) m->kv_lora_rank * latent
                      + (ab == 4.0 ? T * (double) m->qk_rope_head_dim * 4.0 : 0.0));
  if (padded)
    {
      hr_activations_add (out, N_("Q, K and V (V padded to the Q/K width)"), "3·b·s·a·(nope + rope)·bytes / (t·c)",
                          3.0 * T * a * qk * ab);
      hr_activations_add (out, N_("attention output + log-sum-exp"), "b·s·a·((nope + rope)·bytes + 4) / (t·c)",
                          T * a * (qk * ab + 4.0));
    }
  else
    {
      hr_activations_add (out, N_("Q and K (rope joined)"), "2·b·s·a·(nope + rope)·bytes / (t·c)", 2.0 * T * a * qk * ab);
      if (tr->attention == HR_ATTENTION_EAGER)
        {
          /* probs·V: matmul folds (b, a) into one batch dimension, which
           * copies the strided view of V (the copy is what bmm keeps),
           * unless one sequence makes the fold a view: then it keeps the
           * view, and so kv_b's whole output (the reference oracle's
           * deepseek case 24 of seed 11) */
          if (tr->micro_batch == 1)
            hr_activations_add (out, N_("V (the key/value up projection's output)"), "b·s·a·(nope + v)·bytes / (t·c)",
                                T * a * kv_up * ab);
          else
            hr_activations_add (out, N_("V (copied by probs·V)"), "b·s·a·v·bytes / (t·c)", T * a * v * ab);
          if (tr->checkpointing != HR_CHECKPOINTING_SELECTIVE)
            hr_activations_add (out, N_("attention scores (softmax, dropout)"),
                                "a·b·s²·(softmax + dropout mask + dropout output) / (t·c)", scores);
          else
            out->recomputed = scores;
        }
      else
        {
          /* the kernel keeps V as given: a view of kv_b's whole output */
          hr_activations_add (out, N_("V (the key/value up projection's output)"), "b·s·a·(nope + v)·bytes / (t·c)",
                              T * a * kv_up * ab);
          hr_activations_add (out, N_("attention output + log-sum-exp"), "b·s·a·(v·bytes + 4) / (t·c)",
                              T * a * (v * ab + 4.0));
        }
    }
  /* (A kernel's output, allocated (b, s, a, v) and returned transposed, is
   * made (b, s, a·v) by a view: O keeps the same tensor; FlashAttention-2's
   * sliced output and eager attention's transposed one are copied.) */
  if (padded || tr->attention == HR_ATTENTION_EAGER)
    hr_activations_add (out, N_("attention context (O input)"), "b·s·a·v·bytes / (t·c)", T * a * v * ab);

  /* Its backward makes the gradients of Q, K and V while the output's
   * exists (V and the output padded for FlashAttention-2). */
  {
    double vw = padded ? qk : v;

    *attn_work = T * a * (2.0 * qk + 2.0 * vw) * ab;
  }
}

/* DeepSeek's MoE beside the routed experts: the gate's fp32 copy of its
 * input, and the shared experts' saved tensors (as a dense MLP of width
 * shared_experts x expert_ffn / t: a gated one keeps gate, up, the
 * activation and down's input; GELU's fc1 output and fc2's input; ReLU's
 * output), with under autocast their own 16-bit casts of the input. */
void
hr_activations_shared_experts (const HrScenario   *scenario,
                               HrLayerActivations *out)
{
  const HrModelArch *m = &scenario->model;
  const HrTraining *tr = &scenario->training;
  const HrParallel *par = &scenario->parallel;
  double t = (double) MAX (par->tp, 1);
  double rep = par->sp ? t : 1.0;
  double ab = hr_dtype_bytes (tr->dtypes.activations);
  gboolean autocast = tr->dtypes.weights == HR_DTYPE_FP32 && tr->dtypes.activations != HR_DTYPE_FP32;
  gboolean gated = hr_model_gated (m);
  double T = (double) tr->micro_batch * (double) tr->seq_len / (double) MAX (par->cp, 1);
  double h = (double) m->hidden;
  double w = (double) (m->shared_experts * hr_model_expert_ffn (m)) / t;
  double kept = gated ? 4.0 : m->mlp == HR_MLP_RELU ? 1.0 : 2.0;

  if (m->shared_experts == 0)
    return;
  /* (in fp32 the upcast is the input itself; under autocast the gate's
   * linear keeps its 16-bit cast, the MLP input the plan counts already) */
  hr_activations_add (out, N_("router input (fp32)"), "b·s·h·4 / c", autocast || ab == 4.0 ? 0.0 : T * h * 4.0 / rep);
  hr_activations_add (out, N_("shared experts' outputs"), "(gate + up + act + down input)·b·s·n_shared·f_e·bytes / (t·c)",
                      kept * T * w * ab + (autocast ? (gated ? 2.0 : 1.0) * T * h * ab / rep : 0.0));
}
