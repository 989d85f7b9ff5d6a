/* hr-ds-import.c: a DeepSpeed config JSON onto a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Maps what a DeepSpeed config says about memory: zero_optimization.stage,
 * offload_optimizer / offload_param (device "cpu" or "nvme"),
 * train_micro_batch_size_per_gpu, gradient_accumulation_steps, bf16 / fp16
 * (mixed precision with fp32 master weights), the optimizer type, and
 * activation_checkpointing; and that the engine is DeepSpeed's
 * (parallel.deepspeed) and its zero_optimization sizes.  Other "auto"
 * values (the Hugging Face Trainer fills them in at run time) leave the
 * scenario's value and are named in unmapped, as is whatever else changes memory; a value DeepSpeed would
 * refuse (stage 4, a micro-batch of 0, "enabled": "yes") is the file's
 * error, named with its key and what is allowed.
 */

#include "hr-ds-import.h"
#include "hr-import.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-presets.h"
#include "hr-fields-read.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define AUTO_NOTE \
  "\"auto\" (set by the Hugging Face Trainer at run time; %s left as the scenario's %s)"

static gboolean
is_auto (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_STRING
         && strcmp (json_node_get_string (node), "auto") == 0;
}

static void
note_auto (GPtrArray  *unmapped,
           const char *path,
           const char *what,
           const char *value)
{
  if (unmapped != NULL)
    g_ptr_array_add (unmapped, g_strdup_printf ("%s: " AUTO_NOTE, path, what, value));
}

/* A member that must be an object when present; NULL when absent or null. */
static gboolean
get_section (JsonObject   *obj,
             const char   *key,
             const char   *origin,
             const char   *path,
             const char   *example,
             JsonObject  **out,
             GError      **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *value = hr_fields_describe_node (node);

      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: %s: %s is not allowed; allowed: "
                   "an object such as %s"), origin, path, value, example);
      return FALSE;
    }
  *out = json_node_get_object (node);
  return TRUE;
}

/* A whole number from min to max (32.0 counts as 32, as in a scenario
 * file).  *out is -1 when the member is absent, null or "auto"; "auto" is
 * named in unmapped, saying what stays the scenario's. */
static gboolean
get_whole (JsonObject  *obj,
           const char  *key,
           const char  *path,
           gint64       min,
           gint64       max,
           const char  *what,
           const char  *current,
           const char  *origin,
           GPtrArray   *unmapped,
           gint64      *out,
           GError     **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;
  GType type;
  gint64 v = 0;

  *out = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (is_auto (node))
    {
      note_auto (unmapped, path, what, current);
      return TRUE;
    }
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type == G_TYPE_INT64)
    v = json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (floor (d) == d && fabs (d) <= 9007199254740992.0)
        v = (gint64) d;
      else
        type = G_TYPE_INVALID;
    }
  else
    type = G_TYPE_INVALID;
  if (type == G_TYPE_INVALID || v < min || v > max)
    {
      g_autofree char *value = hr_fields_describe_node (node);
      g_autofree char *allowed = NULL;

      if (max - min <= 3)
        {
          GString *s = g_string_new (NULL);

          for (gint64 i = min; i <= max; i++)
            g_string_append_printf (s, "%s%" G_GINT64_FORMAT,
                                    i == min ? "" : i == max ? " or " : ", ", i);
          allowed = g_string_free (s, FALSE);
        }
      else
        allowed = g_strdup_printf ("a whole number %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                                   min, max);
      g_set_error (error, HR_ERROR, type == G_TYPE_INVALID ? HR_ERROR_TYPE : HR_ERROR_INVALID,
                   _("%s: %s: %s is not allowed; allowed: %s, or \"auto\""),
                   origin, path, value, allowed);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

typedef enum
{
  SWITCH_ABSENT,
  SWITCH_OFF,
  SWITCH_ON,
  SWITCH_AUTO,
} Switch;

/* bf16 / fp16: {"enabled": true}.  DeepSpeed's default is false, so a
 * section without "enabled" does not turn the mode on. */
static gboolean
get_switch (JsonObject   *obj,
            const char   *key,
            const char   *origin,
            Switch       *out,
            GError      **error)
{
  g_autofree char *path = g_strconcat (key, ".enabled", NULL);
  JsonObject *section;
  JsonNode *node;

  *out = SWITCH_ABSENT;
  if (!get_section (obj, key, origin, key, "{\"enabled\": true}", &section, error))
    return FALSE;
  if (section == NULL)
    return TRUE;
  node = json_object_get_member (section, "enabled");
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    *out = SWITCH_OFF;
  else if (is_auto (node))
    *out = SWITCH_AUTO;
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    *out = json_node_get_boolean (node) ? SWITCH_ON : SWITCH_OFF;
  else
    {
      g_autofree char *value = hr_fields_describe_node (node);

      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: %s: %s is not allowed; allowed: "
                   "true, false or \"auto\""), origin, path, value);
      return FALSE;
    }
  return TRUE;
}

