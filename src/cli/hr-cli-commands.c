/* hr-cli-commands.c: headroom-cli's commands other than planning
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --solve, --suggest, --sweep and --validate, each printing for people
 * (table) or programs (json, csv).
 */

#include "config.h"

#include <glib/gi18n.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hr-calc.h"
#include "hr-cli-commands.h"
#include "hr-frameworks.h"
#include "hr-json.h"
#include "hr-measured.h"
#include "hr-report.h"
#include "hr-scenario-io.h"
#include "hr-suggest.h"
#include "hr-cli-render.h"
#include "hr-sweep.h"
#include "hr-text.h"

/* Text from a file as a terminal may show it: control characters (ESC,
 * a line break) as visible escapes (hr-text.c), so that a name cannot
 * recolour the output, move the cursor or start a line of its own. */
char *
hr_cli_shown (const char *text)
{
  return hr_text_for_message (text, G_MAXSIZE);
}

/* "headroom-cli: ..." on stderr, as one line whatever the text holds. */
void
hr_cli_note (const char *format,
             ...)
{
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_strdelimit (text, "\r\n", ' ');
  line = hr_cli_shown (text);
  fprintf (stderr, "headroom-cli: %s\n", line);
}

/* One line on stderr, whatever the message holds. */
int
hr_cli_bad_input (const char *message)
{
  hr_cli_note ("%s", message);
  return EXIT_BAD_INPUT;
}

/* RFC 4180: a field holding a comma, quote or line break in quotes. */
static char *
csv_field (const char *text)
{
  GString *out;

  if (strpbrk (text, ",\"\r\n") == NULL)
    return g_strdup (text);
  out = g_string_new ("\"");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

/* A document for programs, on stdout, ending with a newline; written as
 * the JSON report is (hr-json-writer.c: a non-finite number as null). */
static void
print_json (JsonNode *root)
{
  g_autofree char *text = hr_json_to_data (root, TRUE, NULL);

  printf ("%s\n", text);
}

int
hr_cli_print_solve (const HrScenario *sc,
                    HrSolve           solve,
                    const char       *format,
                    gboolean          check)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  guint64 value;
  const char *name = hr_enum_name (&hr_solve_names, solve);

  if (!hr_solve (sc, solve, work, &value, &error))
    return hr_cli_bad_input (error->message);

  if (g_strcmp0 (format, "json") == 0)
    printf ("{\"solve\": \"%s\", \"value\": %" G_GUINT64_FORMAT "}\n", name, value);
  else if (g_strcmp0 (format, "csv") == 0)
    printf ("solve,value\r\n%s,%" G_GUINT64_FORMAT "\r\n", name, value);
  else
    {
      static const char * const what[] = { N_("Largest micro-batch"), N_("Longest sequence"),
                                           N_("Fewest GPUs") };
      int percent = (int) (sc->overhead.headroom * 100 + 0.5);

      g_autofree char *gpu = hr_cli_shown (sc->gpu.name);

      if (value == 0)
        /* TRANSLATORS: %s is "Largest micro-batch", "Longest sequence" or
         * "Fewest GPUs", then the wanted free share and the GPU */
        printf (_("%s: none leaves %d %% free on %s\n"), _(what[solve]), percent, gpu);
      else
        printf (_("%s that leaves %d %% free: %llu\n"), _(what[solve]), percent,
                (unsigned long long) value);
    }

  if (check)
    {
      if (!hr_calc_plan (sc, plan, &error))
        return hr_cli_bad_input (error->message);
      if (!plan->fits)
        return EXIT_OVER_CAPACITY;
    }
  return EXIT_PLANNED;
}

/* The ranked changes, each with what it saves on the fullest GPU, the
 * verdict after it and what it costs. */
