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
 *   backward_one_chunk): no layer of the stage saves it.
 *
 * Each is one stage-boundary tensor, the residual stream as the layers
 * pass it on (b·s·h, divided by t under sequence parallelism, by c).
 *
 * Before torchtitan passed return_outputs=False to the schedule's step()
 * (pytorch/torchtitan e5ef99a, 2025-10-22, with PyTorch's #165822), the
 * last stage kept every micro-batch's output, the logits, in
 * output_chunks until step() merged and returned them ("torch-outputs";
 * pytorch/pytorch#159251).  The merge (torch.cat) briefly doubles them
 * after the backward pass, beside the gradients: that moment is not
 * planned.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>

/* The last stage's logits of the micro-batches before this one, and this
 * one's past its forward: step() returns them all. */
static void
add_returned_outputs (Ctx      *ctx,
                      HrDevice *dev,
                      double    micro_batches)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  double heads = 1.0 + (double) sc->model.mtp_modules;
  gboolean fp32_out = t->logits_fp32_in_model && t->logits_fp32;
  double logits = heads * ctx->tokens * (double) sc->model.vocab / (double) MAX (sc->parallel.tp, 1)
                  * (fp32_out ? 4.0 : ctx->act_bytes);

  if (sc->model.head != HR_HEAD_LM)
    return;
  if (micro_batches > 1.0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
              fp32_out ? HR_DTYPE_FP32 : t->dtypes.activations, HR_LIVE_FWD_BWD,
              N_("earlier micro-batches' logits (kept for step() to return)"),
              "(m - 1)·b·s·V·bytes / (t·c)",
              N_("The pipeline's last stage keeps every micro-batch's logits until the step ends."),
              (micro_batches - 1.0) * logits);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
            fp32_out ? HR_DTYPE_FP32 : t->dtypes.activations,
            HR_LIVE (HR_PHASE_LOSS_BACKWARD) | HR_LIVE_BACKWARD,
            N_("this micro-batch's logits (kept for step() to return)"),
            "b·s·V·bytes / (t·c)",
            N_("The pipeline's last stage keeps every micro-batch's logits until the step ends."),
            logits);
}

/* IN_FLIGHT: the micro-batches whose saved tensors a layer of the device
 * holds at once (hr_pipeline_schedule_units per layer). */
void
hr_calc_add_pipeline_buffers (Ctx      *ctx,
                              HrDevice *dev,
                              double    in_flight)
{
  const HrScenario *sc = ctx->sc;
  const HrParallel *p = &sc->parallel;
  double boundary = ctx->layer_act.checkpoint;
  double m = (double) MAX (sc->training.grad_accum, 1);
  double v = (double) MAX (p->vpp, 1);
  /* The device's stages (v with interleaving) that receive an input, and
   * those that send an output on; the micro-batches in flight on each. */
  double receiving = v - (hr_calc_holds_first (sc, dev->stage) ? 1.0 : 0.0);
  double sending = v - (hr_calc_holds_last (sc, dev->stage) ? 1.0 : 0.0);
  double per_stage = MIN (in_flight, m);

  if (p->pp <= 1 || p->pp_buffers == HR_PP_BUFFERS_NONE)
    return;
  if (receiving > 0 && m > per_stage)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, sc->training.dtypes.activations,
              HR_LIVE_ALWAYS, N_("pipeline receive buffers (micro-batches not in flight)"),
              "stages·(m - in-flight)·b·s·h·bytes / c",
              N_("PyTorch's pipelining keeps a buffer for every micro-batch's input; those in flight hold the first layer's input, counted there."),
              receiving * (m - per_stage) * boundary);
  if (sending > 0)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, sc->training.dtypes.activations,
                HR_LIVE_ALWAYS, N_("pipeline gradient buffers (one per micro-batch)"),
                "stages·m·b·s·h·bytes / c",
                N_("PyTorch's pipelining keeps a buffer for the gradient of every micro-batch's output."),
                sending * m * boundary);
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, sc->training.dtypes.activations,
                HR_LIVE_SAVED, N_("stage outputs (micro-batches in flight)"),
                "stages·in-flight·b·s·h·bytes / c",
                N_("Each micro-batch's output stays until its backward pass starts from it."),
                sending * per_stage * boundary);
    }
  if (p->pp_buffers == HR_PP_BUFFERS_TORCH_OUTPUTS && hr_calc_holds_last (sc, dev->stage))
    add_returned_outputs (ctx, dev, m);
}