/* zero_optimization.offload_*.device: TRUE when it leaves the GPU, and
 * where it goes. */
static gboolean
get_offload (JsonObject       *zero,
             const char       *key,
             const char       *origin,
             GPtrArray        *unmapped,
             gboolean          current,
             HrOffloadDevice   current_device,
             gboolean         *out,
             HrOffloadDevice  *out_device,
             GError          **error)
{
  g_autofree char *path = g_strconcat ("zero_optimization.", key, NULL);
  g_autofree char *device_path = g_strconcat (path, ".device", NULL);
  JsonObject *section;
  JsonNode *device;
  const char *value;

  *out = FALSE;
  *out_device = HR_OFFLOAD_DEVICE_CPU;
  if (!get_section (zero, key, origin, path, "{\"device\": \"cpu\"}", &section, error))
    return FALSE;
  device = section != NULL ? json_object_get_member (section, "device") : NULL;
  if (device == NULL || JSON_NODE_HOLDS_NULL (device))
    return TRUE;
  if (is_auto (device))
    {
      note_auto (unmapped, device_path, "offload",
                 current ? hr_enum_name (&hr_offload_device_names, current_device) : "none");
      *out = current;
      *out_device = current_device;
      return TRUE;
    }
  value = JSON_NODE_HOLDS_VALUE (device) && json_node_get_value_type (device) == G_TYPE_STRING
          ? json_node_get_string (device) : NULL;
  if (g_strcmp0 (value, "cpu") == 0 || g_strcmp0 (value, "nvme") == 0)
    {
      *out = TRUE;
      *out_device = strcmp (value, "nvme") == 0 ? HR_OFFLOAD_DEVICE_NVME : HR_OFFLOAD_DEVICE_CPU;
    }
  else if (g_strcmp0 (value, "none") != 0)
    {
      g_autofree char *shown = hr_fields_describe_node (device);

      g_set_error (error, HR_ERROR, value != NULL ? HR_ERROR_INVALID : HR_ERROR_TYPE,
                   _("%s: %s: %s is not allowed; allowed: none, cpu or nvme"),
                   origin, device_path, shown);
      return FALSE;
    }
  return TRUE;
}

static char *
uint_text (guint64 v)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, v);
}

/* zero_optimization's sizes, in elements: the file's, DeepSpeed's
 * default where it leaves one out (the field table's absent value), and
 * for "auto" what the Hugging Face Trainer fills in from the model's
 * hidden size (transformers/integrations/deepspeed.py,
 * HfTrainerDeepSpeedConfig.trainer_config_finalize: reduce_bucket_size
 * hidden², and under ZeRO-3 stage3_prefetch_bucket_size 0.9·hidden² and
 * stage3_param_persistence_threshold 10·hidden), named in UNMAPPED with
 * the model it was worked out for. */
