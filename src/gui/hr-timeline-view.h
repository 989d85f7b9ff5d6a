/* hr-timeline-view.h: the "Over time" view, memory through one step
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-timeline-widget.h"
#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_TIMELINE_VIEW (hr_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (HrTimelineView, hr_timeline_view, HR, TIMELINE_VIEW, GtkWidget)

GtkWidget        *hr_timeline_view_new        (void);
HrTimelineWidget *hr_timeline_view_get_widget (HrTimelineView *self);
GtkDropDown      *hr_timeline_view_get_device_choice (HrTimelineView *self);

G_END_DECLS
