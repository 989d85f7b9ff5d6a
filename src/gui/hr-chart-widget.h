/* hr-chart-widget.h: the chart in the window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-chart.h"

G_BEGIN_DECLS

#define HR_TYPE_CHART_WIDGET (hr_chart_widget_get_type ())

G_DECLARE_FINAL_TYPE (HrChartWidget, hr_chart_widget, HR, CHART_WIDGET, GtkWidget)

GtkWidget *hr_chart_widget_new        (void);
void       hr_chart_widget_set_plan   (HrChartWidget    *self,
                                       const HrScenario *scenario,
                                       const HrPlan     *plan);
void       hr_chart_widget_set_units  (HrChartWidget    *self,
                                       HrUnits           units);
void       hr_chart_widget_get_style  (HrChartWidget    *self,
                                       HrChartStyle     *style);
const HrScenario *hr_chart_widget_get_scenario (HrChartWidget *self);
const HrPlan     *hr_chart_widget_get_plan     (HrChartWidget *self);
guint      hr_chart_widget_get_draw_count (HrChartWidget *self);
void       hr_chart_widget_set_scale_bytes (HrChartWidget *self,
                                            double         scale_bytes);
void       hr_chart_widget_set_font_scale  (HrChartWidget *self,
                                            double         font_scale);
void       hr_chart_widget_set_show_breakdown (HrChartWidget *self,
                                               gboolean       show);

G_END_DECLS
