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
#include "hr-validate.h"

#include <math.h>
#include <string.h>

typedef enum
{
  F_UINT,      /* guint64, a whole number >= 0 */
  F_BOOL,      /* gboolean */
  F_DOUBLE,    /* double >= 0 */
  F_ENUM,      /* an enum stored as guint, named by a table */
  F_NAME,      /* char[HR_NAME_MAX] */
  F_SKIP,      /* accepted and ignored (documentation keys) */
} FieldKind;

typedef struct
{
  const char        *key;
  FieldKind          kind;
  gsize              offset;
  const HrEnumNames *names;
} Field;

#define UINT(s, k)      { #k, F_UINT, G_STRUCT_OFFSET (s, k), NULL }
#define BOOL(s, k)      { #k, F_BOOL, G_STRUCT_OFFSET (s, k), NULL }
#define DBL(s, k)       { #k, F_DOUBLE, G_STRUCT_OFFSET (s, k), NULL }
#define ENUM(s, k, t)   { #k, F_ENUM, G_STRUCT_OFFSET (s, k), &t }

static const Field model_fields[] = {
  { "name", F_NAME, G_STRUCT_OFFSET (HrModelArch, name), NULL },
  ENUM (HrModelArch, kind, hr_kind_names),
  UINT (HrModelArch, layers),
  UINT (HrModelArch, hidden),
  UINT (HrModelArch, heads),
  UINT (HrModelArch, kv_heads),
  UINT (HrModelArch, head_dim),
  UINT (HrModelArch, ffn),
  ENUM (HrModelArch, mlp, hr_mlp_names),
  UINT (HrModelArch, vocab),
  BOOL (HrModelArch, tied_embeddings),
  ENUM (HrModelArch, norm, hr_norm_names),
  ENUM (HrModelArch, bias, hr_bias_names),
  BOOL (HrModelArch, parallel_block),
  UINT (HrModelArch, learned_positions),
  UINT (HrModelArch, experts),
  UINT (HrModelArch, experts_active),
  BOOL (HrModelArch, dropout),
  ENUM (HrModelArch, head, hr_head_names),
  UINT (HrModelArch, classes),
  UINT (HrModelArch, expert_ffn),
  UINT (HrModelArch, norms_per_layer),
  ENUM (HrModelArch, qk_norm, hr_qk_norm_names),
  BOOL (HrModelArch, lm_head_bias),
  UINT (HrModelArch, token_types),
  BOOL (HrModelArch, pooler),
  UINT (HrModelArch, patch_dim),
};

static const Field training_fields[] = {
  ENUM (HrTraining, method, hr_method_names),
  ENUM (HrTraining, quant, hr_quant_names),
  BOOL (HrTraining, quant_lm_head),
  ENUM (HrTraining, precision, hr_precision_names),
  ENUM (HrTraining, optimizer, hr_optimizer_names),
  ENUM (HrTraining, optimizer_impl, hr_optimizer_impl_names),
  UINT (HrTraining, micro_batch),
  UINT (HrTraining, seq_len),
  UINT (HrTraining, grad_accum),
  ENUM (HrTraining, checkpointing, hr_checkpointing_names),
  ENUM (HrTraining, attention, hr_attention_names),
  ENUM (HrTraining, loss, hr_loss_names),
  BOOL (HrTraining, logits_fp32),
  BOOL (HrTraining, zero_grad_to_none),
  BOOL (HrTraining, optimizer_in_backward),
  BOOL (HrTraining, activation_offloading),
};

static const Field lora_fields[] = {
  { "rank", F_UINT, G_STRUCT_OFFSET (HrTraining, lora_rank), NULL },
  { "dropout", F_DOUBLE, G_STRUCT_OFFSET (HrTraining, lora_dropout), NULL },
};

static const Field dtype_fields[] = {
  ENUM (HrDtypes, weights, hr_dtype_names),
  ENUM (HrDtypes, grads, hr_dtype_names),
  ENUM (HrDtypes, master, hr_dtype_names),
  ENUM (HrDtypes, optimizer, hr_dtype_names),
  ENUM (HrDtypes, activations, hr_dtype_names),
};

static const Field parallel_fields[] = {
  UINT (HrParallel, gpus),
  UINT (HrParallel, gpus_per_node),
  UINT (HrParallel, tp),
  UINT (HrParallel, pp),
  UINT (HrParallel, vpp),
  UINT (HrParallel, cp),
  UINT (HrParallel, ep),
  BOOL (HrParallel, sp),
  UINT (HrParallel, zero),
  UINT (HrParallel, shard_group),
  BOOL (HrParallel, offload_optimizer),
  BOOL (HrParallel, offload_params),
  BOOL (HrParallel, no_sync),
};

