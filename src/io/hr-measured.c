/* hr-measured.c: measured training runs, planned to check the plan against
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file in the format of measured-calibration.json: each entry is mapped
 * to a scenario (hr-measured-entry.c), read and planned, and its predicted
 * peak set beside the measured one.  The bundled file is read once per
 * process and its entries planned only as an error bar needs them.
 */

#include "hr-measured-private.h"

#include "hr-calc.h"
#include "hr-error.h"
#include "hr-format.h"
#include "hr-json.h"
#include "hr-scenario-io.h"

#include <string.h>

double
hr_measured_predicted (const HrPlan *plan,
                       HrMetric      metric,
                       gint64        stage)
{
  double most = 0;

  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];
      double v;

      if (stage >= 0 && d->stage != (guint64) stage)
        continue;
      v = metric == HR_METRIC_ALLOCATED ? (double) d->allocated_bytes
                 : metric == HR_METRIC_RESERVED ? (double) d->reserved_bytes
                 : (double) d->total_bytes;

      most = MAX (most, v);
    }
  return most;
}

void
hr_measured_entry_clear (Entry *entry)
{
  g_clear_pointer (&entry->root, json_node_unref);
  g_clear_pointer (&entry->message, g_free);
  g_clear_pointer (&entry->run, g_free);
}

void
hr_measured_entry_prepare (JsonArray  *entries,
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
  id = hr_measured_member_string (out->entry, "id");
  if (*id == '\0')
    {
      g_free (id);
      id = g_strdup_printf ("[%u]", i);
    }
  hr_copy_string (out->id, sizeof out->id, id);
  if (!hr_measured_check_numbers (out->entry, path, id, &local))
    {
      out->message = g_strdup (local->message);
      return;
    }
  out->root = hr_measured_map_entry (out->entry, id, &local);
  if (out->root == NULL)
    {
      out->message = g_strdup_printf ("%s: %s", path, local->message);
      return;
    }
  framework_id = hr_measured_member_lower (out->entry, "framework");
  source = hr_measured_member_lower (out->entry, "source");
  hr_measured_root_kind (out->root, hr_measured_framework_for (framework_id, source), &out->kind);
}

/* The entry's "stage": the pipeline stage of the rank that logged the
 * peak, a whole number below the scenario's pp or "last".  A framework
 * may log from one rank only (Megatron-LM's TensorBoard writer is on rank
 * world_size - 1, the last pipeline stage: megatron/training/global_vars.py
 * _set_tensorboard_writer), so the largest device is not what it measured.
 * Absent: -1, the largest device. */
static gboolean
entry_stage (JsonObject  *e,
             const char  *path,
             const char  *id,
             guint64      pp,
             gint64      *out,
             char       **message)
{
  JsonNode *node = json_object_get_member (e, "stage");
  GType type = node != NULL && JSON_NODE_HOLDS_VALUE (node)
               ? json_node_get_value_type (node) : G_TYPE_INVALID;
  g_autofree char *value = NULL;

  *out = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (type == G_TYPE_STRING && g_str_equal (json_node_get_string (node), "last"))
    {
      *out = (gint64) pp - 1;
      return TRUE;
    }
  if (type == G_TYPE_INT64 && json_node_get_int (node) >= 0
      && (guint64) json_node_get_int (node) < pp)
    {
      *out = json_node_get_int (node);
      return TRUE;
    }
  if (type == G_TYPE_INT64)
    value = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  else if (type == G_TYPE_STRING)
    value = g_strdup_printf ("\"%s\"", json_node_get_string (node));
  else if (type == G_TYPE_DOUBLE)
    value = g_strdup_printf ("%.15g", json_node_get_double (node));
  else
    value = g_strdup (type == G_TYPE_INVALID ? "an array or object" : "a boolean");
  *message = g_strdup_printf ("%s: %s: stage: %s is not allowed; allowed: \"last\" or a "
                              "whole number from 0 to %" G_GUINT64_FORMAT " (parallel.pp - 1)",
                              path, id, value, pp - 1);
  return FALSE;
}

/* The entry's model found, read like a scenario file and planned; FALSE
 * with message set when it cannot be. */
gboolean
hr_measured_entry_plan (Entry      *entry,
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
  metric = hr_measured_member_lower (entry->entry, "metric");
  origin = hr_measured_member_string (entry->entry, "origin");
  run = g_new0 (HrMeasuredRun, 1);
  hr_copy_string (run->id, sizeof run->id, entry->id);
  hr_copy_string (run->origin, sizeof run->origin, origin);
  run->kind = entry->kind;
  run->metric = strstr (metric, "allocated") != NULL ? HR_METRIC_ALLOCATED
                : strstr (metric, "reserved") != NULL ? HR_METRIC_RESERVED : HR_METRIC_TOTAL;
  run->measured_bytes = hr_measured_member_double (entry->entry, "measured_gib", 0) * HR_GIB;

  hr_measured_add_gpu_preset (entry->root, models);
  if (!hr_measured_add_model (entry->root, entry->entry, models, entry->id, &local)
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
  if (!entry_stage (entry->entry, path, entry->id, run->scenario.parallel.pp, &run->stage,
                    &entry->message))
    {
      g_free (run);
      return FALSE;
    }
  run->predicted_bytes = hr_measured_predicted (plan, run->metric, run->stage);
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

  hr_measured_models_init (&models, presets);
  entries = json_node_get_array (root);
  runs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      Entry entry;

      hr_measured_entry_prepare (entries, i, path, &entry);
      if (hr_measured_entry_plan (&entry, path, &models, presets, plan))
        g_ptr_array_add (runs, g_steal_pointer (&entry.run));
      else if (skipped != NULL)
        g_ptr_array_add (skipped, g_steal_pointer (&entry.message));
      hr_measured_entry_clear (&entry);
    }
  hr_measured_models_clear (&models);
  return runs;
}

static int
compare_abs (gconstpointer a,
             gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median of ERRORS (absolute values), which it sorts; 0 for none. */
double
hr_measured_median (GArray *errors)
{
  if (errors->len == 0)
    return 0;
  g_array_sort (errors, compare_abs);
  return (g_array_index (errors, double, (errors->len - 1) / 2)
          + g_array_index (errors, double, errors->len / 2)) / 2;
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
  return hr_measured_median (errors);
}
