/* hr-params-vision.c: a vision-language model's vision tower and projector
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Counted as Hugging Face's modules hold them (the published totals of
 * llava-hf/llava-1.5-7b-hf and Qwen/Qwen2-VL-7B-Instruct are reproduced in
 * tests/test-params.c):
 *
 * CLIP (transformers/models/clip/modeling_clip.py, CLIPVisionTransformer,
 * as LlavaForConditionalGeneration builds it with AutoModel.from_config):
 * CLIPVisionEmbeddings holds class_embedding (h), patch_embedding, a
 * Conv2d(C, h, patch, stride patch, bias=False), and position_embedding,
 * an Embedding(patches + 1, h); then pre_layrnorm (LayerNorm h), the
 * CLIPEncoderLayers and post_layernorm.  The last two are parameters even
 * when vision_feature_layer -2 leaves their output unused.
 *
 * Qwen2-VL (transformers/models/qwen2_vl/modeling_qwen2_vl.py,
 * Qwen2VisionTransformerPretrainedModel): PatchEmbed, a Conv3d(C, h,
 * (temporal_patch_size 2, patch, patch), bias=False); rotary positions
 * (VisionRotaryEmbedding: inv_freq is a buffer); Qwen2VLVisionBlocks; no
 * class token and no outer norms.
 *
 * Each layer, both towers: two LayerNorms (2h each), Q, K, V, O of h x h
 * with biases (CLIPAttention's q/k/v/out_proj; VisionAttention's fused
 * qkv, 3h wide, and proj), and fc1 (h -> f) and fc2 (f -> h) with biases
 * (CLIPMLP; VisionMlp).
 *
 * Llama 3.2 Vision (transformers/models/mllama/modeling_mllama.py,
 * MllamaVisionModel.__init__), over tiles of vision_image² pixels, each
 * of P patches and a class token (T = P + 1): patch_embedding, a
 * Conv2d(C, h, patch, stride patch, bias=False); class_embedding (h);
 * gated_positional_embedding (MllamaPrecomputedPositionEmbedding): a
 * gate (1), embedding (T x h) and tile_embedding, an Embedding(R + 1,
 * tiles·T·h) for the R supported aspect ratios and padding (R =
 * max_aspect_ratio_id, len(supported_aspect_ratios)); pre_ and
 * post_tile_positional_embedding (MllamaPrecomputedAspectRatioEmbedding,
 * is_gated): an Embedding(R + 1, tiles·h) and a gate each; layernorm_pre
 * and layernorm_post (2h each); then `transformer`, vision_layers
 * MllamaVisionEncoderLayers, and `global_transformer`,
 * vision_global_layers more with is_gated: gate_attn and gate_ffn (1
 * each).  A layer: MllamaVisionAttention's q, k, v, o_proj of h x h
 * without biases (bias=False), input_ and post_attention_layernorm (2h
 * each), MllamaVisionMLP's fc1 (h -> f) and fc2 (f -> h) with biases.
 *
 * Projectors: LLaVA's LlavaMultiModalProjector (modeling_llava.py),
 * linear_1 (h_v -> H) and linear_2 (H -> H) with biases; Qwen2-VL's
 * PatchMerger, ln_q (LayerNorm h_v), then on merge² patches joined into
 * one vector of m = h_v·merge²: Linear (m -> m), GELU, Linear (m -> H),
 * with biases (H the language model's hidden size); Llama 3.2 Vision's
 * multi_modal_projector (MllamaForConditionalGeneration.__init__), one
 * nn.Linear(vision_output_dim, H, bias=True) over the features: the last
 * global layer's output and vision_intermediate_layers local layers'
 * outputs concatenated (MllamaVisionModel.forward: torch.cat([hidden_state,
 * intermediate_hidden_states], dim=-1)), vision_output_dim = h_v·(1 +
 * those layers), 7680 = 1280·6 (MllamaVisionConfig).
 */

#include "hr-params.h"

/* The temporal patch of Qwen2-VL's Conv3d: a still image is two frames
 * (Qwen2VLImageProcessor repeats it temporal_patch_size times; the
 * config's temporal_patch_size, 2 in every Qwen2-VL). */
#define QWEN2_VL_TEMPORAL_PATCH 2

/* One tower layer: its linears, their biases, its two LayerNorms. */
static guint64
tower_layer (const HrModelArch *m,
             guint64           *out_linear)
{
  guint64 h = m->vision_hidden, f = m->vision_ffn;

  *out_linear = 4 * h * h + 2 * h * f;
  return *out_linear + 4 * h + f + h + 2 * 2 * h;
}

