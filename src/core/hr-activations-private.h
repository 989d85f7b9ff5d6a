/* hr-activations-private.h: what the activation files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-activations.h"

G_BEGIN_DECLS

/* Lists one saved tensor of the layer (nothing for 0 bytes). */
static inline void
hr_activations_add (HrLayerActivations *out,
                    const char         *name,
                    const char         *formula,
                    double              bytes)
{
  g_assert (out->n < HR_MAX_SAVED);
  if (bytes <= 0)
    return;
  out->saved[out->n++] = (HrSavedTensor) { name, formula, bytes };
  out->total += bytes;
}

/* torch.autocast: fp32 weights computed with in 16 bits. */
static inline gboolean
hr_activations_autocast (const HrTraining *t)
{
  return t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32;
}

/* One layer on this rank: its sizes (T tokens, h wide, a heads of d on
 * this tensor-parallel rank, k K/V heads, f = w routed to each token), the
 * types, and which of its parts need gradients, as layer_shape
 * (hr-activations.c) works them out once for the parts that read it. */
/* Whose code routes a layer's experts, which decides what the routing
 * keeps (hr-activations-blocks.c, add_expert_routing). */
typedef enum
{
  HR_MOE_ROUTER_MODEL,     /* Mixtral's; DeepSeek's where the model has shared experts */
  HR_MOE_ROUTER_NEMOTRON,  /* Nemotron-H's NemotronHMoE (a pattern's E block) */
  HR_MOE_ROUTER_JETMOE,    /* Granite 4.0-H's GraniteMoeMoE, JetMoe's top-k gating
                            * (experts and a shared MLP beside listed mixers,
                            * hr-activations-ssm.c) */
} HrMoeRouter;

typedef struct
{
  const HrScenario  *scenario;
  const HrModelArch *m;
  const HrTraining  *tr;
  const HrParallel  *par;
  double             t;  /* tensor-parallel degree */
  double             c;  /* context-parallel degree */
  double             rep;  /* t for what sequence parallelism splits, else 1 */
  double             ab;  /* bytes per activation element */
  double             lin_in;  /* ... per element of a linear's input it keeps */
  double             te_grad;  /* ... of a linear's quantized output gradient (TE; 0 otherwise) */
  double             h;  /* hidden size */
  double             d;  /* head dimension */
  double             a;  /* query heads on this rank */
  double             k;  /* K/V heads on this rank */
  double             s;  /* sequence length */
  double             b;  /* micro-batch */
  double             T;  /* tokens on this rank, b·s/c */
  gboolean           moe;  /* experts */
  double             routed;  /* experts per token (1 without) */
  double             w;  /* MLP (or expert) width on this rank */
  gboolean           autocast;  /* fp32 weights computed in 16 bits */
  gboolean           lora;  /* adapters (LoRA, QLoRA) */
  double             r;  /* adapter rank */
  guint              attn_in;  /* the adapters that read the attention's input */
  guint              mlp_in;  /* ... and the MLP's */
  gboolean           base_saves;  /* the base linears keep their inputs */
  gboolean           shared_norm;  /* a parallel block's one norm feeds both */
  guint              lt;  /* the adapted linears (0 in full training) */
  gboolean           attn_grad;  /* Q, K, V and the core need gradients */
  gboolean           attn_out_grad;  /* ... the attention output does */
  gboolean           mlp_in_grad;  /* ... the MLP's input does */
  gboolean           mlp_grad;  /* ... its projections do */
  gboolean           mlp_out_grad;  /* ... its output does */
  double             qkv_readers;  /* linears that keep the attention's input */
  double             expert_readers;  /* ... the experts' inputs */
  double             mlp_readers;  /* ... the MLP's input */
  gboolean           input_grad;  /* the layer's input needs a gradient */
  double             kv_T;  /* tokens K and V read: T, or in a cross-attention
                             * layer the images' (hr-activations-mllama.c) */
  HrMoeRouter        moe_router;  /* whose code routes its experts */
  gboolean           residual16;  /* its residual stream is 16-bit under autocast too
                                   * (a DeepSeek prediction module's layer) */
} LayerShape;

