/* hr-activations-blocks.c: what a layer's attention and MLP save
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The two blocks of a transformer layer, on one tensor/context-parallel
 * rank (LayerShape, hr-activations-private.h): what autograd keeps of the
 * attention (its input, Q, K and V, the kernel's output or the eager
 * scores) and of the MLP (dense, or the experts with their routing).
 * hr-activations.c adds the norms, the adapters and the backward pass's
 * working set around them.
 */

#include "hr-activations-private.h"
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>

/* The bytes eager attention's scores keep, a·b·s²·(per element) / (t·c):
 * the softmax's output and, with dropout, its mask and output, 5·a·s²·b
 * in 16-bit (Korthikanti), while the scores need a gradient
 * (SCORES_GRAD); probs·V's probabilities while V needs one (V_GRAD).
 * torch.autocast runs softmax in fp32, so its output and the dropout's
 * are fp32, and the matmul with V keeps its own 16-bit cast of the latter
 * instead of it.  T5Attention (modeling_t5.py) runs its softmax in fp32
 * whatever the type, softmax(scores.float()).type_as(scores): an fp32
 * output and the 16-bit copy the matmul with V keeps, as under autocast
 * (hr_activations_fp32_softmax).  Without either and without dropout
 * probs·V keeps the softmax's output itself.  Selective recompute drops
 * exactly these. */
double
hr_attention_score_bytes (const LayerShape *L,
                          gboolean          scores_grad,
                          gboolean          v_grad)
{
  gboolean fp32_softmax = hr_activations_fp32_softmax (L->scenario);
  gboolean dropout = L->m->dropout;
  double probs = fp32_softmax ? 4.0 : L->ab;
  double per = (scores_grad ? probs + (dropout ? 1.0 : 0.0) : 0.0)
               + (v_grad ? (fp32_softmax ? L->ab : scores_grad && !dropout ? 0.0 : probs) : 0.0);

  return L->a * L->b * (L->s / L->c) * L->s * per;
}

/* What Q, K and V keep.  Before PyTorch's SDPA took grouped K and V
 * (enable_gqa, 2.5), code that calls it or computes attention eagerly
 * repeats K and V to every head and the kernel saves those copies: Hugging
 * Face's repeat_kv, LitGPT's expand + reshape ("flash attention requires
 * it").  FlashAttention-2's own kernel reads the grouped ones.  Q/K norms
 * are RMSNorms over the projections' 16-bit outputs: the fp32 copy of
 * their input and, when their weights train, the normalised copy the
 * weight multiplies (hr_activations_norm_bytes). */
static void
add_qkv (const LayerShape   *L,
         HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double d = L->d, a = L->a, k = L->k, b = L->b, T = L->T, ab = L->ab;
  guint lt = L->lt;

  if (!L->attn_grad)
    ;  /* no adapter before the attention in a first layer: nothing needs a gradient */
  else if (hr_attentions[tr->attention].scores && !L->input_grad
           && !((lt & HR_LORA_Q) && (lt & HR_LORA_K)))
    {
      /* A first layer's eager attention with adapters on some of Q, K and
       * V: only their outputs need gradients.  Q·Kᵀ keeps Q for K's
       * gradient and K for Q's; probs·V keeps V when the scores need a
       * gradient (derivatives.yaml: mm, bmm save each operand for the
       * other's gradient only). */
      double kk = k >= a || (k == 1 && b == 1) ? k : a;
      gboolean qg = (lt & HR_LORA_Q) != 0, kg = (lt & HR_LORA_K) != 0;

      hr_activations_add (out, kk == k ? N_("Q, K, V") : N_("Q, K, V (K, V repeated per head)"),
                          "b·s·(adapted)·d·bytes / (t·c)",
                          T * ((kg ? a : 0.0) + (qg ? kk : 0.0) + (qg || kg ? kk : 0.0)) * d * ab);
    }
  else if (!hr_attentions[tr->attention].repeats_kv || k >= a)
    hr_activations_add (out, N_("Q, K, V"), "b·s·(a + 2k)·d·bytes / (t·c)", T * (a + 2 * k) * d * ab);
  else if (k == 1 && (hr_attentions[tr->attention].kv_views || b == 1))
    /* One K/V head (multi-query): repeat_kv's expand + reshape merges a
     * dimension of size 1 and returns a view, which SDPA keeps as it is.
     * Eager attention's matmul copies it, reshaping batch and heads into
     * one dimension for bmm, unless one sequence makes that a view too. */
    {
      /* ... except when a Q/K norm made K fp32 under autocast (its fp32
       * weight times the 16-bit normalised input promotes: Qwen3RMSNorm's
       * weight * hidden_states.to(input_dtype)); the 16-bit cast for the
       * kernel then copies the repeated view whole (the reference
       * oracle's case 239 of seed 294901). */
      double kk = m->qk_norm != HR_QK_NORM_NONE && L->autocast ? a : 1.0;

      hr_activations_add (out, N_("Q, K, V"), kk == 1.0 ? "b·s·(a + 2)·d·bytes / (t·c)" : "b·s·(2a + 1)·d·bytes / (t·c)",
                          T * (a + kk + 1) * d * ab);
    }
  else
    hr_activations_add (out, N_("Q, K, V (K, V repeated per head)"), "b·s·3a·d·bytes / (t·c)", T * 3 * a * d * ab);
  if (m->qk_norm != HR_QK_NORM_NONE && L->attn_grad)
    hr_activations_add (out, N_("Q/K norm inputs (fp32)"), "b·s·(a + k)·d·(4 + bytes) / (t·c)",
                        T * (L->input_grad ? a + k : ((lt & HR_LORA_Q) ? a : 0.0) + ((lt & HR_LORA_K) ? k : 0.0))
                        * d * (4.0 + (tr->method == HR_METHOD_FULL ? ab : 0.0)));
}

