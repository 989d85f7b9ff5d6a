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
#include "hr-cost.h"
#include "hr-error.h"
#include "hr-measured.h"
#include "hr-report-page.h"
#include "hr-scenario-io.h"
#include "hr-window-private.h"

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

/* GType refuses an instance over 64 KiB at run time; the window holds a
 * dozen scenarios (its suggestions, the pinned one), so say it here. */
G_STATIC_ASSERT (sizeof (HrWindow) <= G_MAXUINT16);

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
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  /* TRANSLATORS: the window title of a scenario with unsaved changes */
  title = self->dirty ? g_strdup_printf (_("• %s"), sc->name) : g_strdup (sc->name);
  if (self->file != NULL)
    subtitle = g_file_get_basename (self->file);
  else
    subtitle = g_strdup (_("Not saved"));
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
hr_window_toast (HrWindow   *self,
                 const char *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
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
hr_window_report_broken_presets (HrWindow *self)
{
  g_autoptr(GPtrArray) broken = hr_presets_broken (self->presets);
  g_autoptr(GString) text = NULL;

  if (broken->len == 0)
    return FALSE;
  text = g_string_new (_("These preset files were skipped:"));
  for (guint i = 0; i < broken->len; i++)
    g_string_append_printf (text, "\n• %s", (char *) g_ptr_array_index (broken, i));
  hr_window_show_error (self, _("Some presets could not be read"), text->str);
  return TRUE;
}

static void
set_status_class (GtkWidget *label,
                  HrStatus   status,
                  gboolean   valid)
{
  gtk_widget_remove_css_class (label, "success");
  gtk_widget_remove_css_class (label, "warning");
  gtk_widget_remove_css_class (label, "error");
  if (!valid)
    return;
  gtk_widget_add_css_class (label, status == HR_STATUS_OK ? "success"
                                   : status == HR_STATUS_TIGHT ? "warning" : "error");
}

static void
on_apply_suggestion (GtkButton *button,
                     HrWindow  *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));

  if (index < self->n_suggestions)
    hr_scenario_model_set_scenario (self->model, &self->suggestions[index].scenario);
}

/* When the plan is tight or over: the ranked changes that make it fit,
 * each with what it saves, its verdict and its cost, and a button. */
static void
update_suggestions (HrWindow *self)
{
  GtkWidget *child;
  HrUnits units = hr_window_units (self);
  g_autoptr(HrPlan) work = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->suggestions_list))) != NULL)
    gtk_list_box_remove (self->suggestions_list, child);
  self->n_suggestions = 0;

  if (self->plan->status != HR_STATUS_OK)
    {
      work = hr_plan_new ();
      self->n_suggestions = hr_suggest (hr_scenario_model_get_scenario (self->model), work,
                                        self->suggestions, 5, NULL);
    }
  for (guint i = 0; i < self->n_suggestions; i++)
    {
      const HrSuggestion *sg = &self->suggestions[i];
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button = gtk_button_new_with_mnemonic (_("_Apply"));
      g_autofree char *saves = hr_format_bytes ((double) sg->saves_bytes, units);
      int percent = (int) (100.0 * ((double) self->plan->capacity_bytes - (double) sg->total_bytes)
                           / (double) self->plan->capacity_bytes);
      g_autofree char *subtitle = NULL;

      if (sg->status == HR_STATUS_OOM)
        {
          g_autofree char *over = hr_format_bytes ((double) sg->total_bytes
                                                   - (double) self->plan->capacity_bytes, units);

          /* TRANSLATORS: what a suggestion saves per GPU, how far it stays
           * over the capacity, and its cost */
          subtitle = g_strdup_printf (_("−%s per GPU · still over by %s · %s"), saves, over,
                                      sg->cost);
        }
      else
        /* TRANSLATORS: what a suggestion saves per GPU, the verdict after it
         * with the free share, and its cost */
        subtitle = g_strdup_printf (_("−%s per GPU · %s, %d %% free · %s"), saves,
                                    sg->status == HR_STATUS_OK ? _("fits") : _("tight"),
                                    percent, sg->cost);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), sg->title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      g_object_set_data (G_OBJECT (button), "index", GUINT_TO_POINTER (i));
      g_signal_connect (button, "clicked", G_CALLBACK (on_apply_suggestion), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      gtk_list_box_append (self->suggestions_list, row);
    }
  gtk_widget_set_visible (self->suggestions_box, self->n_suggestions > 0);
}

