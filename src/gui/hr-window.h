/* hr-window.h: the Headroom window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-chart-widget.h"
#include "hr-form.h"
#include "hr-plan.h"
#include "hr-scenario-model.h"

G_BEGIN_DECLS

#define HR_TYPE_WINDOW (hr_window_get_type ())

G_DECLARE_FINAL_TYPE (HrWindow, hr_window, HR, WINDOW, AdwApplicationWindow)

HrWindow        *hr_window_new              (AdwApplication   *application);
gboolean         hr_window_open_file        (HrWindow         *self,
                                             GFile            *file,
                                             GError          **error);
void             hr_window_open_file_or_warn (HrWindow        *self,
                                              GFile           *file);
gboolean         hr_window_save_to          (HrWindow         *self,
                                             GFile            *file,
                                             GError          **error);
gboolean         hr_window_export_png       (HrWindow         *self,
                                             GFile            *file,
                                             GError          **error);
gboolean         hr_window_export_report    (HrWindow         *self,
                                             GFile            *file,
                                             GError          **error);
gboolean         hr_window_export_csv       (HrWindow         *self,
                                             GFile            *file,
                                             GError          **error);
void             hr_window_set_scenario     (HrWindow         *self,
                                             const HrScenario *scenario);
gboolean         hr_window_warn_broken_presets (HrWindow    *self);
gboolean         hr_window_load_example     (HrWindow         *self,
                                             const char       *id,
                                             GError          **error);
gboolean         hr_window_import_file      (HrWindow         *self,
                                             GFile            *file,
                                             GError          **error);

HrScenarioModel *hr_window_get_model        (HrWindow         *self);
HrForm          *hr_window_get_form         (HrWindow         *self);
gboolean         hr_window_get_folded       (HrWindow         *self);
void             hr_window_show_form        (HrWindow         *self,
                                             gboolean          show);
HrChartWidget   *hr_window_get_chart        (HrWindow         *self);
AdwViewStack    *hr_window_get_views        (HrWindow         *self);
const HrPlan    *hr_window_get_plan         (HrWindow         *self);
gboolean         hr_window_get_plan_valid   (HrWindow         *self);
gboolean         hr_window_get_dirty        (HrWindow         *self);
const char      *hr_window_get_summary      (HrWindow         *self);
guint            hr_window_get_recompute_count (HrWindow      *self);
const char      *hr_window_get_message      (HrWindow         *self);
const char      *hr_window_get_last_toast   (HrWindow         *self);
gboolean         hr_window_has_undo_toast   (HrWindow         *self);
GtkWidget       *hr_window_get_jump_button  (HrWindow         *self);

G_END_DECLS
