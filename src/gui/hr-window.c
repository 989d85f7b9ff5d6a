/* hr-window.c: the Headroom window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form on the left edits the scenario model; every change schedules
 * one recompute for the next main-loop turn (at high-idle priority, so it
 * runs before the frame is painted), however many properties a preset
 * changed.  While the scenario is invalid the chart is dimmed and the
 * reason is shown next to the field and above the chart; stale numbers are
 * never shown as if current (UX-LESSONS.md point 8).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-calc.h"
#include "hr-error.h"
#include "hr-field-text.h"
#include "hr-frameworks.h"
#include "hr-scenario-io.h"
#include "hr-scenario-name.h"
#include "hr-window-private.h"

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

HrUnits
hr_window_units (HrWindow *self)
{
  g_autofree char *units = g_settings_get_string (self->settings, "units");

  return g_strcmp0 (units, "gb") == 0 ? HR_UNITS_DECIMAL : HR_UNITS_BINARY;
}

void
hr_window_update_title (HrWindow *self)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  const char *name = sc->name[0] != '\0' ? sc->name : _("Unnamed scenario");
  GFile *file = hr_document_get_file (self->document);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  /* TRANSLATORS: the window title of a scenario with unsaved changes */
  title = hr_document_is_dirty (self->document) ? g_strdup_printf (_("• %s"), name)
                                                 : g_strdup (name);
  if (file != NULL)
    subtitle = g_file_get_basename (file);
  else
    subtitle = g_strdup (_("Not saved"));
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* A toast of plain text (AdwToast reads its title as markup). */
static AdwToast *
toast_new (HrWindow   *self,
           const char *message)
{
  g_autofree char *markup = g_markup_escape_text (message, -1);

  g_free (self->last_toast);
  self->last_toast = g_strdup (message);
  return adw_toast_new (markup);
}

void
hr_window_toast (HrWindow   *self,
                 const char *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, toast_new (self, message));
}

/* The Undo toast goes once its step is undone (or redone) another way:
 * its button would take back the step before. */
static void
dismiss_undo_toast (HrWindow *self)
{
  if (self->undo_toast != NULL)
    {
      adw_toast_dismiss (self->undo_toast);
      g_clear_weak_pointer (&self->undo_toast);
    }
}

/* A toast with an Undo button, for a change the user did not make field
 * by field. */
void
hr_window_toast_undo (HrWindow   *self,
                      const char *message)
{
  AdwToast *toast = toast_new (self, message);

  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "win.undo");
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  dismiss_undo_toast (self);
  g_set_weak_pointer (&self->undo_toast, toast);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Whether a toast's Undo button is showing. */
gboolean
hr_window_has_undo_toast (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), FALSE);
  return self->undo_toast != NULL;
}

void
hr_window_show_error (HrWindow   *self,
                      const char *heading,
                      const char *message)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Preset files that do not parse are named once, and the app runs on
 * without them.  Returns whether there were any. */
gboolean
hr_window_warn_broken_presets (HrWindow *self)
{
  g_autoptr(GPtrArray) broken = hr_presets_broken (self->presets);
  GPtrArray *profiles = hr_frameworks_problems ();
  g_autoptr(GString) text = NULL;

  /* and the framework profiles that parse but were left out for a bad
   * value (one that does not parse is in both lists) */
  for (guint i = 0; i < profiles->len; i++)
    if (!g_ptr_array_find_with_equal_func (broken, g_ptr_array_index (profiles, i), g_str_equal, NULL))
      g_ptr_array_add (broken, g_strdup (g_ptr_array_index (profiles, i)));
  if (broken->len == 0)
    return FALSE;
  text = g_string_new (_("These preset files were skipped:"));
  for (guint i = 0; i < broken->len; i++)
    g_string_append_printf (text, "\n• %s", (char *) g_ptr_array_index (broken, i));
  hr_window_show_error (self, _("Some presets could not be read"), text->str);
  return TRUE;
}

/* The view the user sees; the plan view stands in for a view with nothing
 * of its own to export (a comparison with nothing pinned). */
HrView *
hr_window_visible_view (HrWindow *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->views);

  return HR_IS_VIEW (child) ? HR_VIEW (child) : HR_VIEW (self->plan_view);
}

/* After every successful recompute: the verdict, the plan view and the
 * suggestions; of the other views only the visible one works. */
static void
show_plan (HrWindow *self)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  HrUnits units = hr_window_units (self);
  HrView *view = hr_window_visible_view (self);

  hr_verdict_show_plan (self->verdict, sc, self->plan, units);
  hr_view_show_plan (HR_VIEW (self->plan_view), sc, self->plan, units);
  if (view != HR_VIEW (self->plan_view))
    hr_view_show_plan (view, sc, self->plan, units);
  hr_suggestions_update (self->suggestions, sc, self->plan, units);
  hr_window_queue_update_jump (self);
}

