/* hr-calc-states.c: the model states of one pipeline stage
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Weights, the copies computing with them makes (autocast's casts, fp8
 * copies, QLoRA's dequantized weight), gradients and optimizer states
 * (the master copy, states and step scratch are hr-calc-optimizer.c's), on
 * one GPU of one stage, sharded as ZeRO's stages say (ZeRO paper,
 * Rajbhandari et al. 2020, §5); what ZeRO-3 and FSDP gather to compute with
 * is hr-calc-gathered.c's.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>
#include "hr-fp8.h"
#include "hr-optimizers.h"

/* FSDP's mixed precision (FSDP1's MixedPrecision, FSDP2's
 * MixedPrecisionPolicy with a 16-bit param_dtype) keeps each parameter's
 * shard in the parameter's own type, fp32, and casts it to 16 bits only to
 * gather it: FSDP2 casts in the all-gather's copy-in
 * (torch/distributed/_composable/fsdp/_fsdp_param.py,
 * FSDPParam.all_gather_inputs: sharded_param.to(param_dtype)), FSDP1 into
 * a low-precision shard it frees once gathered
 * (torch/distributed/fsdp/_flat_param.py, _use_low_precision_shard,
 * _free_low_precision_sharded_param).  So no 16-bit shard persists: the
 * fp32 shard the optimizer steps on (the master weights) is the weights,
 * and the frozen ones stay fp32 too.  DeepSpeed's engine keeps both (its
 * model is 16-bit, its optimizer holds the fp32 partition). */
static gboolean
fsdp_shard_is_master (const Ctx *ctx)
{
  const HrParallel *p = &ctx->sc->parallel;
  const HrDtypes *d = &ctx->sc->training.dtypes;

  return p->zero == 3 && !hr_calc_deepspeed_engine (p) && !p->offload_optimizer
         && d->master != HR_DTYPE_NONE && d->master != d->weights;
}

/* Of the weights this GPU holds (WEIGHTS_HERE, sharded as the stage's),
 * the vision tower's and projector's, on the first stage; 0 for a text
 * model, whose weights item stays the one expression it always was. */
static double
vision_weights (const Ctx         *ctx,
                const HrDevice    *dev,
                const StageParams *sp,
                double             weights_here)
{
  double all = sp->dense + sp->experts;
  double v = (double) (ctx->counts.vision + ctx->counts.projector);

  if (v == 0 || dev->stage != 0 || all <= 0)
    return 0;
  return v * weights_here / all;
}

/* The vision tower's and projector's weights as their own items. */
static void
add_vision_weights (Ctx               *ctx,
                    HrDevice          *dev,
                    const StageParams *sp,
                    double             weights_here,
                    HrDtype            dtype,
                    double             bytes)
{
  double all = sp->dense + sp->experts;
  double share = all > 0 ? weights_here / all : 0;

  if (ctx->counts.vision == 0 || dev->stage != 0)
    return;
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, dtype,
            HR_LIVE_ALWAYS, N_("vision tower weights"), "P_vision·bytes (/ N under ZeRO-3)",
            N_("The image encoder's weights."),
            (double) ctx->counts.vision * share * bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, dtype,
            HR_LIVE_ALWAYS, N_("projector weights"), "P_projector·bytes (/ N under ZeRO-3)",
            N_("The weights that carry image features into the language model."),
            (double) ctx->counts.projector * share * bytes);
}

/* A vision-language model's 16-bit weight copies under autocast, beside
 * the language model's (add_weights), on the first stage.  autocast caches
 * the cast of every leaf weight that requires a gradient (autocast_mode.cpp,
 * cached_cast) until the forward's autocast region ends, and the graph
 * keeps a linear's weight cast for its input's gradient:
 *   a trained tower: its patch convolution's cast (kept with the pixels'
 *   copy for the weight's gradient); the layers up to the feature layer
 *   keep theirs in the graph, the layers after it, whose graph is freed
 *   when get_image_features returns, leave theirs in the cache; under full
 *   checkpointing every layer's are in the cache only (the layer
 *   recomputed in the backward casts its weights again for its backward);
 *   the projector's, trained with full training, in its graph.
 * A frozen weight's cast is not cached and, its input needing no gradient,
 * not kept: a frozen tower and LoRA's frozen base keep none; behind a
 * frozen tower the projector's first linear keeps its input, not its
 * weight's cast, which the cache holds.  (The biases'
 * casts stay in the cache too, as the language model's do: not counted.) */
