/* hr-form-dropdowns.c: the form's drop-downs of presets and frameworks
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Model and GPU drop-downs list the presets (the models grouped by
 * kind and family, hr-model-group.h) and apply the one chosen; the
 * Framework drop-down applies a profile (hr-frameworks.h).  Each shows
 * what the scenario has, "Custom" once a field it set is changed, and
 * ignores the changes it makes itself while it follows the scenario
 * (self->syncing).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-field-text.h"
#include "hr-form-private.h"
#include "hr-frameworks.h"
#include "hr-model-group.h"
#include "hr-scenario-io.h"

/* --- drop-downs ------------------------------------------------------------ */

/* A row with a drop-down of names, registered under path. */
static GtkDropDown *
dropdown_row (HrForm        *self,
              GtkWidget     *group,
              const char    *path,
              const char    *title,
              const char    *subtitle,
              GtkStringList *names,
              gboolean       search)
{
  GtkExpression *expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  GtkWidget *row = hr_form_action_row (title, subtitle);
  GtkWidget *dropdown = gtk_drop_down_new (G_LIST_MODEL (names), expression);

  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (dropdown), search);
  hr_form_wrap_drop_down (GTK_DROP_DOWN (dropdown));
  gtk_widget_set_valign (dropdown, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (dropdown), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), dropdown);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), dropdown);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  hr_form_register_row (self, path, row, dropdown);
  return GTK_DROP_DOWN (dropdown);
}

/* A model preset's place in the picker: its group, from its
 * architecture (a preset that does not load stays with the decoders),
 * its family, and its place in the list by id. */
typedef struct
{
  HrPresetInfo *info;
  HrModelGroup  group;
  char         *family;
  guint         index;
} PickerEntry;

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const PickerEntry *x = a, *y = b;
  int c;

  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  c = g_ascii_strcasecmp (x->family, y->family);
  if (c != 0)
    return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The model presets grouped by kind (decoder, MoE, encoder-decoder, ...)
 * and within a kind by family, each kind's first item headed by its
 * name. */
static void
append_model_presets (HrForm        *self,
                      GPtrArray     *list,
                      GtkStringList *names,
                      GPtrArray     *ids)
{
  g_autofree PickerEntry *entries = g_new0 (PickerEntry, MAX (list->len, 1));
  guint group = HR_N_MODEL_GROUPS;

  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      HrScenario sc;

      hr_scenario_init_default (&sc);
      entries[i].info = info;
      entries[i].group = hr_scenario_apply_model_preset (&sc, info->id, self->presets, NULL)
                         ? hr_model_group (&sc.model) : HR_MODEL_GROUP_DECODER;
      entries[i].family = hr_model_family (info->id, info->name);
      entries[i].index = i;
    }
  qsort (entries, list->len, sizeof *entries, compare_entries);
  for (guint i = 0; i < list->len; i++)
    {
      gtk_string_list_append (names, entries[i].info->name);
      g_ptr_array_add (ids, g_strdup (entries[i].info->id));
      if (entries[i].group != group)
        {
          g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (names), ids->len - 1);

          group = entries[i].group;
          g_object_set_data_full (item, HR_FORM_SECTION,
                                  g_strdup (_(hr_model_group_label (group))), g_free);
        }
      g_free (entries[i].family);
    }
}

static void
on_preset_chosen (GtkDropDown *dropdown,
                  GParamSpec  *pspec,
                  HrForm      *self)
{
  gboolean is_model = dropdown == self->model_preset;
  GPtrArray *ids = is_model ? self->model_ids : self->gpu_ids;
  guint index = gtk_drop_down_get_selected (dropdown);
  HrScenario sc = *hr_scenario_model_get_scenario (self->model);
  g_autoptr(GError) error = NULL;
  const char *id;

  if (self->syncing || index == 0 || index >= ids->len)
    return;   /* "Custom" is what editing a field makes, not a choice */
  id = g_ptr_array_index (ids, index);
  if (is_model)
    hr_scenario_apply_model_preset (&sc, id, self->presets, &error);
  else
    hr_scenario_apply_gpu_preset (&sc, id, self->presets, &error);
  if (error != NULL)
    {
      g_autofree char *message = hr_field_text_for_error (error);

      hr_form_show_error (self, is_model ? "model.preset" : "gpu.preset", message);
      hr_form_sync_presets (self);
      return;
    }
  hr_scenario_model_set_scenario (self->model, &sc);
}

