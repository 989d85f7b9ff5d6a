/* hr-window-files.c: the window's files: open, save and export
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A scenario opens from and saves to a local file in the scenario format
 * (hr-scenario-io.h); exports write what the visible view shows, as PNG or
 * CSV, or the one-page report.  Every write goes through
 * hr_write_file_atomic, so a failed save never destroys the file before it.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-field-text.h"
#include "hr-file-write.h"
#include "hr-report-page.h"
#include "hr-scenario-io.h"
#include "hr-window-private.h"

/* What an export writes: the visible view, or the plan view where that
 * view has nothing of its own (a comparison with nothing pinned). */
static HrView *
export_view (HrWindow *self)
{
  HrView *view = hr_window_visible_view (self);

  return hr_view_can_export (view) ? view : HR_VIEW (self->plan_view);
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
  hr_document_set_file (self->document, file);
  hr_window_set_scenario (self, &sc);
  return TRUE;
}

void
hr_window_open_file_or_warn (HrWindow *self,
                             GFile    *file)
{
  g_autoptr(GError) error = NULL;

  const char *field, *label;

  if (hr_window_open_file (self, file, &error))
    return;
  /* The field by the form's name for it, and by its key, which is what
   * the user looks for in the file to mend it. */
  field = hr_error_field (error);
  label = field != NULL ? hr_field_text_label (field) : NULL;
  if (label != NULL && hr_error_origin (error) != NULL)
    {
      /* TRANSLATORS: FILE: Field label (its.json.key): what is wrong */
      g_autofree char *body = g_strdup_printf (_("%s: %s (%s in the file): %s"),
                                               hr_error_origin (error), label, field,
                                               hr_error_reason (error));

      hr_window_show_error (self, _("Could not open the scenario"), body);
      return;
    }
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
  hr_document_set_file (self->document, file);
  hr_window_record_edit (self);
  hr_document_mark_saved (self->document);
  hr_window_update_title (self);
  return TRUE;
}

/* The path to export the plan to, or NULL with an error: the writers need
 * a local path (the file chooser can give an sftp:// or other remote
 * file), and an invalid scenario has no plan to export. */
static char *
export_path (HrWindow  *self,
             GFile     *file,
             GError   **error)
{
  char *path = g_file_get_path (file);

  if (path == NULL)
    g_set_error (error, HR_ERROR, HR_ERROR_IO, _("Only local files can be exported"));
  else if (!self->plan_valid)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("The scenario is not valid: fix it first"));
      g_clear_pointer (&path, g_free);
    }
  return path;
}

/* The view that is shown (the chart, the sweep or the comparison), with
 * the title and the verdict, at the export size (hr-export.c). */
gboolean
hr_window_export_png (HrWindow  *self,
                      GFile     *file,
                      GError   **error)
{
  g_autofree char *path = export_path (self, file, error);

  if (path == NULL)
    return FALSE;
  return hr_view_write_png (export_view (self), path, hr_window_units (self), error);
}

/* One page for a slide: verdict, chart, key settings, assumptions. */
gboolean
hr_window_export_report (HrWindow  *self,
                         GFile     *file,
                         GError   **error)
{
  g_autofree char *path = export_path (self, file, error);

  if (path == NULL)
    return FALSE;
  return hr_report_write_png (path, hr_scenario_model_get_scenario (self->model), self->plan,
                              hr_window_units (self), error);
}

gboolean
hr_window_export_csv (HrWindow  *self,
                      GFile     *file,
                      GError   **error)
{
  g_autofree char *path = export_path (self, file, error);
  g_autofree char *csv = NULL;

  if (path == NULL)
    return FALSE;
  csv = hr_view_to_csv (export_view (self));
  return hr_write_file_atomic (path, csv, strlen (csv), error);
}
