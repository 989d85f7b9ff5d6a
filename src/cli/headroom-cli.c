/* headroom-cli.c: the command-line twin of the Headroom window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CONTRACT.md section 3.  Exit status: 0 planned, 2 bad input (one line on
 * stderr naming the file, the path, the value and what is allowed), 3 over
 * capacity with --check.  Here: main() and the planning command (the
 * plan in a format, its pictures); the options are hr-cli-options.c, the
 * scenario hr-cli-scenario.c, --list hr-cli-list.c, the other commands
 * hr-cli-commands.c.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "hr-calc.h"
#include "hr-cli-commands.h"
#include "hr-cli-options.h"
#include "hr-cli-render.h"
#include "hr-cli-scenario.h"
#include "hr-frameworks.h"
#include "hr-json.h"
#include "hr-measured.h"
#include "hr-report.h"

/* --png and --report: the chart the window shows (per GPU, or over one
 * step with --chart timeline) and the one-page report. */
static int
write_pictures (const HrCliOptions *o,
                const HrScenario   *sc,
                const HrPlan       *plan,
                HrUnits             units)
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
print_plan (const HrCliOptions *o,
            const HrScenario   *sc,
            const HrPlan       *plan,
            HrUnits             units)
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
run (const HrCliOptions *o)
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
  status = hr_cli_options_check (o, &units, &solve);
  if (status != EXIT_PLANNED)
    return status;

  if (o->version)
    {
      printf ("headroom-cli %s\n", PACKAGE_VERSION);
      return EXIT_PLANNED;
    }
  if (o->list != NULL)
    return hr_cli_list (presets, o->list);
  if (o->validate != NULL)
    return hr_cli_validate_runs (presets, o->validate, o->format);

  status = hr_cli_build_scenario (o, presets, &sc, &origin);
  if (status != EXIT_PLANNED)
    return status;
  /* The reader checked the framework's limits; a DeepSpeed import came
   * after it.  A user's broken profile of that framework, skipped for
   * the bundled one, is named. */
  if (!hr_framework_check (&sc, &error))
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s", origin, error->message);
      return hr_cli_bad_input (msg);
    }
  {
    g_autofree char *skipped = hr_framework_skipped (sc.training.framework);

    if (skipped != NULL)
      hr_cli_note ("%s", skipped);
  }
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
  HrCliOptions o = { 0 };
  const char *localedir = g_getenv ("HEADROOM_LOCALEDIR");
  int status;

  /* The table, the messages and --help in the user's language;
   * HEADROOM_LOCALEDIR points at a build tree's translations (the tests). */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir
                                                                            : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  status = hr_cli_options_parse (&o, &argc, &argv);
  if (status != EXIT_PLANNED)
    {
      hr_cli_options_clear (&o);
      return status;
    }

  /* JSON and CSV are for programs: their keys and their words stay
   * English whatever the locale (CONTRACT.md sections 4 and 5), so that a
   * script reads the same output on every machine. */
  if (g_strcmp0 (o.format, "json") == 0 || g_strcmp0 (o.format, "csv") == 0)
    setlocale (LC_MESSAGES, "C");

  status = run (&o);
  hr_cli_options_clear (&o);
  return status;
}
