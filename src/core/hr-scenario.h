/* hr-scenario.h: one training run to plan, as plain values
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScenario is a value type: it holds no pointers, so it can be copied with
 * "=" (the solver copies it for every trial) and compared with memcmp after
 * hr_scenario_init.  Field meanings are those of CONTRACT.md section 1;
 * fields marked "extension" are Headroom's additions to the contract.
 */

#pragma once

#include "hr-enums.h"

G_BEGIN_DECLS

#define HR_NAME_MAX 128
#define HR_ID_MAX   64
/* A scenario's "description": a paragraph, as the bundled presets write
 * (the longest, 193 bytes).  Every HrScenario holds one, the window a
 * dozen (its suggestions): kept small. */
#define HR_DESCRIPTION_MAX 1024
/* model.layer_pattern: one character per layer, and its terminating NUL. */
#define HR_LAYER_PATTERN_MAX 512
#define HR_MTP_PATTERN_MAX 16
/* parallel.stage_layers: one entry per virtual pipeline stage (pp·vpp). */
#define HR_MAX_STAGE_LAYERS 256

typedef struct
{
  char        preset[HR_ID_MAX];
  char        name[HR_NAME_MAX];
  HrModelKind kind;
  guint64     layers;
  guint64     hidden;
  guint64     heads;
  guint64     kv_heads;
  guint64     head_dim;
  guint64     ffn;
  HrMlp       mlp;
  guint64     vocab;
  gboolean    tied_embeddings;
  HrNorm      norm;
  HrBias      bias;
  gboolean    parallel_block;
  guint64     learned_positions;
  guint64     experts;
  guint64     experts_active;
  gboolean    dropout;
  HrHead      head;
  guint64     classes;

  /* extensions */
  guint64     expert_ffn;        /* per-expert width, 0 = ffn */
  guint64     norms_per_layer;   /* 0 = 1 with a parallel block, else 2 */
  HrQkNorm    qk_norm;
  gboolean    lm_head_bias;      /* phi-2 */
  guint64     token_types;       /* BERT's segment embeddings */
  gboolean    pooler;            /* BERT's pooler (h x h + h) */
  guint64     patch_dim;         /* vision: channels x patch^2, 0 = text */
  /* encoder-decoder (T5, BART): layers counts the encoder's layers */
  guint64     decoder_layers;    /* the decoder stack's layers */
  guint64     position_buckets;  /* T5's relative attention bias: buckets, 0 = none */
  gboolean    post_norm;         /* BART: a norm after each sub-layer */
  /* an audio encoder (Whisper): log-mel frames through two convolutions
   * instead of tokens, and a frozen sinusoidal table of audio_frames rows
   * instead of the encoder's learned positions; 0 = a text encoder */
  guint64     audio_mel_bins;
  guint64     audio_frames;      /* the encoder's frames after the stem (1500) */
  /* DeepSeek-V2/V3 (hr-params.c): multi-head latent attention ... */
  HrAttnKind  attention_kind;
  guint64     q_lora_rank;       /* 0 = Q projected directly (V2-Lite) */
  guint64     kv_lora_rank;      /* the compressed K/V latent's width */
  guint64     qk_nope_head_dim;  /* per head: Q and K without rope ... */
  guint64     qk_rope_head_dim;  /* ... and with it (one rope key for all heads) */
  guint64     v_head_dim;
  /* ... and its MoE: shared experts beside the routed ones (one MLP of
   * shared_experts x expert_ffn), the first dense_layers layers with the
   * dense ffn, a router bias (V3's e_score_correction_bias), and the
   * multi-token-prediction modules trained beside the model */
  guint64     shared_experts;
  guint64     dense_layers;
  gboolean    router_bias;
  guint64     mtp_modules;
  /* state-space and hybrid models (Mamba, Mamba-2, Jamba); 0 = the
   * reference implementation's default (hr_model_ssm_*) */
  HrSsm       ssm;               /* none: every layer attends */
  guint64     ssm_state;         /* d_state: 16 (Mamba), 128 (Mamba-2) */
  guint64     ssm_conv;          /* d_conv, the causal convolution's width: 4 */
  guint64     ssm_expand;        /* d_inner = expand·hidden: 2 */
  guint64     ssm_inner;         /* ... or d_inner itself (Nemotron-H: heads × head_dim) */
  guint64     ssm_dt_rank;       /* Mamba: dt_rank, ceil(hidden / 16) */
  guint64     ssm_heads;         /* Mamba-2: nheads, d_inner / ssm_head_dim */
  guint64     ssm_head_dim;      /* Mamba-2: headdim, 64 */
  guint64     ssm_groups;        /* Mamba-2: ngroups of B and C, 1 */
  gboolean    ssm_bc_norm;       /* Jamba: RMSNorms on dt, B and C */
  /* a hybrid's layer pattern (Jamba's config keys): with ssm, layer i
   * attends when i % attn_layer_period = attn_layer_offset (period 0: no
   * layer does); with experts, layer i has them when
   * i % expert_layer_period = expert_layer_offset (period 0: every layer) */
  guint64     attn_layer_period;
  guint64     attn_layer_offset;
  guint64     expert_layer_period;
  guint64     expert_layer_offset;
  /* ... or Nemotron-H's (hybrid_override_pattern): one block per layer,
   * a norm and one module, by character: M the SSM mixer, * attention,
   * - the dense MLP, E the experts; "" = none (hr_model_layer_mixer) */
  char        layer_pattern[HR_LAYER_PATTERN_MAX];
  /* ... whose multi-token-prediction modules (mtp_modules) are each these
   * blocks, with an enorm, an hnorm, eh_proj and a final norm (Nemotron 3's
   * mtp_hybrid_override_pattern, "*E"); "" without a pattern */
  char        mtp_pattern[HR_MTP_PATTERN_MAX];
  /* ... whose E blocks may run their experts in a latent
   * (NemotronHMoE with moe_latent_size): fc1_latent_proj takes each token
   * from hidden to moe_latent_size, the experts read and write that
   * width, fc2_latent_proj takes their sum back; 0 = none */
  guint64     moe_latent_size;
  /* ... or Bamba's (attn_layer_indices): every layer a norm, its mixer, a norm and its MLP (or experts, by
   * expert_layer_period), the mixer by character: M the SSM mixer, *
   * attention; "" = none */
  char        layer_mixers[HR_LAYER_PATTERN_MAX];
  /* Zamba2's shared transformer blocks (the pattern's S, hr-params-kinds.c):
   * shared_blocks blocks, served round robin, each an attention over the
   * hidden state joined to the embeddings (2·hidden wide) and an MLP; each
   * use adds an adapter of shared_adapter_rank to the MLP's gate and up
   * (and, with shared_attention_adapters, to Q, K and V) and an
   * hidden × hidden linear; 0 = none */
  guint64     shared_blocks;
  guint64     shared_adapter_rank;
  gboolean    shared_attention_adapters;
  /* a vision-language model (hr-params-vision.c): a vision tower of
   * vision_layers ViT layers over patches of vision_patch² pixels of a
   * vision_image² image, the output of layer vision_feature_layer (from 1;
   * 0 = the last) carried by the projector into the language model, whose
   * sequence (training.seq_len) holds the image tokens */
  HrVision    vision;            /* none: a text model, every field below 0 */
  guint64     vision_layers;
  guint64     vision_hidden;
  guint64     vision_heads;
  guint64     vision_ffn;
  guint64     vision_patch;      /* pixels per patch side */
  guint64     vision_image;      /* pixels per image side */
  guint64     vision_channels;   /* 0 = 3 */
  guint64     vision_feature_layer;  /* LLaVA's vision_feature_layer -2 of 24: 23 */
  HrProjector projector;
  guint64     projector_merge;   /* patch merger: spatial_merge_size, 0 = 1 */
  /* Llama 3.2 Vision (vision = mllama, hr-params-vision.c): after the
   * tower's vision_layers local layers, vision_global_layers gated ones;
   * an image cut into vision_tiles tiles of vision_image² pixels
   * (max_num_tiles), vision_aspect_ratios tilings the tile embeddings
   * have a row for (supported_aspect_ratios; one more row for padding),
   * and vision_intermediate_layers local layers' outputs joined to the
   * last one's as the features (intermediate_layers_indices).  The image
   * tokens are not in the text: the language model's layer i is a gated
   * cross-attention layer reading them when i % cross_attn_layer_period
   * = cross_attn_layer_offset (period 0: none) */
  guint64     vision_global_layers;
  guint64     vision_tiles;
  guint64     vision_aspect_ratios;
  guint64     vision_intermediate_layers;
  guint64     cross_attn_layer_period;
  guint64     cross_attn_layer_offset;
} HrModelArch;