static inline gboolean
hr_layer_needs_input (const HrTraining *t,
                      guint             targets)
{
  /* A linear layer saves its input only to compute its weight's gradient:
   * frozen layers need none, unless a LoRA adapter reads the same input;
   * with LoRA dropout the adapter reads its dropped-out copy instead
   * (PEFT's lora.Linear: lora_B(lora_A(dropout(x)))), counted with the
   * adapters.  bitsandbytes' 4-bit matmul (MatMul4Bit.forward) saves its
   * input whenever any input needs a gradient, frozen weight or not. */
  return t->method != HR_METHOD_LORA
         || ((t->lora.targets & targets) != 0 && !(t->lora.dropout > 0));
}

/* Copies of one input its readers keep.  They share the tensor, except
 * under torch.autocast, where each linear layer casts its fp32 input to
 * 16 bits and saves its own cast: autocast caches only the casts of leaf
 * weights (aten/src/ATen/autocast_mode.cpp, cached_cast), so Q, K and V
 * each keep a copy of the norm's output. */
static inline double
hr_layer_input_copies (gboolean autocast,
                       double   readers)
{
  if (readers <= 0)
    return 0;
  return autocast ? readers : 1.0;
}

/* hr-activations.c: a transformer layer (no SSM mixer, no pattern) whose
 * input needs a gradient or not (INPUT_GRAD). */
void hr_activations_layer_with_input (const HrScenario   *scenario,
                                      gboolean            input_grad,
                                      HrLayerActivations *out);
/* ... whose experts, where it has any, ROUTER routes. */
void hr_activations_layer_shaped     (const HrScenario   *scenario,
                                      gboolean            input_grad,
                                      HrMoeRouter         router,
                                      gboolean            residual16,
                                      HrLayerActivations *out);
void hr_activations_layer_with_moe   (const HrScenario   *scenario,
                                      gboolean            input_grad,
                                      HrMoeRouter         router,
                                      HrLayerActivations *out);

/* What the layer's backward holds at its widest point besides the saved
 * tensors (MLA_ATTN_WORK: latent attention's, hr-activations-mla.c), and
 * the frozen weights' casts a first layer keeps (hr-activations-backward.c). */
void hr_activations_add_backward_work  (const LayerShape   *L,
                                        HrLayerActivations *out,
                                        double              mla_attn_work);
void hr_activations_add_uncast_weights (const LayerShape   *L,
                                        HrLayerActivations *out);

/* How many LoRA targets a mask of HR_LORA_* bits names. */
static inline guint
hr_lora_n_targets (guint targets)
{
  return (guint) __builtin_popcount (targets);
}

/* hr-activations-lora.c: the adapters' saved tensors, and what QLoRA's
 * 4-bit matmuls hold outside the graph. */
void hr_activations_adapters         (const LayerShape   *L,
                                      HrLayerActivations *out);
void hr_activations_quantized_inputs (const LayerShape   *L,
                                      HrLayerActivations *out);

/* hr-activations-mla.c: DeepSeek's latent attention (its saved tensors
 * and its backward's gradients) and its shared experts. */
void hr_activations_mla            (const LayerShape   *L,
                                    HrLayerActivations *out,
                                    double             *attn_work);
void hr_activations_shared_experts (const LayerShape   *L,
                                    HrLayerActivations *out);

/* hr-activations-blocks.c: the bytes eager attention's scores keep
 * (for the gradients said to be needed), the attention's and the MLP's
 * saved tensors; *MLA_ATTN_WORK what DeepSeek's latent attention's
 * backward holds. */
double hr_attention_score_bytes (const LayerShape *L,
                                 gboolean          scores_grad,
                                 gboolean          v_grad);
void hr_layer_add_attention (const LayerShape   *L,
                             HrLayerActivations *out,
                             double             *mla_attn_work);
void hr_layer_add_mlp       (const LayerShape   *L,
                             HrLayerActivations *out);

/* hr-activations-mllama.c: a gated cross-attention layer's attention
 * block (Llama 3.2 Vision), its saved tensors and its backward's working
 * set. */
void hr_layer_add_cross_attention (const LayerShape   *L,
                                   HrLayerActivations *out,
                                   double             *attn_work);

/* hr-activations-policy.c: what torch.compile's partitioner and
 * torchtitan's per-op checkpointing keep of a layer. */
void hr_activations_compiled_layer (const LayerShape   *L,
                                    HrLayerActivations *out);
void hr_activations_op_policy      (const LayerShape   *L,
                                    HrLayerActivations *out);

G_END_DECLS
