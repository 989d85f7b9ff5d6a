/* hr-activations-pipeline.c: how many layers' activations a pipeline
 * stage holds under each schedule
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-activations.h"

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
