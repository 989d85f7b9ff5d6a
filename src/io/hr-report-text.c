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
      /* TRANSLATORS: a GPU's status at the end of headroom-cli's table */
      return _("OK");
    case HR_STATUS_TIGHT:
      return _("TIGHT");
    case HR_STATUS_OOM:
    case HR_N_STATUSES:
    default:
      return _("OUT OF MEMORY");
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
  if (est->fp8_peak)
    {
      g_autofree char *peak = hr_format_double (est->peak_tflops, 0);

      return g_strdup_printf (_("%s FLOPs (%d·N·tokens): %s days on %llu GPUs at %s %% MFU of "
                                "the fp8 peak (%s TFLOPS), %s GPU-hours, cost %s"),
                              flops, (int) est->flops_per_token_param, days,
                              (unsigned long long) sc->parallel.gpus, mfu, peak, hours, cost);
    }
  return g_strdup_printf (_("%s FLOPs (%d·N·tokens): %s days on %llu GPUs at %s %% MFU, "
                            "%s GPU-hours, cost %s"),
                          flops, (int) est->flops_per_token_param, days,
                          (unsigned long long) sc->parallel.gpus, mfu, hours, cost);
}

/* A category's name in the table, in the user's language. */
static const char *
category_word (HrCategory category)
{
  static const char * const words[HR_N_CATEGORIES] = {
    N_("parameters"), N_("gradients"), N_("optimizer"), N_("activations"), N_("overhead"),
  };

  return _(words[MIN (category, HR_N_CATEGORIES - 1)]);
}

/* "Model     ..." : a heading padded to ten characters, then its text. */
static void
append_heading (GString    *out,
                const char *heading,
                const char *text)
{
  glong width = g_utf8_strlen (heading, -1);

  g_string_append_printf (out, "%s%*s%s\n", heading, (int) MAX (10 - width, 1), "", text);
}

/* The names' column: 56 characters, or as wide as the longest name
 * where a translation makes one longer, so the sizes stay in line. */
#define NAME_COLUMN 56

static void
append_row (GString    *out,
            int         column,
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
                          (int) MAX (column - width, 0), "", size);
  if (note != NULL && *note != '\0')
    g_string_append_printf (out, "   %s", note);
  g_string_append_c (out, '\n');
}

/* Live allocator memory in each phase of the step: the peak is the
 * largest, not the sum of everything. */
static void
append_phases (GString        *out,
               int             column,
               const HrDevice *d,
               HrUnits         units)
{
  g_string_append_printf (out, "  %s\n", _("live in each phase of the step (allocator)"));
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    append_row (out, column, "      ", hr_phase_label (ph), (double) d->phase_bytes[ph],
                ph == d->peak_phase ? _("<- peak") : NULL, units);
}

static int
widest (int         column,
        const char *indent,
        const char *name)
{
  return MAX (column, (int) (g_utf8_strlen (indent, -1) + g_utf8_strlen (name, -1)));
}

/* The names' column for D's rows (append_device's, in its order). */
static int
name_column (const HrDevice *d)
{
  int column = NAME_COLUMN;

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    column = widest (column, "  ", category_word (c));
  for (guint i = 0; i < d->n_items; i++)
    if (hr_item_is_live_at_peak (d, &d->items[i]))
      {
        g_autofree char *name = hr_item_label (&d->items[i]);

        column = widest (column, "      ", name);
      }
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    column = widest (column, "      ", hr_phase_label (ph));
  column = widest (column, "  ", _("allocated (torch max_memory_allocated)"));
  column = widest (column, "  ", _("reserved (torch max_memory_reserved)"));
  column = widest (column, "  ", _("total (as nvidia-smi shows)"));
  return widest (column, "  ", _("free"));
}

