/* hr-measured.c: measured training runs, as scenarios to check the plan against
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An entry describes a run in words a paper or a README uses ("bf16-true",
 * "bitsandbytes PagedAdamW", targets "q_proj"); this file turns those words
 * into a scenario object, then reads it like any scenario file, so the
 * comparison uses exactly the model the app and the CLI use.  The
 * architecture is taken from the model preset whose dimensions match the
 * entry's; an entry's own "scenario" object says what the words cannot.
 */

#include "hr-measured.h"

#include <glib/gi18n-lib.h>

#include "hr-frameworks.h"
#include "hr-calc.h"
#include "hr-error.h"
#include "hr-format.h"
#include "hr-json.h"
#include "hr-params.h"
#include "hr-scenario-io.h"
#include "hr-validate.h"

#include <math.h>
#include <string.h>

typedef struct
{
  char        id[HR_ID_MAX];
  HrModelArch arch;
} KnownModel;

/* The model presets, read as entries need them: listing them all parses
 * every file (47 of them, 2 ms), so the preset an entry's "model" names
 * is tried first and the whole list only when that fails. */
typedef struct
{
  HrPresets *presets;
  GArray    *known;    /* KnownModel, in the order read */
  GPtrArray *order;    /* every preset's id in the list's order; NULL until listed */
} Models;

static void
models_init (Models    *models,
             HrPresets *presets)
{
  models->presets = presets;
  models->known = g_array_new (FALSE, TRUE, sizeof (KnownModel));
  models->order = NULL;
}

static void
models_clear (Models *models)
{
  g_clear_pointer (&models->known, g_array_unref);
  g_clear_pointer (&models->order, g_ptr_array_unref);
}

static const KnownModel *
models_read (Models     *models,
             const char *id)
{
  HrScenario sc;
  KnownModel known;

  for (guint i = 0; i < models->known->len; i++)
    if (strcmp (g_array_index (models->known, KnownModel, i).id, id) == 0)
      return &g_array_index (models->known, KnownModel, i);
  hr_scenario_init_default (&sc);
  if (!hr_scenario_apply_model_preset (&sc, id, models->presets, NULL))
    return NULL;
  hr_copy_string (known.id, sizeof known.id, id);
  known.arch = sc.model;
  g_array_append_val (models->known, known);
  return &g_array_index (models->known, KnownModel, models->known->len - 1);
}

/* check_numbers () has refused what is out of range; a double converts
 * only when gint64 holds it (converting 3e23 is undefined behaviour). */
static gint64
member_int (JsonObject *obj,
            const char *key,
            gint64      fallback)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);

      if (isfinite (v) && v >= -9007199254740992.0 && v <= 9007199254740992.0)
        return (gint64) v;
    }
  return fallback;
}

static char *
member_string (JsonObject *obj,
               const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return g_strdup ("");
  return g_strdup (json_node_get_string (node));
}

static char *
member_lower (JsonObject *obj,
              const char *key)
{
  g_autofree char *s = member_string (obj, key);

  return g_ascii_strdown (s, -1);
}

/* A number, or the fallback for a member of another type: measured-run
 * files come from anywhere. */
static double
member_double (JsonObject *obj,
               const char *key,
               double      fallback)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || (json_node_get_value_type (node) != G_TYPE_DOUBLE
          && json_node_get_value_type (node) != G_TYPE_INT64))
    return fallback;
  return json_node_get_double (node);
}

/* The numbers an entry may give, with the ranges a scenario allows
 * (hr-validate.h), so that a bad one is named as the entry writes it. */
typedef struct
{
  const char *section;    /* NULL: a member of the entry itself */
  const char *key;
  double      min;
  double      max;
  gboolean    whole;
  gboolean    above_min;  /* min itself is not allowed */
} NumberRule;

static const NumberRule number_rules[] = {
  { NULL, "measured_gib", 0, HR_MAX_MEMORY_MIB / 1024.0, FALSE, TRUE },
  { NULL, "micro_batch", 1, HR_MAX_MICRO_BATCH, TRUE, FALSE },
  { NULL, "seq_len", 1, HR_MAX_SEQ_LEN, TRUE, FALSE },
  { "arch", "layers", 1, HR_MAX_LAYERS, TRUE, FALSE },
  { "arch", "hidden", 1, HR_MAX_HIDDEN, TRUE, FALSE },
  { "arch", "heads", 1, HR_MAX_HEADS, TRUE, FALSE },
  { "arch", "kv_heads", 1, HR_MAX_HEADS, TRUE, FALSE },
  { "arch", "ffn", 1, HR_MAX_FFN, TRUE, FALSE },
  { "arch", "vocab", 0, HR_MAX_VOCAB, TRUE, FALSE },
  { "parallelism", "gpus", 1, HR_MAX_GPUS, TRUE, FALSE },
  { "parallelism", "tp", 1, HR_MAX_HEADS, TRUE, FALSE },
  { "parallelism", "pp", 1, HR_MAX_PP, TRUE, FALSE },
  { "parallelism", "zero_stage", 0, 3, TRUE, FALSE },
  { "lora", "rank", 1, HR_MAX_LORA_RANK, TRUE, FALSE },
  { "lora", "dropout", 0, 0.99, FALSE, FALSE },
};

/* Each number the entry gives is finite, whole where it counts something,
 * and in range; the message names the file, the entry and the field. */