static const Field gpu_fields[] = {
  { "name", F_NAME, G_STRUCT_OFFSET (HrGpu, name), NULL },
  UINT (HrGpu, memory_mib),
  DBL (HrGpu, bf16_tflops),
  { "source", F_SKIP, 0, NULL },
  { "notes", F_SKIP, 0, NULL },
};

static const Field cost_fields[] = {
  DBL (HrCost, tokens),
  DBL (HrCost, mfu),
  DBL (HrCost, price_per_gpu_hour),
};

static const Field overhead_fields[] = {
  DBL (HrOverhead, cuda_context_mib),
  DBL (HrOverhead, comm_buffer_mib),
  DBL (HrOverhead, fragmentation),
  DBL (HrOverhead, headroom),
};

#define FAIL(code, ...)                                         \
  G_STMT_START {                                                \
    g_autofree char *_msg = g_strdup_printf (__VA_ARGS__);      \
    g_set_error (error, HR_ERROR, code, "%s: %s", origin, _msg); \
    return FALSE;                                               \
  } G_STMT_END

/* A short rendering of a JSON value for messages: "4.5", "\"bf17\"", "an object". */
static char *
describe_node (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("an array");
  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  {
    g_autofree char *text = json_to_string (node, FALSE);

    if (strlen (text) > 40)
      {
        text[37] = '\0';
        return g_strdup_printf ("%s...", text);
      }
    return g_steal_pointer (&text);
  }
}

static char *
keys_allowed (const Field *fields,
              guint        n_fields,
              const char  *extra)
{
  GString *s = g_string_new (NULL);

  if (extra != NULL)
    g_string_append (s, extra);
  for (guint i = 0; i < n_fields; i++)
    {
      if (fields[i].kind == F_SKIP)
        continue;
      if (s->len > 0)
        g_string_append (s, ", ");
      g_string_append (s, fields[i].key);
    }
  return g_string_free (s, FALSE);
}

static gboolean
read_field (const Field  *field,
            gpointer      base,
            JsonNode     *node,
            const char   *origin,
            const char   *path,
            GError      **error)
{
  gpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);
  g_autofree char *value = describe_node (node);
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  switch (field->kind)
    {
    case F_UINT:
      if (type == G_TYPE_INT64)
        {
          gint64 v = json_node_get_int (node);

          if (v < 0)
            FAIL (HR_ERROR_INVALID, "%s: %s is not allowed; allowed: a whole number "
                  "0 or more", path, value);
          *(guint64 *) ptr = (guint64) v;
          return TRUE;
        }
      if (type == G_TYPE_DOUBLE)
        {
          double v = json_node_get_double (node);

          if (v >= 0 && v <= 9007199254740992.0 && floor (v) == v)
            {
              *(guint64 *) ptr = (guint64) v;
              return TRUE;
            }
          FAIL (HR_ERROR_INVALID, "%s: %s is not allowed; allowed: a whole number "
                "0 or more, up to 2^53", path, value);
        }
      FAIL (HR_ERROR_TYPE, "%s: %s is not allowed; allowed: a whole number", path, value);

    case F_BOOL:
      if (type != G_TYPE_BOOLEAN)
        FAIL (HR_ERROR_TYPE, "%s: %s is not allowed; allowed: true or false", path, value);
      *(gboolean *) ptr = json_node_get_boolean (node);
      return TRUE;

    case F_DOUBLE:
      if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
        FAIL (HR_ERROR_TYPE, "%s: %s is not allowed; allowed: a number", path, value);
      {
        double v = json_node_get_double (node);

        if (!isfinite (v) || v < 0)
          FAIL (HR_ERROR_INVALID, "%s: %s is not allowed; allowed: a number 0 or more",
                path, value);
        *(double *) ptr = v;
      }
      return TRUE;

    case F_ENUM:
      {
        guint v;
        g_autofree char *allowed = hr_enum_allowed (field->names);

        if (type != G_TYPE_STRING
            || !hr_enum_parse (field->names, json_node_get_string (node), &v))
          FAIL (type == G_TYPE_STRING ? HR_ERROR_INVALID : HR_ERROR_TYPE,
                "%s: %s is not allowed; allowed: %s", path, value, allowed);
        *(guint *) ptr = v;
        return TRUE;
      }

    case F_NAME:
      if (type != G_TYPE_STRING)
        FAIL (HR_ERROR_TYPE, "%s: %s is not allowed; allowed: a string", path, value);
      hr_copy_string (ptr, HR_NAME_MAX, json_node_get_string (node));
      return TRUE;

    case F_SKIP:
    default:
      return TRUE;
    }
}

