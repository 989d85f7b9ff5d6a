/* hr-calc-ds-gradients.c: DeepSpeed's gradient buffers and copies
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under ZeRO-1 to 3 the DeepSpeed engine, not autograd, decides where a
 * gradient lives once the backward pass has made it: a flat partition
 * buffer, reduce buckets, and, with the optimizer on the CPU, the copies
 * its gradient path makes on the way to the host.  Each is read from
 * deepspeed/runtime/zero/stage3.py or stage_1_and_2.py, named where used.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* The largest tensor of a stage, whose gradient autograd makes whole
 * before DeepSpeed copies it into its bucket. */
static double
largest_tensor (const Ctx         *ctx,
                const StageParams *sp,
                guint64            stage)
{
  double largest = (double) ctx->counts.largest_linear;

  if (ctx->lora)
    return hr_calc_layer_lora_max (&ctx->counts);
  largest = MAX (largest, sp->head_weight);
  if (hr_calc_holds_first (ctx->sc, stage))
    largest = MAX (largest, (double) ctx->counts.embedding);
  return largest;
}

/* The elements _constant_buffered_norm2 (stage3.py) turns to float64 at
 * once: it splits a gradient into pieces of this many. */
#define HR_DS_NORM_PIECE 2.5e8

/* ZeRO-3 reduces a bucket with reduce_scatter_coalesced
 * (deepspeed/runtime/comm/coalesced_collectives.py), which interleaves
 * every rank's share of each gradient into one new tensor (torch.cat)
 * unless the bucket holds a single tensor that splits evenly; this rank's
 * shares are views of that copy until partition_grads has moved them out.
 * A bucket is flushed when the next gradient would overflow it, so it
 * holds up to reduce_bucket_size elements, several weights whenever the
 * largest linear is smaller. */
static double
coalesced_copy_elements (const Ctx *ctx,
                         double     trainable)
{
  double bucket = (double) ctx->sc->parallel.reduce_bucket_size;
  double linear = ctx->lora ? hr_calc_layer_lora_max (&ctx->counts)
                            : (double) ctx->counts.largest_linear;

  return linear < bucket ? MIN (bucket, trainable) : 0.0;
}

/* What ZeRO-3 holds on the GPU for one gradient partition of N elements
 * on its way to the host (stage3.py, partition_grads, at the last
 * micro-batch): the partition copied from the host buffer back to the GPU
 * (grad_buffer.to (device), in the gradient buffer's type), beside its
 * norm taken in float64 pieces (_constant_buffered_norm2: 8 bytes an
 * element of a piece) and then its fp32 copy for the host's fp32 gradient
 * (fp32_grad_tensor.copy_ (grad_buffer.float ()): 4 bytes an element). */
static double
zero3_partition_copies (const Ctx *ctx,
                        double     n)
{
  return ctx->grad_bytes * n + MAX (8.0 * MIN (n, HR_DS_NORM_PIECE), 4.0 * n);
}

/* With the optimizer on the CPU the gradients go to the host one weight
 * at a time, through copies on the GPU.  ZeRO-3: a tensor larger than the
 * bucket is reduced alone, without the bucket's coalesced copy, which is
 * planned apart; the larger of that moment and a bucketed linear's is what
 * the backward pass reaches.  ZeRO-1/2 (stage_1_and_2.py): a staging
 * buffer as large as the largest weight stays on the GPU from the start
 * (__init__: temp_grad_buffer_for_gpu_offload); copy_grads_in_partition
 * checks the whole gradient for overflow (update_overflow_tracker_for_
 * param_grad, _has_inf_or_nan: its fp32 copy, isnan, isinf and their
 * logical_or, one byte each, and that as fp32 again: 4 + 3 + 4 bytes an
 * element of a 16-bit gradient), then takes the norm of this rank's share
 * in float64 at once (set_norm_for_param_grad_in_gpu) and copies it to
 * fp32 for the host, one after the other.  ZeRO-1 does so once the
 * backward pass is over (reduce_gradients), ZeRO-2 as buckets fill. */
