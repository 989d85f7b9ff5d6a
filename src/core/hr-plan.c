/* hr-plan.c: the plan's storage and the words around its numbers
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-plan.h"
#include "hr-format.h"

#include <glib/gi18n-lib.h>
#include <string.h>

HrPlan *
hr_plan_new (void)
{
  HrPlan *plan = g_new0 (HrPlan, 1);

  hr_plan_reserve_devices (plan, 1);
  return plan;
}

void
hr_plan_free (HrPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->devices);
  g_free (plan);
}

/* Grows the device array; a plan that is reused keeps its array, so
 * recomputing allocates nothing. */
void
hr_plan_reserve_devices (HrPlan *plan,
                         guint   n_devices)
{
  g_return_if_fail (plan != NULL);

  if (n_devices <= plan->devices_allocated)
    return;
  plan->devices = g_renew (HrDevice, plan->devices, n_devices);
  plan->devices_allocated = n_devices;
}

/* DEST becomes a copy of SRC, in DEST's own device array: a widget keeps
 * what it shows without holding on to the window's plan. */
void
hr_plan_copy_into (HrPlan       *dest,
                   const HrPlan *src)
{
  HrDevice *devices;
  guint allocated;

  g_return_if_fail (dest != NULL && src != NULL);

  if (dest == src)
    return;
  hr_plan_reserve_devices (dest, MAX (src->n_devices, 1));
  devices = dest->devices;
  allocated = dest->devices_allocated;
  *dest = *src;
  dest->devices = devices;
  dest->devices_allocated = allocated;
  memcpy (devices, src->devices, src->n_devices * sizeof (HrDevice));
}

const HrDevice *
hr_plan_binding (const HrPlan *plan)
{
  g_return_val_if_fail (plan != NULL && plan->n_devices > 0, NULL);
  return &plan->devices[plan->binding_device];
}

/* What the device holds in PHASE, category by category: every item alive
 * then, in any pool, so that at the peak phase the categories are the
 * bars' (category_bytes) and the phases read as one memory timeline.
 * Answers their sum. */
guint64
hr_device_phase_categories (const HrDevice *device,
                            HrPhase         phase,
                            guint64         bytes[HR_N_CATEGORIES])
{
  guint64 total = 0;

  g_return_val_if_fail (device != NULL && phase < HR_N_PHASES, 0);

  memset (bytes, 0, HR_N_CATEGORIES * sizeof (guint64));
  for (guint i = 0; i < device->n_items; i++)
    {
      const HrItem *item = &device->items[i];

      if ((item->live & HR_LIVE (phase)) == 0)
        continue;
      bytes[item->category] += item->bytes;
      total += item->bytes;
    }
  return total;
}

/* "weights (bf16)" */
char *
hr_item_display_name (const HrItem *item)
{
  if (item->dtype == HR_DTYPE_NONE)
    return g_strdup (item->name);
  return g_strdup_printf ("%s (%s)", item->name,
                          hr_enum_name (&hr_dtype_names, item->dtype));
}

/* The same, in the user's language, for the window and the chart; the
 * files other programs read keep the English names. */
char *
hr_item_label (const HrItem *item)
{
  if (item->dtype == HR_DTYPE_NONE)
    return g_strdup (_(item->name));
  return g_strdup_printf ("%s (%s)", _(item->name),
                          hr_enum_name (&hr_dtype_names, item->dtype));
}

const char *
hr_phase_label (HrPhase phase)
{
  switch (phase)
    {
    case HR_PHASE_FORWARD:
      return _("forward");
    case HR_PHASE_LOSS_BACKWARD:
      return _("loss backward");
    case HR_PHASE_BACKWARD_START:
      return _("backward (first layers)");
    case HR_PHASE_BACKWARD_END:
      return _("backward (last layers)");
    case HR_PHASE_STEP:
      return _("optimizer step");
    case HR_N_PHASES:
    default:
      return "?";
    }
}

const char *
hr_phase_name (HrPhase phase)
{
  switch (phase)
    {
    case HR_PHASE_FORWARD:
      return "forward";
    case HR_PHASE_LOSS_BACKWARD:
      return "loss backward";
    case HR_PHASE_BACKWARD_START:
      return "backward (first layers)";
    case HR_PHASE_BACKWARD_END:
      return "backward (last layers)";
    case HR_PHASE_STEP:
      return "optimizer step";
    case HR_N_PHASES:
    default:
      return "?";
    }
}

