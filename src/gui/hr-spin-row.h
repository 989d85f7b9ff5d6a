/* hr-spin-row.h: a form row with a number in a spin button
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-scenario-fields.h"
#include "hr-scenario-model.h"

G_BEGIN_DECLS

#define HR_TYPE_SPIN_ROW (hr_spin_row_get_type ())

G_DECLARE_FINAL_TYPE (HrSpinRow, hr_spin_row, HR, SPIN_ROW, AdwActionRow)

GtkWidget     *hr_spin_row_new             (HrScenarioModel *model,
                                            const char      *path,
                                            const char      *title,
                                            const char      *subtitle,
                                            double           min,
                                            double           max,
                                            double           step,
                                            guint            digits,
                                            HrFieldUnit      unit);
GtkSpinButton *hr_spin_row_get_spin_button (HrSpinRow       *self);
void           hr_spin_row_set_automatic   (HrSpinRow       *self);

G_END_DECLS
