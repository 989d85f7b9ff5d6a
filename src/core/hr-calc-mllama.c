/* hr-calc-mllama.c: Llama 3.2 Vision's activations on its device
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan multiplies one layer's saved tensors by the device's layers
 * (hr-calc-activations.c); Llama 3.2 Vision's language model has two
 * kinds, self-attention layers and the gated cross-attention layers that
 * read the images (modeling_mllama.py, MllamaTextModel), so the layer it
 * multiplies stands for both (hr_activations_stack_average).  Besides the
 * layers (hr-activations-mllama.c) the model keeps, once for all of them:
 *
 * - the image features, the projector's output (MllamaForConditional
 *   Generation.forward: cross_attention_states, N = b·images·tiles·
 *   (patches + 1) rows of H), which every cross-attention layer's k_proj
 *   and v_proj read: kept when their weights train, when their adapters
 *   read it (without dropout), and as an input of every checkpointed layer
 *   under full checkpointing (MllamaTextModel.forward passes it to
 *   _gradient_checkpointing_func);
 * - the cross-attention mask (_prepare_cross_attention_mask: b x 1 x s x
 *   N in the model's type) that every layer's SDPA keeps as its attn_mask,
 *   and full_text_row_masked_out_mask (b x 1 x s x 1) that every layer's
 *   MLP output is multiplied by;
 * - the features' gradient, which the backward pass sums over the
 *   cross-attention layers (autograd's input buffer) until it reaches the
 *   projector, when the projector trains;
 * - when the tower trains, what it keeps outside its layers
 *   (MllamaVisionModel.forward): the pixels patch_embedding's convolution
 *   keeps (pixel_values.to(self.dtype): b·images·tiles·C·image² values),
 *   the tile position embeddings gated_positional_embedding multiplies by
 *   its gate (tiles·(patches + 1)·h_v per image) and the tile embeddings
 *   pre_ and post_tile_positional_embedding do (tiles·h_v each),
 *   layernorm_pre's input (tiles·(patches + 1)·h_v) and layernorm_post's
 *   (tiles·padded tokens·h_v), and the attention mask
 *   (_prepare_aspect_ratio_attention_mask: (tiles·padded tokens)² per image
 *   in the model's type) every tower layer's SDPA keeps.
 * The masks are built at the start of the forward pass from int64 and
 * fp32 copies that are freed before the language model runs; they never
 * meet the backward pass's peak and are not counted.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>

void
hr_calc_mllama_layers (Ctx *ctx)
{
  const HrScenario *sc = ctx->sc;
  const HrModelArch *m = &sc->model;
  guint64 n_cross = hr_model_cross_layers (m, 0, m->layers);
  HrLayerActivations cross;
  const HrLayerActivations *last;

  /* hr_calc_plan made the self-attention layer's; kept (in dense_act,
   * which only DeepSeek's plans use otherwise) for the first layer's
   * share of it (hr-calc-activations.c). */
  ctx->dense_act = ctx->layer_act;
  hr_activations_cross_layer (sc, &cross);
  hr_activations_stack_average (&ctx->dense_act, m->layers - n_cross, &cross, n_cross,
                                &ctx->layer_act);
  /* The backward pass meets the last cross-attention layer (38 of 40)
   * with nearly every layer's saved tensors still there: the larger of
   * the two kinds' working sets stands for both. */
  ctx->layer_act.backward_work = MAX (ctx->dense_act.backward_work, cross.backward_work);
  ctx->layer_act.backward_attn_work = MAX (ctx->dense_act.backward_attn_work,
                                           cross.backward_attn_work);
  /* The first layer attends to the text (validation: offset >= 1).  Full
   * checkpointing recomputes the last layer first, and the last cross-
   * attention layer right after it, beside nearly the same checkpoints:
   * the larger recomputation stands for both. */
  ctx->first_total = ctx->dense_act.total;
  last = hr_model_layer_cross_attends (m, m->layers - 1) ? &cross : &ctx->dense_act;
  ctx->last_recompute = MAX (last->total - last->checkpoint,
                             n_cross > 0 ? cross.total - cross.checkpoint : 0.0);
}

void
hr_calc_add_mllama (Ctx      *ctx,
                    HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  gboolean full = t->method == HR_METHOD_FULL;
  gboolean all_ck = t->checkpointing == HR_CHECKPOINTING_FULL;
  double ab = ctx->act_bytes;
  double b = (double) t->micro_batch, s = (double) t->seq_len;
  double images = b * (double) t->images_per_sample;
  double N = images * (double) hr_model_cross_tokens (m);
  double H = (double) m->hidden, hv = (double) m->vision_hidden;
  gboolean kv_adapters = !full && (t->lora.targets & (HR_LORA_K | HR_LORA_V)) != 0
                         && !(t->lora.dropout > 0);

  /* (Kept by nothing else, they live as long as the forward pass, whose
   * caller holds them until the loss is computed.) */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            full || kv_adapters || all_ck ? HR_LIVE_FWD_BWD : HR_LIVE (HR_PHASE_FORWARD),
            N_("image features (keys and values of every cross-attention)"),
            "b·images·tiles·(patches + 1)·h·bytes",
            N_("The projected image features, which each cross-attention layer's keys and values "
               "read."),
            N * H * ab);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE_FWD_BWD, N_("cross-attention masks"),
            "b·s·(images·tiles·(patches + 1) + 1)·bytes",
            N_("Which image tiles each text token attends to, kept for every cross-attention "
               "layer."),
            b * s * ((double) t->images_per_sample * (double) hr_model_cross_tokens (m) + 1.0)
            * ab);
  if (full)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
              t->dtypes.activations, HR_LIVE_BACKWARD, N_("image features gradient"),
              "b·images·tiles·(patches + 1)·h·bytes",
              N_("The gradient every cross-attention layer adds to, until the projector's "
                 "backward pass."),
              N * H * ab);

  if (hr_activations_vision_trains (sc))
    {
      double tiles = images * (double) m->vision_tiles;
      double T = (double) hr_model_vision_tokens (m);
      double padded = (double) m->vision_tiles * (double) hr_model_tile_tokens (m);
      double pixels = (double) hr_model_vision_channels (m) * (double) m->vision_image
                      * (double) m->vision_image;

      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
                t->dtypes.activations, HR_LIVE_FWD_BWD, N_("vision tower stem (pixels, tile embeddings, outer norms)"),
                "b·images·tiles·(C·image² + (2·(patches + 1) + 2)·h_v)·bytes"
                " + b·images·padded·h_v·bytes",
                N_("What the image encoder keeps outside its layers: the pixels, its position "
                   "tables' outputs and its outer norms' inputs."),
                (tiles * (pixels + (2.0 * T + 2.0) * hv) + images * padded * hv) * ab);
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
                t->dtypes.activations, HR_LIVE_FWD_BWD, N_("vision tower attention mask"),
                "b·images·(tiles·padded tokens)²·bytes",
                N_("Which tiles of an image attend to each other, kept for every image-encoder "
                   "layer."),
                images * padded * padded * ab);
    }
}
