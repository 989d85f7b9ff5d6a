/* headroom-cli.c: the command-line twin of the Headroom window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CONTRACT.md section 3.  Exit status: 0 planned, 2 bad input (one line on
 * stderr naming the file, the path, the value and what is allowed), 3 over
 * capacity with --check.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "hr-calc.h"
#include "hr-chart.h"
#include "hr-error.h"
#include "hr-ds-import.h"
#include "hr-hf-import.h"
#include "hr-measured.h"
#include "hr-report.h"
#include "hr-scenario-io.h"
#include "hr-solver.h"
#include "hr-suggest.h"
#include "hr-sweep.h"

#define EXIT_PLANNED 0
#define EXIT_BAD_INPUT 2
#define EXIT_OVER_CAPACITY 3

typedef struct
{
  char   *preset;
  char  **sets;
  char   *format;
  char   *png;
  char   *report;
  char   *solve;
  gboolean check;
  char   *import_hf;
  char   *import_ds;
  char   *list;
  char   *units;
  char   *validate;
  gboolean suggest;
  char   *sweep;
  gboolean version;
  char  **files;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->preset);
  g_strfreev (o->sets);
  g_free (o->format);
  g_free (o->png);
  g_free (o->report);
  g_free (o->solve);
  g_free (o->import_hf);
  g_free (o->import_ds);
  g_free (o->list);
  g_free (o->units);
  g_free (o->validate);
  g_free (o->sweep);
  g_strfreev (o->files);
}

/* One line on stderr, whatever the message holds. */
static int
bad_input (const char *message)
{
  g_autofree char *line = g_strdup (message);

  g_strdelimit (line, "\r\n", ' ');
  fprintf (stderr, "headroom-cli: %s\n", line);
  return EXIT_BAD_INPUT;
}

/* A value given with --set is the command line's fault, not the file's:
 * name "--set" instead of the file when the error is about that path. */
static int
bad_input_from_sets (const char  *message,
                     const char  *origin,
                     char       **sets)
{
  g_autofree char *prefix = g_strdup_printf ("%s: ", origin);
  const char *rest = g_str_has_prefix (message, prefix) ? message + strlen (prefix) : NULL;

  for (guint i = 0; rest != NULL && sets != NULL && sets[i] != NULL; i++)
    {
      const char *eq = strchr (sets[i], '=');
      g_autofree char *path = eq ? g_strndup (sets[i], eq - sets[i]) : NULL;

      if (path != NULL && g_str_has_prefix (rest, path) && rest[strlen (path)] == ':')
        {
          g_autofree char *msg = g_strdup_printf ("--set %s", rest);

          return bad_input (msg);
        }
    }
  return bad_input (message);
}

static int
list_presets (HrPresets  *presets,
              const char *what)
{
  HrPresetKind kind;
  g_autoptr(GPtrArray) list = NULL;

  if (g_strcmp0 (what, "models") == 0)
    kind = HR_PRESET_MODEL;
  else if (g_strcmp0 (what, "gpus") == 0)
    kind = HR_PRESET_GPU;
  else if (g_strcmp0 (what, "scenarios") == 0)
    kind = HR_PRESET_SCENARIO;
  else
    {
      g_autofree char *msg = g_strdup_printf ("--list: \"%s\" is not allowed; allowed: "
                                              "models, gpus or scenarios", what);
      return bad_input (msg);
    }

  list = hr_presets_list (presets, kind);
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);

      printf ("%-24s %s\n", info->id, info->name);
    }
  return EXIT_PLANNED;
}

