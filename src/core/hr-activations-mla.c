/* hr-activations-mla.c: what DeepSeek's latent attention and shared
 * experts save for the backward pass
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hugging Face's modeling_deepseek_v3.py, DeepseekV3Attention.forward
 * (validation leaves no torch.compile and no per-op checkpointing with
 * it), per token on a rank of a/t heads, in full training; under LoRA and
 * QLoRA what the frozen projections keep less follows (base_keeps):
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
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>

/* Whether a base linear keeps its input: its weight trains (full
 * training), or it is QLoRA's 4-bit matmul and the input needs a gradient
 * (MatMul4Bit.forward; hr_layer_needs_input).  LoRA's frozen bases keep
 * nothing: a frozen weight's gradient is not made. */
static gboolean
base_keeps (const HrTraining *tr,
            gboolean          input_grad)
{
  return tr->method == HR_METHOD_FULL || (tr->method == HR_METHOD_QLORA && input_grad);
}

/* Whether an adapter on TARGET reads its linear's input itself (without
 * dropout; with it, its dropped-out copy, counted with the adapters). */
static gboolean
adapter_reads (const LayerShape *L,
               guint             target)
{
  return L->lora && (L->lt & target) && !(L->tr->lora.dropout > 0);
}

/* The attention core where V keeps its own width: eager attention's Q, K,
 * V and scores, or a kernel's V and output. */
static void
add_core_unpadded (const LayerShape   *L,
                   HrLayerActivations *out,
                   double              qk,
                   double              v,
                   double              kv_up)
{
  const HrTraining *tr = L->tr;
  double T = L->T, a = L->a, ab = L->ab;

  /* Eager Q·Kᵀ keeps Q for K's gradient and K for Q's: in a first
   * layer whose input needs none, Q needs one through q's adapters
   * only, K through k's or v's (K's no-rope part comes from kv_b) */
  double qk_kept = !hr_attentions[tr->attention].scores || L->input_grad ? 2.0
                   : ((L->lt & (HR_LORA_K | HR_LORA_V)) ? 1.0 : 0.0) + ((L->lt & HR_LORA_Q) ? 1.0 : 0.0);

  hr_activations_add (out, N_("Q and K (rope joined)"), "2·b·s·a·(nope + rope)·bytes / (t·c)",
                      qk_kept * T * a * qk * ab);
  if (hr_attentions[tr->attention].scores)
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
      /* probs·V keeps the probabilities for V's gradient: in a first
       * layer without k or v adapters V needs none, and only the
       * softmax's output and the dropout's mask stay (the scores need
       * a gradient: the core does, L->attn_grad) */
      double scores = hr_attention_score_bytes (L, TRUE, L->input_grad
                                                || (L->lt & (HR_LORA_K | HR_LORA_V)));

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

void
hr_activations_mla (const LayerShape   *L,
                    HrLayerActivations *out,
                    double             *attn_work)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double rep = L->rep;
  double ab = L->ab;
  gboolean autocast = L->autocast;
  double h = L->h;
  double a = L->a;
  double qk = (double) (m->qk_nope_head_dim + m->qk_rope_head_dim);
  double v = (double) m->v_head_dim;
  double kv_up = (double) (m->qk_nope_head_dim + m->v_head_dim);
  double T = L->T;
  /* Hugging Face pads V for FlashAttention-2 only where it is narrower */
  gboolean padded = hr_attentions[tr->attention].pads_v && v != qk;
  /* Which tensors need gradients.  Under LoRA a latent needs one when
   * the layer's input does or the down projection making it has an
   * adapter (q, or k for kv_a_proj_with_mqa); the core when any of Q, K
   * and V does (L->attn_grad: V and K's no-rope part come from kv_b). */
  gboolean q_latent_grad = L->input_grad || (L->lt & HR_LORA_Q);
  gboolean kv_latent_grad = L->input_grad || (L->lt & HR_LORA_K);
  gboolean full = tr->method == HR_METHOD_FULL;
  /* A latent's RMSNorm keeps its fp32 upcast while the latent needs a
   * gradient, the normalised copy its weight multiplies while that weight
   * trains (full training); the up projection its input (the norm's
   * output, cast again by each linear under autocast) as base_keeps says,
   * and its adapter reads the same tensor. */
  double q_up = hr_layer_input_copies (autocast, (base_keeps (tr, q_latent_grad) ? 1.0 : 0.0)
                                                 + (adapter_reads (L, HR_LORA_Q) ? 1.0 : 0.0));
  double kv_up_in = hr_layer_input_copies (autocast, (base_keeps (tr, kv_latent_grad) ? 1.0 : 0.0)
                                                     + (adapter_reads (L, HR_LORA_V) ? 1.0 : 0.0));
  double q_latent = (q_latent_grad ? 4.0 : 0.0) + (full ? ab : 0.0) + q_up * ab;
  double kv_latent = (kv_latent_grad ? 4.0 : 0.0) + (full ? ab : 0.0) + kv_up_in * ab;
  /* The attention's input, the norm's output, is read by q_a_proj (or
   * q_proj) and kv_a_proj_with_mqa: one tensor, or under autocast each
   * reader's own 16-bit cast. */
  double readers = (base_keeps (tr, L->input_grad) ? 2.0 : 0.0)
                   + (adapter_reads (L, HR_LORA_Q) ? 1.0 : 0.0) + (adapter_reads (L, HR_LORA_K) ? 1.0 : 0.0);

  hr_activations_add (out, N_("attention input (norm output)"), "b·s·h·bytes·copies / c",
                      hr_layer_input_copies (autocast, readers) * T * h * ab / rep);
  if (m->q_lora_rank > 0)
    hr_activations_add (out, N_("query latent (its norm's and q_b's inputs)"), "b·s·q_lora·(4 + 2·bytes) / c",
                        T * (double) m->q_lora_rank * q_latent);
  /* (in fp32 the norm's upcast is its input itself, a view of
   * kv_a_proj_with_mqa's output: that whole output, the rope key too) */
  hr_activations_add (out, N_("key/value latent (its norm's and kv_b's inputs)"), "b·s·kv_lora·(4 + 2·bytes) / c",
                      T * (double) m->kv_lora_rank * kv_latent
                      + (ab == 4.0 && kv_latent_grad ? T * (double) m->qk_rope_head_dim * 4.0 : 0.0));
  /* In a first layer whose input needs no gradient and that adapts only
   * O, nothing before O needs one: O's adapter keeps the kernel's output
   * (or its copy) alone. */
  if (!L->attn_grad)
    {
      if (adapter_reads (L, HR_LORA_O))
        hr_activations_add (out, N_("attention context (O input)"), "b·s·a·v·bytes / (t·c)", T * a * v * ab);
      *attn_work = 0;
      return;
    }
  if (padded)
    {
      hr_activations_add (out, N_("Q, K and V (V padded to the Q/K width)"), "3·b·s·a·(nope + rope)·bytes / (t·c)",
                          3.0 * T * a * qk * ab);
      hr_activations_add (out, N_("attention output + log-sum-exp"), "b·s·a·((nope + rope)·bytes + 4) / (t·c)",
                          T * a * (qk * ab + 4.0));
    }
  else
    add_core_unpadded (L, out, qk, v, kv_up);
  /* (A kernel's output, allocated (b, s, a, v) and returned transposed, is
   * made (b, s, a·v) by a view: O keeps the same tensor; FlashAttention-2's
   * sliced output and eager attention's transposed one are copied.) */
  if ((padded || hr_attentions[tr->attention].scores)
      && (base_keeps (tr, TRUE) || adapter_reads (L, HR_LORA_O)))
    hr_activations_add (out, N_("attention context (O input)"), "b·s·a·v·bytes / (t·c)", T * a * v * ab);

  /* Its backward makes the gradients of Q, K and V while the output's
   * exists (V and the output padded for FlashAttention-2). */
  {
    double vw = padded ? qk : v;

    *attn_work = T * a * (2.0 * qk + 2.0 * vw) * ab;
  }
}