/* What the attention's core keeps: a kernel's output and log-sum-exp, or
 * eager attention's scores, and the O projection's input. */
static void
add_attention_core (const LayerShape   *L,
                    HrLayerActivations *out)
{
  const HrTraining *tr = L->tr;
  double d = L->d, a = L->a, T = L->T, ab = L->ab, lin_in = L->lin_in;
  guint lt = L->lt;

  if (!L->attn_grad)
    {
      if (hr_layer_needs_input (tr, HR_LORA_O) && L->lora && (lt & HR_LORA_O))
        hr_activations_add (out, N_("attention context (O input)"), "b·s·a·d·bytes / (t·c)", T * a * d * ab);
    }
  else if (!hr_attentions[tr->attention].scores)
    {
      /* FlashAttention (and SDPA's flash and memory-efficient kernels)
       * saves its output (also the O projection's input) and
       * one fp32 log-sum-exp per row and head. */
      hr_activations_add (out, N_("attention output + log-sum-exp"), "b·s·a·(d·bytes + 4) / (t·c)",
                          T * a * (d * ab + 4.0));
      /* ... and Transformer Engine's O projection its own fp8 copy of it
       * (lin_in, layer_shape). */
      if (lin_in != ab)
        hr_activations_add (out, N_("O projection input (fp8)"),
                            lin_in == 1.0 ? "b·s·a·d·1 / (t·c)" : "b·s·a·d·(1 + 1/32) / (t·c) (MXFP8)",
                            T * a * d * lin_in);
    }
  else
    {
      /* In a first layer adapting some of Q, K and V the scores need a
       * gradient when Q or K is adapted, V when V is. */
      double score_bytes = hr_attention_score_bytes (L, L->input_grad || (lt & (HR_LORA_Q | HR_LORA_K)),
                                                     L->input_grad || (lt & HR_LORA_V));

      if (tr->checkpointing != HR_CHECKPOINTING_SELECTIVE)
        hr_activations_add (out, N_("attention scores (softmax, dropout)"),
                            "a·b·s²·(softmax + dropout mask + dropout output) / (t·c)", score_bytes);
      else
        out->recomputed = score_bytes;
      if (hr_layer_needs_input (tr, HR_LORA_O))
        hr_activations_add (out, N_("attention context (O input)"), "b·s·a·d·bytes / (t·c)", T * a * d * lin_in);
    }
}

/* The attention: its input, Q, K and V, the kernel's output, its scores
 * when eager, Q/K norms, dropout; *MLA_WORK its backward's working set
 * where DeepSeek's latent attention replaces it. */
void
hr_layer_add_attention (const LayerShape   *L,
                        HrLayerActivations *out,
                        double             *mla_attn_work)
{
  const HrModelArch *m = L->m;
  double h = L->h, T = L->T, rep = L->rep;
  guint attn_first = out->n;
  double attn_start = out->total;

  /* Attention.  The norm's output is kept by each linear layer that needs
   * it for its weight's gradient (input_copies).  (DeepSeek's latent
   * attention replaces what this lists, below.) */
  hr_activations_add (out, N_("attention input (norm output)"), "b·s·h·bytes·copies / c",
                      hr_layer_input_copies (L->autocast, L->qkv_readers
                                                          + (L->shared_norm ? L->mlp_readers : 0.0))
                      * T * h * L->lin_in / rep);
  add_qkv (L, out);
  add_attention_core (L, out);
  if (hr_model_mla (m))
    {
      out->n = attn_first;
      out->total = attn_start;
      out->recomputed = 0;
      hr_activations_mla (L, out, mla_attn_work);
    }
  if (m->dropout && L->attn_out_grad)
    hr_activations_add (out, N_("attention dropout mask"), "b·s·h / c", T * h / rep);
}