int
hr_cli_print_suggestions (const HrScenario *sc,
                          const char       *format,
                          HrUnits           units)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrSuggestion *list = g_new0 (HrSuggestion, HR_MAX_SUGGESTIONS);
  guint n = hr_suggest_where (sc, work, list, HR_MAX_SUGGESTIONS, hr_framework_allows, NULL, &error);
  gboolean json = g_strcmp0 (format, "json") == 0;

  if (error != NULL)
    {
      g_free (list);
      return hr_cli_bad_input (error->message);
    }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "suggestions");
      json_builder_begin_array (b);
      for (guint i = 0; i < n; i++)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "title");
          json_builder_add_string_value (b, list[i].title);
          json_builder_set_member_name (b, "saves_bytes");
          json_builder_add_int_value (b, list[i].saves_bytes);
          json_builder_set_member_name (b, "total_bytes");
          json_builder_add_int_value (b, (gint64) list[i].total_bytes);
          json_builder_set_member_name (b, "status");
          json_builder_add_string_value (b, hr_enum_name (&hr_status_names, list[i].status));
          json_builder_set_member_name (b, "cost");
          json_builder_add_string_value (b, list[i].cost);
          json_builder_set_member_name (b, "scenario");
          json_builder_add_value (b, hr_scenario_to_json (&list[i].scenario));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else
    {
      const HrDevice *d = hr_plan_binding (work);
      g_autofree char *now = hr_format_bytes ((double) d->total_bytes, units);
      g_autofree char *cap = hr_format_bytes ((double) work->capacity_bytes, units);

      /* TRANSLATORS: a GPU, its memory and its capacity */
      printf (_("%s now needs %s of %s.\n"), d->label, now, cap);
      if (n == 0)
        printf (_("No change that Headroom knows lowers it.\n"));
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *saves = hr_format_bytes ((double) list[i].saves_bytes, units);
          gint64 free_bytes = (gint64) work->capacity_bytes - (gint64) list[i].total_bytes;
          int percent = (int) (100.0 * (double) free_bytes / (double) work->capacity_bytes);
          const char *verdict = list[i].status == HR_STATUS_OK ? _("fits") : _("tight");
          g_autofree char *title = hr_cli_shown (list[i].title);
          g_autofree char *cost = hr_cli_shown (list[i].cost);

          if (list[i].status == HR_STATUS_OOM)
            {
              /* over, not "-74 % free": how much is still missing */
              g_autofree char *over = hr_format_bytes ((double) -free_bytes, units);

              /* TRANSLATORS: a ranked suggestion that does not fit yet: its
               * number, what to change, what it saves, how much the GPU is
               * still short of, and its cost */
              printf (_("%2u. %s: -%s per GPU, still over by %s. Cost: %s.\n"), i + 1, title,
                      saves, over, cost);
              continue;
            }
          /* TRANSLATORS: a ranked suggestion: its number, what to change,
           * what it saves, "fits" or "tight", and its cost */
          printf (_("%2u. %s: -%s per GPU, %s (%d %% free). Cost: %s.\n"), i + 1, title,
                  saves, verdict, percent, cost);
        }
    }
  g_free (list);
  return EXIT_PLANNED;
}

/* The sweep as the CSV has it, with the sizes in bytes as CONTRACT.md
 * section 4 writes a device: one member per category, then total_bytes. */
