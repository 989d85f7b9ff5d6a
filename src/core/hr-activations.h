/* hr-activations.h: the tensors one layer saves for its backward pass
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  const char *formula;
  double      bytes;
} HrSavedTensor;

#define HR_MAX_SAVED 40   /* an encoder-decoder's decoder layer lists 16, a hybrid's
                            * average of its layer kinds up to about 30 under LoRA */

/* One layer, one micro-batch, on one tensor/context-parallel rank. */
typedef struct
{
  guint         n;
  HrSavedTensor saved[HR_MAX_SAVED];
  double        total;        /* what the layer keeps without recompute */
  double        checkpoint;   /* what it keeps with full recompute */
  double        op_saved;     /* what it keeps with per-op checkpointing (its input too) */
  double        op_only;      /* of op_saved, outputs autograd itself keeps nowhere */
  double        op_recomputed_flops; /* share of the layer's matmul FLOPs it runs again */
  double        recomputed;   /* what selective recompute rebuilds in backward */
  double        matmul4_inputs; /* of it, the inputs bitsandbytes' 4-bit matmuls
                                 * hold outside autograd's saved tensors */
  double        backward_work;  /* gradients of activations its backward holds at once */
  double        backward_attn_work; /* ... at its attention, after the MLP's */
  double        mlp_saved;      /* of total, what its MLP keeps */
  guint         mlp_first;      /* saved[mlp_first] on: the MLP's and the adapters' */
  double        mlp_weights;    /* elements of the MLP's weights that train */
  double        attn_out_weights; /* ... of the attention's output projection:
                                   * its gradient, too, exists when the
                                   * attention's own backward runs */
  double        qkv_weights;    /* ... of Q, K and V (0 where not plain linears) */
  double        qkv_done_linear; /* elements of the linear weights whose
                                  * backward is done by the last of Q, K and
                                  * V's: autocast's casts of them are freed */
  double        qkv_work;       /* what the layer holds when Q, K and V's
                                 * weight gradients are made: the attention's
                                 * input and the gradients flowing into it */
  double        mlp_linear;     /* elements of the MLP's linear weights */
  double        backward_weight; /* elements of the weight whose gradient it makes
                                  * first (the MLP's down projection), 0 if frozen */
  double        uncast_weights; /* elements of the linear weights whose input needs
                                 * no gradient (a first layer's): autocast's casts
                                 * of them are not kept */
  double        mlp_uncast;     /* ... of them, the MLP's */
} HrLayerActivations;

void    hr_activations_layer          (const HrScenario   *scenario,
                                       HrLayerActivations *out);
/* The model's first layer: the same but when its input needs no
 * gradient (hr_activations_input_grad: frozen embeddings without full
 * checkpointing or an adapter on them), where it keeps less. */
void    hr_activations_first_layer    (const HrScenario   *scenario,
                                       HrLayerActivations *out);
void    hr_activations_layer_16bit_residual (const HrScenario   *scenario,
                                             HrLayerActivations *out);
gboolean hr_activations_input_grad    (const HrScenario   *scenario);
/* How many of a device's n_layers full checkpointing wraps: all of them,
 * or with training.checkpoint_every = N the N-th, 2N-th, ... (counted from
 * 1, so the last is wrapped when N divides n_layers); none without it. */
guint64 hr_activations_checkpointed   (const HrScenario   *scenario,
                                       guint64             n_layers);
/* ... and how many run inside a checkpoint of either kind, full or per op
 * (whose graphs keep no weight casts). */
guint64 hr_activations_wrapped        (const HrScenario   *scenario,
                                       guint64             n_layers);

double  hr_activations_norm_bytes     (const HrScenario   *scenario);

/* A layer's saved tensor by its name: its index (-1 when none), its bytes
 * (0 when none). */
int     hr_layer_find_saved           (const HrLayerActivations *la,
                                       const char         *name);
double  hr_layer_saved_bytes          (const HrLayerActivations *la,
                                       const char         *name);

/* An encoder-decoder model's layers (hr-activations-seq2seq.c): an
 * encoder layer over the source, a decoder layer over the target with its
 * cross-attention, and one layer that stands for both stacks' sum. */
gboolean hr_activations_fp32_softmax  (const HrScenario   *scenario);
void    hr_activations_encoder_layer  (const HrScenario   *scenario,
                                       HrLayerActivations *out);
void    hr_activations_decoder_layer  (const HrScenario   *scenario,
                                       HrLayerActivations *out);
void    hr_activations_stack_average  (const HrLayerActivations *encoder,
                                       guint64                   encoder_layers,
                                       const HrLayerActivations *decoder,
                                       guint64                   decoder_layers,
                                       HrLayerActivations       *out);

/* A state-space or hybrid model's layers (hr-activations-ssm.c): one that
 * stands for the average of its kinds, and its first and last layers. */
/* Each kind of layer a pattern has: [HrLayerMixer][HrLayerMlp]. */
typedef struct
{
  HrLayerActivations kind[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  gboolean           has[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS];
  /* the first layer and the unadapted ones before the first adapted
   * (LoRA), summed as any layers of their kinds */
  HrLayerActivations lead;
} HrPatternKinds;

/* A pattern's block of a norm and the attention alone (a plain
 * transformer's scenario, its adapters the attention's). */
void    hr_activations_attention_block (const HrScenario   *scenario,
                                        gboolean            input_grad,
                                        HrLayerActivations *out);
void    hr_activations_pattern_kinds  (const HrScenario   *scenario,
                                       HrPatternKinds     *out);
/* The average of count[a][x] layers of each kind, the kind of the last
 * layer (the backward's start) last. */
void    hr_activations_pattern_average (const HrPatternKinds *kinds,
                                        const guint64         count[HR_N_LAYER_MIXERS][HR_N_LAYER_MLPS],
                                        guint                 last_mixer,
                                        guint                 last_mlp,
                                        HrLayerActivations   *out);
void    hr_activations_pattern_layer  (const HrScenario   *scenario,
                                       HrLayerActivations *out,
                                       HrLayerActivations *first,
                                       HrLayerActivations *last);
/* ... and its first layer (of layer 0's kind), its input needing a
 * gradient or not (LoRA: hr_activations_first_layer). */
void    hr_activations_pattern_first_layer (const HrScenario   *scenario,
                                            HrLayerActivations *out);

/* Llama 3.2 Vision's gated cross-attention layer over the text, its keys
 * and values the images' (hr-activations-mllama.c). */
void    hr_activations_cross_layer    (const HrScenario   *scenario,
                                       HrLayerActivations *out);

/* hr-activations-vision.c: a vision tower's saved activations per
 * micro-batch (its trained layers up to the feature layer; OUT_LAYER one
 * layer's without recompute), and its projector's. */
gboolean hr_activations_vision_trains (const HrScenario *scenario);
double  hr_activations_vision_tower   (const HrScenario   *scenario,
                                       double             *out_layer);
double  hr_activations_projector      (const HrScenario   *scenario);

/* ... under parallel.schedule: zero bubble's and DualPipe's too. */
double  hr_pipeline_schedule_units    (HrSchedule          schedule,
                                       guint64             pp,
                                       guint64             vpp,
                                       guint64             micro_batches,
                                       guint64             stage,
                                       guint64             stage_layers);
double  hr_pipeline_layer_units       (guint64             pp,
                                       guint64             vpp,
                                       guint64             micro_batches,
                                       guint64             stage,
                                       guint64             stage_layers);

G_END_DECLS