/* An MoE layer's routing and its experts' gathered tokens: Mixtral's
 * sparse MoE block as Hugging Face writes it (the comment below), or a
 * latent MoE's. */
static void
add_expert_routing (const LayerShape   *L,
                    HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  double ab = L->ab, h = L->h, T = L->T, routed = L->routed, rep = L->rep;
  gboolean autocast = L->autocast, mlp_in_grad = L->mlp_in_grad;
  double expert_readers = L->expert_readers;

  /* Mixtral's sparse MoE block as Hugging Face writes it
   * (MixtralSparseMoeBlock.forward): an fp32 softmax over the router's
   * logits (kept), top-k (its indices kept), the weights renormalised
   * (div keeps both operands); then per expert torch.where of the
   * one-hot mask (one int64 tensor of slot and token indices, kept by
   * every index op), the expert's tokens gathered (a copy its gate and
   * up keep), its output times the routing weight (mul keeps both:
   * the weight needs a gradient through the router), and index_add_,
   * which keeps its source to take its shape (derivatives.yaml:
   * index_add, expand_as(source)): per routed token three h-wide
   * tensors, the weighted one fp32 under autocast (the weights have
   * the fp32 residual's type).  A latent MoE's experts read and write
   * the latent's width instead (NemotronHMoE: fc1_latent_proj before
   * them, whose output the gathers read without keeping it), and
   * fc2_latent_proj keeps their sum for its weight's gradient: the sum
   * in the type of the latent projection's output, 16 bits under
   * autocast too, and the gathered tokens are 16-bit already, one copy
   * for every reader.
   *
   * A pattern's E block is Nemotron-H's NemotronHMoE, which routes as
   * DeepSeek-V3 does (NemotronHTopkRouter is DeepseekV3TopkRouter: an fp32
   * linear over an fp32 copy of the tokens, which it keeps while its
   * weight trains; sigmoid scores, kept as the softmax's are; group
   * top-k, whose masks and indices nothing downstream keeps; the chosen
   * scores gathered, renormalised and scaled, in fp32) and sums its
   * experts in fp32 (NemotronHExperts.forward: final_hidden_states has
   * top_k_weights' dtype, each expert's output times its fp32 weight is
   * fp32, index_add_ keeps that), cast back to the tokens' type after.
   * DeepSeek's own MoE (shared experts, no pattern) keeps the same fp32
   * router input and sums in the tokens' type (MixtralExperts).
   *
   * Granite 4.0-H's experts (shared experts beside listed mixers:
   * GraniteMoeMoE with JetMoe's top-k gating) route in the tokens' type,
   * the logits cast to fp32 after the linear, no fp32 copy of the tokens;
   * they are planned with Mixtral's routing tensors otherwise, whose fp32
   * softmax over every expert (b·s·E·4, 256 bytes a token for 64 experts)
   * JetMoe takes over the top k alone: under 1 % of such a layer's saved
   * bytes, against some 80 KB a token of the experts' own tensors. */
  gboolean latent = m->moe_latent_size > 0;
  gboolean nemotron = L->moe_router == HR_MOE_ROUTER_NEMOTRON;
  gboolean deepseek = L->moe_router == HR_MOE_ROUTER_MODEL && m->shared_experts > 0;
  double el = latent ? (double) m->moe_latent_size : h;
  double wb = (autocast && !latent) || nemotron ? 4.0 : ab;
  double copies = hr_layer_input_copies (autocast && !latent, expert_readers);

  /* (in fp32 the upcast is the input itself; under autocast the router's
   * linear keeps its 16-bit cast, the MLP input the plan counts already) */
  if (deepseek || nemotron)
    hr_activations_add (out, N_("router input (fp32)"), "b·s·h·4 / c",
                        autocast || ab == 4.0 || L->tr->method != HR_METHOD_FULL ? 0.0 : T * h * 4.0 / rep);
  /* (In a first layer whose MLP input needs no gradient, the routing
   * needs none either: only the index and the weights the experts'
   * outputs are multiplied by are kept.) */
  /* (When only the experts' down adapters need gradients, their
   * inputs are gathered without one.) */
  if (mlp_in_grad)
    hr_activations_add (out, N_("router logits (fp32)"), "b·s·E·4 / c", T * (double) m->experts * 4.0);
  hr_activations_add (out, N_("expert inputs, outputs and weighted outputs"),
                      latent ? "b·s·k_e·L·(input + output + weighted)·bytes / c"
                             : "b·s·k_e·h·(copies·bytes + bytes + weighted bytes) / c",
                      T * routed * el * (copies * ab + (mlp_in_grad ? ab : 0.0) + wb)
                      / rep);
  if (latent)
    hr_activations_add (out, N_("experts' sum (the latent projection's input)"), "b·s·L·bytes / c",
                        T * el * ab);
  hr_activations_add (out, N_("routing indices and weights"), "b·s·(k_e·(16 + 8 + 4 + bytes) + 4) / c",
                      mlp_in_grad ? T * (routed * (16.0 + 8.0 + 4.0 + wb) + 4.0) : T * routed * (16.0 + wb));
}