typedef struct
{
  HrDtype weights;
  HrDtype grads;
  HrDtype master;
  HrDtype optimizer;
  HrDtype activations;
} HrDtypes;

typedef struct
{
  char            framework[HR_ID_MAX];  /* contract 1.1: a framework profile's id, "" = none */
  HrMethod        method;
  guint64         lora_rank;
  guint           lora_targets;      /* HrLoraTarget bits */
  double          lora_dropout;      /* extension */
  gboolean        lora_fused_qkv;    /* extension: Q, K, V adapters share one input */
  gboolean        lora_dora;         /* extension: DoRA (PEFT's use_dora) */
  HrQuant         quant;
  gboolean        quant_lm_head;     /* extension: LitGPT quantizes it too */
  HrDtype         dequant_dtype;     /* extension: what 4-bit weights unpack to;
                                      * NONE = the compute type */
  HrPrecision     precision;
  HrDtypes        dtypes;            /* filled from precision, then overridden */
  guint           dtypes_set;        /* which dtypes the user overrode, bit i = field i */
  HrOptimizer     optimizer;
  HrOptimizerImpl optimizer_impl;    /* extension */
  guint64         micro_batch;
  guint64         seq_len;
  guint64         target_len;        /* extension: encoder-decoder, the decoder's
                                      * tokens per sequence; 0 = seq_len */
  guint64         grad_accum;
  HrCheckpointing checkpointing;
  guint64         checkpoint_every;  /* with full: every N-th layer only (1 = all) */
  HrAttention     attention;
  HrLoss          loss;
  guint64         loss_chunk_tokens; /* extension: chunked loss, tokens per chunk */
  guint64         loss_chunks;       /* extension: ... or chunks per sequence (0: by tokens) */
  gboolean        logits_fp32;       /* extension: upcast logits for the loss */
  gboolean        logits_fp32_in_model; /* extension: ... in the model's forward, which
                                         * returns them (transformers < 4.46) */
  gboolean        zero_grad_to_none; /* extension: gradients freed after each step */
  gboolean        optimizer_in_backward;  /* extension: torchtune's optimizer_in_bwd */
  gboolean        activation_offloading;  /* extension: saved activations go to the CPU */
  HrFp8Recipe     fp8_recipe;        /* extension: with fp8-mixed, whose fp8 */
  gboolean        fp8_all_gather;    /* extension: torchao's FSDP2 all-gather in fp8 */
  gboolean        compile;           /* contract 1.1: torch.compile of the layers and loss */
  gboolean        compile_loss;      /* extension: with compile, the loss too (false: the
                                      * layers only, torchtitan's per-block compile) */
  gboolean        previous_graph_alive;   /* extension: the loop's loss keeps the last
                                           * micro-batch's graph into the next forward */
  gboolean        attention_buffer;  /* extension: eager attention's scores go into one
                                      * buffer kept for the run (Megatron's unfused) */
  guint64         images_per_sample; /* extension: with a vision tower, images per
                                      * sequence (their tokens are in seq_len) */
  gboolean        freeze_vision;     /* extension: the vision tower is not trained
                                      * (LLaVA's fine-tuning) */
  guint64         galore_rank;       /* extension: GaLore's projection rank */
} HrTraining;

