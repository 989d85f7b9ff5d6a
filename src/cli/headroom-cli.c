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
#include "hr-error.h"
#include "hr-ds-import.h"
#include "hr-hf-import.h"
#include "hr-import.h"
#include "hr-measured.h"
#include "hr-report.h"
#include "hr-scenario-io.h"
#include "hr-scenario-name.h"
#include "hr-solver.h"
#include "hr-suggest.h"
#include "hr-sweep.h"
#include "hr-validate.h"
#include "hr-cli-commands.h"
#include "hr-cli-render.h"
#include "hr-frameworks.h"
#include "hr-json.h"
#include "hr-scenario-fields.h"


typedef struct
{
  char   *preset;
  char  **sets;
  char   *format;
  char   *png;
  char   *chart;
  char   *report;
  char   *solve;
  gboolean check;
  char   *import_hf;
  char   *import_ds;
  char   *framework;
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
  g_free (o->chart);
  g_free (o->report);
  g_free (o->solve);
  g_free (o->import_hf);
  g_free (o->import_ds);
  g_free (o->framework);
  g_free (o->list);
  g_free (o->units);
  g_free (o->validate);
  g_free (o->sweep);
  g_strfreev (o->files);
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

          return hr_cli_bad_input (msg);
        }
    }
  return hr_cli_bad_input (message);
}

/* Every scenario field, from the field table: path, what is allowed,
 * the default scenario's value and the form's label. */
static int
list_fields (void)
{
  HrScenario sc;

  hr_scenario_init_default (&sc);
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gconstpointer base = G_STRUCT_MEMBER_P (&sc, section->offset);

      for (guint f = 0; f < *section->n_fields; f++)
        {
          const Field *field = &section->fields[f];
          g_autofree char *path = g_strconcat (section->path, ".", field->key, NULL);
          g_autofree char *allowed = NULL;
          g_autofree char *value = NULL;
          char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (lo, sizeof lo, "%.15g", field->min);
          g_ascii_formatd (hi, sizeof hi, "%.15g", field->max);
          switch (field->kind)
            {
            case F_UINT:
              allowed = g_strdup_printf ("%s to %s", lo, hi);
              value = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                       *(const guint64 *) G_STRUCT_MEMBER_P (base, field->offset));
              break;
            case F_DOUBLE:
              allowed = g_strdup_printf ("%s to %s", lo, hi);
              value = g_strdup_printf ("%g", hr_field_get_number (field, base));
              break;
            case F_BOOL:
              allowed = g_strdup ("true, false");
              value = g_strdup (hr_field_get_number (field, base) != 0 ? "true" : "false");
              break;
            case F_ENUM:
              allowed = hr_enum_allowed (field->names);
              value = g_strdup (hr_enum_name (field->names, (guint) hr_field_get_number (field, base)));
              break;
            case F_NAME:
              allowed = g_strdup_printf ("a string, up to %" G_GSIZE_FORMAT " bytes", field->size - 1);
              value = hr_cli_shown (G_STRUCT_MEMBER_P (base, field->offset));
              break;
            case F_SKIP:
            default:
              continue;
            }
          printf ("%-36s %-44s %-14s %s\n", path, allowed, value, field->label);
        }
    }
  return EXIT_PLANNED;
}

static int
list_presets (HrPresets  *presets,
              const char *what)
{
  HrPresetKind kind;
  g_autoptr(GPtrArray) list = NULL;

  if (g_strcmp0 (what, "fields") == 0)
    return list_fields ();
  if (g_strcmp0 (what, "frameworks") == 0)
    {
      for (guint i = 0; i < hr_frameworks_count (); i++)
        {
          const HrFramework *f = hr_framework_get (i);
          g_autofree char *name = hr_cli_shown (f->name);
          g_autofree char *summary = hr_cli_shown (f->summary);

          printf ("%-24s %s: %s\n", f->id, name, summary);
        }
      /* A profile left out for a bad value is named, not dropped silently. */
      for (guint i = 0; i < hr_frameworks_problems ()->len; i++)
        hr_cli_note ("%s", (char *) g_ptr_array_index (hr_frameworks_problems (), i));
      return EXIT_PLANNED;
    }
  if (g_strcmp0 (what, "models") == 0)
    kind = HR_PRESET_MODEL;
  else if (g_strcmp0 (what, "gpus") == 0)
    kind = HR_PRESET_GPU;
  else if (g_strcmp0 (what, "scenarios") == 0)
    kind = HR_PRESET_SCENARIO;
  else
    {
      g_autofree char *msg = g_strdup_printf ("--list: \"%s\" is not allowed; allowed: "
                                              "models, gpus, scenarios, frameworks or fields", what);
      return hr_cli_bad_input (msg);
    }

  list = hr_presets_list (presets, kind);
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autofree char *id = hr_cli_shown (info->id);
      g_autofree char *name = hr_cli_shown (info->name);

      printf ("%-24s %s\n", id, name);
    }
  return EXIT_PLANNED;
}