/* No plan, and nothing of the last one: every view is cleared, the reason
 * is written over them with the field's label, and the field's row in
 * the form is marked with it. */
static void
show_invalid (HrWindow     *self,
              const GError *error)
{
  g_autofree char *message = hr_field_text_for_error (error);
  g_autofree char *reason = hr_field_text_labels (hr_error_reason (error));
  const char *field = hr_error_field (error);

  hr_form_show_error (self->form, field, reason);
  hr_verdict_show_error (self->verdict,
                         hr_field_text_label (field) != NULL
                         ? _("Change the value marked in the form to see the plan again.")
                         : NULL);
  hr_view_clear (HR_VIEW (self->plan_view));
  hr_view_clear (HR_VIEW (self->timeline_view));
  hr_view_clear (HR_VIEW (self->sweep_view));
  hr_view_clear (HR_VIEW (self->compare_view));
  hr_suggestions_clear (self->suggestions);
  hr_window_queue_update_jump (self);
  gtk_label_set_text (self->invalid_label, message);
  gtk_widget_set_visible (self->show_field_button, hr_form_has_error (self->form));
  gtk_widget_set_visible (self->invalid_box, TRUE);
}

/* The reason's button: to the marked row, on a phone by way of the form. */
static void
on_show_field_clicked (HrWindow *self)
{
  if (adw_leaflet_get_folded (self->leaflet))
    hr_window_show_form (self, TRUE);
  hr_form_focus_error (self->form);
}

/* Narrower than the form and the plan side by side (721 points),
 * the leaflet folds and shows one of them; the header's toggle, or a
 * swipe, goes between them. */
static gboolean
follow_fold (gpointer user_data)
{
  HrWindow *self = user_data;
  gboolean folded = adw_leaflet_get_folded (self->leaflet);

  self->fold_id = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->form_toggle), folded);
  /* On a phone's width the header keeps room for the title: Save and
   * Export PNG stay in the main menu. */
  gtk_widget_set_visible (self->save_button, !folded);
  gtk_widget_set_visible (self->export_button, !folded);
  if (!folded)
    adw_leaflet_set_visible_child_name (self->leaflet, "plan");
  return G_SOURCE_REMOVE;
}

/* The leaflet folds while it lays itself out: the header bar is changed
 * after that, not in the middle of it. */
static void
on_folded (HrWindow *self)
{
  if (self->fold_id == 0)
    self->fold_id = g_idle_add (follow_fold, self);
}

static void
on_form_toggled (HrWindow *self)
{
  adw_leaflet_set_visible_child_name (self->leaflet, gtk_toggle_button_get_active (self->form_toggle)
                                                     ? "form" : "plan");
}

static void
on_leaflet_child (HrWindow *self)
{
  gtk_toggle_button_set_active (self->form_toggle,
                                g_strcmp0 (adw_leaflet_get_visible_child_name (self->leaflet),
                                           "form") == 0);
}

static void
on_view_changed (HrWindow *self)
{
  if (self->plan_valid)
    hr_view_show_plan (hr_window_visible_view (self), hr_scenario_model_get_scenario (self->model),
                       self->plan, hr_window_units (self));
}

/* The main menu's popover, with a button for each of its items, is
 * made when the menu first opens (or F10 opens it), not for the first
 * frame: made at once it cost that frame 1 % of its instructions
 * (callgrind, tests/bench-map.c). */
static void
create_primary_menu (GtkMenuButton *button,
                     gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);

  if (gtk_menu_button_get_menu_model (button) == NULL)
    gtk_menu_button_set_menu_model (button, self->primary_menu);
}

/* Until the user names the scenario its name follows the plan
 * (hr_document_next_name). */
static void
follow_name (HrWindow *self)
{
  const char *name = hr_document_next_name (self->document,
                                            hr_scenario_model_get_scenario (self->model));

  if (name == NULL)
    return;
  self->naming++;
  g_object_set (self->model, "name", name, NULL);
  self->naming--;
}

static gboolean
recompute (gpointer user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  g_autoptr(GError) error = NULL;

  self->recompute_id = 0;
  follow_name (self);
  hr_window_record_edit (self);
  self->recompute_count++;
  self->plan_valid = hr_framework_check (sc, &error) && hr_calc_plan (sc, self->plan, &error);
  hr_form_update_sensitivity (self->form);

  if (self->plan_valid)
    {
      hr_form_show_error (self->form, NULL, NULL);
      gtk_widget_set_visible (self->invalid_box, FALSE);
      show_plan (self);
    }
  else
    show_invalid (self, error);
  hr_window_update_actions (self);
  return G_SOURCE_REMOVE;
}

