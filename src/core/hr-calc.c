/* hr-calc.c: scenario in, per-GPU memory plan out
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For each pipeline stage, every tensor a training step keeps on one GPU
 * becomes an item with the phases of the step it is alive in (forward,
 * the loss's backward, the end of backward, the optimizer step).  The
 * peak is the phase with the most live memory, not the sum of all items
 * (CALC-REFERENCE.md section 6); the items alive then make up the five
 * categories of the chart.
 *
 * Sources: ZeRO paper (Rajbhandari et al. 2020) §3.1 and §5 for model
 * states and their sharding; DeepSpeed's estimators for gather buffers and
 * host memory; Korthikanti et al. 2022 for activations and pipelines
 * (hr-activations.c); QLoRA (Dettmers et al. 2023) §3 for NF4.
 */

#include "hr-calc.h"

#include <glib/gi18n-lib.h>
#include "hr-activations.h"
#include "hr-error.h"
#include "hr-format.h"
#include "hr-optimizers.h"
#include "hr-params.h"
#include "hr-validate.h"

#include <string.h>

/* Plans larger than this per GPU (1 PiB) are refused rather than rounded:
 * below it every item, every sum of up to HR_MAX_ITEMS items and every
 * figure derived in double stays an exact whole number (under 2^53), so
 * the categories add up to the total to the byte. */
#define MAX_DEVICE_BYTES 1125899906842624.0

#include "hr-calc-private.h"

/* QLoRA §3: NF4 = 4 bits + one fp32 absmax per 64 weights (0.5625 B);
 * double quantization brings the constants to 0.127 bits (0.515875 B).
 * int8 (LLM.int8) keeps one fp32 scale per row, small enough to leave out
 * here; int4 (bitsandbytes FP4) uses NF4's block layout. */
static double
quant_bytes_per_param (HrQuant quant)
{
  switch (quant)
    {
    case HR_QUANT_NF4:
    case HR_QUANT_INT4:
      return 0.5 + 4.0 / 64.0;
    case HR_QUANT_NF4_DQ:
      return 0.5 + 0.127 / 8.0;
    case HR_QUANT_INT8:
      return 1.0;
    case HR_N_QUANTS:
    default:
      return 2.0;
    }
}

/* Bytes of all of one parameter's states (hr-optimizers.c has each
 * optimizer's row; Adafactor's factored states are counted elsewhere). */
double
hr_optimizer_state_bytes (HrOptimizer optimizer,
                          HrDtype     state_dtype)
{
  const HrOptimizerInfo *info = hr_optimizer_info (optimizer);

  return info->states * (info->fixed_bytes > 0 ? info->fixed_bytes : hr_dtype_bytes (state_dtype));
}

/* NCCL allocates its channel buffers outside PyTorch (PyTorch docs,
 * "Understanding CUDA memory usage").  On 8x H100 about 1.06 GB per GPU sat
 * outside PyTorch after the first all-reduce, CUDA context included
 * (NVIDIA/nccl#1685): about 512 MiB once the context is taken away. */
double
hr_comm_buffer_auto_mib (const HrScenario *scenario)
{
  if (scenario->overhead.comm_buffer_mib >= 0)
    return scenario->overhead.comm_buffer_mib;
  return scenario->parallel.gpus > 1 ? 512.0 : 0.0;
}

void
hr_calc_add_item (Ctx        *ctx,
                  HrDevice   *dev,
                  HrCategory  category,
                  HrPool      pool,
                  HrDtype     dtype,
                  guint       live,
                  const char *name,
                  const char *formula,
                  const char *why,
                  double      bytes)
{
  if (!(bytes > 0.5))
    return;
  g_assert (dev->n_items < HR_MAX_ITEMS);
  if (bytes > ctx->too_big)
    ctx->too_big = bytes;
  dev->items[dev->n_items++] = (HrItem) {
    .category = category,
    .pool = pool,
    .dtype = dtype,
    .live = live,
    .name = name,
    .formula = formula,
    .why = why,
    .bytes = bytes < MAX_DEVICE_BYTES ? (guint64) (bytes + 0.5) : (guint64) MAX_DEVICE_BYTES,
  };
}

/* Parameters of one stage, per rank, split into dense and expert parts
 * because ZeRO shards experts over the expert-data-parallel group. */
typedef struct
{
  double dense;
  double experts;
  double layer;        /* one layer: what ZeRO-3 gathers at a time */
  double outside;      /* embeddings, head, final norm: FSDP's root unit */
  double head_weight;  /* the LM head's matrix on the last stage, tied or not */
  double linear;       /* quantizable (QLoRA) */
  double small;        /* norms and biases: tensors of a few thousand elements */
  double lora;         /* trainable adapters */
  double adafactor;
} StageParams;

