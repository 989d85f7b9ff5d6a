/* hr-present-chart.h: the plan as a meeting reads it
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-format.h"
#include "hr-plan.h"

G_BEGIN_DECLS

#define HR_TYPE_PRESENT_CHART (hr_present_chart_get_type ())

G_DECLARE_FINAL_TYPE (HrPresentChart, hr_present_chart, HR, PRESENT_CHART, GtkWidget)

GtkWidget  *hr_present_chart_new          (void);
void        hr_present_chart_set_plan     (HrPresentChart *self,
                                           const HrPlan   *plan,
                                           HrUnits         units);
guint       hr_present_chart_get_n_bars   (HrPresentChart *self);
const char *hr_present_category_label     (HrCategory      category);

G_END_DECLS
