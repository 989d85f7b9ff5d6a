/* hr-activations-backward.c: what a layer's backward pass holds besides
 * the tensors its forward saved
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The gradients a layer's backward makes at its widest point, and the
 * casts of frozen weights autocast keeps for a first layer's input
 * gradient: both are counted beside the saved tensors
 * (hr-activations.c) and checked by the reference oracle.
 */

#include "hr-activations-private.h"
#include "hr-attentions.h"

/* What the layer's backward pass holds besides its saved tensors, at its
 * widest point, the MLP's (the reference oracle's sampler sees it after
 * every op): the gradient of the down projection's input, and for a
 * gated MLP the gradients of the gate's activation and of the up output,
 * which mul's backward makes at once, while the down projection's weight
 * gradient, the first this layer makes, already exists.  An MoE layer
 * runs its experts one after the other, on T·k/E tokens each on
 * average, and scatters each expert's input gradient into a full T x h
 * tensor (index's backward). */
static double
mlp_backward_work (const LayerShape *L)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double T = L->T, w = L->w, ab = L->ab;
  double per_expert = L->moe ? L->routed / (double) m->experts : 1.0;
  /* (The down projection's input, when it keeps it, is freed once its
   * backward has run: the activation gradients that follow count beyond
   * it; a frozen down keeps nothing to free.  ReLU's saved output is the
   * same tensor, freed only after ReLU's own backward.) */
  double work = ((hr_model_gated (m) ? 2.0 : 1.0)
                 + (m->mlp == HR_MLP_RELU || !hr_layer_needs_input (tr, HR_LORA_DOWN) ? 1.0 : 0.0)
                 /* squared ReLU's square is pow(x, 2), whose backward
                  * (derivatives.yaml: pow_backward, grad · (2 ·
                  * x.pow(1))) makes x.pow(1), its double and the
                  * product at once: two f-wide tensors beyond GELU's */
                 + (m->mlp == HR_MLP_RELU2 ? 2.0 : 0.0)
                 /* a down adapter's dropout makes its own f-wide
                  * input gradient beside the base's */
                 + (L->lora && tr->lora.dropout > 0 && (tr->lora.targets & HR_LORA_DOWN) ? 1.0 : 0.0))
                * T * per_expert * w * ab
                + (L->moe ? T * L->h * ab / L->rep : 0.0);

  /* A down adapter reads the f-wide input beside the frozen base: the
   * base's backward and the adapter's first linear's make their input
   * gradients at once, before autograd sums them, two f-wide tensors
   * (where an ungated MLP's own backward holds one; the reference
   * oracle's GELU layers with LoRA on down were T·f under). */
  if (L->lora && (tr->lora.targets & HR_LORA_DOWN) && !L->moe)
    work = MAX (work, 2.0 * T * w * ab);
  /* Transformer Engine's linears quantize their output gradient for
   * both backward GEMMs at once (te_grad, hr-fp8.h) beside the 16-bit
   * one autograd hands them.  The widest are the MLP's first linear
   * (Megatron's fused gate and up: its 2f-wide gradient, the copy, then
   * the dgrad GEMM's T x h output).  Dense layers: the experts are not TE
   * fp8 modules here. */
  if (L->te_grad > 0 && !L->moe)
    work = MAX (work, (hr_model_gated (m) ? 2.0 : 1.0) * T * w * (ab + L->te_grad) + T * L->h * ab);
  return work;
}

/* Context parallelism as PyTorch runs it (torch/distributed/tensor/
 * experimental/_attention.py, _templated_ring_attention_backward, what
 * torchtitan's context_parallel uses), on the K and V SDPA is given:
 * repeated to every head (torchtitan's Llama attention calls repeat_kv
 * first), so Q, K and V are alike, q = T·a·d elements each.  Through the
 * ring's c steps it holds the output's gradient (16-bit), the sum of Q's
 * gradient in fp32 (_cp_options.convert_to_f32), every rank's K and V
 * gathered once (_AllGatherRotater: 2·c·q 16-bit) and the local pair cut
 * out to send (torch.cat: 2·q); the K and V gradients travel round the
 * ring in fp32: the pair received (dkv_rotater.next_buffer), the pair sent
 * (torch.cat) and the one arriving (_AllToAllRotater's permute_tensor),
 * three fp32 pairs.  Of a step's kernel outputs (16-bit), the steps where
 * this rank's K and V are older than its queries (i <= rank) make Q's
 * whole and half of K's and V's, the others (i > rank) half of Q's and
 * K's and V's whole.  Its widest moments: (A) at i <= rank, where
 * _partial_update copies the received K and V sums (a fourth fp32 pair);
 * (B) at i > rank, where it copies Q's fp32 sum (two of them at once);
 * (C) in a step's kernel, the previous step's outputs still held. */
