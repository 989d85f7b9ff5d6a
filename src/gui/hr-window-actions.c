/* hr-window-actions.c: the window's actions: files, exports, examples, views
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-ds-import.h"
#include "hr-hf-import.h"
#include "hr-import.h"
#include "hr-json.h"
#include "hr-locale.h"
#include "hr-present.h"
#include "hr-report.h"
#include "hr-scenario-io.h"
#include "hr-scenario-name.h"
#include "hr-window-private.h"

typedef enum
{
  CHOOSE_OPEN,
  CHOOSE_SAVE,
  CHOOSE_SAVE_AND_CONTINUE,   /* then what hr_window_ask_to_discard was to do */
  CHOOSE_PNG,
  CHOOSE_CSV,
  CHOOSE_IMPORT,
  CHOOSE_REPORT,
} Choice;

typedef struct
{
  HrWindow *window;
  Choice    choice;
} ChooserData;

/* --- unsaved changes ------------------------------------------------------ */

void
hr_window_clear_pending (HrWindow *self)
{
  HrWindowPending pending = self->pending;

  self->pending = (HrWindowPending) { 0 };
  if (pending.destroy != NULL)
    pending.destroy (pending.data);
}

static void
run_pending (HrWindow *self)
{
  HrWindowPending pending = self->pending;

  /* (taken out first: then may ask again) */
  self->pending = (HrWindowPending) { 0 };
  if (pending.then != NULL)
    pending.then (self, pending.data);
  if (pending.destroy != NULL)
    pending.destroy (pending.data);
}

static void choose_file (HrWindow *self, Choice choice);

static void
on_discard_response (AdwMessageDialog *dialog,
                     const char       *response,
                     HrWindow         *self)
{
  GFile *file = hr_document_get_file (self->document);
  g_autoptr(GError) error = NULL;

  if (g_str_equal (response, "discard"))
    run_pending (self);
  else if (g_str_equal (response, "save") && file == NULL)
    choose_file (self, CHOOSE_SAVE_AND_CONTINUE);
  else if (g_str_equal (response, "save") && hr_window_save_to (self, file, &error))
    run_pending (self);
  else
    {
      hr_window_clear_pending (self);
      if (error != NULL)
        hr_window_show_error (self, _("Could not save the scenario"), error->message);
    }
}

/* Runs then (self, data) once unsaved changes are out of the way: at once
 * when there are none, else after asking whether to save them (Save,
 * Discard, Cancel, as GNOME apps ask); Cancel drops it.  Closing, New,
 * Open and the examples go through here. */
void
hr_window_ask_to_discard (HrWindow       *self,
                          HrWindowThen    then,
                          gpointer        data,
                          GDestroyNotify  destroy)
{
  GtkWidget *dialog;

  if (!hr_document_is_dirty (self->document))
    {
      then (self, data);
      if (destroy != NULL)
        destroy (data);
      return;
    }
  hr_window_clear_pending (self);
  self->pending = (HrWindowPending) { then, data, destroy };

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Save changes?"),
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
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_discard_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* --- files ---------------------------------------------------------------- */

static void
finish_choice (HrWindow *self,
               Choice    choice,
               GFile    *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *message = NULL;

  switch (choice)
    {
    case CHOOSE_OPEN:
      hr_window_open_file_or_warn (self, file);
      return;
    case CHOOSE_IMPORT:
      if (!hr_window_import_file (self, file, &error))
        hr_window_show_error (self, _("Could not import"), error->message);
      return;
    case CHOOSE_SAVE:
    case CHOOSE_SAVE_AND_CONTINUE:
      if (!hr_window_save_to (self, file, &error))
        {
          if (choice == CHOOSE_SAVE_AND_CONTINUE)
            hr_window_clear_pending (self);
          hr_window_show_error (self, _("Could not save the scenario"), error->message);
          return;
        }
      if (choice == CHOOSE_SAVE_AND_CONTINUE)
        run_pending (self);
      else
        {
          /* TRANSLATORS: a toast; %s is a file name */
          message = g_strdup_printf (_("Saved %s"), name);
          hr_window_toast (self, message);
        }
      return;
    case CHOOSE_PNG:
    case CHOOSE_CSV:
    case CHOOSE_REPORT:
      if (!(choice == CHOOSE_PNG ? hr_window_export_png (self, file, &error)
            : choice == CHOOSE_CSV ? hr_window_export_csv (self, file, &error)
                                   : hr_window_export_report (self, file, &error)))
        {
          hr_window_show_error (self, _("Could not export"), error->message);
          return;
        }
      message = g_strdup_printf (_("Exported %s"), name);
      hr_window_toast (self, message);
      return;
    default:
      g_assert_not_reached ();
    }
}

static void
on_chooser_response (GtkNativeDialog *native,
                     int              response,
                     ChooserData     *data)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      finish_choice (data->window, data->choice, file);
    }
  else if (data->choice == CHOOSE_SAVE_AND_CONTINUE)
    hr_window_clear_pending (data->window);
  g_object_unref (data->window);
  g_free (data);
  g_object_unref (native);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *pattern,
            const char     *mime)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  if (mime != NULL)
    gtk_file_filter_add_mime_type (filter, mime);
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

