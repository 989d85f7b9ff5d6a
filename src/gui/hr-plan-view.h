/* hr-plan-view.h: the "Per GPU" view, the chart of the plan
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-chart-widget.h"
#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_PLAN_VIEW (hr_plan_view_get_type ())

G_DECLARE_FINAL_TYPE (HrPlanView, hr_plan_view, HR, PLAN_VIEW, GtkWidget)

GtkWidget     *hr_plan_view_new        (void);
void           hr_plan_view_set_stale  (HrPlanView *self,
                                        gboolean    stale);
HrChartWidget *hr_plan_view_get_chart  (HrPlanView *self);

G_END_DECLS