static void
add_vision_casts (Ctx      *ctx,
                  HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  gboolean tower = hr_activations_vision_trains (sc);
  gboolean ck = t->checkpointing == HR_CHECKPOINTING_FULL;
  /* (Llama 3.2 Vision's global layers are shaped as its local ones) */
  double all = (double) (m->vision_layers + m->vision_global_layers);
  double layer = all > 0 ? (double) ctx->counts.vision_linear / all : 0.0;
  double run = (double) hr_model_vision_layers_run (m);
  double conv = (double) (hr_model_vision_channels (m) * m->vision_patch * m->vision_patch * m->vision_hidden)
                * (m->vision == HR_VISION_QWEN2_VL ? 2.0 : 1.0);
  double saved = 0, cached = 0;

  if (m->vision == HR_VISION_NONE || t->method != HR_METHOD_FULL || t->images_per_sample == 0)
    return;
  saved = (double) ctx->counts.projector_linear;
  if (tower)
    {
      saved += conv + (ck ? 0.0 : run * layer);
      cached = (ck ? all : all - run) * layer;
    }
  else if (m->projector == HR_PROJECTOR_MLP2X_GELU)
    {
      /* linear_1's input, a frozen tower's output, needs no gradient:
       * its weight's cast is in the cache only (the patch merger's first
       * linear reads ln_q's output, which does) */
      cached = (double) (m->vision_hidden * m->hidden);
      saved -= cached;
    }
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE_SAVED, N_("vision 16-bit weight copies (autocast)"),
            tower ? (ck ? "(P_projector linear + P_patch)·bytes"
                        : "(P_projector linear + P_patch + layers to the feature layer·P_layer linear)·bytes")
                  : "P_projector linear·bytes",
            N_("Half-precision copies of the image encoder's and projector's weights that autocast makes for the forward pass."),
            saved * ctx->act_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE (HR_PHASE_FORWARD), N_("vision 16-bit weight copies (autocast cache)"),
            !tower ? "linear_1's matrix·bytes"
            : ck ? "vision layers·P_layer linear·bytes" : "layers after the feature layer·P_layer linear·bytes",
            N_("Autocast's cache of the image encoder's half-precision weights, dropped when the forward pass ends."),
            cached * ctx->act_bytes);
  /* (The layer recomputed in the backward casts its weights again: with
   * that layer's tensors, hr-calc-activations.c.) */
}

/* PEFT makes 16-bit adapters fp32 (get_peft_model's autocast_adapter_dtype,
 * True by default: src/peft/tuners/tuners_utils.py at 831fd03,
 * BaseTuner._cast_adapter_dtype, "this only upcasts float16 and bfloat16
 * to float32"), so a base loaded in 16 bits under autocast (amp-bf16,
 * amp-fp16; the Trainer's bf16=True) trains fp32 adapters that autocast
 * casts for each product.  Measured on an H200 (measure-stacks.py
 * trainer-lora, Llama 3.2 1B, r 16 on every linear): the plans were 45 MiB
 * under without checkpointing (the fp32 adapters, 43 MiB, against 16-bit
 * ones planned, and their casts saved for the backward pass, 21.5) and 23.5
 * under with it (the casts dropped with the forward's autocast region). */
static gboolean
adapters_upcast (const Ctx *ctx)
{
  const HrTraining *t = &ctx->sc->training;

  return ctx->lora && (t->precision == HR_PRECISION_AMP_BF16 || t->precision == HR_PRECISION_AMP_FP16)
         && t->dtypes.weights != HR_DTYPE_FP32;
}

/* What autocast casts on a stage, beside the layers' linears: the head
 * and Whisper's audio stem; and whether only the adapters are cast. */
typedef struct
{
  double   linear;          /* the stage's layers' linear weights, or 0 */
  double   head;
  double   stem;
  gboolean adapters_only;
} Casts;

/* Nothing checkpointed: every cast is saved for the backward pass.  The
 * first layer's frozen linears whose input needs no gradient keep no cast
 * (hr_activations_first_layer). */