static void
stage_params (const Ctx   *ctx,
              guint64      stage,
              guint64      n_layers,
              StageParams *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrParamCounts *c = &ctx->counts;
  gboolean first = stage == 0;
  gboolean last = stage + 1 == sc->parallel.pp;
  double L = (double) n_layers;

  /* An encoder-decoder model's decoder layers (all on this one stage)
   * each add a cross-attention; the largest layer is one of them. */
  double L_dec = sc->model.kind == HR_KIND_ENCODER_DECODER ? (double) sc->model.decoder_layers : 0.0;

  sp->dense = L * (double) c->layer_dense + L_dec * (double) c->decoder_extra;
  sp->experts = L * (double) c->layer_experts;
  sp->layer = (double) (c->layer_dense + c->layer_experts)
              + (L_dec > 0 ? (double) c->decoder_extra : 0.0);
  sp->linear = L * (double) c->layer_linear + L_dec * (double) c->decoder_extra_linear;
  /* What is not a linear weight in a layer: its norms, biases, QK norms. */
  sp->small = L * (double) (c->layer_dense + c->layer_experts - c->layer_linear)
              + L_dec * (double) (c->decoder_extra - c->decoder_extra_linear)
              + (last ? (double) c->final_norm : 0.0);
  sp->lora = L * (double) c->layer_lora;
  sp->adafactor = L * (double) c->layer_adafactor + L_dec * (double) c->decoder_extra_adafactor;
  sp->outside = 0;
  sp->head_weight = last && sc->model.head == HR_HEAD_LM
                    ? (double) (sc->model.vocab * sc->model.hidden / MAX (sc->parallel.tp, 1)) : 0.0;

  if (first)
    sp->outside += (double) c->embedding;
  if (last)
    {
      sp->outside += (double) (c->head + c->final_norm);
      sp->lora += (double) c->head_lora;
      if (sc->training.quant_lm_head)
        sp->linear += (double) c->head_linear;
      /* Megatron keeps a copy of tied embeddings on the last stage. */
      if (sc->model.tied_embeddings && !first && sc->model.head == HR_HEAD_LM)
        sp->outside += (double) (sc->model.vocab * sc->model.hidden / MAX (sc->parallel.tp, 1));
    }
  if (first || last)
    sp->adafactor += (double) c->outside_adafactor / (first && last ? 1.0 : 2.0);
  sp->dense += sp->outside;
}

static double
sharded (const Ctx         *ctx,
         const StageParams *sp,
         gboolean           on)
{
  if (!on)
    return sp->dense + sp->experts;
  return sp->dense / ctx->shard + sp->experts / ctx->shard_expert;
}

/* DeepSpeed's defaults, in elements (deepspeed/runtime/zero/config.py,
 * DeepSpeedZeroConfig, DeepSpeed 0.19.6; the same numbers are
 * DeepSpeedZeroOptimizer_Stage3.__init__'s keyword defaults in stage3.py).
 * allgather_bucket_size (5e8) allocates nothing: ZeRO-1/2 gather the
 * updated partitions straight into the flat 16-bit buffer
 * (deepspeed/runtime/utils.py, all_gather_dp_groups, which calls
 * all_gather_into_tensor_dp_groups, or gathers into views of it). */
#define DS_REDUCE_BUCKET_SIZE          5e8   /* reduce_bucket_size */
#define DS_PREFETCH_BUCKET_SIZE        5e7   /* stage3_prefetch_bucket_size */
#define DS_MAX_LIVE_PARAMETERS         1e9   /* stage3_max_live_parameters */
#define DS_MAX_REUSE_DISTANCE          1e9   /* stage3_max_reuse_distance */
#define DS_PARAM_PERSISTENCE_THRESHOLD 1e5   /* stage3_param_persistence_threshold */
#define DS_SUB_GROUP_SIZE              1e9   /* sub_group_size */

/* The largest tensor of a stage, whose gradient autograd makes whole
 * before DeepSpeed copies it into its bucket. */
static double
largest_tensor (const Ctx         *ctx,
                const StageParams *sp,
                guint64            stage)
{
  double largest = (double) ctx->counts.largest_linear;

  if (ctx->lora)
    return (double) ctx->counts.layer_lora;
  largest = MAX (largest, sp->head_weight);
  if (stage == 0)
    largest = MAX (largest, (double) ctx->counts.embedding);
  return largest;
}

/* DeepSpeed ZeRO-3 gathers the weights module by module
 * (deepspeed/runtime/zero/partitioned_param_coordinator.py,
 * PartitionedParameterCoordinator): fetch_sub_module gathers the current
 * module and prefetches up to stage3_prefetch_bucket_size elements ahead,
 * no more than stage3_max_live_parameters minus what is already gathered;
 * release_sub_module frees a module's weights unless they are used again
 * within the next stage3_max_reuse_distance elements of the trace
 * (__params_to_release).  A module d elements before the end of the
 * forward pass is used again after the rest of the forward (d) and the
 * backward down to it (d, twice that when full checkpointing recomputes
 * each layer's forward first): the last 1e9 / 2 (or / 3) elements of the
 * forward stay gathered into the backward.  Weights of at most
 * stage3_param_persistence_threshold elements (norms, biases) stay whole on
 * every GPU (parameter_offload.py, DeepSpeedZeRoOffload
 * .mark_persistent_parameters: ds_persist). */
static void
add_deepspeed_gathered (Ctx               *ctx,
                        HrDevice          *dev,
                        const StageParams *sp,
                        double             bytes_per_weight)
{
  const HrScenario *sc = ctx->sc;
  /* (Each wrapped layer's forward runs twice: 2 + the wrapped share.) */
  double layers = (double) MAX (sc->model.layers, 1);
  double window = DS_MAX_REUSE_DISTANCE
                  / (2.0 + (double) hr_activations_wrapped (sc, sc->model.layers) / layers);
  double prefetch = MIN (DS_PREFETCH_BUCKET_SIZE, MAX (DS_MAX_LIVE_PARAMETERS - window, 0.0));
  double gathered = MIN (sp->dense + sp->experts, window + prefetch);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
            HR_LIVE_FWD_BWD, N_("gathered weights (reuse + prefetch)"),
            sc->training.checkpointing == HR_CHECKPOINTING_FULL
              ? "min(P, max_reuse_distance/3 + prefetch)·bytes"
              : "min(P, max_reuse_distance/2 + prefetch)·bytes",
            N_("DeepSpeed keeps the weights it will use again soon gathered, and fetches the next ones ahead."),
            gathered * bytes_per_weight);
  if ((double) sc->model.hidden < DS_PARAM_PERSISTENCE_THRESHOLD)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
              HR_LIVE_ALWAYS, N_("small weights kept whole"),
              "P_norms+biases·bytes·(1 - 1/N) (persistence threshold)",
              N_("Norms and biases are too small to be worth sharding; every GPU keeps them whole."),
              sp->small * ctx->weight_bytes * (1.0 - 1.0 / ctx->shard));
}

