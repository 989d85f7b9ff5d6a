/* hr-frameworks.c: what a training framework does that changes memory
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each framework is the scenario values its code implies, so that choosing
 * "LitGPT" in the window or `--framework litgpt` plans what the measured
 * LitGPT runs were validated with (hr-measured.c applies the same list).
 * The profiles are data (presets/frameworks/ID.json, and the user's own
 * under $XDG_DATA_HOME/headroom/presets/frameworks): every value with the
 * file and function of the framework's code it was read from.
 */

#include "hr-frameworks.h"
#include "hr-json.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-text.h"
#include "hr-scenario-io.h"
#include "hr-validate.h"

/* The profiles read, in id order, and what was wrong with the others. */
static GPtrArray *loaded;     /* every profile, once listed; NULL until then */
static GPtrArray *problems;
/* The profiles hr_framework_find read one at a time before the list was
 * needed: the CLI's error bar names one framework, and reading all eight
 * (each checked by applying its values) was a third of its start-up. */
static GPtrArray *found_early;

void
hr_framework_free (HrFramework *f)
{
  if (f == NULL)
    return;
  g_free (f->id);
  g_free (f->name);
  g_free (f->summary);
  g_free (f->versions);
  g_free (f->path);
  g_strfreev (f->assignments);
  g_strfreev (f->sources);
  g_free (f);
}

static const char *
member_string (JsonObject *obj,
               const char *key)
{
  JsonNode *node = json_object_get_member (obj, key);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

/* One profile file: {"name", "summary", "versions", "values": [{"set":
 * "PATH=VALUE", "source": "..."}]}; every value is checked as --set
 * checks it, on the default scenario. */
HrFramework *
hr_framework_new_from_node (JsonNode    *root,
                            const char  *id,
                            const char  *path,
                            HrPresets   *presets,
                            GError     **error)
{
  static const char * const keys[] = { "name", "summary", "versions", "values", "notes", NULL };
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func (g_free);
  JsonObject *obj;
  JsonNode *values;
  HrScenario check;
  HrFramework *f;

  g_return_val_if_fail (root != NULL && id != NULL && path != NULL, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: the profile is not a JSON object; "
                   "allowed: an object"), path);
      return NULL;
    }
  obj = json_node_get_object (root);
  if (!hr_json_check_keys (obj, path, keys, error))
    return NULL;
  values = json_object_get_member (obj, "values");
  if (member_string (obj, "name") == NULL || values == NULL || !JSON_NODE_HOLDS_ARRAY (values))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: needs \"name\" (a string) and "
                   "\"values\" (an array of {\"set\": \"PATH=VALUE\", \"source\": ...})"),
                   path);
      return NULL;
    }
  hr_scenario_init_default (&check);
  for (guint i = 0; i < json_array_get_length (json_node_get_array (values)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (values), i);
      JsonObject *value = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
      const char *set = value != NULL ? member_string (value, "set") : NULL;
      const char *source = value != NULL ? member_string (value, "source") : NULL;
      g_autofree char *where = g_strdup_printf ("%s: values[%u]", path, i);

      if (set == NULL || source == NULL || *source == '\0')
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: allowed: {\"set\": "
                       "\"PATH=VALUE\", \"source\": where the framework's code does it}"), where);
          return NULL;
        }
      if (!hr_scenario_set (&check, set, presets, where, error))
        return NULL;
      g_ptr_array_add (sets, g_strdup (set));
      g_ptr_array_add (sources, g_strdup (source));
    }
  g_ptr_array_add (sets, NULL);
  g_ptr_array_add (sources, NULL);

  f = g_new0 (HrFramework, 1);
  f->id = g_strdup (id);
  f->name = g_strdup (member_string (obj, "name"));
  f->summary = g_strdup (member_string (obj, "summary") != NULL ? member_string (obj, "summary") : "");
  f->versions = g_strdup (member_string (obj, "versions") != NULL ? member_string (obj, "versions") : "");
  f->path = g_strdup (path);
  f->assignments = (char **) g_ptr_array_free (g_steal_pointer (&sets), FALSE);
  f->sources = (char **) g_ptr_array_free (g_steal_pointer (&sources), FALSE);
  return f;
}

static HrFramework *
read_profile (const HrPresetInfo  *info,
              HrPresets           *presets,
              GError             **error)
{
  g_autoptr(JsonNode) root = hr_presets_load (presets, HR_PRESET_FRAMEWORK, info->id, NULL, error);

  if (root == NULL)
    return NULL;
  return hr_framework_new_from_node (root, info->id, info->path, presets, error);
}

void
hr_frameworks_load (HrPresets *presets)
{
  g_autoptr(GPtrArray) list = NULL;

  g_clear_pointer (&loaded, g_ptr_array_unref);
  g_clear_pointer (&problems, g_ptr_array_unref);
  g_clear_pointer (&found_early, g_ptr_array_unref);
  loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_framework_free);
  problems = g_ptr_array_new_with_free_func (g_free);
  list = hr_presets_list (presets, HR_PRESET_FRAMEWORK);
  for (guint i = 0; i < list->len; i++)
    {
      g_autoptr(GError) error = NULL;
      HrFramework *f = read_profile (g_ptr_array_index (list, i), presets, &error);

      if (f != NULL)
        g_ptr_array_add (loaded, f);
      else
        g_ptr_array_add (problems, g_strdup (error->message));
    }
}