/* Reads every member of obj through the table; "skip" names members the
 * caller handles itself.  Returns a bit set of the fields that were read. */
static gboolean
read_section (JsonObject   *obj,
              const Field  *fields,
              guint         n_fields,
              gpointer      base,
              const char   *origin,
              const char   *section,
              const char  **skip,
              guint        *out_read,
              GError      **error)
{
  g_autoptr(GList) members = json_object_get_members (obj);
  guint read = 0;

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      /* Escaped, so a key with a line break still makes a one-line message. */
      g_autofree char *shown = g_strescape (key, NULL);
      g_autofree char *path = g_strdup_printf ("%s.%s", section, shown);
      gboolean found = FALSE;

      if (skip != NULL && g_strv_contains (skip, key))
        continue;
      for (guint i = 0; i < n_fields; i++)
        {
          if (strcmp (fields[i].key, key) != 0)
            continue;
          if (!read_field (&fields[i], base, json_object_get_member (obj, key),
                           origin, path, error))
            return FALSE;
          read |= 1u << i;
          found = TRUE;
          break;
        }
      if (!found)
        {
          g_autofree char *skipped = skip != NULL ? g_strjoinv (", ", (char **) skip) : NULL;
          g_autofree char *allowed = keys_allowed (fields, n_fields, skipped);

          FAIL (HR_ERROR_UNKNOWN_KEY, "%s: unknown key; allowed: %s", path, allowed);
        }
    }
  if (out_read != NULL)
    *out_read = read;
  return TRUE;
}

static JsonObject *
member_object (JsonObject   *obj,
               const char   *key,
               const char   *origin,
               const char   *path,
               GError      **error)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *value = describe_node (node);

      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, "%s: %s: %s is not allowed; allowed: "
                   "an object", origin, path, value);
      return NULL;
    }
  return json_node_get_object (node);
}

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
      g_autofree char *value = describe_node (node);

      FAIL (HR_ERROR_TYPE, "%s: %s is not allowed; allowed: a preset id (lower-case "
            "letters, digits, '.', '_', '-')", path, value);
    }
  *out_id = json_node_get_string (node);
  return TRUE;
}

/* A bare architecture, before a preset fills it: the contract's defaults
 * for the fields a preset may leave out. */
static void
model_arch_init_blank (HrModelArch *model)
{
  memset (model, 0, sizeof *model);
  model->kind = HR_KIND_DECODER;
  model->mlp = HR_MLP_SWIGLU;
  model->norm = HR_NORM_RMSNORM;
  model->bias = HR_BIAS_NONE;
  model->experts = 1;
  model->experts_active = 1;
  model->head = HR_HEAD_LM;
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
  g_autoptr(GList) members = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, "%s: the preset is not a JSON object; "
                   "allowed: an object", origin);
      return FALSE;
    }
  obj = json_node_get_object (node);
  members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (top_keys, l->data))
      {
        g_autofree char *shown = g_strescape (l->data, NULL);

        g_set_error (error, HR_ERROR, HR_ERROR_UNKNOWN_KEY, "%s: %s: unknown key; "
                     "allowed: model, source, notes", origin, shown);
        return FALSE;
      }
  model = member_object (obj, "model", origin, "model", error);
  if (model == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "%s: model: missing; allowed: "
                     "an object with the architecture", origin);
      return FALSE;
    }

  check = *scenario;
  model_arch_init_blank (&check.model);
  if (!read_section (model, model_fields, G_N_ELEMENTS (model_fields), &check.model,
                     origin, "model", NULL, NULL, error))
    return FALSE;
  hr_copy_string (check.model.preset, sizeof check.model.preset, id);
  if (check.model.name[0] == '\0')
    hr_copy_string (check.model.name, sizeof check.model.name, id);

  /* A broken preset is the preset's fault: say so, with its file name. */
  if (!hr_scenario_validate (&check, &local) && local->message != NULL
      && g_str_has_prefix (local->message, "model"))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", origin, local->message);
      return FALSE;
    }

  scenario->model = check.model;
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
  guint read = 0;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, "%s: the preset is not a JSON object; "
                   "allowed: an object", origin);
      return FALSE;
    }
  if (!read_section (json_node_get_object (node), gpu_fields, G_N_ELEMENTS (gpu_fields),
                     &gpu, origin, "gpu", NULL, &read, error))
    return FALSE;
  if ((read & 3) != 3 || gpu.memory_mib == 0)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "%s: name and memory_mib are "
                   "required; allowed: {\"name\": ..., \"memory_mib\": 1 or more, "
                   "\"source\": ...}", origin);
      return FALSE;
    }
  hr_copy_string (gpu.preset, sizeof gpu.preset, id);
  scenario->gpu = gpu;
  return TRUE;
}