/* The scenario as JSON, before --import-hf and --set change it. */
static JsonNode *
load_root (Options    *o,
           HrPresets  *presets,
           char      **origin,
           GError    **error)
{
  if (o->files != NULL && o->files[0] != NULL)
    {
      if (o->files[1] != NULL)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "%s: only one scenario file "
                       "is allowed", o->files[1]);
          return NULL;
        }
      if (o->preset != NULL)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "--preset: give a scenario "
                       "file or --preset, not both");
          return NULL;
        }
      *origin = g_strdup (o->files[0]);
      return hr_json_load_file (o->files[0], error);
    }
  if (o->preset != NULL)
    {
      g_autoptr(GError) local = NULL;
      JsonNode *node = hr_presets_load (presets, HR_PRESET_SCENARIO, o->preset, origin, &local);

      if (node == NULL)
        g_set_error (error, HR_ERROR, local->code, "--preset: %s", local->message);
      return node;
    }

  /* The default scenario, as the window opens with it; the compiled-in
   * copy stands in when no preset folder is installed. */
  {
    JsonNode *node = hr_presets_load (presets, HR_PRESET_SCENARIO, "default", origin, NULL);

    if (node != NULL)
      return node;
    *origin = g_strdup ("default scenario");
    node = json_node_new (JSON_NODE_OBJECT);
    json_node_take_object (node, json_object_new ());
    return node;
  }
}

static gboolean
apply_import (JsonObject  *root,
              const char  *path,
              GError     **error)
{
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc;
  g_autoptr(JsonNode) node = NULL;

  g_autoptr(GError) local = NULL;

  hr_scenario_init_default (&sc);
  if (!hr_hf_import_file (&sc.model, path, unmapped, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "--import-hf: %s", local->message);
      return FALSE;
    }
  sc.model.preset[0] = '\0';
  node = hr_scenario_to_json (&sc);
  json_object_set_member (root, "model",
                          json_node_copy (json_object_get_member (json_node_get_object (node),
                                                                  "model")));
  for (guint i = 0; i < unmapped->len; i++)
    fprintf (stderr, "headroom-cli: %s: not mapped: %s\n", path,
             (char *) g_ptr_array_index (unmapped, i));
  return TRUE;
}

static int
print_solve (const HrScenario *sc,
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
    return bad_input (error->message);

  if (g_strcmp0 (format, "json") == 0)
    printf ("{\"solve\": \"%s\", \"value\": %" G_GUINT64_FORMAT "}\n", name, value);
  else if (g_strcmp0 (format, "csv") == 0)
    printf ("solve,value\r\n%s,%" G_GUINT64_FORMAT "\r\n", name, value);
  else
    {
      static const char * const what[] = { "Largest micro-batch", "Longest sequence",
                                           "Fewest GPUs" };
      int percent = (int) (sc->overhead.headroom * 100 + 0.5);

      if (value == 0)
        printf ("%s: none leaves %d %% free on %s\n", what[solve], percent, sc->gpu.name);
      else
        printf ("%s that leaves %d %% free: %" G_GUINT64_FORMAT "\n", what[solve], percent,
                value);
    }

  if (check)
    {
      if (!hr_calc_plan (sc, plan, &error))
        return bad_input (error->message);
      if (!plan->fits)
        return EXIT_OVER_CAPACITY;
    }
  return EXIT_PLANNED;
}

/* The ranked changes, each with what it saves on the fullest GPU, the
 * verdict after it and what it costs. */
static int
print_suggestions (const HrScenario *sc,
                   const char       *format,
                   HrUnits           units)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrSuggestion *list = g_new0 (HrSuggestion, HR_MAX_SUGGESTIONS);
  guint n = hr_suggest (sc, work, list, HR_MAX_SUGGESTIONS, &error);
  gboolean json = g_strcmp0 (format, "json") == 0;

  if (error != NULL)
    {
      g_free (list);
      return bad_input (error->message);
    }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

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
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      printf ("%s\n", text);
    }
  else
    {
      const HrDevice *d = hr_plan_binding (work);
      g_autofree char *now = hr_format_bytes ((double) d->total_bytes, units);
      g_autofree char *cap = hr_format_bytes ((double) work->capacity_bytes, units);

      printf ("%s now needs %s of %s.\n", d->label, now, cap);
      if (n == 0)
        printf ("No change that Headroom knows lowers it.\n");
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *saves = hr_format_bytes ((double) list[i].saves_bytes, units);
          gint64 free_bytes = (gint64) work->capacity_bytes - (gint64) list[i].total_bytes;
          int percent = (int) (100.0 * (double) free_bytes / (double) work->capacity_bytes);
          const char *verdict = list[i].status == HR_STATUS_OK ? "fits"
                                : list[i].status == HR_STATUS_TIGHT ? "tight" : "still over";

          printf ("%2u. %s: -%s per GPU, %s (%d %% free). Cost: %s.\n", i + 1, list[i].title,
                  saves, verdict, percent, list[i].cost);
        }
    }
  g_free (list);
  return EXIT_PLANNED;
}