/* DeepSpeed's gradients.  ZeRO-3 allocates, once, a flat buffer for this
 * rank's gradient partition (in the gradient accumulation type, the
 * model's by default) and one reduce bucket per communication type
 * (stage3.py, DeepSpeedZeroOptimizer_Stage3.__init__:
 * grad_partitions_flat_buffer, ipg_buckets[dtype].buffer): both live
 * through the whole step.  ZeRO-1/2 allocate the bucket, two with
 * overlap_comm (off by default below stage 3, DeepSpeedZeroConfig
 * .overlap_comm_valid), when the first gradient arrives and free it at the
 * end of the backward pass (stage_1_and_2.py, setup_buckets,
 * _release_ipg_buffers); this rank's partition is copied out of it into
 * grads_in_partition (copy_grads_in_partition), which averaged_gradients
 * keeps until the step; it is allocated whole at the first reduction,
 * once a bucket's worth of gradients has arrived, so within the backward
 * pass for a model larger than the bucket.  ZeRO-1 reduces after the
 * backward pass (at the last micro-batch), so the whole gradients exist
 * until then and only the partition after it
 * (independent_gradient_partition_epilogue, _clear_param_grad_only). */
static void
add_deepspeed_gradients (Ctx               *ctx,
                         HrDevice          *dev,
                         const StageParams *sp,
                         double             trainable,
                         double             partition)
{
  const HrScenario *sc = ctx->sc;
  const HrParallel *p = &sc->parallel;
  HrDtype dtype = sc->training.dtypes.grads;
  guint saved = ctx->accumulating ? HR_LIVE_SAVED : 0;
  guint early = trainable > DS_REDUCE_BUCKET_SIZE ? HR_LIVE (HR_PHASE_BACKWARD_START) : 0;
  gboolean on_gpu = !(p->offload_optimizer && p->zero >= 2);

  if (p->zero == 1)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, dtype,
                HR_LIVE (HR_PHASE_BACKWARD_END) | saved, N_("gradients"), "P_trainable·bytes (until reduced)",
                N_("One gradient per trainable weight, until they are reduced after the backward pass."),
                trainable * ctx->grad_bytes);
      if (!p->offload_optimizer)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, dtype,
                  HR_LIVE (HR_PHASE_BACKWARD_END) | HR_LIVE (HR_PHASE_STEP),
                  N_("gradient partition"), "P_trainable·bytes / N (grads_in_partition)",
                  N_("This GPU's share of the reduced gradients, kept for the step."),
                  partition * ctx->grad_bytes);
    }
  else if (on_gpu)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, dtype,
              p->zero == 3 ? HR_LIVE_ALWAYS
                           : early | HR_LIVE (HR_PHASE_BACKWARD_END) | HR_LIVE (HR_PHASE_STEP) | saved,
              N_("gradients"),
              p->zero == 3 ? "P_trainable·bytes / N (grad_partitions_flat_buffer)"
                           : "P_trainable·bytes / N (grads_in_partition)",
              p->zero == 3 ? N_("This GPU's share of the gradients, in a buffer DeepSpeed keeps for the whole run.")
                           : N_("This GPU's share of the gradients, kept from the backward pass to the step."),
              partition * ctx->grad_bytes);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
            p->zero == 3 ? HR_LIVE_ALWAYS : HR_LIVE_BACKWARD,
            N_("gradient reduce bucket"), "reduce_bucket_size (5e8)·bytes",
            N_("DeepSpeed copies gradients into this buffer to reduce them in large pieces."),
            DS_REDUCE_BUCKET_SIZE * ctx->weight_bytes);
  if (p->zero >= 2)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, dtype,
              HR_LIVE_BACKWARD, N_("largest weight's gradient"),
              "largest tensor·bytes",
              N_("A weight's whole gradient, until it is copied into the reduce bucket."),
              largest_tensor (ctx, sp, dev->stage) * ctx->grad_bytes);
}

/* Whether the DeepSpeed engine runs the sharding (ZeRO-1 to 3). */
static gboolean
deepspeed_engine (const HrParallel *p)
{
  return p->deepspeed && p->zero >= 1;
}

/* The weights this GPU holds for the whole run, and the copies computing
 * with them makes; answers how many parameters train. */
