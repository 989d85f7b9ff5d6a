/* hr-enums.h: the closed sets of choices a scenario is made of
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each enum has a table of the names the scenario file uses (CONTRACT.md
 * section 1), so the reader, the writer, the CLI and the GUI all spell
 * them the same way.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_KIND_DECODER,
  HR_KIND_ENCODER,
  HR_KIND_ENCODER_DECODER,      /* T5, BART: an encoder stack and a decoder stack */
  HR_N_KINDS
} HrModelKind;

/* The sequence mixer of a state-space model's layers: none (every layer
 * attends), Mamba's selective scan (Gu & Dao 2023) or Mamba-2's SSD
 * (Dao & Gu 2024). */
typedef enum
{
  HR_SSM_NONE,
  HR_SSM_MAMBA,
  HR_SSM_MAMBA2,
  HR_N_SSMS
} HrSsm;

/* A vision-language model's vision tower (hr-params-vision.c): none (a
 * text model), CLIP's ViT as LLaVA uses it (Hugging Face's
 * CLIPVisionModel), Qwen2-VL's (Qwen2VisionTransformerPretrainedModel) or
 * Llama 3.2 Vision's tiled one (modeling_mllama.py, MllamaVisionModel),
 * whose features the language model's gated cross-attention layers read. */
typedef enum
{
  HR_VISION_NONE,
  HR_VISION_CLIP,
  HR_VISION_QWEN2_VL,
  HR_VISION_MLLAMA,
  HR_N_VISIONS
} HrVision;

/* What carries the vision tower's features into the language model:
 * LLaVA's two linear layers with a GELU between (mlp2x_gelu,
 * LlavaMultiModalProjector), Qwen2-VL's patch merger (PatchMerger: a
 * LayerNorm, spatial_merge_size² patches concatenated, two linears) or
 * one biased linear (Llama 3.2 Vision's multi_modal_projector). */
typedef enum
{
  HR_PROJECTOR_NONE,
  HR_PROJECTOR_MLP2X_GELU,
  HR_PROJECTOR_PATCH_MERGER,
  HR_PROJECTOR_LINEAR,
  HR_N_PROJECTORS
} HrProjector;

typedef enum
{
  HR_MLP_SWIGLU,
  HR_MLP_GEGLU,
  HR_MLP_GELU,
  HR_MLP_RELU,
  HR_MLP_RELU2,      /* squared ReLU (Nemotron-H's relu2) */
  HR_N_MLPS
} HrMlp;

typedef enum
{
  HR_NORM_RMSNORM,
  HR_NORM_LAYERNORM,
  HR_N_NORMS
} HrNorm;

typedef enum
{
  HR_BIAS_NONE,
  HR_BIAS_QKV,
  HR_BIAS_ALL,
  HR_BIAS_ALL_BUT_K,            /* Whisper: every linear layer but k_proj */
  HR_N_BIASES
} HrBias;

typedef enum
{
  HR_HEAD_LM,
  HR_HEAD_CLASSIFIER,
  HR_N_HEADS
} HrHead;

/* Per-head RMSNorm on Q and K (Qwen3), or over the whole projections (OLMo 2). */
typedef enum
{
  HR_QK_NORM_NONE,
  HR_QK_NORM_HEAD,
  HR_QK_NORM_FULL,
  HR_N_QK_NORMS
} HrQkNorm;

/* Extension: the attention's shape.  Standard: Q, K, V and O of heads x
 * head_dim (MHA, GQA, MQA); mla: DeepSeek-V2's multi-head latent attention
 * (K and V through a compressed latent, a decoupled rope key). */
typedef enum
{
  HR_ATTN_KIND_STANDARD,
  HR_ATTN_KIND_MLA,
  HR_N_ATTN_KINDS
} HrAttnKind;

typedef enum
{
  HR_METHOD_FULL,
  HR_METHOD_LORA,
  HR_METHOD_QLORA,
  HR_N_METHODS
} HrMethod;

typedef enum
{
  HR_QUANT_NF4,
  HR_QUANT_NF4_DQ,
  HR_QUANT_INT8,
  HR_QUANT_INT4,
  HR_N_QUANTS
} HrQuant;

typedef enum
{
  HR_PRECISION_FP32,
  HR_PRECISION_AMP_BF16,
  HR_PRECISION_AMP_FP16,
  HR_PRECISION_BF16_MIXED,
  HR_PRECISION_FP16_MIXED,
  HR_PRECISION_BF16_TRUE,
  HR_PRECISION_FP8_MIXED,
  HR_N_PRECISIONS
} HrPrecision;

typedef enum
{
  HR_DTYPE_FP32,
  HR_DTYPE_BF16,
  HR_DTYPE_FP16,
  HR_DTYPE_FP8,
  HR_DTYPE_NONE,
  HR_N_DTYPES
} HrDtype;