static gboolean
check_numbers (JsonObject  *e,
               const char  *path,
               const char  *id,
               GError     **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (number_rules); i++)
    {
      const NumberRule *r = &number_rules[i];
      JsonObject *obj = r->section != NULL ? hr_json_member_object (e, r->section) : e;
      JsonNode *node = obj != NULL ? json_object_get_member (obj, r->key) : NULL;
      GType type = node != NULL && JSON_NODE_HOLDS_VALUE (node)
                   ? json_node_get_value_type (node) : G_TYPE_INVALID;
      g_autofree char *field = r->section != NULL ? g_strdup_printf ("%s.%s", r->section, r->key)
                                                  : g_strdup (r->key);
      g_autofree char *value = NULL;
      char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];
      double v;

      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        continue;
      if (type == G_TYPE_INT64)
        v = (double) json_node_get_int (node);
      else if (type == G_TYPE_DOUBLE)
        v = json_node_get_double (node);
      else
        v = NAN;
      if (isfinite (v) && (r->above_min ? v > r->min : v >= r->min) && v <= r->max
          && (!r->whole || v == floor (v)))
        continue;

      if (type == G_TYPE_INT64)
        value = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
      else if (type == G_TYPE_DOUBLE && isfinite (v))
        value = g_strdup (g_ascii_formatd (lo, sizeof lo, "%.15g", v));
      else if (type == G_TYPE_DOUBLE)
        value = g_strdup (isnan (v) ? "not a number" : "a number too large to hold");
      else if (type == G_TYPE_STRING)
        value = g_strdup ("a string");
      else
        value = g_strdup (node != NULL && JSON_NODE_HOLDS_VALUE (node) ? "a boolean"
                          : JSON_NODE_HOLDS_ARRAY (node) ? "an array" : "an object");
      g_ascii_formatd (lo, sizeof lo, "%.15g", r->min);
      g_ascii_formatd (hi, sizeof hi, "%.15g", r->max);
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID,
                   "%s: %s: %s: %s is not allowed; allowed: %s %s %s%s %s%s",
                   path, id, field, value, r->whole ? "a whole number" : "a number",
                   r->above_min ? "above" : "from", lo, r->above_min ? ", up to" : " to", hi,
                   g_str_equal (r->key, "measured_gib") ? " (GiB)" : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
arch_matches (JsonObject        *arch,
              const HrModelArch *m)
{
  gint64 vocab = member_int (arch, "vocab", -1);

  return (guint64) member_int (arch, "layers", -1) == m->layers
         && (guint64) member_int (arch, "hidden", -1) == m->hidden
         && (guint64) member_int (arch, "heads", -1) == m->heads
         && (guint64) member_int (arch, "kv_heads", (gint64) m->heads) == m->kv_heads
         && (guint64) member_int (arch, "ffn", -1) == m->ffn
         && (vocab < 0 || (guint64) vocab == m->vocab);
}

/* The preset an entry's "model" names: "meta-llama/Meta-Llama-3-8B" is
 * llama-3-8b, "TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T"
 * tinyllama-1.1b: the last part of the name, lower case, without "-hf"
 * or a leading "meta-", and the longest run of its first words that is a
 * preset. */
static const KnownModel *
named_model (Models     *models,
             JsonObject *arch,
             const char *model)
{
  const char *slash = strrchr (model, '/');
  g_autofree char *name = g_ascii_strdown (slash != NULL ? slash + 1 : model, -1);
  g_auto(GStrv) words = NULL;
  guint skip = 0;
  guint n;

  if (g_str_has_suffix (name, "-hf"))
    name[strlen (name) - 3] = '\0';
  words = g_strsplit (name, "-", 0);
  n = g_strv_length (words);
  if (n > 1 && strcmp (words[0], "meta") == 0)
    skip = 1;
  for (guint k = n; k > skip; k--)
    {
      g_autofree char *id = NULL;
      g_autofree char *path = NULL;
      const KnownModel *known;
      char *saved = words[k];

      words[k] = NULL;
      id = g_strjoinv ("-", words + skip);
      words[k] = saved;
      if (!hr_preset_id_is_valid (id)
          || (path = hr_presets_find (models->presets, HR_PRESET_MODEL, id, NULL)) == NULL)
        continue;
      known = models_read (models, id);
      if (known != NULL && arch_matches (arch, &known->arch))
        return known;
    }
  return NULL;
}

/* The preset whose dimensions are the entry's: the one its name names,
 * else the first in the list of all; NULL when none has them. */
static char *
match_model (Models     *models,
             JsonObject *arch,
             const char *model)
{
  const KnownModel *named = named_model (models, arch, model);

  if (named != NULL)
    return g_strdup (named->id);
  if (models->order == NULL)
    {
      g_autoptr(GPtrArray) list = hr_presets_list (models->presets, HR_PRESET_MODEL);

      models->order = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < list->len; i++)
        g_ptr_array_add (models->order, g_strdup (((HrPresetInfo *) g_ptr_array_index (list, i))->id));
    }
  for (guint i = 0; i < models->order->len; i++)
    {
      const KnownModel *k = models_read (models, g_ptr_array_index (models->order, i));

      if (k != NULL && arch_matches (arch, &k->arch))
        return g_strdup (k->id);
    }
  return NULL;
}

static gboolean
map_targets (JsonObject  *lora,
             JsonBuilder *b)
{
  static const struct { const char *word; const char *targets[3]; } words[] = {
    { "q", { "q" } }, { "query", { "q" } }, { "q_proj", { "q" } },
    { "k", { "k" } }, { "key", { "k" } }, { "k_proj", { "k" } },
    { "v", { "v" } }, { "value", { "v" } }, { "v_proj", { "v" } },
    { "o", { "o" } }, { "o_proj", { "o" } }, { "attn_proj", { "o" } },
    { "projection", { "o" } }, { "dense", { "o" } },
    { "gate", { "gate" } }, { "gate_proj", { "gate" } }, { "w1", { "gate" } },
    { "up", { "up" } }, { "up_proj", { "up" } }, { "w3", { "up" } },
    { "down", { "down" } }, { "down_proj", { "down" } }, { "w2", { "down" } },
    { "mlp", { "gate", "up", "down" } },
    { "lm_head", { "lm_head" } }, { "head", { "lm_head" } },
  };
  JsonArray *targets;

  if (lora == NULL || !json_object_has_member (lora, "targets")
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (lora, "targets")))
    return FALSE;
  targets = json_node_get_array (json_object_get_member (lora, "targets"));
  json_builder_set_member_name (b, "targets");
  json_builder_begin_array (b);
  for (guint i = 0; i < json_array_get_length (targets); i++)
    {
      JsonNode *element = json_array_get_element (targets, i);
      const char *t = JSON_NODE_HOLDS_VALUE (element)
                      && json_node_get_value_type (element) == G_TYPE_STRING
                      ? json_node_get_string (element) : NULL;
      gboolean found = FALSE;

      for (guint w = 0; t != NULL && w < G_N_ELEMENTS (words); w++)
        if (g_ascii_strcasecmp (words[w].word, t) == 0)
          {
            for (guint j = 0; j < 3 && words[w].targets[j] != NULL; j++)
              json_builder_add_string_value (b, words[w].targets[j]);
            found = TRUE;
            break;
          }
      if (!found)
        return FALSE;
    }
  json_builder_end_array (b);
  return TRUE;
}