static double
add_weights (Ctx               *ctx,
             HrDevice          *dev,
             const StageParams *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean zero3 = p->zero == 3;
  double all = sp->dense + sp->experts;
  double weights_here = sharded (ctx, sp, zero3);
  double trainable;

  if (!ctx->lora)
    {
      if (!p->offload_params)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                  HR_LIVE_ALWAYS, N_("weights"), zero3 ? "P·bytes / N (ZeRO-3)" : "P·bytes",
                  N_("The model's weights, which every GPU computes with."),
                  weights_here * ctx->weight_bytes);
      trainable = all;
    }
  else
    {
      double frozen_here = weights_here;
      double linear_here = zero3 ? sp->linear / ctx->shard : sp->linear;

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
        hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                  HR_LIVE_ALWAYS,
                  t->method == HR_METHOD_QLORA ? N_("frozen base, other weights") : N_("frozen base weights"),
                  "P_frozen·bytes", N_("The frozen model, which is not trained but computed with."),
                  frozen_here * ctx->weight_bytes);
      trainable = sp->lora;
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_ALWAYS, N_("LoRA adapters"), "r·(d_in + d_out) per adapted matrix",
                N_("The small trainable adapter matrices."),
                trainable / (p->zero == 3 ? ctx->shard : 1.0) * ctx->weight_bytes);
    }

  /* Transformer Engine keeps an fp8 copy of each linear weight between
   * steps; torchao's Float8Linear (torchao/float8/float8_linear.py,
   * matmul_with_hp_or_float8_args) casts input and weight for each matmul,
   * saves the high-precision ones for the backward and casts them again
   * there, so it keeps none (torchtitan's float8 converter uses it). */
  if (t->precision == HR_PRECISION_FP8_MIXED && t->fp8_recipe == HR_FP8_RECIPE_TE)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, HR_DTYPE_FP8,
              HR_LIVE_ALWAYS, N_("fp8 weight copies"), "P_linear·1 (Transformer Engine)",
              N_("8-bit copies of the weights for the fp8 matrix units."),
              (zero3 ? sp->linear / ctx->shard : sp->linear) * 1.0);

  /* torch.autocast casts each weight to 16 bits and keeps the copy for the
   * backward pass: fp32 + 16-bit copies, "1.5x the model" (HF docs,
   * "Efficient training on a single GPU", mixed precision).  The head is a
   * linear layer too: the LM head's matrix (the embedding's, when tied),
   * or the classifier and pooler; so are LoRA's adapters. */
  if (t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32 && !zero3)
    {
      gboolean last = dev->stage + 1 == p->pp;
      double head = !last || t->quant_lm_head ? 0.0
                    : sc->model.head == HR_HEAD_LM ? sp->head_weight
                    : (double) ctx->counts.head_linear
                      + (sc->model.pooler ? (double) (sc->model.hidden * sc->model.hidden) : 0.0);

      guint64 n_ck = hr_activations_wrapped (sc, dev->n_layers);

      if (n_ck == 0)
        {
          /* The first layer's frozen linears whose input needs no gradient
           * keep no cast (hr_activations_first_layer). */
          HrLayerActivations first = { 0 };

          if (dev->stage == 0 && !hr_activations_input_grad (sc))
            hr_activations_first_layer (sc, &first);
          hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                    HR_LIVE_SAVED, N_("16-bit weight copies (autocast)"), "P_linear·bytes",
                    N_("Half-precision copies of the weights that autocast makes for the forward pass."),
                    (sp->linear + head - first.uncast_weights + (ctx->lora ? sp->lora : 0.0))
                    * ctx->act_bytes);
        }
      else
        {
          /* Checkpointed layers keep no graph, so no cast of theirs is
           * saved; autocast's cache still holds the casts of trainable
           * weights until the forward's autocast region ends (cached_cast
           * caches leaf tensors that require grad, under no_grad too).
           * Each layer's recomputation casts its weights again and keeps
           * them through its backward; the head keeps its own, and so do
           * the layers that are not wrapped (checkpoint_every > 1). */
          double layer_linear = (double) ctx->counts.layer_linear;
          double cached = ctx->lora ? (double) ctx->counts.layer_lora : layer_linear;
          /* An encoder-decoder's decoder layers (every one wrapped) cast
           * their cross-attention's weights too; the last of them is the
           * first recomputed. */
          double cross = sc->model.kind == HR_KIND_ENCODER_DECODER
                         ? (double) ctx->counts.decoder_extra_linear : 0.0;
          double plain = dev->n_layers > 0 ? (double) (dev->n_layers - n_ck) / (double) dev->n_layers
                                           : 0.0;

          hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                    HR_LIVE_SAVED, N_("16-bit weight copies (autocast)"),
                    plain > 0 ? "P_head·bytes + unwrapped layers' P_linear·bytes" : "P_head·bytes",
                    N_("Half-precision copies of the weights that autocast makes for the forward pass."),
                    (head + plain * (sp->linear + (ctx->lora ? sp->lora : 0.0))) * ctx->act_bytes);
          hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                    HR_LIVE (HR_PHASE_FORWARD), N_("16-bit weight copies (autocast cache)"),
                    "wrapped layers·P_trainable linear·bytes",
                    N_("Autocast's cache of half-precision weights, dropped when the forward pass ends."),
                    ((double) n_ck * cached + (double) sc->model.decoder_layers * cross)
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
                    (layer_linear + cross + (ctx->lora ? (double) ctx->counts.layer_lora : 0.0))
                    * ctx->act_bytes);
        }
    }

  /* bitsandbytes dequantizes a whole weight for each 4-bit matmul; the
   * largest may be the LM head when it is quantized too.  dequantize_4bit
   * returns the type the weight was quantized from (QuantState.dtype) and
   * MatMul4Bit casts that to the input's type: Lightning's plugin quantizes
   * from fp16 (_Linear4bit._quantize_weight), so under bf16 both copies
   * exist at once. */
  if (t->method == HR_METHOD_QLORA)
    {
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

  return trainable;
}

/* FSDP2 (fully_shard, per-parameter DTensors) as torchtitan applies it
 * (torchtitan/distributed/fsdp.py, apply_fsdp_to_decoder): each block its
 * own unit, resharded after its forward; the token embeddings a unit of
 * their own, resharded likewise; the final norm and the head one unit that
 * is not ("FSDP would prefetch them immediately"); tied embeddings and head
 * one unit, not resharded.  A unit's gradients are reduce-scattered as soon
 * as its backward is done: there is no flat root whose gradients wait for
 * one another.  Under pipeline parallelism nothing is resharded after the
 * forward (get_fsdp_reshard_after_forward_policy: "default" is
 * `not pp_enabled`) nor, but after the last micro-batch, after the backward
 * (torch/distributed/pipelining/stage.py, backward_maybe_with_nosync:
 * set_reshard_after_backward (False)): the stage's weights stay gathered
 * through the step's forward and backward passes. */
