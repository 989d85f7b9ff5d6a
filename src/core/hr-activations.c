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

  if (t->method == HR_METHOD_FULL || t->lora.dropout > 0)
    return 0;
  n = hr_lora_n_targets (t->lora.targets & targets & ~qkv);
  if (t->lora.fused_qkv)
    n += MIN (hr_lora_n_targets (t->lora.targets & targets & qkv), 1);
  else
    n += hr_lora_n_targets (t->lora.targets & targets & qkv);
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
  double r = (double) tr->lora.rank;
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
  guint lt = lora ? tr->lora.targets : 0;
  gboolean attn_grad = input_grad || (lt & attn_in);            /* Q, K, V and the core */
  gboolean attn_out_grad = attn_grad || (lt & HR_LORA_O);
  gboolean mlp_in_grad = input_grad || (!m->parallel_block && attn_out_grad);
  gboolean mlp_grad = mlp_in_grad || (lt & (hr_model_gated (m) ? mlp_in : HR_LORA_UP));
  gboolean mlp_out_grad = mlp_grad || (lt & HR_LORA_DOWN);
  double qkv_readers = (base_saves && input_grad ? (tr->lora.fused_qkv ? 1.0 : 3.0) : 0.0)
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
  hr_activations_add_backward_work (&shape, out, mla_attn_work);
  hr_activations_add_uncast_weights (&shape, out);
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
  hr_activations_add_backward_work (&shape, out, mla_attn_work);
  out->qkv_done_linear -= out->mlp_linear;
  out->backward_work = out->backward_attn_work;
  out->mlp_linear = out->mlp_weights = 0;
  out->backward_weight = out->attn_out_weights;
  shape.mlp_in_grad = shape.mlp_grad = TRUE;
  hr_activations_add_uncast_weights (&shape, out);
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
  hr_activations_add_backward_work (&shape, out, 0.0);
  {
    /* (hr_activations_add_backward_work's attention is the self-attention's) */
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
         || (scenario->training.lora.targets & HR_LORA_EMBED) != 0;
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
