/* hr-window-private.h: what the window's three files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr-window.c holds the model, its plan and the recompute, and tells the
 * document (hr-document.c: the file, the undo history, unsaved changes,
 * the name's state) what happens to the model; hr-window-actions.c holds
 * the actions on it, hr-window-files.c open, save and export.  The views
 * and the result panel are widgets of their own (hr-plan-view.c,
 * hr-timeline-view.c, hr-sweep-view.c, hr-compare-view.c, hr-verdict.c,
 * hr-suggestions.c).
 */

#pragma once

#include "hr-after-paint.h"
#include "hr-compare-view.h"
#include "hr-document.h"
#include "hr-plan-view.h"
#include "hr-presets.h"
#include "hr-suggestions.h"
#include "hr-sweep-view.h"
#include "hr-timeline-view.h"
#include "hr-verdict.h"
#include "hr-window.h"

G_BEGIN_DECLS

typedef void (*HrWindowThen) (HrWindow *self,
                              gpointer  data);

/* What to do once unsaved changes are saved or discarded
 * (hr_window_ask_to_discard). */
typedef struct
{
  HrWindowThen   then;
  gpointer       data;
  GDestroyNotify destroy;
} HrWindowPending;

struct _HrWindow
{
  AdwApplicationWindow parent_instance;

  /* template children */
  AdwToastOverlay     *toast_overlay;
  AdwWindowTitle      *window_title;
  GtkToggleButton     *form_toggle;
  GtkMenuButton       *menu_button;   /* its menu made when it first opens */
  GtkWidget           *save_button;
  GtkWidget           *export_button;
  AdwLeaflet          *leaflet;
  GtkScrolledWindow   *form_scroller;
  GtkScrolledWindow   *results_scroller;
  HrVerdict           *verdict;
  AdwViewStack        *views;
  HrPlanView          *plan_view;
  HrTimelineView      *timeline_view;
  HrSweepView         *sweep_view;
  HrCompareView       *compare_view;
  HrSuggestions       *suggestions;
  GtkWidget           *jump_button;   /* to the suggestions (hr-window-jump.c) */
  GtkWidget           *invalid_box;   /* over the views while nothing can be planned */
  GtkLabel            *invalid_label;
  GtkWidget           *show_field_button;  /* under the reason: to its row */
  GMenuModel          *primary_menu;
  GMenu               *examples_menu;

  /* the scenario, its plan and its document */
  HrScenarioModel     *model;
  HrForm              *form;
  HrPlan              *plan;
  gboolean             plan_valid;
  guint                loading;       /* > 0 while the whole scenario is replaced */
  guint                naming;        /* > 0 while the window sets the name */
  guint                recompute_id;
  guint                recompute_count;
  guint                fold_id;
  gboolean             close_confirmed;

  HrAfterPaint         jump_paint;    /* until the pane is laid out anew */
  AdwAnimation        *jump_animation;

  HrDocument          *document;      /* its file, undo history, unsaved changes, name */

  HrWindowPending      pending;       /* once unsaved changes are saved or discarded */
  char                *last_toast;
  AdwToast            *undo_toast;    /* weak: the toast whose Undo is showing */

  /* what it reads */
  HrPresets           *presets;
  GSettings           *settings;
};

void     hr_window_update_title     (HrWindow   *self);
void     hr_window_replace_scenario (HrWindow         *self,
                                     const HrScenario *scenario,
                                     gboolean          name_follows);
void     hr_window_toast            (HrWindow   *self,
                                     const char *message);
void     hr_window_toast_undo       (HrWindow   *self,
                                     const char *message);
void     hr_window_show_error       (HrWindow   *self,
                                     const char *heading,
                                     const char *message);
HrUnits  hr_window_units            (HrWindow   *self);
HrView  *hr_window_visible_view     (HrWindow   *self);
void     hr_window_install_actions  (HrWindow   *self);
void     hr_window_update_actions   (HrWindow   *self);
void     hr_window_record_edit      (HrWindow   *self);
void     hr_window_restore_step     (HrWindow         *self,
                                     const HrScenario *scenario,
                                     gboolean          name_follows);
void     hr_window_ask_to_discard   (HrWindow         *self,
                                     HrWindowThen      then,
                                     gpointer          data,
                                     GDestroyNotify    destroy);
void     hr_window_clear_pending    (HrWindow   *self);

/* hr-window-jump.c: the pill that scrolls to the suggestions */
void     hr_window_init_jump         (HrWindow   *self);
void     hr_window_queue_update_jump (HrWindow   *self);
void     hr_window_dispose_jump      (HrWindow   *self);

G_END_DECLS