typedef struct
{
  guint64         gpus;
  guint64         gpus_per_node;
  guint64         tp;
  guint64         pp;
  guint64         vpp;
  guint64         cp;
  guint64         ep;
  gboolean        sp;
  guint64         zero;
  guint64         shard_group;
  gboolean        offload_optimizer;
  gboolean        offload_params;
  HrOffloadDevice offload_optimizer_device;  /* extension: where the offloaded */
  HrOffloadDevice offload_params_device;     /* states and weights go */
  gboolean        no_sync;   /* extension: accumulate without reducing (FSDP no_sync) */
  gboolean        deepspeed; /* extension: ZeRO by DeepSpeed's engine (its gradient
                              * partition and buckets, sized below) */
  /* extension: DeepSpeed's zero_optimization sizes, in elements, under its
   * own names (DeepSpeed's defaults unless set) */
  guint64         reduce_bucket_size;
  gboolean        overlap_comm;   /* ZeRO-1/2: a second reduce bucket */
  guint64         stage3_prefetch_bucket_size;
  guint64         stage3_max_live_parameters;
  guint64         stage3_max_reuse_distance;
  guint64         stage3_param_persistence_threshold;
  guint64         sub_group_size; /* ZeRO-3: the optimizer steps this many at a time */
  guint64         fsdp;      /* contract 1.1: which FSDP shards without DeepSpeed:
                              * 1 (flat parameters) or 2 (per-parameter DTensors) */
  HrFsdpUnits     fsdp_units; /* extension: FSDP2's units outside the blocks */
  HrSchedule      schedule;   /* extension: the pipeline schedule */
  HrPpBuffers     pp_buffers; /* extension: what the pipeline's runtime keeps */
  /* contract 1.1: the layers of each (virtual) pipeline stage, uneven
   * splits as torchtitan and Megatron allow; 0 entries = an even split */
  guint32         n_stage_layers;
  guint32         stage_layers[HR_MAX_STAGE_LAYERS];
} HrParallel;

