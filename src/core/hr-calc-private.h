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
typedef struct
{
  const HrScenario   *sc;
  HrParamCounts       counts;       /* per TP/EP rank */
  HrLayerActivations  layer_act;    /* an encoder-decoder's: both stacks averaged */
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
} Ctx;

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
/* hr-calc-seq2seq.c: an encoder-decoder model's layers and what its two
 * stacks keep besides them. */
void hr_calc_seq2seq_layers  (Ctx        *ctx);
void hr_calc_add_seq2seq     (Ctx        *ctx,
                              HrDevice   *dev);

G_END_DECLS
