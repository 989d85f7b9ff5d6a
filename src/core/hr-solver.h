/* hr-solver.h: the largest micro-batch or sequence, the fewest GPUs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-plan.h"

G_BEGIN_DECLS

typedef enum
{
  HR_SOLVE_MAX_MICRO_BATCH,
  HR_SOLVE_MAX_SEQ_LEN,
  HR_SOLVE_MIN_GPUS,
  HR_N_SOLVES
} HrSolve;

extern const HrEnumNames hr_solve_names;

/* Finds the answer that still leaves the wanted headroom on every GPU.
 * Returns FALSE with an error when the scenario is invalid; *out_value is
 * 0 when no value fits.  work is a plan the search may reuse. */
gboolean hr_solve (const HrScenario  *scenario,
                   HrSolve            solve,
                   HrPlan            *work,
                   guint64           *out_value,
                   GError           **error);

G_END_DECLS