/* DeepSeek's and Nemotron-H's MoE beside the routed experts (the router's
 * fp32 copy of the tokens is counted with the routing,
 * hr-activations-blocks.c): the shared experts' saved tensors, a dense
 * MLP of width shared_experts x expert_ffn / t over every token,
 * frozen under LoRA as the routed experts are: a gated one keeps gate, up
 * and the activation (in a first layer adapting gate or up alone, the
 * adapted side's) and down's input where down trains or its adapter
 * reads it; GELU its fc1 output and fc2's input so; ReLU its output.
 * Their gate and up read the MoE block's input: under autocast each its
 * own 16-bit cast; otherwise the tensor the block keeps (full training:
 * the router keeps it) or, under LoRA, their adapters keep. */
void
hr_activations_shared_experts (const LayerShape   *L,
                               HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double rep = L->rep;
  double ab = L->ab;
  gboolean autocast = L->autocast;
  gboolean gated = hr_model_gated (m);
  double T = L->T;
  double h = L->h;
  double w = (double) (m->shared_experts * hr_model_expert_ffn (m)) / L->t;
  guint in_targets = gated ? L->mlp_in : HR_LORA_UP;
  double readers = (tr->method == HR_METHOD_FULL || (tr->method == HR_METHOD_QLORA && L->mlp_in_grad)
                    ? (gated ? 2.0 : 1.0) : 0.0)
                   + (L->lora && !(tr->lora.dropout > 0) ? (double) hr_lora_n_targets (L->lt & in_targets) : 0.0);
  gboolean down_keeps = hr_layer_needs_input (tr, HR_LORA_DOWN)
                        && (tr->method != HR_METHOD_QLORA || L->mlp_grad);
  double kept;

  if (m->shared_experts == 0)
    return;
  if (!L->mlp_grad)
    kept = 0;
  else if (gated)
    kept = L->mlp_in_grad ? 3.0 : ((L->lt & HR_LORA_GATE) ? 2.0 : 0.0) + ((L->lt & HR_LORA_UP) ? 1.0 : 0.0);
  else
    kept = 1.0;
  if (m->mlp != HR_MLP_RELU || !L->mlp_grad)
    kept += down_keeps && (L->mlp_grad || (L->lt & HR_LORA_DOWN)) ? 1.0 : 0.0;
  /* (the block's input: full training counts one copy with the MLP's;
   * under LoRA the adapters' reads are the shared experts' own) */
  hr_activations_add (out, N_("shared experts' outputs"), "(gate + up + act + down input)·b·s·n_shared·f_e·bytes / (t·c)",
                      kept * T * w * ab
                      + (autocast ? hr_layer_input_copies (autocast, readers) * T * h * ab / rep
                         : tr->method != HR_METHOD_FULL && readers > 0 ? T * h * ab / rep : 0.0));
}