static double
ring_attention_backward_work (const LayerShape *L)
{
  double q = L->T * L->a * L->d, ab = L->ab, c = L->c;
  double common = q * ab + 2.0 * c * q * ab + 2.0 * q * ab + 3.0 * 8.0 * q;
  double a_exchange = common + 4.0 * q + 8.0 * q + (q + q) * ab;
  double b_query = common + 8.0 * q + (0.5 * q + 2.0 * q) * ab;
  double c_kernel = common + 4.0 * q + 2.0 * MAX (q + q, 0.5 * q + 2.0 * q) * ab;

  return MAX (a_exchange, MAX (b_query, c_kernel));
}

/* The attention's backward makes the gradients of Q, K and V (K and V
 * repeated to every head where the forward repeated them) while the
 * gradient of its output exists: at once in a fused kernel.  Eager
 * attention runs its products' backwards one after the other: probs·V's
 * makes the probabilities' gradient and V's from the output's, the
 * softmax's its input's beside the former (two a·b·s² gradients); then,
 * the output's gradient gone, Q·Kᵀ's makes Q's and K's beside the
 * scores' and V's (the reference oracle's eager runs: all of them at
 * once planned a LoRA-on-k layer's backward +11.5 % over, +6.5 % now).
 * Transformer Engine's fused QKV adds its quantized gradient's copy. */
static double
attention_backward_work (const LayerShape *L,
                         double            mla_attn_work)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double T = L->T, a = L->a, k = L->k, d = L->d, ab = L->ab, s = L->s;
  double kk = !hr_attentions[tr->attention].repeats_kv || k >= a ? k : a;
  double scores = a * L->b * (s / L->c) * s * (hr_activations_fp32_softmax (L->scenario) ? 4.0 : ab);
  double work = hr_model_mla (m)
                ? mla_attn_work + (hr_attentions[tr->attention].scores ? 2.0 * scores : 0.0)
                : hr_attentions[tr->attention].scores
                ? MAX (T * (a + kk) * d * ab + 2.0 * scores, T * (a + 2 * kk) * d * ab + scores)
                : T * (2 * a + 2 * kk) * d * ab;

  if (L->te_grad > 0 && !hr_model_mla (m))
    work = MAX (work, T * (a + 2 * k) * d * (ab + L->te_grad));
  if (L->c > 1 && !hr_attentions[tr->attention].scores && !hr_model_mla (m))
    work = MAX (work, ring_attention_backward_work (L));
  return work;
}

/* The backward pass's working sets (MLA_ATTN_WORK the latent
 * attention's), and which weight gradients exist at the layer's steps
 * (hr-calc-activations.c orders them). */
