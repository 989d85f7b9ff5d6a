/* hr-compare-chart.h: a pinned scenario and the current one, on one page
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "hr-chart.h"

G_BEGIN_DECLS

void  hr_compare_draw  (cairo_t            *cr,
                        double              width,
                        double              height,
                        const HrScenario   *pinned,
                        const HrPlan       *pinned_plan,
                        const HrScenario   *now,
                        const HrPlan       *now_plan,
                        const HrChartStyle *style,
                        HrChartHits        *hits);

G_END_DECLS
