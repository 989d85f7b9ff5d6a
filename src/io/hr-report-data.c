/* hr-report-data.c: a plan as JSON and CSV (CONTRACT.md sections 4 and 5)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only the items alive at a device's peak are written, so that they add up
 * to their categories and the categories to total_bytes, as the contract
 * promises.
 */

#include "hr-report.h"
#include "hr-cost.h"
#include "hr-json.h"

#include <string.h>

static void
add_device (JsonBuilder    *b,
            const HrDevice *d)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, d->label);
  json_builder_set_member_name (b, "ranks");
  json_builder_add_int_value (b, (gint64) d->ranks);
  json_builder_set_member_name (b, "stage");
  json_builder_add_int_value (b, (gint64) d->stage);
  json_builder_set_member_name (b, "layers");
  json_builder_add_int_value (b, (gint64) d->n_layers);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      json_builder_set_member_name (b, hr_enum_name (&hr_category_names, c));
      json_builder_add_int_value (b, (gint64) d->category_bytes[c]);
    }

  json_builder_set_member_name (b, "items");
  json_builder_begin_array (b);
  for (guint i = 0; i < d->n_items; i++)
    {
      const HrItem *item = &d->items[i];
      g_autofree char *name = NULL;

      if (!hr_item_is_live_at_peak (d, item))
        continue;
      name = hr_item_display_name (item);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "category");
      json_builder_add_string_value (b, hr_enum_name (&hr_category_names, item->category));
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) item->bytes);
      json_builder_set_member_name (b, "formula");
      json_builder_add_string_value (b, item->formula);
      json_builder_set_member_name (b, "explanation");
      json_builder_add_string_value (b, item->why);
      json_builder_set_member_name (b, "counted_in");
      json_builder_add_string_value (b, item->pool == HR_POOL_ALLOCATOR ? "allocated"
                                        : item->pool == HR_POOL_MANAGED ? "managed"
                                        : item->pool == HR_POOL_CACHED ? "cached" : "outside");
      /* Extension: the phases of the step the item is alive in. */
      json_builder_set_member_name (b, "live_in");
      json_builder_begin_array (b);
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        if (item->live & HR_LIVE (ph))
          json_builder_add_string_value (b, hr_phase_name (ph));
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "peak_phase");
  json_builder_add_string_value (b, hr_phase_name (d->peak_phase));
  /* Extension: live allocator bytes in each phase; the peak is the largest. */
  json_builder_set_member_name (b, "phase_bytes");
  json_builder_begin_object (b);
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      json_builder_set_member_name (b, hr_phase_name (ph));
      json_builder_add_int_value (b, (gint64) d->phase_bytes[ph]);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "allocated_bytes");
  json_builder_add_int_value (b, (gint64) d->allocated_bytes);
  json_builder_set_member_name (b, "reserved_bytes");
  json_builder_add_int_value (b, (gint64) d->reserved_bytes);
  json_builder_set_member_name (b, "total_bytes");
  json_builder_add_int_value (b, (gint64) d->total_bytes);
  json_builder_set_member_name (b, "free_bytes");
  json_builder_add_int_value (b, d->free_bytes);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, hr_enum_name (&hr_status_names, d->status));
  json_builder_end_object (b);
}

