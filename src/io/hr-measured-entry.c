/* hr-measured-entry.c: one measured run's words as a scenario document
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An entry describes a run in words a paper or a README uses ("bf16-true",
 * "bitsandbytes PagedAdamW", targets "q_proj"); this file turns those words
 * into a scenario object, which hr-measured.c reads like any scenario
 * file, so the comparison uses exactly the model the app and the CLI use.
 * The architecture is taken from the model preset whose dimensions match
 * the entry's; an entry's own "scenario" object says what the words cannot.
 */

#include "hr-measured-private.h"

#include "hr-error.h"
#include "hr-frameworks.h"
#include "hr-json.h"
#include "hr-scenario-io.h"
#include "hr-validate.h"

#include <math.h>
#include <string.h>

void
hr_measured_models_init (Models    *models,
                         HrPresets *presets)
{
  models->presets = presets;
  models->known = g_array_new (FALSE, TRUE, sizeof (KnownModel));
  models->order = NULL;
  models->gpus = NULL;
}

void
hr_measured_models_clear (Models *models)
{
  g_clear_pointer (&models->known, g_array_unref);
  g_clear_pointer (&models->order, g_ptr_array_unref);
  g_clear_pointer (&models->gpus, g_ptr_array_unref);
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

/* hr_measured_check_numbers () has refused what is out of range; a double converts
 * only when gint64 holds it (converting 3e23 is undefined behaviour). */
gint64
hr_measured_member_int (JsonObject *obj,
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

char *
hr_measured_member_string (JsonObject *obj,
                           const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return g_strdup ("");
  return g_strdup (json_node_get_string (node));
}

char *
hr_measured_member_lower (JsonObject *obj,
                          const char *key)
{
  g_autofree char *s = hr_measured_member_string (obj, key);

  return g_ascii_strdown (s, -1);
}

/* A number, or the fallback for a member of another type: measured-run
 * files come from anywhere. */
double
hr_measured_member_double (JsonObject *obj,
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
gboolean
hr_measured_check_numbers (JsonObject  *e,
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
  gint64 vocab = hr_measured_member_int (arch, "vocab", -1);

  /* A hybrid or mixture-of-experts preset with a plain transformer's
   * sizes (Bamba 9B has Llama 3 8B's) is not the run's model unless its
   * arch says so. */
  if ((m->layer_pattern[0] != '\0' && !json_object_has_member (arch, "layer_pattern"))
      || (m->ssm_heads > 0 && !json_object_has_member (arch, "ssm_heads"))
      || (m->experts > 1 && !json_object_has_member (arch, "experts")))
    return FALSE;
  return (guint64) hr_measured_member_int (arch, "layers", -1) == m->layers
         && (guint64) hr_measured_member_int (arch, "hidden", -1) == m->hidden
         && (guint64) hr_measured_member_int (arch, "heads", -1) == m->heads
         && (guint64) hr_measured_member_int (arch, "kv_heads", (gint64) m->heads) == m->kv_heads
         && (guint64) hr_measured_member_int (arch, "ffn", -1) == m->ffn
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
const HrFramework *
hr_measured_framework_for (const char *id,
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

/* The entry's "parallelism" PAR as the scenario's "parallel" object:
 * FSDP is ZeRO-3's sharding. */
static void
add_parallel (JsonBuilder *b,
              JsonObject  *par,
              gboolean     fsdp)
{
  json_builder_set_member_name (b, "parallel");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "gpus");
  json_builder_add_int_value (b, hr_measured_member_int (par, "gpus", 1));
  json_builder_set_member_name (b, "gpus_per_node");
  json_builder_add_int_value (b, MIN (hr_measured_member_int (par, "gpus", 1), 8));
  json_builder_set_member_name (b, "tp");
  json_builder_add_int_value (b, hr_measured_member_int (par, "tp", 1));
  json_builder_set_member_name (b, "pp");
  json_builder_add_int_value (b, hr_measured_member_int (par, "pp", 1));
  json_builder_set_member_name (b, "zero");
  json_builder_add_int_value (b, fsdp ? 3 : hr_measured_member_int (par, "zero_stage", 0));
  json_builder_end_object (b);
}

/* The entry as a scenario document, but for its model (add_model) and
 * its GPU preset (hr-measured-gpu.c). */
JsonNode *
hr_measured_map_entry (JsonObject  *e,
                       const char  *id,
                       GError     **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  JsonObject *par = hr_json_member_object (e, "parallelism");
  JsonObject *lora = hr_json_member_object (e, "lora");
  g_autofree char *task = hr_measured_member_lower (e, "task");
  g_autofree char *precision = hr_measured_member_lower (e, "precision");
  g_autofree char *optimizer = hr_measured_member_lower (e, "optimizer");
  g_autofree char *source = hr_measured_member_lower (e, "source");
  g_autofree char *gpu_name = hr_measured_member_string (e, "gpu");
  const char *prec = map_precision (precision);
  const char *opt = map_optimizer (optimizer);
  g_autofree char *framework_id = hr_measured_member_lower (e, "framework");
  const HrFramework *framework = hr_measured_framework_for (framework_id, source);
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
      json_builder_add_int_value (b, hr_measured_member_int (lora, "rank", 8));
      if (hr_measured_member_double (lora, "dropout", -1) >= 0)
        {
          json_builder_set_member_name (b, "dropout");
          json_builder_add_double_value (b, hr_measured_member_double (lora, "dropout", 0));
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
  json_builder_add_int_value (b, hr_measured_member_int (e, "micro_batch", 1));
  json_builder_set_member_name (b, "seq_len");
  json_builder_add_int_value (b, hr_measured_member_int (e, "seq_len", 512));
  json_builder_set_member_name (b, "checkpointing");
  json_builder_add_string_value (b, hr_json_member_true (e, "grad_checkpointing") ? "full" : "none");
  json_builder_end_object (b);

  add_parallel (b, par, fsdp);

  hr_measured_add_gpu (b, gpu_name);
  json_builder_end_object (b);
#undef SKIP

  root = json_builder_get_root (b);
  /* What the run's framework does (hr-frameworks.c), then what the entry
   * itself says. */
  if (framework != NULL)
    {
      /* Named too, so that the reader refuses a value the framework's
       * code cannot run (hr_framework_check), as in a scenario file. */
      g_autofree char *named = g_strdup_printf ("training.framework=\"%s\"", framework->id);

      if (!hr_framework_apply_json (framework, json_node_get_object (root), error)
          || !hr_json_set_path (json_node_get_object (root), named, error))
        {
          json_node_unref (root);
          return NULL;
        }
    }
  if (hr_json_member_object (e, "scenario") != NULL)
    merge_into (json_node_get_object (root), hr_json_member_object (e, "scenario"));
  return root;
}

/* The preset with the entry's dimensions as its model, under what the
 * entry's "scenario" object says of the model; reading the presets is
 * the costly part of an entry, so it comes after its kind is known. */
gboolean
hr_measured_add_model (JsonNode    *root,
                       JsonObject  *e,
                       Models      *models,
                       const char  *id,
                       GError     **error)
{
  JsonObject *arch = hr_json_member_object (e, "arch");
  g_autofree char *name = hr_measured_member_string (e, "model");
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

/* The kind of an entry, from its scenario document before its model is
 * known: the framework it names or its source does, its method, its
 * layout. */
void
hr_measured_root_kind (JsonNode          *root,
                       const HrFramework *framework,
                       HrRunKind         *kind)
{
  JsonObject *obj = json_node_get_object (root);
  JsonObject *training = hr_json_member_object (obj, "training");
  JsonObject *par = hr_json_member_object (obj, "parallel");
  g_autofree char *method = hr_measured_member_lower (training, "method");
  gint64 zero = hr_measured_member_int (par, "zero", 3);

  memset (kind, 0, sizeof *kind);
  kind->method = g_str_equal (method, "qlora") ? HR_METHOD_QLORA
                 : g_str_equal (method, "lora") ? HR_METHOD_LORA : HR_METHOD_FULL;
  kind->layout = hr_layout_of (hr_measured_member_int (par, "gpus", 8), hr_measured_member_int (par, "tp", 1),
                               hr_measured_member_int (par, "pp", 1), hr_measured_member_int (par, "cp", 1),
                               hr_measured_member_int (par, "ep", 1), zero,
                               hr_json_member_true (par, "offload_params")
                               || hr_json_member_true (par, "offload_optimizer"));
  if (hr_json_member_true (par, "deepspeed") && zero >= 1)
    hr_copy_string (kind->framework, sizeof kind->framework, "deepspeed");
  else if (framework != NULL)
    hr_copy_string (kind->framework, sizeof kind->framework, framework->id);
}