static gboolean
read_model (HrScenario  *sc,
            JsonObject  *obj,
            const char  *origin,
            HrPresets   *presets,
            GError     **error)
{
  static const char * const skip[] = { "preset", NULL };
  const char *id;
  guint read = 0;

  if (!read_preset_id (obj, origin, "model.preset", &id, error))
    return FALSE;
  if (id != NULL)
    {
      g_autoptr(GError) local = NULL;

      if (!hr_scenario_apply_model_preset (sc, id, presets, &local))
        {
          if (local->code == HR_ERROR_NOT_FOUND)
            FAIL (HR_ERROR_NOT_FOUND, "model.preset: %s", local->message);
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
  /* Without a preset, the architecture's base fields not given come from
   * the default model, but the fields derived from others (head_dim from
   * hidden/heads, the expert width, the extensions) start neutral, so a
   * custom model never inherits Llama 2's head size. */
  if (id == NULL && json_object_get_size (obj) > 0)
    {
      HrModelArch *m = &sc->model;

      m->head_dim = 0;
      m->expert_ffn = 0;
      m->norms_per_layer = 0;
      m->qk_norm = HR_QK_NORM_NONE;
      m->lm_head_bias = FALSE;
      m->token_types = 0;
      m->pooler = FALSE;
      m->patch_dim = 0;
    }
  if (!read_section (obj, model_fields, G_N_ELEMENTS (model_fields), &sc->model,
                     origin, "model", (const char **) skip, &read, error))
    return FALSE;

  /* Architecture keys without a preset describe a custom model. */
  if (id == NULL && (read & ~1u) != 0)
    {
      sc->model.preset[0] = '\0';
      if ((read & 1u) == 0)
        hr_copy_string (sc->model.name, sizeof sc->model.name, "Custom model");
    }
  return TRUE;
}

static gboolean
read_lora_targets (HrTraining  *t,
                   JsonNode    *node,
                   const char  *origin,
                   GError     **error)
{
  g_autofree char *allowed = hr_enum_allowed (&hr_lora_target_names);
  guint targets = 0;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
      && strcmp (json_node_get_string (node), "all-linear") == 0)
    {
      t->lora_targets = HR_LORA_ALL_LINEAR;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *value = describe_node (node);

      FAIL (HR_ERROR_TYPE, "training.lora.targets: %s is not allowed; allowed: an array "
            "of %s, or \"all-linear\"", value, allowed);
    }

  {
    JsonArray *array = json_node_get_array (node);

    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonNode *item = json_array_get_element (array, i);
        guint v;

        if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING
            || !hr_enum_parse (&hr_lora_target_names, json_node_get_string (item), &v))
          {
            g_autofree char *value = describe_node (item);

            FAIL (HR_ERROR_INVALID, "training.lora.targets[%u]: %s is not allowed; "
                  "allowed: %s", i, value, allowed);
          }
        targets |= 1u << v;
      }
  }
  t->lora_targets = targets;
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

  if (!read_section (obj, training_fields, G_N_ELEMENTS (training_fields), t,
                     origin, "training", (const char **) skip, NULL, error))
    return FALSE;

  sub = member_object (obj, "lora", origin, "training.lora", error);
  if (sub == NULL && error != NULL && *error != NULL)
    return FALSE;
  if (sub != NULL)
    {
      static const char * const lora_skip[] = { "targets", NULL };

      if (!read_section (sub, lora_fields, G_N_ELEMENTS (lora_fields), t, origin,
                         "training.lora", (const char **) lora_skip, NULL, error))
        return FALSE;
      if (json_object_has_member (sub, "targets")
          && !read_lora_targets (t, json_object_get_member (sub, "targets"), origin, error))
        return FALSE;
    }

  sub = member_object (obj, "dtypes", origin, "training.dtypes", error);
  if (sub == NULL && error != NULL && *error != NULL)
    return FALSE;
  if (sub != NULL)
    {
      guint read = 0;

      if (!read_section (sub, dtype_fields, G_N_ELEMENTS (dtype_fields), &t->dtypes,
                         origin, "training.dtypes", NULL, &read, error))
        return FALSE;
      t->dtypes_set |= read;
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
  guint read = 0;

  if (!read_preset_id (obj, origin, "gpu.preset", &id, error))
    return FALSE;
  if (id != NULL)
    {
      g_autoptr(GError) local = NULL;

      if (!hr_scenario_apply_gpu_preset (sc, id, presets, &local))
        {
          if (local->code == HR_ERROR_NOT_FOUND)
            FAIL (HR_ERROR_NOT_FOUND, "gpu.preset: %s", local->message);
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
  if (!read_section (obj, gpu_fields, G_N_ELEMENTS (gpu_fields), &sc->gpu, origin,
                     "gpu", (const char **) skip, &read, error))
    return FALSE;
  if (id == NULL && read != 0)
    {
      sc->gpu.preset[0] = '\0';
      if ((read & 1u) == 0)
        hr_copy_string (sc->gpu.name, sizeof sc->gpu.name, "Custom GPU");
    }
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
  JsonObject *obj, *sub;
  g_autoptr(GError) local = NULL;
  g_autoptr(GList) members = NULL;

  g_return_val_if_fail (scenario != NULL && root != NULL, FALSE);

  if (!JSON_NODE_HOLDS_OBJECT (root))
    FAIL (HR_ERROR_TYPE, "the document is %s; allowed: a scenario object",
          JSON_NODE_HOLDS_ARRAY (root) ? "an array" : "a single value");
  obj = json_node_get_object (root);

  members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (top, l->data))
      {
        g_autofree char *shown = g_strescape (l->data, NULL);

        FAIL (HR_ERROR_UNKNOWN_KEY, "%s: unknown key; allowed: headroom, name, "
              "description, model, training, parallel, gpu, overhead, cost", shown);
      }

  hr_scenario_init_default (&sc);

  if (json_object_has_member (obj, "headroom"))
    {
      JsonNode *v = json_object_get_member (obj, "headroom");

      if (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_INT64
          || json_node_get_int (v) != 1)
        {
          g_autofree char *value = describe_node (v);

          FAIL (HR_ERROR_INVALID, "headroom: %s is not allowed; allowed: 1 (the format "
                "version this Headroom reads)", value);
        }
    }
  for (guint i = 1; i <= 3; i++)
    {
      JsonNode *v = json_object_get_member (obj, top[i]);

      if (v != NULL && (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_STRING))
        {
          g_autofree char *value = describe_node (v);

          FAIL (HR_ERROR_TYPE, "%s: %s is not allowed; allowed: a string", top[i], value);
        }
    }
  if (json_object_has_member (obj, "name"))
    hr_copy_string (sc.name, sizeof sc.name, json_object_get_string_member (obj, "name"));

#define SECTION(key, call)                                                \
  G_STMT_START {                                                          \
    sub = member_object (obj, key, origin, key, error);                   \
    if (sub == NULL && error != NULL && *error != NULL)                   \
      return FALSE;                                                       \
    if (sub == NULL && json_object_has_member (obj, key))                 \
      return FALSE;                                                       \
    if (sub != NULL && !(call))                                           \
      return FALSE;                                                       \
  } G_STMT_END

  SECTION ("model", read_model (&sc, sub, origin, presets, error));
  SECTION ("training", read_training (&sc, sub, origin, error));
  SECTION ("parallel", read_section (sub, parallel_fields, G_N_ELEMENTS (parallel_fields),
                                     &sc.parallel, origin, "parallel", NULL, NULL, error));
  SECTION ("gpu", read_gpu (&sc, sub, origin, presets, error));
  SECTION ("cost", read_section (sub, cost_fields, G_N_ELEMENTS (cost_fields), &sc.cost,
                                 origin, "cost", NULL, NULL, error));
  {
    gboolean comm_given = FALSE;

    sub = member_object (obj, "overhead", origin, "overhead", error);
    if (sub == NULL && json_object_has_member (obj, "overhead"))
      return FALSE;
    if (sub != NULL)
      {
        if (!read_section (sub, overhead_fields, G_N_ELEMENTS (overhead_fields),
                           &sc.overhead, origin, "overhead", NULL, NULL, error))
          return FALSE;
        comm_given = json_object_has_member (sub, "comm_buffer_mib");
      }
    if (!comm_given)
      sc.overhead.comm_buffer_mib = -1;
  }
#undef SECTION

  if (!hr_scenario_validate (&sc, &local))
    FAIL (local->code, "%s", local->message);

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