typedef struct
{
  const HrScenario *scenario;
  const HrSweep    *sweep;
  HrUnits           units;
} SweepPaint;

static void
paint_sweep (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  data)
{
  const SweepPaint *p = data;
  HrChartStyle style;

  hr_chart_style_init_light (&style);
  style.units = p->units;
  style.paint_background = TRUE;
  style.font_scale = 1.25;
  hr_sweep_draw (cr, width, height, p->scenario, p->sweep, &style);
}

/* The fullest GPU's memory at a range of micro-batches or sequence lengths. */
static int
print_sweep (const HrScenario *sc,
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
      return bad_input (msg);
    }
  if (!hr_sweep_compute (sc, axis, work, sweep, &error))
    return bad_input (error != NULL ? error->message : "--sweep: nothing to plan");

  if (png != NULL)
    {
      SweepPaint paint = { sc, sweep, units };

      if (!hr_write_png_atomic (png, 1600, 900, 2.0, paint_sweep, &paint, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--png: %s", error->message);
          return bad_input (msg);
        }
    }

  if (g_strcmp0 (format, "csv") == 0)
    {
      g_autofree char *csv = hr_sweep_csv (sweep);

      fputs (csv, stdout);
      return EXIT_PLANNED;
    }
  printf ("%-12s %12s  %s\n", axis == HR_SWEEP_MICRO_BATCH ? "micro-batch" : "seq-len",
          "fullest GPU", "status");
  for (guint i = 0; i < sweep->n_points; i++)
    {
      g_autofree char *size = hr_format_bytes ((double) sweep->points[i].total_bytes, units);

      printf ("%-12" G_GUINT64_FORMAT " %12s  %s\n", sweep->points[i].value, size,
              hr_enum_name (&hr_status_names, sweep->points[i].status));
    }
  printf ("Fits with the wanted headroom up to %" G_GUINT64_FORMAT ".\n", sweep->last_fitting);
  return EXIT_PLANNED;
}