/* The runs behind the error bar, in the details' tooltip, each with how
 * far the plan was from what it measured: those of the plan's method, or
 * all of them when there are fewer than three (as hr_measured_uncertainty
 * takes them). */
static void
show_measured_runs (HrWindow *self,
                    HrMethod  method)
{
  GString *text;
  guint same = 0;
  gboolean all;

  for (guint i = 0; i < self->measured->len; i++)
    same += ((const HrMeasuredRun *) g_ptr_array_index (self->measured, i))->scenario.training.method
            == method;
  all = same < 3;
  text = g_string_new (all ? _("Headroom against all the measured runs")
                           : _("Headroom against the measured runs of this method"));
  g_string_append_printf (text, " %s", _("(minus: planned less than measured):"));
  for (guint i = 0; i < self->measured->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (self->measured, i);

      if (all || run->scenario.training.method == method)
        g_string_append_printf (text, "\n%s  %+.1f %%", run->id, 100 * run->error);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->details_label), text->str);
  g_string_free (text, TRUE);
}

static void
show_plan (HrWindow *self)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  const HrDevice *d = hr_plan_binding (self->plan);
  HrUnits units = hr_window_units (self);
  g_autofree char *summary = hr_plan_summary (sc, self->plan, units);
  g_autofree char *params = hr_format_count ((double) self->plan->params);
  g_autofree char *trainable = hr_format_count ((double) self->plan->trainable_params);
  g_autofree char *allocated = hr_format_bytes ((double) d->allocated_bytes, units);
  g_autofree char *reserved = hr_format_bytes ((double) d->reserved_bytes, units);
  g_autofree char *total = hr_format_bytes ((double) d->total_bytes, units);
  g_autofree char *cap = hr_format_bytes ((double) self->plan->capacity_bytes, units);
  g_autofree char *details = NULL;
  const char *icon = self->plan->status == HR_STATUS_OK ? "✓"
                     : self->plan->status == HR_STATUS_TIGHT ? "⚠" : "✗";
  g_autofree char *headline = g_strdup_printf ("%s %s", icon, summary);

  /* TRANSLATORS: parameters, trainable parameters, the peak's phase,
   * then PyTorch's allocated and reserved and the whole device's memory */
  details = g_strdup_printf (_("%s parameters, %s trainable · peak during the %s · "
                               "allocated %s, reserved %s, total %s of %s"),
                             params, trainable, hr_phase_label (d->peak_phase),
                             allocated, reserved, total, cap);
  /* The honest error bar, from the measured runs of the same method. */
  if (self->measured != NULL && self->measured->len > 0)
    {
      guint n = 0;
      double err = hr_measured_uncertainty (self->measured, sc->training.method, &n);
      g_autofree char *more = NULL;

      /* TRANSLATORS: the totals' error bar: ±percent, from how many measured runs */
      more = g_strdup_printf (_("%s (±%.0f %%, the median error on %u measured runs)"),
                              details, 100 * err, n);
      g_free (details);
      details = g_steal_pointer (&more);
      show_measured_runs (self, sc->training.method);
    }
  if (self->plan->host_bytes_per_node > 0)
    {
      g_autofree char *host = hr_format_bytes ((double) self->plan->host_bytes_per_node, units);
      g_autofree char *more = g_strdup_printf (_("%s · host RAM per node %s"), details, host);

      g_free (details);
      details = g_steal_pointer (&more);
    }

  {
    HrCostEstimate est;

    hr_cost_estimate (sc, self->plan, &est);
    if (est.known)
      {
        g_autofree char *cost = hr_cost_sentence (sc, &est);
        g_autofree char *more = g_strdup_printf ("%s\n%s", details, cost);

        g_free (details);
        details = g_steal_pointer (&more);
      }
  }
  gtk_label_set_text (self->summary_label, headline);
  gtk_label_set_text (self->details_label, details);
  set_status_class (GTK_WIDGET (self->summary_label), self->plan->status, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->chart), "stale");
  hr_chart_widget_set_units (self->chart, units);
  hr_chart_widget_set_plan (self->chart, sc, self->plan);
  update_suggestions (self);
}

