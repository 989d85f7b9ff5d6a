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

void
hr_calc_deepseek_layers (Ctx            *ctx,
                         const HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  gboolean last = dev->stage + 1 == sc->parallel.pp;
  guint64 n_dense = hr_calc_dense_first_on_stage (sc, dev->stage, dev->first_layer, dev->n_layers);
  guint64 n_moe = dev->n_layers - n_dense + (last ? sc->model.mtp_modules : 0);
  HrLayerActivations dense = { 0 }, moe;
  HrScenario dense_sc;

  hr_activations_layer (sc, &moe);
  if (n_dense > 0)
    {
      /* A dense first layer: the same layer with the dense MLP. */
      dense_sc = *sc;
      dense_sc.model.experts = dense_sc.model.experts_active = 1;
      dense_sc.model.shared_experts = 0;
      dense_sc.model.dense_layers = 0;
      dense_sc.model.router_bias = FALSE;
      hr_activations_layer (&dense_sc, &dense);
    }
  hr_activations_stack_average (&dense, n_dense, &moe, n_moe, &ctx->layer_act);
  ctx->first_total = n_dense > 0 && dev->first_layer < sc->model.dense_layers ? dense.total : moe.total;
  ctx->last_recompute = n_moe > 0 ? moe.total - moe.checkpoint : dense.total - dense.checkpoint;
}

void
hr_calc_add_mtp (Ctx      *ctx,
                 HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  double rep = sc->parallel.sp ? (double) MAX (sc->parallel.tp, 1) : 1.0;
  double h = (double) sc->model.hidden;

  if (sc->model.mtp_modules == 0 || dev->stage + 1 != sc->parallel.pp)
    return;
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_SAVED, N_("multi-token prediction inputs (norms, projection)"),
            "modules·b·s·h·(2·norm bytes + 2·bytes) / c",
            N_("Each prediction module keeps its two norms' inputs and the joined input of its projection."),
            (double) sc->model.mtp_modules * ctx->tokens * h
            * (2.0 * hr_activations_norm_bytes (sc) + 2.0 * ctx->act_bytes) / rep);
}
