/* hr-sweep-widget.h: the sweep chart in the window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-sweep.h"

G_BEGIN_DECLS

#define HR_TYPE_SWEEP_WIDGET (hr_sweep_widget_get_type ())

G_DECLARE_FINAL_TYPE (HrSweepWidget, hr_sweep_widget, HR, SWEEP_WIDGET, GtkWidget)

GtkWidget     *hr_sweep_widget_new       (void);
void           hr_sweep_widget_set_sweep (HrSweepWidget    *self,
                                          const HrScenario *scenario,
                                          const HrSweep    *sweep,
                                          HrUnits           units);

G_END_DECLS
