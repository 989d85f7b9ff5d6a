/* hr-calc-private.h: what the calculation's files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-activations.h"
#include "hr-calc.h"
#include "hr-params.h"

G_BEGIN_DECLS

/* What every stage shares, computed once per plan. */
/* Which of DeepSeek's layers a stage's layer_act stands for: a mix of
 * dense first and MoE layers is averaged anew; one kind is a copy
 * (hr-calc-deepseek.c), kept while the next stage has the same. */
typedef enum
{
  HR_DEEPSEEK_MIX,
  HR_DEEPSEEK_MOE,
  HR_DEEPSEEK_DENSE
} HrDeepseekLayer;

typedef struct
{
  const HrScenario   *sc;
  HrParamCounts       counts;       /* per TP/EP rank */
  HrLayerActivations  layer_act;    /* an encoder-decoder's: both stacks averaged;
                                     * DeepSeek's: the stage's dense and MoE layers */
  HrLayerActivations  moe_act;      /* DeepSeek: an MoE layer's and a dense first */
  HrLayerActivations  dense_act;    /* layer's, made once per plan (deepseek_ready);
                                     * Llama 3.2 Vision: its self-attention layer's */
  HrLayerActivations  mtp_act;      /* DeepSeek: a prediction module's layer, its
                                     * residual 16-bit under autocast (made with
                                     * deepseek_ready when mtp_modules > 0) */
  gboolean            deepseek_ready;
  HrDeepseekLayer     deepseek_held;  /* which layer layer_act holds */
  const HrLayerActivations *first_act; /* the stage's first layer's when it differs
                                        * (DeepSeek's dense one), else NULL */
  double              first_total;  /* the first layer's saved tensors (freed last) */
  double              last_recompute; /* what recomputing the last layer rebuilds */
  double              shard;        /* ZeRO/FSDP degree for dense params */
  double              shard_expert; /* ... and for expert params */
  /* Bytes per element of each part's data type (training.dtypes). */
  double              weight_bytes;
  double              grad_bytes;
  double              master_bytes;
  double              state_dtype_bytes;  /* one optimizer state element */
  double              act_bytes;
  double              quant_bytes;
  double              tokens;       /* b·s/c on one rank (an encoder-decoder's
                                     * decoder: b·s_t, which the head sees) */
  gboolean            lora;
  gboolean            accumulating; /* gradients live across micro-batches */
  double              host_bytes;   /* offloaded per rank */
  double              too_big;      /* largest device total, for the check */
  const HrPatternKinds *pattern;    /* a hybrid's kinds of layer (hr_model_mixed_layers) */
  double              galore_states;     /* GaLore: one layer's projected states */
  double              galore_projection; /* ... and projection matrices (elements) */
  double              galore_dense_states;     /* DeepSeek's dense first layer's */
  double              galore_dense_projection;
  double              galore_cross_states;     /* an encoder-decoder's decoder layer's */
  double              galore_cross_projection; /* cross-attention, beyond that */
} Ctx;

/* Plans larger than this per GPU (1 PiB) are refused rather than rounded:
 * below it every item, every sum of up to HR_MAX_ITEMS items and every
 * figure derived in double stays an exact whole number (under 2^53), so
 * the categories add up to the total to the byte. */
#define MAX_DEVICE_BYTES 1125899906842624.0

/* Parameters of one stage, per rank, split into dense and expert parts
 * because ZeRO shards experts over the expert-data-parallel group. */
typedef struct
{
  double dense;
  double experts;
  double layer;        /* one layer: what ZeRO-3 gathers at a time */
  double outside;      /* embeddings, head, final norm: FSDP's root unit */
  double head_weight;  /* the LM head's matrix on the last stage, tied or not */
  double linear;       /* quantizable (QLoRA) */
  double small;        /* norms and biases: tensors of a few thousand elements */
  double matrices;     /* the layers' 2-D weights (Muon's; linear without a
                        * quantized LM head) */
  double galore_states;     /* GaLore's states of those matrices, in elements */
  double galore_projection; /* ... and their projection matrices */
  double lora;         /* trainable adapters */
  double adafactor;
  double frozen;       /* of outside, weights that do not train (Whisper's
                        * sinusoidal encoder positions, on the first stage) */
  /* The parts the breakdown names (hr-calc-parts.c): of dense, the shared
   * experts and an encoder-decoder's two stacks (without their routed
   * experts, which are experts above), and Zamba2's shared blocks. */
  double shared;
  double encoder;
  double decoder;
  double shared_blocks;
} StageParams;

