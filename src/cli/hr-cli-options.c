/* hr-cli-options.c: headroom-cli's options, parsed and checked
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The option table GOption parses (its descriptions are --help's, in the
 * user's language) and the checks that run before any command: each word
 * a flag takes, and no output written over an input.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-cli-commands.h"
#include "hr-cli-options.h"
#include "hr-enums.h"
#include "hr-file-write.h"
#include "hr-frameworks.h"
#include "hr-solver.h"

/* Fills o from the command line: EXIT_PLANNED, or EXIT_BAD_INPUT with
 * GOption's message on stderr. */
int
hr_cli_options_parse (HrCliOptions   *o,
                      int            *argc,
                      char         ***argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &o->preset, N_("Plan a bundled or user scenario preset"), "ID" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets, N_("Override one field, e.g. training.micro_batch=8 (repeatable)"), "PATH=VALUE" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o->format, N_("Output: table (default), json or csv"), "FORMAT" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &o->png, N_("Also write the per-GPU chart as a PNG"), "FILE" },
    { "chart", 0, 0, G_OPTION_ARG_STRING, &o->chart, N_("What --png draws: per-gpu (default) or timeline (memory over one step)"), "CHART" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o->report, N_("Write a one-page report (PNG) for a slide"), "FILE" },
    { "solve", 0, 0, G_OPTION_ARG_STRING, &o->solve, N_("max-micro-batch, max-seq-len or min-gpus"), "WHAT" },
    { "check", 0, 0, G_OPTION_ARG_NONE, &o->check, N_("Exit with status 3 when a GPU is over capacity"), NULL },
    { "import-hf", 0, 0, G_OPTION_ARG_FILENAME, &o->import_hf, N_("Use a Hugging Face config.json as the model"), "CONFIG.json" },
    { "import-deepspeed", 0, 0, G_OPTION_ARG_FILENAME, &o->import_ds, N_("Apply a DeepSpeed config JSON (ZeRO stage, offload, batch, precision)"), "DS_CONFIG.json" },
    { "import", 0, 0, G_OPTION_ARG_FILENAME, &o->import, N_("Apply a config of any format Headroom can import, told by its keys"), "CONFIG.json" },
    { "framework", 0, 0, G_OPTION_ARG_STRING, &o->framework, N_("Plan what a framework's code does (a profile: --list frameworks)"), "ID" },
    { "list", 0, 0, G_OPTION_ARG_STRING, &o->list, N_("List presets (models, gpus, scenarios, frameworks) or the scenario fields (fields)"), "WHAT" },
    { "units", 0, 0, G_OPTION_ARG_STRING, &o->units, N_("Table units: gib (default) or gb"), "UNITS" },
    { "sweep", 0, 0, G_OPTION_ARG_STRING, &o->sweep, N_("Memory against micro-batch or seq-len (with --png: the sweep chart)"), "AXIS" },
    { "suggest", 0, 0, G_OPTION_ARG_NONE, &o->suggest, N_("List the changes that make the plan fit, ranked"), NULL },
    { "validate", 0, 0, G_OPTION_ARG_FILENAME, &o->validate, N_("Compare plans with measured runs (measured-calibration.json format)"), "FILE" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o->version, N_("Print the version"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->files, NULL, "[SCENARIO.json]" },
    { NULL }
  };

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
  if (!g_option_context_parse (context, argc, argv, &error))
    return hr_cli_bad_input (error->message);
  return EXIT_PLANNED;
}

void
hr_cli_options_clear (HrCliOptions *o)
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
  g_free (o->import);
  g_free (o->framework);
  g_free (o->list);
  g_free (o->units);
  g_free (o->validate);
  g_free (o->sweep);
  g_strfreev (o->files);
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
check_choices (const HrCliOptions *o,
               HrUnits            *units,
               guint              *solve)
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
      /* A profile that is there but broken says what is wrong with it. */
      g_autofree char *problem = hr_framework_problem (o->framework);
      g_autofree char *allowed = hr_frameworks_allowed ();
      g_autofree char *msg = problem != NULL
                             ? g_strdup_printf ("--framework: \"%s\": %s", o->framework, problem)
                             : g_strdup_printf ("--framework: \"%s\" is not allowed; "
                                                "allowed: %s", o->framework, allowed);
      return hr_cli_bad_input (msg);
    }
  return EXIT_PLANNED;
}

/* An output over an input (`s.json --png s.json`) would replace the
 * scenario with a picture: refused, whatever name or link each goes by. */
static int
check_outputs (const HrCliOptions *o)
{
  const struct { const char *flag; const char *path; } outputs[] = {
    { "--png", o->png }, { "--report", o->report },
  };
  const struct { const char *what; const char *path; } inputs[] = {
    { "the scenario file", o->files != NULL ? o->files[0] : NULL },
    { "--import-hf", o->import_hf }, { "--import-deepspeed", o->import_ds },
    { "--import", o->import },
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

/* Every word-valued flag and every output file, checked before anything
 * runs: EXIT_PLANNED with the units and the solve target, or
 * EXIT_BAD_INPUT with one line on stderr. */
int
hr_cli_options_check (const HrCliOptions *o,
                      HrUnits            *units,
                      guint              *solve)
{
  int status = check_choices (o, units, solve);

  return status == EXIT_PLANNED ? check_outputs (o) : status;
}
