/* hr-params.h: parameter counts from an architecture
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* The rows MllamaTextModel's token table has beyond vocab_size. */
#define HR_MLLAMA_EXTRA_TOKEN_ROWS 8

/* Parameter counts, in elements.  "per rank" values are what one tensor-
 * and expert-parallel rank holds before any ZeRO/FSDP sharding; with
 * tp = ep = 1 they are the whole model's. */
typedef struct
{
  /* one transformer layer, per rank */
  guint64 layer_dense;        /* attention, norms, router, dense MLP */
  guint64 layer_experts;      /* the MoE experts this rank holds */
  guint64 layer_shared;       /* of layer_dense, the shared experts' MLP (DeepSeek's;
                               * a hybrid's expert layers': Nemotron-H, Granite 4.0-H) */
  guint64 layer_linear;       /* weights of nn.Linear layers (quantizable) */
  guint64 layer_lora;         /* LoRA adapters (trainable) */
  guint64 layer_adafactor;    /* Adafactor's factored second-moment size */
  /* what a decoder layer of an encoder-decoder model has beyond an encoder
   * layer (layer_* above): its cross-attention and that sub-layer's norm */
  guint64 decoder_extra;
  guint64 decoder_extra_linear;
  guint64 decoder_extra_adafactor;
  /* DeepSeek's MoE: one of its first model.dense_layers layers, whose MLP
   * is the dense ffn (per rank; it replaces layer_dense + layer_experts) */
  guint64 dense_first;
  guint64 dense_first_linear;
  guint64 dense_first_adafactor;
  guint64 dense_first_lora;   /* ... its LoRA adapters on a rank */
  /* what each multi-token-prediction module has beyond one more MoE layer
   * (layer_*): enorm, hnorm, its head's norm and eh_proj (2h -> h) */
  guint64 mtp_extra;
  guint64 mtp_extra_linear;

  /* outside the layers, per rank */
  guint64 embedding;          /* token (+ position, segment, patch) tables; an
                               * encoder-decoder's both stacks' position tables,
                               * relative biases and embedding norms */
  guint64 head;               /* untied LM head, or pooler + classifier */
  guint64 head_linear;        /* the part of head that is an nn.Linear */
  guint64 head_lora;
  guint64 embedding_lora;     /* PEFT's lora.Embedding on the token table */
  guint64 final_norm;
  guint64 frozen;             /* of embedding, what does not train (Whisper's
                               * sinusoidal encoder positions) */
  guint64 outside_adafactor;

  /* the largest single nn.Linear weight (QLoRA dequantizes one at a time) */
  guint64 largest_linear;

  /* a model whose layers differ (hr_model_mixed_layers: a hybrid of
   * attention and SSM layers, experts in some layers only): the layer_*
   * values above are its largest layer's, these its whole stack's */
  gboolean mixed;
  guint64 stack_dense;
  guint64 stack_experts;
  guint64 stack_linear;
  guint64 stack_adafactor;
  /* ... and one layer of each kind, [HrLayerMixer][HrLayerMlp] */
  guint64 kind_dense[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  guint64 kind_experts[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  guint64 kind_linear[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  guint64 kind_adafactor[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  guint64 kind_lora[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];   /* ... its LoRA adapters */
  /* Zamba2's shared transformer blocks, counted once for all the S
   * blocks that use them (kind_*[SHARED] hold each use's own linear and
   * adapters): their parameters, linear weights and Adafactor size, and
   * the LoRA adapters PEFT puts on them (once too, in lora_total) */
  guint64 shared_blocks;
  guint64 shared_blocks_linear;
  guint64 shared_blocks_adafactor;
  guint64 shared_blocks_lora;
  guint64 attention_layers;   /* of model.layers, how many attend */
  guint64 expert_layers;      /* ... and have experts */

  /* a vision-language model's vision tower and projector (hr-params-
   * vision.c), whole (validation keeps tp = pp = 1 with them), and of each
   * its linear weights */
  guint64 vision;
  guint64 vision_linear;
  guint64 projector;
  guint64 projector_linear;
  /* ... and of the tower what no loss reaches: the layers after the
   * feature layer, CLIP's post_layernorm */
  guint64 vision_unreached;
  /* Llama 3.2 Vision's language model: what each of its cross_layers
   * gated cross-attention layers has beyond a self-attention layer
   * (layer_dense): q_norm and k_norm (head_dim each) and its two gates;
   * its Q, K, V, O, norms and MLP are shaped as a self-attention
   * layer's.  Of embedding, the 8 rows the token table has beyond the
   * vocabulary (image_rows·h) */
  guint64 cross_extra;
  guint64 cross_layers;
  guint64 image_rows;

  /* whole model, unsharded (tp = ep = 1) */
  guint64 total;
  guint64 active;             /* MoE: top-k experts instead of all */
  guint64 lora_total;         /* trainable adapters of the whole model */
} HrParamCounts;

/* One state-space block's mixer (hr-params-ssm.c), in elements. */
typedef struct
{
  guint64 total;
  guint64 linear;      /* nn.Linear weights: in_proj, x_proj, dt_proj, out_proj */
  guint64 adafactor;   /* Adafactor's factored second-moment size */
  guint64 largest;     /* its largest nn.Linear weight */
  guint64 in_proj;     /* in_proj's output width (its input is h wide) */
} HrSsmMixerParams;

void     hr_params_ssm_mixer   (const HrModelArch *model,
                                HrSsmMixerParams  *out);

void     hr_params_count       (const HrModelArch *model,
                                const HrTraining  *training,
                                guint64            tp,
                                guint64            ep,
                                HrParamCounts     *out);

guint64  hr_params_total       (const HrModelArch *model);

/* hr-params-vision.c: a vision tower's and a projector's parameters, and
 * in OUT_LINEAR their nn.Linear weights (NULL: not wanted). */
guint64  hr_params_vision_tower  (const HrModelArch *model,
                                  guint64           *out_linear);
guint64  hr_params_projector     (const HrModelArch *model,
                                  guint64           *out_linear);
guint64  hr_params_vision_unreached (const HrModelArch *model);
guint64  hr_params_vision_largest   (const HrModelArch *model,
                                     gboolean           with_tower);
/* GaLore's optimizer state and projection elements for one layer's
 * matrices on a tensor- and expert-parallel rank, at RANK. */
void     hr_params_galore_layer (const HrModelArch *model,
                                 guint64            tp,
                                 guint64            ep,
                                 guint64            rank,
                                 guint64           *out_states,
                                 guint64           *out_projection);
void     hr_params_galore_dense (const HrModelArch *model,
                                 guint64            tp,
                                 guint64            rank,
                                 guint64           *out_states,
                                 guint64           *out_projection);
void     hr_params_galore_cross (const HrModelArch *model,
                                 guint64            tp,
                                 guint64            rank,
                                 guint64           *out_states,
                                 guint64           *out_projection);

/* hr-params-mla.c: one layer's multi-head latent attention on a tensor-
 * parallel rank: its linear weights, and all of it with its latent norms. */
guint64  hr_params_mla_attention (const HrModelArch *model,
                                  guint64            tp,
                                  guint64           *out_linear,
                                  guint64           *out_adafactor);
guint64  hr_params_mla_largest   (const HrModelArch *model,
                                  guint64            tp);
/* ... and the adapters of one layer's latent attention (LoRA's targets) */
guint64  hr_params_mla_lora      (const HrModelArch *model,
                                  guint              targets,
                                  guint64            rank);

G_END_DECLS
