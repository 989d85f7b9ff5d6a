/* hr-params-mla.c: the weights of DeepSeek's multi-head latent attention
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DeepSeek-V2 §2.1 (arXiv:2405.04434) and Hugging Face's
 * modeling_deepseek_v3.py, DeepseekV3Attention.__init__: with a query
 * latent (q_lora_rank > 0) q_a_proj h -> q_lora, q_a_layernorm (an RMSNorm
 * of q_lora) and q_b_proj q_lora -> a·(nope + rope); without one (V2-Lite)
 * q_proj h -> a·(nope + rope).  K and V: kv_a_proj_with_mqa h ->
 * kv_lora + rope (the latent and the one rope key every head shares),
 * kv_a_layernorm (kv_lora) and kv_b_proj kv_lora -> a·(nope + v); then
 * o_proj a·v -> h.  No biases (attention_bias false in every DeepSeek
 * config; validation refuses model.bias with MLA).
 *
 * Tensor parallelism as Megatron-LM builds it (megatron/core/models/gpt/
 * gpt_layer_specs.py, MLASelfAttentionSubmodules: linear_q_down_proj and
 * linear_kv_down_proj are TELinear, not split; linear_q_up_proj,
 * linear_kv_up_proj column-parallel, linear_proj row-parallel; the two
 * latent norms replicated): the down projections and the norms are whole on
 * every rank, the rest is split by t over the heads.
 */

#include "hr-params.h"

guint64
hr_params_mla_attention (const HrModelArch *m,
                         guint64            t,
                         guint64           *out_linear,
                         guint64           *out_adafactor)
{
  guint64 h = m->hidden, a = m->heads;
  guint64 qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
  guint64 ql = m->q_lora_rank, kvl = m->kv_lora_rank, rope = m->qk_rope_head_dim;
  guint64 kv_up = a * (m->qk_nope_head_dim + m->v_head_dim);
  guint64 linear, norms, adafactor;

  t = MAX (t, 1);
  if (ql > 0)
    {
      linear = h * ql + ql * a * qk / t;
      norms = ql;
      /* Adafactor: r + c per matrix (Shazeer & Stern 2018), vectors whole. */
      adafactor = (h + ql) + (ql + a * qk / t);
    }
  else
    {
      linear = h * a * qk / t;
      norms = 0;
      adafactor = h + a * qk / t;
    }
  linear += h * (kvl + rope) + kvl * kv_up / t + a * m->v_head_dim * h / t;
  norms += kvl;
  adafactor += (h + kvl + rope) + (kvl + kv_up / t) + (a * m->v_head_dim / t + h) + norms;

  if (out_linear != NULL)
    *out_linear = linear;
  if (out_adafactor != NULL)
    *out_adafactor = adafactor;
  return linear + norms;
}

/* The largest of those matrices on a rank (QLoRA dequantizes one at a time). */
guint64
hr_params_mla_largest (const HrModelArch *m,
                       guint64            t)
{
  guint64 h = m->hidden, a = m->heads;
  guint64 qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
  guint64 largest;

  t = MAX (t, 1);
  largest = m->q_lora_rank > 0 ? MAX (h * m->q_lora_rank, m->q_lora_rank * a * qk / t) : h * a * qk / t;
  largest = MAX (largest, h * (m->kv_lora_rank + m->qk_rope_head_dim));
  largest = MAX (largest, m->kv_lora_rank * a * (m->qk_nope_head_dim + m->v_head_dim) / t);
  return MAX (largest, a * m->v_head_dim * h / t);
}

/* LoRA's adapters on those matrices, r·(d_in + d_out) each, as PEFT adapts
 * Hugging Face's modules by name: q the query's (q_a_proj and q_b_proj,
 * or q_proj), k kv_a_proj_with_mqa (the latent and the rope key), v
 * kv_b_proj (K's no-rope part and V, from the latent), o o_proj.  Whole,
 * on one tensor-parallel rank (validation). */
guint64
hr_params_mla_lora (const HrModelArch *m,
                    guint              targets,
                    guint64            r)
{
  guint64 h = m->hidden, a = m->heads;
  guint64 qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
  guint64 ql = m->q_lora_rank, kvl = m->kv_lora_rank;
  guint64 p = 0;

  if (targets & HR_LORA_Q)
    p += ql > 0 ? r * (h + ql) + r * (ql + a * qk) : r * (h + a * qk);
  if (targets & HR_LORA_K)
    p += r * (h + kvl + m->qk_rope_head_dim);
  if (targets & HR_LORA_V)
    p += r * (kvl + a * (m->qk_nope_head_dim + m->v_head_dim));
  if (targets & HR_LORA_O)
    p += r * (a * m->v_head_dim + h);
  return p;
}
