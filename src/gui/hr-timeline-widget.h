/* hr-timeline-widget.h: one training step's memory over time, in the window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-timeline-chart.h"

G_BEGIN_DECLS

#define HR_TYPE_TIMELINE_WIDGET (hr_timeline_widget_get_type ())

G_DECLARE_FINAL_TYPE (HrTimelineWidget, hr_timeline_widget, HR, TIMELINE_WIDGET, GtkWidget)

GtkWidget    *hr_timeline_widget_new          (void);
void          hr_timeline_widget_set_plan     (HrTimelineWidget *self,
                                               const HrScenario *scenario,
                                               const HrPlan     *plan,
                                               guint             device,
                                               HrUnits           units);
const HrPlan *hr_timeline_widget_get_plan     (HrTimelineWidget *self);
const HrScenario *hr_timeline_widget_get_scenario (HrTimelineWidget *self);
guint         hr_timeline_widget_get_device   (HrTimelineWidget *self);
const HrTimelineGeometry *hr_timeline_widget_get_geometry (HrTimelineWidget *self);

G_END_DECLS
