/* hr-scenario-reader.c: scenario files in (CONTRACT.md section 1)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Strict on purpose: an unknown key is a typo the user must hear about,
 * a value of the wrong type or out of range names the path, the value and
 * what is allowed.  Each section is read through a table of its fields.
 */

#include "hr-scenario-io.h"
#include "hr-error.h"
#include "hr-text.h"
#include "hr-json.h"
#include "hr-validate.h"
#include "hr-frameworks.h"
#include "hr-scenario-name.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "hr-fields-read.h"

/* A preset id member ("model.preset"), or NULL when absent. */
static gboolean
read_preset_id (JsonObject   *obj,
                const char   *origin,
                const char   *path,
                const char  **out_id,
                GError      **error)
{
  JsonNode *node = json_object_get_member (obj, "preset");

  *out_id = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING
      || !hr_preset_id_is_valid (json_node_get_string (node)))
    {
      g_autofree char *value = hr_fields_describe_node (node);

      FAIL_AT (HR_ERROR_TYPE, path, _("%s is not allowed; allowed: a preset id (lower-case "
               "letters, digits, '.', '_', '-')"), value);
    }
  *out_id = json_node_get_string (node);
  return TRUE;
}

typedef gboolean (*ApplyPresetFunc) (HrScenario  *scenario,
                                     const char  *id,
                                     HrPresets   *presets,
                                     GError     **error);

/* The section's "preset" member, applied first so the section's other
 * members override it; *out_id is NULL when there is none. */
static gboolean
apply_preset_member (HrScenario       *sc,
                     JsonObject       *obj,
                     const char       *origin,
                     const char       *section,
                     ApplyPresetFunc   apply,
                     HrPresets        *presets,
                     const char      **out_id,
                     GError          **error)
{
  g_autofree char *path = g_strconcat (section, ".preset", NULL);
  g_autoptr(GError) local = NULL;

  if (!read_preset_id (obj, origin, path, out_id, error))
    return FALSE;
  if (*out_id == NULL || apply (sc, *out_id, presets, &local))
    return TRUE;
  if (local->code == HR_ERROR_NOT_FOUND)
    FAIL_AT (HR_ERROR_NOT_FOUND, path, "%s", local->message);
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
hr_scenario_apply_model_preset (HrScenario  *scenario,
                                const char  *id,
                                HrPresets   *presets,
                                GError     **error)
{
  g_autofree char *origin = NULL;
  g_autoptr(JsonNode) node = hr_presets_load (presets, HR_PRESET_MODEL, id, &origin, error);

  if (node == NULL)
    return FALSE;
  return hr_scenario_apply_model_preset_node (scenario, node, origin, id, error);
}

/* Whether path is the model's or one of its fields' ("model.hidden"). */
static gboolean
is_model_field (const char *path)
{
  return path != NULL && (strcmp (path, "model") == 0 || g_str_has_prefix (path, "model."));
}

/* A model preset file's content: {"model": {...}, "source": ..., "notes": ...}. */
gboolean
hr_scenario_apply_model_preset_node (HrScenario  *scenario,
                                     JsonNode    *node,
                                     const char  *origin,
                                     const char  *id,
                                     GError     **error)
{
  JsonObject *obj, *model;
  static const char * const top_keys[] = { "model", "source", "notes", NULL };
  HrScenario check;
  g_autoptr(GError) local = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: the preset is not a JSON object; "
                   "allowed: an object"), origin);
      return FALSE;
    }
  obj = json_node_get_object (node);
  if (!hr_json_check_keys (obj, origin, top_keys, error))
    return FALSE;
  model = hr_fields_member_object (obj, "model", origin, "model", error);
  if (model == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: model: missing; allowed: "
                     "an object with the architecture"), origin);
      return FALSE;
    }

  check = *scenario;
  hr_model_arch_init_blank (&check.model);
  if (!hr_fields_read_section (model, hr_model_fields, hr_model_fields_count, &check.model,
                     origin, "model", NULL, NULL, error))
    return FALSE;
  hr_copy_string (check.model.preset, sizeof check.model.preset, id);
  if (check.model.name[0] == '\0')
    hr_copy_string (check.model.name, sizeof check.model.name, id);

  /* A broken preset is the preset's fault: say so, with its file name. */
  if (!hr_scenario_validate (&check, &local) && is_model_field (hr_error_field (local)))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", origin, local->message);
      return FALSE;
    }

  scenario->model = check.model;
  hr_scenario_fit_model_lengths (scenario);
  return TRUE;
}

