/* hr-sweep.h: memory of the fullest GPU against micro-batch or sequence
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-format.h"
#include "hr-plan.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

typedef enum
{
  HR_SWEEP_MICRO_BATCH,
  HR_SWEEP_SEQ_LEN,
  HR_N_SWEEP_AXES
} HrSweepAxis;

typedef struct
{
  guint64  value;
  guint64  category_bytes[HR_N_CATEGORIES];
  guint64  total_bytes;
  HrStatus status;
} HrSweepPoint;

#define HR_SWEEP_MAX_POINTS 64

typedef struct
{
  HrSweepAxis  axis;
  guint        n_points;
  HrSweepPoint points[HR_SWEEP_MAX_POINTS];
  guint64      current;        /* the scenario's own value */
  guint64      last_fitting;   /* the largest value that leaves the headroom, 0 = none */
  guint64      capacity_bytes;
  double       headroom;
} HrSweep;

gboolean  hr_sweep_compute  (const HrScenario   *scenario,
                             HrSweepAxis         axis,
                             HrPlan             *work,
                             HrSweep            *out,
                             GError            **error);
char     *hr_sweep_csv      (const HrSweep      *sweep);
G_END_DECLS
