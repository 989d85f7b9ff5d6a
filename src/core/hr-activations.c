/* hr-activations.c: the tensors one layer saves for its backward pass
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
 * Transformer Models" §4.1, count the bytes a GPT layer saves: attention
 * 11·sbh + 5·a·s²·b, MLP 19·sbh, norms 4·sbh.  Rather than the constant 34,
 * every saved tensor is listed here, so that modern layers come out right:
 * gated MLPs save three or four f-wide tensors, GQA shrinks K and V,
 * FlashAttention keeps its output and per-row log-sum-exp instead of the
 * s x s scores, norms that upcast keep fp32 inputs, frozen linears (LoRA)
 * save no input, and context parallelism divides every per-token term.
 * With the GPT shape and eager attention the list adds up to the paper's
 * numbers exactly (tests/test-activations.c).
 */

#include "hr-activations-private.h"
#include "hr-fp8.h"

#include <glib/gi18n-lib.h>

/* Adapters among targets that read their layer's input themselves (their
 * A projection keeps it; with dropout they read a copy, counted with the
 * adapters); LitGPT's fused QKV adapter reads it once. */
static double
adapter_readers (const HrTraining *t,
                 guint             targets)
{
  guint qkv = HR_LORA_Q | HR_LORA_K | HR_LORA_V;
  guint n;

  if (t->method == HR_METHOD_FULL || t->lora_dropout > 0)
    return 0;
  n = hr_lora_n_targets (t->lora_targets & targets & ~qkv);
  if (t->lora_fused_qkv)
    n += MIN (hr_lora_n_targets (t->lora_targets & targets & qkv), 1);
  else
    n += hr_lora_n_targets (t->lora_targets & targets & qkv);
  return n;
}

/* Bytes per element one norm keeps, its input needing a gradient.
 * RMSNorm as Hugging Face writes it (LlamaRMSNorm.forward: to(float32),
 * pow, rsqrt, weight * hidden.to(input_dtype)) keeps the fp32 copy of its
 * input (pow's self) and, when its weight trains, the normalised copy the
 * weight multiplies (mul's other), of its input's type: 16-bit, or fp32
 * under autocast, where the residual stream is fp32.  LayerNorm keeps its
 * input (native_layer_norm's input), in fp32 under autocast, which runs it
 * in fp32 (CALC-REFERENCE §4). */
static void
norm_parts (const HrScenario *scenario,
            double           *input,
            double           *copy)
{
  const HrTraining *tr = &scenario->training;
  double ab = hr_dtype_bytes (tr->dtypes.activations);
  gboolean autocast = hr_activations_autocast (tr);

  if (scenario->model.norm == HR_NORM_RMSNORM)
    {
      *input = 4.0;
      *copy = tr->method == HR_METHOD_FULL ? (autocast ? 4.0 : ab) : 0.0;
    }
  else
    {
      *input = autocast ? 4.0 : ab;
      *copy = 0;
    }
}

double
hr_activations_norm_bytes (const HrScenario *scenario)
{
  double input, copy;

  norm_parts (scenario, &input, &copy);
  return input + copy;
}