static void
add_fsdp2_gathered (Ctx               *ctx,
                    HrDevice          *dev,
                    const StageParams *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  double wb = ctx->weight_bytes;
  double embedding = dev->stage == 0 ? (double) ctx->counts.embedding : 0.0;
  double output = sp->outside - embedding;
  gboolean tied = sc->model.tied_embeddings && sc->model.head == HR_HEAD_LM && sc->parallel.pp == 1;
  double layer_w = ctx->lora && t->method == HR_METHOD_QLORA
                   ? (double) ctx->counts.layer_linear * ctx->quant_bytes
                     + (sp->layer - (double) ctx->counts.layer_linear) * wb
                   : sp->layer * wb;

  if (sc->parallel.pp > 1)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_FWD_BWD, N_("gathered stage weights (kept between micro-batches)"),
                "P_stage·bytes (FSDP2 under pipelining)",
                N_("Under pipelining FSDP2 keeps the stage's weights reassembled from the first forward to the last backward."),
                (double) dev->n_layers * layer_w + sp->outside * wb);
      return;
    }

  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
            HR_LIVE_FWD_BWD, N_("gathered layers (current + prefetch)"),
            "2·P_layer·bytes",
            N_("ZeRO-3 briefly reassembles a whole layer's weights to compute with it."),
            2.0 * layer_w);
  if (tied)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
              HR_LIVE_FWD_BWD, N_("gathered embeddings and head (one unit, kept)"),
              "P_outside·bytes",
              N_("Tied embeddings and output layer are one unit that stays reassembled during the step."),
              sp->outside * wb);
  else
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_FWD_BWD, N_("gathered output layer (kept after forward)"),
                "(P_head + P_final norm)·bytes",
                N_("The output layer stays reassembled from its forward to its backward pass."),
                output * wb);
      /* (The embeddings are gathered again for their backward, the last.) */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE (HR_PHASE_BACKWARD_END), N_("gathered embeddings (for their backward)"),
                "P_embedding·bytes",
                N_("The embedding table is reassembled once more for its backward pass, the last."),
                embedding * wb);
    }
}

/* ZeRO-3 and FSDP: the weights gathered to compute with, and FSDP's root
 * unit, whose gradients join only at the end of the backward pass. */
static void
add_gathered_weights (Ctx               *ctx,
                      HrDevice          *dev,
                      const StageParams *sp)
{
  const HrTraining *t = &ctx->sc->training;
  gboolean zero3 = ctx->sc->parallel.zero == 3;
  gboolean ds = deepspeed_engine (&ctx->sc->parallel);

  /* ZeRO-3 / FSDP gather each layer's full weights just in time, and the
   * next one ahead (prefetch); FSDP's root unit (embeddings, head) stays
   * gathered from forward to backward. */
  if (zero3 && ds)
    {
      double layer_w = ctx->lora && t->method == HR_METHOD_QLORA
                       ? (double) ctx->counts.layer_linear * ctx->quant_bytes
                         + (sp->layer - (double) ctx->counts.layer_linear) * ctx->weight_bytes
                       : sp->layer * ctx->weight_bytes;

      add_deepspeed_gathered (ctx, dev, sp, sp->layer > 0 ? layer_w / sp->layer : ctx->weight_bytes);
    }
  else if (zero3 && ctx->sc->parallel.fsdp == 2)
    add_fsdp2_gathered (ctx, dev, sp);
  else if (zero3)
    {
      double layer_w = ctx->lora && t->method == HR_METHOD_QLORA
                       ? (double) ctx->counts.layer_linear * ctx->quant_bytes
                         + (sp->layer - (double) ctx->counts.layer_linear) * ctx->weight_bytes
                       : sp->layer * ctx->weight_bytes;

      /* FSDP1 (FullyShardedDataParallel): flat parameters, and a root unit
       * holding what no layer's unit does. */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_FWD_BWD, N_("gathered layers (current + prefetch)"),
                "2·P_layer·bytes",
                N_("ZeRO-3 briefly reassembles a whole layer's weights to compute with it."),
                2.0 * layer_w);
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_FWD_BWD, N_("gathered embeddings and head (FSDP root)"),
                "P_outside·bytes·(1 - 1/N)",
                N_("The embedding table and output layer stay reassembled during the step."),
                sp->outside * ctx->weight_bytes * (1.0 - 1.0 / ctx->shard));

      /* FSDP computes a unit's gradients into views of its flat parameter;
       * autograd joins them into one flat gradient (split's backward) only
       * when the unit's last gradient has arrived.  For a layer that is
       * within its own backward; for the root unit the head's gradient comes
       * first and the embedding's last, so the head's waits through the
       * whole backward pass and, at its end, the separate gradients and the
       * joined flat one (2·P_outside) exist together. */
      if (!ctx->lora && sp->outside > 0)
        {
          hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
                    HR_LIVE_BACKWARD, N_("head gradient (waits for the root unit)"),
                    "P_head·bytes",
                    N_("The output layer's gradient, kept until the embedding's gradient is ready."),
                    sp->head_weight * ctx->grad_bytes);
          hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
                    HR_LIVE (HR_PHASE_BACKWARD_END), N_("root unit's gradients joined (flat)"),
                    "(2·P_outside - P_head)·bytes",
                    N_("The embedding and head gradients copied into one flat tensor for sharding."),
                    (2.0 * sp->outside - sp->head_weight) * ctx->grad_bytes);
        }
    }

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
  gboolean ds = deepspeed_engine (p);
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
                                 : (all > 0 ? all / MAX (sharded (ctx, sp, TRUE), 1e-9) : 1.0);
  /* Accumulating under FSDP's no_sync keeps every gradient unsharded
   * until the last micro-batch ("can use more GPU memory", FSDP docs). */
  grads_here = p->zero >= 2 && !(no_sync && ctx->accumulating)
               ? trainable / shard_of_trainable : trainable;
  /* ZeRO-Offload moves the gradient partitions to the CPU as they are
   * reduced (Ren et al. 2021 §4); only the layer being reduced stays. */
  /* With the optimizer step in the backward pass (torchtune's
   * optimizer_in_bwd), each gradient is applied and freed at once: only a
   * layer's worth exists at a time. */
  if (t->optimizer_in_backward)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
              HR_LIVE_BACKWARD, N_("gradients of one layer (stepped in backward)"),
              "P_layer·bytes",
              N_("Each layer's gradients are applied and freed during the backward pass."),
              (ctx->lora ? (double) ctx->counts.layer_lora : sp->layer) * ctx->grad_bytes);
  else if (ds)
    add_deepspeed_gradients (ctx, dev, sp, trainable, trainable / shard_of_trainable);
  else if (!(p->offload_optimizer && p->zero >= 2))
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads, grads_live,
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
              (ctx->lora ? (double) ctx->counts.layer_lora : sp->layer) * ctx->grad_bytes);

  return p->zero >= 1 ? trainable / shard_of_trainable : trainable;
}