static gboolean
recompute (gpointer user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  g_autoptr(GError) error = NULL;

  self->recompute_id = 0;
  self->recompute_count++;
  self->plan_valid = hr_calc_plan (sc, self->plan, &error);
  hr_form_update_sensitivity (self->form);

  if (self->plan_valid)
    {
      hr_form_show_error (self->form, NULL, NULL);
      show_plan (self);
      hr_window_update_views (self);
    }
  else
    {
      hr_form_show_error (self->form, hr_error_field (error), hr_error_reason (error));
      gtk_label_set_text (self->summary_label, _("Cannot plan this scenario"));
      set_status_class (GTK_WIDGET (self->summary_label), HR_STATUS_OOM, FALSE);
      gtk_label_set_text (self->details_label, "");
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (self->chart), "stale");
      gtk_widget_set_visible (self->suggestions_box, FALSE);
    }
  return G_SOURCE_REMOVE;
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
  if (self->loading == 0 && !self->dirty)
    {
      self->dirty = TRUE;
      hr_window_update_title (self);
    }
  else if (g_str_equal (pspec->name, "name"))
    hr_window_update_title (self);
  schedule_recompute (self);
}

/* Replaces the scenario as a whole (New, Open, an example): not an edit. */
void
hr_window_set_scenario (HrWindow         *self,
                        const HrScenario *scenario)
{
  self->loading++;
  hr_scenario_model_set_scenario (self->model, scenario);
  self->loading--;
  self->dirty = FALSE;
  hr_window_update_title (self);
  schedule_recompute (self);
}

gboolean
hr_window_open_file (HrWindow  *self,
                     GFile     *file,
                     GError   **error)
{
  g_autofree char *path = g_file_get_path (file);
  HrScenario sc;

  if (path == NULL)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_IO, _("Only local files can be opened"));
      return FALSE;
    }
  if (!hr_scenario_read_file (&sc, path, self->presets, error))
    return FALSE;
  g_set_object (&self->file, file);
  hr_window_set_scenario (self, &sc);
  return TRUE;
}

void
hr_window_open_file_or_report (HrWindow *self,
                               GFile    *file)
{
  g_autoptr(GError) error = NULL;

  if (!hr_window_open_file (self, file, &error))
    hr_window_show_error (self, _("Could not open the scenario"), error->message);
}

gboolean
hr_window_save_to (HrWindow  *self,
                   GFile     *file,
                   GError   **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *data = NULL;
  gsize length;

  if (path == NULL)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_IO, _("Only local files can be saved"));
      return FALSE;
    }
  data = hr_scenario_to_data (hr_scenario_model_get_scenario (self->model), &length);
  if (!hr_write_file_atomic (path, data, length, error))
    return FALSE;
  g_set_object (&self->file, file);
  self->dirty = FALSE;
  hr_window_update_title (self);
  return TRUE;
}

/* The path to export to, or NULL with an error: the writers need a local
 * path, and the file chooser can give an sftp:// or other remote file. */
static char *
export_path (GFile   *file,
             GError **error)
{
  char *path = g_file_get_path (file);

  if (path == NULL)
    g_set_error (error, HR_ERROR, HR_ERROR_IO, _("Only local files can be exported"));
  return path;
}

/* The chart as the window draws it, with the title and the verdict, at a
 * size fit for a slide (1600 x 900, drawn at twice the resolution). */
gboolean
hr_window_export_png (HrWindow  *self,
                      GFile     *file,
                      GError   **error)
{
  g_autofree char *path = export_path (file, error);
  HrChartStyle style;

  if (path == NULL)
    return FALSE;
  if (!self->plan_valid)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("The scenario is not valid: fix it first"));
      return FALSE;
    }
  if (!g_str_equal (hr_window_visible_view (self), "plan")
      && (self->has_pin || g_str_equal (hr_window_visible_view (self), "sweep")))
    return hr_window_export_view_png (self, path, error);
  hr_chart_style_init_light (&style);
  style.units = hr_window_units (self);
  style.font_scale = 1.25;
  return hr_chart_write_png (path, 1600, 900, 2.0, hr_scenario_model_get_scenario (self->model),
                             self->plan, &style, error);
}

/* One page for a slide: verdict, chart, key settings, assumptions. */
gboolean
hr_window_export_report (HrWindow  *self,
                         GFile     *file,
                         GError   **error)
{
  g_autofree char *path = export_path (file, error);

  if (path == NULL)
    return FALSE;
  if (!self->plan_valid)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("The scenario is not valid: fix it first"));
      return FALSE;
    }
  return hr_report_write_png (path, hr_scenario_model_get_scenario (self->model), self->plan,
                              hr_window_units (self), error);
}