/* DeepSpeed's zero_optimization sizes are the scenario's (parallel.
 * reduce_bucket_size and the stage3_ ones, at DeepSpeed's defaults unless
 * set: deepspeed/runtime/zero/config.py, DeepSpeedZeroConfig).
 * allgather_bucket_size (5e8) allocates nothing: ZeRO-1/2 gather the
 * updated partitions straight into the flat 16-bit buffer
 * (deepspeed/runtime/utils.py, all_gather_dp_groups, which calls
 * all_gather_into_tensor_dp_groups, or gathers into views of it). */

/* Whether the GPUs of pipeline stage STAGE hold the model's first (the
 * embedding) or last (the head and loss) layers: DualPipe's GPU i holds
 * stages i and pp - 1 - i (deepseek-ai/DualPipe, DualPipe.step: the first
 * and last ranks both take inputs and labels). */
static inline gboolean
hr_calc_holds_first (const HrScenario *sc,
                     guint64           stage)
{
  return stage == 0
         || (sc->parallel.schedule == HR_SCHEDULE_DUALPIPE && stage + 1 == sc->parallel.pp);
}

static inline gboolean
hr_calc_holds_last (const HrScenario *sc,
                    guint64           stage)
{
  return stage + 1 == sc->parallel.pp
         || (sc->parallel.schedule == HR_SCHEDULE_DUALPIPE && stage == 0);
}

/* Whether the DeepSpeed engine runs the sharding (ZeRO-1 to 3). */
static inline gboolean
hr_calc_deepspeed_engine (const HrParallel *p)
{
  return p->deepspeed && p->zero >= 1;
}

/* Of a vision-language model's tower and projector (on the first stage),
 * the parameters full training gives a gradient: the projector's, and the
 * tower's unless it is frozen, less what no loss reaches where the
 * optimizer holds each parameter and its .grad apart (one GPU, DDP;
 * ZeRO's and FSDP's flat partitions hold them like the rest:
 * hr_params_vision_unreached). */
static inline double
hr_calc_vision_trained (const HrScenario    *sc,
                        const HrParamCounts *c)
{
  const HrParallel *p = &sc->parallel;

  if (sc->training.freeze_vision)
    return (double) c->projector;
  return (double) (c->vision + c->projector)
         - (p->zero == 0 && !p->deepspeed ? (double) c->vision_unreached : 0.0);
}

/* The adapters of the largest layer: DeepSeek's dense first layers adapt
 * the dense MLP, its other layers the experts (hr-params.c; 0 where none
 * is dense). */
static inline double
hr_calc_layer_lora_max (const HrParamCounts *c)
{
  return (double) MAX (c->layer_lora, c->dense_first_lora);
}

/* hr-calc-states.c: one stage's parameters, and its model states. */
void   hr_calc_stage_params             (const Ctx         *ctx,
                                         const HrDevice    *dev,
                                         StageParams       *sp);
double hr_calc_sharded                  (const Ctx         *ctx,
                                         const StageParams *sp,
                                         gboolean           on);
/* hr-calc-optimizer.c: the master copy, states and step scratch of the
 * TRAINABLE parameters, TRAINABLE_HERE of them on this GPU. */
void   hr_calc_add_optimizer            (Ctx               *ctx,
                                         HrDevice          *dev,
                                         const StageParams *sp,
                                         double             trainable,
                                         double             trainable_here);
/* hr-calc-parts.c: an item of the model's states (weights, gradients,
 * master weights, optimizer states), split into the parts the breakdown
 * names where the stage has them, else as one item. */
typedef enum
{
  HR_STATE_WEIGHTS,
  HR_STATE_GRADIENTS,
  HR_STATE_MASTER,
  HR_STATE_OPTIMIZER,
  HR_N_STATES          /* (as a kind: a state that is not a parameter's own, one item) */
} HrStateKind;