/* The fp32 master copy (counted here, as in the ZeRO paper), the
 * optimizer's states and what its step makes, for TRAINABLE_HERE
 * parameters, or their bytes on the host when offloaded. */
static void
add_optimizer (Ctx               *ctx,
               HrDevice          *dev,
               const StageParams *sp,
               double             trainable,
               double             trainable_here)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean zero3 = p->zero == 3;
  gboolean ds = deepspeed_engine (p);
  const HrOptimizerInfo *optimizer = hr_optimizer_info (t->optimizer);
  gboolean paged = optimizer->paged;
  double state_bytes;

  if (optimizer->factored)
    state_bytes = (ctx->lora ? trainable : sp->adafactor) / MAX (trainable, 1.0)
                  * ctx->state_dtype_bytes;
  else
    state_bytes = hr_optimizer_state_bytes (t->optimizer, t->dtypes.optimizer);

  if (p->offload_optimizer)
    {
      /* On NVMe (ZeRO-Infinity) the master weights and states take no
       * host RAM; the fp32 gradient partition the CPU steps on stays in
       * pinned host memory (DeepSpeed stage3.py grad_partitions_flat_buffer). */
      ctx->host_bytes += trainable_here
                         * (p->offload_optimizer_device == HR_OFFLOAD_DEVICE_NVME
                            ? 4.0 : ctx->master_bytes + state_bytes + 4.0);
    }
  else
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.master,
                HR_LIVE_ALWAYS, N_("master weights"),
                p->zero >= 1 ? "P_trainable·bytes / N (ZeRO-1+)" : "P_trainable·bytes",
                N_("A full-precision copy of the weights that the optimizer updates."),
                trainable_here * ctx->master_bytes);
      hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, paged ? HR_POOL_MANAGED : HR_POOL_ALLOCATOR,
                optimizer->quantized ? HR_DTYPE_NONE
                  : optimizer->fixed_bytes == 4.0 ? HR_DTYPE_FP32 : t->dtypes.optimizer,
                HR_LIVE_ALWAYS,
                paged ? N_("optimizer states (paged)") : N_("optimizer states"),
                p->zero >= 1 ? "P_trainable·state bytes / N (ZeRO-1+)" : "P_trainable·state bytes",
                N_("The optimizer's running statistics, e.g. Adam's two averages per weight."),
                trainable_here * state_bytes);

      /* The step's temporaries: PyTorch's foreach path materialises one
       * state-sized tensor for all parameters at once (torch.optim.adamw
       * _multi_tensor_adamw: exp_avg_sq.sqrt()); fused kernels none; the
       * per-parameter loop one parameter's worth. */
      if (optimizer->step_scratch && !paged)
        {
          double temp = 0;

          if (t->optimizer_impl == HR_OPTIMIZER_IMPL_FOREACH)
            temp = trainable_here * ctx->state_dtype_bytes;
          else if (t->optimizer_impl == HR_OPTIMIZER_IMPL_LOOP || optimizer->factored)
            {
              /* One tensor at a time, the largest trainable one: a weight
               * matrix, the vocabulary table, or an adapter's matrix.
               * Adam's single-tensor step makes two at once (torch/optim/
               * adamw.py, _single_tensor_adamw: denom = (exp_avg_sq.sqrt()
               * / bias_correction2_sqrt).add_(eps)). */
              const HrModelArch *m = &sc->model;
              double largest = ctx->lora
                ? (double) t->lora_rank * (double) MAX (MAX (m->hidden, m->heads * hr_model_head_dim (m)),
                                                        m->experts > 1 ? hr_model_expert_ffn (m) : m->ffn)
                : MAX ((double) ctx->counts.largest_linear,
                       MAX ((double) (m->vocab * m->hidden / MAX (p->tp, 1)),
                            (double) (m->learned_positions * m->hidden)));

              temp = (optimizer->states == 2 && !optimizer->factored ? 2.0 : 1.0)
                     * largest * ctx->state_dtype_bytes;
            }
          hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.optimizer,
                    HR_LIVE (HR_PHASE_STEP), N_("optimizer step temporaries"),
                    t->optimizer_impl == HR_OPTIMIZER_IMPL_FOREACH ? "P_trainable·state bytes (foreach)"
                                                                   : "largest tensor·state bytes",
                    N_("Scratch space the optimizer needs while it updates the weights."),
                    MIN (temp, trainable_here * ctx->state_dtype_bytes));
        }

      /* Mixed precision steps on fp32 gradients: DeepSpeed converts its
       * 16-bit gradient partition to fp32 for the step.  It first
       * flattens the partition's gradients into a new tensor and converts
       * that: ZeRO-1/2 the whole partition at once (stage_1_and_2.py,
       * DeepSpeedZeroOptimizer.step: flatten (averaged_gradients), .to ()),
       * ZeRO-3 one sub-group of at most sub_group_size elements at a time,
       * freeing its fp32 gradients after its step (stage3.py,
       * _prepare_fp32_grad_for_sub_group, _release_sub_group). */
      double converted = ds && zero3 ? MIN (trainable_here, DS_SUB_GROUP_SIZE) : trainable_here;

      if (ds)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.grads,
                  HR_LIVE (HR_PHASE_STEP), N_("flattened gradient partition (step)"),
                  zero3 ? "min(P_trainable / N, sub_group_size)·bytes" : "P_trainable·bytes / N",
                  N_("DeepSpeed copies the gradient partition into one flat tensor before converting it."),
                  converted * ctx->grad_bytes);
      if (t->dtypes.master != HR_DTYPE_NONE && t->dtypes.grads != t->dtypes.master)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.master,
                  HR_LIVE (HR_PHASE_STEP), N_("fp32 gradients for the step"),
                  ds && zero3 ? "min(P_trainable / N, sub_group_size)·4" : "P_trainable·4 / N",
                  N_("Gradients converted to full precision for the update."),
                  converted * ctx->master_bytes);
    }

}

