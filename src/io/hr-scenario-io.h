/* hr-scenario-io.h: scenario files in and out (CONTRACT.md section 1)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-file-write.h"
#include "hr-presets.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

/* Reads a scenario object on top of the default scenario: presets first,
 * then the object's own keys.  origin ("scenario.json") starts every
 * error message; the message then names the path, the value and what is
 * allowed.  The result is also validated. */
gboolean   hr_scenario_read_node   (HrScenario   *scenario,
                                    JsonNode     *root,
                                    const char   *origin,
                                    HrPresets    *presets,
                                    GError      **error);
gboolean   hr_scenario_read_file   (HrScenario   *scenario,
                                    const char   *path,
                                    HrPresets    *presets,
                                    GError      **error);
gboolean   hr_scenario_load_preset (HrScenario   *scenario,
                                    const char   *id,
                                    HrPresets    *presets,
                                    GError      **error);

/* Applies a model or GPU preset to a scenario, as choosing it in the app
 * does. */
gboolean   hr_scenario_apply_model_preset (HrScenario *scenario,
                                           const char *id,
                                           HrPresets  *presets,
                                           GError    **error);
gboolean   hr_scenario_apply_gpu_preset   (HrScenario *scenario,
                                           const char *id,
                                           HrPresets  *presets,
                                           GError    **error);
gboolean   hr_scenario_apply_model_preset_node (HrScenario *scenario,
                                                JsonNode   *node,
                                                const char *origin,
                                                const char *id,
                                                GError    **error);
gboolean   hr_scenario_apply_gpu_preset_node   (HrScenario *scenario,
                                                JsonNode   *node,
                                                const char *origin,
                                                const char *id,
                                                GError    **error);

/* Sets "a.b.c" in a JSON object to VALUE, read as JSON when it parses as
 * JSON and as a string otherwise (--set training.precision=bf16-true).
 * Setting model.preset or gpu.preset replaces the rest of that object. */
gboolean   hr_json_set_path        (JsonObject   *root,
                                    const char   *assignment,
                                    GError      **error);

/* Sets one field of a read scenario, as --set does to a file (the caller
 * validates the result once all are set). */
gboolean   hr_scenario_set         (HrScenario   *scenario,
                                    const char   *assignment,
                                    HrPresets    *presets,
                                    const char   *origin,
                                    GError      **error);
/* Whether PATH's field applies to the scenario (its table's .applies);
 * TRUE for a field that always does or a path that is no field. */
gboolean   hr_scenario_assignment_applies (const HrScenario *scenario,
                                           const char       *assignment);
/* Whether PATH=VALUE sets an optional field to the value a file leaves
 * out. */
gboolean   hr_scenario_assignment_is_absent (const char *assignment);
/* Whether setting PATH=VALUE (a scalar field) would leave the scenario as
 * it is; FALSE for a path that is not a scalar field or a value it does
 * not accept. */
gboolean   hr_scenario_has_value   (const HrScenario *scenario,
                                    const char       *assignment);

JsonNode  *hr_scenario_to_json     (const HrScenario *scenario);
char      *hr_scenario_to_data     (const HrScenario *scenario,
                                    gsize            *length);

G_END_DECLS
