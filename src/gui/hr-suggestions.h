/* hr-suggestions.h: what would make the plan fit, each with an Apply button
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-format.h"
#include "hr-suggest.h"

G_BEGIN_DECLS

#define HR_TYPE_SUGGESTIONS (hr_suggestions_get_type ())

G_DECLARE_FINAL_TYPE (HrSuggestions, hr_suggestions, HR, SUGGESTIONS, GtkWidget)

GtkWidget          *hr_suggestions_new       (void);
void                hr_suggestions_update    (HrSuggestions    *self,
                                              const HrScenario *scenario,
                                              const HrPlan     *plan,
                                              HrUnits           units);
void                hr_suggestions_clear     (HrSuggestions    *self);
void                hr_suggestions_focus_first (HrSuggestions  *self);
guint               hr_suggestions_get_count (HrSuggestions    *self);
const HrSuggestion *hr_suggestions_get       (HrSuggestions    *self,
                                              guint             index);

G_END_DECLS
