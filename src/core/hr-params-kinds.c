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

#include <string.h>

/* Zamba2's shared transformer block (modeling_zamba2.py,
 * Zamba2AttentionDecoderLayer): input_layernorm over the hidden state
 * joined to the embeddings (2h), Q from 2h to a·d, K and V from 2h to k·d,
 * O from a·d back to h, pre_ff_layernorm (h) and the MLP; no biases
 * (add_bias_linear false, validated).  Its parameters, its linear weights
 * and its Adafactor size, once per shared block; and LoRA's adapters on
 * its linears, r·(d_in + d_out) each, once per block too (PEFT wraps a
 * module once, hr-validate-shared.c): Zamba2MLP's gate and up are one
 * linear, gate_up_proj, h -> 2f, with one adapter. */
static void
shared_block_params (const HrModelArch *m,
                     const Shape       *s,
                     guint              lora_targets,
                     guint64            r,
                     HrParamCounts     *out)
{
  guint64 two_h = 2 * s->h, norms = two_h + s->h;
  guint64 qkv = two_h * (s->a + 2 * s->k) * s->d, o = s->a * s->d * s->h;
  guint64 n_mat = s->gated ? 3 : 2;
  guint64 linear = qkv + o + n_mat * s->h * s->f;
  guint64 blocks = m->shared_blocks;
  guint64 lora = 0;

  out->shared_blocks = blocks * (norms + linear);
  out->shared_blocks_linear = blocks * linear;
  out->shared_blocks_adafactor = blocks * (norms + 3 * two_h + (s->a + 2 * s->k) * s->d
                                           + s->a * s->d + s->h + mlp_adafactor (s, s->f));
  if (lora_targets & HR_LORA_Q)
    lora += r * (two_h + s->a * s->d);
  if (lora_targets & HR_LORA_K)
    lora += r * (two_h + s->k * s->d);
  if (lora_targets & HR_LORA_V)
    lora += r * (two_h + s->k * s->d);
  if (lora_targets & HR_LORA_O)
    lora += r * (s->a * s->d + s->h);
  if (lora_targets & (HR_LORA_GATE | HR_LORA_UP))
    lora += r * (s->h + (s->gated ? 2 : 1) * s->f);
  if (lora_targets & HR_LORA_DOWN)
    lora += r * (s->f + s->h);
  out->shared_blocks_lora = blocks * lora;
}

/* What each use of a shared block has of its own
 * (Zamba2HybridLayer.linear, h x h, and the adapters of
 * Zamba2AttentionDecoderLayer's lists: gate_up_proj_adapter_list, h -> r
 * -> gate and up, and with use_shared_attention_adapter
 * linear_q/k/v_adapter_list, 2h -> r -> Q's, K's, V's width): its
 * parameters, linear weights (every one a linear), Adafactor size. */
static void
shared_use_params (const HrModelArch *m,
                   const Shape       *s,
                   guint64           *params,
                   guint64           *adafactor)
{
  guint64 r = m->shared_adapter_rank, two_h = 2 * s->h;
  guint64 gate_up = (s->gated ? 2 : 1) * s->f;

  *params = s->h * s->h;
  *adafactor = 2 * s->h;
  if (r > 0)
    {
      *params += r * (s->h + gate_up);
      *adafactor += s->h + 2 * r + gate_up;
    }
  if (r > 0 && m->shared_attention_adapters)
    {
      *params += r * (3 * two_h + (s->a + 2 * s->k) * s->d);
      *adafactor += 3 * two_h + 6 * r + (s->a + 2 * s->k) * s->d;
    }
}

/* One layer's mixer on a rank, by kind: its parameters, its linears (none
 * quantizable for 16-bit Mamba mixers), its Adafactor size, its whole
 * count and its adapters. */
typedef struct
{
  guint64 params, linear, ada, whole, lora;
} MixerCounts;

/* One layer of a kind on a rank: its dense and expert parameters, its
 * linears, Adafactor size, whole and active counts. */
typedef struct
{
  guint64 dense, experts, linear, ada, whole, active;
} KindCounts;

/* Attention's and the Mamba block's counts (the other mixers have
 * none), and the Mamba block's largest matrix. */
