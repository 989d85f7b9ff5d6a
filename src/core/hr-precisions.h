/* hr-precisions.h: what each precision recipe keeps in which type, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The scenario reads a recipe's data types from its row, never from a
 * switch on its id: a new recipe is its enum value (hr-enums.h) and its
 * row (hr-precisions.c).
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;      /* in scenario files: "bf16-mixed" */
  const char *label;     /* N_(): in the window */
  HrDtypes    dtypes;    /* weights, gradients, master copy, optimizer states, activations */
  const char *source;    /* who trains so */
} HrPrecisionInfo;

extern const HrPrecisionInfo hr_precisions[HR_N_PRECISIONS];

G_END_DECLS