/* A name for a new file: the scenario's name, made safe for file systems. */
static char *
suggested_name (HrWindow   *self,
                const char *extension)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  /* TRANSLATORS: the name of a file for a scenario with no name */
  g_autofree char *base = g_strdup (sc->name[0] != '\0' ? sc->name : _("scenario"));

  g_strdelimit (base, "/\\:*?\"<>|", '-');
  return g_strconcat (base, extension, NULL);
}

static void
choose_file (HrWindow *self,
             Choice    choice)
{
  static const char *titles[] = { N_("Open a Scenario"), N_("Save the Scenario"),
                                  N_("Save the Scenario"), N_("Export the Chart"),
                                  N_("Export the Numbers"),
                                  N_("Import a Hugging Face or DeepSpeed Config"),
                                  N_("Export a Report") };
  gboolean open = choice == CHOOSE_OPEN || choice == CHOOSE_IMPORT;
  GtkFileChooserNative *native;
  ChooserData *data;

  native = gtk_file_chooser_native_new (_(titles[choice]), GTK_WINDOW (self),
                                        open ? GTK_FILE_CHOOSER_ACTION_OPEN
                                             : GTK_FILE_CHOOSER_ACTION_SAVE,
                                        choice == CHOOSE_IMPORT ? _("_Import")
                                        : open ? _("_Open") : choice >= CHOOSE_PNG ? _("_Export")
                                                                                   : _("_Save"),
                                        _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  if (choice == CHOOSE_PNG || choice == CHOOSE_REPORT)
    add_filter (GTK_FILE_CHOOSER (native), _("PNG images"), "*.png", "image/png");
  else if (choice == CHOOSE_CSV)
    add_filter (GTK_FILE_CHOOSER (native), _("CSV files"), "*.csv", "text/csv");
  else if (choice == CHOOSE_IMPORT)
    add_filter (GTK_FILE_CHOOSER (native), _("JSON configs"), "*.json", "application/json");
  else
    add_filter (GTK_FILE_CHOOSER (native), _("Headroom scenarios"), "*.json", "application/json");

  if (!open)
    {
      g_autofree char *name = suggested_name (self, choice == CHOOSE_PNG ? ".png"
                                                    : choice == CHOOSE_REPORT ? " report.png"
                                                    : choice == CHOOSE_CSV ? ".csv" : ".json");
      GFile *file = hr_document_get_file (self->document);

      if (file != NULL && choice < CHOOSE_PNG)
        gtk_file_chooser_set_file (GTK_FILE_CHOOSER (native), file, NULL);
      else
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
    }

  data = g_new0 (ChooserData, 1);
  data->window = g_object_ref (self);
  data->choice = choice;
  g_signal_connect (native, "response", G_CALLBACK (on_chooser_response), data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
new_scenario (HrWindow *self,
              gpointer  data)
{
  g_autofree char *gpu = g_settings_get_string (self->settings, "default-gpu");
  HrScenario sc;

  if (!hr_scenario_load_preset (&sc, "default", self->presets, NULL))
    hr_scenario_init_default (&sc);
  if (gpu != NULL && *gpu != '\0')
    hr_scenario_apply_gpu_preset (&sc, gpu, self->presets, NULL);
  hr_scenario_set_generated_name (&sc);
  hr_document_set_file (self->document, NULL);
  hr_window_replace_scenario (self, &sc, TRUE);
}

static void
action_new (GSimpleAction *action,
            GVariant      *parameter,
            gpointer       user_data)
{
  hr_window_ask_to_discard (HR_WINDOW (user_data), new_scenario, NULL, NULL);
}

static void
choose_to_open (HrWindow *self,
                gpointer  data)
{
  choose_file (self, CHOOSE_OPEN);
}

static void
action_open (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  hr_window_ask_to_discard (HR_WINDOW (user_data), choose_to_open, NULL, NULL);
}

static void
action_save (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  GFile *file = hr_document_get_file (self->document);
  g_autoptr(GError) error = NULL;

  if (file == NULL)
    {
      choose_file (self, CHOOSE_SAVE);
      return;
    }
  if (!hr_window_save_to (self, file, &error))
    hr_window_show_error (self, _("Could not save the scenario"), error->message);
}

static void
action_save_as (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  choose_file (HR_WINDOW (user_data), CHOOSE_SAVE);
}

static void
action_export_png (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  choose_file (HR_WINDOW (user_data), CHOOSE_PNG);
}

static void
action_export_csv (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  choose_file (HR_WINDOW (user_data), CHOOSE_CSV);
}

/* Opens a bundled example in place of the scenario; its name follows the
 * plan once a change would rename it. */
gboolean
hr_window_load_example (HrWindow    *self,
                        const char  *id,
                        GError     **error)
{
  HrScenario sc;

  if (!hr_scenario_load_preset (&sc, id, self->presets, error))
    return FALSE;
  hr_document_set_file (self->document, NULL);
  hr_window_replace_scenario (self, &sc, TRUE);
  return TRUE;
}

static void
open_example (HrWindow *self,
              gpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (!hr_window_load_example (self, data, &error))
    hr_window_show_error (self, _("Could not open the example"), error->message);
}

static void
action_example (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  hr_window_ask_to_discard (HR_WINDOW (user_data), open_example,
                            g_variant_dup_string (parameter, NULL), g_free);
}

/* A Hugging Face config.json becomes the model, a DeepSpeed config sets
 * ZeRO, offloads, batch and precision, a scenario file opens; what could
 * not be mapped is named.  The import is an edit: it can be saved. */
gboolean
hr_window_import_file (HrWindow  *self,
                       GFile     *file,
                       GError   **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc = *hr_scenario_model_get_scenario (self->model);
  const HrImporter *importer;
  g_autofree char *message = NULL;

  if (path == NULL || (root = hr_json_load_file (path, error)) == NULL)
    {
      if (path == NULL)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("Only local files can be opened"));
      return FALSE;
    }
  importer = hr_importer_detect (root);
  if (importer == NULL)
    return hr_window_open_file (self, file, error);
  if (!importer->apply (&sc, root, path, unmapped, error))
    return FALSE;

  hr_window_record_edit (self);
  hr_document_next_edit_alone (self->document);
  hr_scenario_model_set_scenario (self->model, &sc);
  message = g_strdup_printf (_("Imported %s"), name);
  hr_window_toast_undo (self, message);
  if (unmapped->len > 0)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint i = 0; i < unmapped->len; i++)
        g_string_append_printf (text, "%s• %s", i > 0 ? "\n" : "",
                                (char *) g_ptr_array_index (unmapped, i));
      hr_window_show_error (self, _("Some settings were not imported"), text->str);
    }
  return TRUE;
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         HrWindow      *self)
{
  g_autoptr(GError) error = NULL;

  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  if (!hr_window_import_file (self, g_value_get_object (value), &error))
    {
      hr_window_show_error (self, _("Could not import"), error->message);
      return FALSE;
    }
  return TRUE;
}

