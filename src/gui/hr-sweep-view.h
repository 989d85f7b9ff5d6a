/* hr-sweep-view.h: the "Sweep" view, memory against one setting
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_SWEEP_VIEW (hr_sweep_view_get_type ())

G_DECLARE_FINAL_TYPE (HrSweepView, hr_sweep_view, HR, SWEEP_VIEW, GtkWidget)

GtkWidget *hr_sweep_view_new (void);

G_END_DECLS
