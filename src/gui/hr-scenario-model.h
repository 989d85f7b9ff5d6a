/* hr-scenario-model.h: the scenario as a GObject the form binds to
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_SCENARIO_MODEL (hr_scenario_model_get_type ())

G_DECLARE_FINAL_TYPE (HrScenarioModel, hr_scenario_model, HR, SCENARIO_MODEL, GObject)

HrScenarioModel  *hr_scenario_model_new            (void);
const HrScenario *hr_scenario_model_get_scenario   (HrScenarioModel  *self);
void              hr_scenario_model_set_scenario   (HrScenarioModel  *self,
                                                    const HrScenario *scenario);
const char       *hr_scenario_model_property_for_path (const char    *path);
const char       *hr_scenario_model_path_for_property (const char    *property);

G_END_DECLS