static const char *
map_precision (const char *p)
{
  if (g_str_has_prefix (p, "bf16-true"))
    return "bf16-true";
  if (g_str_has_prefix (p, "fp32") || g_str_has_prefix (p, "32-true"))
    return "fp32";
  if (strstr (p, "bf16-mixed") != NULL && strstr (p, "master") != NULL)
    return "bf16-mixed";
  if (strstr (p, "fp16") != NULL)
    return "amp-fp16";
  if (strstr (p, "bf16") != NULL)
    return "amp-bf16";
  return NULL;
}

static const char *
map_optimizer (const char *o)
{
  gboolean paged = strstr (o, "paged") != NULL;
  gboolean eight = strstr (o, "8bit") != NULL || strstr (o, "8-bit") != NULL;

  if (paged && eight)
    return "paged-adamw-8bit";
  if (paged)
    return "paged-adamw";
  if (eight)
    return "adamw-8bit";
  if (strstr (o, "adafactor") != NULL)
    return "adafactor";
  if (strstr (o, "lion") != NULL)
    return "lion";
  if (strstr (o, "sgd") != NULL)
    return strstr (o, "momentum") != NULL ? "sgd-momentum" : "sgd";
  if (strstr (o, "adam") != NULL)
    return "adamw";
  return NULL;
}

/* HF transformers' own AdamW (adamw_hf) steps parameter by parameter;
 * torch.optim's default on CUDA is the multi-tensor foreach path. */
static const char *
map_optimizer_impl (const char *o)
{
  if (strstr (o, "fused=true") != NULL)
    return "fused";
  if (strstr (o, "adamw_hf") != NULL || strstr (o, "transformers") != NULL
      || strstr (o, "adafactor") != NULL)
    return "loop";
  return "foreach";
}

/* Deep merge: members of src replace those of dst, objects merge. */
static void
merge_into (JsonObject *dst,
            JsonObject *src)
{
  g_autoptr(GList) members = json_object_get_members (src);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *s = json_object_get_member (src, l->data);
      JsonNode *d = json_object_get_member (dst, l->data);

      if (JSON_NODE_HOLDS_OBJECT (s) && d != NULL && JSON_NODE_HOLDS_OBJECT (d))
        merge_into (json_node_get_object (d), json_node_get_object (s));
      else
        json_object_set_member (dst, l->data, json_node_copy (s));
    }
}

/* The entry's "framework", or the one its source names: LitGPT's
 * benchmark, Hugging Face's guide. */
static const HrFramework *
framework_for (const char *id,
               const char *source)
{
  if (*id != '\0')
    return hr_framework_find (id);
  if (strstr (source, "litgpt") != NULL)
    return hr_framework_find ("litgpt");
  if (strstr (source, "huggingface/transformers") != NULL)
    return hr_framework_find ("hf-trainer-4.45");
  return NULL;
}