gboolean
hr_scenario_apply_gpu_preset (HrScenario  *scenario,
                              const char  *id,
                              HrPresets   *presets,
                              GError     **error)
{
  g_autofree char *origin = NULL;
  g_autoptr(JsonNode) node = hr_presets_load (presets, HR_PRESET_GPU, id, &origin, error);

  if (node == NULL)
    return FALSE;
  return hr_scenario_apply_gpu_preset_node (scenario, node, origin, id, error);
}

/* A GPU preset file's content: {"name", "memory_mib", "source"}. */
gboolean
hr_scenario_apply_gpu_preset_node (HrScenario  *scenario,
                                   JsonNode    *node,
                                   const char  *origin,
                                   const char  *id,
                                   GError     **error)
{
  HrGpu gpu = { 0 };
  HrFieldMask read = { { 0 } };
  g_autoptr(GError) local = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: the preset is not a JSON object; "
                   "allowed: an object"), origin);
      return FALSE;
    }
  /* What the preset leaves out is the field's default, not the previous
   * GPU's value. */
  for (guint i = 0; i < hr_gpu_fields_count; i++)
    if (hr_gpu_fields[i].flags & HR_FIELD_OPTIONAL)
      hr_field_set_absent (&hr_gpu_fields[i], &gpu);
  /* The file's keys are at its top, so messages name them bare. */
  if (!hr_fields_read_section (json_node_get_object (node), hr_gpu_fields, hr_gpu_fields_count,
                     &gpu, origin, "", NULL, &read, error))
    return FALSE;
  if (!hr_field_mask_has (&read, 0) || !hr_field_mask_has (&read, 1))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: name and memory_mib are "
                   "required; allowed: {\"name\": ..., \"memory_mib\": 1 or more, "
                   "\"source\": ...}"), origin);
      return FALSE;
    }
  /* An absurd preset is the preset's fault, not the scenario's that
   * names it: say so, with its file name. */
  if (!hr_gpu_validate (&gpu, "", &local))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", origin, local->message);
      return FALSE;
    }
  hr_copy_string (gpu.preset, sizeof gpu.preset, id);
  scenario->gpu = gpu;
  return TRUE;
}

/* A custom model (architecture keys, no model.preset) takes the keys it
 * does not give from the default model: which those are, and that
 * model's id, so a message can say where a value the user never wrote
 * came from. */
typedef struct
{
  HrFieldMask inherited;   /* row i: hr_model_fields[i] */
  char  from[HR_ID_MAX];
} Inherited;

