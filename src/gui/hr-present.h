/* hr-present.h: the full-screen presentation of plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-format.h"
#include "hr-present-chart.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_PRESENT (hr_present_get_type ())

G_DECLARE_FINAL_TYPE (HrPresent, hr_present, HR, PRESENT, AdwWindow)

/* Shows scenarios[0..n) one at a time, full screen, in big type: the
 * verdict, the scenario in a sentence and a bar per GPU.  Left and right
 * step, Escape leaves. */
GtkWidget  *hr_present_new          (GtkWindow        *parent,
                                     const HrScenario *scenarios,
                                     guint             n_scenarios,
                                     guint             first,
                                     HrUnits           units);
void        hr_present_step         (HrPresent        *self,
                                     int               delta);
const char *hr_present_get_verdict  (HrPresent        *self);
const char *hr_present_get_sentence (HrPresent        *self);
HrPresentChart *hr_present_get_chart (HrPresent       *self);

G_END_DECLS
