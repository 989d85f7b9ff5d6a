/* hr-calc-vision.c: a vision-language model's tower and projector on its device
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-activations-vision.c lists for the tower's layers and the
 * projector, as the first stage's items beside the language model's
 * (hr-calc-activations.c), and Llama 3.2 Vision's own parts
 * (hr-calc-mllama.c).
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>

/* A vision-language model's tower and projector (hr-activations-
 * vision.c), on the first stage: their saved tensors wait for the end of
 * the backward pass, which reaches them last. */
void
hr_calc_add_vision (Ctx      *ctx,
                    HrDevice *dev,
                    double    first_end)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  double layer_bytes;
  double tower = hr_activations_vision_tower (sc, &layer_bytes);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_FWD_BWD, N_("vision tower activations"),
            m->vision == HR_VISION_MLLAMA
            ? (t->checkpointing == HR_CHECKPOINTING_FULL
               ? "(local + global layers)·b·images·tiles·padded tokens·h_v·bytes"
               : "(local + global layers)·b·images·(one encoder layer's saved tensors over"
                 " its tiles) + global·2·b·images·tiles·padded tokens·h_v·bytes")
            : t->checkpointing == HR_CHECKPOINTING_FULL
            ? "layers to the feature layer·b·images·each layer's input + the embeddings' (pixels' copy, pre-norm input)"
            : "layers to the feature layer·b·images·(one encoder layer's saved tensors + quick-GELU's sigmoid) + the embeddings' (pixels' copy, pre-norm input)",
            N_("What the image encoder's layers keep for its own backward pass."),
            tower);
  /* With full checkpointing the tower's layers are recomputed one at a
   * time, at the very end of the backward pass, under autocast with
   * their weights' 16-bit casts again (hr-calc-states.c, add_vision_
   * casts); by then the language model's first layer has done its
   * backward and freed what it held: the later of the two moments,
   * the larger counts. */
  if (t->checkpointing == HR_CHECKPOINTING_FULL && hr_activations_vision_trains (sc))
    {
      double casts = t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32
                     && sc->parallel.zero != 3 && m->vision_layers > 0
                     ? (double) ctx->counts.vision_linear
                       / (double) (m->vision_layers + m->vision_global_layers) * ctx->act_bytes
                     : 0.0;

      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
                HR_LIVE (HR_PHASE_BACKWARD_END), N_("one vision layer recomputed for backward"),
                "b·images·one encoder layer's saved tensors (+ its weights' 16-bit casts) - the first layer's moment",
                N_("During the backward pass one image-encoder layer at a time is recomputed in full."),
                MAX (layer_bytes + casts - first_end, 0.0));
    }
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_FWD_BWD, N_("projector activations"),
            sc->model.projector == HR_PROJECTOR_MLP2X_GELU
            ? "b·images·patches·(h_v + 2·h)·bytes (one image at full precision: (patches + 1)·h_v)"
            : sc->model.projector == HR_PROJECTOR_LINEAR
            ? "b·images·tiles·(patches + 1)·h_v·(1 + intermediate layers)·bytes"
            : "b·images·patches·(h_v·norm bytes + 8 + 3·h_v·bytes)",
            N_("What the layers carrying image features into the language model keep."),
            hr_activations_projector (sc));
  /* LLaVA's output keeps the image features it put in the image
   * tokens' place, cast to the embeddings' type, the weights' (LlavaModel.
   * forward: image_features.to(inputs_embeds.dtype), returned as
   * image_hidden_states by LlavaForConditionalGeneration.forward), until
   * the training loop drops the output after the loss; Qwen2-VL's
   * output has no such field. */
  if (sc->model.vision == HR_VISION_CLIP)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.weights,
              HR_LIVE (HR_PHASE_FORWARD), N_("image features (in the model's output)"),
              "b·images·image tokens·h·weight bytes",
              N_("The image features the model returns beside its logits, until the loss is computed."),
              (double) t->micro_batch * (double) t->images_per_sample
              * (double) hr_model_image_tokens (&sc->model) * (double) sc->model.hidden
              * hr_dtype_bytes (t->dtypes.weights));
  if (m->vision == HR_VISION_MLLAMA)
    hr_calc_add_mllama (ctx, dev);
}