static gboolean
read_model (HrScenario  *sc,
            JsonObject  *obj,
            const char  *origin,
            HrPresets   *presets,
            Inherited   *inherited,
            GError     **error)
{
  static const char * const skip[] = { "preset", NULL };
  const char *id;
  HrFieldMask read = { { 0 } };

  if (!apply_preset_member (sc, obj, origin, "model", hr_scenario_apply_model_preset, presets,
                            &id, error))
    return FALSE;
  /* Without a preset, the architecture's base fields not given come from
   * the default model, but the fields derived from others (head_dim from
   * hidden/heads, the expert width, the extensions) start neutral, so a
   * custom model never inherits Llama 2's head size.  A name alone
   * renames the default model and makes no custom one. */
  if (id == NULL && json_object_get_size (obj) > (json_object_has_member (obj, "name") ? 1u : 0u))
    for (guint i = 0; i < hr_model_fields_count; i++)
      if (hr_model_fields[i].flags & HR_FIELD_OPTIONAL)
        hr_field_set_absent (&hr_model_fields[i], &sc->model);
  if (!hr_fields_read_section (obj, hr_model_fields, hr_model_fields_count, &sc->model,
                     origin, "model", (const char **) skip, &read, error))
    return FALSE;

  /* Architecture keys without a preset describe a custom model. */
  if (id == NULL && hr_field_mask_any_from (&read, 1))
    {
      hr_copy_string (inherited->from, sizeof inherited->from, sc->model.preset);
      for (guint i = 0; i < hr_model_fields_count; i++)
        if (!hr_field_mask_has (&read, i) && hr_model_fields[i].kind != F_NAME
            && !(hr_model_fields[i].flags & HR_FIELD_OPTIONAL))
          hr_field_mask_add (&inherited->inherited, i);
      sc->model.preset[0] = '\0';
      if (!hr_field_mask_has (&read, 0))
        hr_copy_string (sc->model.name, sizeof sc->model.name, "Custom model");
    }
  return TRUE;
}

static gboolean
read_training (HrScenario  *sc,
               JsonObject  *obj,
               const char  *origin,
               GError     **error)
{
  static const char * const skip[] = { "lora", "dtypes", NULL };
  HrTraining *t = &sc->training;
  JsonObject *sub;

  if (!hr_fields_read_section (obj, hr_training_fields, hr_training_fields_count, t,
                     origin, "training", (const char **) skip, NULL, error))
    return FALSE;

  sub = hr_fields_member_object (obj, "lora", origin, "training.lora", error);
  if (sub == NULL && error != NULL && *error != NULL)
    return FALSE;
  if (sub != NULL)
    {
      static const char * const lora_skip[] = { "targets", NULL };

      if (!hr_fields_read_section (sub, hr_lora_fields, hr_lora_fields_count, &t->lora, origin,
                         "training.lora", (const char **) lora_skip, NULL, error))
        return FALSE;
      if (json_object_has_member (sub, "targets")
          && !hr_fields_read_lora_targets (t, json_object_get_member (sub, "targets"), origin, error))
        return FALSE;
    }

  sub = hr_fields_member_object (obj, "dtypes", origin, "training.dtypes", error);
  if (sub == NULL && error != NULL && *error != NULL)
    return FALSE;
  if (sub != NULL)
    {
      HrFieldMask read = { { 0 } };

      if (!hr_fields_read_section (sub, hr_dtype_fields, hr_dtype_fields_count, &t->dtypes,
                         origin, "training.dtypes", NULL, &read, error))
        return FALSE;
      t->dtypes_set |= (guint) read.words[0];   /* five fields */
    }
  hr_training_apply_precision (t);
  return TRUE;
}

static gboolean
read_gpu (HrScenario  *sc,
          JsonObject  *obj,
          const char  *origin,
          HrPresets   *presets,
          GError     **error)
{
  static const char * const skip[] = { "preset", NULL };
  const char *id;
  HrFieldMask read = { { 0 } };

  if (!apply_preset_member (sc, obj, origin, "gpu", hr_scenario_apply_gpu_preset, presets,
                            &id, error))
    return FALSE;
  if (!hr_fields_read_section (obj, hr_gpu_fields, hr_gpu_fields_count, &sc->gpu, origin,
                     "gpu", (const char **) skip, &read, error))
    return FALSE;
  if (id == NULL && hr_field_mask_any_from (&read, 0))
    {
      sc->gpu.preset[0] = '\0';
      if (!hr_field_mask_has (&read, 0))
        hr_copy_string (sc->gpu.name, sizeof sc->gpu.name, "Custom GPU");
    }
  return TRUE;
}

