/* hr-calc-stage.c: what one pipeline stage holds
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stage's layers by kind (DeepSeek's dense first layers, a hybrid's
 * attention, SSM and MoE layers, Llama 3.2 Vision's cross-attention
 * layers) and the parameters one of its GPUs holds, split by tensor and
 * expert parallelism into those ZeRO shards over the data-parallel ranks
 * and the experts' over their own; hr-calc-states.c turns them into bytes.
 */

#include "hr-calc-private.h"

#include <string.h>

/* How many of DeepSeek's dense first layers (model.dense_layers, the
 * model's first ones) a stage holds: those of its chunks (one, or vpp
 * interleaved ones, or parallel.stage_layers' entries) that fall below
 * dense_layers. */
guint64
hr_calc_dense_first_on_stage (const HrScenario *sc,
                              guint64           stage,
                              guint64           first_layer,
                              guint64           n_layers)
{
  const HrParallel *p = &sc->parallel;
  guint64 dense = sc->model.experts > 1 ? sc->model.dense_layers : 0;
  guint64 n = 0, start = 0;

  if (dense == 0)
    return 0;
  if (p->n_stage_layers > 0)
    {
      for (guint64 v = 0; v < p->n_stage_layers; v++)
        {
          guint64 end = start + p->stage_layers[v];

          if (v % p->pp == stage && start < dense)
            n += MIN (end, dense) - start;
          start = end;
        }
      return n;
    }
  if (p->vpp > 1)
    {
      /* validation: pp·vpp divides the layers; chunk j is on stage j mod pp */
      guint64 chunk = sc->model.layers / (p->pp * p->vpp);

      for (guint64 j = stage; j < p->pp * p->vpp; j += p->pp)
        if (j * chunk < dense)
          n += MIN ((j + 1) * chunk, dense) - j * chunk;
      return n;
    }
  return first_layer < dense ? MIN (first_layer + n_layers, dense) - first_layer : 0;
}

/* The kinds of a hybrid's layers on a stage (model.attn_layer_period,
 * expert_layer_period): its chunks as hr_calc_dense_first_on_stage walks
 * them, and the kinds of its first and last layers, where its backward
 * pass ends and starts. */
static void
count_kinds (const HrModelArch *m,
             guint64            start,
             guint64            len,
             HrStageKinds      *out,
             gboolean          *seen)
{
  for (guint64 i = start; i < start + len; i++)
    {
      guint a = hr_model_layer_mixer (m, i), x = hr_model_layer_mlp (m, i);

      out->count[a][x]++;
      if (!*seen)
        {
          out->first_mixer = a;
          out->first_mlp = x;
          *seen = TRUE;
        }
      out->last_mixer = a;
      out->last_mlp = x;
    }
}

void
hr_calc_stage_kinds (const HrScenario *sc,
                     const HrDevice   *dev,
                     HrStageKinds     *out)
{
  const HrParallel *p = &sc->parallel;
  const HrModelArch *m = &sc->model;
  gboolean seen = FALSE;

  memset (out, 0, sizeof *out);
  if (p->n_stage_layers > 0)
    {
      guint64 start = 0;

      for (guint64 v = 0; v < p->n_stage_layers; v++)
        {
          if (v % p->pp == dev->stage)
            count_kinds (m, start, p->stage_layers[v], out, &seen);
          start += p->stage_layers[v];
        }
    }
  else if (p->vpp > 1)
    {
      /* validation: pp·vpp divides the layers; chunk j is on stage j mod pp */
      guint64 chunk = m->layers / (p->pp * p->vpp);

      for (guint64 j = dev->stage; j < p->pp * p->vpp; j += p->pp)
        count_kinds (m, j * chunk, chunk, out, &seen);
    }
  else
    count_kinds (m, dev->first_layer, dev->n_layers, out, &seen);
  /* A pattern's prediction modules' blocks, after the layers of the
   * stage that holds the last (Megatron-Core builds them in the
   * post-process stage: gpt_model.py, mtp_process) */
  if (m->layer_pattern[0] != '\0' && hr_calc_holds_last (sc, dev->stage))
    count_kinds (m, m->layers, hr_model_mtp_blocks (m), out, &seen);
}

/* A stage of alike layers: L of them, L_D of DeepSeek's dense first
 * layers, L_MTP multi-token-prediction modules and L_DEC decoder layers
 * of an encoder-decoder model, each of its kind's counts. */
