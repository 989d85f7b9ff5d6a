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
 * layer than GELU.  Qwen2-VL's VisionAttention computes Q, K and V with one
 * linear, 3h wide, and views its output as the three (reshape, permute,
 * unbind): Q and K become new tensors through the rotary in fp32
 * (apply_rotary_pos_emb_vision, .to back to their type), V stays a view,
 * which the attention keeps (FlashAttention-2's varlen kernel and SDPA's
 * take it as it is, eager's matmul reshapes it to a view too), and with
 * it the whole output: 2h more per token than three separate linears;
 * that linear reads its input once, one 16-bit copy under autocast.
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
 * Before the layers, where the tower trains: the patch convolution keeps
 * its input for its weight's gradient, the pixels cast to the weight's
 * type (CLIPVisionEmbeddings.forward and PatchEmbed.forward:
 * pixel_values.to(dtype=target_dtype)) or by autocast to 16 bits: a copy
 * of C x image² values per image (Qwen2-VL's patches two frames deep: 2 x
 * C x image²) where the compute type is not the image processor's fp32,
 * else the batch itself; and CLIP's pre_layrnorm keeps its input, T x h_v
 * per image (fp32 under autocast, where the embeddings' sum is fp32);
 * Qwen2-VL's blocks keep the rotary's cos and sin.
 *
 * Projectors: LLaVA's LlavaMultiModalProjector (linear_1, GELU, linear_2)
 * keeps linear_1's input, selected_image_feature[:, 1:], P x h_v values of
 * each image (P patches): a copy, made by autocast's cast or, of the view
 * that skips each image's class-token row, by F.linear's fold of a
 * non-contiguous 3-D input (torch.matmul reshapes it to 2-D,
 * aten/src/ATen/native/LinearAlgebra.cpp, _matmul_impl); only one image
 * at full precision makes a contiguous view, which at::linear keeps
 * whole, with the base's T = patches + 1 rows; GELU's input and
 * linear_2's input, P x H each (H the language model's width).  Qwen2-VL's
 * PatchMerger keeps ln_q's input
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
  /* (the layer is a vision tower's: its eager softmax runs in fp32 in
   * every precision, hr_activations_fp32_softmax) */
  v->vision = m->vision;
  out->training.method = HR_METHOD_FULL;
  /* Qwen2-VL's VisionAttention: one qkv linear reads the norm's output
   * once (under autocast one 16-bit copy, not three), as LitGPT's fused
   * QKV (hr-activations.c, qkv_readers) */
  out->training.lora.fused_qkv = m->vision == HR_VISION_QWEN2_VL;
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

/* The tower's embeddings: the patch convolution's input where it is a
 * copy, CLIP's pre_layrnorm input. */
static double
embeddings (const HrScenario *sc,
            const HrScenario *v)
{
  const HrModelArch *m = &sc->model;
  double n = (double) v->training.micro_batch;
  double ab = hr_dtype_bytes (sc->training.dtypes.activations);
  double side = (double) m->vision_image;
  double pixels = (double) hr_model_vision_channels (m) * side * side
                  * (m->vision == HR_VISION_QWEN2_VL ? 2.0 : 1.0);
  double out = ab < 4.0 ? n * pixels * ab : 0.0;

  if (m->vision == HR_VISION_CLIP)
    out += n * (double) v->training.seq_len * (double) m->vision_hidden * hr_activations_norm_bytes (v);
  else
    /* Qwen2-VL's rotary angles, cos and sin in fp32, one head's width per
     * patch, made once (Qwen2VisionTransformerPretrainedModel.forward:
     * position_embeddings = (emb.cos(), emb.sin())) and kept by every
     * block's rotary product (or its checkpoint): once */
    out += 2.0 * n * (double) v->training.seq_len * (double) (m->vision_hidden / m->vision_heads) * 4.0;
  return out;
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
  /* Qwen2-VL's fused qkv: V is a view of its output, which the attention
   * keeps whole (Q and K are the rotary's new tensors) */
  if (sc->model.vision == HR_VISION_QWEN2_VL)
    quick_gelu += 2.0 * (double) v.training.micro_batch * (double) v.training.seq_len
                  * (double) sc->model.vision_hidden * hr_dtype_bytes (sc->training.dtypes.activations);
  per_layer = sc->training.checkpointing == HR_CHECKPOINTING_FULL ? la.checkpoint
                                                                   : la.total + quick_gelu;
  if (out_layer != NULL)
    *out_layer = la.total + quick_gelu;
  return (double) hr_model_vision_layers_run (&sc->model) * per_layer + embeddings (sc, &v);
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
    {
      double rows = n == 1.0 && !hr_activations_autocast (t) ? (double) hr_model_vision_tokens (m) : P;

      return n * (rows * hv + 2.0 * P * H) * ab;
    }
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