/* The entry as a scenario document, but for its model (add_model). */
static JsonNode *
map_entry (JsonObject  *e,
           const char  *id,
           GError     **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  JsonObject *par = hr_json_member_object (e, "parallelism");
  JsonObject *lora = hr_json_member_object (e, "lora");
  g_autofree char *task = member_lower (e, "task");
  g_autofree char *precision = member_lower (e, "precision");
  g_autofree char *optimizer = member_lower (e, "optimizer");
  g_autofree char *source = member_lower (e, "source");
  g_autofree char *gpu_name = member_string (e, "gpu");
  g_autofree char *gpu = g_ascii_strdown (gpu_name, -1);
  const char *prec = map_precision (precision);
  const char *opt = map_optimizer (optimizer);
  g_autofree char *framework_id = member_lower (e, "framework");
  const HrFramework *framework = framework_for (framework_id, source);
  gboolean fsdp = hr_json_member_true (par, "fsdp");
  JsonNode *root;

#define SKIP(...) G_STMT_START { \
    g_set_error (error, HR_ERROR, HR_ERROR_INVALID, __VA_ARGS__); return NULL; } G_STMT_END

  if (prec == NULL)
    SKIP ("%s: precision \"%s\" is not one Headroom knows", id, precision);
  if (opt == NULL)
    SKIP ("%s: optimizer \"%s\" is not one Headroom knows", id, optimizer);
  if (*framework_id != '\0' && framework == NULL)
    {
      g_autofree char *allowed = hr_frameworks_allowed ();

      SKIP ("%s: framework \"%s\" is not one Headroom knows; allowed: %s", id, framework_id,
            allowed);
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "headroom");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, id);

  json_builder_set_member_name (b, "training");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, g_str_equal (task, "qlora") ? "qlora"
                                    : g_str_equal (task, "lora") ? "lora" : "full");
  if (!g_str_equal (task, "full"))
    {
      json_builder_set_member_name (b, "lora");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rank");
      json_builder_add_int_value (b, member_int (lora, "rank", 8));
      if (member_double (lora, "dropout", -1) >= 0)
        {
          json_builder_set_member_name (b, "dropout");
          json_builder_add_double_value (b, member_double (lora, "dropout", 0));
        }
      if (!map_targets (lora, b))
        SKIP ("%s: LoRA targets that Headroom does not know", id);
      json_builder_end_object (b);
    }
  if (g_str_equal (task, "qlora"))
    {
      json_builder_set_member_name (b, "quant");
      json_builder_add_string_value (b, strstr (precision, "dq") != NULL
                                        || strstr (precision, "double") != NULL ? "nf4-dq" : "nf4");
    }
  json_builder_set_member_name (b, "precision");
  json_builder_add_string_value (b, prec);
  json_builder_set_member_name (b, "optimizer");
  json_builder_add_string_value (b, opt);
  json_builder_set_member_name (b, "optimizer_impl");
  json_builder_add_string_value (b, map_optimizer_impl (optimizer));
  json_builder_set_member_name (b, "micro_batch");
  json_builder_add_int_value (b, member_int (e, "micro_batch", 1));
  json_builder_set_member_name (b, "seq_len");
  json_builder_add_int_value (b, member_int (e, "seq_len", 512));
  json_builder_set_member_name (b, "checkpointing");
  json_builder_add_string_value (b, hr_json_member_true (e, "grad_checkpointing") ? "full" : "none");
  json_builder_end_object (b);

  json_builder_set_member_name (b, "parallel");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "gpus");
  json_builder_add_int_value (b, member_int (par, "gpus", 1));
  json_builder_set_member_name (b, "gpus_per_node");
  json_builder_add_int_value (b, MIN (member_int (par, "gpus", 1), 8));
  json_builder_set_member_name (b, "tp");
  json_builder_add_int_value (b, member_int (par, "tp", 1));
  json_builder_set_member_name (b, "pp");
  json_builder_add_int_value (b, member_int (par, "pp", 1));
  json_builder_set_member_name (b, "zero");
  json_builder_add_int_value (b, fsdp ? 3 : member_int (par, "zero_stage", 0));
  json_builder_end_object (b);

  /* The capacity does not change what a run allocates; it only sets the
   * status.  "24GB" in the name gives it. */
  json_builder_set_member_name (b, "gpu");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, *gpu_name != '\0' ? gpu_name : "GPU");
  json_builder_set_member_name (b, "memory_mib");
  {
    const char *gb = strstr (gpu, "gb");
    gint64 size = 80;

    while (gb != NULL && gb > gpu && g_ascii_isdigit (gb[-1]))
      gb--;
    if (gb != NULL && g_ascii_isdigit (*gb))
      size = g_ascii_strtoll (gb, NULL, 10);
    json_builder_add_int_value (b, CLAMP (size, 1, 4096) * 1024);
  }
  json_builder_end_object (b);
  json_builder_end_object (b);
#undef SKIP

  root = json_builder_get_root (b);
  /* What the run's framework does (hr-frameworks.c), then what the entry
   * itself says. */
  if (framework != NULL
      && !hr_framework_apply_json (framework, json_node_get_object (root), error))
    {
      json_node_unref (root);
      return NULL;
    }
  if (hr_json_member_object (e, "scenario") != NULL)
    merge_into (json_node_get_object (root), hr_json_member_object (e, "scenario"));
  return root;
}

/* The preset with the entry's dimensions as its model, under what the
 * entry's "scenario" object says of the model; reading the presets is
 * the costly part of an entry, so it comes after its kind is known. */
static gboolean
add_model (JsonNode    *root,
           JsonObject  *e,
           Models      *models,
           const char  *id,
           GError     **error)
{
  JsonObject *arch = hr_json_member_object (e, "arch");
  g_autofree char *name = member_string (e, "model");
  g_autofree char *model_id = arch != NULL ? match_model (models, arch, name) : NULL;
  JsonObject *obj = json_node_get_object (root);
  JsonObject *model = hr_json_member_object (obj, "model");

  /* A "model" that is not an object is the reader's to refuse. */
  if (model == NULL && json_object_has_member (obj, "model"))
    return TRUE;
  if (model_id == NULL)
    {
      if (json_object_has_member (e, "scenario"))
        return TRUE;
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "%s: no model preset has this "
                   "architecture; allowed: an entry with a \"scenario\" object naming the "
                   "model", id);
      return FALSE;
    }
  if (model == NULL)
    {
      model = json_object_new ();
      json_object_set_object_member (obj, "model", model);
    }
  if (!json_object_has_member (model, "preset"))
    json_object_set_string_member (model, "preset", model_id);
  return TRUE;
}

double
hr_measured_predicted (const HrPlan *plan,
                       HrMetric      metric)
{
  double most = 0;

  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];
      double v = metric == HR_METRIC_ALLOCATED ? (double) d->allocated_bytes
                 : metric == HR_METRIC_RESERVED ? (double) d->reserved_bytes
                 : (double) d->total_bytes;

      most = MAX (most, v);
    }
  return most;
}

/* The kind of an entry, from its scenario document before its model is
 * known: the framework it names or its source does, its method, its
 * layout. */
static HrLayout
layout_of (guint64 gpus,
           guint64 tp,
           guint64 pp,
           guint64 cp,
           guint64 ep,
           guint64 zero)
{
  if (gpus <= 1)
    return HR_LAYOUT_SINGLE;
  if (tp > 1 || pp > 1 || cp > 1 || ep > 1)
    return HR_LAYOUT_MODEL;
  return zero >= 1 ? HR_LAYOUT_SHARDED : HR_LAYOUT_DATA;
}

