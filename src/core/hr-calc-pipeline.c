/* hr-calc-pipeline.c: what a pipeline's runtime keeps beside the layers
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PyTorch's pipelining (torch/distributed/pipelining/stage.py), which
 * torchtitan runs, keeps tensors of its own on every stage
 * (parallel.pp_buffers "torch"):
 *
 * - a receive buffer for the input of every micro-batch of the step, made
 *   once and kept (PipelineStage._prepare_forward_infra: for chunk_id in
 *   range(num_microbatches), _make_tensor_from_meta); the buffer of a
 *   micro-batch in flight is the first layer's input, which the layers'
 *   saved tensors count already, so only the others count here;
 * - a buffer for the gradient of the output of every micro-batch, made
 *   once and kept likewise (_prepare_backward_infra, _create_grad_recv_info);
 * - the output of every micro-batch in flight, held in fwd_cache for the
 *   backward to start from (forward_one_chunk, popped by
 *   backward_one_chunk): no layer of the stage saves it; on the last
 *   stage, the logits, until the micro-batch's backward returns.
 *
 * Each is one stage-boundary tensor, the residual stream as the layers
 * pass it on (b·s·h, divided by t under sequence parallelism, by c).
 *
 * Before torchtitan passed return_outputs=False to the schedule's step()
 * (pytorch/torchtitan e5ef99a, 2025-10-22, with PyTorch's #165822), the
 * last stage kept every micro-batch's output, the logits, in
 * output_chunks until step() merged and returned them and the next step()
 * cleared them ("torch-outputs"; pytorch/pytorch#159251).  Not planned:
 * the merge (torch.cat), which briefly doubles them after the backward
 * pass, and, before pytorch/pytorch#164329 (October 2025), each receive
 * buffer's .grad, which stage_backward left until the next step
 * (a boundary tensor per micro-batch from the backward on).
 */

#include "hr-calc-private.h"
#include "hr-losses.h"

#include <glib/gi18n-lib.h>

/* The last stage's logits.  forward_one_chunk keeps each micro-batch's
 * output in fwd_cache, and backward_one_chunk holds it until it returns:
 * this micro-batch's logits live through its backward, whatever step()
 * returns, except where a loss item keeps them already (a compiled loss
 * through its own backward, a loop that keeps its graph all step) or
 * never makes them (a fused loss).  With TORCH_OUTPUTS every micro-batch's
 * also sits in output_chunks until the next step() clears it
 * (clear_runtime_states): all of them through the optimizer step. */
static void
add_last_stage_logits (Ctx      *ctx,
                       HrDevice *dev,
                       double    micro_batches,
                       gboolean  torch_outputs)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  double heads = 1.0 + (double) sc->model.mtp_modules;
  gboolean fp32_out = t->logits_fp32_in_model && t->logits_fp32;
  HrDtype dtype = fp32_out ? HR_DTYPE_FP32 : t->dtypes.activations;
  double logits = heads * ctx->tokens * (double) sc->model.vocab / (double) MAX (sc->parallel.tp, 1)
                  * (fp32_out ? 4.0 : ctx->act_bytes);
  guint live = t->previous_graph_alive ? 0
               : t->compile && t->compile_loss ? HR_LIVE_BACKWARD
               : HR_LIVE (HR_PHASE_LOSS_BACKWARD) | HR_LIVE_BACKWARD;

  if (sc->model.head != HR_HEAD_LM || !hr_losses[t->loss].logits)
    return;
  if (torch_outputs && micro_batches > 1.0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, dtype, HR_LIVE_ALWAYS,
              N_("earlier micro-batches' logits (kept for step() to return)"),
              "(m - 1)·b·s·V·bytes / (t·c)",
              N_("The pipeline's last stage keeps every micro-batch's logits until the next step begins."),
              (micro_batches - 1.0) * logits);
  if (torch_outputs && !t->previous_graph_alive)
    live |= HR_LIVE (HR_PHASE_STEP);
  if (live != 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, dtype, live,
              N_("this micro-batch's logits (kept by the pipeline)"),
              "b·s·V·bytes / (t·c)",
              N_("The pipeline's last stage keeps a micro-batch's logits until its backward pass returns."),
              logits);
}

/* IN_FLIGHT: the micro-batches whose saved tensors a layer of the device
 * holds at once (hr_pipeline_schedule_units per layer; with interleaving
 * the average over the device's stages, which the receiving and sending
 * ones may hold more or less of). */
void
hr_calc_add_pipeline_buffers (Ctx      *ctx,
                              HrDevice *dev,
                              double    in_flight)
{
  const HrScenario *sc = ctx->sc;
  const HrParallel *p = &sc->parallel;
  const HrTraining *t = &sc->training;
  /* the residual stream between stages: fp32 under autocast */
  gboolean autocast = t->dtypes.weights == HR_DTYPE_FP32 && ctx->act_bytes < 4.0;
  double rep = p->sp ? (double) MAX (p->tp, 1) : 1.0;
  double boundary = ctx->tokens * (double) sc->model.hidden * (autocast ? 4.0 : ctx->act_bytes) / rep;
  HrDtype dtype = autocast ? HR_DTYPE_FP32 : t->dtypes.activations;
  double m = (double) MAX (t->grad_accum, 1);
  double v = (double) MAX (p->vpp, 1);
  /* The device's stages (v with interleaving) that receive an input, and
   * those that send an output on; the micro-batches in flight on each.
   * (DualPipe is refused with these buffers: hr-validate.c.) */
  double receiving = v - (hr_calc_holds_first (sc, dev->stage) ? 1.0 : 0.0);
  double sending = v - (hr_calc_holds_last (sc, dev->stage) ? 1.0 : 0.0);
  double per_stage = MIN (in_flight, m);

  if (p->pp <= 1 || p->pp_buffers == HR_PP_BUFFERS_NONE)
    return;
  if (receiving > 0 && m > per_stage)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, dtype,
              HR_LIVE_ALWAYS, N_("pipeline receive buffers (micro-batches not in flight)"),
              "stages·(m - in-flight)·b·s·h·bytes / c",
              N_("PyTorch's pipelining keeps a buffer for every micro-batch's input; those in flight hold the first layer's input, counted there."),
              receiving * (m - per_stage) * boundary);
  if (sending > 0)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, dtype,
                HR_LIVE_ALWAYS, N_("pipeline gradient buffers (one per micro-batch)"),
                "stages·m·b·s·h·bytes / c",
                N_("PyTorch's pipelining keeps a buffer for the gradient of every micro-batch's output."),
                sending * m * boundary);
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, dtype,
                HR_LIVE_SAVED, N_("stage outputs (micro-batches in flight)"),
                "stages·in-flight·b·s·h·bytes / c",
                N_("Each micro-batch's output stays until its backward pass starts from it."),
                sending * per_stage * boundary);
    }
  if (hr_calc_holds_last (sc, dev->stage))
    add_last_stage_logits (ctx, dev, m, p->pp_buffers == HR_PP_BUFFERS_TORCH_OUTPUTS);
}