static void
layer_shape (const HrScenario *scenario,
             gboolean          input_grad,
             LayerShape       *L)
{
  const HrModelArch *m = &scenario->model;
  const HrTraining *tr = &scenario->training;
  const HrParallel *par = &scenario->parallel;
  double t = (double) MAX (par->tp, 1);
  double c = (double) MAX (par->cp, 1);
  double rep = par->sp ? t : 1.0;        /* tensors TP keeps whole unless SP */
  double ab = hr_dtype_bytes (tr->dtypes.activations);
  double h = (double) m->hidden;
  double d = (double) hr_model_head_dim (m);
  double a = (double) m->heads / t;
  double k = par->tp > 1 ? (double) MAX (m->kv_heads / par->tp, 1)
                         : (double) m->kv_heads;
  double s = (double) tr->seq_len;
  double b = (double) tr->micro_batch;
  double T = b * s / c;                  /* tokens on this rank */
  gboolean moe = m->experts > 1;
  double routed = moe ? (double) MAX (m->experts_active, 1) : 1.0;
  double w = (double) (moe ? hr_model_expert_ffn (m) : m->ffn) / t;
  gboolean autocast = hr_activations_autocast (tr);
  gboolean lora = tr->method != HR_METHOD_FULL;
  double r = (double) tr->lora_rank;
  guint attn_in = HR_LORA_Q | HR_LORA_K | HR_LORA_V;
  guint mlp_in = HR_LORA_GATE | HR_LORA_UP;
  /* The linear layers that read the attention's and the MLP's input and
   * keep it: the bases whose weights train (Q, K and V as three linears,
   * or LitGPT's one fused QKV; gate and up, or fc1), and the adapters
   * that read it.  A parallel block with one norm feeds both. */
  gboolean base_saves = tr->method != HR_METHOD_LORA;
  gboolean shared_norm = m->parallel_block && hr_model_norms_per_layer (m) == 1;
  /* Which parts need gradients (all of them, but in a first layer whose
   * input needs none: then only from the first adapter on).  QLoRA's 4-bit
   * bases keep their input only when it needs a gradient. */
  guint lt = lora ? tr->lora_targets : 0;
  gboolean attn_grad = input_grad || (lt & attn_in);            /* Q, K, V and the core */
  gboolean attn_out_grad = attn_grad || (lt & HR_LORA_O);
  gboolean mlp_in_grad = input_grad || (!m->parallel_block && attn_out_grad);
  gboolean mlp_grad = mlp_in_grad || (lt & (hr_model_gated (m) ? mlp_in : HR_LORA_UP));
  gboolean mlp_out_grad = mlp_grad || (lt & HR_LORA_DOWN);
  double qkv_readers = (base_saves && input_grad ? (tr->lora_fused_qkv ? 1.0 : 3.0) : 0.0)
                       + adapter_readers (tr, attn_in);
  double expert_readers = (base_saves && mlp_in_grad ? (hr_model_gated (m) ? 2.0 : 1.0) : 0.0)
                          + adapter_readers (tr, hr_model_gated (m) ? mlp_in : HR_LORA_UP);
  /* An MoE layer's norm output is read by its router, and a latent MoE's
   * by fc1_latent_proj; the experts read copies of their tokens (below). */
  double mlp_readers = m->experts > 1 ? (tr->method == HR_METHOD_FULL
                                         ? 1.0 + (m->moe_latent_size > 0 ? 1.0 : 0.0) : 0.0)
                                      : expert_readers;
  /* Transformer Engine's fp8 linears keep their input as fp8 only, one
   * byte an element: _Linear.forward (transformer_engine/pytorch/module/
   * linear.py) quantizes the input with rowwise and columnwise usage, runs
   * the GEMM, then update_usage(rowwise_usage=False, columnwise_usage=True)
   * drops the rowwise data ("not needed in backward pass") and saves the
   * columnwise copy (the fp8 transpose on Hopper; TE 1.x saved inputmat_t
   * from fp8 cast_transpose alone), not the 16-bit input; LayerNormLinear
   * keeps its normalised output so (layernorm_linear.py,
   * ln_out.update_usage(rowwise_usage=False)), LayerNormMLP its fc2 input,
   * the activation's output, made fp8 by the activation's kernel
   * (layernorm_mlp.py, act_out).  MXFP8 (te-mxfp8) keeps the columnwise
   * copy too, quantized along the tokens with one scale byte per 32 of
   * them (MXFP8Quantizer, get_scale_shape): 1 + 1/32 bytes (hr-fp8.h);
   * with sequence parallelism as well, since it all-gathers columnwise
   * data (Quantizer.supports_only_rowwise_all_gather is False for it;
   * layernorm_linear.py: "For MXFP8, columnwise only data can be
   * allgathered").  The planned layout is Megatron's TE layer spec
   * (megatron/core/models/gpt/gpt_layer_specs.py, get_mlp_module_spec:
   * linear_fc2=TERowParallelLinear): fc2 a Linear of its own.  TE's
   * fused LayerNormMLP would keep more under MXFP8: it quantizes act_out
   * both ways (fc2_input_quantizer columnwise=isinstance(...,
   * MXFP8Quantizer)) and saves both, 2 + 2/32.
   * torchao's Float8Linear saves the 16-bit input (matmul_with_hp_or_
   * float8_args.forward: ctx.save_for_backward(input_hp, weight_hp_t)) and
   * casts it again in the backward: as bf16.  Full training only: the
   * adapters' frozen bases are not TE fp8 modules. */
  gboolean te_linears = hr_fp8_is_te (tr) && tr->method == HR_METHOD_FULL && !autocast;
  double lin_in = te_linears ? hr_fp8_saved_input_bytes (tr) : ab;
  *L = (LayerShape) {
    .m = m,
    .tr = tr,
    .par = par,
    .t = t,
    .c = c,
    .rep = rep,
    .ab = ab,
    .lin_in = lin_in,
    .te_grad = te_linears ? hr_fp8_grad_copy_bytes (tr) : 0.0,
    .h = h,
    .d = d,
    .a = a,
    .k = k,
    .s = s,
    .b = b,
    .T = T,
    .moe = moe,
    .routed = routed,
    .w = w,
    .autocast = autocast,
    .lora = lora,
    .r = r,
    .attn_in = attn_in,
    .mlp_in = mlp_in,
    .base_saves = base_saves,
    .shared_norm = shared_norm,
    .lt = lt,
    .attn_grad = attn_grad,
    .attn_out_grad = attn_out_grad,
    .mlp_in_grad = mlp_in_grad,
    .mlp_grad = mlp_grad,
    .mlp_out_grad = mlp_out_grad,
    .qkv_readers = qkv_readers,
    .expert_readers = expert_readers,
    .mlp_readers = mlp_readers,
    .input_grad = input_grad,
    .scenario = scenario,
    .kv_T = T,
  };
}

