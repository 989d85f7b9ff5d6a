/* hr-scenario-set.c: --set PATH=VALUE on a scenario document
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command line changes the JSON before it is read, so a value given
 * with --set goes through exactly the checks a file's value does.  The
 * same assignments can be checked against a read scenario, one field at a
 * time (hr_scenario_has_value), where the field applies to it
 * (hr_scenario_assignment_applies).
 */

#include "hr-scenario-io.h"
#include "hr-error.h"
#include "hr-fields-read.h"

#include "hr-json.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The deepest scenario path is three keys (training.lora.rank); a few
 * more leave room for new sections without letting 60 000 dots build a
 * tree that the reader would recurse through. */
#define MAX_PATH_KEYS 8

/* VALUE as JSON when it is strict JSON (within the depth limit), else as
 * the string it is: --set name=Llama needs no quotes. */
static JsonNode *
parse_set_value (const char *text)
{
  JsonNode *value = hr_json_load_data (text, -1, "--set", NULL);

  if (value == NULL)
    {
      g_autofree char *valid = g_utf8_make_valid (text, -1);

      value = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (value, valid);
    }
  return value;
}

/* PATH of "PATH=VALUE", split at its dots and checked: keys of letters,
 * digits and '_', at most MAX_PATH_KEYS of them.  ORIGIN names where the
 * assignment came from ("--set", a profile file's value). */
static GStrv
split_assignment (const char  *assignment,
                  const char  *origin,
                  const char **value,
                  GError     **error)
{
  const char *eq = strchr (assignment, '=');
  g_autofree char *path = NULL;
  g_auto(GStrv) parts = NULL;
  guint n;

  if (eq == NULL || eq == assignment)
    {
      g_autofree char *shown = hr_text_for_message (assignment, 60);

      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: \"%s\" is not allowed; "
                   "allowed: PATH=VALUE, e.g. training.micro_batch=8"), origin, shown);
      return NULL;
    }
  path = g_strndup (assignment, eq - assignment);
  parts = g_strsplit (path, ".", MAX_PATH_KEYS + 1);
  n = g_strv_length (parts);
  if (n > MAX_PATH_KEYS)
    {
      g_autofree char *shown = hr_text_for_message (path, 60);

      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: \"%s\" has more than %d keys; "
                   "allowed: keys joined by dots, e.g. training.lora.rank"), origin, shown,
                   MAX_PATH_KEYS);
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      const char *p = parts[i];
      gboolean ok = *p != '\0' && strlen (p) < 64;

      for (; ok && *p; p++)
        ok = g_ascii_isalnum (*p) || *p == '_';
      if (!ok)
        {
          g_autofree char *shown = hr_text_for_message (path, 60);

          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: \"%s\" is not a path; "
                       "allowed: keys joined by dots, e.g. parallel.zero"), origin, shown);
          return NULL;
        }
    }
  *value = eq + 1;
  return g_steal_pointer (&parts);
}

gboolean
hr_json_set_path (JsonObject  *root,
                  const char  *assignment,
                  GError     **error)
{
  g_auto(GStrv) parts = NULL;
  JsonObject *obj = root;
  JsonNode *value;
  const char *text;
  guint n;

  parts = split_assignment (assignment, "--set", &text, error);
  if (parts == NULL)
    return FALSE;
  n = g_strv_length (parts);

  value = parse_set_value (text);

  for (guint i = 0; i + 1 < n; i++)
    {
      JsonNode *child = json_object_get_member (obj, parts[i]);

      if (child == NULL || !JSON_NODE_HOLDS_OBJECT (child))
        {
          json_object_set_object_member (obj, parts[i], json_object_new ());
          child = json_object_get_member (obj, parts[i]);
        }
      obj = json_node_get_object (child);
    }

  /* Choosing a preset starts that section from the preset. */
  if (n == 2 && strcmp (parts[1], "preset") == 0
      && (strcmp (parts[0], "model") == 0 || strcmp (parts[0], "gpu") == 0))
    {
      g_autoptr(GList) members = json_object_get_members (obj);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_remove_member (obj, l->data);
    }

  json_object_set_member (obj, parts[n - 1], value);
  return TRUE;
}

/* The field a scalar path names, and the struct it lives in. */
static const Field *
find_field (HrScenario  *scenario,
            const char  *path,
            gpointer    *base)
{
  gsize offset;
  const Field *field = hr_field_find (path, &offset);

  if (field == NULL)
    return NULL;
  *base = G_STRUCT_MEMBER_P (scenario, offset);
  return field;
}

/* Whether the assignment's field counts for this scenario: a value a plan
 * never reads (the pipeline's buffers on one stage, the fp8 recipe in a
 * bf16 run) tells nothing about which framework the scenario follows. */
