/* hr-report-text.c: a plan for people: the table and the one-line verdict
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * UX-LESSONS.md: lead with the GPU that binds, collapse identical ranks
 * ("GPU 0-7 (x8)"), put the verdict in words with the free memory, name the
 * largest consumer, one unit system throughout.
 */

#include "hr-report.h"
#include "hr-cost.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>

#include <string.h>

static const char *
status_word (HrStatus status)
{
  switch (status)
    {
    case HR_STATUS_OK:
      return "OK";
    case HR_STATUS_TIGHT:
      return "TIGHT";
    case HR_STATUS_OOM:
    case HR_N_STATUSES:
    default:
      return "OUT OF MEMORY";
    }
}

static const HrItem *
largest_live_item (const HrDevice *d)
{
  const HrItem *best = NULL;

  for (guint i = 0; i < d->n_items; i++)
    if (hr_item_is_live_at_peak (d, &d->items[i])
        && (best == NULL || d->items[i].bytes > best->bytes))
      best = &d->items[i];
  return best;
}

/* A name from a file, for a terminal: control characters (ESC, a line
 * break) as visible escapes, so that a name cannot recolour the table,
 * move the cursor or start a line of its own.  JSON and CSV escape or
 * quote by their own rules. */
static char *
name_for_text (const char *name)
{
  return hr_text_for_message (name, G_MAXSIZE);
}

static char *
gpu_count (const HrScenario *sc,
           const char       *gpu_name)
{
  if (sc->parallel.gpus == 1)
    return g_strdup (gpu_name);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "x %s", sc->parallel.gpus, gpu_name);
}

/* The verdict, with the GPU named as GPU_NAME. */
static char *
summary_text (const HrScenario *sc,
              const HrPlan     *plan,
              HrUnits           units,
              const char       *gpu_name)
{
  const HrDevice *d = hr_plan_binding (plan);
  g_autofree char *gpus = gpu_count (sc, gpu_name);
  g_autofree char *free_s = hr_format_bytes ((double) ABS (d->free_bytes), units);
  g_autofree char *need = hr_format_bytes ((double) d->total_bytes, units);
  g_autofree char *cap = hr_format_bytes ((double) plan->capacity_bytes, units);
  const HrItem *largest = largest_live_item (d);
  g_autofree char *largest_name = largest ? hr_item_label (largest) : g_strdup ("?");
  g_autofree char *largest_s = hr_format_bytes (largest ? (double) largest->bytes : 0, units);
  int percent = (int) (100.0 * (double) d->free_bytes / (double) plan->capacity_bytes + 0.5);

  switch (plan->status)
    {
    case HR_STATUS_OK:
      if (plan->n_devices > 1)
        return g_strdup_printf (_("Fits on %s; the fullest GPUs (%s) have %s (%d %%) to spare"),
                                gpus, d->label, free_s, percent);
      return g_strdup_printf (_("Fits on %s with %s (%d %%) to spare per GPU"),
                              gpus, free_s, percent);
    case HR_STATUS_TIGHT:
      return g_strdup_printf (_("Tight on %s: %s has only %s (%d %%) free, less than the "
                                "wanted %d %%; the largest part is %s, %s"),
                              gpus, d->label, free_s, percent,
                              (int) (sc->overhead.headroom * 100 + 0.5),
                              largest_name, largest_s);
    case HR_STATUS_OOM:
    case HR_N_STATUSES:
    default:
      return g_strdup_printf (_("Does not fit: %s needs %s of %s (over by %s); the largest "
                                "part is %s, %s"),
                              d->label, need, cap, free_s, largest_name, largest_s);
    }
}

char *
hr_plan_summary (const HrScenario *sc,
                 const HrPlan     *plan,
                 HrUnits           units)
{
  return summary_text (sc, plan, units, sc->gpu.name);
}

/* "1.2e21 FLOPs (8·N·tokens): 11.4 days on 64 GPUs at 40 % MFU, 17,500
 * GPU-hours, cost 43,750 at 2.50 per GPU-hour" */