static gboolean
read_sizes (JsonObject  *zero,
            const char  *origin,
            HrScenario  *sc,
            GPtrArray   *unmapped,
            GError     **error)
{
  static const char * const keys[] = {
    "reduce_bucket_size", "stage3_prefetch_bucket_size", "stage3_max_live_parameters",
    "stage3_max_reuse_distance", "stage3_param_persistence_threshold", "sub_group_size",
  };
  double h = (double) sc->model.hidden;
  /* (0: "auto" is not one the Trainer fills, or not at this stage) */
  const double filled[] = { h * h, sc->parallel.zero == 3 ? floor (0.9 * h * h) : 0, 0, 0,
                            sc->parallel.zero == 3 ? 10 * h : 0, 0 };
  JsonNode *overlap = json_object_get_member (zero, "overlap_comm");

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *path = g_strconcat ("parallel.", keys[i], NULL);
      g_autofree char *ds_path = g_strconcat ("zero_optimization.", keys[i], NULL);
      JsonNode *node = json_object_get_member (zero, keys[i]);
      gsize offset;
      const Field *field = hr_field_find (path, &offset);
      guint64 *value = G_STRUCT_MEMBER_P (sc, offset + field->offset);
      gint64 v;

      *value = (guint64) field->absent;
      if (is_auto (node))
        {
          if (filled[i] > 0)
            *value = (guint64) filled[i];
          if (unmapped != NULL && filled[i] > 0)
            g_ptr_array_add (unmapped, g_strdup_printf (_("%s: \"auto\" is what the Hugging Face "
                                                          "Trainer fills in for a hidden size of %"
                                                          PRIu64 ": %" PRIu64 " (set it again for "
                                                          "another model)"),
                                                        ds_path, sc->model.hidden, *value));
          else if (unmapped != NULL)
            g_ptr_array_add (unmapped, g_strdup_printf (_("%s: \"auto\" is not one the Hugging Face "
                                                          "Trainer fills in here; DeepSpeed's default, %"
                                                          PRIu64 ", is planned"), ds_path, *value));
          continue;
        }
      if (!get_whole (zero, keys[i], ds_path, (gint64) field->min, (gint64) field->max,
                      NULL, NULL, origin, unmapped, &v, error))
        return FALSE;
      if (v >= 0)
        *value = (guint64) v;
    }
  /* (a switch of ZeRO-1/2's: stage 3 overlaps always) */
  sc->parallel.overlap_comm = FALSE;
  if (overlap != NULL && !JSON_NODE_HOLDS_NULL (overlap))
    {
      if (!JSON_NODE_HOLDS_VALUE (overlap) || json_node_get_value_type (overlap) != G_TYPE_BOOLEAN)
        {
          g_autofree char *value = hr_fields_describe_node (overlap);

          g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: zero_optimization.overlap_comm: %s is "
                       "not allowed; allowed: true or false"), origin, value);
          return FALSE;
        }
      sc->parallel.overlap_comm = json_node_get_boolean (overlap);
    }
  return TRUE;
}

/* zero_optimization: the stage, the offloads and the sizes; the other
 * bucket settings are named in UNMAPPED where the file sets them. */
static gboolean
read_zero (JsonObject  *zero,
           const char  *origin,
           HrScenario  *sc,
           GPtrArray   *unmapped,
           GError     **error)
{
  g_autofree char *stage = uint_text (sc->parallel.zero);
  HrOffloadDevice device;
  gboolean offload;
  gint64 v;

  if (!get_whole (zero, "stage", "zero_optimization.stage", 0, 3, "ZeRO stage", stage,
                  origin, unmapped, &v, error))
    return FALSE;
  if (v >= 0)
    sc->parallel.zero = (guint64) v;
  if (!get_offload (zero, "offload_optimizer", origin, unmapped,
                    sc->parallel.offload_optimizer, sc->parallel.offload_optimizer_device,
                    &offload, &device, error))
    return FALSE;
  sc->parallel.offload_optimizer = offload;
  sc->parallel.offload_optimizer_device = device;
  if (!get_offload (zero, "offload_param", origin, unmapped,
                    sc->parallel.offload_params, sc->parallel.offload_params_device,
                    &offload, &device, error))
    return FALSE;
  sc->parallel.offload_params = offload;
  sc->parallel.offload_params_device = device;
  /* "NVMe offloading is available only with ZeRO stage 3" (DeepSpeed's
   * config reference, offload_optimizer). */
  if (sc->parallel.offload_optimizer && sc->parallel.zero != 3
      && sc->parallel.offload_optimizer_device == HR_OFFLOAD_DEVICE_NVME)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: zero_optimization."
                   "offload_optimizer.device: \"nvme\" needs zero_optimization.stage 3 "
                   "(ZeRO-Infinity); allowed: none or cpu with stage %" PRIu64),
                   origin, sc->parallel.zero);
      return FALSE;
    }
  /* DeepSpeed offloads parameters only under ZeRO-3. */
  if (sc->parallel.offload_params && sc->parallel.zero != 3)
    {
      sc->parallel.offload_params = FALSE;
      sc->parallel.offload_params_device = HR_OFFLOAD_DEVICE_CPU;
      if (unmapped != NULL)
        g_ptr_array_add (unmapped, g_strdup_printf ("zero_optimization.offload_param: "
                                                    "only ZeRO-3 offloads parameters; with "
                                                    "stage %" G_GUINT64_FORMAT " they stay "
                                                    "on the GPU", sc->parallel.zero));
    }
  if (!read_sizes (zero, origin, sc, unmapped, error))
    return FALSE;
  if (unmapped != NULL)
    {
      static const char * const buckets[] = {
        "allgather_bucket_size", "contiguous_gradients",
      };

      for (guint i = 0; i < G_N_ELEMENTS (buckets); i++)
        if (json_object_has_member (zero, buckets[i]))
          g_ptr_array_add (unmapped, g_strdup_printf ("zero_optimization.%s: the plan "
                                                      "counts DeepSpeed's default",
                                                      buckets[i]));
    }
  return TRUE;
}