/* Norms: their inputs and normalised copies. */
static void
add_norms (const LayerShape   *L,
           HrLayerActivations *out)
{
  const HrModelArch *m = L->m;
  double rep = L->rep;
  double ab = L->ab;
  double h = L->h;
  double T = L->T;
  gboolean autocast = L->autocast;
  gboolean attn_out_grad = L->attn_out_grad;
  gboolean mlp_out_grad = L->mlp_out_grad;
  gboolean input_grad = L->input_grad;
  const HrScenario *scenario = L->scenario;

  /* Norms (hr_activations_norm_bytes).  The two norms of a parallel block
   * (Falcon 40B's ln_attn and ln_mlp) read the same tensor: LayerNorm keeps
   * it, and so does RMSNorm when it is fp32 already (to(float32) returns
   * the tensor itself), once for both. */
  {
    double n_norms = (double) hr_model_norms_per_layer (m);
    double input, copy;
    gboolean one_input = m->parallel_block && n_norms > 1
                         && (m->norm == HR_NORM_LAYERNORM || ab == 4.0 || autocast);

    /* In a first layer whose input needs no gradient, a norm of that input
     * keeps nothing (its weight is frozen); the second norm of a
     * sequential block keeps its input once the attention needs one. */
    double needing = input_grad ? n_norms
                     : m->kind == HR_KIND_ENCODER   /* post-norm: after attention, after MLP */
                       ? (attn_out_grad ? 1.0 : 0.0) + (attn_out_grad || mlp_out_grad ? 1.0 : 0.0)
                     : !m->parallel_block && n_norms > 1 && attn_out_grad ? n_norms - 1 : 0;

    /* Gemma 2's sandwich norms (four): the two after the attention and
     * the MLP normalise those 16-bit outputs, so their normalised copy is
     * 16-bit under autocast too. */
    double sandwich;

    norm_parts (scenario, &input, &copy);
    /* A 16-bit residual's normalised copy is 16-bit (to(input_dtype)). */
    if (L->residual16 && autocast && copy == 4.0)
      copy = ab;
    sandwich = n_norms == 4 && autocast && copy == 4.0 && input_grad ? 2.0 * (4.0 - ab) : 0.0;
    hr_activations_add (out, N_("norm inputs"), "norms·b·s·h·bytes / c",
                        ((needing == 0 ? 0.0
                          : one_input && needing == n_norms ? input + n_norms * copy
                          : needing * (input + copy)) - sandwich) * T * h / rep);
  }
}

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
                 + (L->lora && tr->lora_dropout > 0 && (tr->lora_targets & HR_LORA_DOWN) ? 1.0 : 0.0))
                * T * per_expert * w * ab
                + (L->moe ? T * L->h * ab / L->rep : 0.0);

  /* A down adapter reads the f-wide input beside the frozen base: the
   * base's backward and the adapter's first linear's make their input
   * gradients at once, before autograd sums them, two f-wide tensors
   * (where an ungated MLP's own backward holds one; the reference
   * oracle's GELU layers with LoRA on down were T·f under). */
  if (L->lora && (tr->lora_targets & HR_LORA_DOWN) && !L->moe)
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
  double kk = tr->attention == HR_ATTENTION_FLASH || k >= a ? k : a;
  double scores = a * L->b * (s / L->c) * s * (hr_activations_fp32_softmax (L->scenario) ? 4.0 : ab);
  double work = hr_model_mla (m)
                ? mla_attn_work + (tr->attention == HR_ATTENTION_EAGER ? 2.0 * scores : 0.0)
                : tr->attention == HR_ATTENTION_EAGER
                ? MAX (T * (a + kk) * d * ab + 2.0 * scores, T * (a + 2 * kk) * d * ab + scores)
                : T * (2 * a + 2 * kk) * d * ab;

  if (L->te_grad > 0 && !hr_model_mla (m))
    work = MAX (work, T * (a + 2 * k) * d * (ab + L->te_grad));
  return work;
}

