/* hr-ds-import.c: a DeepSpeed config JSON onto a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Maps what a DeepSpeed config says about memory: zero_optimization.stage,
 * offload_optimizer / offload_param (device "cpu" or "nvme"),
 * train_micro_batch_size_per_gpu, gradient_accumulation_steps, bf16 / fp16
 * (mixed precision with fp32 master weights), the optimizer type, and
 * activation_checkpointing.  "auto" values (HF Trainer's) are left as they
 * are; whatever else changes memory is named in unmapped.
 */

#include "hr-ds-import.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-presets.h"
#include "hr-validate.h"

#include <string.h>

/* A whole number, or -1 when absent, "auto" or of another type. */
static gint64
int_member (JsonObject *obj,
            const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return -1;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  return -1;
}

static gboolean
enabled (JsonObject *obj,
         const char *key)
{
  JsonObject *section = hr_json_member_object (obj, key);
  JsonNode *node = section != NULL ? json_object_get_member (section, "enabled") : NULL;

  if (section == NULL)
    return FALSE;
  if (node == NULL)
    return TRUE;
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN
         && json_node_get_boolean (node);
}

static gboolean
offloaded (JsonObject *zero,
           const char *key)
{
  JsonObject *section = hr_json_member_object (zero, key);
  JsonNode *device = section != NULL ? json_object_get_member (section, "device") : NULL;
  const char *value;

  if (device == NULL || !JSON_NODE_HOLDS_VALUE (device)
      || json_node_get_value_type (device) != G_TYPE_STRING)
    return FALSE;
  value = json_node_get_string (device);
  return g_strcmp0 (value, "cpu") == 0 || g_strcmp0 (value, "nvme") == 0;
}

gboolean
hr_ds_import_node (HrScenario  *scenario,
                   JsonNode    *root,
                   const char  *origin,
                   GPtrArray   *unmapped,
                   GError     **error)
{
  HrScenario sc = *scenario;
  JsonObject *obj, *zero, *optimizer, *checkpointing;
  gint64 v;
  g_autoptr(GError) local = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, "%s: not a DeepSpeed config object", origin);
      return FALSE;
    }
  obj = json_node_get_object (root);
  zero = hr_json_member_object (obj, "zero_optimization");
  if (zero == NULL && int_member (obj, "train_micro_batch_size_per_gpu") < 0
      && int_member (obj, "train_batch_size") < 0)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "%s: no zero_optimization and no "
                   "batch size; allowed: a DeepSpeed config JSON", origin);
      return FALSE;
    }

  if (zero != NULL)
    {
      v = int_member (zero, "stage");
      if (v >= 0 && v <= 3)
        sc.parallel.zero = (guint64) v;
      sc.parallel.offload_optimizer = offloaded (zero, "offload_optimizer");
      sc.parallel.offload_params = offloaded (zero, "offload_param");
      if (sc.parallel.offload_params && sc.parallel.zero != 3)
        sc.parallel.offload_params = FALSE;
      if (unmapped != NULL && (json_object_has_member (zero, "stage3_max_live_parameters")
                               || json_object_has_member (zero, "reduce_bucket_size")))
        g_ptr_array_add (unmapped, g_strdup ("zero_optimization bucket sizes: the plan counts "
                                             "one layer in flight, not DeepSpeed's buckets"));
    }

  v = int_member (obj, "train_micro_batch_size_per_gpu");
  if (v > 0)
    sc.training.micro_batch = (guint64) v;
  v = int_member (obj, "gradient_accumulation_steps");
  if (v > 0)
    sc.training.grad_accum = (guint64) v;

  /* DeepSpeed's bf16 and fp16 keep fp32 master weights and states. */
  if (enabled (obj, "bf16") || enabled (obj, "bfloat16"))
    sc.training.precision = HR_PRECISION_BF16_MIXED;
  else if (enabled (obj, "fp16"))
    sc.training.precision = HR_PRECISION_FP16_MIXED;
  else if (zero != NULL)
    sc.training.precision = HR_PRECISION_FP32;
  sc.training.dtypes_set = 0;
  hr_training_apply_precision (&sc.training);

  optimizer = hr_json_member_object (obj, "optimizer");
  if (optimizer != NULL && json_object_has_member (optimizer, "type"))
    {
      JsonNode *type = json_object_get_member (optimizer, "type");
      g_autofree char *name = NULL;

      if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
        name = g_ascii_strdown (json_node_get_string (type), -1);
      if (name != NULL && (strstr (name, "adam") != NULL))
        sc.training.optimizer = strstr (name, "w") != NULL ? HR_OPTIMIZER_ADAMW : HR_OPTIMIZER_ADAM;
      else if (name != NULL && strstr (name, "lion") != NULL)
        sc.training.optimizer = HR_OPTIMIZER_LION;
      else if (name != NULL && strstr (name, "sgd") != NULL)
        sc.training.optimizer = HR_OPTIMIZER_SGD_MOMENTUM;
      else if (unmapped != NULL && name != NULL)
        g_ptr_array_add (unmapped, g_strdup_printf ("optimizer.type \"%s\" is not one Headroom "
                                                    "knows; the optimizer is unchanged", name));
      /* DeepSpeed's own Adam kernels are fused. */
      sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_FUSED;
    }

  checkpointing = hr_json_member_object (obj, "activation_checkpointing");
  if (checkpointing != NULL)
    {
      sc.training.checkpointing = HR_CHECKPOINTING_FULL;
      if (unmapped != NULL && hr_json_member_true (checkpointing, "cpu_checkpointing"))
        g_ptr_array_add (unmapped, g_strdup ("activation_checkpointing.cpu_checkpointing: "
                                             "checkpoints on the CPU are counted on the GPU"));
    }

  if (!hr_scenario_validate (&sc, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", origin, local->message);
      return FALSE;
    }
  *scenario = sc;
  return TRUE;
}

gboolean
hr_ds_import_file (HrScenario  *scenario,
                   const char  *path,
                   GPtrArray   *unmapped,
                   GError     **error)
{
  g_autoptr(JsonNode) root = hr_json_load_file (path, error);

  if (root == NULL)
    return FALSE;
  return hr_ds_import_node (scenario, root, path, unmapped, error);
}