static guint64
mixer_counts (const HrModelArch *m,
              const Shape       *s,
              guint64            t,
              guint              lora_targets,
              guint64            lora_rank,
              guint64            lora_attn,
              gboolean           mixers_16bit,
              MixerCounts        mixers[HR_N_LAYER_MIXERS])
{
  HrSsmMixerParams ssm = { 0 };
  MixerCounts *attn = &mixers[HR_LAYER_MIXER_ATTENTION], *mamba = &mixers[HR_LAYER_MIXER_SSM];

  memset (mixers, 0, HR_N_LAYER_MIXERS * sizeof mixers[0]);
  attn->params = attention_params (m, s, t, &attn->linear);
  attn->whole = attention_params (m, s, 1, NULL);
  attn->ada = ((s->h + s->a * s->d) * 2 + (s->h + s->k * s->d) * 2) / t + (attn->params - attn->linear);
  attn->lora = lora_attn;
  if (m->ssm == HR_SSM_NONE)
    return 0;
  hr_params_ssm_mixer (m, &ssm);
  /* LoRA in a Mamba block (hr-validate-ssm.c: the linears the model calls
   * as modules): r·(d_in + d_out) each, in_proj h -> its width, Jamba's
   * x_proj d_inner -> R + 2N and out_proj d_inner -> h. */
  if (lora_targets & HR_LORA_IN_PROJ)
    mamba->lora += lora_rank * (s->h + ssm.in_proj);
  if (lora_targets & HR_LORA_X_PROJ)
    mamba->lora += lora_rank * (hr_model_ssm_inner (m) + hr_model_ssm_dt_rank (m) + 2 * hr_model_ssm_state (m));
  if (lora_targets & HR_LORA_OUT_PROJ)
    mamba->lora += lora_rank * (hr_model_ssm_inner (m) + s->h);
  /* Megatron's MambaMixer (megatron/core/ssm/mamba_mixer.py,
   * MambaMixer.__init__) splits a Mamba-2 block by heads and groups over
   * the tensor-parallel ranks (nheads_local_tp, ngroups_local_tp,
   * d_inner_local_tp; in_proj column-parallel, out_proj row-parallel):
   * every tensor of the block is a t-th (hr-validate.c: t divides the
   * heads and the groups). */
  mamba->params = ssm.total / t;
  mamba->linear = mixers_16bit ? 0 : ssm.linear / t;
  mamba->ada = ssm.adafactor / t;
  mamba->whole = ssm.total;
  return mixers_16bit ? 0 : ssm.largest / t;
}

/* A layer with experts after MIXER: the router, and a pattern's shared
 * experts, one MLP of shared_experts x expert_ffn every token goes
 * through (Nemotron-H's NemotronHMoE.shared_experts); with a latent
 * (moe_latent_size) its two projections, h x L each, and experts that
 * read and write L (el).  Returns its largest matrix. */
static guint64
expert_kind (const HrModelArch *m,
             const Shape       *s,
             guint64            t,
             guint64            e,
             const MixerCounts *mixer,
             guint64            norms,
             KindCounts        *k)
{
  guint64 experts_here = (s->E + e - 1) / e;
  guint64 n_mat = s->gated ? 3 : 2;
  guint64 shared_width = m->shared_experts * s->ef;
  guint64 L = m->moe_latent_size;

  k->dense = mixer->params + norms + router_params (m, s) + shared_mlp_params (m, s, t)
             + latent_params (m, s);
  k->experts = experts_here * expert_params (m, s, t);
  k->linear = mixer->linear + s->h * s->E + experts_here * n_mat * s->el * s->ef / t
              + n_mat * s->h * shared_width / t + 2 * s->h * L;
  k->ada = mixer->ada + norms + (s->h + s->E) + (m->router_bias ? s->E : 0)
           + experts_here * (n_mat * (s->el + s->ef)) / t
           + (shared_width > 0 ? mlp_adafactor (s, shared_width) / t : 0)
           + (L > 0 ? 2 * (s->h + L) + (latent_params (m, s) - 2 * s->h * L) : 0);
  k->whole = mixer->whole + norms + layer_mlp_params (m, s, s->E);
  k->active = mixer->whole + norms + layer_mlp_params (m, s, s->K);
  return MAX (s->el * s->ef, s->h * MAX (shared_width, L)) / t;
}

/* A layer of MIXER and, with MLP, the dense MLP.  Returns its largest
 * MLP matrix (0 without one). */
static guint64
dense_kind (const HrModelArch *m,
            const Shape       *s,
            guint64            t,
            gboolean           mlp,
            const MixerCounts *mixer,
            guint64            norms,
            KindCounts        *k)
{
  guint64 n_mat = s->gated ? 3 : 2;

  k->dense = mixer->params + norms + (mlp ? mlp_params (m, s, s->f, t) : 0);
  k->experts = 0;
  k->linear = mixer->linear + (mlp ? n_mat * s->h * s->f / t : 0);
  k->ada = mixer->ada + norms + (mlp ? mlp_adafactor (s, s->f) / t : 0);
  k->whole = mixer->whole + norms + (mlp ? mlp_params (m, s, s->f, 1) : 0);
  k->active = k->whole;
  return mlp ? s->h * s->f / t : 0;
}

/* Adds N layers of kind [A][X] with counts K and adapters LORA to OUT's
 * sums, and keeps the largest kind as "one layer" (BEST its size). */
