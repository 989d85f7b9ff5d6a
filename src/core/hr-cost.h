/* hr-cost.h: how long a run takes and what it costs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-plan.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean known;          /* tokens, MFU and the GPU's peak are all set */
  double   flops;          /* of the whole run */
  double   flops_per_token_param;  /* 6, or 8 with full recomputation */
  double   seconds;        /* wall time */
  double   gpu_hours;
  double   cost;           /* gpu_hours x price per GPU-hour */
  double   peak_tflops;    /* the dense peak the MFU is a share of */
  gboolean fp8_peak;       /* ... the fp8 one: fp8 training on a GPU that has it */
} HrCostEstimate;

void  hr_cost_estimate (const HrScenario *scenario,
                        const HrPlan     *plan,
                        HrCostEstimate   *out);

G_END_DECLS
