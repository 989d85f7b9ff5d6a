/* hr-sweep-chart.h: the sweep drawn on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "hr-chart.h"
#include "hr-sweep.h"

G_BEGIN_DECLS

void      hr_sweep_draw     (cairo_t            *cr,
                             double              width,
                             double              height,
                             const HrScenario   *scenario,
                             const HrSweep      *sweep,
                             const HrChartStyle *style);

G_END_DECLS