const char *
hr_warning_code_name (HrWarningCode code)
{
  switch (code)
    {
    case HR_WARNING_OOM:
      return "oom";
    case HR_WARNING_TIGHT:
      return "tight";
    case HR_WARNING_PAGED:
      return "paged-optimizer";
    case HR_WARNING_HOST_RAM:
      return "host-ram";
    case HR_WARNING_UNEVEN_LAYERS:
      return "uneven-layers";
    case HR_N_WARNINGS:
    default:
      return "?";
    }
}

/* The largest item live at the device's peak: what to name when it does
 * not fit. */
static const HrItem *
largest_item (const HrDevice *device)
{
  const HrItem *best = NULL;

  for (guint i = 0; i < device->n_items; i++)
    {
      const HrItem *item = &device->items[i];

      if (hr_item_is_live_at_peak (device, item)
          && (best == NULL || item->bytes > best->bytes))
        best = item;
    }
  return best;
}

char *
hr_plan_warning_message (const HrPlan     *plan,
                         const HrScenario *scenario,
                         guint             index)
{
  const HrWarning *w;
  const HrDevice *d;
  const HrItem *largest;
  g_autofree char *free_s = NULL;
  g_autofree char *wanted_s = NULL;
  g_autofree char *total_s = NULL;
  g_autofree char *cap_s = NULL;
  g_autofree char *largest_s = NULL;
  g_autofree char *largest_name = NULL;

  g_return_val_if_fail (index < plan->n_warnings, NULL);

  w = &plan->warnings[index];
  d = &plan->devices[MIN (w->device, plan->n_devices - 1)];
  free_s = hr_format_bytes ((double) d->free_bytes, HR_UNITS_BINARY);
  wanted_s = hr_format_bytes ((double) plan->wanted_free_bytes, HR_UNITS_BINARY);
  total_s = hr_format_bytes ((double) d->total_bytes, HR_UNITS_BINARY);
  cap_s = hr_format_bytes ((double) plan->capacity_bytes, HR_UNITS_BINARY);
  largest = largest_item (d);
  if (largest != NULL)
    {
      largest_name = hr_item_display_name (largest);
      largest_s = hr_format_bytes ((double) largest->bytes, HR_UNITS_BINARY);
    }

  switch (w->code)
    {
    case HR_WARNING_OOM:
      return g_strdup_printf ("%s needs %s of %s; the largest part is %s, %s",
                              d->label, total_s, cap_s,
                              largest_name ? largest_name : "?",
                              largest_s ? largest_s : "?");
    case HR_WARNING_TIGHT:
      return g_strdup_printf ("%s has %s free, less than the wanted %s",
                              d->label, free_s, wanted_s);
    case HR_WARNING_PAGED:
      return g_strdup ("paged optimizer states live in CUDA managed memory: "
                       "torch.cuda.max_memory_allocated() does not count them, "
                       "nvidia-smi does");
    case HR_WARNING_HOST_RAM:
      {
        g_autofree char *host = hr_format_bytes ((double) plan->host_bytes_per_node,
                                                 HR_UNITS_BINARY);
        return g_strdup_printf ("CPU offload needs about %s of host RAM per node "
                                "(%" G_GUINT64_FORMAT " GPUs per node)",
                                host, scenario->parallel.gpus_per_node);
      }
    case HR_WARNING_UNEVEN_LAYERS:
      return g_strdup_printf ("%" G_GUINT64_FORMAT " layers do not divide into "
                              "%" G_GUINT64_FORMAT " pipeline stages evenly: "
                              "the first stages hold one more layer",
                              scenario->model.layers, scenario->parallel.pp);
    case HR_N_WARNINGS:
    default:
      return g_strdup ("?");
    }
}

/* When an item is alive, in words: "whole step", one phase, or runs of
 * consecutive phases ("forward → backward (first layers)"), in the user's
 * language when translated, else in English for files. */
char *
hr_live_span (guint    live,
              gboolean translated)
{
  GString *out;

  if ((live & HR_LIVE_ALWAYS) == HR_LIVE_ALWAYS)
    return g_strdup (translated ? _("whole step") : "whole step");
  out = g_string_new (NULL);
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      guint last = ph;

      if ((live & HR_LIVE (ph)) == 0)
        continue;
      while (last + 1 < HR_N_PHASES && (live & HR_LIVE (last + 1)) != 0)
        last++;
      if (out->len > 0)
        g_string_append (out, ", ");
      g_string_append (out, translated ? hr_phase_label (ph) : hr_phase_name (ph));
      if (last > ph)
        g_string_append_printf (out, " → %s",
                                translated ? hr_phase_label (last) : hr_phase_name (last));
      ph = last;
    }
  return g_string_free (out, FALSE);
}