/* TRUE when VALUE is absent or one of ALLOWED (NULL-terminated); else a
 * line on stderr naming FLAG and the allowed words, "a, b or c". */
static gboolean
check_choice (const char         *flag,
              const char         *value,
              const char * const *allowed)
{
  g_autoptr(GString) list = g_string_new (NULL);

  if (value == NULL || g_strv_contains (allowed, value))
    return TRUE;
  for (guint i = 0; allowed[i] != NULL; i++)
    g_string_append_printf (list, "%s%s", i == 0 ? "" : allowed[i + 1] == NULL ? " or " : ", ",
                            allowed[i]);
  {
    g_autofree char *msg = g_strdup_printf ("%s: \"%s\" is not allowed; allowed: %s", flag,
                                            value, list->str);

    hr_cli_bad_input (msg);
  }
  return FALSE;
}

static int
check_choices (Options *o,
               HrUnits *units,
               guint   *solve)
{
  static const char * const formats[] = { "table", "json", "csv", NULL };
  static const char * const unit_names[] = { "gib", "gb", NULL };
  static const char * const axes[] = { "micro-batch", "seq-len", NULL };
  static const char * const lists[] = { "models", "gpus", "scenarios", "frameworks", "fields", NULL };
  static const char * const charts[] = { "per-gpu", "timeline", NULL };

  if (!check_choice ("--format", o->format, formats)
      || !check_choice ("--units", o->units, unit_names)
      || !check_choice ("--sweep", o->sweep, axes)
      || !check_choice ("--list", o->list, lists)
      || !check_choice ("--chart", o->chart, charts))
    return EXIT_BAD_INPUT;
  /* --chart says what --png draws; alone, or beside the sweep's own
   * chart, it would be silently ignored. */
  if (o->chart != NULL && o->png == NULL)
    return hr_cli_bad_input ("--chart: there is no --png to draw it in; allowed: with --png FILE");
  if (o->chart != NULL && o->sweep != NULL)
    return hr_cli_bad_input ("--chart: with --sweep, --png draws the sweep; allowed: --chart "
                             "without --sweep");
  *units = g_strcmp0 (o->units, "gb") == 0 ? HR_UNITS_DECIMAL : HR_UNITS_BINARY;
  if (o->solve != NULL && !hr_enum_parse (&hr_solve_names, o->solve, solve))
    {
      g_autofree char *allowed = hr_enum_allowed (&hr_solve_names);
      g_autofree char *msg = g_strdup_printf ("--solve: \"%s\" is not allowed; allowed: %s",
                                              o->solve, allowed);
      return hr_cli_bad_input (msg);
    }
  if (o->framework != NULL && hr_framework_find (o->framework) == NULL)
    {
      g_autofree char *allowed = hr_frameworks_allowed ();
      g_autofree char *msg = g_strdup_printf ("--framework: \"%s\" is not allowed; "
                                              "allowed: %s", o->framework, allowed);
      return hr_cli_bad_input (msg);
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

/* A name that is the one the plan gives itself ("Llama 2 13B, ZeRO-3,
 * 8x H100", the default's) follows the plan through --set and the
 * imports, as it does in the window; a name the user chose stays. */
static void
follow_plan_name (JsonObject *root,
                  const char *origin,
                  HrPresets  *presets)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  HrScenario base;

  if (!json_object_has_member (root, "name"))
    return;
  json_node_set_object (node, root);
  if (hr_scenario_read_node (&base, node, origin, presets, NULL)
      && hr_scenario_name_is_generated (&base))
    json_object_remove_member (root, "name");
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
  if (!hr_import_file (&sc, path, &hr_hf_importer, NULL, unmapped, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "--import-hf: %s", local->message);
      return FALSE;
    }
  node = hr_scenario_to_json (&sc);
  json_object_set_member (root, "model",
                          json_node_copy (json_object_get_member (json_node_get_object (node),
                                                                  "model")));
  /* T5's bias takes eager attention, which the import chose (hf_apply). */
  if (sc.model.position_buckets > 0)
    {
      JsonObject *training = json_object_has_member (root, "training")
                             ? json_object_get_object_member (root, "training") : NULL;

      if (training == NULL)
        {
          training = json_object_new ();
          json_object_set_object_member (root, "training", training);
        }
      json_object_set_string_member (training, "attention", "eager");
    }
  /* An audio encoder takes whole 30 s clips and a target no longer than
   * its decoder's table, the lengths the import chose
   * (hr_scenario_fit_model_lengths). */
  if (hr_model_audio (&sc.model))
    {
      JsonObject *training = json_object_has_member (root, "training")
                             ? json_object_get_object_member (root, "training") : NULL;

      if (training == NULL)
        {
          training = json_object_new ();
          json_object_set_object_member (root, "training", training);
        }
      json_object_set_int_member (training, "seq_len", (gint64) sc.training.seq_len);
      json_object_set_int_member (training, "target_len", (gint64) sc.training.target_len);
    }
  for (guint i = 0; i < unmapped->len; i++)
    hr_cli_note ("%s: not mapped: %s", path, (char *) g_ptr_array_index (unmapped, i));
  return TRUE;
}

/* An output over an input (`s.json --png s.json`) would replace the
 * scenario with a picture: refused, whatever name or link each goes by. */
static int
check_outputs (const Options *o)
{
  const struct { const char *flag; const char *path; } outputs[] = {
    { "--png", o->png }, { "--report", o->report },
  };
  const struct { const char *what; const char *path; } inputs[] = {
    { "the scenario file", o->files != NULL ? o->files[0] : NULL },
    { "--import-hf", o->import_hf }, { "--import-deepspeed", o->import_ds },
    { "--validate", o->validate },
  };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      if (outputs[i].path == NULL)
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (inputs); j++)
        if (hr_file_same (outputs[i].path, inputs[j].path))
          {
            g_autofree char *msg = g_strdup_printf ("%s: %s is %s; allowed: a file that is "
                                                    "not one of the inputs", outputs[i].flag,
                                                    outputs[i].path, inputs[j].what);
            return hr_cli_bad_input (msg);
          }
    }
  if (o->png != NULL && o->report != NULL
      && (strcmp (o->png, o->report) == 0 || hr_file_same (o->png, o->report)))
    return hr_cli_bad_input ("--report: the same file as --png; allowed: two different files");
  return EXIT_PLANNED;
}