gboolean
hr_scenario_assignment_applies (const HrScenario *scenario,
                                const char       *assignment)
{
  const char *eq = strchr (assignment, '=');
  g_autofree char *path = NULL;
  const Field *field;
  gsize offset;

  g_return_val_if_fail (scenario != NULL && assignment != NULL, FALSE);
  if (eq == NULL)
    return TRUE;
  path = g_strndup (assignment, eq - assignment);
  field = hr_field_find (path, &offset);
  return field == NULL || field->applies == NULL || field->applies (scenario);
}

/* Reads PATH=VALUE's value into SCENARIO, as the reader would; its field
 * (and where the field's struct is in BASE), or NULL for a path that is
 * not a scalar field or a value it does not accept. */
static const Field *
read_assignment (HrScenario *scenario,
                 const char *assignment,
                 gpointer   *base)
{
  const char *eq = strchr (assignment, '=');
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) value = NULL;
  const Field *field;

  if (eq == NULL)
    return NULL;
  path = g_strndup (assignment, eq - assignment);
  field = find_field (scenario, path, base);
  if (field == NULL)
    return NULL;
  value = parse_set_value (eq + 1);
  return hr_fields_read_field (field, *base, value, "", path, NULL) ? field : NULL;
}

/* Whether PATH=VALUE is what a file leaves out: an optional field at its
 * absent value (zero_grad_to_none=true, pp_buffers=none). */
gboolean
hr_scenario_assignment_is_absent (const char *assignment)
{
  HrScenario scratch;
  const Field *field;
  gpointer base;

  g_return_val_if_fail (assignment != NULL, FALSE);
  memset (&scratch, 0, sizeof scratch);
  field = read_assignment (&scratch, assignment, &base);
  return field != NULL && hr_field_is_absent (field, base);
}

gboolean
hr_scenario_has_value (const HrScenario *scenario,
                       const char       *assignment)
{
  HrScenario changed;
  gpointer base;

  g_return_val_if_fail (scenario != NULL && assignment != NULL, FALSE);
  /* Read the value into a copy, as the reader would, and compare. */
  changed = *scenario;
  return read_assignment (&changed, assignment, &base) != NULL
         && memcmp (&changed, scenario, sizeof changed) == 0;
}

/* Sets one field of a read scenario, as --set does to a file, without
 * writing the scenario out and reading it back: a preset id applies the
 * preset, training.lora.targets takes names, a dtype marks the recipe
 * overridden, the precision refills the dtypes not overridden.  The
 * caller validates the result (hr_scenario_validate) once all are set. */
gboolean
hr_scenario_set (HrScenario  *scenario,
                 const char  *assignment,
                 HrPresets   *presets,
                 const char  *origin,
                 GError     **error)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *path = NULL;
  const char *text;
  const Field *field;
  gpointer base;

  g_return_val_if_fail (scenario != NULL && assignment != NULL, FALSE);

  parts = split_assignment (assignment, origin, &text, error);
  if (parts == NULL)
    return FALSE;
  path = g_strjoinv (".", parts);
  value = parse_set_value (text);

  if (strcmp (path, "model.preset") == 0 || strcmp (path, "gpu.preset") == 0)
    {
      gboolean model = path[0] == 'm';
      g_autoptr(GError) local = NULL;

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          hr_error_set_field_in (error, HR_ERROR_TYPE, origin, path, _("allowed: a preset id"));
          return FALSE;
        }
      if (model ? hr_scenario_apply_model_preset (scenario, json_node_get_string (value),
                                                   presets, &local)
                : hr_scenario_apply_gpu_preset (scenario, json_node_get_string (value),
                                                 presets, &local))
        return TRUE;
      /* "nope" is not a known preset: say whose value it is */
      hr_error_set_field_in (error, local->code, origin, path, "%s", local->message);
      return FALSE;
    }
  if (strcmp (path, "training.lora.targets") == 0)
    return hr_fields_read_lora_targets (&scenario->training, value, origin, error);
  if (strcmp (path, "parallel.stage_layers") == 0)
    return hr_fields_read_stage_layers (&scenario->parallel, value, origin, error);
  if (strcmp (path, "name") == 0 && JSON_NODE_HOLDS_VALUE (value)
      && json_node_get_value_type (value) == G_TYPE_STRING)
    {
      hr_copy_string (scenario->name, sizeof scenario->name, json_node_get_string (value));
      return TRUE;
    }

  field = find_field (scenario, path, &base);
  if (field == NULL)
    {
      g_autofree char *shown = hr_text_for_message (path, 60);

      hr_error_set_field_in (error, HR_ERROR_UNKNOWN_KEY, origin, shown, _("unknown key; "
                             "allowed: a field `headroom-cli --list fields` prints"));
      return FALSE;
    }
  if (!hr_fields_read_field (field, base, value, origin, path, error))
    return FALSE;
  if (g_str_has_prefix (path, "training.dtypes."))
    scenario->training.dtypes_set |= 1u << (guint) (field - hr_dtype_fields);
  if (strcmp (path, "training.precision") == 0 || g_str_has_prefix (path, "training.dtypes."))
    hr_training_apply_precision (&scenario->training);
  return TRUE;
}
