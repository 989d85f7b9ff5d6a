/* hr-preferences.c: the Preferences window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Units (GiB or GB), the GPU a new scenario starts with, and the style;
 * each bound to its GSettings key.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "hr-preferences.h"
#include "hr-presets.h"

typedef struct
{
  const char * const *values;
} Choices;

static gboolean
get_choice (GValue   *value,
            GVariant *variant,
            gpointer  user_data)
{
  const char * const *values = user_data;
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; values[i] != NULL; i++)
    if (g_strcmp0 (values[i], s) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
set_choice (const GValue       *value,
            const GVariantType *type,
            gpointer            user_data)
{
  const char * const *values = user_data;
  guint i = g_value_get_uint (value);

  if (i >= g_strv_length ((char **) values))
    return NULL;
  return g_variant_new_string (values[i]);
}

/* A combo row over labels whose selection stores values[i] in key. */
static GtkWidget *
choice_row (GSettings          *settings,
            const char         *key,
            const char         *title,
            const char         *subtitle,
            const char * const *labels,
            const char * const *values)
{
  GtkWidget *row = adw_combo_row_new ();
  GtkStringList *list = gtk_string_list_new (labels);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (list));
  g_object_unref (list);
  g_settings_bind_with_mapping (settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_choice, set_choice, (gpointer) values, NULL);
  return row;
}

GtkWidget *
hr_preferences_new (GtkWindow *parent)
{
  static const char *unit_values[] = { "gib", "gb", NULL };
  static const char *scheme_values[] = { "default", "light", "dark", NULL };
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autoptr(GPtrArray) gpus = hr_presets_list (presets, HR_PRESET_GPU);
  const char *unit_labels[] = { _("GiB (2³⁰ bytes, as nvidia-smi counts)"),
                                _("GB (10⁹ bytes, as marketing sizes)"), NULL };
  const char *scheme_labels[] = { _("Follow the system"), _("Light"), _("Dark"), NULL };
  GtkWidget *window = adw_preferences_window_new ();
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *group = adw_preferences_group_new ();
  GStrvBuilder *ids = g_strv_builder_new ();
  GStrvBuilder *names = g_strv_builder_new ();
  GStrv gpu_ids, gpu_names;

  for (guint i = 0; i < gpus->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (gpus, i);

      g_strv_builder_add (ids, info->id);
      g_strv_builder_add (names, info->name);
    }
  gpu_ids = g_strv_builder_end (ids);
  gpu_names = g_strv_builder_end (names);
  g_strv_builder_unref (ids);
  g_strv_builder_unref (names);
  /* The ids live as long as the window that maps them. */
  g_object_set_data_full (G_OBJECT (window), "gpu-ids", gpu_ids, (GDestroyNotify) g_strfreev);
  g_object_set_data_full (G_OBJECT (window), "gpu-names", gpu_names, (GDestroyNotify) g_strfreev);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Planning"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             choice_row (settings, "units", _("Units"),
                                         _("How sizes are shown and exported as PNG"),
                                         unit_labels, unit_values));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             choice_row (settings, "default-gpu", _("Default GPU"),
                                         _("The GPU a new scenario starts with"),
                                         (const char * const *) gpu_names,
                                         (const char * const *) gpu_ids));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));

  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Appearance"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             choice_row (settings, "color-scheme", _("Style"), NULL,
                                         scheme_labels, scheme_values));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (window), ADW_PREFERENCES_PAGE (page));
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  return window;
}