static void
root_kind (JsonNode          *root,
           const HrFramework *framework,
           HrRunKind         *kind)
{
  JsonObject *obj = json_node_get_object (root);
  JsonObject *training = hr_json_member_object (obj, "training");
  JsonObject *par = hr_json_member_object (obj, "parallel");
  g_autofree char *method = member_lower (training, "method");
  gint64 zero = member_int (par, "zero", 3);

  memset (kind, 0, sizeof *kind);
  kind->method = g_str_equal (method, "qlora") ? HR_METHOD_QLORA
                 : g_str_equal (method, "lora") ? HR_METHOD_LORA : HR_METHOD_FULL;
  kind->layout = layout_of (member_int (par, "gpus", 8), member_int (par, "tp", 1),
                            member_int (par, "pp", 1), member_int (par, "cp", 1),
                            member_int (par, "ep", 1), zero);
  if (hr_json_member_true (par, "deepspeed") && zero >= 1)
    hr_copy_string (kind->framework, sizeof kind->framework, "deepspeed");
  else if (framework != NULL)
    hr_copy_string (kind->framework, sizeof kind->framework, framework->id);
}

/* An entry, checked, mapped to a scenario document without its model and
 * classified; planned only when its kind is asked for. */
typedef struct
{
  char           id[HR_NAME_MAX];
  JsonObject    *entry;    /* in the file's document */
  JsonNode      *root;     /* NULL: skipped, message says why */
  char          *message;
  HrRunKind      kind;
  gboolean       tried;    /* planned, or skipped while planning */
  HrMeasuredRun *run;      /* once planned; NULL when that failed */
} Entry;

static void
entry_clear (Entry *entry)
{
  g_clear_pointer (&entry->root, json_node_unref);
  g_clear_pointer (&entry->message, g_free);
  g_clear_pointer (&entry->run, g_free);
}

static void
prepare_entry (JsonArray  *entries,
               guint       i,
               const char *path,
               Entry      *out)
{
  JsonNode *node = json_array_get_element (entries, i);
  g_autofree char *id = NULL;
  g_autofree char *framework_id = NULL;
  g_autofree char *source = NULL;
  g_autoptr(GError) local = NULL;

  memset (out, 0, sizeof *out);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      out->message = g_strdup_printf ("%s: [%u]: not an object", path, i);
      return;
    }
  out->entry = json_node_get_object (node);
  id = member_string (out->entry, "id");
  if (*id == '\0')
    {
      g_free (id);
      id = g_strdup_printf ("[%u]", i);
    }
  hr_copy_string (out->id, sizeof out->id, id);
  if (!check_numbers (out->entry, path, id, &local))
    {
      out->message = g_strdup (local->message);
      return;
    }
  out->root = map_entry (out->entry, id, &local);
  if (out->root == NULL)
    {
      out->message = g_strdup_printf ("%s: %s", path, local->message);
      return;
    }
  framework_id = member_lower (out->entry, "framework");
  source = member_lower (out->entry, "source");
  root_kind (out->root, framework_for (framework_id, source), &out->kind);
}

/* The entry's model found, read like a scenario file and planned; FALSE
 * with message set when it cannot be. */
static gboolean
plan_entry (Entry      *entry,
            const char *path,
            Models     *models,
            HrPresets  *presets,
            HrPlan     *plan)
{
  g_autofree char *metric = NULL;
  g_autofree char *origin = NULL;
  g_autoptr(GError) local = NULL;
  HrMeasuredRun *run;

  entry->tried = TRUE;
  if (entry->root == NULL)
    return FALSE;
  metric = member_lower (entry->entry, "metric");
  origin = member_string (entry->entry, "origin");
  run = g_new0 (HrMeasuredRun, 1);
  hr_copy_string (run->id, sizeof run->id, entry->id);
  hr_copy_string (run->origin, sizeof run->origin, origin);
  run->kind = entry->kind;
  run->metric = strstr (metric, "allocated") != NULL ? HR_METRIC_ALLOCATED
                : strstr (metric, "reserved") != NULL ? HR_METRIC_RESERVED : HR_METRIC_TOTAL;
  run->measured_bytes = member_double (entry->entry, "measured_gib", 0) * HR_GIB;

  if (!add_model (entry->root, entry->entry, models, entry->id, &local)
      || !hr_scenario_read_node (&run->scenario, entry->root, entry->id, presets, &local)
      || !hr_calc_plan (&run->scenario, plan, &local)
      || !(run->measured_bytes > 0))
    {
      entry->message = local != NULL
                       ? g_strdup_printf ("%s: %s", path, local->message)
                       : g_strdup_printf ("%s: %s: measured_gib is missing; allowed: a "
                                          "number above 0 (GiB)", path, entry->id);
      g_free (run);
      return FALSE;
    }
  run->predicted_bytes = hr_measured_predicted (plan, run->metric);
  run->error = (run->predicted_bytes - run->measured_bytes) / run->measured_bytes;
  entry->run = run;
  return TRUE;
}

GPtrArray *
hr_measured_load (const char  *path,
                  HrPresets   *presets,
                  GPtrArray   *skipped,
                  GError     **error)
{
  g_autoptr(JsonNode) root = hr_json_load_file (path, error);

  if (root == NULL)
    return NULL;
  return hr_measured_load_node (root, path, presets, skipped, error);
}

GPtrArray *
hr_measured_load_node (JsonNode    *root,
                       const char  *path,
                       HrPresets   *presets,
                       GPtrArray   *skipped,
                       GError     **error)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  Models models;
  GPtrArray *runs;
  JsonArray *entries;

  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, "%s: the document is not a list; "
                   "allowed: a list of measured runs", path);
      return NULL;
    }

  models_init (&models, presets);
  entries = json_node_get_array (root);
  runs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      Entry entry;

      prepare_entry (entries, i, path, &entry);
      if (plan_entry (&entry, path, &models, presets, plan))
        g_ptr_array_add (runs, g_steal_pointer (&entry.run));
      else if (skipped != NULL)
        g_ptr_array_add (skipped, g_steal_pointer (&entry.message));
      entry_clear (&entry);
    }
  models_clear (&models);
  return runs;
}

