/* hr-quants.h: what each 4- or 8-bit format stores a frozen weight in, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * QLoRA's frozen linears are read from their format's row, never from a
 * switch on its id: a new format is its enum value (hr-enums.h) and its
 * row (hr-quants.c).
 */

#pragma once

#include "hr-enums.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;            /* in scenario files: "nf4-dq" */
  const char *label;           /* N_(): in the window */
  double      bytes_per_param; /* the packed weight and its share of the constants */
  const char *source;
} HrQuantInfo;

extern const HrQuantInfo hr_quants[HR_N_QUANTS];

G_END_DECLS
