/* hr-calc-parts.c: the model's states split into the parts a user knows
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A mixture-of-experts model's weights are mostly its routed experts, a
 * DeepSeek model's have a shared expert beside them, an encoder-decoder
 * model's are two stacks: the breakdown names these parts (issue 15's
 * "vision tower, encoder, decoder, experts, shared expert"; and Zamba2's
 * shared blocks, which every hybrid layer uses) instead of one
 * "weights" line, and the same for their gradients, master weights and
 * optimizer states.  Each part is the stage's parameters of that part on
 * this GPU, sharded as the item is (the routed experts over the expert-
 * data-parallel group, ZeRO's shard_expert; the rest over ZeRO's shard),
 * times the item's bytes per parameter.  What no part holds (attention and
 * norms of a MoE layer, the router, embeddings, the head) stays in the item
 * under its own name, so a dense model's items are as they were, and the
 * parts and the rest add up to the item's bytes exactly: the rest is the
 * item's bytes, rounded, less the parts', rounded.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>

typedef enum
{
  PART_EXPERTS,
  PART_SHARED,
  PART_ENCODER,
  PART_DECODER,
  PART_SHARED_BLOCKS,
  N_PARTS
} Part;

typedef struct
{
  const char *name;
  const char *formula;
} PartLabel;

/* [state][part]: the item's name and formula for each part. */
static const PartLabel part_labels[HR_N_STATES][N_PARTS] = {
  [HR_STATE_WEIGHTS] = {
    { N_("expert weights"), "P_experts·bytes (/ N_expert under ZeRO-3)" },
    { N_("shared-expert weights"), "P_shared·bytes (/ N under ZeRO-3)" },
    { N_("encoder weights"), "P_encoder·bytes (/ N under ZeRO-3)" },
    { N_("decoder weights"), "P_decoder·bytes (/ N under ZeRO-3)" },
    { N_("shared-block weights"), "P_shared blocks·bytes" },
  },
  [HR_STATE_GRADIENTS] = {
    { N_("expert gradients"), "P_experts·bytes (/ N_expert under ZeRO-2/3)" },
    { N_("shared-expert gradients"), "P_shared·bytes (/ N under ZeRO-2/3)" },
    { N_("encoder gradients"), "P_encoder·bytes (/ N under ZeRO-2/3)" },
    { N_("decoder gradients"), "P_decoder·bytes (/ N under ZeRO-2/3)" },
    { N_("shared-block gradients"), "P_shared blocks·bytes" },
  },
  [HR_STATE_MASTER] = {
    { N_("expert master weights"), "P_experts·bytes (/ N_expert under ZeRO-1+)" },
    { N_("shared-expert master weights"), "P_shared·bytes (/ N under ZeRO-1+)" },
    { N_("encoder master weights"), "P_encoder·bytes (/ N under ZeRO-1+)" },
    { N_("decoder master weights"), "P_decoder·bytes (/ N under ZeRO-1+)" },
    { N_("shared-block master weights"), "P_shared blocks·bytes (/ N under ZeRO-1)" },
  },
  [HR_STATE_OPTIMIZER] = {
    { N_("expert optimizer states"), "P_experts·state bytes (/ N_expert under ZeRO-1+)" },
    { N_("shared-expert optimizer states"), "P_shared·state bytes (/ N under ZeRO-1+)" },
    { N_("encoder optimizer states"), "P_encoder·state bytes (/ N under ZeRO-1+)" },
    { N_("decoder optimizer states"), "P_decoder·state bytes (/ N under ZeRO-1+)" },
    { N_("shared-block optimizer states"), "P_shared blocks·state bytes (/ N under ZeRO-1)" },
  },
};

/* One plain sentence for each part, whatever the state. */
static const char * const part_why[N_PARTS] = {
  N_("The routed experts' share: each token passes through only a few of them."),
  N_("The shared expert, which every token passes through."),
  N_("The encoder's layers, which read the input."),
  N_("The decoder's layers, which write the output, with their cross-attention."),
  N_("The shared transformer blocks, whose weights every hybrid layer uses."),
};

void
hr_calc_add_state_item (Ctx               *ctx,
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
                        double             bytes)
{
  double here[N_PARTS], part_bytes[N_PARTS], shard, rest;

  /* Only a full model's states have parts (LoRA trains adapters); an
   * item too large to plan stays whole, for the refusal to name it.  A
   * dense decoder, the common case, leaves here at once. */
  if ((sp->experts == 0 && sp->shared == 0 && sp->encoder == 0 && sp->decoder == 0
       && sp->shared_blocks == 0)
      || kind >= HR_N_STATES || ctx->lora || !(bytes < MAX_DEVICE_BYTES))
    {
      hr_calc_add_item (ctx, dev, category, pool, dtype, live, name, formula, why, bytes);
      return;
    }
  shard = sharded ? ctx->shard : 1.0;
  here[PART_EXPERTS] = sp->experts / (sharded ? ctx->shard_expert : 1.0);
  here[PART_SHARED] = sp->shared / shard;
  here[PART_ENCODER] = sp->encoder / shard;
  here[PART_DECODER] = sp->decoder / shard;
  here[PART_SHARED_BLOCKS] = sp->shared_blocks / shard;
  /* Rounded as hr_calc_add_item rounds (every figure is positive and
   * under MAX_DEVICE_BYTES, so the cast is exact, and cheaper than floor). */
  rest = (double) (gint64) (bytes + 0.5);
  for (guint i = 0; i < N_PARTS; i++)
    {
      part_bytes[i] = (double) (gint64) (here[i] * bytes_per_param + 0.5);
      rest -= part_bytes[i];
    }
  /* (A rest below zero would be parts the item does not hold: a plan
   * whose trainables are not the stage's parameters.  One item, then.) */
  if (rest < 0)
    {
      hr_calc_add_item (ctx, dev, category, pool, dtype, live, name, formula, why, bytes);
      return;
    }
  hr_calc_add_item (ctx, dev, category, pool, dtype, live, name, formula, why, rest);
  for (guint i = 0; i < N_PARTS; i++)
    if (part_bytes[i] > 0)
      hr_calc_add_item (ctx, dev, category, pool, dtype, live, part_labels[kind][i].name,
                        part_labels[kind][i].formula, part_why[i], part_bytes[i]);
}