/* Every preset of a kind after the custom choice, into names and ids. */
static void
list_presets (HrForm        *self,
              HrPresetKind   kind,
              const char    *custom,
              GtkStringList *names,
              GPtrArray     *ids)
{
  g_autoptr(GPtrArray) list = hr_presets_list (self->presets, kind);

  gtk_string_list_append (names, custom);
  g_ptr_array_add (ids, g_strdup (""));
  if (kind == HR_PRESET_MODEL)
    append_model_presets (self, list, names, ids);
  else
    for (guint i = 0; i < list->len; i++)
      {
        HrPresetInfo *info = g_ptr_array_index (list, i);

        gtk_string_list_append (names, info->name);
        g_ptr_array_add (ids, g_strdup (info->id));
      }
}

/* The model drop-down starts with the custom choice and the scenario's
 * own preset only: reading all the model presets (59 files) and grouping
 * them was a twentieth of the window's first frame, for a list nobody
 * can open before it is drawn (tests/bench-map.c).  The whole list
 * comes once the first frame is drawn (hr-form-lazy.c), or as soon as
 * something needs it (hr_form_fill_model_presets). */
static void
list_scenario_model (HrForm        *self,
                     const char    *custom,
                     GtkStringList *names,
                     GPtrArray     *ids)
{
  const char *id = hr_scenario_model_get_scenario (self->model)->model.preset;
  g_autofree char *name = hr_presets_name (self->presets, HR_PRESET_MODEL, id);

  gtk_string_list_append (names, custom);
  g_ptr_array_add (ids, g_strdup (""));
  if (name != NULL)
    {
      gtk_string_list_append (names, name);
      g_ptr_array_add (ids, g_strdup (id));
    }
  self->model_list_partial = TRUE;
}

GtkDropDown *
hr_form_preset_dropdown (HrForm       *self,
                 GtkWidget    *group,
                 HrPresetKind  kind,
                 const char   *path,
                 const char   *title,
                 const char   *custom,
                 GPtrArray   **out_ids)
{
  GtkStringList *names = gtk_string_list_new (NULL);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  GtkDropDown *dropdown;

  if (kind == HR_PRESET_MODEL)
    list_scenario_model (self, custom, names, ids);
  else
    list_presets (self, kind, custom, names, ids);

  *out_ids = ids;
  dropdown = dropdown_row (self, group, path, title, NULL, names, TRUE);
  if (kind == HR_PRESET_MODEL)
    {
      g_autoptr(GtkListItemFactory) sections = hr_form_section_factory ();

      gtk_drop_down_set_list_factory (dropdown, sections);
    }
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_preset_chosen), self);
  return dropdown;
}

/* Puts every model preset in the model drop-down, once. */
void
hr_form_fill_model_presets (HrForm *self)
{
  GtkStringList *names;
  GPtrArray *ids;

  if (!self->model_list_partial || self->model_preset == NULL)
    return;
  self->model_list_partial = FALSE;
  names = gtk_string_list_new (NULL);
  ids = g_ptr_array_new_with_free_func (g_free);
  list_presets (self, HR_PRESET_MODEL, _("Custom model"), names, ids);
  self->syncing = TRUE;   /* the new list selects its first item */
  g_ptr_array_unref (self->model_ids);
  self->model_ids = ids;
  gtk_drop_down_set_model (self->model_preset, G_LIST_MODEL (names));
  g_object_unref (names);
  self->syncing = FALSE;
  hr_form_sync_presets (self);
}

