/* hr-verdict.h: the verdict above the views, in words
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-format.h"
#include "hr-plan.h"

G_BEGIN_DECLS

#define HR_TYPE_VERDICT (hr_verdict_get_type ())

G_DECLARE_FINAL_TYPE (HrVerdict, hr_verdict, HR, VERDICT, GtkWidget)

GtkWidget  *hr_verdict_new          (void);
void        hr_verdict_show_plan    (HrVerdict        *self,
                                     const HrScenario *scenario,
                                     const HrPlan     *plan,
                                     HrUnits           units);
void        hr_verdict_show_error   (HrVerdict        *self,
                                     const char       *details);
const char *hr_verdict_get_summary  (HrVerdict        *self);
/* The line below it, and its tooltip (the runs behind the error bar). */
const char *hr_verdict_get_details  (HrVerdict        *self);
const char *hr_verdict_get_details_tooltip (HrVerdict  *self);

G_END_DECLS