char *
hr_cost_sentence (const HrScenario     *sc,
                  const HrCostEstimate *est)
{
  g_autofree char *hours = hr_format_double (est->gpu_hours, 0);
  g_autofree char *cost = hr_format_double (est->cost, 0);
  g_autofree char *mfu = hr_format_double (sc->cost.mfu * 100, 0);
  g_autofree char *days = hr_format_double (est->seconds / 86400.0, 1);

  char flops[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (flops, sizeof flops, "%.2e", est->flops);
  return g_strdup_printf (_("%s FLOPs (%d·N·tokens): %s days on %llu GPUs at %s %% MFU, "
                            "%s GPU-hours, cost %s"),
                          flops, (int) est->flops_per_token_param, days,
                          (unsigned long long) sc->parallel.gpus, mfu, hours, cost);
}

static void
append_row (GString    *out,
            const char *indent,
            const char *name,
            double      bytes,
            const char *note,
            HrUnits     units)
{
  g_autofree char *size = hr_format_bytes (bytes, units);

  /* Pad by characters, not bytes: names hold "·" and other UTF-8. */
  glong width = g_utf8_strlen (indent, -1) + g_utf8_strlen (name, -1);

  g_string_append_printf (out, "%s%s%*s %10s", indent, name,
                          (int) MAX (56 - width, 0), "", size);
  if (note != NULL && *note != '\0')
    g_string_append_printf (out, "   %s", note);
  g_string_append_c (out, '\n');
}

/* Live allocator memory in each phase of the step: the peak is the
 * largest, not the sum of everything. */
static void
append_phases (GString        *out,
               const HrDevice *d,
               HrUnits         units)
{
  g_string_append (out, "  live in each phase of the step (allocator)\n");
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    append_row (out, "      ", hr_phase_name (ph), (double) d->phase_bytes[ph],
                ph == d->peak_phase ? "<- peak" : NULL, units);
}

static void
append_device (GString          *out,
               const HrScenario *sc,
               const HrPlan     *plan,
               const HrDevice   *d,
               HrUnits           units)
{
  const HrItem *largest = largest_live_item (d);
  g_autofree char *cap = hr_format_bytes ((double) plan->capacity_bytes, units);
  g_autofree char *free_pct = NULL;
  g_autofree char *free_note = NULL;

  g_string_append_printf (out, "%s (x%" G_GUINT64_FORMAT ")", d->label, d->ranks);
  if (sc->parallel.pp > 1)
    g_string_append_printf (out, ", layers %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT,
                            d->first_layer, d->first_layer + d->n_layers - 1);
  g_string_append_printf (out, ", peak during the %s\n", hr_phase_name (d->peak_phase));

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      append_row (out, "  ", hr_enum_name (&hr_category_names, c),
                  (double) d->category_bytes[c], NULL, units);
      for (guint i = 0; i < d->n_items; i++)
        {
          const HrItem *item = &d->items[i];
          g_autofree char *name = NULL;
          g_autofree char *note = NULL;
          g_autofree char *span = NULL;

          if (item->category != c || !hr_item_is_live_at_peak (d, item))
            continue;
          name = hr_item_display_name (item);
          span = hr_live_span (item->live, FALSE);
          note = g_strdup_printf ("%s%s · %s", item == largest ? "<- largest  " : "",
                                  item->formula, span);
          append_row (out, "      ", name, (double) item->bytes, note, units);
        }
    }

  append_phases (out, d, units);
  g_string_append (out, "  --------------------------------------------------------\n");
  append_row (out, "  ", "allocated (torch max_memory_allocated)", (double) d->allocated_bytes,
              NULL, units);
  append_row (out, "  ", "reserved (torch max_memory_reserved)", (double) d->reserved_bytes,
              NULL, units);
  {
    g_autofree char *of = g_strdup_printf ("of %s", cap);

    append_row (out, "  ", "total (as nvidia-smi shows)", (double) d->total_bytes, of, units);
  }
  free_pct = hr_format_double (100.0 * (double) d->free_bytes / (double) plan->capacity_bytes, 0);
  free_note = g_strdup_printf ("%s %%   %s", free_pct, status_word (d->status));
  append_row (out, "  ", "free", (double) d->free_bytes, free_note, units);
  g_string_append_c (out, '\n');
}