static int
compare_abs (gconstpointer a,
             gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

double
hr_measured_error_stats (GPtrArray *runs,
                         int        method,
                         guint     *out_n,
                         double    *out_worst)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));
  double worst = 0;

  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double e = ABS (run->error);

      if (method >= 0 && run->scenario.training.method != (HrMethod) method)
        continue;
      g_array_append_val (errors, e);
      worst = MAX (worst, e);
    }
  if (out_n != NULL)
    *out_n = errors->len;
  if (out_worst != NULL)
    *out_worst = worst;
  if (errors->len == 0)
    return 0;
  g_array_sort (errors, compare_abs);
  return (g_array_index (errors, double, (errors->len - 1) / 2)
          + g_array_index (errors, double, errors->len / 2)) / 2;
}

void
hr_run_kind_of (const HrScenario *scenario,
                HrRunKind        *out)
{
  const HrParallel *p = &scenario->parallel;

  g_return_if_fail (scenario != NULL && out != NULL);

  memset (out, 0, sizeof *out);
  out->method = scenario->training.method;
  out->layout = layout_of (p->gpus, p->tp, p->pp, p->cp, p->ep, p->zero);
  if (p->deepspeed && p->zero >= 1)
    {
      hr_copy_string (out->framework, sizeof out->framework, "deepspeed");
      return;
    }
  /* The framework the scenario names (training.framework), else the one
   * whose every value it has. */
  if (scenario->training.framework[0] != '\0')
    {
      hr_copy_string (out->framework, sizeof out->framework, scenario->training.framework);
      return;
    }
  for (guint i = 0; i < hr_frameworks_count (); i++)
    if (hr_framework_matches (hr_framework_get (i), scenario))
      {
        hr_copy_string (out->framework, sizeof out->framework, hr_framework_get (i)->id);
        return;
      }
}

gboolean
hr_run_kind_equal (const HrRunKind *a,
                   const HrRunKind *b)
{
  return a->method == b->method && a->layout == b->layout
         && strcmp (a->framework, b->framework) == 0;
}

/* How far apart two kinds are: the method changes most what a plan gets
 * wrong, the framework next, the layout least. */
static guint
kind_distance (const HrRunKind *a,
               const HrRunKind *b)
{
  return (a->method != b->method ? 4 : 0) + (strcmp (a->framework, b->framework) != 0 ? 2 : 0)
         + (a->layout != b->layout ? 1 : 0);
}

static const char * const layout_ids[] = { "single-gpu", "data-parallel", "sharded", "model-parallel" };

const char *
hr_layout_id (HrLayout layout)
{
  return layout < HR_N_LAYOUTS ? layout_ids[layout] : "single-gpu";
}

char *
hr_run_kind_label (const HrRunKind *kind)
{
  static const char * const layouts[] = {
    N_("single GPU"), N_("data parallel"), N_("ZeRO/FSDP sharded"),
    N_("tensor, pipeline or context parallel"),
  };
  static const char * const methods[] = { N_("full fine-tuning"), "LoRA", "QLoRA" };
  const HrFramework *framework = hr_framework_find (kind->framework);
  const char *name = framework != NULL ? _(framework->name)
                     : strcmp (kind->framework, "deepspeed") == 0 ? "DeepSpeed"
                     : _("no known framework");

  /* TRANSLATORS: the kind of a training run: framework, method, layout */
  return g_strdup_printf (_("%s, %s, %s"), name,
                          kind->method < G_N_ELEMENTS (methods) ? _(methods[kind->method]) : "",
                          _(layouts[kind->layout < HR_N_LAYOUTS ? kind->layout : 0]));
}

static void
kind_stats (GPtrArray       *runs,
            const HrRunKind *kind,
            HrErrorBar      *bar)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));

  bar->worst = 0;
  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double e = ABS (run->error);

      if (!hr_run_kind_equal (&run->kind, kind))
        continue;
      g_array_append_val (errors, e);
      bar->worst = MAX (bar->worst, e);
    }
  bar->runs = errors->len;
  bar->median = 0;
  if (errors->len == 0)
    return;
  g_array_sort (errors, compare_abs);
  bar->median = (g_array_index (errors, double, (errors->len - 1) / 2)
                 + g_array_index (errors, double, errors->len / 2)) / 2;
}

gboolean
hr_measured_error_bar (GPtrArray        *runs,
                       const HrScenario *scenario,
                       HrErrorBar       *bar)
{
  const HrRunKind *best = NULL;
  guint best_distance = G_MAXUINT, best_count = 0;

  g_return_val_if_fail (scenario != NULL && bar != NULL, FALSE);

  memset (bar, 0, sizeof *bar);
  hr_run_kind_of (scenario, &bar->kind);
  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);
      guint distance = kind_distance (&run->kind, &bar->kind);
      guint count = 0;

      if (best != NULL && distance > best_distance)
        continue;
      for (guint j = 0; j < runs->len; j++)
        count += hr_run_kind_equal (&((const HrMeasuredRun *) g_ptr_array_index (runs, j))->kind,
                                    &run->kind);
      if (best == NULL || distance < best_distance || count > best_count)
        {
          best = &run->kind;
          best_distance = distance;
          best_count = count;
        }
    }
  if (best == NULL)
    return FALSE;
  bar->from = *best;
  bar->like_this = best_distance == 0;
  kind_stats (runs, best, bar);
  return TRUE;
}

static void
add_kind (JsonBuilder     *b,
          const char      *member,
          const HrRunKind *kind)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "framework");
  json_builder_add_string_value (b, *kind->framework != '\0' ? kind->framework : "none");
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, hr_enum_name (&hr_method_names, kind->method));
  json_builder_set_member_name (b, "layout");
  json_builder_add_string_value (b, hr_layout_id (kind->layout));
  json_builder_end_object (b);
}

/* {"framework", "method", "layout"}, as the error bar and --validate's
 * JSON write a kind. */
JsonNode *
hr_run_kind_json (const HrRunKind *kind)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  JsonNode *node;

  json_builder_begin_object (b);
  add_kind (b, "kind", kind);
  json_builder_end_object (b);
  node = json_node_copy (json_object_get_member (json_node_get_object (json_builder_get_root (b)),
                                                 "kind"));
  return node;
}