static JsonNode *
sweep_json (const HrSweep *sweep)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "axis");
  json_builder_add_string_value (b, sweep->axis == HR_SWEEP_MICRO_BATCH ? "micro_batch"
                                                                         : "seq_len");
  json_builder_set_member_name (b, "current");
  json_builder_add_int_value (b, (gint64) sweep->current);
  json_builder_set_member_name (b, "last_fitting");
  json_builder_add_int_value (b, (gint64) sweep->last_fitting);
  json_builder_set_member_name (b, "capacity_bytes");
  json_builder_add_int_value (b, (gint64) sweep->capacity_bytes);
  json_builder_set_member_name (b, "headroom");
  json_builder_add_double_value (b, sweep->headroom);
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < sweep->n_points; i++)
    {
      const HrSweepPoint *p = &sweep->points[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "value");
      json_builder_add_int_value (b, (gint64) p->value);
      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        {
          json_builder_set_member_name (b, hr_enum_name (&hr_category_names, c));
          json_builder_add_int_value (b, (gint64) p->category_bytes[c]);
        }
      json_builder_set_member_name (b, "total_bytes");
      json_builder_add_int_value (b, (gint64) p->total_bytes);
      json_builder_set_member_name (b, "status");
      json_builder_add_string_value (b, hr_enum_name (&hr_status_names, p->status));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The fullest GPU's memory at a range of micro-batches or sequence lengths. */
int
hr_cli_print_sweep (const HrScenario *sc,
                    const char       *axis_name,
                    const char       *format,
                    const char       *png,
                    HrUnits           units)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  g_autofree HrSweep *sweep = g_new0 (HrSweep, 1);
  HrSweepAxis axis;

  if (g_strcmp0 (axis_name, "micro-batch") == 0)
    axis = HR_SWEEP_MICRO_BATCH;
  else if (g_strcmp0 (axis_name, "seq-len") == 0)
    axis = HR_SWEEP_SEQ_LEN;
  else
    {
      g_autofree char *msg = g_strdup_printf ("--sweep: \"%s\" is not allowed; allowed: "
                                              "micro-batch or seq-len", axis_name);
      return hr_cli_bad_input (msg);
    }
  if (!hr_sweep_compute (sc, axis, work, sweep, &error))
    return hr_cli_bad_input (error != NULL ? error->message : "--sweep: nothing to plan");

  if (png != NULL)
    {
      if (!hr_cli_sweep_png (png, sc, sweep, units, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--png: %s", error->message);
          return hr_cli_bad_input (msg);
        }
    }

  if (g_strcmp0 (format, "csv") == 0)
    {
      g_autofree char *csv = hr_sweep_csv (sweep);

      fputs (csv, stdout);
      return EXIT_PLANNED;
    }
  if (g_strcmp0 (format, "json") == 0)
    {
      g_autoptr(JsonNode) root = sweep_json (sweep);

      print_json (root);
      return EXIT_PLANNED;
    }
  /* The columns' names are the CSV's: what a script would grep for. */
  printf ("%-12s %12s  %s\n", axis == HR_SWEEP_MICRO_BATCH ? "micro-batch" : "seq-len",
          _("fullest GPU"), _("status"));
  for (guint i = 0; i < sweep->n_points; i++)
    {
      g_autofree char *size = hr_format_bytes ((double) sweep->points[i].total_bytes, units);

      printf ("%-12" G_GUINT64_FORMAT " %12s  %s\n", sweep->points[i].value, size,
              hr_enum_name (&hr_status_names, sweep->points[i].status));
    }
  printf (_("Fits with the wanted headroom up to %llu.\n"),
          (unsigned long long) sweep->last_fitting);
  return EXIT_PLANNED;
}

static const char * const metric_names[] = { "max_memory_allocated", "reserved", "nvidia-smi" };

/* The runs, what was skipped and the summary, sizes in bytes. */
static JsonNode *
runs_json (GPtrArray *runs,
           GPtrArray *skipped)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = 0;
  double worst = 0;
  double median = hr_measured_error_stats (runs, -1, &n, &worst);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, run->id);
      json_builder_set_member_name (b, "metric");
      json_builder_add_string_value (b, metric_names[run->metric]);
      json_builder_set_member_name (b, "method");
      json_builder_add_string_value (b, hr_enum_name (&hr_method_names,
                                                      run->scenario.training.method));
      json_builder_set_member_name (b, "predicted_bytes");
      json_builder_add_int_value (b, (gint64) (run->predicted_bytes + 0.5));
      json_builder_set_member_name (b, "measured_bytes");
      json_builder_add_int_value (b, (gint64) (run->measured_bytes + 0.5));
      json_builder_set_member_name (b, "error");
      json_builder_add_double_value (b, run->error);
      json_builder_set_member_name (b, "kind");
      json_builder_add_value (b, hr_run_kind_json (&run->kind));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "skipped");
  json_builder_begin_array (b);
  for (guint i = 0; i < skipped->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (skipped, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "median_abs_error");
  if (n > 0)
    json_builder_add_double_value (b, median);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "worst_abs_error");
  if (n > 0)
    json_builder_add_double_value (b, worst);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* One line per measured run, then the median and the worst error. */
int
hr_cli_validate_runs (HrPresets  *presets,
                      const char *path,
                      const char *format)
{
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_measured_load (path, presets, skipped, &error);
  gboolean csv = g_strcmp0 (format, "csv") == 0;

  if (runs == NULL)
    return hr_cli_bad_input (error->message);

  for (guint i = 0; i < skipped->len; i++)
    hr_cli_note ("skipped: %s", (char *) g_ptr_array_index (skipped, i));
  if (g_strcmp0 (format, "json") == 0)
    {
      g_autoptr(JsonNode) root = runs_json (runs, skipped);

      print_json (root);
      return EXIT_PLANNED;
    }

  if (csv)
    printf ("id,metric,predicted_gib,measured_gib,error\r\n");
  for (guint i = 0; i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);
      g_autofree char *pred = hr_format_double (run->predicted_bytes / HR_GIB, 3);
      g_autofree char *meas = hr_format_double (run->measured_bytes / HR_GIB, 3);
      g_autofree char *err = hr_format_double (100.0 * run->error, 1);

      if (csv)
        {
          g_autofree char *id = csv_field (run->id);

          printf ("%s,%s,%s,%s,%s\r\n", id, metric_names[run->metric], pred, meas, err);
        }
      else
        {
          g_autofree char *id = hr_cli_shown (run->id);

          printf ("%-40s %-20s predicted %8s GiB  measured %8s GiB  error %6s %%\n",
                  id, metric_names[run->metric], pred, meas, err);
        }
    }

  if (runs->len > 0 && !csv)
    {
      guint n = 0;
      double worst = 0;
      double median = hr_measured_error_stats (runs, -1, &n, &worst);
      g_autofree char *median_s = hr_format_double (100.0 * median, 1);
      g_autofree char *worst_s = hr_format_double (100.0 * worst, 1);

      printf ("%u runs: median absolute error %s %%, worst %s %%\n", n, median_s, worst_s);
    }
  return EXIT_PLANNED;
}
