/* hr-calc-deepseek.c: a DeepSeek model's layers on its device
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan multiplies one layer's saved tensors by the device's layers
 * (hr-calc-activations.c).  A DeepSeek model has two kinds: its first
 * model.dense_layers layers have the dense MLP (DeepseekV3DecoderLayer:
 * layer_idx < first_k_dense_replace), the others the MoE with its shared
 * experts; and the last stage runs the multi-token-prediction modules,
 * each one more MoE layer (DeepSeek-V3 §2.2, Figure 3).  So the layer the
 * plan multiplies stands for the stage's own mix
 * (hr_activations_stack_average), the backward's first moment is the
 * stage's first layer and its recomputation the last one's.
 *
 * What a module has besides its layer (DeepSeek-V3 §2.2: h'_i = M_k
 * [RMSNorm(h_i^{k-1}); RMSNorm(Emb(t_{i+k}))], then the layer, then the
 * shared head): its two norms keep their inputs, eh_proj its 2h-wide
 * input, and its head and loss are a second set of logits
 * (hr-calc-activations.c multiplies those by 1 + mtp_modules).
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* A dense first layer: the same layer with the dense MLP. */
void
hr_calc_deepseek_dense_scenario (const HrScenario *sc,
                                 HrScenario       *out)
{
  *out = *sc;
  out->model.experts = out->model.experts_active = 1;
  out->model.shared_experts = 0;
  out->model.dense_layers = 0;
  out->model.router_bias = FALSE;
}

void
hr_calc_deepseek_layers (Ctx            *ctx,
                         const HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  gboolean last = hr_calc_holds_last (sc, dev->stage);
  guint64 n_dense = hr_calc_dense_first_on_stage (sc, dev->stage, dev->first_layer, dev->n_layers);
  guint64 n_mtp = last ? sc->model.mtp_modules : 0;
  guint64 n_moe = dev->n_layers - n_dense + n_mtp;
  const HrLayerActivations *dense = &ctx->dense_act, *moe = &ctx->moe_act;
  HrDeepseekLayer want;

  /* The two kinds of layer are the same on every stage: made once. */
  if (!ctx->deepseek_ready)
    {
      HrScenario dense_sc;

      /* (hr_calc_plan made the MoE layer's before the first stage) */
      ctx->moe_act = ctx->layer_act;
      ctx->dense_act = (HrLayerActivations) { 0 };
      if (sc->model.dense_layers > 0)
        {
          hr_calc_deepseek_dense_scenario (sc, &dense_sc);
          hr_activations_layer (&dense_sc, &ctx->dense_act);
        }
      /* A prediction module's layer starts from eh_proj's output, a
       * 16-bit matmul's under autocast, where the model's layers start
       * from the fp32 embeddings: its residual stream is 16-bit
       * (hr_activations_layer_16bit_residual; the MoE layer as it is
       * without autocast). */
      if (sc->model.mtp_modules > 0)
        hr_activations_layer_16bit_residual (sc, &ctx->mtp_act);
      ctx->deepseek_ready = TRUE;
      ctx->deepseek_held = HR_DEEPSEEK_MOE;
    }
  /* (a stage of one kind takes it as it is: averaging compares names; and
   * a stage after one of the same kind has it already: a copy of a layer's
   * saved tensors is most of this function's time over 16 stages) */
  want = n_dense == 0 ? HR_DEEPSEEK_MOE : n_moe == 0 ? HR_DEEPSEEK_DENSE : HR_DEEPSEEK_MIX;
  if (n_mtp > 0)
    {
      /* the model's layers, then the modules' beside them */
      HrLayerActivations model_layers;
      guint64 n_model = dev->n_layers;

      if (n_dense > 0 && n_moe > n_mtp)
        hr_activations_stack_average (dense, n_dense, moe, n_moe - n_mtp, &model_layers);
      else
        model_layers = n_dense > 0 ? *dense : *moe;
      if (n_model > 0)
        hr_activations_stack_average (&model_layers, n_model, &ctx->mtp_act, n_mtp, &ctx->layer_act);
      else
        ctx->layer_act = ctx->mtp_act;
      want = HR_DEEPSEEK_MIX;
    }
  else if (want == HR_DEEPSEEK_MIX)
    hr_activations_stack_average (dense, n_dense, moe, n_moe, &ctx->layer_act);
  else if (want != ctx->deepseek_held)
    ctx->layer_act = want == HR_DEEPSEEK_MOE ? *moe : *dense;
  ctx->deepseek_held = want;
  /* (the stage's first layer is a dense one where any is: they come first) */
  ctx->first_act = n_dense > 0 ? dense : NULL;
  ctx->first_total = n_dense > 0 ? dense->total : moe->total;
  ctx->last_recompute = n_moe > 0 ? moe->total - moe->checkpoint : dense->total - dense->checkpoint;
}

void
hr_calc_add_mtp (Ctx      *ctx,
                 HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  double rep = sc->parallel.sp ? (double) MAX (sc->parallel.tp, 1) : 1.0;
  double h = (double) sc->model.hidden;
  double norm = hr_activations_norm_bytes (sc);
  /* hnorm reads the hidden state the previous depth's head norm reads
   * (the model's final norm for the first module): where that is fp32,
   * the model's residual stream under autocast or in fp32 training,
   * RMSNorm's fp32 view of it is the tensor itself, counted there, and
   * hnorm adds only its normalised copy (the reference oracle's MTP runs,
   * tests/reference/model.py MTPModule). */
  double hnorm = sc->training.dtypes.weights == HR_DTYPE_FP32 ? MAX (norm - 4.0, 0.0) : norm;
  /* A layer pattern's module: its blocks are planned among the stage's
   * kinds (hr_calc_stage_kinds), whose residual stream is fp32 under
   * autocast; theirs starts from eh_proj's 16-bit output, so each block
   * keeps its norm's normalised copy, or under full checkpointing its
   * input, in 16 bits: (4 - bytes) a token and unit of h less each, taken
   * off here (the reference oracle's pattern MTP runs; DeepSeek's module
   * layer is planned apart, hr_activations_layer_16bit_residual). */
  gboolean autocast = sc->training.dtypes.weights == HR_DTYPE_FP32 && ctx->act_bytes < 4.0;
  double blocks16 = sc->model.layer_pattern[0] != '\0' && autocast
                    ? (double) strlen (sc->model.mtp_pattern) * (4.0 - ctx->act_bytes) : 0.0;

  if (sc->model.mtp_modules == 0 || dev->stage + 1 != sc->parallel.pp)
    return;
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_SAVED, N_("multi-token prediction inputs (norms, projection)"),
            blocks16 > 0 ? "modules·b·s·h·(enorm bytes + hnorm bytes + 2·bytes - blocks·(4 - bytes)) / c"
                         : "modules·b·s·h·(enorm bytes + hnorm bytes + 2·bytes) / c",
            N_("Each prediction module keeps its two norms' inputs and the joined input of its projection."),
            (double) sc->model.mtp_modules * ctx->tokens * h
            * MAX (norm + hnorm + 2.0 * ctx->act_bytes - blocks16, 0.0) / rep);
}
