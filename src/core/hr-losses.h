/* hr-losses.h: what each cross-entropy implementation makes, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan and the checks read a loss kind's behaviour from its row; its
 * items stay in hr-calc-loss.c, chosen by these flags.  A new kind is its
 * enum value (hr-enums.h), its row (hr-losses.c) and, where it keeps
 * something new, its items.
 */

#pragma once

#include "hr-enums.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;          /* in scenario files: "chunked" */
  const char *label;         /* N_(): in the window */
  gboolean    logits;        /* the logits exist at all (not a fused linear + loss) */
  gboolean    chunked;       /* the head and the loss run a chunk of tokens at a time */
  gboolean    own_softmax;   /* makes its own fp32 copy and softmax (logits_fp32 is moot) */
  gboolean    compiled_copy; /* its in-place steps compile into a fresh buffer, copied back */
  gboolean    sharded_vocab; /* PyTorch's loss_parallel: DTensor's backward over tp shards */
  const char *source;
} HrLossInfo;

extern const HrLossInfo hr_losses[HR_N_LOSSES];

G_END_DECLS
