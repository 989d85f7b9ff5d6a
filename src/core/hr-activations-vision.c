/* hr-activations-vision.c: what a vision tower and its projector save
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Per micro-batch, for the backward pass, as Hugging Face's modules run
 * (CALC-REFERENCE style: each term its module and the tensors autograd
 * keeps).  The images of a micro-batch are N = micro_batch x
 * images_per_sample sequences of the tower's tokens T (CLIP: patches + the
 * class token; Qwen2-VL: the patches, its attention kept within each image
 * by cu_seqlens), so a tower layer saves what one encoder layer of width
 * vision_hidden saves over N sequences of T tokens: the same formulas as
 * the language model's layers (hr-activations.c, layer_activations), with
 * LayerNorms, biases and a two-matrix MLP.  The MLP's activation is
 * quick-GELU (CLIPMLP and Qwen2-VL's VisionMlp: ACT2FN["quick_gelu"],
 * QuickGELUActivation.forward: input * torch.sigmoid(1.702 * input)),
 * which keeps sigmoid's output beside its input: one more f-wide tensor per
 * layer than GELU.
 *
 * Which layers keep anything: those the loss reaches.  LLaVA's
 * get_image_features (modeling_llava.py) runs the whole tower with
 * output_hidden_states=True and reads hidden_states[vision_feature_layer];
 * the layers after it built a graph no loss reaches, freed with the
 * tower's outputs when get_image_features returns.  A frozen tower
 * (requires_grad False on every weight, pixel_values needing none) saves
 * nothing; its one layer's working set lives only while it runs, before
 * the language model has saved anything, so it never makes the peak.
 * Gradient checkpointing wraps the tower's layers too
 * (gradient_checkpointing_enable reaches CLIPEncoder and
 * Qwen2VisionTransformerPretrainedModel, both with gradient_checkpointing
 * in their forward): each keeps its input.
 *
 * Projectors: LLaVA's LlavaMultiModalProjector (linear_1, GELU, linear_2)
 * keeps linear_1's input, selected_image_feature[:, 1:], a view whose base,
 * the feature layer's whole output of T = patches + 1 rows, it keeps
 * alive; GELU's input and linear_2's input, P x H each (P patches, H the
 * language model's width).  Qwen2-VL's PatchMerger keeps ln_q's input
 * (native_layer_norm: input, and its mean and rstd in fp32, one each per
 * row; in fp32 under autocast, which runs layer_norm in fp32), mlp[0]'s
 * input (ln_q's output viewed as P / merge² rows of vision_hidden x
 * merge²: P x h_v values), GELU's input and mlp[2]'s input (P x h_v each).
 * Under LoRA and QLoRA the tower and projector are frozen base: nothing.
 * Their output becomes the image tokens' rows of inputs_embeds
 * (masked_scatter), the language model's first input, counted there.
 */

#include "hr-activations.h"
#include "hr-activations-private.h"

/* The tower as an encoder of its own: the layer the formulas know. */
static void
tower_scenario (const HrScenario *sc,
                HrScenario       *out)
{
  const HrModelArch *m = &sc->model;
  HrModelArch *v = &out->model;

  *out = *sc;
  hr_model_arch_init_default (v);
  v->kind = HR_KIND_ENCODER;
  v->layers = m->vision_layers;
  v->hidden = m->vision_hidden;
  v->heads = v->kv_heads = m->vision_heads;
  v->head_dim = 0;
  v->ffn = m->vision_ffn;
  v->mlp = HR_MLP_GELU;
  v->norm = HR_NORM_LAYERNORM;
  v->bias = HR_BIAS_ALL;
  v->experts = v->experts_active = 1;
  v->head = HR_HEAD_CLASSIFIER;
  v->classes = 1;
  v->vocab = 0;
  out->training.method = HR_METHOD_FULL;
  /* (Llama 3.2 Vision: an image's tiles, each padded to a multiple of 8
   * tokens, are one sequence of its layers: MllamaVisionModel.forward) */
  out->training.seq_len = m->vision == HR_VISION_MLLAMA
                          ? m->vision_tiles * hr_model_tile_tokens (m)
                          : hr_model_vision_tokens (m);
  out->training.micro_batch = sc->training.micro_batch * sc->training.images_per_sample;
  out->training.checkpoint_every = 1;
  out->parallel.tp = out->parallel.cp = 1;
  out->parallel.sp = FALSE;
}

