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

/* Every PNG the CLI writes: 1600 x 900, drawn twice as fine. */
#define HR_PNG_WIDTH  1600
#define HR_PNG_HEIGHT 900
#define HR_PNG_SCALE  2.0

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