static void
add_saved_casts (Ctx               *ctx,
                 HrDevice          *dev,
                 const StageParams *sp,
                 const Casts       *c)
{
  const HrScenario *sc = ctx->sc;
  HrLayerActivations first = { 0 };

  /* (DeepSeek's first layer is a dense one where the stage holds
   * any: its dense MLP's casts, not an MoE layer's) */
  if (c->adapters_only)
    ;
  else if (dev->stage == 0 && !hr_activations_input_grad (sc)
      && hr_calc_dense_first_on_stage (sc, dev->stage, dev->first_layer, dev->n_layers) > 0)
    {
      HrScenario dense_sc;

      hr_calc_deepseek_dense_scenario (sc, &dense_sc);
      hr_activations_first_layer (&dense_sc, &first);
    }
  else if (dev->stage == 0 && !hr_activations_input_grad (sc))
    hr_activations_first_layer (sc, &first);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.activations,
            HR_LIVE_SAVED, N_("16-bit weight copies (autocast)"),
            c->adapters_only ? "P_LoRA·bytes" : c->stem > 0 ? "(P_linear + P_audio stem)·bytes" : "P_linear·bytes",
            N_("Half-precision copies of the weights that autocast makes for the forward pass."),
            (c->linear + c->head - first.uncast_weights + (ctx->lora ? sp->lora : 0.0) + c->stem)
            * ctx->act_bytes);
}

/* Checkpointed layers keep no graph, so no cast of theirs is saved;
 * autocast's cache still holds the casts of trainable weights until the
 * forward's autocast region ends (cached_cast caches leaf tensors that
 * require grad, under no_grad too).  Each layer's recomputation casts its
 * weights again and keeps them through its backward; the head keeps its
 * own, and so do the layers that are not wrapped (checkpoint_every > 1),
 * N_CK of the stage's layers being. */
static void
add_checkpointed_casts (Ctx               *ctx,
                        HrDevice          *dev,
                        const StageParams *sp,
                        const Casts       *c,
                        guint64            n_ck)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  double layer_linear = c->adapters_only ? 0.0 : (double) ctx->counts.layer_linear;
  double cached = ctx->lora ? (double) ctx->counts.layer_lora : layer_linear;
  /* An encoder-decoder's decoder layers (every one wrapped) cast
   * their cross-attention's weights too; the last of them is the
   * first recomputed. */
  double cross = sc->model.kind == HR_KIND_ENCODER_DECODER && !c->adapters_only
                 ? (double) ctx->counts.decoder_extra_linear : 0.0;
  double plain = dev->n_layers > 0 ? (double) (dev->n_layers - n_ck) / (double) dev->n_layers
                                   : 0.0;
  /* DeepSeek's dense first layers cast their dense MLP's weights
   * (or its adapters) instead of the experts' (the wrapped share
   * of them) */
  double dense_delta = (1.0 - plain)
                       * (double) hr_calc_dense_first_on_stage (sc, dev->stage, dev->first_layer,
                                                                dev->n_layers)
                       * (ctx->lora ? (double) ctx->counts.dense_first_lora - cached
                                    : (double) ctx->counts.dense_first_linear - layer_linear);
  double wrapped = (double) n_ck * cached;
  double recomputed = layer_linear + (ctx->lora ? (double) ctx->counts.layer_lora : 0.0);

  /* A hybrid's layers differ: the wrapped ones cache their own kinds'
   * casts (every layer is wrapped, hr-validate-ssm.c), and the first
   * recomputed is the stage's last layer, of its own kind. */
  if (ctx->counts.mixed)
    {
      HrStageKinds k;

      hr_calc_stage_kinds (sc, dev, &k);
      wrapped = (1.0 - plain) * (ctx->lora ? sp->lora : sp->linear);
      recomputed = (c->adapters_only ? 0.0 : (double) ctx->counts.kind_linear[k.last_mixer][k.last_mlp])
                   + (ctx->lora ? (double) ctx->counts.kind_lora[k.last_mixer][k.last_mlp] : 0.0);
    }

  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE_SAVED, N_("16-bit weight copies (autocast)"),
            c->adapters_only ? "unwrapped layers' P_LoRA·bytes"
            : plain > 0 ? "P_head·bytes + unwrapped layers' P_linear·bytes"
            : c->stem > 0 ? "(P_head + P_audio stem)·bytes" : "P_head·bytes",
            N_("Half-precision copies of the weights that autocast makes for the forward pass."),
            (c->head + plain * (c->linear + (ctx->lora ? sp->lora : 0.0)) + c->stem) * ctx->act_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE (HR_PHASE_FORWARD), N_("16-bit weight copies (autocast cache)"),
            "wrapped layers·P_trainable linear·bytes",
            N_("Autocast's cache of half-precision weights, dropped when the forward pass ends."),
            (wrapped + dense_delta + (double) sc->model.decoder_layers * cross)
            * ctx->act_bytes);
  /* (At the end of the backward pass, with the first layer's saved
   * tensors: hr-calc-activations.c.)  As the recomputed layer's
   * working set, at the backward's start where the last layer is
   * wrapped. */
  if (t->checkpointing == HR_CHECKPOINTING_OP
      || dev->n_layers % MAX (t->checkpoint_every, 1) == 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
              HR_LIVE (HR_PHASE_BACKWARD_START), N_("16-bit weight copies of the recomputed layer"),
              "P_layer linear·bytes",
              N_("The recomputed layer's half-precision weights, kept through its backward pass."),
              (recomputed + cross) * ctx->act_bytes);
}