/* The scenario the command plans: the file, the preset or the default,
 * with the imports, the framework and --set applied, read and checked. */
static int
build_scenario (Options     *o,
                HrPresets   *presets,
                HrScenario  *sc,
                char       **out_origin)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  char *origin = NULL;

  root = load_root (o, presets, &origin, &error);
  *out_origin = origin;   /* the caller's to free, whatever happens */
  if (root == NULL)
    return hr_cli_bad_input (error->message);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *msg = g_strdup_printf ("%s: the document is not an object; "
                                              "allowed: a scenario object", origin);
      return hr_cli_bad_input (msg);
    }
  /* Only a change can make a generated name stale: without one, the
   * name the file gives is the one the reader would generate, and
   * reading the whole scenario twice to find that out is a third of the
   * start-up of a plain `headroom-cli`. */
  if (o->sets != NULL || o->import_hf != NULL || o->import_ds != NULL || o->framework != NULL)
    follow_plan_name (json_node_get_object (root), origin, presets);
  if (o->import_hf != NULL && !apply_import (json_node_get_object (root), o->import_hf, &error))
    return hr_cli_bad_input (error->message);
  if (o->framework != NULL)
    {
      /* --framework ID is --set training.framework=ID (contract 1.1):
       * the profile fills what the file leaves out, the file's own
       * values win, and --set wins over both; the id was checked with
       * the other choices. */
      g_autofree char *set = g_strdup_printf ("training.framework=\"%s\"", o->framework);

      if (!hr_json_set_path (json_node_get_object (root), set, &error))
        return hr_cli_bad_input (error->message);
    }
  for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
    if (!hr_json_set_path (json_node_get_object (root), o->sets[i], &error))
      return hr_cli_bad_input (error->message);

  if (!hr_scenario_read_node (sc, root, origin, presets, &error))
    return bad_input_from_sets (error->message, origin, o->sets);

  /* A DeepSpeed config changes the read scenario; --set still wins. */
  if (o->import_ds != NULL)
    {
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);

      if (!hr_import_file (sc, o->import_ds, &hr_ds_importer, NULL, unmapped, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--import-deepspeed: %s", error->message);
          return hr_cli_bad_input (msg);
        }
      for (guint i = 0; i < unmapped->len; i++)
        hr_cli_note ("%s: not mapped: %s", o->import_ds,
                     (char *) g_ptr_array_index (unmapped, i));
      for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
        if (!hr_scenario_set (sc, o->sets[i], presets, origin, &error))
          return bad_input_from_sets (error->message, origin, o->sets);
      if (!hr_scenario_validate (sc, &error))
        {
          g_prefix_error (&error, "%s: ", origin);
          return bad_input_from_sets (error->message, origin, o->sets);
        }
    }
  return EXIT_PLANNED;
}

