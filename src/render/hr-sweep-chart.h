/* hr-sweep-chart.h: the sweep drawn on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "hr-chart.h"
#include "hr-chart-ticks.h"
#include "hr-sweep.h"

G_BEGIN_DECLS

/* The axes of a sweep chart: the swept values from xmin to xmax, the
 * sizes from 0 to ymax bytes; the ticks' values, y in GiB (or GB). */
typedef struct
{
  double xmin, xmax, ymax;
  guint  n_x, n_y;
  double x[HR_CHART_MAX_TICKS];
  double y[HR_CHART_MAX_TICKS];
  double y_step;
} HrSweepTicks;

void      hr_sweep_ticks    (const HrSweep      *sweep,
                             const HrChartStyle *style,
                             double              width,
                             double              height,
                             HrSweepTicks       *out);

void      hr_sweep_draw     (cairo_t            *cr,
                             double              width,
                             double              height,
                             const HrScenario   *scenario,
                             const HrSweep      *sweep,
                             const HrChartStyle *style);

G_END_DECLS