static void
add_offload_copies (Ctx               *ctx,
                    HrDevice          *dev,
                    const StageParams *sp,
                    double             coalesced,
                    double             partition)
{
  const HrScenario *sc = ctx->sc;
  double largest = largest_tensor (ctx, sp, dev->stage);
  double linear = ctx->lora ? largest : (double) ctx->counts.largest_linear;
  double overflow_check = (ctx->grad_bytes < 4.0 ? 4.0 : 0.0) + 3.0 + 4.0;

  if (sc->parallel.zero == 3)
    {
      gboolean alone = largest >= (double) sc->parallel.reduce_bucket_size;
      double alone_bytes = zero3_partition_copies (ctx, ceil (largest / ctx->shard))
                           - (alone ? coalesced : 0.0);
      double in_bucket_bytes = zero3_partition_copies (ctx, ceil (linear / ctx->shard));

      hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
                HR_LIVE_BACKWARD, N_("gradient's GPU copy and fp64 norm (offload)"),
                "largest partition·(bytes + max(8, 4))",
                N_("DeepSpeed copies each gradient share back from the host "
                   "and takes its norm in float64."),
                MAX (MAX (alone_bytes, in_bucket_bytes), 0.0));
      return;
    }
  hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, sc->training.dtypes.weights,
            HR_LIVE_ALWAYS, N_("offload staging buffer (largest weight)"),
            "largest tensor·bytes",
            N_("DeepSpeed keeps a buffer as large as the largest weight "
               "to move gradients to the host."),
            largest * ctx->weight_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            sc->parallel.zero == 1 ? HR_LIVE (HR_PHASE_BACKWARD_END) : HR_LIVE_BACKWARD,
            N_("gradient's overflow check and fp64 norm (offload)"),
            "max(largest tensor·11, min(largest tensor, P / N)·8) bytes",
            N_("DeepSpeed checks each gradient for overflow and takes its share's norm "
               "in float64 before it goes to the host."),
            MAX (overflow_check * largest, 8.0 * MIN (largest, partition)));
}

/* DeepSpeed's gradients.  ZeRO-3 allocates, once, a flat buffer for this
 * rank's gradient partition (in the gradient accumulation type, the
 * model's by default) and one reduce bucket, in the weights' type
 * (stage3.py, DeepSpeedZeroOptimizer_Stage3.__init__:
 * grad_partitions_flat_buffer, __ipg_bucket_flat_buffer): both live
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
void
hr_calc_add_deepspeed_gradients (Ctx               *ctx,
                         HrDevice          *dev,
                         const StageParams *sp,
                         double             trainable,
                         double             partition)
{
  const HrScenario *sc = ctx->sc;
  const HrParallel *p = &sc->parallel;
  HrDtype dtype = sc->training.dtypes.grads;
  guint saved = ctx->accumulating ? HR_LIVE_SAVED : 0;
  double bucket = (double) p->reduce_bucket_size;
  /* (ZeRO-1/2 double the bucket with overlap_comm: stage_1_and_2.py,
   * "Use double buffers to avoid data access conflict when overlap_comm
   * is enabled"; ZeRO-3 keeps one per data type) */
  double buckets = p->overlap_comm && p->zero <= 2 ? 2.0 : 1.0;
  guint early = trainable > bucket ? HR_LIVE (HR_PHASE_BACKWARD_START) : 0;
  gboolean on_gpu = !(p->offload_optimizer && p->zero >= 2);
  double coalesced = p->zero == 3 ? coalesced_copy_elements (ctx, trainable) * ctx->weight_bytes : 0.0;

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
            buckets > 1 ? N_("gradient reduce buckets (two: overlap_comm)") : N_("gradient reduce bucket"),
            buckets > 1 ? "2·reduce_bucket_size·bytes" : "reduce_bucket_size·bytes",
            N_("DeepSpeed copies gradients into this buffer to reduce them in large pieces."),
            buckets * bucket * ctx->weight_bytes);
  if (coalesced > 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR,
              sc->training.dtypes.weights, HR_LIVE_BACKWARD, N_("reduce-scatter's copy of the bucket"),
              "min(reduce_bucket_size, P_trainable)·bytes",
              N_("DeepSpeed lines each GPU's shares up in a new buffer "
                 "to reduce a bucket of several weights."),
              coalesced);
  if (p->offload_optimizer)
    add_offload_copies (ctx, dev, sp, coalesced, partition);
  if (p->zero >= 2)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, dtype,
              HR_LIVE_BACKWARD, N_("largest weight's gradient"),
              "largest tensor·bytes",
              N_("A weight's whole gradient, until it is copied into the reduce bucket."),
              largest_tensor (ctx, sp, dev->stage) * ctx->grad_bytes);
  /* Zamba2's shared blocks: DeepSpeed hooks each weight's AccumulateGrad
   * node (create_reduce_and_remove_grad_hooks: param.expand_as(param)
   * .grad_fn.next_functions[0][0].register_hook), which the autograd
   * engine runs once, after every use has added its gradient to the
   * node's input: a shared block's whole gradient is summed from its last
   * layer's backward, near the start of the backward pass, to its first
   * layer's, near the end, before it reaches the bucket. */
  if (p->zero >= 2 && sp->shared_blocks > 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, dtype,
              HR_LIVE_BACKWARD, N_("shared blocks' gradients (summed over their uses)"),
              "P_shared·bytes",
              N_("A block several layers use gets its whole gradient from all of them before it is reduced."),
              (ctx->lora ? (double) ctx->counts.shared_blocks_lora : sp->shared_blocks) * ctx->grad_bytes);
}
