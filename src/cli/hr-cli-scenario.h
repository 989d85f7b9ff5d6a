/* hr-cli-scenario.h: the scenario headroom-cli plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-cli-options.h"
#include "hr-presets.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

int hr_cli_build_scenario (const HrCliOptions  *o,
                           HrPresets           *presets,
                           HrScenario          *scenario,
                           char               **origin);

G_END_DECLS
