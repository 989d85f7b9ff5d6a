/* hr-calc.h: scenario in, per-GPU memory plan out
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-plan.h"

G_BEGIN_DECLS

/* Plans a scenario: validates it, then fills plan.  Pure: no I/O, no
 * globals; allocates only when the plan needs more device entries than it
 * had.  Returns FALSE with an error naming the field when the scenario is
 * invalid or its plan is beyond what can be represented. */
gboolean hr_calc_plan                   (const HrScenario  *scenario,
                                         HrPlan            *plan,
                                         GError           **error);

/* Bytes of optimizer state per trainable parameter (not for Adafactor,
 * whose states depend on the shapes). */
double   hr_optimizer_state_bytes       (HrOptimizer        optimizer,
                                         HrDtype            state_dtype);

/* NCCL's buffers when the scenario leaves overhead.comm_buffer_mib unset. */
double   hr_comm_buffer_auto_mib        (const HrScenario  *scenario);

/* One multiplying thread's BLAS workspace, gpu.blas_workspace_mib or
 * cuBLAS's default for the compute capability. */
double   hr_blas_workspace_mib          (const HrGpu       *gpu);

G_END_DECLS