/* torch.autocast casts each weight to 16 bits and keeps the copy for the
 * backward pass: fp32 + 16-bit copies, "1.5x the model" (HF docs,
 * "Efficient training on a single GPU", mixed precision).  The head is a
 * linear layer too: the LM head's matrix (the embedding's, when tied),
 * or the classifier and pooler; so are LoRA's adapters.  ADAPTERS_ONLY:
 * a 16-bit base, whose weights autocast leaves as they are, with fp32
 * adapters (adapters_upcast). */
static void
add_autocast_casts (Ctx               *ctx,
                    HrDevice          *dev,
                    const StageParams *sp,
                    gboolean           adapters_only)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  gboolean last = hr_calc_holds_last (sc, dev->stage);
  guint64 n_ck = hr_activations_wrapped (sc, dev->n_layers);
  Casts c = {
    .linear = adapters_only ? 0.0 : sp->linear,
    .head = !last || t->quant_lm_head || adapters_only ? 0.0
            : sc->model.head == HR_HEAD_LM ? sp->head_weight
            : (double) ctx->counts.head_linear
              + (sc->model.pooler ? (double) (sc->model.hidden * sc->model.hidden) : 0.0),
    /* Whisper's audio stem (hr-calc-seq2seq.c), never checkpointed:
     * its two convolutions' weights, mel x h x 3 and h x h x 3, cast and
     * kept by their graph (ConvolutionBackward keeps the weight even
     * where the input, the log-mel features, needs no gradient) */
    .stem = dev->stage == 0 && hr_model_audio (&sc->model) && !adapters_only
            ? 3.0 * (double) sc->model.hidden
              * (double) (sc->model.audio_mel_bins + sc->model.hidden)
            : 0.0,
    .adapters_only = adapters_only,
  };

  if (dev->stage == 0 && !adapters_only)
    add_vision_casts (ctx, dev);
  if (n_ck == 0)
    add_saved_casts (ctx, dev, sp, &c);
  else
    add_checkpointed_casts (ctx, dev, sp, &c, n_ck);
}

/* Full training: the weights, every one of which trains but a frozen
 * vision tower's; answers how many parameters train. */
