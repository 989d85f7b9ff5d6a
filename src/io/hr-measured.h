/* hr-measured.h: measured training runs, as scenarios to check the plan against
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-plan.h"
#include "hr-presets.h"

G_BEGIN_DECLS

typedef enum
{
  HR_METRIC_ALLOCATED,   /* torch.cuda.max_memory_allocated() */
  HR_METRIC_RESERVED,    /* torch.cuda.max_memory_reserved() */
  HR_METRIC_TOTAL,       /* nvidia-smi */
} HrMetric;

typedef struct
{
  char       id[HR_NAME_MAX];
  char       origin[HR_ID_MAX];  /* the entry's "origin", "" when it has none */
  HrScenario scenario;
  HrMetric   metric;
  double     measured_bytes;
  double     predicted_bytes;
  double     error;            /* (predicted - measured) / measured */
} HrMeasuredRun;

/* Reads a file in the format of measured-calibration.json (a list of
 * entries with arch, task, precision, optimizer, micro_batch, seq_len,
 * grad_checkpointing, parallelism, lora, gpu, measured_gib and metric),
 * maps each entry to a scenario and plans it.  The entry's "framework"
 * (litgpt, hf-trainer; else the one its source names) adds that
 * framework's values (hr-frameworks.h); a "scenario" object, read last,
 * says what the other fields cannot (gradient accumulation, a measured
 * CUDA context).  Entries that cannot be expressed are skipped with a line
 * in skipped. */
GPtrArray *hr_measured_load     (const char  *path,
                                 HrPresets   *presets,
                                 GPtrArray   *skipped,
                                 GError     **error);

GPtrArray *hr_measured_load_node (JsonNode    *root,
                                  const char  *origin,
                                  HrPresets   *presets,
                                  GPtrArray   *skipped,
                                  GError     **error);

double     hr_measured_predicted (const HrPlan *plan,
                                  HrMetric      metric);

/* The median absolute error of the runs of one method (-1: of all runs);
 * *out_n receives how many runs, *out_worst the largest error. */
double     hr_measured_error_stats (GPtrArray  *runs,
                                    int         method,
                                    guint      *out_n,
                                    double     *out_worst);

/* The honest error bar of a plan: the median absolute error of the
 * measured runs of the same method (full, LoRA, QLoRA), or of all runs
 * when fewer than three share it.  *out_n receives how many runs. */
double     hr_measured_uncertainty (GPtrArray  *runs,
                                    HrMethod    method,
                                    guint      *out_n);

/* The bundled measured runs: $HEADROOM_CALIBRATION, the installed copy,
 * or the source tree's; NULL when none is found. */
GPtrArray *hr_measured_load_bundled (HrPresets *presets);

G_END_DECLS