/* The backward pass's working sets (MLA_ATTN_WORK the latent
 * attention's), and which weight gradients exist at the layer's steps
 * (hr-calc-activations.c orders them). */
static void
add_backward_work (const LayerShape   *L,
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
      gboolean fused = tr->lora_fused_qkv;

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

static void
add_uncast_weights (const LayerShape   *L,
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
      /* DeepSeek's MoE layers: the shared experts' MLP beside them */
      double shared = moe ? (double) (m->shared_experts * hr_model_expert_ffn (m)) / L->t : 0.0;

      out->mlp_uncast = (!mlp_in_grad ? (experts * w + shared) * (hr_model_gated (m) ? 2.0 : 1.0) * h
                                         + (moe ? h * (double) m->experts : 0.0) : 0.0)
                        + (!mlp_grad ? (experts * w + shared) * h : 0.0);
      out->uncast_weights = (hr_model_mla (m) ? mla_uncast (L) : h * (a + 2 * k) * d + (!attn_grad ? a * d * h : 0.0))
                            + out->mlp_uncast;
    }
}

/* What checkpointing, torch.compile and per-op checkpointing keep. */
static void
add_recomputed_sets (const LayerShape   *L,
                     HrLayerActivations *out)
{
  const HrTraining *tr = L->tr;
  double rep = L->rep;
  double ab = L->ab;
  double h = L->h;
  double T = L->T;
  gboolean autocast = L->autocast;
  gboolean input_grad = L->input_grad;

  /* Full recompute keeps only each layer's input (2·sbh in 16-bit;
   * divided by t with sequence parallelism): the residual stream, which
   * is fp32 under autocast (fp32 embeddings plus 16-bit outputs). */
  out->checkpoint = T * h * (autocast && !L->residual16 ? 4.0 : ab) / rep;

  if (tr->compile && tr->method == HR_METHOD_FULL && input_grad)
    hr_activations_compiled_layer (L, out);

  hr_activations_op_policy (L, out);
}

/* input_grad: whether the layer's input needs a gradient.  It does but in
 * the first layer of a model whose embeddings are frozen (LoRA, QLoRA),
 * where what precedes its first adapter needs none and keeps nothing.
 * Hugging Face's enable_input_require_grads, which PEFT turns on with
 * gradient checkpointing (reentrant checkpoints need it), makes it need one. */
void
hr_activations_layer_with_input (const HrScenario   *scenario,
                                 gboolean            input_grad,
                                 HrLayerActivations *out)
{
  hr_activations_layer_with_moe (scenario, input_grad, HR_MOE_ROUTER_MODEL, out);
}

void
hr_activations_layer_with_moe (const HrScenario   *scenario,
                               gboolean            input_grad,
                               HrMoeRouter         router,
                               HrLayerActivations *out)
{
  hr_activations_layer_shaped (scenario, input_grad, router, FALSE, out);
}

/* A layer whose residual stream stays 16-bit under autocast: DeepSeek's
 * prediction module's, which starts from eh_proj's output (a 16-bit
 * matmul's) where the model's layers start from the fp32 embeddings.  Its
 * norms keep a 16-bit normalised copy and its checkpoint is 16-bit (the
 * reference oracle's MTP runs: 2·(4 - 2) bytes a token and hidden unit
 * less than a layer of the model). */
void
hr_activations_layer_16bit_residual (const HrScenario   *scenario,
                                     HrLayerActivations *out)
{
  hr_activations_layer_shaped (scenario, TRUE, HR_MOE_ROUTER_MODEL, TRUE, out);
}