/* The micro-batch and the accumulation steps (the global batch alone
 * says nothing without the world size). */
static gboolean
read_batch (JsonObject  *obj,
            const char  *origin,
            HrScenario  *sc,
            GPtrArray   *unmapped,
            GError     **error)
{
  g_autofree char *micro = uint_text (sc->training.micro_batch);
  g_autofree char *accum = uint_text (sc->training.grad_accum);
  JsonNode *node;
  gint64 v, total;

  if (!get_whole (obj, "train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu",
                  1, HR_MAX_MICRO_BATCH, "micro-batch", micro, origin, unmapped, &v, error))
    return FALSE;
  if (v > 0)
    sc->training.micro_batch = (guint64) v;
  /* An "auto" global batch says nothing the micro-batch does not. */
  if (!get_whole (obj, "train_batch_size", "train_batch_size", 1, G_MAXINT32,
                  "micro-batch", micro, origin, NULL, &total, error))
    return FALSE;
  /* DeepSpeed derives the micro-batch from the global batch and the
   * world size, which the scenario's GPUs may not be. */
  node = json_object_get_member (obj, "train_batch_size");
  if (unmapped != NULL && (total > 0 || is_auto (node))
      && !json_object_has_member (obj, "train_micro_batch_size_per_gpu"))
    {
      g_autofree char *value = hr_fields_describe_node (node);

      g_ptr_array_add (unmapped, g_strdup_printf ("train_batch_size: %s without "
                                                  "train_micro_batch_size_per_gpu; the "
                                                  "micro-batch is left as the scenario's %s",
                                                  value, micro));
    }
  if (!get_whole (obj, "gradient_accumulation_steps", "gradient_accumulation_steps",
                  1, HR_MAX_MICRO_BATCH, "gradient accumulation", accum, origin, unmapped,
                  &v, error))
    return FALSE;
  if (v > 0)
    sc->training.grad_accum = (guint64) v;
  return TRUE;
}

/* DeepSpeed's bf16 and fp16 keep fp32 master weights and states; it
 * reads "bfloat16" only without "bf16". */
static gboolean
read_precision (JsonObject  *obj,
                const char  *origin,
                HrScenario  *sc,
                GPtrArray   *unmapped,
                GError     **error)
{
  Switch bf16, fp16;

  if (!get_switch (obj, json_object_has_member (obj, "bf16") ? "bf16" : "bfloat16", origin,
                   &bf16, error)
      || !get_switch (obj, "fp16", origin, &fp16, error))
    return FALSE;
  if (bf16 == SWITCH_ON && fp16 == SWITCH_ON)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: bf16.enabled: true with "
                   "fp16.enabled: true; allowed: one of them (DeepSpeed refuses both)"), origin);
      return FALSE;
    }
  if (bf16 == SWITCH_ON || fp16 == SWITCH_ON || (bf16 != SWITCH_AUTO && fp16 != SWITCH_AUTO))
    {
      sc->training.precision = bf16 == SWITCH_ON ? HR_PRECISION_BF16_MIXED
                               : fp16 == SWITCH_ON ? HR_PRECISION_FP16_MIXED
                               : HR_PRECISION_FP32;
      sc->training.dtypes_set = 0;
      hr_training_apply_precision (&sc->training);
    }
  else
    {
      const char *precision = hr_enum_name (&hr_precision_names, sc->training.precision);

      if (bf16 == SWITCH_AUTO)
        note_auto (unmapped, json_object_has_member (obj, "bf16") ? "bf16.enabled"
                                                                  : "bfloat16.enabled",
                   "precision", precision);
      if (fp16 == SWITCH_AUTO)
        note_auto (unmapped, "fp16.enabled", "precision", precision);
    }
  return TRUE;
}

