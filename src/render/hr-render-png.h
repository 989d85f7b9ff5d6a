/* hr-render-png.h: the pictures headroom-cli writes, as one small API
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli loads the render layer (cairo, pango, fontconfig: half of
 * its start-up time) only when it draws: these functions are what it
 * looks up in the headroom-render module (src/cli/hr-cli-render.c).
 */

#pragma once

#include "hr-format.h"
#include "hr-plan.h"
#include "hr-sweep.h"

G_BEGIN_DECLS

/* Every PNG Headroom writes, the window's exports and headroom-cli's,
 * is a slide: width x height points drawn at scale pixels per point
 * (1600 x 900 at 2: 3200 x 1800 pixels), so they sit side by side in a
 * deck; the charts' text is font_scale times the window's.  Written once,
 * here. */
typedef struct
{
  int    width;
  int    height;
  double scale;
  double font_scale;
} HrExportSettings;

extern const HrExportSettings hr_export_settings;

gboolean  hr_render_chart_png   (const char        *path,
                                 const HrScenario  *scenario,
                                 const HrPlan      *plan,
                                 HrUnits            units,
                                 GError           **error);
gboolean  hr_render_timeline_png (const char       *path,
                                 const HrScenario  *scenario,
                                 const HrPlan      *plan,
                                 HrUnits            units,
                                 GError           **error);
gboolean  hr_render_report_png  (const char        *path,
                                 const HrScenario  *scenario,
                                 const HrPlan      *plan,
                                 HrUnits            units,
                                 GError           **error);
gboolean  hr_render_sweep_png   (const char        *path,
                                 const HrScenario  *scenario,
                                 const HrSweep     *sweep,
                                 HrUnits            units,
                                 GError           **error);

typedef gboolean (*HrRenderPlanPng)  (const char *, const HrScenario *, const HrPlan *,
                                      HrUnits, GError **);
typedef gboolean (*HrRenderSweepPng) (const char *, const HrScenario *, const HrSweep *,
                                      HrUnits, GError **);

G_END_DECLS