typedef enum
{
  HR_OPTIMIZER_ADAMW,
  HR_OPTIMIZER_ADAM,
  HR_OPTIMIZER_SGD,
  HR_OPTIMIZER_SGD_MOMENTUM,
  HR_OPTIMIZER_ADAFACTOR,
  HR_OPTIMIZER_LION,
  HR_OPTIMIZER_ADAMW_8BIT,
  HR_OPTIMIZER_PAGED_ADAMW,
  HR_OPTIMIZER_PAGED_ADAMW_8BIT,
  HR_OPTIMIZER_MUON,
  HR_OPTIMIZER_GALORE_ADAMW,
  HR_N_OPTIMIZERS
} HrOptimizer;

/* How the optimizer step is run: PyTorch's default multi-tensor "foreach"
 * path makes full-size temporaries, the fused kernels (DeepSpeed, Megatron,
 * fused=True) make none, the per-parameter loop one parameter's worth. */
typedef enum
{
  HR_OPTIMIZER_IMPL_FOREACH,
  HR_OPTIMIZER_IMPL_FUSED,
  HR_OPTIMIZER_IMPL_LOOP,
  HR_N_OPTIMIZER_IMPLS
} HrOptimizerImpl;

typedef enum
{
  HR_CHECKPOINTING_NONE,
  HR_CHECKPOINTING_SELECTIVE,
  HR_CHECKPOINTING_FULL,
  HR_CHECKPOINTING_OP,          /* contract 1.1: torchtitan's per-op selective */
  HR_N_CHECKPOINTINGS
} HrCheckpointing;

typedef enum
{
  HR_ATTENTION_FLASH,   /* FlashAttention-2: output + log-sum-exp, grouped K/V */
  HR_ATTENTION_EAGER,   /* s x s scores; K/V repeated to every head */
  HR_ATTENTION_SDPA,    /* PyTorch SDPA kernels: like flash, K/V repeated */
  HR_N_ATTENTIONS
} HrAttention;

/* standard: the whole logits tensor and its loss at once; chunked: the
 * head and the loss run chunk by chunk (LitGPT, torchtune), so no full-size
 * loss temporary exists; fused: a fused linear + cross-entropy kernel (Liger)
 * that never holds the logits at all. */
typedef enum
{
  HR_LOSS_STANDARD,
  HR_LOSS_CHUNKED,
  HR_LOSS_FUSED,
  HR_LOSS_VOCAB_PARALLEL,   /* Megatron's cross-entropy: one fp32 softmax, backward in place */
  HR_LOSS_LOSS_PARALLEL,    /* PyTorch's loss_parallel over vocabulary-sharded logits (torchtitan) */
  HR_LOSS_VOCAB_PARALLEL_FUSED, /* Megatron's --cross-entropy-loss-fusion: its steps compiled */
  HR_N_LOSSES
} HrLoss;

/* Where ZeRO-Offload puts what leaves the GPU: host memory, or an NVMe
 * drive (ZeRO-Infinity), which takes no host RAM for it either. */
typedef enum
{
  HR_OFFLOAD_DEVICE_CPU,
  HR_OFFLOAD_DEVICE_NVME,
  HR_N_OFFLOAD_DEVICES
} HrOffloadDevice;

/* The pipeline schedule (parallel.schedule): 1F1B (interleaved when
 * vpp > 1), zero bubble's ZB-H1 and ZB-H2 (Qi et al. 2023), DeepSeek-V3's
 * DualPipe. */
typedef enum
{
  HR_SCHEDULE_1F1B,
  HR_SCHEDULE_INTERLEAVED,
  HR_SCHEDULE_ZB_H1,
  HR_SCHEDULE_ZB_H2,
  HR_SCHEDULE_DUALPIPE,
  HR_N_SCHEDULES
} HrSchedule;

/* Whose fp8 training: Transformer Engine keeps fp8 copies of the weights
 * (per-tensor scaled on Hopper; MXFP8 block scaled on Blackwell, 1 scale
 * byte per 32 values, hr-fp8.h); torchao's Float8Linear casts them for
 * each matmul and keeps none. */
typedef enum
{
  HR_FP8_RECIPE_TE,
  HR_FP8_RECIPE_TORCHAO,
  HR_FP8_RECIPE_TE_MXFP8,
  HR_N_FP8_RECIPES
} HrFp8Recipe;

/* Extension: how FSDP2 groups the parameters outside the blocks. */
typedef enum
{
  HR_FSDP_UNITS_SEPARATE,  /* the embeddings a unit, the final norm and head another */
  HR_FSDP_UNITS_ROOT,      /* both in the root unit, gathered for the whole step */
  HR_N_FSDP_UNITS
} HrFsdpUnits;

