/* hr-params-kinds.c: the parameters of a model whose layers differ
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A state-space model (Mamba, Mamba-2) or a hybrid (Jamba: attention or a
 * Mamba mixer, experts or a dense MLP, by layer; Nemotron-H: one of the
 * four per block) counted kind by kind:
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
  guint64 shared_width = m->shared_experts * s->ef;
  guint64 count[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS] = { { 0 } };
  /* a Mamba block's norms, or a pattern's block's: one per module */
  gboolean norm_per_module = m->ssm != HR_SSM_NONE || m->layer_pattern[0] != '\0';
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
    count[hr_model_layer_mixer (m, i)][hr_model_layer_mlp (m, i)]++;

  out->total = outside;
  out->active = outside;
  out->stack_dense = out->stack_experts = out->stack_linear = out->stack_adafactor = 0;
  out->layer_lora = 0;
  out->lora_total = lora_outside;   /* the head's and the token table's */
  out->attention_layers = out->expert_layers = 0;
  for (guint k = 0; k < HR_N_LAYER_MLPS; k++)
    out->attention_layers += count[HR_LAYER_MIXER_ATTENTION][k];
  for (guint k = 0; k < HR_N_LAYER_MIXERS; k++)
    out->expert_layers += count[k][HR_LAYER_MLP_EXPERTS];
  out->largest_linear = mixers_16bit ? 0 : ssm.largest / t;
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
      {
        guint64 n = count[a][x];
        gboolean attends = a == HR_LAYER_MIXER_ATTENTION, ssm_mixer = a == HR_LAYER_MIXER_SSM;
        guint64 norms = (norm_per_module ? (guint64) (a != HR_LAYER_MIXER_NONE) + (x != HR_LAYER_MLP_NONE)
                         : hr_model_norms_per_layer (m)) * s->norm;
        /* the mixer's parameters on a rank, its linears, its Adafactor
         * size, its whole count and its adapters */
        guint64 mixer = attends ? attn : ssm_mixer ? ssm_rank : 0;
        guint64 mixer_linear = attends ? attn_linear : ssm_mixer ? ssm_quantized : 0;
        guint64 mixer_ada = attends ? attn_ada : ssm_mixer ? ssm_ada : 0;
        guint64 mixer_whole = attends ? attn_whole : ssm_mixer ? ssm.total : 0;
        guint64 mixer_lora = attends ? lora_attn : ssm_mixer ? lora_ssm : 0;
        guint64 dense, experts, linear, ada, whole, active, lora;

        if (n == 0)
          continue;
        if (x == HR_LAYER_MLP_EXPERTS)
          {
            /* the router, and a pattern's shared experts: one MLP of
             * shared_experts x expert_ffn every token goes through
             * (Nemotron-H's NemotronHMoE.shared_experts) */
            dense = mixer + norms + router_params (m, s) + shared_mlp_params (m, s, t);
            experts = experts_here * mlp_params (m, s, s->ef, t);
            linear = mixer_linear + s->h * s->E + experts_here * n_mat * s->h * s->ef / t
                     + n_mat * s->h * shared_width / t;
            ada = mixer_ada + norms + (s->h + s->E) + (m->router_bias ? s->E : 0)
                  + experts_here * mlp_adafactor (s, s->ef) / t
                  + (shared_width > 0 ? mlp_adafactor (s, shared_width) / t : 0);
            whole = mixer_whole + norms + layer_mlp_params (m, s, s->E);
            active = mixer_whole + norms + layer_mlp_params (m, s, s->K);
            out->largest_linear = MAX (out->largest_linear, s->h * MAX (s->ef, shared_width) / t);
          }
        else
          {
            gboolean mlp = x == HR_LAYER_MLP_DENSE;

            dense = mixer + norms + (mlp ? mlp_params (m, s, s->f, t) : 0);
            experts = 0;
            linear = mixer_linear + (mlp ? n_mat * s->h * s->f / t : 0);
            ada = mixer_ada + norms + (mlp ? mlp_adafactor (s, s->f) / t : 0);
            whole = mixer_whole + norms + (mlp ? mlp_params (m, s, s->f, 1) : 0);
            active = whole;
            if (mlp)
              out->largest_linear = MAX (out->largest_linear, s->h * s->f / t);
          }
        /* Adapters: the mixer's (attention's or the Mamba block's), then
         * every expert's or the dense MLP's (t is 1 with LoRA here). */
        lora = mixer_lora
               + (x == HR_LAYER_MLP_EXPERTS ? s->E * lora_mlp (s, lora_targets, lora_rank, s->ef)
                                             + (shared_width > 0 ? lora_mlp (s, lora_targets, lora_rank, shared_width) : 0)
                  : x == HR_LAYER_MLP_DENSE ? lora_mlp (s, lora_targets, lora_rank, s->f) : 0);
        if (attends)
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
