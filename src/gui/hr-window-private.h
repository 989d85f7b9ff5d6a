/* hr-window-private.h: what the window's files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-presets.h"
#include "hr-suggest.h"
#include "hr-sweep-widget.h"
#include "hr-window.h"

G_BEGIN_DECLS

struct _HrWindow
{
  AdwApplicationWindow parent_instance;

  /* template children */
  AdwToastOverlay     *toast_overlay;
  AdwWindowTitle      *window_title;
  GtkPaned            *paned;
  GtkScrolledWindow   *form_scroller;
  GtkBox              *result_box;
  GtkLabel            *summary_label;
  GtkLabel            *details_label;
  GtkLabel            *error_label;
  GMenu               *examples_menu;

  /* views: the plan, a sweep, a comparison (hr-window-views.c) */
  AdwViewStack        *views;
  HrSweepWidget       *sweep_widget;
  GtkDropDown         *sweep_axis;
  HrSweep             *sweep;
  gboolean             sweep_valid;
  HrChartWidget       *pinned_chart;
  HrChartWidget       *current_chart;
  GtkGrid             *diff_grid;
  GtkLabel            *compare_label;
  gboolean             has_pin;
  HrScenario           pinned;
  HrPlan              *pinned_plan;

  GtkWidget           *suggestions_box;
  GtkListBox          *suggestions_list;
  HrSuggestion         suggestions[HR_MAX_SUGGESTIONS];
  guint                n_suggestions;

  GPtrArray           *measured;   /* the runs the error bar comes from */

  HrScenarioModel     *model;
  HrForm              *form;
  HrChartWidget       *chart;
  HrPresets           *presets;
  HrPlan              *plan;
  GSettings           *settings;

  GFile               *file;          /* where the scenario was opened or saved */
  gboolean             dirty;
  gboolean             plan_valid;
  guint                loading;       /* > 0 while the whole scenario is replaced */
  guint                recompute_id;
  guint                recompute_count;
  gboolean             close_confirmed;
};

void     hr_window_update_title     (HrWindow   *self);
void     hr_window_toast            (HrWindow   *self,
                                     const char *message);
void     hr_window_show_error       (HrWindow   *self,
                                     const char *heading,
                                     const char *message);
HrUnits  hr_window_units            (HrWindow   *self);
void     hr_window_install_actions  (HrWindow   *self);
void     hr_window_build_views      (HrWindow   *self);
void     hr_window_update_views     (HrWindow   *self);
void     hr_window_pin              (HrWindow   *self);
const char *hr_window_visible_view  (HrWindow   *self);
gboolean hr_window_export_view_png  (HrWindow   *self,
                                     const char *path,
                                     GError    **error);
char    *hr_window_view_csv         (HrWindow   *self);

G_END_DECLS
