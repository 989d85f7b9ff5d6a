/* hr-attentions.h: what each attention implementation keeps, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The activations and the checks read an attention kind's behaviour from
 * its row, never from a comparison with its id: a new kind is its enum
 * value (hr-enums.h) and its row (hr-attentions.c).
 */

#pragma once

#include "hr-enums.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;       /* in scenario files: "flash" */
  const char *label;      /* N_(): in the window */
  gboolean    scores;     /* makes the s × s scores and saves them (softmax, probs · V) */
  gboolean    repeats_kv; /* K and V reach it repeated to every query head */
  gboolean    kv_views;   /* a single K/V head's expansion stays a view (no copy) */
  gboolean    pads_v;     /* pads V to Q and K's width where it is narrower */
  const char *source;
} HrAttentionInfo;

extern const HrAttentionInfo hr_attentions[HR_N_ATTENTIONS];

G_END_DECLS