gboolean
hr_window_export_csv (HrWindow  *self,
                      GFile     *file,
                      GError   **error)
{
  g_autofree char *path = export_path (file, error);
  g_autofree char *csv = NULL;

  if (path == NULL)
    return FALSE;
  if (!self->plan_valid)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("The scenario is not valid: fix it first"));
      return FALSE;
    }
  csv = hr_window_view_csv (self);
  return hr_write_file_atomic (path, csv, strlen (csv), error);
}

static void
on_units_changed (HrWindow *self)
{
  schedule_recompute (self);
}

/* Closing with unsaved changes asks first. */
static void
on_close_response (AdwMessageDialog *dialog,
                   const char       *response,
                   HrWindow         *self)
{
  if (g_str_equal (response, "discard"))
    {
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  else if (g_str_equal (response, "save"))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.save-and-close", NULL);
}

static gboolean
hr_window_close_request (GtkWindow *window)
{
  HrWindow *self = HR_WINDOW (window);
  GtkWidget *dialog;

  if (self->dirty && !self->close_confirmed)
    {
      dialog = adw_message_dialog_new (window, _("Save changes?"),
                                       _("The scenario has changes that are not saved."));
      adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                        "cancel", _("_Cancel"),
                                        "discard", _("_Discard"),
                                        "save", _("_Save"), NULL);
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                                  ADW_RESPONSE_DESTRUCTIVE);
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                                  ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
      adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
      g_signal_connect (dialog, "response", G_CALLBACK (on_close_response), self);
      gtk_window_present (GTK_WINDOW (dialog));
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
  g_clear_object (&self->file);
  g_clear_pointer (&self->presets, hr_presets_free);
  g_clear_pointer (&self->plan, hr_plan_free);
  g_clear_pointer (&self->pinned_plan, hr_plan_free);
  g_clear_pointer (&self->measured, g_ptr_array_unref);
  g_clear_pointer (&self->sweep, g_free);
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

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, form_scroller);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, result_box);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, details_label);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, error_label);
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
  self->measured = hr_measured_load_bundled (self->presets);

  /* The default scenario, as headroom-cli plans it; the compiled-in copy
   * when no preset folder is installed. */
  if (!hr_scenario_load_preset (&sc, "default", self->presets, &error))
    hr_scenario_init_default (&sc);
  hr_scenario_model_set_scenario (self->model, &sc);

  self->form = HR_FORM (hr_form_new (self->model, self->presets));
  gtk_scrolled_window_set_child (self->form_scroller, GTK_WIDGET (self->form));
  hr_window_build_views (self);

  /* What would make it fit, under the chart. */
  {
    GtkWidget *heading = gtk_label_new (_("What would make it fit"));

    self->suggestions_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
    gtk_label_set_xalign (GTK_LABEL (heading), 0);
    gtk_widget_add_css_class (heading, "heading");
    self->suggestions_list = GTK_LIST_BOX (gtk_list_box_new ());
    gtk_list_box_set_selection_mode (self->suggestions_list, GTK_SELECTION_NONE);
    gtk_widget_add_css_class (GTK_WIDGET (self->suggestions_list), "boxed-list");
    gtk_box_append (GTK_BOX (self->suggestions_box), heading);
    gtk_box_append (GTK_BOX (self->suggestions_box), GTK_WIDGET (self->suggestions_list));
    gtk_widget_set_visible (self->suggestions_box, FALSE);
    gtk_box_append (self->result_box, self->suggestions_box);
  }

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  hr_window_install_actions (self);
  g_signal_connect_swapped (self->model, "notify", G_CALLBACK (on_model_notify), self);
  g_signal_connect_swapped (self->settings, "changed::units", G_CALLBACK (on_units_changed), self);

  hr_window_update_title (self);
  schedule_recompute (self);
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

HrForm *
hr_window_get_form (HrWindow *self)
{
  return self->form;
}

HrChartWidget *
hr_window_get_chart (HrWindow *self)
{
  return self->chart;
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
  return self->dirty;
}

const char *
hr_window_get_summary (HrWindow *self)
{
  return gtk_label_get_text (self->summary_label);
}

guint
hr_window_get_recompute_count (HrWindow *self)
{
  return self->recompute_count;
}