void   hr_calc_add_state_item           (Ctx               *ctx,
                                         HrDevice          *dev,
                                         const StageParams *sp,
                                         HrStateKind        kind,
                                         gboolean           sharded,
                                         double             bytes_per_param,
                                         HrCategory         category,
                                         HrPool             pool,
                                         HrDtype            dtype,
                                         guint              live,
                                         const char        *name,
                                         const char        *formula,
                                         const char        *why,
                                         double             bytes);
void   hr_calc_add_model_states         (Ctx               *ctx,
                                         HrDevice          *dev,
                                         const StageParams *sp);
/* hr-calc-gathered.c: what ZeRO-3 and FSDP gather;
 * hr-calc-ds-gradients.c: DeepSpeed's gradient buffers and copies. */
void   hr_calc_add_gathered_weights     (Ctx               *ctx,
                                         HrDevice          *dev,
                                         const StageParams *sp);
void   hr_calc_add_fsdp_cached          (Ctx               *ctx,
                                         HrDevice          *dev,
                                         const StageParams *sp,
                                         double             sharded_grads,
                                         guint              grads_live,
                                         double             rs_input_bytes);
void   hr_calc_add_deepspeed_gradients  (Ctx               *ctx,
                                         HrDevice          *dev,
                                         const StageParams *sp,
                                         double             trainable,
                                         double             partition);

void hr_calc_add_item        (Ctx        *ctx,
                              HrDevice   *dev,
                              HrCategory  category,
                              HrPool      pool,
                              HrDtype     dtype,
                              guint       live,
                              const char *name,
                              const char *formula,
                              const char *why,
                              double      bytes);
void hr_calc_add_activations (Ctx        *ctx,
                              HrDevice   *dev,
                              guint64     stage);
/* hr-calc-loss.c: the last stage's final norm, output layer and loss. */
void hr_calc_add_head_and_loss (Ctx        *ctx,
                                HrDevice   *dev,
                                double      heads);
/* hr-calc-pipeline.c: what the pipeline's runtime keeps on a stage. */
void hr_calc_add_pipeline_buffers (Ctx      *ctx,
                                   HrDevice *dev,
                                   double    in_flight);
/* A hybrid's layers on a stage, by kind [HrLayerMixer][HrLayerMlp]
 * (hr-calc-states.c), and one layer's saved tensors standing for them
 * (hr-calc.c). */
typedef struct
{
  guint64 count[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  guint   first_mixer, first_mlp;
  guint   last_mixer, last_mlp;
} HrStageKinds;

void hr_calc_stage_kinds     (const HrScenario *sc,
                              const HrDevice   *dev,
                              HrStageKinds     *out);

/* DeepSeek's dense first layers on a stage (hr-calc.c), and one layer's
 * saved tensors standing for the stage's dense and MoE layers
 * (hr-calc-deepseek.c). */
guint64 hr_calc_dense_first_on_stage (const HrScenario *sc,
                                      guint64           stage,
                                      guint64           first_layer,
                                      guint64           n_layers);
void hr_calc_deepseek_dense_scenario (const HrScenario *sc,
                                      HrScenario       *out);
void hr_calc_deepseek_layers (Ctx            *ctx,
                              const HrDevice *dev);
void hr_calc_add_mtp         (Ctx            *ctx,
                              HrDevice       *dev);
/* hr-calc-seq2seq.c: an encoder-decoder model's layers and what its two
 * stacks keep besides them. */
void hr_calc_seq2seq_layers  (Ctx        *ctx);
void hr_calc_add_seq2seq     (Ctx        *ctx,
                              HrDevice   *dev);
/* hr-calc-vision.c: a vision-language model's tower and projector, on
 * the first stage; FIRST_END the language model's first layer's moment at
 * the backward's end, which a recomputed tower layer follows. */
void hr_calc_add_vision      (Ctx        *ctx,
                              HrDevice   *dev,
                              double      first_end);
/* hr-calc-mllama.c: Llama 3.2 Vision's two kinds of layer, and what its
 * cross-attention layers and tiled tower keep besides them. */
void hr_calc_mllama_layers   (Ctx        *ctx);
void hr_calc_add_mllama      (Ctx        *ctx,
                              HrDevice   *dev);

G_END_DECLS