static gboolean
run_kind_from_json (JsonObject *obj,
                    HrRunKind  *kind)
{
  const char *framework = obj != NULL ? json_object_get_string_member_with_default (obj, "framework", NULL) : NULL;
  const char *method = obj != NULL ? json_object_get_string_member_with_default (obj, "method", NULL) : NULL;
  const char *layout = obj != NULL ? json_object_get_string_member_with_default (obj, "layout", NULL) : NULL;
  guint m;

  if (framework == NULL || method == NULL || layout == NULL
      || !hr_enum_parse (&hr_method_names, method, &m))
    return FALSE;
  memset (kind, 0, sizeof *kind);
  if (strcmp (framework, "none") != 0)
    hr_copy_string (kind->framework, sizeof kind->framework, framework);
  kind->method = (HrMethod) m;
  kind->layout = HR_N_LAYOUTS;
  for (guint l = 0; l < HR_N_LAYOUTS; l++)
    if (strcmp (layout_ids[l], layout) == 0)
      kind->layout = (HrLayout) l;
  return kind->layout != HR_N_LAYOUTS;
}

JsonNode *
hr_error_bar_json (const HrErrorBar *bar)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (bar != NULL, NULL);

  json_builder_begin_object (b);
  add_kind (b, "kind", &bar->kind);
  json_builder_set_member_name (b, "like_this");
  json_builder_add_boolean_value (b, bar->like_this);
  if (bar->like_this || bar->runs == 0)
    {
      json_builder_set_member_name (b, "nearest");
      json_builder_add_null_value (b);
    }
  else
    add_kind (b, "nearest", &bar->from);
  json_builder_set_member_name (b, "runs");
  json_builder_add_int_value (b, bar->runs);
  json_builder_set_member_name (b, "median");
  if (bar->runs > 0)
    json_builder_add_double_value (b, bar->median);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "worst");
  if (bar->runs > 0)
    json_builder_add_double_value (b, bar->worst);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
hr_error_bar_sentence (const HrErrorBar *bar)
{
  g_autofree char *from = NULL;

  g_return_val_if_fail (bar != NULL, NULL);

  if (bar->runs == 0)
    return g_strdup (_("no measured runs to compare with"));
  from = hr_run_kind_label (&bar->from);
  if (bar->like_this)
    /* TRANSLATORS: median and worst error in per cent, how many runs, their kind */
    return g_strdup_printf (ngettext ("median ±%.1f %%, worst ±%.1f %%, on %u measured run like this (%s)",
                                      "median ±%.1f %%, worst ±%.1f %%, on %u measured runs like this (%s)",
                                      bar->runs),
                            100 * bar->median, 100 * bar->worst, bar->runs, from);
  /* TRANSLATORS: the nearest kind of run measured, its median and worst error in per cent, how many */
  return g_strdup_printf (ngettext ("no measured run like this (nearest: %s: median %.1f %%, worst %.1f %%, %u run)",
                                    "no measured run like this (nearest: %s: median %.1f %%, worst %.1f %%, %u runs)",
                                    bar->runs),
                          from, 100 * bar->median, 100 * bar->worst, bar->runs);
}

/* The bundled file, read once in a process; its entries are planned
 * kind by kind as error bars ask for them. */
struct _HrCalibration
{
  char      *path;
  HrPresets *presets;
  Models     models;
  HrPlan    *plan;
  JsonNode  *file;
  GArray    *entries;   /* Entry */
  GPtrArray *runs;      /* the entries planned so far (HrMeasuredRun, owned by them) */
};

static HrCalibration *
calibration_new (const char *path)
{
  g_autoptr(JsonNode) file = hr_json_load_file (path, NULL);
  HrCalibration *cal;
  JsonArray *list;

  if (file == NULL || !JSON_NODE_HOLDS_ARRAY (file))
    return NULL;
  cal = g_new0 (HrCalibration, 1);
  cal->path = g_strdup (path);
  cal->presets = hr_presets_new_default ();
  models_init (&cal->models, cal->presets);
  cal->plan = hr_plan_new ();
  cal->file = g_steal_pointer (&file);
  cal->runs = g_ptr_array_new ();
  list = json_node_get_array (cal->file);
  cal->entries = g_array_sized_new (FALSE, TRUE, sizeof (Entry), json_array_get_length (list));
  g_array_set_size (cal->entries, json_array_get_length (list));
  for (guint i = 0; i < cal->entries->len; i++)
    prepare_entry (list, i, path, &g_array_index (cal->entries, Entry, i));
  return cal;
}

/* Plans the entries of one kind not planned yet; how many of that kind
 * there are in the file. */
static guint
calibration_plan_kind (HrCalibration   *cal,
                       const HrRunKind *kind)
{
  guint n = 0;

  for (guint i = 0; i < cal->entries->len; i++)
    {
      Entry *entry = &g_array_index (cal->entries, Entry, i);

      if (entry->root == NULL || !hr_run_kind_equal (&entry->kind, kind))
        continue;
      n++;
      if (!entry->tried && plan_entry (entry, cal->path, &cal->models, cal->presets, cal->plan))
        g_ptr_array_add (cal->runs, entry->run);
    }
  return n;
}

static void
calibration_free (HrCalibration *cal)
{
  for (guint i = 0; i < cal->entries->len; i++)
    entry_clear (&g_array_index (cal->entries, Entry, i));
  g_array_unref (cal->entries);
  g_ptr_array_unref (cal->runs);
  models_clear (&cal->models);
  hr_plan_free (cal->plan);
  g_clear_pointer (&cal->file, json_node_unref);
  hr_presets_free (cal->presets);
  g_free (cal->path);
  g_free (cal);
}

/* The errors of the bundled runs as the build computed them, planning
 * every run with this very build (`headroom-cli --validate --format json`,
 * src/meson.build): reading them takes a tenth of a millisecond where
 * parsing and planning the runs took two, on every table and JSON output. */