static GPtrArray *
frameworks (void)
{
  if (loaded == NULL)
    {
      g_autoptr(HrPresets) presets = hr_presets_new_default ();
      g_autoptr(GPtrArray) early = g_steal_pointer (&found_early);

      hr_frameworks_load (presets);
      /* A profile found early may be held by a caller: keep that copy,
       * the same file read the same way, in the list's place. */
      for (guint i = 0; early != NULL && i < early->len; i++)
        for (guint j = 0; j < loaded->len; j++)
          {
            HrFramework *f = g_ptr_array_index (loaded, j);

            if (strcmp (f->id, ((HrFramework *) g_ptr_array_index (early, i))->id) == 0)
              {
                hr_framework_free (f);
                g_ptr_array_index (loaded, j) = g_ptr_array_steal_index (early, i--);
                break;
              }
          }
    }
  return loaded;
}

/* Reads the one bundled or user profile ID, before the list is needed. */
static const HrFramework *
find_early (const char *id)
{
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autofree char *path = NULL;
  HrPresetInfo info;
  HrFramework *f;

  for (guint i = 0; found_early != NULL && i < found_early->len; i++)
    if (strcmp (((HrFramework *) g_ptr_array_index (found_early, i))->id, id) == 0)
      return g_ptr_array_index (found_early, i);
  path = hr_presets_find (presets, HR_PRESET_FRAMEWORK, id, NULL);
  if (path == NULL)
    return NULL;
  info = (HrPresetInfo) { .id = (char *) id, .name = NULL, .path = path };
  f = read_profile (&info, presets, NULL);
  if (f == NULL)
    return NULL;   /* the list, when it is read, says why */
  if (found_early == NULL)
    found_early = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_framework_free);
  g_ptr_array_add (found_early, f);
  return f;
}

/* Why profile ID, a file in the presets' folders, was left out; NULL
 * where there is no such file or it reads. */
char *
hr_framework_problem (const char *id)
{
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autoptr(HrFramework) f = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  HrPresetInfo info;

  g_return_val_if_fail (id != NULL, NULL);
  path = hr_presets_find (presets, HR_PRESET_FRAMEWORK, id, NULL);
  if (path == NULL)
    return NULL;
  info = (HrPresetInfo) { .id = (char *) id, .name = NULL, .path = path };
  f = read_profile (&info, presets, &error);
  return f == NULL && error != NULL ? g_strdup (error->message) : NULL;
}

GPtrArray *
hr_frameworks_problems (void)
{
  frameworks ();
  return problems;
}

guint
hr_frameworks_count (void)
{
  return frameworks ()->len;
}

const HrFramework *
hr_framework_get (guint index)
{
  g_return_val_if_fail (index < frameworks ()->len, NULL);
  return g_ptr_array_index (frameworks (), index);
}

const HrFramework *
hr_framework_find (const char *id)
{
  if (id != NULL && loaded == NULL)
    return find_early (id);
  for (guint i = 0; id != NULL && i < frameworks ()->len; i++)
    if (strcmp (((HrFramework *) g_ptr_array_index (frameworks (), i))->id, id) == 0)
      return g_ptr_array_index (frameworks (), i);
  return NULL;
}

char *
hr_frameworks_allowed (void)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < frameworks ()->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? ", " : "",
                            ((HrFramework *) g_ptr_array_index (frameworks (), i))->id);
  if (out->len == 0)
    g_string_append (out, "none installed");
  return g_string_free (out, FALSE);
}

gboolean
hr_framework_apply_json (const HrFramework *framework,
                         JsonObject        *root,
                         GError           **error)
{
  g_return_val_if_fail (framework != NULL && root != NULL, FALSE);

  for (guint i = 0; framework->assignments[i] != NULL; i++)
    if (!hr_json_set_path (root, framework->assignments[i], error))
      return FALSE;
  return TRUE;
}

gboolean
hr_framework_apply (const HrFramework *framework,
                    HrScenario        *scenario,
                    HrPresets         *presets,
                    GError           **error)
{
  HrScenario changed = *scenario;

  g_return_val_if_fail (framework != NULL && scenario != NULL, FALSE);

  /* Field by field on the struct, through the same table and checks as a
   * file's values, without a round trip through JSON text. */
  for (guint i = 0; framework->assignments[i] != NULL; i++)
    if (!hr_scenario_set (&changed, framework->assignments[i], presets, framework->id, error))
      return FALSE;
  hr_copy_string (changed.training.framework, sizeof changed.training.framework, framework->id);
  if (!hr_scenario_validate (&changed, error))
    {
      g_prefix_error (error, "%s: ", framework->id);
      return FALSE;
    }
  *scenario = changed;
  return TRUE;
}

gboolean
hr_framework_matches (const HrFramework *framework,
                      const HrScenario  *scenario)
{
  gboolean chosen = FALSE;

  /* Field by field: the drop-down asks after every change.  A value the
   * scenario's plan never reads does not count against it (a one-stage
   * run is torchtitan's whatever its pipeline buffers say), and one that
   * a file leaves out says nothing for it: a single-GPU run, where of
   * accelerate FSDP's values only zero_grad_to_none=true applies, is not
   * accelerate's. */
  for (guint i = 0; framework->assignments[i] != NULL; i++)
    {
      const char *assignment = framework->assignments[i];

      if (!hr_scenario_assignment_applies (scenario, assignment))
        continue;
      if (!hr_scenario_has_value (scenario, assignment))
        return FALSE;
      if (!hr_scenario_assignment_is_absent (assignment))
        chosen = TRUE;
    }
  return chosen;
}
