/* hr-scenario-diff.h: which fields two scenarios set differently
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-scenario-fields.h"

G_BEGIN_DECLS

typedef struct
{
  const Field *field;        /* its row: the label the form shows */
  char         path[64];     /* "training.micro_batch" */
  char         before[48];   /* as a scenario file writes it: "4", "bf16-mixed" */
  char         after[48];
} HrFieldChange;

guint  hr_scenario_diff  (const HrScenario *before,
                          const HrScenario *after,
                          HrFieldChange    *changes,
                          guint             max_changes);

G_END_DECLS