/* Llama 3.2 Vision's tower (the file's comment). */
static guint64
mllama_tower (const HrModelArch *m,
              guint64           *out_linear)
{
  guint64 h = m->vision_hidden, f = m->vision_ffn;
  guint64 patch_in = hr_model_vision_channels (m) * m->vision_patch * m->vision_patch;
  guint64 T = hr_model_vision_tokens (m), rows = m->vision_aspect_ratios + 1;
  guint64 layer_linear = 4 * h * h + 2 * h * f;
  guint64 layer = layer_linear + f + h + 2 * 2 * h;
  guint64 layers = m->vision_layers + m->vision_global_layers;

  *out_linear = layers * layer_linear;
  return layers * layer + 2 * m->vision_global_layers          /* gate_attn, gate_ffn */
         + patch_in * h                                          /* patch_embedding */
         + h                                                     /* class_embedding */
         + 1 + T * h + rows * m->vision_tiles * T * h            /* gated_positional_embedding */
         + 2 * (rows * m->vision_tiles * h + 1)                  /* pre_, post_tile_... */
         + 2 * 2 * h;                                            /* layernorm_pre, _post */
}

guint64
hr_params_vision_tower (const HrModelArch *m,
                        guint64           *out_linear)
{
  guint64 h = m->vision_hidden;
  guint64 patch_in = hr_model_vision_channels (m) * m->vision_patch * m->vision_patch;
  guint64 layer_linear;
  guint64 layer = tower_layer (m, &layer_linear);
  guint64 total, linear = m->vision_layers * layer_linear;

  if (m->vision == HR_VISION_NONE)
    {
      if (out_linear)
        *out_linear = 0;
      return 0;
    }
  if (m->vision == HR_VISION_MLLAMA)
    {
      total = mllama_tower (m, &linear);
      if (out_linear)
        *out_linear = linear;
      return total;
    }
  total = m->vision_layers * layer;
  if (m->vision == HR_VISION_CLIP)
    total += h                                              /* class_embedding */
             + patch_in * h                                 /* patch_embedding */
             + (hr_model_vision_patches (m) + 1) * h        /* position_embedding */
             + 2 * h + 2 * h;                               /* pre_layrnorm, post_layernorm */
  else
    total += QWEN2_VL_TEMPORAL_PATCH * patch_in * h;        /* patch_embed.proj */
  if (out_linear)
    *out_linear = linear;
  return total;
}

guint64
hr_params_projector (const HrModelArch *m,
                     guint64           *out_linear)
{
  guint64 hv = m->vision_hidden, H = m->hidden;
  guint64 merge = hr_model_projector_merge (m);
  guint64 w = hv * merge * merge;
  guint64 linear = 0, total = 0;

  switch (m->projector)
    {
    case HR_PROJECTOR_MLP2X_GELU:
      linear = hv * H + H * H;
      total = linear + H + H;
      break;
    case HR_PROJECTOR_PATCH_MERGER:
      linear = w * w + w * H;
      total = 2 * hv + linear + w + H;
      break;
    case HR_PROJECTOR_LINEAR:
      linear = hv * (1 + m->vision_intermediate_layers) * H;
      total = linear + H;
      break;
    case HR_PROJECTOR_NONE:
    case HR_N_PROJECTORS:
    default:
      break;
    }
  if (m->vision == HR_VISION_NONE)
    linear = total = 0;
  if (out_linear)
    *out_linear = linear;
  return total;
}

/* What of the tower no loss reaches, so that no gradient comes to it: the
 * layers after the feature layer, whose output get_image_features drops
 * (modeling_llava.py), and CLIP's post_layernorm, which
 * CLIPVisionTransformer.forward applies to the last layer's class token
 * for a pooled output LLaVA does not read.  torch's optimizers make no
 * state for a parameter whose .grad stays None (AdamW's _init_group,
 * `if p.grad is not None`). */
guint64
hr_params_vision_unreached (const HrModelArch *m)
{
  guint64 layer_linear;
  guint64 layer = tower_layer (m, &layer_linear);

  /* (Llama 3.2 Vision's features read its last global layer and
   * intermediate local layers: every layer is reached.) */
  if (m->vision == HR_VISION_NONE || m->vision == HR_VISION_MLLAMA)
    return 0;
  return (m->vision_layers - hr_model_vision_layers_run (m)) * layer
         + (m->vision == HR_VISION_CLIP ? 2 * m->vision_hidden : 0);
}

/* The largest matrix of the projector and, WITH_TOWER, of the tower's
 * layers (fc1 and fc2, h x f, or Qwen2-VL's fused qkv, 3h x h), for the
 * optimizer steps that take one tensor at a time. */
guint64
hr_params_vision_largest (const HrModelArch *m,
                          gboolean           with_tower)
{
  guint64 hv = m->vision_hidden, H = m->hidden;
  guint64 w = hv * hr_model_projector_merge (m) * hr_model_projector_merge (m);
  guint64 largest;

  if (m->vision == HR_VISION_NONE)
    return 0;
  switch (m->projector)
    {
    case HR_PROJECTOR_PATCH_MERGER:
      largest = MAX (w * w, w * H);
      break;
    case HR_PROJECTOR_LINEAR:
      /* Llama 3.2 Vision's one linear, over the concatenated features */
      largest = hv * (1 + m->vision_intermediate_layers) * H;
      break;
    case HR_PROJECTOR_MLP2X_GELU:
    case HR_PROJECTOR_NONE:
    case HR_N_PROJECTORS:
    default:
      largest = MAX (hv * H, H * H);
      break;
    }
  if (with_tower)
    largest = MAX (largest, MAX (hv * m->vision_ffn, 3 * hv * hv));
  return largest;
}