static void
add_model_states (Ctx               *ctx,
                  HrDevice          *dev,
                  const StageParams *sp)
{
  const HrParallel *p = &ctx->sc->parallel;
  double trainable, trainable_here;

  trainable = add_weights (ctx, dev, sp);
  if (p->zero == 3)
    add_gathered_weights (ctx, dev, sp);
  trainable_here = add_gradients (ctx, dev, sp, trainable);
  add_optimizer (ctx, dev, sp, trainable, trainable_here);
  if (p->offload_params && p->offload_params_device != HR_OFFLOAD_DEVICE_NVME)
    {
      double here = sharded (ctx, sp, p->zero == 3);
      /* (QLoRA's linears are 4-bit on the host as on the GPU.) */
      double linear_here = ctx->sc->training.method == HR_METHOD_QLORA
                           ? (p->zero == 3 ? sp->linear / ctx->shard : sp->linear) : 0.0;

      ctx->host_bytes += (here - linear_here) * ctx->weight_bytes + linear_here * ctx->quant_bytes;
    }
}

static void
finish_device (Ctx      *ctx,
               HrDevice *dev,
               HrPlan   *plan)
{
  const HrScenario *sc = ctx->sc;
  double total;
  double frag = sc->overhead.fragmentation;

  memset (dev->phase_bytes, 0, sizeof dev->phase_bytes);
  for (guint i = 0; i < dev->n_items; i++)
    {
      const HrItem *item = &dev->items[i];

      if (item->pool != HR_POOL_ALLOCATOR)
        continue;
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        if (item->live & HR_LIVE (ph))
          dev->phase_bytes[ph] += item->bytes;
    }

  dev->peak_phase = HR_PHASE_FORWARD;
  for (guint ph = 1; ph < HR_N_PHASES; ph++)
    if (dev->phase_bytes[ph] > dev->phase_bytes[dev->peak_phase])
      dev->peak_phase = ph;
  dev->allocated_bytes = dev->phase_bytes[dev->peak_phase];

  /* The caching allocator reserves more than is live (CALC-REFERENCE §6). */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_OUTSIDE, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
            N_("allocator fragmentation"), "allocated·fragmentation",
            N_("Memory PyTorch has reserved but cannot use right now."),
            (double) dev->allocated_bytes * frag);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_OUTSIDE, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
            N_("CUDA context"), "overhead.cuda_context_mib",
            N_("The GPU driver's own memory for kernels and bookkeeping."),
            sc->overhead.cuda_context_mib * HR_MIB);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_OUTSIDE, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
            N_("communication buffers (NCCL)"), "overhead.comm_buffer_mib",
            N_("Buffers the GPUs use to talk to each other."),
            hr_comm_buffer_auto_mib (sc) * HR_MIB);

  memset (dev->category_bytes, 0, sizeof dev->category_bytes);
  for (guint i = 0; i < dev->n_items; i++)
    {
      const HrItem *item = &dev->items[i];

      if (!hr_item_is_live_at_peak (dev, item))
        continue;
      dev->category_bytes[item->category] += item->bytes;
    }

  dev->reserved_bytes = dev->allocated_bytes
                        + (guint64) ((double) dev->allocated_bytes * frag + 0.5);
  dev->total_bytes = 0;
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    dev->total_bytes += dev->category_bytes[c];
  total = (double) dev->total_bytes;

  dev->free_bytes = (gint64) plan->capacity_bytes - (gint64) dev->total_bytes;
  if (dev->free_bytes < 0)
    dev->status = HR_STATUS_OOM;
  else if ((guint64) dev->free_bytes < plan->wanted_free_bytes)
    dev->status = HR_STATUS_TIGHT;
  else
    dev->status = HR_STATUS_OK;
  if (total > ctx->too_big)
    ctx->too_big = total;
}

static void
add_warning (HrPlan        *plan,
             HrWarningCode  code,
             guint          device)
{
  if (plan->n_warnings < HR_MAX_WARNINGS)
    plan->warnings[plan->n_warnings++] = (HrWarning) { code, device };
}

static void
label_device (const HrScenario *sc,
              HrDevice         *dev)
{
  if (sc->parallel.pp > 1)
    g_snprintf (dev->label, sizeof dev->label, "Stage %" G_GUINT64_FORMAT, dev->stage);
  else if (sc->parallel.gpus == 1)
    g_strlcpy (dev->label, "GPU 0", sizeof dev->label);
  else
    g_snprintf (dev->label, sizeof dev->label, "GPU 0-%" G_GUINT64_FORMAT,
                sc->parallel.gpus - 1);
}

/* parallel.stage_layers: the layers device STAGE holds, its chunks
 * STAGE, STAGE + pp, ... of the pp·vpp virtual stages (Megatron's and
 * torchtitan's interleaved assignment), and where its first chunk starts. */
static void
stage_layers_of (const HrParallel *p,
                 guint64           stage,
                 guint64          *first_layer,
                 guint64          *n_layers)
{
  guint64 start = 0;

  *first_layer = 0;
  *n_layers = 0;
  for (guint64 v = 0; v < p->n_stage_layers; v++)
    {
      if (v == stage)
        *first_layer = start;
      if (v % p->pp == stage)
        *n_layers += p->stage_layers[v];
      start += p->stage_layers[v];
    }
}