static double
add_trained_weights (Ctx               *ctx,
                     HrDevice          *dev,
                     const StageParams *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean zero3 = p->zero == 3;
  double weights_here = hr_calc_sharded (ctx, sp, zero3);
  gboolean shard_is_master = fsdp_shard_is_master (ctx);

  if (!p->offload_params && !shard_is_master)
    hr_calc_add_state_item (ctx, dev, sp, HR_STATE_WEIGHTS, zero3, ctx->weight_bytes,
              HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
              HR_LIVE_ALWAYS, N_("weights"), zero3 ? "P·bytes / N (ZeRO-3)" : "P·bytes",
              N_("The model's weights, which every GPU computes with."),
              (weights_here - vision_weights (ctx, dev, sp, weights_here)) * ctx->weight_bytes);
  if (!p->offload_params && !shard_is_master)
    add_vision_weights (ctx, dev, sp, weights_here, t->dtypes.weights, ctx->weight_bytes);
  /* Full training trains every weight that requires a gradient: not
   * a frozen vision tower (LLaVA's fine-tuning), nor Whisper's
   * sinusoidal encoder positions (requires_grad_(False)), which the
   * optimizer is never given; nor, where the optimizer holds each
   * parameter apart, the tower's parameters no loss reaches, which
   * get no gradient and so no state (hr_calc_vision_trained; DDP
   * leaves a globally unused parameter's .grad untouched, reducer.cpp
   * copy_bucket_to_grad). */
  return sp->dense + sp->experts - sp->frozen
         - (dev->stage == 0 ? (double) (ctx->counts.vision + ctx->counts.projector)
                              - hr_calc_vision_trained (sc, &ctx->counts) : 0.0);
}

/* LoRA and QLoRA: the frozen base (its linears 4-bit under QLoRA) and the
 * adapters; answers how many parameters train. */
static double
add_frozen_base (Ctx               *ctx,
                 HrDevice          *dev,
                 const StageParams *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean zero3 = p->zero == 3;
  double weights_here = hr_calc_sharded (ctx, sp, zero3);
  gboolean shard_is_master = fsdp_shard_is_master (ctx);
  double frozen_here = weights_here;
  double linear_here = zero3 ? sp->linear / ctx->shard : sp->linear;
  gboolean fp32_adapters = adapters_upcast (ctx);

  /* Offloaded parameters leave the GPU whole, the 4-bit ones too: FSDP
   * shards and offloads QLoRA's packed weights like any other
   * (bitsandbytes' quant_storage makes them FSDP's flat parameters, as
   * Answer.AI's FSDP-QLoRA and torchtune's QLoRA under FSDP run them);
   * each layer's are gathered back for its forward and backward
   * (add_gathered_weights), the host holds the shard (add_model_states). */
  if (t->method == HR_METHOD_QLORA && !p->offload_params)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
                HR_LIVE_ALWAYS, N_("frozen base, quantized linears"),
                "P_linear·quant bytes (NF4 0.5625, NF4-DQ 0.5159)",
                N_("The frozen model, squeezed to 4 bits per weight."),
                linear_here * ctx->quant_bytes);
      frozen_here -= linear_here;
    }
  if (!p->offload_params)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR,
              shard_is_master ? t->dtypes.master : t->dtypes.weights, HR_LIVE_ALWAYS,
              t->method == HR_METHOD_QLORA ? N_("frozen base, other weights") : N_("frozen base weights"),
              shard_is_master ? "P_frozen·master bytes / N (FSDP keeps fp32 shards)" : "P_frozen·bytes",
              N_("The frozen model, which is not trained but computed with."),
              (frozen_here - vision_weights (ctx, dev, sp, weights_here))
              * (shard_is_master ? ctx->master_bytes : ctx->weight_bytes));
  if (!p->offload_params)
    add_vision_weights (ctx, dev, sp, weights_here,
                        shard_is_master ? t->dtypes.master : t->dtypes.weights,
                        shard_is_master ? ctx->master_bytes : ctx->weight_bytes);
  if (!shard_is_master)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR,
              fp32_adapters ? HR_DTYPE_FP32 : t->dtypes.weights,
              HR_LIVE_ALWAYS, N_("LoRA adapters"),
              fp32_adapters ? "r·(d_in + d_out) per adapted matrix·4 (PEFT's fp32)"
                            : "r·(d_in + d_out) per adapted matrix",
              N_("The small trainable adapter matrices."),
              sp->lora / (p->zero == 3 ? ctx->shard : 1.0) * (fp32_adapters ? 4.0 : ctx->weight_bytes));
  return sp->lora;
}

