/* hr-choice-row.h: a form row with a choice among labels
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-scenario-model.h"

G_BEGIN_DECLS

#define HR_TYPE_CHOICE_ROW (hr_choice_row_get_type ())

G_DECLARE_FINAL_TYPE (HrChoiceRow, hr_choice_row, HR, CHOICE_ROW, AdwComboRow)

GtkWidget          *hr_choice_row_new           (HrScenarioModel    *model,
                                                 const char         *path,
                                                 const char         *title,
                                                 const char         *subtitle,
                                                 const char * const *labels);
/* Labels for the strings of a drop-down that never end in "…": the row's
 * own, and the form's drop-downs of presets (hr_form_wrap_drop_down). */
GtkListItemFactory *hr_choice_row_label_factory (gboolean            on_button);

G_END_DECLS
