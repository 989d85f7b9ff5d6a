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
#include "hr-scenario-fields.h"
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
  for (guint i = 0; i < f->n_limits; i++)
    {
      g_free (f->limits[i].field);
      g_strfreev (f->limits[i].allowed);
      g_free (f->limits[i].why);
      g_free (f->limits[i].source);
    }
  g_free (f->limits);
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

/* A limit's values as --set writes them: JSON, a string bare. */
static char *
limit_value_text (JsonNode *value)
{
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (value));
  return json_to_string (value, FALSE);
}

/* "limits": [{"field": PATH, "allowed": [VALUE, ...], "why": "...",
 * "source": "..."}]: each field a scalar field of the table, each value
 * one it accepts, and every value of "values" for that field among them. */
static gboolean
read_limits (JsonObject   *obj,
             const char   *path,
             char        **assignments,
             HrPresets    *presets,
             HrFramework  *f,
             GError      **error)
{
  static const char * const keys[] = { "field", "allowed", "why", "source", NULL };
  JsonNode *limits = json_object_get_member (obj, "limits");
  guint n;

  if (limits == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (limits))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: limits: allowed: an array of "
                   "{\"field\", \"allowed\", \"why\", \"source\"}"), path);
      return FALSE;
    }
  n = json_array_get_length (json_node_get_array (limits));
  f->limits = g_new0 (HrFrameworkLimit, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (limits), i);
      JsonObject *limit = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
      const char *field = limit != NULL ? member_string (limit, "field") : NULL;
      const char *why = limit != NULL ? member_string (limit, "why") : NULL;
      const char *source = limit != NULL ? member_string (limit, "source") : NULL;
      JsonNode *allowed = limit != NULL ? json_object_get_member (limit, "allowed") : NULL;
      g_autofree char *where = g_strdup_printf ("%s: limits[%u]", path, i);
      g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
      gsize offset;

      if (limit != NULL && !hr_json_check_keys (limit, where, keys, error))
        return FALSE;
      if (field == NULL || why == NULL || *why == '\0' || source == NULL || *source == '\0'
          || allowed == NULL || !JSON_NODE_HOLDS_ARRAY (allowed)
          || json_array_get_length (json_node_get_array (allowed)) == 0)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: allowed: {\"field\": PATH, "
                       "\"allowed\": [its values], \"why\": one line, \"source\": where the "
                       "framework's code shows it}"), where);
          return FALSE;
        }
      if (hr_field_find (field, &offset) == NULL)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: field: \"%s\" is not allowed; "
                       "allowed: a scenario field (headroom-cli --list fields)"), where, field);
          return FALSE;
        }
      for (guint k = 0; k < json_array_get_length (json_node_get_array (allowed)); k++)
        {
          JsonNode *value = json_array_get_element (json_node_get_array (allowed), k);
          g_autofree char *text = limit_value_text (value);
          g_autofree char *assignment = g_strdup_printf ("%s=%s", field, text);
          g_autofree char *json = json_to_string (value, FALSE);
          g_autofree char *checked = g_strdup_printf ("%s=%s", field, json);
          HrScenario check;

          hr_scenario_init_default (&check);
          if (!JSON_NODE_HOLDS_VALUE (value)
              || !hr_scenario_set (&check, checked, presets, where, error))
            {
              if (error != NULL && *error == NULL)
                g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: allowed: an array of "
                             "the field's values"), where);
              return FALSE;
            }
          g_ptr_array_add (values, g_strdup (text));
        }
      g_ptr_array_add (values, NULL);
      f->limits[i].field = g_strdup (field);
      f->limits[i].allowed = (char **) g_ptr_array_free (g_steal_pointer (&values), FALSE);
      f->limits[i].why = g_strdup (why);
      f->limits[i].source = g_strdup (source);
      f->n_limits = i + 1;

      /* The profile's own value of the field must be one it can run. */
      for (guint a = 0; assignments[a] != NULL; a++)
        {
          gsize length = strlen (field);

          if (strncmp (assignments[a], field, length) == 0 && assignments[a][length] == '='
              && !g_strv_contains ((const char * const *) f->limits[i].allowed,
                                   assignments[a] + length + 1))
            {
              g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: \"%s\" sets a value its "
                           "limit does not allow"), where, assignments[a]);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* One profile file: {"name", "summary", "versions", "values": [{"set":
 * "PATH=VALUE", "source": "..."}], "limits": [...]}; every value is
 * checked as --set checks it, on the default scenario. */
HrFramework *
hr_framework_new_from_node (JsonNode    *root,
                            const char  *id,
                            const char  *path,
                            HrPresets   *presets,
                            GError     **error)
{
  static const char * const keys[] = { "name", "summary", "versions", "values", "limits",
                                       "notes", NULL };
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
  if (!read_limits (obj, path, f->assignments, presets, f, error))
    {
      hr_framework_free (f);
      return NULL;
    }
  /* Code changes between versions; a value holds for the ones read. */
  if (*f->versions == '\0')
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: versions: allowed: a string naming "
                   "the versions of the framework whose code the values were read from"), path);
      hr_framework_free (f);
      return NULL;
    }
  return f;
}

/* Profile ID from the first of its files that reads, the user's own
 * before the bundled one: a user's profile with a bad value is named and
 * skipped, not allowed to hide the bundled one.  The message of each file
 * skipped for a later one goes to SKIPPED (when not NULL); NULL, with the
 * first file's error, when none reads. */