/* Transformer Engine keeps an fp8 copy of each linear weight between
 * steps, and on Hopper its transpose too, 2 bytes per weight: TE 2.x's
 * _Linear.forward (transformer_engine/pytorch/module/linear.py) sets the
 * weight quantizer's usage to rowwise and columnwise whenever the input
 * needs a gradient, and Float8Quantizer (tensor/float8_tensor.py,
 * make_empty) makes the columnwise data as a separate transpose unless
 * the GPU runs non-TN fp8 GEMMs (is_non_tn_fp8_gemm_supported: Blackwell,
 * where it is 1 byte; MXFP8 keeps both directions with a 1-byte scale
 * per 32: 2.0625, below).  Linear.forward caches it in _fp8_workspaces["weight"]
 * when is_first_microbatch is given, as Megatron's TE wrappers do; TE 1.x
 * kept weight_fp8 and weight_t_fp8 (fp8 cast_transpose) the same way.
 * LayerNormLinear and LayerNormMLP (fc1 and fc2) cache theirs alike.
 * torchao's Float8Linear (torchao/float8/float8_linear.py,
 * matmul_with_hp_or_float8_args) casts input and weight for each matmul,
 * saves the high-precision ones for the backward and casts them again
 * there, so it keeps none (torchtitan's float8 converter uses it).  TE's
 * delayed-scaling state (amax history, 1024 fp32 entries for each of a
 * module's fp8 tensors in TE's DelayedScaling default, common/recipe;
 * Megatron's --fp8-amax-history-len, megatron/training/arguments.py,
 * defaults to 1) is a few MB for a whole model and not counted. */
static void
add_fp8_weight_copies (Ctx               *ctx,
                       HrDevice          *dev,
                       const StageParams *sp)
{
  const HrTraining *t = &ctx->sc->training;
  gboolean zero3 = ctx->sc->parallel.zero == 3;

  if (t->precision == HR_PRECISION_FP8_MIXED && t->fp8_recipe == HR_FP8_RECIPE_TE)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, HR_DTYPE_FP8,
              HR_LIVE_ALWAYS, N_("fp8 weight copies"), "P_linear·2 (Transformer Engine: fp8 data + transpose)",
              N_("8-bit copies of the weights and their transposes for the fp8 matrix units."),
              (zero3 ? sp->linear / ctx->shard : sp->linear) * 2.0);
  /* MXFP8 (Blackwell): the same cache, but the columnwise copy is a
   * quantization of its own along the other axis, and each copy has one
   * E8M0 scale byte per block of 32 (MXFP8Quantizer, tensor/
   * mxfp8_tensor.py, get_scale_shape; hr-fp8.h): 1 + 1 + 2/32 bytes a
   * weight. */
  else if (t->precision == HR_PRECISION_FP8_MIXED && t->fp8_recipe == HR_FP8_RECIPE_TE_MXFP8)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, HR_DTYPE_FP8,
              HR_LIVE_ALWAYS, N_("fp8 weight copies"),
              "P_linear·(2 + 2/32) (Transformer Engine MXFP8: rowwise + columnwise data, a scale byte per 32 each)",
              N_("8-bit copies of the weights scaled along rows and along columns, with one scale byte per 32 values."),
              (zero3 ? sp->linear / ctx->shard : sp->linear) * hr_fp8_weight_copy_bytes (t));
}

/* bitsandbytes dequantizes a whole weight for each 4-bit matmul; the
 * largest may be the LM head when it is quantized too.  dequantize_4bit
 * returns the type the weight was quantized from (QuantState.dtype) and
 * MatMul4Bit casts that to the input's type: Lightning's plugin quantizes
 * from fp16 (_Linear4bit._quantize_weight), so under bf16 both copies
 * exist at once. */
static void
add_dequantized_weight (Ctx      *ctx,
                        HrDevice *dev)
{
  const HrTraining *t = &ctx->sc->training;
  HrDtype unpacked = t->dequant_dtype == HR_DTYPE_NONE ? t->dtypes.activations
                                                        : t->dequant_dtype;
  double per_weight = hr_dtype_bytes (unpacked)
                      + (unpacked != t->dtypes.activations ? ctx->act_bytes : 0.0);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, unpacked,
            HR_LIVE_FWD_BWD, N_("dequantized weight (one at a time)"),
            unpacked != t->dtypes.activations
              ? "largest quantized linear·(unpacked + compute bytes)"
              : "largest quantized linear·bytes",
            N_("A 4-bit weight unpacked to 16 bits just for its matrix multiply."),
            (double) MAX (ctx->counts.largest_linear,
                          t->quant_lm_head ? ctx->counts.head_linear : 0) * per_weight);
}