/* The edits of this main-loop turn become a step of the undo history
 * (merged with the last one when they are more of the same), and the
 * scenario is dirty unless it is back at the step that was saved. */
void
hr_window_record_edit (HrWindow *self)
{
  if (!hr_document_record_edit (self->document, hr_scenario_model_get_scenario (self->model)))
    return;
  hr_window_update_title (self);
  hr_window_update_actions (self);
}

static void
schedule_recompute (HrWindow *self)
{
  if (self->recompute_id == 0)
    self->recompute_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, recompute, self, NULL);
}

static void
on_model_notify (HrWindow   *self,
                 GParamSpec *pspec)
{
  gboolean name = g_str_equal (pspec->name, "name");

  if (self->naming > 0)
    {
      hr_window_update_title (self);
      return;
    }
  if (self->loading == 0)
    {
      /* (an edit that made the scenario dirty shows in the title) */
      gboolean made_dirty = hr_document_note_edit (self->document, g_intern_string (pspec->name));

      if (name)
        hr_document_user_named (self->document, hr_scenario_model_get_scenario (self->model));
      if (made_dirty || name)
        hr_window_update_title (self);
    }
  else if (name)
    hr_window_update_title (self);
  schedule_recompute (self);
}

/* Replaces the scenario as a whole (New, Open, an example): not an edit.
 * Its name follows the plan from now on when name_follows. */
void
hr_window_replace_scenario (HrWindow         *self,
                            const HrScenario *scenario,
                            gboolean          name_follows)
{
  HrScenario named = *scenario;

  if (name_follows && named.name[0] == '\0')
    hr_scenario_set_generated_name (&named);
  self->loading++;
  hr_scenario_model_set_scenario (self->model, &named);
  self->loading--;
  hr_document_replace (self->document, &named, name_follows);
  hr_window_update_title (self);
  hr_window_update_actions (self);
  schedule_recompute (self);
}

/* Goes to a step of the undo history: not an edit either. */
void
hr_window_restore_step (HrWindow         *self,
                        const HrScenario *scenario,
                        gboolean          name_follows)
{
  dismiss_undo_toast (self);
  self->loading++;
  hr_scenario_model_set_scenario (self->model, scenario);
  self->loading--;
  hr_document_restore_step (self->document, scenario, name_follows);
  hr_window_update_title (self);
  hr_window_update_actions (self);
  schedule_recompute (self);
}

/* A scenario from a file keeps its name unless it is the generated one. */
void
hr_window_set_scenario (HrWindow         *self,
                        const HrScenario *scenario)
{
  hr_window_replace_scenario (self, scenario,
                              scenario->name[0] == '\0' || hr_scenario_name_is_generated (scenario));
}

static void
on_units_changed (HrWindow *self)
{
  schedule_recompute (self);
}

static void
close_now (HrWindow *self,
           gpointer  data)
{
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

/* Closing with unsaved changes asks first. */
static gboolean
hr_window_close_request (GtkWindow *window)
{
  HrWindow *self = HR_WINDOW (window);

  if (hr_document_is_dirty (self->document) && !self->close_confirmed)
    {
      hr_window_ask_to_discard (self, close_now, NULL, NULL);
      return TRUE;
    }

  /* Remember the size for next time. */
  if (!gtk_window_is_maximized (window))
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  return GTK_WINDOW_CLASS (hr_window_parent_class)->close_request (window);
}

static void
hr_window_dispose (GObject *object)
{
  HrWindow *self = HR_WINDOW (object);

  g_clear_handle_id (&self->recompute_id, g_source_remove);
  g_clear_handle_id (&self->fold_id, g_source_remove);
  hr_window_clear_pending (self);
  hr_window_dispose_jump (self);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_WINDOW);
  G_OBJECT_CLASS (hr_window_parent_class)->dispose (object);
}

static void
hr_window_finalize (GObject *object)
{
  HrWindow *self = HR_WINDOW (object);

  g_clear_object (&self->model);
  g_clear_object (&self->settings);
  g_clear_object (&self->document);
  g_clear_pointer (&self->last_toast, g_free);
  g_clear_weak_pointer (&self->undo_toast);
  g_clear_pointer (&self->presets, hr_presets_free);
  g_clear_pointer (&self->plan, hr_plan_free);
  G_OBJECT_CLASS (hr_window_parent_class)->finalize (object);
}

