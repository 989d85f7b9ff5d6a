/* hr-params-private.h: the shape of one layer, shared by the counts
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr-params.c counts every parameter, hr-params-kinds.c those of models
 * whose layers differ, and hr-params-galore.c GaLore's projected states;
 * they read a layer's dimensions, and count its parts, the same way.
 */

#pragma once

#include "hr-params.h"

/* h hidden, a heads, k KV heads, d head dim, f the dense MLP's width, ef an
 * expert's, el what an expert reads and writes (h, or a latent MoE's
 * moe_latent_size), E experts (1 when dense), K active experts, V the
 * vocabulary. */
typedef struct
{
  guint64 h, a, k, d, f, ef, el, E, K, V;
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
  s->el = m->moe_latent_size > 0 ? m->moe_latent_size : m->hidden;
  s->E = MAX (m->experts, 1);
  s->K = MAX (m->experts_active, 1);
  s->V = m->vocab;
  s->norm = m->norm == HR_NORM_LAYERNORM ? 2 * m->hidden : m->hidden;
  s->gated = hr_model_gated (m);
}

/* One expert's (or the dense) MLP: matrices and biases, split by t. */
static inline guint64
mlp_params (const HrModelArch *m,
            const Shape       *s,
            guint64            width,
            guint64            t)
{
  guint64 n_in = s->gated ? 2 : 1;          /* gate + up, or fc1 */
  guint64 p = (n_in + 1) * s->h * width / t;

  if (hr_model_linear_biases (m))
    p += n_in * width / t + s->h;            /* column-split, row-replicated */
  return p;
}

static inline guint64
mlp_adafactor (const Shape *s,
               guint64      width)
{
  guint64 n_in = s->gated ? 2 : 1;

  return (n_in + 1) * (s->h + width);
}

static inline guint64
lora_mlp (const Shape *s,
          guint        targets,
          guint64      r,
          guint64      width)
{
  guint64 p = 0;

  if (s->gated && (targets & HR_LORA_GATE))
    p += r * (s->h + width);
  if (targets & HR_LORA_UP)
    p += r * (s->h + width);
  if (targets & HR_LORA_DOWN)
    p += r * (width + s->h);
  return p;
}

/* One routed expert, split by t: mlp_params's over el, the width it
 * reads and writes (NemotronHExperts: up_proj ef x el, down_proj el x ef
 * under a latent). */
static inline guint64
expert_params (const HrModelArch *m,
               const Shape       *s,
               guint64            t)
{
  guint64 n_in = s->gated ? 2 : 1;
  guint64 p = (n_in + 1) * s->el * s->ef / t;

  if (hr_model_linear_biases (m))
    p += n_in * s->ef / t + s->el;
  return p;
}

/* A latent MoE's two projections (NemotronHMoE: fc1_latent_proj h -> L,
 * fc2_latent_proj L -> h, biased with mlp_bias), 0 without one; tp is 1
 * with them (hr-validate-ssm.c). */
static inline guint64
latent_params (const HrModelArch *m,
               const Shape       *s)
{
  guint64 L = m->moe_latent_size;

  if (L == 0)
    return 0;
  return 2 * s->h * L + (hr_model_linear_biases (m) ? L + s->h : 0);
}

/* An MoE layer's router: E x h, and DeepSeek-V3's per-expert bias. */
static inline guint64
router_params (const HrModelArch *m,
               const Shape       *s)
{
  return s->h * s->E + (m->router_bias ? s->E : 0);
}

/* DeepSeek's shared experts: one MLP of shared_experts x expert_ffn that
 * every token goes through (split by t, not by ep: Megatron's
 * SharedExpertMLP is a tensor-parallel MLP). */
static inline guint64
shared_mlp_params (const HrModelArch *m,
                   const Shape       *s,
                   guint64            t)
{
  return m->shared_experts > 0 ? mlp_params (m, s, m->shared_experts * s->ef, t) : 0;
}

/* One layer's attention on a rank: Q/O split by t, K/V by KV head. */
static inline guint64
attention_params (const HrModelArch *m,
                  const Shape       *s,
                  guint64            t,
                  guint64           *out_linear)
{
  if (hr_model_mla (m))
    return hr_params_mla_attention (m, t, out_linear, NULL);

  guint64 kv_rank = t > 1 ? MAX (s->k / t, 1) : s->k;
  guint64 linear = 2 * s->h * s->a * s->d / t + 2 * s->h * kv_rank * s->d;
  guint64 p = linear;

  if (m->bias != HR_BIAS_NONE)
    p += s->a * s->d / t + (hr_model_key_bias (m) ? 2 : 1) * kv_rank * s->d;
  if (hr_model_linear_biases (m))
    p += s->h;
  if (m->qk_norm == HR_QK_NORM_HEAD)
    p += 2 * s->d;
  else if (m->qk_norm == HR_QK_NORM_FULL)
    p += s->a * s->d / t + kv_rank * s->d;

  if (out_linear != NULL)
    *out_linear = linear;
  return p;
}

/* The MLP of a layer: the dense one, or E experts (top-k of them when
 * counting active parameters) plus the router. */
static inline guint64
layer_mlp_params (const HrModelArch *m,
                  const Shape       *s,
                  guint64            experts)
{
  if (s->E > 1)
    return experts * expert_params (m, s, 1) + router_params (m, s)
           + shared_mlp_params (m, s, 1) + latent_params (m, s);
  return mlp_params (m, s, s->f, 1);
}

/* DeepSeek's first dense layers: attention, norms and the dense MLP. */
static inline guint64
dense_first_layers (const HrModelArch *m,
                    const Shape       *s)
{
  return s->E > 1 ? MIN (m->dense_layers, m->layers) : 0;
}

/* A state-space model's layers, or a model whose layers differ
 * (hr-params-kinds.c). */
void hr_params_count_kinds (const HrModelArch *m,
                            const Shape       *s,
                            guint64            t,
                            guint64            e,
                            guint64            outside,
                            guint              lora_targets,
                            guint64            lora_rank,
                            guint64            lora_attn,
                            guint64            lora_outside,
                            gboolean           mixers_16bit,
                            HrParamCounts     *out);
