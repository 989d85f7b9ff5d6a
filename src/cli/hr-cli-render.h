/* hr-cli-render.h: the render layer, loaded when headroom-cli draws
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-render-png.h"

G_BEGIN_DECLS

gboolean  hr_cli_chart_png   (const char *path, const HrScenario *scenario, const HrPlan *plan,
                              HrUnits units, GError **error);
gboolean  hr_cli_timeline_png (const char *path, const HrScenario *scenario, const HrPlan *plan,
                               HrUnits units, GError **error);
gboolean  hr_cli_report_png  (const char *path, const HrScenario *scenario, const HrPlan *plan,
                              HrUnits units, GError **error);
gboolean  hr_cli_sweep_png   (const char *path, const HrScenario *scenario, const HrSweep *sweep,
                              HrUnits units, GError **error);

G_END_DECLS