static void
action_import (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  choose_file (HR_WINDOW (user_data), CHOOSE_IMPORT);
}

static void
action_export_report (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  choose_file (HR_WINDOW (user_data), CHOOSE_REPORT);
}

/* Full screen: the pinned scenario, the current one, then the examples. */
static void
action_present (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  g_autoptr(GArray) list = g_array_new (FALSE, FALSE, sizeof (HrScenario));
  g_autoptr(GPtrArray) examples = hr_presets_list (self->presets, HR_PRESET_SCENARIO);
  guint first;
  GtkWidget *present;

  if (hr_compare_view_get_pinned (self->compare_view) != NULL)
    g_array_append_vals (list, hr_compare_view_get_pinned (self->compare_view), 1);
  first = list->len;
  g_array_append_vals (list, hr_scenario_model_get_scenario (self->model), 1);
  for (guint i = 0; i < examples->len; i++)
    {
      HrScenario sc;

      if (hr_scenario_load_preset (&sc, ((HrPresetInfo *) g_ptr_array_index (examples, i))->id,
                                   self->presets, NULL))
        g_array_append_val (list, sc);
    }
  present = hr_present_new (GTK_WINDOW (self), (HrScenario *) list->data, list->len, first,
                            hr_window_units (self));
  gtk_window_present (GTK_WINDOW (present));
}