static HrCalibration *
calibration_from_summary (const char *path)
{
  g_autoptr(JsonNode) file = hr_json_load_file (path, NULL);
  JsonObject *top = file != NULL && JSON_NODE_HOLDS_OBJECT (file) ? json_node_get_object (file) : NULL;
  JsonNode *list = top != NULL ? json_object_get_member (top, "runs") : NULL;
  HrCalibration *cal;
  guint n;

  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return NULL;
  n = json_array_get_length (json_node_get_array (list));
  cal = g_new0 (HrCalibration, 1);
  cal->path = g_strdup (path);
  cal->presets = hr_presets_new_default ();
  models_init (&cal->models, cal->presets);
  cal->plan = hr_plan_new ();
  cal->file = g_steal_pointer (&file);
  cal->runs = g_ptr_array_new ();
  cal->entries = g_array_sized_new (FALSE, TRUE, sizeof (Entry), n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (json_node_get_array (list), i);
      JsonObject *obj = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      Entry entry = { 0 };
      HrMeasuredRun *run;

      if (obj == NULL || json_object_get_string_member_with_default (obj, "id", NULL) == NULL
          || !run_kind_from_json (hr_json_member_object (obj, "kind"), &entry.kind))
        {
          /* A summary this build did not write: plan the runs instead. */
          calibration_free (cal);
          return NULL;
        }
      run = g_new0 (HrMeasuredRun, 1);
      hr_copy_string (run->id, sizeof run->id, json_object_get_string_member (obj, "id"));
      hr_copy_string (entry.id, sizeof entry.id, run->id);
      run->kind = entry.kind;
      run->scenario.training.method = entry.kind.method;
      run->measured_bytes = json_object_get_double_member_with_default (obj, "measured_bytes", 0);
      run->predicted_bytes = json_object_get_double_member_with_default (obj, "predicted_bytes", 0);
      run->error = json_object_get_double_member_with_default (obj, "error", 0);
      entry.root = json_node_ref (node);
      entry.tried = TRUE;
      entry.run = run;
      g_array_append_val (cal->entries, entry);
      g_ptr_array_add (cal->runs, run);
    }
  return cal;
}

HrCalibration *
hr_calibration_bundled (void)
{
  static HrCalibration *bundled;
  static gboolean looked;
  const char *env = g_getenv ("HEADROOM_CALIBRATION");
  const char *candidates[] = {
    env,
#ifdef HR_CALIBRATION_FILE
    HR_CALIBRATION_FILE,
#endif
#ifdef HR_SOURCE_CALIBRATION_FILE
    HR_SOURCE_CALIBRATION_FILE,
#endif
  };

  const char *summaries[] = {
    g_getenv ("HEADROOM_ERRORS"),
#ifdef HR_ERRORS_FILE
    HR_ERRORS_FILE,
#endif
#ifdef HR_BUILD_ERRORS_FILE
    HR_BUILD_ERRORS_FILE,
#endif
  };

  if (looked)
    return bundled;
  looked = TRUE;
  /* The build's summary, unless a calibration file is asked for by name. */
  for (guint i = 0; env == NULL && i < G_N_ELEMENTS (summaries); i++)
    if (summaries[i] != NULL && g_file_test (summaries[i], G_FILE_TEST_IS_REGULAR)
        && (bundled = calibration_from_summary (summaries[i])) != NULL)
      return bundled;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL && g_file_test (candidates[i], G_FILE_TEST_IS_REGULAR))
      return bundled = calibration_new (candidates[i]);
  return NULL;
}

gboolean
hr_calibration_error_bar (HrCalibration    *cal,
                          const HrScenario *scenario,
                          HrErrorBar       *bar,
                          GPtrArray        *runs_out)
{
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();

  g_return_val_if_fail (scenario != NULL && bar != NULL, FALSE);

  memset (bar, 0, sizeof *bar);
  hr_run_kind_of (scenario, &bar->kind);
  if (cal == NULL)
    return FALSE;

  /* The entries' kinds, nearest first (of two as near, the one with more
   * entries), planned one kind at a time until one has runs. */
  for (guint i = 0; i < cal->entries->len; i++)
    {
      Entry *entry = &g_array_index (cal->entries, Entry, i);
      gboolean seen = FALSE;

      for (guint k = 0; entry->root != NULL && k < kinds->len && !seen; k++)
        seen = hr_run_kind_equal (g_ptr_array_index (kinds, k), &entry->kind);
      if (entry->root != NULL && !seen)
        g_ptr_array_add (kinds, &entry->kind);
    }
  while (kinds->len > 0)
    {
      guint best = 0, best_distance = G_MAXUINT, best_count = 0;

      for (guint k = 0; k < kinds->len; k++)
        {
          const HrRunKind *kind = g_ptr_array_index (kinds, k);
          guint distance = kind_distance (kind, &bar->kind);
          guint count = 0;

          for (guint i = 0; i < cal->entries->len; i++)
            count += g_array_index (cal->entries, Entry, i).root != NULL
                     && hr_run_kind_equal (&g_array_index (cal->entries, Entry, i).kind, kind);
          if (distance < best_distance || (distance == best_distance && count > best_count))
            {
              best = k;
              best_distance = distance;
              best_count = count;
            }
        }
      bar->from = *(const HrRunKind *) g_ptr_array_index (kinds, best);
      calibration_plan_kind (cal, &bar->from);
      kind_stats (cal->runs, &bar->from, bar);
      if (bar->runs > 0)
        {
          bar->like_this = best_distance == 0;
          for (guint i = 0; runs_out != NULL && i < cal->runs->len; i++)
            if (hr_run_kind_equal (&((HrMeasuredRun *) g_ptr_array_index (cal->runs, i))->kind,
                                   &bar->from))
              g_ptr_array_add (runs_out, g_ptr_array_index (cal->runs, i));
          return TRUE;
        }
      g_ptr_array_remove_index (kinds, best);
    }
  memset (&bar->from, 0, sizeof bar->from);
  return FALSE;
}