static void
hr_window_class_init (HrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = hr_window_dispose;
  object_class->finalize = hr_window_finalize;
  window_class->close_request = hr_window_close_request;

  g_type_ensure (HR_TYPE_VERDICT);
  g_type_ensure (HR_TYPE_PLAN_VIEW);
  g_type_ensure (HR_TYPE_TIMELINE_VIEW);
  g_type_ensure (HR_TYPE_SWEEP_VIEW);
  g_type_ensure (HR_TYPE_COMPARE_VIEW);
  g_type_ensure (HR_TYPE_SUGGESTIONS);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, form_toggle);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, form_scroller);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, results_scroller);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, verdict);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, views);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, plan_view);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, sweep_view);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, compare_view);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, suggestions);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, jump_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, invalid_box);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, invalid_label);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, show_field_button);
  gtk_widget_class_bind_template_callback (widget_class, on_show_field_clicked);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, examples_menu);
}

static void
hr_window_init (HrWindow *self)
{
  HrScenario sc;
  g_autoptr(GError) error = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  self->presets = hr_presets_new_default ();
  self->plan = hr_plan_new ();
  self->model = hr_scenario_model_new ();

  /* The default scenario, as headroom-cli plans it; the compiled-in copy
   * when no preset folder is installed. */
  if (!hr_scenario_load_preset (&sc, "default", self->presets, &error))
    hr_scenario_init_default (&sc);
  hr_scenario_model_set_scenario (self->model, &sc);
  self->document = hr_document_new (&sc, hr_scenario_name_is_generated (&sc));

  self->form = HR_FORM (hr_form_new (self->model, self->presets));
  gtk_scrolled_window_set_child (self->form_scroller, GTK_WIDGET (self->form));

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  hr_window_install_actions (self);
  hr_window_init_jump (self);
  g_signal_connect_swapped (self->model, "notify", G_CALLBACK (on_model_notify), self);
  g_signal_connect_swapped (self->settings, "changed::units", G_CALLBACK (on_units_changed), self);
  g_signal_connect_swapped (self->views, "notify::visible-child", G_CALLBACK (on_view_changed),
                            self);
  adw_leaflet_set_visible_child_name (self->leaflet, "plan");
  g_signal_connect_swapped (self->leaflet, "notify::folded", G_CALLBACK (on_folded), self);
  g_signal_connect_swapped (self->leaflet, "notify::visible-child", G_CALLBACK (on_leaflet_child),
                            self);
  g_signal_connect_swapped (self->form_toggle, "toggled", G_CALLBACK (on_form_toggled), self);
  gtk_menu_button_set_create_popup_func (self->menu_button, create_primary_menu, self, NULL);

  hr_window_update_title (self);
  /* Planned now, not in an idle: the window's first frame must show the
   * plan, and GTK may draw it before a high-priority idle has run. */
  recompute (self);
}

HrWindow *
hr_window_new (AdwApplication *application)
{
  return g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
}

HrScenarioModel *
hr_window_get_model (HrWindow *self)
{
  return self->model;
}

/* Whether the form and the plan are one over the other, and the form is
 * the one shown. */
gboolean
hr_window_get_folded (HrWindow *self)
{
  return adw_leaflet_get_folded (self->leaflet);
}

void
hr_window_show_form (HrWindow *self,
                     gboolean  show)
{
  gtk_toggle_button_set_active (self->form_toggle, show);
}

HrForm *
hr_window_get_form (HrWindow *self)
{
  return self->form;
}

HrChartWidget *
hr_window_get_chart (HrWindow *self)
{
  return hr_plan_view_get_chart (self->plan_view);
}

AdwViewStack *
hr_window_get_views (HrWindow *self)
{
  return self->views;
}

const HrPlan *
hr_window_get_plan (HrWindow *self)
{
  return self->plan;
}

gboolean
hr_window_get_plan_valid (HrWindow *self)
{
  return self->plan_valid;
}

gboolean
hr_window_get_dirty (HrWindow *self)
{
  return hr_document_is_dirty (self->document);
}

const char *
hr_window_get_summary (HrWindow *self)
{
  return hr_verdict_get_summary (self->verdict);
}

/* What the last toast said, or NULL. */
const char *
hr_window_get_last_toast (HrWindow *self)
{
  return self->last_toast;
}

/* The reason shown over the views while nothing can be planned, or NULL. */
const char *
hr_window_get_message (HrWindow *self)
{
  return gtk_widget_get_visible (self->invalid_box) ? gtk_label_get_text (self->invalid_label)
                                                    : NULL;
}

guint
hr_window_get_recompute_count (HrWindow *self)
{
  return self->recompute_count;
}