/* The MLP, dense or its experts with their routing, and its dropout. */
void
hr_layer_add_mlp (const LayerShape   *L,
                  HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double rep = L->rep;
  double ab = L->ab;
  double lin_in = L->lin_in;
  double h = L->h;
  double T = L->T;
  gboolean moe = L->moe;
  double routed = L->routed;
  double w = L->w;
  gboolean autocast = L->autocast;
  gboolean shared_norm = L->shared_norm;
  guint lt = L->lt;
  gboolean mlp_in_grad = L->mlp_in_grad;
  gboolean mlp_grad = L->mlp_grad;
  gboolean mlp_out_grad = L->mlp_out_grad;
  double mlp_readers = L->mlp_readers;
  double mlp_start;

  /* MLP. */
  mlp_start = out->total;
  out->mlp_first = out->n;
  if (!shared_norm)
    hr_activations_add (out, N_("MLP input (norm output)"), "b·s·h·bytes·copies / c",
                        hr_layer_input_copies (autocast, mlp_readers) * (moe ? ab : lin_in) * T * h / rep);
  if (!mlp_grad)
    {
      /* Only the down projection's adapter needs a gradient: it keeps its
       * input (or a dropped-out copy, with the adapters). */
      if (hr_layer_needs_input (tr, HR_LORA_DOWN) && (lt & HR_LORA_DOWN))
        hr_activations_add (out, N_("down-projection input"), "b·s·k_e·f·bytes / (t·c)", T * routed * w * ab);
    }
  else if (hr_model_gated (m))
    {
      /* act(gate)·up: silu keeps its input, mul each operand for the
       * other's gradient.  In a first layer adapting gate or up alone,
       * only the adapted side needs a gradient: gate keeps its output and
       * up's, up keeps the activation. */
      double kept = mlp_in_grad ? 3.0 : ((lt & HR_LORA_GATE) ? 2.0 : 0.0) + ((lt & HR_LORA_UP) ? 1.0 : 0.0);

      hr_activations_add (out, N_("gate, up and activation outputs"), "3·b·s·k_e·f·bytes / (t·c)",
                          kept * T * routed * w * ab);
      if (hr_layer_needs_input (tr, HR_LORA_DOWN))
        hr_activations_add (out, N_("down-projection input"), "b·s·k_e·f·bytes / (t·c)",
                            T * routed * w * (moe ? ab : lin_in));
    }
  else if (m->mlp == HR_MLP_RELU && lin_in == ab)
    {
      /* ReLU's backward reads its result (derivatives.yaml: relu,
       * threshold_backward(grad, result, 0)), the very tensor fc2 keeps:
       * one f-wide tensor, whether fc2 trains or not. */
      hr_activations_add (out, N_("ReLU output (fc2 input)"), "b·s·k_e·f·bytes / (t·c)", T * routed * w * ab);
    }
  else
    {
      /* GELU's backward reads its input, fc2 its own input (with
       * Transformer Engine's fp8, an fp8 copy, lin_in: so ReLU's too,
       * whose backward in LayerNormMLP reads fc1's 16-bit output).
       * Squared ReLU (transformers' ReLUSquaredActivation:
       * square(relu(x))) keeps one f-wide tensor the same way: relu's
       * result, which relu's backward and square's (pow reads its input)
       * both read; the up projection's output is freed. */
      gboolean relu2 = m->mlp == HR_MLP_RELU2;

      hr_activations_add (out, relu2 ? N_("ReLU output (the square's input)") : N_("fc1 output"),
                          "b·s·k_e·f·bytes / (t·c)", T * routed * w * ab);
      if (hr_layer_needs_input (tr, HR_LORA_DOWN))
        hr_activations_add (out, relu2 ? N_("squared output (down-projection input)")
                                       : N_("activation output (fc2 input)"),
                            "b·s·k_e·f·bytes / (t·c)", T * routed * w * (moe ? ab : lin_in));
    }
  if (moe && mlp_out_grad)
    add_expert_routing (L, out);
  if (moe && mlp_out_grad)
    hr_activations_shared_experts (L, out);
  if (m->dropout && mlp_out_grad)
    hr_activations_add (out, N_("MLP dropout mask"), "b·s·h / c", T * h / rep);

  out->mlp_saved = out->total - mlp_start;
}