typedef struct
{
  char    preset[HR_ID_MAX];
  char    name[HR_NAME_MAX];
  guint64 memory_mib;
  double  bf16_tflops;     /* extension: dense peak, 0 = unknown */
  double  fp8_tflops;      /* extension: dense fp8 peak, 0 = unknown or none */
  double  compute_capability;  /* extension: CUDA's major.minor, 0 = not NVIDIA or unknown */
  double  blas_workspace_mib;  /* extension: per multiplying thread, -1 = cuBLAS's default */
} HrGpu;

/* Extension: what the run costs in time and money. */
typedef struct
{
  double tokens;               /* tokens to train on, 0 = no estimate */
  double mfu;                  /* model FLOPs utilisation, 0..1 */
  double price_per_gpu_hour;   /* in the user's currency */
} HrCost;

typedef struct
{
  double cuda_context_mib;
  double comm_buffer_mib;
  double fragmentation;
  double headroom;
} HrOverhead;

typedef struct
{
  char        name[HR_NAME_MAX * 2];
  char        description[HR_DESCRIPTION_MAX];  /* "" when the file has none */
  HrModelArch model;
  HrTraining  training;
  HrParallel  parallel;
  HrGpu       gpu;
  HrOverhead  overhead;
  HrCost      cost;
} HrScenario;

void     hr_scenario_init_default  (HrScenario       *scenario);
void     hr_dtypes_for_precision   (HrPrecision       precision,
                                    HrDtypes         *out);