/* --png and --report: the chart the window shows (per GPU, or over one
 * step with --chart timeline) and the one-page report. */
static int
write_pictures (const Options    *o,
                const HrScenario *sc,
                const HrPlan     *plan,
                HrUnits           units)
{
  g_autoptr(GError) error = NULL;

  if (o->png != NULL && g_strcmp0 (o->chart, "timeline") == 0)
    {
      if (!hr_cli_timeline_png (o->png, sc, plan, units, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--png: %s", error->message);
          return hr_cli_bad_input (msg);
        }
    }
  else if (o->png != NULL && !hr_cli_chart_png (o->png, sc, plan, units, &error))
    {
      g_autofree char *msg = g_strdup_printf ("--png: %s", error->message);
      return hr_cli_bad_input (msg);
    }
  if (o->report != NULL && !hr_cli_report_png (o->report, sc, plan, units, &error))
    {
      g_autofree char *msg = g_strdup_printf ("--report: %s", error->message);
      return hr_cli_bad_input (msg);
    }
  return EXIT_PLANNED;
}

/* The plan as the format asks, with the error bar from the measured runs
 * of the plan's kind: the table and the JSON show it, the CSV does not,
 * so only they read the runs (and only those of the kinds they need). */
static void
print_plan (const Options    *o,
            const HrScenario *sc,
            const HrPlan     *plan,
            HrUnits           units)
{
  g_autofree char *output = NULL;
  HrErrorBar bar;

  if (g_strcmp0 (o->format, "json") == 0)
    {
      g_autoptr(JsonNode) report = hr_report_json (sc, plan);

      json_object_set_member (json_node_get_object (report), "error_bar",
                              hr_calibration_error_bar (hr_calibration_bundled (), sc, &bar, NULL)
                                ? hr_error_bar_json (&bar) : json_node_new (JSON_NODE_NULL));
      output = hr_json_to_data (report, TRUE, NULL);
      printf ("%s\n", output);
      return;
    }
  if (g_strcmp0 (o->format, "csv") == 0)
    {
      output = hr_report_csv (plan);
      fputs (output, stdout);
      return;
    }
  output = hr_report_table (sc, plan, units);
  fputs (output, stdout);
  if (hr_calibration_error_bar (hr_calibration_bundled (), sc, &bar, NULL))
    {
      g_autofree char *sentence = hr_error_bar_sentence (&bar, NULL);

      /* TRANSLATORS: %s is how far the plans of similar measured runs were off */
      printf (_("Error bar: %s; headroom-cli --validate lists the runs.\n"), sentence);
    }
}

static int
run (Options *o)
{
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *origin = NULL;
  HrUnits units = HR_UNITS_BINARY;
  HrScenario sc;
  guint solve = 0;
  int status;

  /* Every word-valued flag is checked before anything runs, so that
   * --format xml fails with --list, --validate or --version as it does
   * when planning. */
  status = check_choices (o, &units, &solve);
  if (status == EXIT_PLANNED)
    status = check_outputs (o);
  if (status != EXIT_PLANNED)
    return status;

  if (o->version)
    {
      printf ("headroom-cli %s\n", PACKAGE_VERSION);
      return EXIT_PLANNED;
    }
  if (o->list != NULL)
    return list_presets (presets, o->list);
  if (o->validate != NULL)
    return hr_cli_validate_runs (presets, o->validate, o->format);

  status = build_scenario (o, presets, &sc, &origin);
  if (status != EXIT_PLANNED)
    return status;
  if (o->solve != NULL)
    return hr_cli_print_solve (&sc, solve, o->format, o->check);
  if (o->suggest)
    return hr_cli_print_suggestions (&sc, o->format, units);
  if (o->sweep != NULL)
    return hr_cli_print_sweep (&sc, o->sweep, o->format, o->png, units);

  if (!hr_calc_plan (&sc, plan, &error))
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", origin, error->message);
      return hr_cli_bad_input (msg);
    }
  status = write_pictures (o, &sc, plan, units);
  if (status != EXIT_PLANNED)
    return status;
  print_plan (o, &sc, plan, units);
  if (o->check && !plan->fits)
    return EXIT_OVER_CAPACITY;
  return EXIT_PLANNED;
}