gboolean
hr_calc_plan (const HrScenario  *sc,
              HrPlan            *plan,
              GError           **error)
{
  const HrParallel *p = &sc->parallel;
  const HrTraining *t = &sc->training;
  Ctx ctx = { 0 };
  guint64 base_layers, extra_layers;
  double host;
  gint64 least_free = G_MAXINT64;

  g_return_val_if_fail (sc != NULL, FALSE);
  g_return_val_if_fail (plan != NULL, FALSE);

  if (!hr_scenario_validate (sc, error))
    return FALSE;

  ctx.sc = sc;
  hr_params_count (&sc->model, t, p->tp, p->ep, &ctx.counts);
  hr_activations_layer (sc, &ctx.layer_act);
  ctx.first_total = ctx.layer_act.total;
  ctx.last_recompute = ctx.layer_act.total - ctx.layer_act.checkpoint;
  ctx.shard = (double) hr_parallel_shard_degree (p);
  ctx.shard_expert = MAX (ctx.shard / (double) p->ep, 1.0);
  ctx.weight_bytes = hr_dtype_bytes (t->dtypes.weights);
  ctx.grad_bytes = hr_dtype_bytes (t->dtypes.grads);
  ctx.master_bytes = hr_dtype_bytes (t->dtypes.master);
  ctx.state_dtype_bytes = hr_dtype_bytes (t->dtypes.optimizer);
  ctx.act_bytes = hr_dtype_bytes (t->dtypes.activations);
  ctx.quant_bytes = quant_bytes_per_param (t->quant);
  ctx.tokens = (double) t->micro_batch * (double) t->seq_len / (double) p->cp;
  if (sc->model.kind == HR_KIND_ENCODER_DECODER)
    hr_calc_seq2seq_layers (&ctx);
  ctx.lora = t->method != HR_METHOD_FULL;
  ctx.accumulating = t->grad_accum > 1;

  plan->params = ctx.counts.total;
  plan->active_params = ctx.counts.active;
  plan->trainable_params = ctx.lora ? ctx.counts.lora_total : ctx.counts.total;
  plan->capacity_bytes = sc->gpu.memory_mib * 1024 * 1024;
  plan->wanted_free_bytes = (guint64) (sc->overhead.headroom * (double) plan->capacity_bytes);
  plan->n_warnings = 0;
  plan->fits = TRUE;
  plan->status = HR_STATUS_OK;

  hr_plan_reserve_devices (plan, (guint) p->pp);
  plan->n_devices = (guint) p->pp;
  base_layers = hr_model_stack_layers (&sc->model) / p->pp;
  extra_layers = p->n_stage_layers > 0 ? 0 : hr_model_stack_layers (&sc->model) % p->pp;

  for (guint64 stage = 0; stage < p->pp; stage++)
    {
      HrDevice *dev = &plan->devices[stage];
      StageParams sp;

      dev->n_items = 0;
      dev->stage = stage;
      dev->ranks = p->gpus / p->pp;
      if (p->n_stage_layers > 0)
        stage_layers_of (p, stage, &dev->first_layer, &dev->n_layers);
      else
        {
          dev->n_layers = base_layers + (stage < extra_layers ? 1 : 0);
          dev->first_layer = stage * base_layers + MIN (stage, extra_layers);
        }
      label_device (sc, dev);

      stage_params (&ctx, stage, dev->n_layers, &sp);
      dev->params = (guint64) (sp.dense + sp.experts);
      add_model_states (&ctx, dev, &sp);
      hr_calc_add_activations (&ctx, dev, stage);
      if (sc->model.kind == HR_KIND_ENCODER_DECODER)
        hr_calc_add_seq2seq (&ctx, dev);
      finish_device (&ctx, dev, plan);

      if (dev->free_bytes < least_free)
        {
          least_free = dev->free_bytes;
          plan->binding_device = (guint) stage;
        }
      if (dev->status > plan->status)
        plan->status = dev->status;
    }

  if (ctx.too_big >= MAX_DEVICE_BYTES)
    {
      hr_error_set_field (error, HR_ERROR_INVALID, "training",
                          "this plan needs about %.3g bytes on one GPU, more than Headroom "
                          "can represent exactly; allowed: plans under 1 PiB per GPU (lower "
                          "training.micro_batch or training.seq_len)", ctx.too_big);
      return FALSE;
    }

  plan->fits = plan->status != HR_STATUS_OOM;
  if (plan->status == HR_STATUS_OOM)
    add_warning (plan, HR_WARNING_OOM, plan->binding_device);
  else if (plan->status == HR_STATUS_TIGHT)
    add_warning (plan, HR_WARNING_TIGHT, plan->binding_device);
  if (hr_optimizer_info (t->optimizer)->paged)
    add_warning (plan, HR_WARNING_PAGED, 0);

  /* Offloaded bytes per rank, averaged over the stages, times the ranks
   * of a node; DeepSpeed's estimators add a 1.5x buffer factor
   * (estimate_zero3_model_states_mem_needs, additional_buffer_factor). */
  host = ctx.host_bytes / (double) p->pp * (double) MIN (p->gpus_per_node, p->gpus) * 1.5;
  if (!(host < MAX_DEVICE_BYTES * 64))
    {
      /* Converting a larger double to guint64 is undefined behaviour, and
       * 6e21 once came out as 0, hiding the host-RAM warning. */
      hr_error_set_field (error, HR_ERROR_INVALID, "parallel.offload_optimizer",
                          "the offloaded states need about %.3g bytes of host memory per "
                          "node, more than Headroom can represent exactly; allowed: under "
                          "64 PiB per node (use more nodes, or offload less)", host);
      return FALSE;
    }
  plan->host_bytes_per_node = (guint64) host;
  if (plan->host_bytes_per_node > 0)
    add_warning (plan, HR_WARNING_HOST_RAM, 0);
  if (extra_layers != 0)
    add_warning (plan, HR_WARNING_UNEVEN_LAYERS, 0);

  return TRUE;
}
