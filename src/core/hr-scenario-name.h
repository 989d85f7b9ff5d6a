/* hr-scenario-name.h: a scenario's name from what it plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

char     *hr_scenario_generate_name      (const HrScenario *scenario);
gboolean  hr_scenario_name_is_generated  (const HrScenario *scenario);
void      hr_scenario_set_generated_name (HrScenario       *scenario);
char     *hr_gpu_short_name              (const char       *name);

G_END_DECLS