/* optimizer.type, by its name's family; DeepSpeed's kernels are fused. */
static gboolean
read_optimizer (JsonObject  *obj,
                const char  *origin,
                HrScenario  *sc,
                GPtrArray   *unmapped,
                GError     **error)
{
  JsonObject *optimizer;

  if (!get_section (obj, "optimizer", origin, "optimizer", "{\"type\": \"AdamW\"}",
                    &optimizer, error))
    return FALSE;
  if (optimizer != NULL && json_object_has_member (optimizer, "type"))
    {
      JsonNode *type = json_object_get_member (optimizer, "type");
      g_autofree char *name = NULL;

      if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
        name = g_ascii_strdown (json_node_get_string (type), -1);
      else
        {
          g_autofree char *value = hr_fields_describe_node (type);

          g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: optimizer.type: %s is not "
                       "allowed; allowed: an optimizer name such as \"AdamW\""), origin, value);
          return FALSE;
        }
      if (strstr (name, "adam") != NULL)
        sc->training.optimizer = strstr (name, "w") != NULL ? HR_OPTIMIZER_ADAMW : HR_OPTIMIZER_ADAM;
      else if (strstr (name, "lion") != NULL)
        sc->training.optimizer = HR_OPTIMIZER_LION;
      else if (strstr (name, "sgd") != NULL)
        sc->training.optimizer = HR_OPTIMIZER_SGD_MOMENTUM;
      else if (unmapped != NULL)
        g_ptr_array_add (unmapped, g_strdup_printf ("optimizer.type \"%s\" is not one Headroom "
                                                    "knows; the optimizer is unchanged", name));
      /* DeepSpeed's own Adam kernels are fused. */
      sc->training.optimizer_impl = HR_OPTIMIZER_IMPL_FUSED;
    }
  return TRUE;
}

/* activation_checkpointing: any section says full checkpointing. */
static gboolean
read_checkpointing (JsonObject  *obj,
                    const char  *origin,
                    HrScenario  *sc,
                    GPtrArray   *unmapped,
                    GError     **error)
{
  JsonObject *checkpointing;

  if (!get_section (obj, "activation_checkpointing", origin, "activation_checkpointing",
                    "{\"partition_activations\": true}", &checkpointing, error))
    return FALSE;
  if (checkpointing != NULL)
    {
      sc->training.checkpointing = HR_CHECKPOINTING_FULL;
      if (unmapped != NULL && hr_json_member_true (checkpointing, "cpu_checkpointing"))
        g_ptr_array_add (unmapped, g_strdup ("activation_checkpointing.cpu_checkpointing: "
                                             "checkpoints on the CPU are counted on the GPU"));
    }
  return TRUE;
}

gboolean
hr_ds_import_node (HrScenario  *scenario,
                   JsonNode    *root,
                   const char  *origin,
                   GPtrArray   *unmapped,
                   GError     **error)
{
  HrScenario sc = *scenario;
  JsonObject *obj, *zero;
  g_autoptr(GError) local = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: not a DeepSpeed config object"), origin);
      return FALSE;
    }
  obj = json_node_get_object (root);
  if (!get_section (obj, "zero_optimization", origin, "zero_optimization",
                    "{\"stage\": 3}", &zero, error))
    return FALSE;
  if (zero == NULL && !json_object_has_member (obj, "train_micro_batch_size_per_gpu")
      && !json_object_has_member (obj, "train_batch_size"))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: no zero_optimization and no "
                   "batch size; allowed: a DeepSpeed config JSON"), origin);
      return FALSE;
    }
  if (zero != NULL && !read_zero (zero, origin, &sc, unmapped, error))
    return FALSE;
  /* What DeepSpeed's engine allocates (hr-calc.c: its gradient partition
   * and buckets). */
  sc.parallel.deepspeed = TRUE;
  if (!read_batch (obj, origin, &sc, unmapped, error)
      || !read_precision (obj, origin, &sc, unmapped, error)
      || !read_optimizer (obj, origin, &sc, unmapped, error)
      || !read_checkpointing (obj, origin, &sc, unmapped, error))
    return FALSE;

  if (!hr_scenario_validate (&sc, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", origin, local->message);
      return FALSE;
    }
  *scenario = sc;
  return TRUE;
}

/* A DeepSpeed config: ZeRO settings or a micro-batch at its top level. */
static gboolean
ds_detect (JsonObject *root)
{
  return json_object_has_member (root, "zero_optimization")
         || json_object_has_member (root, "train_micro_batch_size_per_gpu");
}

const HrImporter hr_deepspeed_importer = {
  .id = "deepspeed",
  .name = N_("a DeepSpeed config"),
  .detect = ds_detect,
  .apply = hr_ds_import_node,
};