int
main (int   argc,
      char *argv[])
{
  Options o = { 0 };
  const char *localedir = g_getenv ("HEADROOM_LOCALEDIR");
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  int status;
  GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &o.preset, N_("Plan a bundled or user scenario preset"), "ID" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, N_("Override one field, e.g. training.micro_batch=8 (repeatable)"), "PATH=VALUE" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format, N_("Output: table (default), json or csv"), "FORMAT" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &o.png, N_("Also write the per-GPU chart as a PNG"), "FILE" },
    { "chart", 0, 0, G_OPTION_ARG_STRING, &o.chart, N_("What --png draws: per-gpu (default) or timeline (memory over one step)"), "CHART" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o.report, N_("Write a one-page report (PNG) for a slide"), "FILE" },
    { "solve", 0, 0, G_OPTION_ARG_STRING, &o.solve, N_("max-micro-batch, max-seq-len or min-gpus"), "WHAT" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &o.check, N_("Exit with status 3 when a GPU is over capacity"), NULL },
    { "import-hf", 0, 0, G_OPTION_ARG_FILENAME, &o.import_hf, N_("Use a Hugging Face config.json as the model"), "CONFIG.json" },
    { "import-deepspeed", 0, 0, G_OPTION_ARG_FILENAME, &o.import_ds, N_("Apply a DeepSpeed config JSON (ZeRO stage, offload, batch, precision)"), "DS_CONFIG.json" },
    { "framework", 0, 0, G_OPTION_ARG_STRING, &o.framework, N_("Plan what a framework's code does (a profile: --list frameworks)"), "ID" },
    { "list", 0, 0, G_OPTION_ARG_STRING, &o.list, N_("List presets (models, gpus, scenarios, frameworks) or the scenario fields (fields)"), "WHAT" },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o.units, N_("Table units: gib (default) or gb"), "UNITS" },
    { "sweep", 0, 0, G_OPTION_ARG_STRING, &o.sweep, N_("Memory against micro-batch or seq-len (with --png: the sweep chart)"), "AXIS" },
    { "suggest", 0, 0, G_OPTION_ARG_NONE, &o.suggest, N_("List the changes that make the plan fit, ranked"), NULL },
    { "validate", 0, 0, G_OPTION_ARG_FILENAME, &o.validate, N_("Compare plans with measured runs (measured-calibration.json format)"), "FILE" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o.version, N_("Print the version"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.files, NULL, "[SCENARIO.json]" },
    { NULL }
  };

  /* The table, the messages and --help in the user's language;
   * HEADROOM_LOCALEDIR points at a build tree's translations (the tests). */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir
                                                                            : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* GOption translates these, and every entry's description, in the
   * domain given here. */
  context = g_option_context_new (N_("- plan GPU memory for a training run"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                N_("Plans a scenario (docs/scenario-format.md): with no file and no --preset,\n"
                                   "the default scenario. Exit status: 0 planned, 2 bad input, 3 over\n"
                                   "capacity with --check."));
  g_option_context_set_description (context,
                                    /* TRANSLATORS: the quoted keys and the words in
                                     * parentheses after "csv:" are what programs read:
                                     * keep them in English */
                                    N_("--format json and csv with --validate and --sweep (planning: docs/outputs.md):\n"
                                    "  --validate json: {\"runs\": [{\"id\", \"metric\", \"method\", \"predicted_bytes\",\n"
                                    "    \"measured_bytes\", \"error\"}], \"skipped\": [messages], \"median_abs_error\",\n"
                                    "    \"worst_abs_error\"}; errors are fractions ((predicted - measured) / measured),\n"
                                    "    the summary null with no runs.\n"
                                    "    csv: id,metric,predicted_gib,measured_gib,error (in %).\n"
                                    "  --sweep json: {\"axis\" (micro_batch or seq_len), \"current\", \"last_fitting\"\n"
                                    "    (0: none fits), \"capacity_bytes\", \"headroom\", \"points\": [{\"value\",\n"
                                    "    \"parameters\", \"gradients\", \"optimizer\", \"activations\", \"overhead\",\n"
                                    "    \"total_bytes\", \"status\"}]}, sizes in bytes.  csv: micro_batch or seq_len,\n"
                                    "    the five categories, total, status.\n"));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      options_clear (&o);
      return hr_cli_bad_input (error->message);
    }

  /* JSON and CSV are for programs: their keys and their words stay
   * English whatever the locale (CONTRACT.md sections 4 and 5), so that a
   * script reads the same output on every machine. */
  if (g_strcmp0 (o.format, "json") == 0 || g_strcmp0 (o.format, "csv") == 0)
    setlocale (LC_MESSAGES, "C");

  status = run (&o);
  options_clear (&o);
  return status;
}