static int
compare_error (gconstpointer a,
               gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* One line per measured run, then the median and the worst error. */
static int
validate_runs (HrPresets  *presets,
               const char *path,
               const char *format)
{
  static const char * const metric_names[] = { "max_memory_allocated", "reserved", "nvidia-smi" };
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_measured_load (path, presets, skipped, &error);
  g_autoptr(GArray) errors = NULL;
  gboolean csv = g_strcmp0 (format, "csv") == 0;
  double worst = 0;

  if (runs == NULL)
    return bad_input (error->message);

  errors = g_array_new (FALSE, FALSE, sizeof (double));
  if (csv)
    printf ("id,metric,predicted_gib,measured_gib,error\r\n");
  for (guint i = 0; i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double abs_error = ABS (run->error);
      g_autofree char *pred = hr_format_double (run->predicted_bytes / HR_GIB, 3);
      g_autofree char *meas = hr_format_double (run->measured_bytes / HR_GIB, 3);
      g_autofree char *err = hr_format_double (100.0 * run->error, 1);

      g_array_append_val (errors, abs_error);
      worst = MAX (worst, abs_error);
      if (csv)
        printf ("%s,%s,%s,%s,%s\r\n", run->id, metric_names[run->metric], pred, meas, err);
      else
        printf ("%-40s %-20s predicted %8s GiB  measured %8s GiB  error %6s %%\n",
                run->id, metric_names[run->metric], pred, meas, err);
    }
  for (guint i = 0; i < skipped->len; i++)
    fprintf (stderr, "headroom-cli: skipped: %s\n", (char *) g_ptr_array_index (skipped, i));

  if (errors->len > 0 && !csv)
    {
      double median;
      g_autofree char *median_s = NULL;
      g_autofree char *worst_s = NULL;

      g_array_sort (errors, compare_error);
      median = errors->len % 2 == 1
               ? g_array_index (errors, double, errors->len / 2)
               : (g_array_index (errors, double, errors->len / 2 - 1)
                  + g_array_index (errors, double, errors->len / 2)) / 2;
      median_s = hr_format_double (100.0 * median, 1);
      worst_s = hr_format_double (100.0 * worst, 1);
      printf ("%u runs: median absolute error %s %%, worst %s %%\n", errors->len,
              median_s, worst_s);
    }
  return EXIT_PLANNED;
}

static int
run (Options *o)
{
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *origin = NULL;
  g_autofree char *output = NULL;
  HrUnits units = HR_UNITS_BINARY;
  HrScenario sc;
  guint solve = 0;

  if (o->version)
    {
      printf ("headroom-cli %s\n", PACKAGE_VERSION);
      return EXIT_PLANNED;
    }
  if (o->list != NULL)
    return list_presets (presets, o->list);
  if (o->validate != NULL)
    return validate_runs (presets, o->validate, o->format);

  if (o->format != NULL && !g_strv_contains ((const char *[]) { "table", "json", "csv", NULL },
                                             o->format))
    {
      g_autofree char *msg = g_strdup_printf ("--format: \"%s\" is not allowed; allowed: "
                                              "table, json or csv", o->format);
      return bad_input (msg);
    }
  if (o->units != NULL)
    {
      if (g_strcmp0 (o->units, "gb") == 0)
        units = HR_UNITS_DECIMAL;
      else if (g_strcmp0 (o->units, "gib") != 0)
        {
          g_autofree char *msg = g_strdup_printf ("--units: \"%s\" is not allowed; "
                                                  "allowed: gib or gb", o->units);
          return bad_input (msg);
        }
    }
  if (o->solve != NULL && !hr_enum_parse (&hr_solve_names, o->solve, &solve))
    {
      g_autofree char *allowed = hr_enum_allowed (&hr_solve_names);
      g_autofree char *msg = g_strdup_printf ("--solve: \"%s\" is not allowed; allowed: %s",
                                              o->solve, allowed);
      return bad_input (msg);
    }

  root = load_root (o, presets, &origin, &error);
  if (root == NULL)
    return bad_input (error->message);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *msg = g_strdup_printf ("%s: the document is not an object; "
                                              "allowed: a scenario object", origin);
      return bad_input (msg);
    }
  if (o->import_hf != NULL && !apply_import (json_node_get_object (root), o->import_hf, &error))
    return bad_input (error->message);
  for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
    if (!hr_json_set_path (json_node_get_object (root), o->sets[i], &error))
      return bad_input (error->message);

  if (!hr_scenario_read_node (&sc, root, origin, presets, &error))
    return bad_input_from_sets (error->message, origin, o->sets);

  /* A DeepSpeed config changes the read scenario; --set still wins. */
  if (o->import_ds != NULL)
    {
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(JsonNode) again = NULL;

      if (!hr_ds_import_file (&sc, o->import_ds, unmapped, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--import-deepspeed: %s", error->message);
          return bad_input (msg);
        }
      for (guint i = 0; i < unmapped->len; i++)
        fprintf (stderr, "headroom-cli: %s: not mapped: %s\n", o->import_ds,
                 (char *) g_ptr_array_index (unmapped, i));
      again = hr_scenario_to_json (&sc);
      for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
        if (!hr_json_set_path (json_node_get_object (again), o->sets[i], &error))
          return bad_input (error->message);
      if (!hr_scenario_read_node (&sc, again, origin, presets, &error))
        return bad_input_from_sets (error->message, origin, o->sets);
    }

  if (o->solve != NULL)
    return print_solve (&sc, solve, o->format, o->check);
  if (o->suggest)
    return print_suggestions (&sc, o->format, units);
  if (o->sweep != NULL)
    return print_sweep (&sc, o->sweep, o->format, o->png, units);

  if (!hr_calc_plan (&sc, plan, &error))
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", origin, error->message);
      return bad_input (msg);
    }

  /* The chart the window shows, at a size fit for a slide (1600 x 900,
   * drawn at twice the resolution). */
  if (o->png != NULL)
    {
      HrChartStyle style;

      hr_chart_style_init_light (&style);
      style.units = units;
      style.font_scale = 1.25;
      if (!hr_chart_write_png (o->png, 1600, 900, 2.0, &sc, plan, &style, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--png: %s", error->message);
          return bad_input (msg);
        }
    }

  if (o->report != NULL && !hr_report_write_png (o->report, &sc, plan, units, &error))
    {
      g_autofree char *msg = g_strdup_printf ("--report: %s", error->message);
      return bad_input (msg);
    }

  if (g_strcmp0 (o->format, "json") == 0)
    output = hr_report_json_text (&sc, plan);
  else if (g_strcmp0 (o->format, "csv") == 0)
    output = hr_report_csv (plan);
  else
    output = hr_report_table (&sc, plan, units);
  fputs (output, stdout);
  if (g_strcmp0 (o->format, "json") == 0)
    fputc ('\n', stdout);
  if (o->format == NULL || g_strcmp0 (o->format, "table") == 0)
    {
      g_autoptr(GPtrArray) runs = hr_measured_load_bundled (presets);
      guint n = 0;
      double err = hr_measured_uncertainty (runs, sc.training.method, &n);

      if (n > 0)
        printf ("Error bar: ±%.0f %% (the median error of Headroom on %u measured %s runs; "
                "headroom-cli --validate).\n", 100 * err, n,
                hr_enum_name (&hr_method_names, sc.training.method));
    }

  if (o->check && !plan->fits)
    return EXIT_OVER_CAPACITY;
  return EXIT_PLANNED;
}

int
main (int   argc,
      char *argv[])
{
  Options o = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  int status;
  GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &o.preset, "Plan a bundled or user scenario preset", "ID" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override one field, e.g. training.micro_batch=8 (repeatable)", "PATH=VALUE" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format, "Output: table (default), json or csv", "FORMAT" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &o.png, "Also write the per-GPU chart as a PNG", "FILE" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o.report, "Write a one-page report (PNG) for a slide", "FILE" },
    { "solve", 0, 0, G_OPTION_ARG_STRING, &o.solve, "max-micro-batch, max-seq-len or min-gpus", "WHAT" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &o.check, "Exit with status 3 when a GPU is over capacity", NULL },
    { "import-hf", 0, 0, G_OPTION_ARG_FILENAME, &o.import_hf, "Use a Hugging Face config.json as the model", "CONFIG.json" },
    { "import-deepspeed", 0, 0, G_OPTION_ARG_FILENAME, &o.import_ds, "Apply a DeepSpeed config JSON (ZeRO stage, offload, batch, precision)", "DS_CONFIG.json" },
    { "list", 0, 0, G_OPTION_ARG_STRING, &o.list, "List presets: models, gpus or scenarios", "WHAT" },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o.units, "Table units: gib (default) or gb", "UNITS" },
    { "sweep", 0, 0, G_OPTION_ARG_STRING, &o.sweep, "Memory against micro-batch or seq-len (with --png: the sweep chart)", "AXIS" },
    { "suggest", 0, 0, G_OPTION_ARG_NONE, &o.suggest, "List the changes that make the plan fit, ranked", NULL },
    { "validate", 0, 0, G_OPTION_ARG_FILENAME, &o.validate, "Compare plans with measured runs (measured-calibration.json format)", "FILE" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o.version, "Print the version", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.files, NULL, "[SCENARIO.json]" },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  context = g_option_context_new ("- plan GPU memory for a training run");
  g_option_context_set_summary (context,
                                "Plans a scenario (CONTRACT.md section 1): with no file and no --preset,\n"
                                "the default scenario. Exit status: 0 planned, 2 bad input, 3 over\n"
                                "capacity with --check.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      options_clear (&o);
      return bad_input (error->message);
    }

  status = run (&o);
  options_clear (&o);
  return status;
}