static void
uniform_layers (const Ctx      *ctx,
                const HrDevice *dev,
                double          L,
                double          L_d,
                double          L_mtp,
                double          L_dec,
                gboolean        last,
                StageParams    *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrParamCounts *c = &ctx->counts;

  sp->dense = L * (double) c->layer_dense + L_dec * (double) c->decoder_extra
              + L_d * (double) c->dense_first + L_mtp * (double) c->mtp_extra;
  sp->experts = L * (double) c->layer_experts;
  sp->layer = (double) (c->layer_dense + c->layer_experts)
              + (L_dec > 0 ? (double) c->decoder_extra : 0.0);
  if (L_d > 0)
    sp->layer = L < 1 ? (double) c->dense_first : MAX (sp->layer, (double) c->dense_first);
  sp->linear = L * (double) c->layer_linear + L_dec * (double) c->decoder_extra_linear
               + L_d * (double) c->dense_first_linear + L_mtp * (double) c->mtp_extra_linear;
  /* What is not a linear weight in a layer: its norms, biases, QK norms. */
  sp->small = L * (double) (c->layer_dense + c->layer_experts - c->layer_linear)
              + L_dec * (double) (c->decoder_extra - c->decoder_extra_linear)
              + L_d * (double) (c->dense_first - c->dense_first_linear)
              + L_mtp * (double) (c->mtp_extra - c->mtp_extra_linear)
              + (last ? (double) c->final_norm : 0.0);
  sp->lora = L * (double) c->layer_lora + L_d * (double) c->dense_first_lora;
  sp->shared_blocks = 0;
  sp->shared = L * (double) c->layer_shared;
  /* An encoder-decoder model's stage holds both stacks whole (validation
   * keeps one stage): the encoder's layers, and the decoder's with their
   * cross-attention. */
  sp->encoder = sp->decoder = 0;
  if (L_dec > 0 && dev->n_layers == sc->model.layers + sc->model.decoder_layers)
    {
      sp->encoder = (double) sc->model.layers * (double) c->layer_dense;
      sp->decoder = L_dec * (double) (c->layer_dense + c->decoder_extra);
    }
  sp->adafactor = L * (double) c->layer_adafactor + L_dec * (double) c->decoder_extra_adafactor
                  + L_d * (double) c->dense_first_adafactor
                  + L_mtp * (double) (c->mtp_extra - c->mtp_extra_linear + 3 * sc->model.hidden);
}

/* A hybrid's stage: its own layers' kinds, each of its kind's counts, and
 * Zamba2's shared blocks on the one stage (hr-validate-shared.c) that
 * holds the S blocks using them. */
static void
hybrid_layers (const Ctx      *ctx,
               const HrDevice *dev,
               gboolean        last,
               StageParams    *sp)
{
  const HrParamCounts *c = &ctx->counts;
  HrStageKinds k;
  gboolean shared = FALSE;

  hr_calc_stage_kinds (ctx->sc, dev, &k);
  sp->dense = sp->experts = sp->linear = sp->adafactor = sp->lora = 0;
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
      {
        double n = (double) k.count[a][x];

        sp->dense += n * (double) c->kind_dense[a][x];
        sp->experts += n * (double) c->kind_experts[a][x];
        sp->linear += n * (double) c->kind_linear[a][x];
        sp->adafactor += n * (double) c->kind_adafactor[a][x];
        sp->lora += n * (double) c->kind_lora[a][x];
      }
  shared = k.count[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE] > 0;
  if (shared)
    {
      sp->dense += (double) c->shared_blocks;
      sp->linear += (double) c->shared_blocks_linear;
      sp->adafactor += (double) c->shared_blocks_adafactor;
      sp->lora += (double) c->shared_blocks_lora;
    }
  /* a pattern's prediction modules' norms and eh_proj, on the last stage */
  if (last && ctx->sc->model.layer_pattern[0] != '\0')
    {
      double n_mtp = (double) ctx->sc->model.mtp_modules;

      sp->dense += n_mtp * (double) c->mtp_extra;
      sp->linear += n_mtp * (double) c->mtp_extra_linear;
      sp->adafactor += n_mtp * (double) (c->mtp_extra - c->mtp_extra_linear + 3 * ctx->sc->model.hidden);
    }
  sp->small = sp->dense + sp->experts - sp->linear + (last ? (double) c->final_norm : 0.0);
  /* the shared MLP beside the experts (Nemotron-H's, Granite 4.0-H's) in
   * each of the stage's expert layers */
  sp->shared = 0;
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    sp->shared += (double) k.count[a][HR_LAYER_MLP_EXPERTS] * (double) c->layer_shared;
  sp->encoder = sp->decoder = 0;
  sp->shared_blocks = shared ? (double) c->shared_blocks : 0.0;
}