static void
add_kind (HrParamCounts    *out,
          guint             a,
          guint             x,
          guint64           n,
          const KindCounts *k,
          guint64           lora,
          guint64          *best)
{
  out->total += n * k->whole;
  out->kind_lora[a][x] = lora;
  out->lora_total += n * lora;
  out->layer_lora = MAX (out->layer_lora, lora);
  out->active += n * k->active;
  out->kind_dense[a][x] = k->dense;
  out->kind_experts[a][x] = k->experts;
  out->kind_linear[a][x] = k->linear;
  out->kind_adafactor[a][x] = k->ada;
  out->stack_dense += n * k->dense;
  out->stack_experts += n * k->experts;
  out->stack_linear += n * k->linear;
  out->stack_adafactor += n * k->ada;
  if (k->dense + k->experts > *best)
    {
      *best = k->dense + k->experts;
      out->layer_dense = k->dense;
      out->layer_experts = k->experts;
      out->layer_linear = k->linear;
      out->layer_adafactor = k->ada;
    }
}

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
  MixerCounts mixers[HR_N_LAYER_MIXERS];
  guint64 shared_width = m->shared_experts * s->ef;
  guint64 count[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS] = { { 0 } };
  /* a Mamba block's norms, or a pattern's block's: one per module */
  gboolean norm_per_module = m->ssm != HR_SSM_NONE || m->layer_pattern[0] != '\0';
  guint64 best = 0;

  out->largest_linear = mixer_counts (m, s, t, lora_targets, lora_rank, lora_attn, mixers_16bit, mixers);
  /* the layers, then a pattern's prediction modules' blocks (past the
   * layers, hr_model_layer_mixer gives those) */
  guint64 blocks = m->layers + (m->layer_pattern[0] != '\0' ? hr_model_mtp_blocks (m) : 0);

  for (guint64 i = 0; i < blocks; i++)
    count[hr_model_layer_mixer (m, i)][hr_model_layer_mlp (m, i)]++;

  out->shared_blocks = out->shared_blocks_linear = out->shared_blocks_adafactor = 0;
  out->shared_blocks_lora = 0;
  if (count[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE] > 0)
    shared_block_params (m, s, lora_targets, lora_rank, out);
  outside += out->shared_blocks;
  /* ... and each module's enorm, hnorm, final norm and eh_proj
   * (2h -> h), as DeepSeek's (count_layer: mtp_extra) */
  if (m->layer_pattern[0] != '\0')
    outside += m->mtp_modules * (2 * s->h * s->h + 3 * s->norm);
  out->total = outside;
  out->active = outside;
  out->stack_dense = out->stack_experts = out->stack_linear = out->stack_adafactor = 0;
  out->layer_lora = 0;
  /* the head's and the token table's, and the shared blocks' */
  out->lora_total = lora_outside + out->shared_blocks_lora;
  out->attention_layers = out->expert_layers = 0;
  for (guint k = 0; k < HR_N_LAYER_MLPS; k++)
    out->attention_layers += count[HR_LAYER_MIXER_ATTENTION][k];
  for (guint k = 0; k < HR_N_LAYER_MIXERS; k++)
    out->expert_layers += count[k][HR_LAYER_MLP_EXPERTS];
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
      {
        guint64 norms = (norm_per_module ? (guint64) (a != HR_LAYER_MIXER_NONE) + (x != HR_LAYER_MLP_NONE)
                         : hr_model_norms_per_layer (m)) * s->norm;
        KindCounts k;
        guint64 lora;

        if (count[a][x] == 0)
          continue;
        if (a == HR_LAYER_MIXER_SHARED)
          {
            /* (the shared block itself is counted once, above) */
            shared_use_params (m, s, &k.dense, &k.ada);
            k.experts = 0;
            k.linear = k.whole = k.active = k.dense;
          }
        else if (x == HR_LAYER_MLP_EXPERTS)
          out->largest_linear = MAX (out->largest_linear, expert_kind (m, s, t, e, &mixers[a], norms, &k));
        else
          out->largest_linear = MAX (out->largest_linear,
                                     dense_kind (m, s, t, x == HR_LAYER_MLP_DENSE, &mixers[a], norms, &k));
        /* Adapters: the mixer's (attention's or the Mamba block's), then
         * every expert's or the dense MLP's (t is 1 with LoRA here). */
        lora = a == HR_LAYER_MIXER_SHARED ? 0 : mixers[a].lora
               + (x == HR_LAYER_MLP_EXPERTS ? s->E * lora_mlp (s, lora_targets, lora_rank, s->ef)
                                             + (shared_width > 0 ? lora_mlp (s, lora_targets, lora_rank, shared_width) : 0)
                  : x == HR_LAYER_MLP_DENSE ? lora_mlp (s, lora_targets, lora_rank, s->f) : 0);
        if (a == HR_LAYER_MIXER_ATTENTION)
          out->largest_linear = MAX (out->largest_linear, s->h * s->a * s->d / t);
        add_kind (out, a, x, count[a][x], &k, lora, &best);
      }
  /* each expert layer's shared MLP, which the breakdown names apart
   * (hr-calc-parts.c) */
  out->layer_shared = shared_mlp_params (m, s, t);
  out->mixed = hr_model_mixed_layers (m);
}
