/* hr-cost.c: how long a run takes and what it costs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Training takes about 6·N FLOPs per token (2·N forward, 4·N backward;
 * Kaplan et al. 2020, "Scaling Laws", §2.1), 8·N when full recomputation
 * runs the forward pass again (of the wrapped layers: checkpoint_every);
 * N counts the active parameters of an MoE.  In a state-space layer, as
 * in attention, only the matrix products are counted: Mamba's selective
 * scan and convolution are O(d_inner·d_state) and O(d_inner·d_conv)
 * elementwise work per token (Gu & Dao 2023, §3.3), against the
 * 6·3·h·d_inner of its projections, and bound by memory, not by the
 * tensor cores the MFU is a share of.
 * The wall time divides the FLOPs by the GPUs' dense peak times the model
 * FLOPs utilisation the user expects: the bf16 peak, or with fp8-mixed
 * training the fp8 one, where the matrix products run (Transformer Engine
 * and torchao run every linear layer's three products in fp8; attention's
 * stay bf16, which the MFU the user gives has to cover), when the GPU has
 * one.  The sentence and the JSON say which peak it was.
 */

#include "hr-cost.h"

#include "hr-activations.h"

void
hr_cost_estimate (const HrScenario *sc,
                  const HrPlan     *plan,
                  HrCostEstimate   *out)
{
  double rate;

  *out = (HrCostEstimate) { 0 };
  /* 6·N, and 2·N more for each wrapped layer's second forward pass; per
   * op, for the matmuls it runs again. */
  if (sc->training.checkpointing == HR_CHECKPOINTING_OP)
    {
      HrLayerActivations la;

      hr_activations_layer (sc, &la);
      out->flops_per_token_param = 6.0 + 2.0 * la.op_recomputed_flops;
    }
  else
    out->flops_per_token_param = 6.0 + 2.0 * (double) hr_activations_checkpointed (sc, sc->model.layers)
                                       / (double) MAX (sc->model.layers, 1);
  out->flops = out->flops_per_token_param * (double) plan->active_params * sc->cost.tokens;
  out->fp8_peak = sc->training.precision == HR_PRECISION_FP8_MIXED && sc->gpu.fp8_tflops > 0;
  out->peak_tflops = out->fp8_peak ? sc->gpu.fp8_tflops : sc->gpu.bf16_tflops;
  rate = (double) sc->parallel.gpus * out->peak_tflops * 1e12 * sc->cost.mfu;
  out->known = sc->cost.tokens > 0 && rate > 0;
  if (!out->known)
    return;
  out->seconds = out->flops / rate;
  out->gpu_hours = out->seconds / 3600.0 * (double) sc->parallel.gpus;
  out->cost = out->gpu_hours * sc->cost.price_per_gpu_hour;
}