void     hr_training_apply_precision (HrTraining     *training);
void     hr_model_arch_init_blank  (HrModelArch     *model);
void     hr_model_arch_init_default (HrModelArch     *model);
void     hr_scenario_fit_model_lengths (HrScenario   *scenario);

guint64  hr_parallel_dp_degree     (const HrParallel *parallel);
guint64  hr_parallel_shard_degree  (const HrParallel *parallel);
guint64  hr_model_head_dim         (const HrModelArch *model);
guint64  hr_model_expert_ffn       (const HrModelArch *model);
guint64  hr_model_norms_per_layer  (const HrModelArch *model);
guint64  hr_model_stack_layers     (const HrModelArch *model);
gboolean hr_model_mla              (const HrModelArch *model);
guint64  hr_training_target_len    (const HrScenario  *scenario);
gboolean hr_model_gated            (const HrModelArch *model);
gboolean hr_model_linear_biases    (const HrModelArch *model);
gboolean hr_model_key_bias         (const HrModelArch *model);
gboolean hr_model_audio            (const HrModelArch *model);
guint64  hr_model_ssm_inner        (const HrModelArch *model);
guint64  hr_model_ssm_state        (const HrModelArch *model);
guint64  hr_model_ssm_conv         (const HrModelArch *model);
guint64  hr_model_ssm_dt_rank      (const HrModelArch *model);
guint64  hr_model_ssm_head_dim     (const HrModelArch *model);
guint64  hr_model_ssm_heads        (const HrModelArch *model);
guint64  hr_model_ssm_groups       (const HrModelArch *model);
/* A layer's two parts: its mixer and what follows it (a pattern's block
 * has one of them only).  The values index the kinds of layer
 * (HrParamCounts, HrPatternKinds). */
typedef enum
{
  HR_LAYER_MIXER_SSM,
  HR_LAYER_MIXER_ATTENTION,
  HR_LAYER_MIXER_NONE,
  HR_LAYER_MIXER_SHARED,     /* Zamba2's shared transformer block (S) */
  HR_N_LAYER_MIXERS
} HrLayerMixer;

typedef enum
{
  HR_LAYER_MLP_DENSE,
  HR_LAYER_MLP_EXPERTS,
  HR_LAYER_MLP_NONE,
  HR_N_LAYER_MLPS
} HrLayerMlp;

HrLayerMixer hr_model_layer_mixer  (const HrModelArch *model,
                                    guint64            layer);
HrLayerMlp hr_model_layer_mlp      (const HrModelArch *model,
                                    guint64            layer);
gboolean hr_model_layer_attends    (const HrModelArch *model,
                                    guint64            layer);
gboolean hr_model_layer_has_experts (const HrModelArch *model,
                                     guint64            layer);
gboolean hr_model_layer_has_mlp    (const HrModelArch *model,
                                    guint64            layer);
gboolean hr_model_mixed_layers     (const HrModelArch *model);
guint64  hr_model_mtp_blocks       (const HrModelArch *model);
guint64  hr_model_vision_patches   (const HrModelArch *model);
guint64  hr_model_vision_tokens    (const HrModelArch *model);
guint64  hr_model_image_tokens     (const HrModelArch *model);
guint64  hr_model_vision_layers_run (const HrModelArch *model);
guint64  hr_model_vision_channels  (const HrModelArch *model);
guint64  hr_model_projector_merge  (const HrModelArch *model);
gboolean hr_model_layer_cross_attends (const HrModelArch *model,
                                       guint64            layer);
guint64  hr_model_cross_layers     (const HrModelArch *model,
                                    guint64            first_layer,
                                    guint64            n_layers);
guint64  hr_model_tile_tokens      (const HrModelArch *model);
guint64  hr_model_cross_tokens     (const HrModelArch *model);

void     hr_copy_string            (char             *dest,
                                    gsize             dest_size,
                                    const char       *src);

G_END_DECLS