/* Whether model.KEY (KEY of LEN bytes) came from the default model. */
static gboolean
inherited_key (const char      *key,
               gsize            len,
               const Inherited *inherited)
{
  for (guint i = 0; len > 0 && i < hr_model_fields_count; i++)
    if (hr_field_mask_has (&inherited->inherited, i)
        && strlen (hr_model_fields[i].key) == len
        && strncmp (hr_model_fields[i].key, key, len) == 0)
      return TRUE;
  return FALSE;
}

/* A check that fails on a value of the default model names the value the
 * user never wrote: say where it came from.  The reason of
 * "model.kv_heads: 40 is out of range; allowed: 1 to 12" becomes "40 (from
 * the default model llama-2-13b, since model.preset is not set) is out of
 * range; allowed: 1 to 12; set model.kv_heads", and a default model's
 * value the reason only mentions ("... does not divide model.heads = 40")
 * is named at the end.  The error's own field is hr_error_field's; the
 * others are found in the reason's words, where the check wrote them
 * into its sentence. */
static char *
explain_inherited (const GError    *error,
                   const Inherited *inherited)
{
  g_autoptr(GString) others = NULL;
  const char *field = hr_error_field (error);
  const char *reason = hr_error_reason (error);
  const char *p = reason;
  GString *out;

  if (!hr_field_mask_any_from (&inherited->inherited, 0))
    return g_strdup (reason);
  out = g_string_new (NULL);
  others = g_string_new (NULL);

  if (field != NULL && g_str_has_prefix (field, "model.")
      && inherited_key (field + 6, strlen (field + 6), inherited))
    {
      /* The reason starts with the value ("40 is out of range"). */
      const char *end = strchr (reason, ' ');

      if (end == NULL)
        end = reason + strlen (reason);
      g_string_append_len (out, reason, end - reason);
      g_string_append_printf (out, _(" (from the default model %s, since model.preset is not set)"),
                              inherited->from);
      g_string_append (out, end);
      g_string_append_printf (out, _("; set model.%.*s"), (int) strlen (field + 6), field + 6);
    }
  else
    g_string_append (out, reason);

  /* The default model's values the reason goes on to mention. */
  while ((p = strstr (p, "model.")) != NULL)
    {
      gsize len = 0;

      p += 6;
      while (g_ascii_islower (p[len]) || p[len] == '_')
        len++;
      if (inherited_key (p, len, inherited))
        {
          g_autofree char *shown = g_strdup_printf ("model.%.*s", (int) len, p);

          if (strstr (others->str, shown) == NULL)
            g_string_append_printf (others, "%s%s", others->len > 0 ? _(" and ") : "", shown);
        }
    }
  if (others->len > 0)
    g_string_append_printf (out, _("; %s came from the default model %s, since "
                                        "model.preset is not set"), others->str, inherited->from);
  return g_string_free (out, FALSE);
}

/* Contract 1.1: training.framework names a profile whose values fill the
 * fields the file leaves out; the file's own values win.  *FILLED is a
 * copy of ROOT with them, or NULL when the file names no framework. */
