/* hr-params-private.h: the shape of one layer, shared by the counts
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr-params.c counts every parameter and hr-params-galore.c counts GaLore's
 * projected states; both read a layer's dimensions the same way.
 */

#pragma once

#include "hr-params.h"

/* h hidden, a heads, k KV heads, d head dim, f the dense MLP's width, ef an
 * expert's, E experts (1 when dense), K active experts, V the vocabulary. */
typedef struct
{
  guint64 h, a, k, d, f, ef, E, K, V;
  guint64 norm;                 /* elements of one norm: h or 2h */
  gboolean gated;
} Shape;

static inline void
shape_from_model (const HrModelArch *m,
                  Shape             *s)
{
  s->h = m->hidden;
  s->a = m->heads;
  s->k = m->kv_heads;
  s->d = hr_model_head_dim (m);
  s->f = m->ffn;
  s->ef = hr_model_expert_ffn (m);
  s->E = MAX (m->experts, 1);
  s->K = MAX (m->experts_active, 1);
  s->V = m->vocab;
  s->norm = m->norm == HR_NORM_LAYERNORM ? 2 * m->hidden : m->hidden;
  s->gated = hr_model_gated (m);
}
