/* hr-plan-invariants.h: what every plan must satisfy, whatever its input
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the random-scenario test (test-plan-invariants.c) and the
 * fuzz harness (fuzz/fuzz-plan.c): a chart that silently shows numbers
 * that do not add up is as wrong as a crash.
 */

#pragma once

#include <math.h>
#include <string.h>

#include "hr-json.h"
#include "hr-plan.h"
#include "hr-report.h"
#include "hr-scenario-io.h"

/* NULL when PLAN of SCENARIO holds together, else what does not. */
static inline char *
hr_plan_invariant_violation (const HrScenario *scenario,
                             const HrPlan     *plan,
                             HrPresets        *presets)
{
  g_autofree char *json = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(GError) error = NULL;

  if (plan->n_devices == 0)
    return g_strdup ("no device in the plan");
  if (plan->binding_device >= plan->n_devices)
    return g_strdup ("the binding device is not in the plan");
  for (guint d = 0; d < plan->n_devices; d++)
    {
      const HrDevice *dev = &plan->devices[d];
      guint64 categories = 0, live = 0;
      guint64 per_category[HR_N_CATEGORIES] = { 0 };

      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        categories += dev->category_bytes[c];
      for (guint i = 0; i < dev->n_items; i++)
        if (hr_item_is_live_at_peak (dev, &dev->items[i]))
          {
            per_category[dev->items[i].category] += dev->items[i].bytes;
            live += dev->items[i].bytes;
          }
      if (categories != dev->total_bytes)
        return g_strdup_printf ("%s: categories add up to %" G_GUINT64_FORMAT ", total is %"
                                G_GUINT64_FORMAT, dev->label, categories, dev->total_bytes);
      if (live != dev->total_bytes)
        return g_strdup_printf ("%s: live items add up to %" G_GUINT64_FORMAT ", total is %"
                                G_GUINT64_FORMAT, dev->label, live, dev->total_bytes);
      if (memcmp (per_category, dev->category_bytes, sizeof per_category) != 0)
        return g_strdup_printf ("%s: a category differs from its items", dev->label);
      /* The timeline's peak column is the bar, and each phase's allocator
       * part is its phase_bytes. */
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        {
          guint64 at[HR_N_CATEGORIES], allocator = 0;
          guint64 sum = hr_device_phase_categories (dev, ph, at);

          for (guint i = 0; i < dev->n_items; i++)
            if (dev->items[i].pool == HR_POOL_ALLOCATOR && (dev->items[i].live & HR_LIVE (ph)))
              allocator += dev->items[i].bytes;
          if (allocator != dev->phase_bytes[ph] || allocator > sum)
            return g_strdup_printf ("%s: phase %s holds %" G_GUINT64_FORMAT " allocator bytes, "
                                    "phase_bytes says %" G_GUINT64_FORMAT, dev->label,
                                    hr_phase_name (ph), allocator, dev->phase_bytes[ph]);
          if (ph == dev->peak_phase
              && (sum != dev->total_bytes
                  || memcmp (at, dev->category_bytes, sizeof at) != 0))
            return g_strdup_printf ("%s: the timeline's peak column differs from the bar",
                                    dev->label);
          if (dev->phase_bytes[ph] > dev->allocated_bytes)
            return g_strdup_printf ("%s: phase %s is above the peak", dev->label,
                                    hr_phase_name (ph));
        }
      if (dev->free_bytes != (gint64) plan->capacity_bytes - (gint64) dev->total_bytes)
        return g_strdup_printf ("%s: free is not capacity - total", dev->label);
      if ((dev->free_bytes < 0) != (dev->status == HR_STATUS_OOM))
        return g_strdup_printf ("%s: the status disagrees with the free memory", dev->label);
      if (dev->free_bytes < plan->devices[plan->binding_device].free_bytes)
        return g_strdup_printf ("%s has less free than the binding device", dev->label);
    }
  if (plan->fits != (plan->status != HR_STATUS_OOM))
    return g_strdup ("fits disagrees with the status");

  /* The JSON output is strict JSON, and the scenario it plans reopens. */
  json = hr_report_json_text (scenario, plan);
  if (!hr_json_check_strict (json, strlen (json), "report", &error))
    return g_strdup_printf ("the JSON report is not JSON: %s", error->message);
  saved = hr_scenario_to_data (scenario, NULL);
  {
    g_autoptr(JsonNode) root = hr_json_load_data (saved, -1, "saved.json", &error);
    HrScenario back;

    if (root == NULL)
      return g_strdup_printf ("the saved scenario is not JSON: %s", error->message);
    if (!hr_scenario_read_node (&back, root, "saved.json", presets, &error))
      return g_strdup_printf ("the saved scenario does not reopen: %s", error->message);
  }
  return NULL;
}