JsonNode *
hr_report_json (const HrScenario *scenario,
                const HrPlan     *plan)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "scenario");
  json_builder_add_string_value (b, scenario->name);

  json_builder_set_member_name (b, "model");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, scenario->model.name);
  json_builder_set_member_name (b, "params");
  json_builder_add_int_value (b, (gint64) plan->params);
  json_builder_set_member_name (b, "active_params");
  json_builder_add_int_value (b, (gint64) plan->active_params);
  json_builder_set_member_name (b, "trainable_params");
  json_builder_add_int_value (b, (gint64) plan->trainable_params);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "gpu");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, scenario->gpu.name);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) scenario->parallel.gpus);
  json_builder_set_member_name (b, "capacity_bytes");
  json_builder_add_int_value (b, (gint64) plan->capacity_bytes);
  json_builder_set_member_name (b, "wanted_free_bytes");
  json_builder_add_int_value (b, (gint64) plan->wanted_free_bytes);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < plan->n_devices; i++)
    add_device (b, &plan->devices[i]);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "host_bytes_per_node");
  json_builder_add_int_value (b, (gint64) plan->host_bytes_per_node);
  json_builder_set_member_name (b, "fits");
  json_builder_add_boolean_value (b, plan->fits);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, hr_enum_name (&hr_status_names, plan->status));

  {
    HrCostEstimate est;

    hr_cost_estimate (scenario, plan, &est);
    if (est.known)
      {
        json_builder_set_member_name (b, "time");
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "flops");
        json_builder_add_double_value (b, est.flops);
        json_builder_set_member_name (b, "seconds");
        json_builder_add_double_value (b, est.seconds);
        json_builder_set_member_name (b, "gpu_hours");
        json_builder_add_double_value (b, est.gpu_hours);
        json_builder_set_member_name (b, "cost");
        json_builder_add_double_value (b, est.cost);
        json_builder_set_member_name (b, "peak_tflops");
        json_builder_add_double_value (b, est.peak_tflops);
        json_builder_set_member_name (b, "peak");
        json_builder_add_string_value (b, est.fp8_peak ? "fp8" : "bf16");
        json_builder_end_object (b);
      }
  }

  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < plan->n_warnings; i++)
    {
      g_autofree char *message = hr_plan_warning_message (plan, scenario, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "code");
      json_builder_add_string_value (b, hr_warning_code_name (plan->warnings[i].code));
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
hr_report_json_text (const HrScenario *scenario,
                     const HrPlan     *plan)
{
  g_autoptr(JsonNode) root = hr_report_json (scenario, plan);

  return hr_json_to_data (root, TRUE, NULL);
}

/* RFC 4180: quote a field holding a comma, quote or line break. */
static void
append_csv_field (GString    *out,
                  const char *field)
{
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_csv_row (GString        *out,
                const HrDevice *d,
                const char     *category,
                const char     *item,
                guint64         bytes)
{
  char gib[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (gib, sizeof gib, "%.4f", (double) bytes / HR_GIB);
  append_csv_field (out, d->label);
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                          d->ranks, d->stage);
  append_csv_field (out, category);
  g_string_append_c (out, ',');
  append_csv_field (out, item);
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%s\r\n", bytes, gib);
}

char *
hr_report_csv (const HrPlan *plan)
{
  GString *out = g_string_new ("device,ranks,stage,category,item,bytes,gib\r\n");

  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];

      for (guint j = 0; j < d->n_items; j++)
        {
          const HrItem *item = &d->items[j];
          g_autofree char *name = NULL;

          if (!hr_item_is_live_at_peak (d, item))
            continue;
          name = hr_item_display_name (item);
          append_csv_row (out, d, hr_enum_name (&hr_category_names, item->category),
                          name, item->bytes);
        }
    }
  for (guint i = 0; i < plan->n_devices; i++)
    append_csv_row (out, &plan->devices[i], "total", "total", plan->devices[i].total_bytes);
  return g_string_free (out, FALSE);
}

/* One device's step over time, the "Over time" view's numbers: a row per
 * phase with each category alive then and their total, bytes as
 * integers. */
char *
hr_report_timeline_csv (const HrDevice *device)
{
  GString *out = g_string_new ("device,phase");

  g_return_val_if_fail (device != NULL, NULL);

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    g_string_append_printf (out, ",%s", hr_enum_name (&hr_category_names, c));
  g_string_append (out, ",total,peak\r\n");
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      guint64 bytes[HR_N_CATEGORIES];
      guint64 total = hr_device_phase_categories (device, ph, bytes);

      append_csv_field (out, device->label);
      g_string_append_c (out, ',');
      append_csv_field (out, hr_phase_name (ph));
      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, bytes[c]);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%s\r\n", total,
                              ph == device->peak_phase ? "true" : "false");
    }
  return g_string_free (out, FALSE);
}