/* The weights this GPU holds for the whole run, and the copies computing
 * with them makes; answers how many parameters train. */
static double
add_weights (Ctx               *ctx,
             HrDevice          *dev,
             const StageParams *sp)
{
  const HrTraining *t = &ctx->sc->training;
  double trainable = ctx->lora ? add_frozen_base (ctx, dev, sp) : add_trained_weights (ctx, dev, sp);

  add_fp8_weight_copies (ctx, dev, sp);
  if (t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32
      && ctx->sc->parallel.zero != 3)
    add_autocast_casts (ctx, dev, sp, FALSE);
  else if (adapters_upcast (ctx) && ctx->sc->parallel.zero != 3)
    add_autocast_casts (ctx, dev, sp, TRUE);
  if (t->method == HR_METHOD_QLORA)
    add_dequantized_weight (ctx, dev);
  return trainable;
}

/* One gradient per trainable parameter, sharded from ZeRO-2 on; answers
 * how many parameters' optimizer states this GPU keeps. */
static double
add_gradients (Ctx               *ctx,
               HrDevice          *dev,
               const StageParams *sp,
               double             trainable)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean ds = hr_calc_deepspeed_engine (p);
  /* DeepSpeed refuses no_sync under ZeRO-2/3 (engine.py,
   * DeepSpeedEngine.no_sync: "incompatible with gradient partitioning"). */
  gboolean no_sync = p->no_sync && !(ds && p->zero >= 2);
  double all = sp->dense + sp->experts;
  double shard_of_trainable, grads_here;
  /* Gradients live from the backward pass to the step, and through the
   * next forward when micro-batches accumulate or when zero_grad() only
   * zeroes them (set_to_none=False, PyTorch's default before 2.0). */
  guint grads_live = HR_LIVE (HR_PHASE_BACKWARD_END) | HR_LIVE (HR_PHASE_STEP)
                     | (ctx->accumulating || !t->zero_grad_to_none ? HR_LIVE_SAVED : 0);

  shard_of_trainable = ctx->lora ? ctx->shard
                                 : (all > 0 ? all / MAX (hr_calc_sharded (ctx, sp, TRUE), 1e-9) : 1.0);
  /* Accumulating under FSDP's no_sync keeps every gradient unsharded
   * until the last micro-batch ("can use more GPU memory", FSDP docs). */
  grads_here = p->zero >= 2 && !(no_sync && ctx->accumulating)
               ? trainable / shard_of_trainable : trainable;
  /* ZeRO-Offload moves the gradient partitions to the CPU as they are
   * reduced (Ren et al. 2021 §4); only the layer being reduced stays. */
  /* The output layer's gradient is not one layer's: torchtune's chunked
   * output applies the layer once per chunk (TransformerDecoder.forward:
   * [self.output (chunk) for
   * chunk in h.chunk (num_output_chunks)]), so the loss's backward sums
   * the chunks' weight gradients in the AccumulateGrad node's input before
   * the post-accumulate-grad hook steps it.  A tied output weight is the
   * embedding's too: the engine runs that node only once the embedding's
   * backward, the last, has added its share, so the whole output-sized
   * gradient stays through the backward pass.  (One GPU without ZeRO-2/3
   * or pipelining, the runs measured.) */
  if (t->optimizer_in_backward && !ctx->lora && p->zero < 2 && p->pp <= 1 && sp->head_weight > 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
              HR_LIVE (HR_PHASE_LOSS_BACKWARD) | (sc->model.tied_embeddings ? HR_LIVE_BACKWARD : 0),
              sc->model.tied_embeddings ? N_("output layer's gradient (tied: until the embedding's backward)")
                                        : N_("output layer's gradient (summed over the loss's chunks)"),
              "V·h·bytes / t",
              N_("The output layer's gradient waits for all its uses before its step."),
              sp->head_weight * ctx->grad_bytes);
  /* With the optimizer step in the backward pass (torchtune's
   * optimizer_in_bwd), each gradient is applied and freed at once: only a
   * layer's worth exists at a time. */
  if (t->optimizer_in_backward)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
              HR_LIVE_BACKWARD, N_("gradients of one layer (stepped in backward)"),
              "P_layer·bytes",
              N_("Each layer's gradients are applied and freed during the backward pass."),
              (ctx->lora ? hr_calc_layer_lora_max (&ctx->counts) : sp->layer) * ctx->grad_bytes);
  else if (ds)
    hr_calc_add_deepspeed_gradients (ctx, dev, sp, trainable, trainable / shard_of_trainable);
  else if (!(p->offload_optimizer && p->zero >= 2))
    hr_calc_add_state_item (ctx, dev, sp, HR_STATE_GRADIENTS,
              p->zero >= 2 && !(no_sync && ctx->accumulating), ctx->grad_bytes,
              HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads, grads_live,
              N_("gradients"),
              p->zero < 2 ? "P_trainable·bytes"
              : no_sync && ctx->accumulating ? "P_trainable·bytes (unsharded under no_sync)"
              : "P_trainable·bytes / N (ZeRO-2/3)",
              N_("One gradient per trainable weight, produced by the backward pass."),
              grads_here * ctx->grad_bytes);
  /* FSDP2 under pipelining: the schedule turns gradient sync off for all
   * but the last micro-batch (backward_maybe_with_nosync:
   * set_requires_gradient_sync (False)), so each weight's unsharded
   * gradient accumulates, in the reduce type (torchtitan's
   * mixed_precision_reduce, fp32: FSDPParam.to_accumulated_grad_if_needed),
   * from the first micro-batch's backward to the last's. */
  if (p->zero >= 2 && !ds && p->fsdp == 2 && p->pp > 1 && t->grad_accum > 1)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, HR_DTYPE_FP32,
              HR_LIVE_FWD_BWD, N_("unsharded gradients (accumulated across micro-batches)"),
              "P_trainable·4 (FSDP2 under pipelining)",
              N_("Under pipelining FSDP2 reduces the gradients only after the last micro-batch."),
              trainable * 4.0);
  else if (p->zero >= 2 && !ds)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
              HR_LIVE_BACKWARD, N_("unsharded gradients of one layer (reduce-scatter)"),
              "P_layer·bytes",
              N_("A layer's full gradients before they are split across the GPUs."),
              (ctx->lora ? hr_calc_layer_lora_max (&ctx->counts) : sp->layer) * ctx->grad_bytes);

  /* (Gradients that leave for the host, or are stepped in the backward
   * pass, or wait unsharded under no_sync, are not FSDP's cached ones.
   * FSDP1 copies a unit's gradient for the reduce-scatter only to cast it
   * to the reduce type, FSDP2 always.) */
  if (p->zero >= 2 && !ds && !t->optimizer_in_backward
      && !(p->offload_optimizer || p->offload_params) && !(no_sync && ctx->accumulating))
    hr_calc_add_fsdp_cached (ctx, dev, sp, grads_here * ctx->grad_bytes, grads_live,
                             p->fsdp == 2 || t->dtypes.grads != t->dtypes.weights ? ctx->grad_bytes : 0.0);

  return p->zero >= 1 ? trainable / shard_of_trainable : trainable;
}

void
hr_calc_add_model_states (Ctx               *ctx,
                  HrDevice          *dev,
                  const StageParams *sp)
{
  const HrParallel *p = &ctx->sc->parallel;
  double trainable, trainable_here;

  trainable = add_weights (ctx, dev, sp);
  if (p->zero == 3)
    hr_calc_add_gathered_weights (ctx, dev, sp);
  trainable_here = add_gradients (ctx, dev, sp, trainable);
  hr_calc_add_optimizer (ctx, dev, sp, trainable, trainable_here);
  if (p->offload_params && p->offload_params_device != HR_OFFLOAD_DEVICE_NVME)
    {
      double here = hr_calc_sharded (ctx, sp, p->zero == 3);
      /* (QLoRA's linears are 4-bit on the host as on the GPU.) */
      double linear_here = ctx->sc->training.method == HR_METHOD_QLORA
                           ? (p->zero == 3 ? sp->linear / ctx->shard : sp->linear) : 0.0;

      ctx->host_bytes += (here - linear_here) * ctx->weight_bytes + linear_here * ctx->quant_bytes;
    }
}