void
hr_activations_layer_shaped (const HrScenario   *scenario,
                             gboolean            input_grad,
                             HrMoeRouter         router,
                             gboolean            residual16,
                             HrLayerActivations *out)
{
  LayerShape shape;
  double mla_attn_work = 0;

  layer_shape (scenario, input_grad, &shape);
  shape.moe_router = router;
  shape.residual16 = residual16;
  *out = (HrLayerActivations) { 0 };
  add_norms (&shape, out);
  hr_layer_add_attention (&shape, out, &mla_attn_work);
  hr_layer_add_mlp (&shape, out);
  hr_activations_adapters (&shape, out);
  hr_activations_quantized_inputs (&shape, out);
  add_backward_work (&shape, out, mla_attn_work);
  add_uncast_weights (&shape, out);
  add_recomputed_sets (&shape, out);
}

/* A pattern's attention block (Nemotron-H's '*': NemotronHBlock, a norm
 * and NemotronHAttention, no MLP after it), in a scenario that is a plain
 * transformer's (hr-activations-ssm.c): the layer's norm, attention and
 * adapters.  Its backward starts at the output projection, whose weight
 * gradient is the first it makes, and no MLP weight is left uncast. */
void
hr_activations_attention_block (const HrScenario   *scenario,
                                gboolean            input_grad,
                                HrLayerActivations *out)
{
  LayerShape shape;
  double mla_attn_work = 0;

  layer_shape (scenario, input_grad, &shape);
  *out = (HrLayerActivations) { 0 };
  add_norms (&shape, out);
  hr_layer_add_attention (&shape, out, &mla_attn_work);
  out->mlp_first = out->n;
  hr_activations_adapters (&shape, out);
  add_backward_work (&shape, out, mla_attn_work);
  out->qkv_done_linear -= out->mlp_linear;
  out->backward_work = out->backward_attn_work;
  out->mlp_linear = out->mlp_weights = 0;
  out->backward_weight = out->attn_out_weights;
  shape.mlp_in_grad = shape.mlp_grad = TRUE;
  add_uncast_weights (&shape, out);
  add_recomputed_sets (&shape, out);
}

/* Llama 3.2 Vision's gated cross-attention layer
 * (MllamaCrossAttentionDecoderLayer): its norms, MLP and adapters as a
 * self-attention layer's over the text, its attention over the images
 * (hr-activations-mllama.c).  Validation leaves full training or LoRA,
 * SDPA, no autocast, fp8, compile or per-op policy, t = c = 1, and a
 * first layer that is not one of these (its input needs a gradient). */
void
hr_activations_cross_layer (const HrScenario   *scenario,
                            HrLayerActivations *out)
{
  LayerShape shape;
  double attn_work = 0;

  layer_shape (scenario, TRUE, &shape);
  shape.kv_T = (double) scenario->training.micro_batch
               * (double) scenario->training.images_per_sample
               * (double) hr_model_cross_tokens (&scenario->model);
  *out = (HrLayerActivations) { 0 };
  add_norms (&shape, out);
  hr_layer_add_cross_attention (&shape, out, &attn_work);
  hr_layer_add_mlp (&shape, out);
  hr_activations_adapters (&shape, out);
  add_backward_work (&shape, out, 0.0);
  {
    /* (add_backward_work's attention is the self-attention's) */
    double norm_work = 4.0 * shape.T * shape.h * 4.0;

    out->backward_attn_work = MAX (attn_work, norm_work) + shape.T * shape.h * shape.ab;
  }
  add_recomputed_sets (&shape, out);
}

void
hr_activations_layer (const HrScenario   *scenario,
                      HrLayerActivations *out)
{
  /* SSM layers, or layers that differ: their average (hr-activations-ssm.c). */
  if (scenario->model.ssm != HR_SSM_NONE || hr_model_mixed_layers (&scenario->model))
    {
      HrLayerActivations first, last;

      hr_activations_pattern_layer (scenario, out, &first, &last);
      return;
    }
  hr_activations_layer_with_input (scenario, TRUE, out);
}

/* torchtitan's layer-frequency option counted the blocks it was given
 * from 1 and wrapped one when `_layer_sac_count % ac_freq == 0`
 * (torchtitan/distributed/activation_checkpoint.py, _apply_layer_sac, until
 * #2357 removed it in March 2026; torchtune's
 * apply_selective_activation_checkpointing is the same code).  A rank
 * applies it to its own stage's blocks, so the count is per device. */