static guint
index_of_id (GPtrArray  *ids,
             const char *id)
{
  for (guint i = 1; i < ids->len; i++)
    if (g_strcmp0 (g_ptr_array_index (ids, i), id) == 0)
      return i;
  return 0;
}

void
hr_form_sync_presets (HrForm *self)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);

  /* A preset the short first list does not have needs the whole list. */
  if (self->model_list_partial && sc->model.preset[0] != '\0'
      && index_of_id (self->model_ids, sc->model.preset) == 0)
    {
      hr_form_fill_model_presets (self);
      return;   /* which syncs */
    }
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->model_preset, index_of_id (self->model_ids, sc->model.preset));
  if (self->gpu_preset != NULL)   /* built after the first frame */
    gtk_drop_down_set_selected (self->gpu_preset, index_of_id (self->gpu_ids, sc->gpu.preset));
  self->syncing = FALSE;
}

/* --- the framework drop-down ------------------------------------------------ */

/* Shows the framework whose values the scenario has, or "Custom".  A
 * scenario that names one (training.framework) shows it while it has its
 * values, else "Custom": several profiles can match one scenario
 * (DeepSpeed's and Hugging Face's under the Trainer with DeepSpeed), and
 * the one the user chose is the one to show.  One that names none shows
 * the first profile it matches. */
gboolean
hr_form_sync_framework (gpointer user_data)
{
  HrForm *self = user_data;
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  gboolean named = sc->training.framework[0] != '\0';
  guint index = 0;

  self->framework_idle = 0;
  for (guint i = 0; i < hr_frameworks_count () && index == 0; i++)
    if ((!named || g_str_equal (hr_framework_get (i)->id, sc->training.framework))
        && (hr_framework_matches (hr_framework_get (i), sc)
            || (named && !hr_framework_check (sc, NULL))))
      index = i + 1;   /* one it cannot run stays shown, for "Custom" to leave */
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->framework, index);
  self->syncing = FALSE;
  /* What the profile says of itself, and the versions it was read from. */
  if (index > 0)
    {
      const HrFramework *f = hr_framework_get (index - 1);
      g_autofree char *tip = g_strdup_printf (_("%s\nRead from: %s"), f->summary, f->versions);

      gtk_widget_set_tooltip_text (GTK_WIDGET (self->framework), tip);
    }
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->framework), NULL);
  return G_SOURCE_REMOVE;
}

static void
on_framework_chosen (GtkDropDown *dropdown,
                     GParamSpec  *pspec,
                     HrForm      *self)
{
  guint index = gtk_drop_down_get_selected (dropdown);
  HrScenario sc = *hr_scenario_model_get_scenario (self->model);
  g_autoptr(GError) error = NULL;

  if (self->syncing || index > hr_frameworks_count ())
    return;
  if (index == 0)
    {
      /* "Custom" is what changing one of its fields shows; chosen, it
       * leaves the framework, with the values it set. */
      if (sc.training.framework[0] != '\0')
        {
          sc.training.framework[0] = '\0';
          hr_scenario_model_set_scenario (self->model, &sc);
        }
      return;
    }
  if (!hr_framework_apply (hr_framework_get (index - 1), &sc, self->presets, &error))
    {
      g_autofree char *message = hr_field_text_for_error (error);

      hr_form_show_error (self, "training.method", message);
      hr_form_sync_framework (self);
      return;
    }
  hr_scenario_model_set_scenario (self->model, &sc);
}

void
hr_form_add_framework_row (HrForm    *self,
                           GtkWidget *group)
{
  GtkStringList *names = gtk_string_list_new (NULL);

  gtk_string_list_append (names, _("Custom"));
  for (guint i = 0; i < hr_frameworks_count (); i++)
    gtk_string_list_append (names, _(hr_framework_get (i)->name));
  self->framework = dropdown_row (self, group, "training.framework", _("Framework"),
                                  _("Sets what its code does to memory"), names, FALSE);
  hr_form_sync_framework (self);
  g_signal_connect (self->framework, "notify::selected", G_CALLBACK (on_framework_chosen), self);
}