/* What a pipeline's runtime keeps beside the layers' saved tensors
 * (hr-calc-pipeline.c). */
typedef enum
{
  HR_PP_BUFFERS_NONE,           /* nothing planned beyond the layers */
  HR_PP_BUFFERS_TORCH,          /* torch.distributed.pipelining, outputs not returned */
  HR_PP_BUFFERS_TORCH_OUTPUTS,  /* and the last stage's outputs returned by step() */
  HR_N_PP_BUFFERS
} HrPpBuffers;

typedef enum
{
  HR_CATEGORY_PARAMETERS,
  HR_CATEGORY_GRADIENTS,
  HR_CATEGORY_OPTIMIZER,
  HR_CATEGORY_ACTIVATIONS,
  HR_CATEGORY_OVERHEAD,
  HR_N_CATEGORIES
} HrCategory;

typedef enum
{
  HR_STATUS_OK,
  HR_STATUS_TIGHT,
  HR_STATUS_OOM,
  HR_N_STATUSES
} HrStatus;

/* LoRA targets, as a bit set. */
typedef enum
{
  HR_LORA_Q       = 1 << 0,
  HR_LORA_K       = 1 << 1,
  HR_LORA_V       = 1 << 2,
  HR_LORA_O       = 1 << 3,
  HR_LORA_GATE    = 1 << 4,
  HR_LORA_UP      = 1 << 5,
  HR_LORA_DOWN    = 1 << 6,
  HR_LORA_LM_HEAD = 1 << 7,
  HR_LORA_IN_PROJ = 1 << 8,   /* a Mamba block's in_proj */
  HR_LORA_X_PROJ  = 1 << 9,   /* ... its x_proj (Jamba's Mamba layers) */
  HR_LORA_OUT_PROJ = 1 << 10, /* ... its out_proj (Jamba's Mamba layers) */
  HR_LORA_EMBED   = 1 << 11,  /* the token table (PEFT's lora.Embedding) */
} HrLoraTarget;

/* The targets inside a Mamba block. */
#define HR_LORA_SSM (HR_LORA_IN_PROJ | HR_LORA_X_PROJ | HR_LORA_OUT_PROJ)

#define HR_LORA_ALL_LINEAR (HR_LORA_Q | HR_LORA_K | HR_LORA_V | HR_LORA_O | \
                            HR_LORA_GATE | HR_LORA_UP | HR_LORA_DOWN)
#define HR_N_LORA_TARGETS 12

/* A table of the names of one enum, in enum order: a packed array of
 * strings, or (stride > 0) the name members of an array of rows, such as
 * hr_optimizers; labels, when given, are how the window shows them. */
typedef struct
{
  const char * const *names;
  guint               n_names;
  gsize               stride;   /* bytes from one name to the next; 0: packed */
  const char * const *labels;   /* N_() display names, same stride, or NULL */
} HrEnumNames;

const char *hr_enum_label       (const HrEnumNames *table,
                                 guint              value);

extern const HrEnumNames hr_kind_names;
extern const HrEnumNames hr_ssm_names;
extern const HrEnumNames hr_vision_names;
extern const HrEnumNames hr_projector_names;
extern const HrEnumNames hr_mlp_names;
extern const HrEnumNames hr_norm_names;
extern const HrEnumNames hr_bias_names;
extern const HrEnumNames hr_head_names;
extern const HrEnumNames hr_qk_norm_names;
extern const HrEnumNames hr_attn_kind_names;
extern const HrEnumNames hr_method_names;
extern const HrEnumNames hr_quant_names;
extern const HrEnumNames hr_precision_names;
extern const HrEnumNames hr_dtype_names;
extern const HrEnumNames hr_optimizer_names;
extern const HrEnumNames hr_optimizer_impl_names;
extern const HrEnumNames hr_checkpointing_names;
extern const HrEnumNames hr_attention_names;
extern const HrEnumNames hr_loss_names;
extern const HrEnumNames hr_offload_device_names;
extern const HrEnumNames hr_schedule_names;
extern const HrEnumNames hr_fp8_recipe_names;
extern const HrEnumNames hr_fsdp_units_names;
extern const HrEnumNames hr_pp_buffers_names;
extern const HrEnumNames hr_category_names;
extern const HrEnumNames hr_status_names;
extern const HrEnumNames hr_lora_target_names;

gboolean     hr_enum_parse        (const HrEnumNames *table,
                                   const char        *name,
                                   guint             *out_value);
const char  *hr_enum_name         (const HrEnumNames *table,
                                   guint              value);
char        *hr_enum_allowed      (const HrEnumNames *table);

guint        hr_dtype_bytes_x8    (HrDtype dtype);
double       hr_dtype_bytes       (HrDtype dtype);

G_END_DECLS