static gboolean
fill_from_framework (JsonNode    *root,
                     const char  *origin,
                     JsonNode   **filled,
                     GError     **error)
{
  JsonObject *training = hr_json_member_object (json_node_get_object (root), "training");
  JsonNode *id = training != NULL ? json_object_get_member (training, "framework") : NULL;
  const HrFramework *framework;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING
      || *json_node_get_string (id) == '\0')
    return TRUE;   /* a wrong type is the field reader's to report */
  framework = hr_framework_find (json_node_get_string (id));
  if (framework == NULL)
    {
      g_autofree char *allowed = hr_frameworks_allowed ();
      g_autofree char *shown = hr_text_for_message (json_node_get_string (id), 40);
      g_autofree char *problem = hr_framework_problem (json_node_get_string (id));

      if (problem != NULL)
        FAIL_AT (HR_ERROR_INVALID, "training.framework", _("\"%s\": the profile cannot be "
                 "used: %s"), shown, problem);
      FAIL_AT (HR_ERROR_INVALID, "training.framework", _("\"%s\" is not allowed; allowed: "
               "%s (presets/frameworks)"), shown, allowed);
    }
  *filled = hr_json_copy_deep (root);
  for (guint i = 0; framework->assignments[i] != NULL; i++)
    {
      const char *set = framework->assignments[i];
      const char *eq = strchr (set, '=');
      g_autofree char *path = g_strndup (set, eq - set);
      g_auto(GStrv) keys = g_strsplit (path, ".", -1);
      JsonObject *at = json_node_get_object (*filled);
      gboolean given = TRUE;

      for (guint k = 0; keys[k] != NULL && given; k++)
        {
          JsonNode *member = json_object_get_member (at, keys[k]);

          if (member == NULL)
            given = FALSE;
          else if (keys[k + 1] != NULL)
            {
              if (!JSON_NODE_HOLDS_OBJECT (member))
                break;   /* the reader reports the wrong type */
              at = json_node_get_object (member);
            }
        }
      if (!given && !hr_json_set_path (json_node_get_object (*filled), set, error))
        {
          g_prefix_error (error, "%s: ", framework->path);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_parallel (HrScenario  *sc,
               JsonObject  *obj,
               const char  *origin,
               GError     **error)
{
  static const char * const skip[] = { "stage_layers", NULL };
  JsonNode *stages = json_object_get_member (obj, "stage_layers");

  if (!hr_fields_read_section (obj, hr_parallel_fields, hr_parallel_fields_count, &sc->parallel,
                               origin, "parallel", (const char **) skip, NULL, error))
    return FALSE;
  return stages == NULL || hr_fields_read_stage_layers (&sc->parallel, stages, origin, error);
}

/* The top level's own keys: the format version, the name, the
 * description (kept whole, so that saving writes back what was read). */
static gboolean
read_header (HrScenario  *sc,
             JsonObject  *obj,
             const char  *origin,
             GError     **error)
{
  static const char * const strings[] = { "name", "description", "source" };

  if (json_object_has_member (obj, "headroom"))
    {
      JsonNode *v = json_object_get_member (obj, "headroom");

      if (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_INT64
          || json_node_get_int (v) != 1)
        {
          g_autofree char *value = hr_fields_describe_node (v);

          FAIL_AT (HR_ERROR_INVALID, "headroom", _("%s is not allowed; allowed: 1 (the "
                   "format version this Headroom reads)"), value);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      JsonNode *v = json_object_get_member (obj, strings[i]);

      if (v != NULL && (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_STRING))
        {
          g_autofree char *value = hr_fields_describe_node (v);

          FAIL_AT (HR_ERROR_TYPE, strings[i], _("%s is not allowed; allowed: a string"), value);
        }
    }
  if (json_object_has_member (obj, "name"))
    hr_copy_string (sc->name, sizeof sc->name, json_object_get_string_member (obj, "name"));
  if (json_object_has_member (obj, "description"))
    {
      const char *text = json_object_get_string_member (obj, "description");
      gsize length = strlen (text);

      if (length >= sizeof sc->description)
        FAIL_AT (HR_ERROR_INVALID, "description", _("a string of %" "zu" " bytes is too "
                 "long; allowed: up to %" "zu" " bytes"), length,
                 sizeof sc->description - 1);
      hr_copy_string (sc->description, sizeof sc->description, text);
    }
  return TRUE;
}

/* Each section's object, through its field table; a section left out
 * keeps the default's values (the communication buffers: worked out). */
static gboolean
read_sections (HrScenario  *sc,
               JsonObject  *obj,
               const char  *origin,
               HrPresets   *presets,
               Inherited   *inherited,
               GError     **error)
{
  JsonObject *sub;

#define SECTION(key, call)                                                \
  G_STMT_START {                                                          \
    sub = hr_fields_member_object (obj, key, origin, key, error);         \
    if (sub == NULL && error != NULL && *error != NULL)                   \
      return FALSE;                                                       \
    if (sub == NULL && json_object_has_member (obj, key))                 \
      return FALSE;                                                       \
    if (sub != NULL && !(call))                                           \
      return FALSE;                                                       \
  } G_STMT_END

  SECTION ("model", read_model (sc, sub, origin, presets, inherited, error));
  SECTION ("training", read_training (sc, sub, origin, error));
  SECTION ("parallel", read_parallel (sc, sub, origin, error));
  SECTION ("gpu", read_gpu (sc, sub, origin, presets, error));
  SECTION ("cost", hr_fields_read_section (sub, hr_cost_fields, hr_cost_fields_count, &sc->cost,
                                           origin, "cost", NULL, NULL, error));
  SECTION ("overhead", hr_fields_read_section (sub, hr_overhead_fields,
                                               hr_overhead_fields_count, &sc->overhead,
                                               origin, "overhead", NULL, NULL, error));
#undef SECTION

  if (sub == NULL || !json_object_has_member (sub, "comm_buffer_mib"))
    sc->overhead.comm_buffer_mib = -1;
  return TRUE;
}

gboolean
hr_scenario_read_node (HrScenario  *scenario,
                       JsonNode    *root,
                       const char  *origin,
                       HrPresets   *presets,
                       GError     **error)
{
  static const char * const top[] = { "headroom", "name", "description", "source",
                                      "model", "training", "parallel", "gpu",
                                      "overhead", "cost", NULL };
  HrScenario sc;
  Inherited inherited = { 0 };
  JsonObject *obj;
  g_autoptr(GError) local = NULL;
  g_autoptr(JsonNode) filled = NULL;

  g_return_val_if_fail (scenario != NULL && root != NULL, FALSE);

  if (!JSON_NODE_HOLDS_OBJECT (root))
    FAIL (HR_ERROR_TYPE, _("the document is %s; allowed: a scenario object"),
          JSON_NODE_HOLDS_ARRAY (root) ? _("an array") : _("a single value"));
  if (!fill_from_framework (root, origin, &filled, error))
    return FALSE;
  if (filled != NULL)
    root = filled;
  obj = json_node_get_object (root);

  if (!hr_json_check_keys (obj, origin, top, error))
    return FALSE;

  hr_scenario_init_default (&sc);
  if (!read_header (&sc, obj, origin, error)
      || !read_sections (&sc, obj, origin, presets, &inherited, error))
    return FALSE;

  if (!hr_scenario_validate (&sc, &local))
    {
      g_autofree char *reason = explain_inherited (local, &inherited);

      if (hr_error_field (local) != NULL)
        FAIL_AT (local->code, hr_error_field (local), "%s", reason);
      FAIL (local->code, "%s", reason);
    }

  /* Contract section 1.1: a file that gives no name is named after what
   * it plans ("Llama 2 70B, ZeRO-3, 8x H100"), not the default's. */
  if (!json_object_has_member (obj, "name"))
    hr_scenario_set_generated_name (&sc);

  /* A value the named framework's code cannot run with (DeepSpeed under
   * torchtitan) is refused, not planned as if it could. */
  if (!hr_framework_check (&sc, error))
    {
      hr_error_add_origin (error, origin);
      return FALSE;
    }

  *scenario = sc;
  return TRUE;
}

gboolean
hr_scenario_read_file (HrScenario  *scenario,
                       const char  *path,
                       HrPresets   *presets,
                       GError     **error)
{
  g_autoptr(JsonNode) root = hr_json_load_file (path, error);

  if (root == NULL)
    return FALSE;
  return hr_scenario_read_node (scenario, root, path, presets, error);
}

gboolean
hr_scenario_load_preset (HrScenario  *scenario,
                         const char  *id,
                         HrPresets   *presets,
                         GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = hr_presets_load (presets, HR_PRESET_SCENARIO, id, &path, error);

  if (root == NULL)
    return FALSE;
  return hr_scenario_read_node (scenario, root, path, presets, error);
}
