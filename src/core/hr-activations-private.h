/* hr-activations-private.h: what the activation files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-activations.h"

G_BEGIN_DECLS

/* Lists one saved tensor of the layer (nothing for 0 bytes). */
static inline void
hr_activations_add (HrLayerActivations *out,
                    const char         *name,
                    const char         *formula,
                    double              bytes)
{
  g_assert (out->n < HR_MAX_SAVED);
  if (bytes <= 0)
    return;
  out->saved[out->n++] = (HrSavedTensor) { name, formula, bytes };
  out->total += bytes;
}

/* torch.autocast: fp32 weights computed with in 16 bits. */
static inline gboolean
hr_activations_autocast (const HrTraining *t)
{
  return t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32;
}

/* hr-activations-policy.c: what torch.compile's partitioner and
 * torchtitan's per-op checkpointing keep of a layer. */
void hr_activations_compiled_layer (const HrScenario   *scenario,
                                    HrLayerActivations *out);
void hr_activations_op_policy      (const HrScenario   *scenario,
                                    HrLayerActivations *out);

G_END_DECLS