/* What sits outside the layers: the embeddings on the first stage (and a
 * vision-language model's tower and projector, Whisper's frozen encoder
 * positions: validation keeps one stage and tp 1 with them), the head and
 * the final norm on the last. */
static void
outside_layers (const Ctx   *ctx,
                gboolean     first,
                gboolean     last,
                StageParams *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrParamCounts *c = &ctx->counts;

  sp->outside = 0;
  sp->frozen = 0;
  if (first)
    {
      sp->outside += (double) (c->embedding + c->vision + c->projector);
      sp->frozen = (double) c->frozen;
      sp->lora += (double) c->embedding_lora;
    }
  if (last)
    {
      sp->outside += (double) (c->head + c->final_norm);
      sp->lora += (double) c->head_lora;
      if (sc->training.quant_lm_head)
        sp->linear += (double) c->head_linear;
      /* Megatron keeps a copy of tied embeddings on the last stage. */
      if (sc->model.tied_embeddings && !first && sc->model.head == HR_HEAD_LM)
        sp->outside += (double) (sc->model.vocab * sc->model.hidden / MAX (sc->parallel.tp, 1));
    }
  if (first || last)
    sp->adafactor += (double) c->outside_adafactor / (first && last ? 1.0 : 2.0);
  sp->dense += sp->outside;
}

void
hr_calc_stage_params (const Ctx      *ctx,
                      const HrDevice *dev,
                      StageParams    *sp)
{
  const HrScenario *sc = ctx->sc;
  const HrParamCounts *c = &ctx->counts;
  guint64 stage = dev->stage;
  gboolean first = stage == 0;
  gboolean last = stage + 1 == sc->parallel.pp;
  /* DeepSeek: the stage's dense first layers replace MoE layers; the last
   * stage holds the multi-token-prediction modules, each one more MoE
   * layer and its extras (Megatron's MTP is built in the post-process
   * stage: gpt_model.py, GPTModel, mtp_process). */
  double L_d = (double) hr_calc_dense_first_on_stage (sc, stage, dev->first_layer, dev->n_layers);
  double L_mtp = last ? (double) sc->model.mtp_modules : 0.0;
  double L = (double) dev->n_layers - L_d + L_mtp;
  /* An encoder-decoder model's decoder layers (all on this one stage)
   * each add a cross-attention; the largest layer is one of them. */
  double L_dec = sc->model.kind == HR_KIND_ENCODER_DECODER ? (double) sc->model.decoder_layers : 0.0;

  uniform_layers (ctx, dev, L, L_d, L_mtp, L_dec, last, sp);
  /* A hybrid's layers differ: the stage holds its own layers' kinds. */
  if (c->mixed)
    hybrid_layers (ctx, dev, last, sp);
  /* Llama 3.2 Vision: the stage's gated cross-attention layers are its
   * self-attention layers' shape and their extras (q_norm, k_norm and two
   * gates: no linear weight, hr-params.c); the largest layer is one. */
  if (c->cross_extra > 0)
    {
      double L_x = (double) hr_model_cross_layers (&sc->model, dev->first_layer, dev->n_layers);

      sp->dense += L_x * (double) c->cross_extra;
      sp->small += L_x * (double) c->cross_extra;
      sp->adafactor += L_x * (double) c->cross_extra;
      if (L_x > 0)
        sp->layer += (double) c->cross_extra;
    }
  /* The hidden layers' weight matrices, before the LM head joins the
   * quantizable linears below: Muon's split (KellerJordan/Muon muon.py,
   * "hidden_matrix_params"; embeddings and head go to AdamW). */
  sp->matrices = sp->linear;
  /* (GaLore is planned without SSM layers or a pattern: hr-validate.c) */
  sp->galore_states = L * ctx->galore_states + L_dec * ctx->galore_cross_states
                      + L_d * ctx->galore_dense_states;
  sp->galore_projection = L * ctx->galore_projection + L_dec * ctx->galore_cross_projection
                          + L_d * ctx->galore_dense_projection;
  sp->head_weight = last && sc->model.head == HR_HEAD_LM
                    ? (double) (sc->model.vocab * sc->model.hidden / MAX (sc->parallel.tp, 1)) : 0.0;
  outside_layers (ctx, first, last, sp);
}

double
hr_calc_sharded (const Ctx         *ctx,
                 const StageParams *sp,
                 gboolean           on)
{
  if (!on)
    return sp->dense + sp->experts;
  return sp->dense / ctx->shard + sp->experts / ctx->shard_expert;
}