guint64
hr_activations_checkpointed (const HrScenario *scenario,
                             guint64           n_layers)
{
  const HrTraining *t = &scenario->training;

  if (t->checkpointing != HR_CHECKPOINTING_FULL)
    return 0;
  return n_layers / MAX (t->checkpoint_every, 1);
}

guint64
hr_activations_wrapped (const HrScenario *scenario,
                        guint64           n_layers)
{
  return scenario->training.checkpointing == HR_CHECKPOINTING_OP
         ? n_layers : hr_activations_checkpointed (scenario, n_layers);
}

gboolean
hr_activations_input_grad (const HrScenario *scenario)
{
  /* (an adapter on the token table makes the embeddings' output need a
   * gradient, as full training does) */
  return scenario->training.method == HR_METHOD_FULL
         || scenario->training.checkpointing == HR_CHECKPOINTING_FULL
         || (scenario->training.lora_targets & HR_LORA_EMBED) != 0;
}

void
hr_activations_first_layer (const HrScenario   *scenario,
                            HrLayerActivations *out)
{
  if (scenario->model.ssm != HR_SSM_NONE || hr_model_mixed_layers (&scenario->model))
    hr_activations_pattern_first_layer (scenario, out);
  else
    hr_activations_layer_with_input (scenario, hr_activations_input_grad (scenario), out);
}

/* Layers' worth of activations a pipeline stage holds (Korthikanti §4.2.3,
 * Narayanan et al. 2021): with 1F1B, stage i keeps min(p - i, m)
 * micro-batches in flight; interleaved over v chunks Megatron warms up
 * (p - i - 1)·2 + (v - 1)·p chunks plus the current one, which on stage 0
 * is L·(1 + (p - 1)/(p·v)) layers. */
double
hr_pipeline_layer_units (guint64 pp,
                         guint64 vpp,
                         guint64 micro_batches,
                         guint64 stage,
                         guint64 stage_layers)
{
  guint64 p = MAX (pp, 1);
  guint64 v = MAX (vpp, 1);
  guint64 m = MAX (micro_batches, 1);

  if (p == 1)
    return (double) stage_layers;
  if (v == 1)
    return (double) (MIN (p - stage, m) * stage_layers);

  {
    guint64 chunks = (p - stage - 1) * 2 + (v - 1) * p + 1;

    chunks = MIN (chunks, m * v);
    return (double) chunks * (double) stage_layers / (double) v;
  }
}

/* The zero-bubble schedules split the backward into B (input gradients)
 * and W (weight gradients) and fill the bubble with deferred W passes
 * (Qi et al. 2023, "Zero Bubble Pipeline Parallelism"; sail-sg/
 * zero-bubble-pipeline-parallelism README, "Comparison of Schedules":
 * activation memory 1x 1F1B's for ZB1P (ZB-H1), 2x for ZB2P (ZB-H2), whose
 * --zero-bubble-max-pending-backward is p and 2p micro-batches).  So stage
 * i holds min(p - i, m) micro-batches under ZB-H1, min(2·(p - i), m) under
 * ZB-H2.  DualPipe (DeepSeek-V3 technical report, Table 2; deepseek-ai/
 * DualPipe README, "Pipeline Bubbles and Memory Usage Comparison") runs
 * micro-batches from both ends: each GPU holds two stages' layers and
 * PP + 1 micro-batches' activations of a stage against 1F1B's PP; the
 * table gives that peak for every GPU. */
double
hr_pipeline_schedule_units (HrSchedule schedule,
                            guint64    pp,
                            guint64    vpp,
                            guint64    micro_batches,
                            guint64    stage,
                            guint64    stage_layers)
{
  guint64 p = MAX (pp, 1);
  guint64 m = MAX (micro_batches, 1);

  if (p == 1)
    return (double) stage_layers;
  switch (schedule)
    {
    case HR_SCHEDULE_ZB_H2:
      return (double) (MIN (2 * (p - stage), m) * stage_layers);
    case HR_SCHEDULE_DUALPIPE:
      return (double) (MIN (p + 1, m) * stage_layers);
    case HR_SCHEDULE_ZB_H1:
    case HR_SCHEDULE_1F1B:
    case HR_SCHEDULE_INTERLEAVED:
    case HR_N_SCHEDULES:
    default:
      return hr_pipeline_layer_units (pp, vpp, micro_batches, stage, stage_layers);
    }
}