static HrFramework *
read_profile (HrPresets   *presets,
              const char  *id,
              GPtrArray   *skipped,
              GError     **error)
{
  g_autoptr(GPtrArray) paths = hr_presets_find_all (presets, HR_PRESET_FRAMEWORK, id);
  g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      GError *local = NULL;
      g_autoptr(JsonNode) root = hr_presets_load_path (presets, path, &local);
      HrFramework *f = root != NULL ? hr_framework_new_from_node (root, id, path, presets, &local)
                                    : NULL;

      if (f == NULL)
        {
          g_ptr_array_add (failed, local);
          continue;
        }
      for (guint k = 0; skipped != NULL && k < failed->len; k++)
        g_ptr_array_add (skipped, g_strdup_printf (_("%s (skipped: %s is used)"),
                                                   ((GError *) g_ptr_array_index (failed, k))->message,
                                                   path));
      return f;
    }
  if (failed->len > 0)
    g_propagate_error (error, g_error_copy (g_ptr_array_index (failed, 0)));
  return NULL;
}

void
hr_frameworks_load (HrPresets *presets)
{
  g_auto(GStrv) ids = NULL;

  g_clear_pointer (&loaded, g_ptr_array_unref);
  g_clear_pointer (&problems, g_ptr_array_unref);
  g_clear_pointer (&found_early, g_ptr_array_unref);
  loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_framework_free);
  problems = g_ptr_array_new_with_free_func (g_free);
  /* Every file's id, those that do not parse too: they are named. */
  ids = hr_presets_ids (presets, HR_PRESET_FRAMEWORK);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      HrFramework *f = read_profile (presets, ids[i], problems, &error);

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
  HrFramework *f;

  for (guint i = 0; found_early != NULL && i < found_early->len; i++)
    if (strcmp (((HrFramework *) g_ptr_array_index (found_early, i))->id, id) == 0)
      return g_ptr_array_index (found_early, i);
  f = read_profile (presets, id, NULL, NULL);
  if (f == NULL)
    return NULL;   /* the list, when it is read, says why */
  if (found_early == NULL)
    found_early = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_framework_free);
  g_ptr_array_add (found_early, f);
  return f;
}

/* Why profile ID, a file in the presets' folders, was left out; NULL
 * where there is no such file or one of them reads. */
char *
hr_framework_problem (const char *id)
{
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autoptr(HrFramework) f = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (id != NULL, NULL);
  f = read_profile (presets, id, NULL, &error);
  return f == NULL && error != NULL ? g_strdup (error->message) : NULL;
}

/* Why the user's own profile of ID was skipped for another file of that
 * id, or NULL: the CLI names it beside a plan that used the other. */
char *
hr_framework_skipped (const char *id)
{
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(HrFramework) f = NULL;

  g_return_val_if_fail (id != NULL, NULL);
  if (*id == '\0')
    return NULL;
  f = read_profile (presets, id, skipped, NULL);
  return f != NULL && skipped->len > 0 ? g_strdup (g_ptr_array_index (skipped, 0)) : NULL;
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

/* Whether SC has one of the values LIMIT allows, or the field does not
 * apply to it (a run without sharding has no FSDP version). */
static gboolean
within_limit (const HrFrameworkLimit *limit,
              const HrScenario       *sc)
{
  g_autofree char *first = g_strdup_printf ("%s=%s", limit->field, limit->allowed[0]);

  if (!hr_scenario_assignment_applies (sc, first))
    return TRUE;
  for (guint k = 0; limit->allowed[k] != NULL; k++)
    {
      g_autofree char *assignment = g_strdup_printf ("%s=%s", limit->field, limit->allowed[k]);

      if (hr_scenario_has_value (sc, assignment))
        return TRUE;
    }
  return FALSE;
}

/* "none, full or op", as the names of an enum are listed (hr-enums.c). */
static char *
join_allowed (char **values)
{
  GString *out = g_string_new (NULL);
  guint n = g_strv_length (values);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", values[i]);
  return g_string_free (out, FALSE);
}

static gboolean
check_limits (const HrFramework *framework,
              const HrScenario  *sc,
              GError           **error)
{
  for (guint i = 0; i < framework->n_limits; i++)
    {
      const HrFrameworkLimit *limit = &framework->limits[i];
      g_autofree char *allowed = NULL;
      char value[64];
      gsize offset;
      const Field *field;

      if (within_limit (limit, sc))
        continue;
      field = hr_field_find (limit->field, &offset);
      hr_field_get_text (field, G_STRUCT_MEMBER_P (sc, offset), value, sizeof value);
      allowed = join_allowed (limit->allowed);
      hr_error_set_field (error, HR_ERROR_INVALID, limit->field,
                          _("%s does not apply to %s (training.framework): %s; allowed: %s"),
                          value, framework->name, limit->why, allowed);
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_framework_check (const HrScenario  *scenario,
                    GError           **error)
{
  const HrFramework *framework;

  g_return_val_if_fail (scenario != NULL, FALSE);
  if (scenario->training.framework[0] == '\0')
    return TRUE;
  framework = hr_framework_find (scenario->training.framework);
  return framework == NULL || check_limits (framework, scenario, error);
}

gboolean
hr_framework_allows (const HrScenario *trial,
                     gpointer          data)
{
  return hr_framework_check (trial, NULL);
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
  /* Chosen in the window, the framework wins over what it cannot run. */
  for (guint i = 0; i < framework->n_limits; i++)
    if (!within_limit (&framework->limits[i], &changed))
      {
        g_autofree char *assignment = g_strdup_printf ("%s=%s", framework->limits[i].field,
                                                       framework->limits[i].allowed[0]);

        if (!hr_scenario_set (&changed, assignment, presets, framework->id, error))
          return FALSE;
      }
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
  for (guint i = 0; i < framework->n_limits && chosen; i++)
    if (!within_limit (&framework->limits[i], scenario))
      return FALSE;
  return chosen;
}
