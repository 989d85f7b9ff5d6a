/* hr-report-page.h: the one-page report for a slide
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-report.h"
#include "hr-chart.h"

G_BEGIN_DECLS

/* One page for a slide: the verdict, the chart, the key settings and the
 * assumptions behind the numbers; written at the size of every PNG
 * (hr_export_settings) by hr_report_write_png. */
void      hr_report_draw_page (cairo_t            *cr,
                               double              width,
                               double              height,
                               const HrScenario   *scenario,
                               const HrPlan       *plan,
                               const HrChartStyle *style);
gboolean  hr_report_write_png (const char         *path,
                               const HrScenario   *scenario,
                               const HrPlan       *plan,
                               HrUnits             units,
                               GError            **error);

G_END_DECLS