void
hr_activations_add_backward_work (const LayerShape   *L,
                                  HrLayerActivations *out,
                                  double              mla_attn_work)
{
  const HrModelArch *m = L->m;
  const HrTraining *tr = L->tr;
  double rep = L->rep, ab = L->ab, h = L->h, d = L->d, a = L->a, k = L->k, T = L->T, w = L->w;
  double mlp_work = mlp_backward_work (L);
  double attn_work = attention_backward_work (L, mla_attn_work);
  /* RMSNorm's backward runs through its fp32 upcast: the gradients of
   * the normalised copy and of the fp32 input, the product its sum over
   * the row reduces and the input's gradient, four T x h tensors at once
   * (the oracle measures 3 to 4 fp32 ones); LayerNorm's fused backward
   * makes its input's gradient alone.  The gradient of the residual
   * stream flows beside all of them. */
  double norm_work = m->norm == HR_NORM_RMSNORM ? 4.0 * T * h * 4.0 / rep : T * h * ab / rep;

  out->backward_work = MAX (mlp_work, norm_work) + T * h * ab / rep;
  out->backward_attn_work = MAX (attn_work, norm_work) + T * h * ab / rep;
  out->backward_weight = tr->method == HR_METHOD_FULL ? h * w : 0.0;
  /* The MLP runs its backward first: once done, its saved tensors are
   * gone and its weights' gradients made (all experts', the router's). */
  out->mlp_linear = (L->moe ? (double) m->experts / MAX (L->par->ep, 1) : 1.0)
                    * (hr_model_gated (m) ? 3.0 : 2.0) * h * w
                    + (L->moe ? h * (double) m->experts : 0.0);
  out->mlp_weights = tr->method != HR_METHOD_FULL ? 0.0 : out->mlp_linear;
  /* The output projection's backward comes next, before the attention's:
   * its weight gradient is made by then too. */
  out->attn_out_weights = tr->method != HR_METHOD_FULL ? 0.0
                          : a * (hr_model_mla (m) ? (double) m->v_head_dim : d) * h;
  /* Q, K and V's backwards come last (a pre-norm block whose attention
   * follows its MLP's backward; DeepSeek's latent attention and parallel
   * blocks order theirs otherwise): at the last one's weight gradient the
   * layer holds the norm's saved input, its output (the projections'
   * input), the residual stream's gradient, the gradient of the
   * projection's output, its input gradient and, for three linears, the
   * other two's, summed in autograd's input buffer (the oracle's
   * one-layer models hold these six T x h tensors there). */
  if (tr->method == HR_METHOD_FULL && !hr_model_mla (m) && !m->parallel_block
      && m->kind != HR_KIND_ENCODER)
    {
      gboolean fused = tr->lora.fused_qkv;

      out->qkv_weights = h * (a + 2 * k) * d;
      /* (the last is Q's, the first in the forward, or the fused one) */
      out->qkv_done_linear = out->mlp_linear + a * d * h + (fused ? 0.0 : h * 2 * k * d);
      out->qkv_work = T * h / rep * (hr_activations_norm_bytes (L->scenario)
                                     + (fused ? 3.0 : 4.0) * ab)
                      + T * (fused ? a + 2 * k : a) * d * ab;
    }
}

/* A first layer's weights whose casts autocast keeps not. */
/* ... of DeepSeek's latent attention (hr-params-mla.c): the down
 * projections read the layer's input; an up projection reads a latent that
 * needs a gradient only through its down projection's adapter (q, k); O
 * the core's output, which needs one through any adapter on Q, K, V. */
static double
mla_uncast (const LayerShape *L)
{
  const HrModelArch *m = L->m;
  double h = L->h, a = L->a;
  double ql = (double) m->q_lora_rank, kvl = (double) m->kv_lora_rank;
  double qk = (double) (m->qk_nope_head_dim + m->qk_rope_head_dim);
  double kv_up = (double) (m->qk_nope_head_dim + m->v_head_dim);
  double v = (double) m->v_head_dim;
  gboolean q = (L->lt & HR_LORA_Q) != 0, k = (L->lt & HR_LORA_K) != 0;

  return (ql > 0 ? h * ql + (!q ? ql * a * qk : 0.0) : h * a * qk)
         + h * (kvl + (double) m->qk_rope_head_dim) + (!k ? kvl * a * kv_up : 0.0)
         + (!L->attn_grad ? a * v * h : 0.0);
}

void
hr_activations_add_uncast_weights (const LayerShape   *L,
                                   HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  double h = L->h;
  double d = L->d;
  double a = L->a;
  double k = L->k;
  gboolean moe = L->moe;
  double w = L->w;
  gboolean attn_grad = L->attn_grad;
  gboolean mlp_in_grad = L->mlp_in_grad;
  gboolean mlp_grad = L->mlp_grad;
  gboolean input_grad = L->input_grad;

  /* A matmul keeps its (cast) weight only for its input's gradient: in a
   * first layer whose input needs none, the frozen Q, K and V read the
   * norm's output, O the attention's (without adapters on Q, K, V), gate
   * and up the MLP's input, down the product (without adapters before). */
  if (!input_grad)
    {
      double experts = moe ? (double) m->experts : 1.0;
      /* the shared experts' MLP beside the routed ones (DeepSeek's,
       * Nemotron-H's, Granite 4.0-H's) */
      double shared = moe ? (double) (m->shared_experts * hr_model_expert_ffn (m)) / L->t : 0.0;

      out->mlp_uncast = (!mlp_in_grad ? (experts * w + shared) * (hr_model_gated (m) ? 2.0 : 1.0) * h
                                         + (moe ? h * (double) m->experts : 0.0) : 0.0)
                        + (!mlp_grad ? (experts * w + shared) * h : 0.0);
      out->uncast_weights = (hr_model_mla (m) ? mla_uncast (L) : h * (a + 2 * k) * d + (!attn_grad ? a * d * h : 0.0))
                            + out->mlp_uncast;
    }
}
