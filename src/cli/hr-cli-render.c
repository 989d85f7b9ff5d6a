/* hr-cli-render.c: the render layer, loaded when headroom-cli draws
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linking cairo and pango (and with them fontconfig, freetype, harfbuzz)
 * into headroom-cli doubled its start-up for every command, most of which
 * print text: 3.8 ms against 1.9 ms for json-glib alone.  The drawing code
 * lives in the headroom-render module instead, opened the first time a
 * PNG is asked for: from $HEADROOM_RENDER_MODULE, the installed library
 * folder, or, run from a build tree, the build tree's.
 */

#include "config.h"

#include <gmodule.h>

#include "hr-cli-render.h"
#include "hr-error.h"

static GModule *
render_module (GError **error)
{
  static GModule *module;
  const char *candidates[] = { g_getenv ("HEADROOM_RENDER_MODULE"), HR_RENDER_MODULE,
                               HR_BUILD_RENDER_MODULE };

  if (module != NULL)
    return module;
  for (guint i = 0; i < G_N_ELEMENTS (candidates) && module == NULL; i++)
    if (candidates[i] != NULL && *candidates[i] != '\0'
        && g_file_test (candidates[i], G_FILE_TEST_IS_REGULAR))
      module = g_module_open (candidates[i], G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    g_set_error (error, HR_ERROR, HR_ERROR_IO, "the drawing module (%s) could not be loaded: "
                 "%s; reinstall Headroom", HR_RENDER_MODULE, g_module_error () != NULL
                 ? g_module_error () : "not found");
  return module;
}

static gpointer
render_symbol (const char  *name,
               GError     **error)
{
  GModule *module = render_module (error);
  gpointer symbol = NULL;

  if (module != NULL && !g_module_symbol (module, name, &symbol))
    g_set_error (error, HR_ERROR, HR_ERROR_IO, "the drawing module has no %s; reinstall "
                 "Headroom", name);
  return symbol;
}

gboolean
hr_cli_chart_png (const char       *path,
                  const HrScenario *scenario,
                  const HrPlan     *plan,
                  HrUnits           units,
                  GError          **error)
{
  HrRenderPlanPng draw = (HrRenderPlanPng) render_symbol ("hr_render_chart_png", error);

  return draw != NULL && draw (path, scenario, plan, units, error);
}

gboolean
hr_cli_timeline_png (const char       *path,
                     const HrScenario *scenario,
                     const HrPlan     *plan,
                     HrUnits           units,
                     GError          **error)
{
  HrRenderPlanPng draw = (HrRenderPlanPng) render_symbol ("hr_render_timeline_png", error);

  return draw != NULL && draw (path, scenario, plan, units, error);
}

gboolean
hr_cli_report_png (const char       *path,
                   const HrScenario *scenario,
                   const HrPlan     *plan,
                   HrUnits           units,
                   GError          **error)
{
  HrRenderPlanPng draw = (HrRenderPlanPng) render_symbol ("hr_render_report_png", error);

  return draw != NULL && draw (path, scenario, plan, units, error);
}

gboolean
hr_cli_sweep_png (const char       *path,
                  const HrScenario *scenario,
                  const HrSweep    *sweep,
                  HrUnits           units,
                  GError          **error)
{
  HrRenderSweepPng draw = (HrRenderSweepPng) render_symbol ("hr_render_sweep_png", error);

  return draw != NULL && draw (path, scenario, sweep, units, error);
}