/* Keeps the scenario and shows the comparison with what comes next. */
static void
action_pin (GSimpleAction *action,
            GVariant      *parameter,
            gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  g_autofree char *message = NULL;

  if (!self->plan_valid)
    return;
  hr_compare_view_pin (self->compare_view, sc);
  adw_view_stack_set_visible_child (self->views, GTK_WIDGET (self->compare_view));
  hr_view_show_plan (HR_VIEW (self->compare_view), sc, self->plan, hr_window_units (self));
  message = g_strdup_printf (_("Pinned “%s”: change the scenario to compare"), sc->name);
  hr_window_toast (self, message);
}

static void
action_apply_suggestion (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  const HrSuggestion *sg = hr_suggestions_get (self->suggestions, g_variant_get_uint32 (parameter));

  g_autofree char *saves = NULL;
  g_autofree char *message = NULL;

  if (sg == NULL || !self->plan_valid)
    return;
  /* A step of its own, that the toast's Undo takes back. */
  hr_window_record_edit (self);
  hr_document_next_edit_alone (self->document);
  saves = hr_locale_bytes ((double) sg->saves_bytes, hr_window_units (self));
  /* TRANSLATORS: a toast: the suggestion applied, and what it saves */
  message = g_strdup_printf (_("Applied “%s”: −%s per GPU"), sg->title, saves);
  hr_scenario_model_set_scenario (self->model, &sg->scenario);
  hr_window_toast_undo (self, message);
}

static void
action_undo (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  const HrScenario *sc;
  gboolean name_follows;

  hr_window_record_edit (self);
  if ((sc = hr_document_undo (self->document, &name_follows)) != NULL)
    hr_window_restore_step (self, sc, name_follows);
}

static void
action_redo (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  HrWindow *self = HR_WINDOW (user_data);
  const HrScenario *sc;
  gboolean name_follows;

  hr_window_record_edit (self);
  if ((sc = hr_document_redo (self->document, &name_follows)) != NULL)
    hr_window_restore_step (self, sc, name_follows);
}

static void
fill_examples (HrWindow *self)
{
  g_autoptr(GPtrArray) list = hr_presets_list (self->presets, HR_PRESET_SCENARIO);

  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (info->name, NULL);

      g_menu_item_set_action_and_target (item, "win.example", "s", info->id);
      g_menu_append_item (self->examples_menu, item);
    }
}

/* What needs a plan is disabled while there is none: no export, pin or
 * suggestion of a scenario that cannot be planned. */
void
hr_window_update_actions (HrWindow *self)
{
  static const char * const need_plan[] = { "export-png", "export-csv", "export-report", "pin",
                                            "apply-suggestion" };

  GActionMap *map = G_ACTION_MAP (self);

  for (guint i = 0; i < G_N_ELEMENTS (need_plan); i++)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, need_plan[i])),
                                 self->plan_valid);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "undo")),
                               hr_document_can_undo (self->document));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "redo")),
                               hr_document_can_redo (self->document));
}

void
hr_window_install_actions (HrWindow *self)
{
  static const GActionEntry entries[] = {
    { "new", action_new },
    { "open", action_open },
    { "save", action_save },
    { "save-as", action_save_as },
    { "export-png", action_export_png },
    { "export-csv", action_export_csv },
    { "example", action_example, "s" },
    { "pin", action_pin },
    { "apply-suggestion", action_apply_suggestion, "u" },
    { "undo", action_undo },
    { "redo", action_redo },
    { "import", action_import },
    { "export-report", action_export_report },
    { "present", action_present },
  };
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  hr_window_update_actions (self);
  fill_examples (self);
  /* Drop a config.json, a DeepSpeed config or a scenario on the window. */
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