static void
append_device (GString          *out,
               const HrScenario *sc,
               const HrPlan     *plan,
               const HrDevice   *d,
               HrUnits           units)
{
  const HrItem *largest = largest_live_item (d);
  int column = name_column (d);
  g_autofree char *dashes = g_strnfill (column, '-');
  g_autofree char *cap = hr_format_bytes ((double) plan->capacity_bytes, units);
  g_autofree char *free_pct = NULL;
  g_autofree char *free_note = NULL;

  g_string_append_printf (out, "%s (x%" G_GUINT64_FORMAT ")", d->label, d->ranks);
  if (sc->parallel.pp > 1)
    g_string_append_printf (out, _(", layers %llu-%llu"), (unsigned long long) d->first_layer,
                            (unsigned long long) (d->first_layer + d->n_layers - 1));
  /* TRANSLATORS: %s is a phase of the training step, "loss backward" */
  g_string_append_printf (out, _(", peak during the %s"), hr_phase_label (d->peak_phase));
  g_string_append_c (out, '\n');

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      append_row (out, column, "  ", category_word (c),
                  (double) d->category_bytes[c], NULL, units);
      for (guint i = 0; i < d->n_items; i++)
        {
          const HrItem *item = &d->items[i];
          g_autofree char *name = NULL;
          g_autofree char *note = NULL;
          g_autofree char *span = NULL;

          if (item->category != c || !hr_item_is_live_at_peak (d, item))
            continue;
          name = hr_item_label (item);
          span = hr_live_span (item->live, TRUE);
          note = g_strdup_printf ("%s%s%s · %s", item == largest ? _("<- largest") : "",
                                  item == largest ? "  " : "", item->formula, span);
          append_row (out, column, "      ", name, (double) item->bytes, note, units);
        }
    }

  append_phases (out, column, d, units);
  g_string_append_printf (out, "  %s\n", dashes);
  append_row (out, column, "  ", _("allocated (torch max_memory_allocated)"),
              (double) d->allocated_bytes, NULL, units);
  append_row (out, column, "  ", _("reserved (torch max_memory_reserved)"), (double) d->reserved_bytes,
              NULL, units);
  {
    /* TRANSLATORS: after the total, %s is the GPU's capacity */
    g_autofree char *of = g_strdup_printf (_("of %s"), cap);

    append_row (out, column, "  ", _("total (as nvidia-smi shows)"), (double) d->total_bytes, of,
                units);
  }
  free_pct = hr_format_double (100.0 * (double) d->free_bytes / (double) plan->capacity_bytes, 0);
  free_note = g_strdup_printf ("%s %%   %s", free_pct, status_word (d->status));
  append_row (out, column, "  ", _("free"), (double) d->free_bytes, free_note, units);
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
  {
    /* The words of the file's values (full, bf16-mixed, adamw) stay as
     * the file writes them. */
    g_autofree char *model = g_strdup_printf (_("%s: %s parameters, %s trainable (%s)"),
                                              model_name, params, trainable,
                                              hr_enum_name (&hr_method_names,
                                                            sc->training.method));
    g_autofree char *training = g_strdup_printf (
      _("%s, %s, micro-batch %llu x %llu tokens, %s checkpointing"),
      hr_enum_name (&hr_precision_names, sc->training.precision),
      hr_enum_name (&hr_optimizer_names, sc->training.optimizer),
      (unsigned long long) sc->training.micro_batch, (unsigned long long) sc->training.seq_len,
      hr_enum_name (&hr_checkpointing_names, sc->training.checkpointing));
    g_autofree char *parallel = g_strdup_printf (
      _("%llu GPUs: data %llu, tensor %llu, pipeline %llu, context %llu, ZeRO stage %llu"),
      (unsigned long long) sc->parallel.gpus,
      (unsigned long long) hr_parallel_dp_degree (&sc->parallel),
      (unsigned long long) sc->parallel.tp, (unsigned long long) sc->parallel.pp,
      (unsigned long long) sc->parallel.cp, (unsigned long long) sc->parallel.zero);
    g_autofree char *gpu = g_strdup_printf (_("%s, %s each; wanted free: %d %% (%s)"), gpus, cap,
                                            (int) (sc->overhead.headroom * 100 + 0.5), wanted);

    /* TRANSLATORS: headings of headroom-cli's table, at most nine letters */
    append_heading (out, _("Model"), model);
    append_heading (out, _("Training"), training);
    append_heading (out, _("Parallel"), parallel);
    append_heading (out, _("GPU"), gpu);
    g_string_append_c (out, '\n');
  }

  /* The binding device first, then the others in stage order. */
  append_device (out, sc, plan, binding, units);
  for (guint i = 0; i < plan->n_devices; i++)
    if (&plan->devices[i] != binding)
      append_device (out, sc, plan, &plan->devices[i], units);

  if (plan->host_bytes_per_node > 0)
    {
      g_autofree char *host = hr_format_bytes ((double) plan->host_bytes_per_node, units);

      g_string_append_printf (out, _("Host RAM per node for offloading: %s"), host);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < plan->n_warnings; i++)
    {
      g_autofree char *message = hr_plan_warning_message (plan, sc, i);

      g_string_append_printf (out, _("Warning: %s"), message);
      g_string_append_c (out, '\n');
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
