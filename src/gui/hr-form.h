/* hr-form.h: the planning form, bound to the scenario model
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-presets.h"
#include "hr-scenario-model.h"

G_BEGIN_DECLS

#define HR_TYPE_FORM (hr_form_get_type ())

G_DECLARE_FINAL_TYPE (HrForm, hr_form, HR, FORM, GtkWidget)

GtkWidget *hr_form_new                 (HrScenarioModel *model,
                                        HrPresets       *presets);
void       hr_form_show_error          (HrForm          *self,
                                        const char      *path,
                                        const char      *message);
void       hr_form_update_sensitivity  (HrForm          *self);
gboolean   hr_form_focus_error         (HrForm          *self);
gboolean   hr_form_has_error           (HrForm          *self);
GtkWidget *hr_form_get_control         (HrForm          *self,
                                        const char      *path);
GtkWidget *hr_form_get_row             (HrForm          *self,
                                        const char      *path);
GPtrArray *hr_form_list_controls       (HrForm          *self);

G_END_DECLS
