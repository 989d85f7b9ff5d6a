/* hr-optimizers.h: what each optimizer keeps, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calculation, the suggestions and the window read an optimizer's
 * memory from its row, never from a switch on its id: a new optimizer is
 * its enum value (hr-enums.h) and its row (hr-optimizers.c).
 */

#pragma once

#include "hr-enums.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;          /* in scenario files: "adamw" */
  const char *label;         /* N_(): in the window */
  guint       states;        /* state tensors per trainable parameter */
  double      fixed_bytes;   /* > 0: bytes per state element, whatever training.dtypes.optimizer */
  gboolean    quantized;     /* block-quantized states: no one data type to show */
  gboolean    paged;         /* states in CUDA managed memory, paged to the host */
  gboolean    factored;      /* Adafactor: row and column statistics, not one per element */
  gboolean    step_scratch;  /* its step makes temporaries (PyTorch's foreach / loop paths) */
  /* Muon: the hidden layers' 2-D weight matrices keep matrix_states each,
   * every other parameter (embeddings, head, norms, biases) `states`. */
  gboolean    by_shape;
  guint       matrix_states;
  gboolean    newton_schulz; /* its step orthogonalises each matrix's update in bf16 */
  /* GaLore: the hidden matrices' states are kept for their gradients
   * projected to training.galore_rank, with a projection matrix each. */
  gboolean    projected;
  int         smaller;       /* the optimizer a suggestion may switch to, -1 for none */
  const char *source;        /* where these numbers come from */
} HrOptimizerInfo;

extern const HrOptimizerInfo hr_optimizers[HR_N_OPTIMIZERS];

const HrOptimizerInfo *hr_optimizer_info (HrOptimizer optimizer);

G_END_DECLS
