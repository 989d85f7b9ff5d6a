/* hr-params-kinds.c: the parameters of a model whose layers differ
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A state-space model (Mamba, Mamba-2) or a hybrid (Jamba: attention or a
 * Mamba mixer, experts or a dense MLP, by layer) counted kind by kind:
 * each kind's parameters, linear weights, Adafactor size and adapters,
 * the stack's sums, and the largest kind standing for "one layer".
 */

#include "hr-params-private.h"

/* A state-space model's layers, or a model whose layers differ: counted
 * type by type (attention or SSM mixer, experts or dense MLP), with the
 * largest layer standing for "one layer" and the stack's sums beside it.
 * With 16-bit MIXERS (QLoRA) the Mamba mixers' linears are no linears
 * to quantize: they count among the other weights. */
void
hr_params_count_kinds (const HrModelArch *m,
                       const Shape       *s,
                       guint64            t,
                       guint64            e,
                       guint64            outside,
                       guint              lora_targets,
                       guint64            lora_rank,
                       guint64            lora_attn,
                       guint64            lora_outside,
                       gboolean           mixers_16bit,
                       HrParamCounts     *out)
{
  HrSsmMixerParams ssm = { 0 };
  guint64 lora_ssm = 0;
  guint64 attn_linear, attn = attention_params (m, s, t, &attn_linear);
  guint64 attn_whole = attention_params (m, s, 1, NULL);
  guint64 attn_ada = ((s->h + s->a * s->d) * 2 + (s->h + s->k * s->d) * 2) / t + (attn - attn_linear);
  guint64 experts_here = (s->E + e - 1) / e;
  guint64 n_mat = s->gated ? 3 : 2;
  guint64 count[2][2] = { { 0, 0 }, { 0, 0 } };   /* [attends][experts] */
  guint64 best = 0;

  if (m->ssm != HR_SSM_NONE)
    hr_params_ssm_mixer (m, &ssm);
  /* LoRA in a Mamba block (hr-validate-ssm.c: the linears the model calls
   * as modules): r·(d_in + d_out) each, in_proj h -> its width, Jamba's
   * x_proj d_inner -> R + 2N and out_proj d_inner -> h. */
  if (lora_targets & HR_LORA_IN_PROJ)
    lora_ssm += lora_rank * (s->h + ssm.in_proj);
  if (lora_targets & HR_LORA_X_PROJ)
    lora_ssm += lora_rank * (hr_model_ssm_inner (m) + hr_model_ssm_dt_rank (m) + 2 * hr_model_ssm_state (m));
  if (lora_targets & HR_LORA_OUT_PROJ)
    lora_ssm += lora_rank * (hr_model_ssm_inner (m) + s->h);
  /* Megatron's MambaMixer (megatron/core/ssm/mamba_mixer.py,
   * MambaMixer.__init__) splits a Mamba-2 block by heads and groups over
   * the tensor-parallel ranks (nheads_local_tp, ngroups_local_tp,
   * d_inner_local_tp; in_proj column-parallel, out_proj row-parallel):
   * every tensor of the block is a t-th (hr-validate.c: t divides the
   * heads and the groups). */
  guint64 ssm_rank = ssm.total / t, ssm_linear = ssm.linear / t, ssm_ada = ssm.adafactor / t;
  guint64 ssm_quantized = mixers_16bit ? 0 : ssm_linear;

  for (guint64 i = 0; i < m->layers; i++)
    count[hr_model_layer_attends (m, i)][hr_model_layer_has_experts (m, i)]++;

  out->total = outside;
  out->active = outside;
  out->stack_dense = out->stack_experts = out->stack_linear = out->stack_adafactor = 0;
  out->layer_lora = 0;
  out->lora_total = lora_outside;   /* the head's and the token table's */
  out->attention_layers = count[1][0] + count[1][1];
  out->expert_layers = count[0][1] + count[1][1];
  out->largest_linear = mixers_16bit ? 0 : ssm.largest / t;
  for (guint a = 0; a < 2; a++)
    for (guint x = 0; x < 2; x++)
      {
        guint64 n = count[a][x];
        gboolean mlp = x || m->ffn > 0;
        guint64 norms = (m->ssm != HR_SSM_NONE ? (mlp ? 2 : 1) : hr_model_norms_per_layer (m))
                        * s->norm;
        guint64 mixer = a ? attn : ssm_rank;
        guint64 dense, experts, linear, ada, whole, active, lora;

        if (n == 0)
          continue;
        if (x)
          {
            dense = mixer + norms + s->h * s->E;
            experts = experts_here * mlp_params (m, s, s->ef, t);
            linear = (a ? attn_linear : ssm_quantized) + s->h * s->E
                     + experts_here * n_mat * s->h * s->ef / t;
            ada = (a ? attn_ada : ssm_ada) + norms + (s->h + s->E)
                  + experts_here * mlp_adafactor (s, s->ef) / t;
            whole = (a ? attn_whole : ssm.total) + norms + layer_mlp_params (m, s, s->E);
            active = (a ? attn_whole : ssm.total) + norms + layer_mlp_params (m, s, s->K);
            out->largest_linear = MAX (out->largest_linear, s->h * s->ef / t);
          }
        else
          {
            guint64 mlp_p = m->ffn > 0 ? mlp_params (m, s, s->f, t) : 0;

            dense = mixer + norms + mlp_p;
            experts = 0;
            linear = (a ? attn_linear : ssm_quantized) + (m->ffn > 0 ? n_mat * s->h * s->f / t : 0);
            ada = (a ? attn_ada : ssm_ada) + norms
                  + (m->ffn > 0 ? mlp_adafactor (s, s->f) / t : 0);
            whole = (a ? attn_whole : ssm.total) + norms
                    + (m->ffn > 0 ? mlp_params (m, s, s->f, 1) : 0);
            active = whole;
            out->largest_linear = MAX (out->largest_linear, s->h * s->f / t);
          }
        /* Adapters: the mixer's (attention's or the Mamba block's), then
         * every expert's or the dense MLP's (t is 1 with LoRA here). */
        lora = (a ? lora_attn : lora_ssm)
               + (x ? s->E * lora_mlp (s, lora_targets, lora_rank, s->ef)
                  : m->ffn > 0 ? lora_mlp (s, lora_targets, lora_rank, s->f) : 0);
        if (a)
          out->largest_linear = MAX (out->largest_linear, s->h * s->a * s->d / t);
        out->total += n * whole;
        out->kind_lora[a][x] = lora;
        out->lora_total += n * lora;
        out->layer_lora = MAX (out->layer_lora, lora);
        out->active += n * active;
        out->kind_dense[a][x] = dense;
        out->kind_experts[a][x] = experts;
        out->kind_linear[a][x] = linear;
        out->kind_adafactor[a][x] = ada;
        out->stack_dense += n * dense;
        out->stack_experts += n * experts;
        out->stack_linear += n * linear;
        out->stack_adafactor += n * ada;
        if (dense + experts > best)
          {
            best = dense + experts;
            out->layer_dense = dense;
            out->layer_experts = experts;
            out->layer_linear = linear;
            out->layer_adafactor = ada;
          }
      }
  out->mixed = hr_model_mixed_layers (m);
}
