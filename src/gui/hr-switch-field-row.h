/* hr-switch-field-row.h: a form row with a yes or no in a switch
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-scenario-model.h"

G_BEGIN_DECLS

#define HR_TYPE_SWITCH_FIELD_ROW (hr_switch_field_row_get_type ())

G_DECLARE_FINAL_TYPE (HrSwitchFieldRow, hr_switch_field_row, HR, SWITCH_FIELD_ROW, AdwActionRow)

GtkWidget *hr_switch_field_row_new        (HrScenarioModel  *model,
                                           const char       *path,
                                           const char       *title,
                                           const char       *subtitle);
GtkSwitch *hr_switch_field_row_get_switch (HrSwitchFieldRow *self);

G_END_DECLS