char *
hr_report_table (const HrScenario *sc,
                 const HrPlan     *plan,
                 HrUnits           units)
{
  GString *out = g_string_new (NULL);
  g_autofree char *params = hr_format_count ((double) plan->params);
  g_autofree char *trainable = hr_format_count ((double) plan->trainable_params);
  g_autofree char *cap = hr_format_bytes ((double) plan->capacity_bytes, units);
  g_autofree char *wanted = hr_format_bytes ((double) plan->wanted_free_bytes, units);
  g_autofree char *name = name_for_text (sc->name);
  g_autofree char *model_name = name_for_text (sc->model.name);
  g_autofree char *gpu_name = name_for_text (sc->gpu.name);
  g_autofree char *summary = summary_text (sc, plan, units, gpu_name);
  g_autofree char *gpus = gpu_count (sc, gpu_name);
  const HrDevice *binding = hr_plan_binding (plan);

  g_string_append_printf (out, "%s\n\n", name);
  g_string_append_printf (out, "Model     %s: %s parameters, %s trainable (%s)\n",
                          model_name, params, trainable,
                          hr_enum_name (&hr_method_names, sc->training.method));
  g_string_append_printf (out, "Training  %s, %s, micro-batch %" G_GUINT64_FORMAT
                          " x %" G_GUINT64_FORMAT " tokens, %s checkpointing\n",
                          hr_enum_name (&hr_precision_names, sc->training.precision),
                          hr_enum_name (&hr_optimizer_names, sc->training.optimizer),
                          sc->training.micro_batch, sc->training.seq_len,
                          hr_enum_name (&hr_checkpointing_names, sc->training.checkpointing));
  g_string_append_printf (out, "Parallel  %" G_GUINT64_FORMAT " GPUs: data %" G_GUINT64_FORMAT
                          ", tensor %" G_GUINT64_FORMAT ", pipeline %" G_GUINT64_FORMAT
                          ", context %" G_GUINT64_FORMAT ", ZeRO stage %" G_GUINT64_FORMAT "\n",
                          sc->parallel.gpus, hr_parallel_dp_degree (&sc->parallel),
                          sc->parallel.tp, sc->parallel.pp, sc->parallel.cp,
                          sc->parallel.zero);
  g_string_append_printf (out, "GPU       %s, %s each; wanted free: %d %% (%s)\n\n",
                          gpus, cap, (int) (sc->overhead.headroom * 100 + 0.5), wanted);

  /* The binding device first, then the others in stage order. */
  append_device (out, sc, plan, binding, units);
  for (guint i = 0; i < plan->n_devices; i++)
    if (&plan->devices[i] != binding)
      append_device (out, sc, plan, &plan->devices[i], units);

  if (plan->host_bytes_per_node > 0)
    {
      g_autofree char *host = hr_format_bytes ((double) plan->host_bytes_per_node, units);

      g_string_append_printf (out, "Host RAM per node for offloading: %s\n", host);
    }
  for (guint i = 0; i < plan->n_warnings; i++)
    {
      g_autofree char *message = hr_plan_warning_message (plan, sc, i);

      g_string_append_printf (out, "Warning: %s\n", message);
    }
  {
    HrCostEstimate est;

    hr_cost_estimate (sc, plan, &est);
    if (est.known)
      {
        g_autofree char *text = hr_cost_sentence (sc, &est);

        g_string_append_printf (out, "%s\n", text);
      }
  }
  g_string_append_printf (out, "%s%s.\n", plan->n_warnings > 0 ? "\n" : "", summary);
  return g_string_free (out, FALSE);
}