gboolean
hr_activations_vision_trains (const HrScenario *sc)
{
  return sc->model.vision != HR_VISION_NONE && sc->training.method == HR_METHOD_FULL
         && !sc->training.freeze_vision && sc->training.images_per_sample > 0;
}

double
hr_activations_vision_tower (const HrScenario *sc,
                             double           *out_layer)
{
  HrScenario v;
  HrLayerActivations la;
  double per_layer, quick_gelu;

  if (out_layer != NULL)
    *out_layer = 0;
  if (!hr_activations_vision_trains (sc))
    return 0;
  tower_scenario (sc, &v);
  hr_activations_layer (&v, &la);
  /* Llama 3.2 Vision: exact GELU (hidden_act "gelu": GELUActivation keeps
   * its input only, as the layer's does); each global layer's two gates
   * (MllamaVisionEncoderLayer.forward: gate_attn.tanh() * hidden_state,
   * gate_ffn.tanh() * hidden_state) keep the attention's and the MLP's
   * outputs for their gradients (hr-activations-mllama.c). */
  if (sc->model.vision == HR_VISION_MLLAMA)
    {
      double gates = 2.0 * (double) v.training.micro_batch * (double) v.training.seq_len
                     * (double) sc->model.vision_hidden
                     * hr_dtype_bytes (sc->training.dtypes.activations);
      double local = (double) sc->model.vision_layers;
      double global = (double) sc->model.vision_global_layers;

      if (out_layer != NULL)
        *out_layer = la.total + (global > 0 ? gates : 0.0);
      if (sc->training.checkpointing == HR_CHECKPOINTING_FULL)
        return (local + global) * la.checkpoint;
      return local * la.total + global * (la.total + gates);
    }
  quick_gelu = (double) v.training.micro_batch * (double) v.training.seq_len
               * (double) sc->model.vision_ffn * hr_dtype_bytes (sc->training.dtypes.activations);
  per_layer = sc->training.checkpointing == HR_CHECKPOINTING_FULL ? la.checkpoint
                                                                   : la.total + quick_gelu;
  if (out_layer != NULL)
    *out_layer = la.total + quick_gelu;
  return (double) hr_model_vision_layers_run (&sc->model) * per_layer;
}

double
hr_activations_projector (const HrScenario *sc)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  double n = (double) t->micro_batch * (double) t->images_per_sample;
  double P = (double) hr_model_vision_patches (m);
  double hv = (double) m->vision_hidden, H = (double) m->hidden;
  double ab = hr_dtype_bytes (t->dtypes.activations);

  if (m->vision == HR_VISION_NONE || t->method != HR_METHOD_FULL)
    return 0;
  if (m->projector == HR_PROJECTOR_MLP2X_GELU)
    return n * ((double) hr_model_vision_tokens (m) * hv + 2.0 * P * H) * ab;
  /* Llama 3.2 Vision's multi_modal_projector, one linear: its input, the
   * features of every tile's patches and class token (the padding cut
   * off), h_v·(1 + intermediate layers) wide.  Its output is the cross-
   * attention layers' keys' and values' input (hr-calc-mllama.c). */
  if (m->projector == HR_PROJECTOR_LINEAR)
    return n * (double) hr_model_cross_tokens (m)
           * hv * (1.0 + (double) m->vision_intermediate_layers) * ab;
  if (m->projector == HR_PROJECTOR_PATCH_MERGER)
    {
      HrScenario v;

      /* (LayerNorm's input at its own bytes: fp32 under autocast) */
      tower_scenario (sc, &v);
      return n * P * (hv * hr_activations_norm_bytes (&v) + 2.0 * 4.0 + 3.0 * hv * ab);
    }
  return 0;
}
