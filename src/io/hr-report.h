/* hr-report.h: a plan as JSON, CSV, a table and a sentence
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-format.h"
#include "hr-plan.h"

G_BEGIN_DECLS

JsonNode *hr_report_json     (const HrScenario *scenario,
                              const HrPlan     *plan);
char     *hr_report_json_text (const HrScenario *scenario,
                               const HrPlan     *plan);
char     *hr_report_csv      (const HrPlan     *plan);
char     *hr_report_timeline_csv (const HrDevice *device);
char     *hr_report_table    (const HrScenario *scenario,
                              const HrPlan     *plan,
                              HrUnits           units);

/* "Fits on 8x H100 SXM 80GB with 31.2 GiB (39 %) to spare per GPU" */
char     *hr_plan_summary    (const HrScenario *scenario,
                              const HrPlan     *plan,
                              HrUnits           units);

#include "hr-cost.h"

char     *hr_cost_sentence   (const HrScenario     *scenario,
                              const HrCostEstimate *estimate);

G_END_DECLS
