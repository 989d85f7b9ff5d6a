/* hr-calc-gathered.c: what sharding gathers, and DeepSpeed's buffers
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ZeRO-3 and FSDP keep a shard of each weight and gather whole layers to
 * compute with them; how many at once, and for how long, is each engine's
 * own: DeepSpeed's reuse window and prefetch bucket, FSDP1's flat root
 * unit, FSDP2's per-unit resharding.  hr-calc-states.c calls these for
 * each pipeline stage; DeepSpeed's gradient buffers are in
 * hr-calc-ds-gradients.c.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>

/* One layer's weights as they are gathered: QLoRA's linears stay 4-bit,
 * the rest in the weights' type. */
static double
gathered_layer_bytes (const Ctx         *ctx,
                      const StageParams *sp)
{
  double linear = (double) ctx->counts.layer_linear;

  if (ctx->lora && ctx->sc->training.method == HR_METHOD_QLORA)
    return linear * ctx->quant_bytes + (sp->layer - linear) * ctx->weight_bytes;
  return sp->layer * ctx->weight_bytes;
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
  double window = (double) sc->parallel.stage3_max_reuse_distance
                  / (2.0 + (double) hr_activations_wrapped (sc, sc->model.layers) / layers);
  double prefetch = MIN ((double) sc->parallel.stage3_prefetch_bucket_size,
                         MAX ((double) sc->parallel.stage3_max_live_parameters - window, 0.0));
  /* (Zamba2's shared blocks are called again within the reuse distance
   * all through the forward and backward passes, a few layers apart:
   * never released, they stay gathered beside the window.) */
  double shared = sp->shared_blocks;
  double gathered = MIN (sp->dense + sp->experts - shared, window + prefetch);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
            HR_LIVE_FWD_BWD, N_("gathered weights (reuse + prefetch)"),
            sc->training.checkpointing == HR_CHECKPOINTING_FULL
              ? "min(P, max_reuse_distance/3 + prefetch)·bytes"
              : "min(P, max_reuse_distance/2 + prefetch)·bytes",
            N_("DeepSpeed keeps the weights it will use again soon gathered, and fetches the next ones ahead."),
            gathered * bytes_per_weight);
  if (shared > 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
              HR_LIVE_FWD_BWD, N_("shared blocks, gathered (reused within max_reuse_distance)"),
              "P_shared·bytes",
              N_("Blocks several layers call stay gathered between their calls."),
              shared * bytes_per_weight);
  /* The token embedding's input needs no gradient, and DeepSpeed's
   * post-backward hook is applied to a module's inputs that do
   * (parameter_offload.py, _post_backward_module_hook: the
   * PostBackwardFunctionModule counts only outputs with requires_grad),
   * so it never runs for that module: gathered again for its backward by
   * the pre-backward hook on its output, the table stays whole until
   * step() partitions every parameter (stage3.py, step:
   * _partition_all_parameters; partition_all_parameters: "parameters of
   * modules whose input parameters do not require grad computation do not
   * trigger post call and will therefore will remain unpartitioned").
   * Where the window holds the whole stage, the table is in it already. */
  if (hr_calc_holds_first (sc, dev->stage) && sp->dense + sp->experts - shared > window + prefetch)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
              HR_LIVE (HR_PHASE_BACKWARD_END), N_("token embedding, gathered again for its backward"),
              "P_embedding·bytes (kept until the step)",
              N_("DeepSpeed never releases the embedding table after its backward: "
                 "its input needs no gradient."),
              (double) ctx->counts.embedding * ctx->weight_bytes);
  if (sc->model.hidden <= sc->parallel.stage3_param_persistence_threshold)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
              HR_LIVE_ALWAYS, N_("small weights kept whole"),
              "P_norms+biases·bytes·(1 - 1/N) (persistence threshold)",
              N_("Norms and biases are too small to be worth sharding; every GPU keeps them whole."),
              sp->small * ctx->weight_bytes * (1.0 - 1.0 / ctx->shard));
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
  double embedding = hr_calc_holds_first (sc, dev->stage) ? (double) ctx->counts.embedding : 0.0;
  double output = sp->outside - embedding;
  gboolean tied = sc->model.tied_embeddings && sc->model.head == HR_HEAD_LM && sc->parallel.pp == 1;
  double layer_w = gathered_layer_bytes (ctx, sp);

  /* torchao's fp8 all-gather (Float8LinearConfig.enable_fsdp_float8_all_gather,
   * tensorwise scaling only): torchao/float8/fsdp_utils.py
   * WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather casts each
   * Float8Linear's bf16 shard to fp8 (hp_tensor_to_float8_dynamic) and
   * FSDP2 gathers its 1-byte _data, which fsdp_post_all_gather wraps as the
   * Float8TrainingTensor the matmul reads: the blocks' linear weights are
   * gathered at 1 byte, the norms at the weights' type.  The output layer
   * is left in bf16 (torchtitan's float8 converter filters "output"). */
  gboolean fp8_gather = t->precision == HR_PRECISION_FP8_MIXED && t->fp8_recipe == HR_FP8_RECIPE_TORCHAO
                        && t->fp8_all_gather && !ctx->lora;

  if (fp8_gather)
    layer_w = (double) ctx->counts.layer_linear * 1.0 + (sp->layer - (double) ctx->counts.layer_linear) * wb;

  if (sc->parallel.pp > 1)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_FWD_BWD, N_("gathered stage weights (kept between micro-batches)"),
                "P_stage·bytes (FSDP2 under pipelining)",
                N_("Under pipelining FSDP2 keeps the stage's weights reassembled from the first forward to the last backward."),
                (double) dev->n_layers * layer_w + sp->outside * wb);
      return;
    }

  /* Each block is resharded after its forward, so once the forward pass
   * is done and through the loss's backward no block is gathered; the
   * backward gathers the current block and prefetches the next
   * (FSDPState._pre_backward, backward_prefetch).  Measured on an H200
   * (measure-stacks.py fsdp2-*, every block resharded): with the two
   * blocks counted at the loss's backward too the plans were 0.23 GiB
   * over, two of Llama 3.2 1B's blocks. */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
            HR_LIVE_BACKWARD, N_("gathered layers (current + prefetch)"),
            fp8_gather ? "2·(P_layer linear·1 + P_layer rest·bytes) (fp8 all-gather)" : "2·P_layer·bytes",
            N_("ZeRO-3 briefly reassembles a whole layer's weights to compute with it."),
            2.0 * layer_w);
  if (sc->parallel.fsdp_units == HR_FSDP_UNITS_ROOT)
    {
      /* torchtitan's apply_fsdp until early 2025 left the last block
       * gathered after its forward ("FSDP would prefetch it
       * immediately"): it is the backward's first, from the end of the
       * forward pass on. */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_LOSS, N_("gathered last layer (kept after forward)"),
                fp8_gather ? "P_layer linear·1 + P_layer rest·bytes (fp8 all-gather)" : "P_layer·bytes",
                N_("The last layer stays reassembled from its forward to its backward pass."),
                layer_w);
      /* Only the blocks wrapped (torchtitan until early 2025,
       * torchtitan/parallelisms/parallelize_llama.py apply_fsdp: fully_shard
       * per block, then fully_shard (model); accelerate's fully_shard of
       * its auto-wrapped layers): the embeddings, final norm and head are
       * the root's, which FSDP2 never reshards after forward (FSDPState
       * ._lazy_init: the root's post_forward_mesh_info = None).  The root
       * has no forward input that needs a gradient, so its gradients are
       * reduced in the final callback of the backward pass
       * (_root_post_backward_final_callback): the head's unsharded one,
       * the first made, waits through the whole backward pass. */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_FWD_BWD, N_("gathered embeddings and head (FSDP2 root unit, kept)"),
                "P_outside·bytes",
                N_("The embeddings and the output layer belong to the root unit, which stays reassembled for the whole step."),
                sp->outside * wb);
      if (!ctx->lora && sp->outside > 0)
        {
          hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                    HR_LIVE_BACKWARD, N_("head gradient (waits for the root unit)"),
                    "P_head·bytes",
                    N_("The output layer's gradient, kept until the embedding's gradient is ready."),
                    sp->head_weight * wb);
          hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
                    HR_LIVE (HR_PHASE_BACKWARD_END), N_("root unit's gradients and reduce-scatter input"),
                    "P_embedding·bytes + P_outside·reduce bytes",
                    N_("The embedding's gradient joins the head's, and both are copied out to be split across the GPUs."),
                    embedding * wb + sp->outside * ctx->grad_bytes);
        }
      return;
    }
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
void
hr_calc_add_gathered_weights (Ctx               *ctx,
                      HrDevice          *dev,
                      const StageParams *sp)
{
  const HrTraining *t = &ctx->sc->training;
  gboolean zero3 = ctx->sc->parallel.zero == 3;
  gboolean ds = hr_calc_deepspeed_engine (&ctx->sc->parallel);

  /* ZeRO-3 / FSDP gather each layer's full weights just in time, and the
   * next one ahead (prefetch); FSDP's root unit (embeddings, head) stays
   * gathered from forward to backward. */
  if (zero3 && ds)
    {
      double layer_w = gathered_layer_bytes (ctx, sp);

      add_deepspeed_gathered (ctx, dev, sp, sp->layer > 0 ? layer_w / sp->layer : ctx->weight_bytes);
    }
  else if (zero3 && ctx->sc->parallel.fsdp == 2)
    add_fsdp2_gathered (ctx, dev, sp);
  else if (zero3)
    {
      double layer_w = gathered_layer_bytes (ctx, sp);

      /* FSDP1 (FullyShardedDataParallel): flat parameters, and a root unit
       * holding what no layer's unit does.  Under FULL_SHARD every unit but
       * the root frees its gathered flat parameter after its forward
       * (torch/distributed/fsdp/_runtime_utils.py, _post_forward_reshard:
       * free_unsharded_flat_param = not state._is_root and the strategy
       * reshards after forward), so from the end of the forward pass through
       * the loss's backward no layer is gathered, as FSDP2 (measured there);
       * the backward gathers the current layer and prefetches the next
       * (BackwardPrefetch.BACKWARD_PRE, the default). */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_PARAMETERS, HR_POOL_ALLOCATOR, t->dtypes.weights,
                HR_LIVE_BACKWARD, N_("gathered layers (current + prefetch)"),
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

/* FSDP reduce-scatters each unit's gradients on a stream of its own, and
 * the sharded gradients are made there.  FSDP2: reduce_scatter_input and
 * reduce_scatter_output are allocated under torch.cuda.stream
 * (reduce_scatter_stream) and the sharded gradients are views of the
 * output, "allocated in the RS stream and used in the default stream (for
 * optimizer)" (torch/distributed/_composable/fsdp/_fsdp_collectives.py,
 * foreach_reduce).  FSDP1: _post_backward_hook casts the flat gradient to
 * the reduce type, and _reduce_grad allocates the sharded gradient
 * (_get_reduce_scatter_tensors: torch.empty_like) and casts it to the
 * parameter's type, all under its _post_backward_stream ("for the sharded
 * strategies, the gradient is produced in the post-backward stream",
 * torch/distributed/fsdp/_runtime_utils.py, _cast_grad_to_param_dtype).
 * PyTorch's caching allocator gives a freed block back only to the stream
 * it was allocated on (c10/cuda/CUDACachingAllocator.cpp: get_free_block
 * searches the pool by stream and size), and keeps it until an allocation
 * would otherwise fail (release_cached_blocks).  So from the second step
 * on, that stream holds what it held at once in the first: every sharded
 * gradient, freed by zero_grad but kept for the next backward, and the
 * largest unit's reduce-scatter input (FSDP1 copies it only when it casts
 * the gradient to another reduce type: RS_INPUT_BYTES 0 otherwise).  The
 * default stream cannot use them: they count in max_memory_reserved and
 * in nvidia-smi, not in max_memory_allocated.  GRADS_LIVE are the phases
 * the sharded gradients are live tensors in (counted as gradients there). */
void
hr_calc_add_fsdp_cached (Ctx               *ctx,
                         HrDevice          *dev,
                         const StageParams *sp,
                         double             sharded_grads,
                         guint              grads_live,
                         double             rs_input_bytes)
{
  const HrScenario *sc = ctx->sc;
  double embedding = hr_calc_holds_first (sc, dev->stage) ? (double) ctx->counts.embedding : 0.0;
  double layer = ctx->lora ? hr_calc_layer_lora_max (&ctx->counts) : sp->layer;
  double largest = layer;

  /* The units (add_fsdp2_gathered): each block, the embeddings, the final
   * norm with the head; tied embeddings and head one unit; or the blocks
   * and a root holding all the rest, as FSDP1's root does. */
  if (!ctx->lora && (sc->parallel.fsdp == 1 || sc->parallel.fsdp_units == HR_FSDP_UNITS_ROOT))
    largest = MAX (largest, sp->outside);
  else if (!ctx->lora)
    {
      gboolean tied = sc->model.tied_embeddings && sc->model.head == HR_HEAD_LM && sc->parallel.pp == 1;

      largest = MAX (largest, tied ? sp->outside : MAX (embedding, sp->outside - embedding));
    }
  else if (sc->training.lora.targets & HR_LORA_LM_HEAD)
    largest = MAX (largest, (double) ctx->counts.head_lora);
  /* (the token table's adapter, PEFT's lora.Embedding, a unit of its own) */
  if (ctx->lora && embedding > 0)
    largest = MAX (largest, (double) ctx->counts.embedding_lora);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_CACHED, sc->training.dtypes.grads,
            HR_LIVE_ALWAYS & ~grads_live, N_("sharded gradients' memory, kept by the reduce-scatter stream"),
            "P_trainable·bytes / N (cached for FSDP's reduce-scatter stream)",
            N_("FSDP makes the gradients on a stream of its own; PyTorch keeps their memory for that stream after they are freed, and gives it back only when an allocation would otherwise fail."),
            sharded_grads);
  /* Where a layer is being reduced, its input is a live tensor
   * ("unsharded gradients of one layer", add_gradients). */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_CACHED, sc->training.dtypes.grads,
            HR_LIVE_ALWAYS & ~HR_LIVE_BACKWARD, N_("reduce-scatter input's memory, kept by its stream"),
            "largest unit's P_trainable·bytes (cached)",
            N_("The largest gradient FSDP has reduced stays reserved for its stream."),
            largest * rs_input_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_CACHED, sc->training.dtypes.grads,
            HR_LIVE_BACKWARD, N_("reduce-scatter input's memory beyond the layer's, kept by its stream"),
            "(largest unit - layer)·P_trainable·bytes (cached)",
            N_("The largest gradient FSDP has reduced stays reserved for its stream."),
            (largest - layer) * rs_input_bytes);
}
