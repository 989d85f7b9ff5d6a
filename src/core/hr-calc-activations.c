/* hr-calc-activations.c: the activations on one device
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The saved tensors of hr-activations.c, times the layers and micro-batches
 * a pipeline stage holds (or the checkpoints and one recomputed layer), the
 * backward pass's working set, the embeddings' and, on the last stage, the
 * head's and the loss's (hr-calc-loss.c).
 */

#include "hr-calc-private.h"
#include "hr-attentions.h"
#include "hr-losses.h"

#include <glib/gi18n-lib.h>

/* DoRA's weight norm (peft/tuners/lora/dora.py, DoraLinearLayer.forward
 * and get_weight_norm): each adapted layer's forward builds
 * x_eye = torch.eye(d_in) and lora_weight = lora_B(lora_A(x_eye)).T
 * (d_in x r between them, kept by that product's graph until the forward
 * returns), then weight + scaling * lora_weight: the scaled copy and the
 * sum, d_out x d_in each, beside lora_weight; weight.to(x.dtype) copies
 * the weight when its type is not the compute type, and a 4-bit base is
 * dequantized first (dequantize_module_weight).  The norm is detached
 * (§4.3 of the paper), so all of it is freed when the layer's forward
 * returns: one layer at a time, the largest adapted matrix's, in the
 * forward and again in a checkpointed layer's recomputation. */
static void
add_dora_temporaries (Ctx      *ctx,
                      HrDevice *dev,
                      guint64   n_ck)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  const HrParallel *p = &sc->parallel;
  double h = (double) m->hidden;
  double t_ = (double) MAX (p->tp, 1);
  double d = (double) hr_model_head_dim (m);
  double kv = p->tp > 1 ? (double) MAX (m->kv_heads / p->tp, 1) : (double) m->kv_heads;
  double q_out = (double) m->heads / t_ * d;
  double w = (double) (m->experts > 1 ? hr_model_expert_ffn (m) : m->ffn) / t_;
  double r = (double) t->lora.rank;
  guint lt = t->lora.targets;
  /* (d_in, d_out) of each target: Q, K, V, O, gate, up, down */
  double shapes[7][2] = { { h, q_out }, { h, kv * d }, { h, kv * d }, { q_out, h },
                          { h, w }, { h, w }, { w, h } };
  guint bits[7] = { HR_LORA_Q, HR_LORA_K, HR_LORA_V, HR_LORA_O, HR_LORA_GATE, HR_LORA_UP,
                    HR_LORA_DOWN };
  double extra = (t->dtypes.weights != t->dtypes.activations ? 1.0 : 0.0)
                 + (t->method == HR_METHOD_QLORA ? 1.0 : 0.0);
  double most = 0;

  for (guint i = 0; i < 7; i++)
    if ((lt & bits[i]) && (i != 4 || hr_model_gated (m)))
      {
        double in = shapes[i][0], out = shapes[i][1];

        most = MAX (most, in * in + in * r + (3.0 + extra) * in * out);
      }
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE (HR_PHASE_FORWARD) | (n_ck > 0 ? HR_LIVE_BACKWARD : 0),
            N_("DoRA weight norm temporaries (one layer at a time)"),
            "(d_in² + d_in·r + 3·d_in·d_out)·bytes, largest adapted matrix",
            N_("DoRA rebuilds each adapted weight with its update to take its norm, one layer at a time."),
            most * ctx->act_bytes);
}

/* A layer's largest backward moment, beyond the saved tensors of the whole
 * layer (LA->total, counted apart): at its MLP; or, once the MLP's and the
 * output projection's weight gradients outweigh what the MLP saved (and,
 * with DROP_CASTS, autocast's casts of its weights), at its attention; or,
 * once Q, K and V's weight gradients are made too, at those projections,
 * where only the attention's input and its gradients are left
 * (LA->qkv_work).  Weight gradients count here where nothing else counts
 * them yet: PLAIN_GRADS (one step after the pass) and FRESH_GRADS (none
 * before it). */
static double
layer_backward_moment (const Ctx                *ctx,
                       const HrLayerActivations *la,
                       gboolean                  plain_grads,
                       gboolean                  fresh_grads,
                       gboolean                  drop_casts)
{
  double g = ctx->grad_bytes;
  double after_mlp = fresh_grads ? (la->mlp_weights + la->attn_out_weights) * g : 0.0;
  double mlp_casts = drop_casts ? la->mlp_linear * ctx->act_bytes : 0.0;
  double at_mlp = la->backward_work + (plain_grads ? la->backward_weight * g : 0.0);
  double at_attention = after_mlp - la->mlp_saved - mlp_casts + la->backward_attn_work;
  double at_qkv = fresh_grads && la->qkv_weights > 0
                  ? after_mlp + la->qkv_weights * g - la->total + la->qkv_work
                    - (drop_casts ? la->qkv_done_linear * ctx->act_bytes : 0.0)
                  : at_mlp;

  return MAX (MAX (at_mlp, at_attention), at_qkv);
}

/* A hybrid's stage that recomputes nothing: its backward meets each
 * layer with the saved tensors of the layers after it gone, so a block
 * whose backward holds much (a squared-ReLU MLP block) counts less
 * where attention blocks follow it.  The largest of those moments, as if
 * at the backward's start (every saved tensor there), stands for the
 * stage; FALLBACK (the kinds' average's) where the stage's layers are not
 * one run (interleaved stages) or a layer is recomputed. */
static double
pattern_backward_moment (const Ctx      *ctx,
                         const HrDevice *dev,
                         gboolean        plain_grads,
                         gboolean        fresh_grads,
                         gboolean        drop_casts,
                         double          fallback)
{
  const HrScenario *sc = ctx->sc;
  const HrModelArch *m = &sc->model;
  double after = 0, best = 0;

  if (ctx->pattern == NULL || sc->training.checkpointing != HR_CHECKPOINTING_NONE
      || MAX (sc->parallel.vpp, 1) > 1 || dev->n_layers == 0
      || dev->first_layer + dev->n_layers > m->layers)
    return fallback;
  for (guint64 i = dev->first_layer + dev->n_layers; i-- > dev->first_layer;)
    {
      const HrLayerActivations *k = &ctx->pattern->kind[hr_model_layer_mixer (m, i)][hr_model_layer_mlp (m, i)];
      double moment = layer_backward_moment (ctx, k, plain_grads, fresh_grads, drop_casts) - after;

      best = i + 1 == dev->first_layer + dev->n_layers ? moment : MAX (best, moment);
      after += k->total;
    }
  return best;
}

/* How a stage's layers keep their activations. */
typedef struct
{
  gboolean first, last;          /* it holds the model's first / last layer */
  guint64  n_layers;             /* its layers, DeepSeek's MTP modules among them */
  double   units;                /* layers' worth of saved tensors alive at once */
  double   in_flight;            /* micro-batches in flight (units per layer) */
  /* LoRA without full checkpointing: the embeddings are frozen, so the
   * first layer's input needs no gradient, and it keeps la0. */
  gboolean first_differs;
  HrLayerActivations la0;
  const HrLayerActivations *first_kind;
  /* Full checkpointing wraps every layer, or every N-th: the wrapped keep
   * their input, the others all they save. */
  guint64  n_ck;
  double   ck_share;
  gboolean all_ck, last_ck;
} StageLayers;

/* The first layer's moment, which ends the backward pass
 * (add_backward_work): its working set, its weight casts, the gradients
 * it and the embedding have still to make, the embedding's own. */
typedef struct
{
  double first_work, first_casts, not_yet, last_grad;
} FirstMoment;

static void
stage_layers_init (Ctx         *ctx,
                   HrDevice    *dev,
                   guint64      stage,
                   StageLayers *sl)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  const HrLayerActivations *la = &ctx->layer_act;

  memset (sl, 0, sizeof *sl);
  sl->first = hr_calc_holds_first (sc, stage);
  sl->last = hr_calc_holds_last (sc, stage);
  /* (DeepSeek's multi-token-prediction modules are layers of the last
   * stage; their heads are a second set of logits, hr-calc-loss.c.) */
  sl->n_layers = dev->n_layers + (sl->last ? hr_model_mtp_blocks (m) : 0);
  sl->units = hr_pipeline_schedule_units (sc->parallel.schedule, sc->parallel.pp,
                                          sc->parallel.vpp, t->grad_accum, stage, sl->n_layers);
  sl->in_flight = sl->n_layers > 0 ? sl->units / (double) sl->n_layers : 1.0;
  sl->first_differs = sl->first && !hr_activations_input_grad (sc)
                      && t->checkpointing != HR_CHECKPOINTING_FULL;
  sl->n_ck = hr_activations_checkpointed (sc, sl->n_layers);
  sl->ck_share = sl->n_layers > 0 ? (double) sl->n_ck / (double) sl->n_layers : 0.0;
  sl->all_ck = sl->n_ck > 0 && sl->n_ck == sl->n_layers;
  sl->last_ck = sl->n_ck > 0 && sl->n_layers % MAX (t->checkpoint_every, 1) == 0;

  /* The kind of layer the first is, where la averages kinds (Llama 3.2
   * Vision's self-attention layers and cross-attention ones, a hybrid's
   * attention and SSM layers): what the first layer keeps less is taken
   * from that kind's. */
  sl->first_kind = m->vision == HR_VISION_MLLAMA ? &ctx->dense_act
                   : ctx->first_act != NULL ? ctx->first_act
                   : ctx->pattern != NULL
                   ? &ctx->pattern->lead
                   : la;

  /* (DeepSeek's first layer is a dense one where the stage holds any) */
  if (sl->first_differs && ctx->first_act != NULL)
    {
      HrScenario dense_sc;

      hr_calc_deepseek_dense_scenario (sc, &dense_sc);
      hr_activations_first_layer (&dense_sc, &sl->la0);
    }
  else if (sl->first_differs)
    hr_activations_first_layer (sc, &sl->la0);

  /* Activation offloading (torchtune, Megatron) copies each layer's saved
   * tensors to the CPU as the forward pass goes: about two layers' worth
   * stay on the GPU (the one computed, the one in transfer). */
  if (t->activation_offloading && sl->units > 2)
    {
      ctx->host_bytes += (sl->units - 2) * (t->checkpointing == HR_CHECKPOINTING_OP ? la->op_saved
                                            : sl->ck_share * la->checkpoint
                                              + (1.0 - sl->ck_share) * la->total);
      sl->units = 2;
    }
}

/* The layers' backward: the gradients in flight in the layer at work and
 * the head's gradient before them; in FM, what the first layer's moment
 * needs.  The backward pass walks the layers from the last: the one in work
 * holds its saved tensors, the gradients flowing through it and the weight
 * gradients it has made (la->backward_work, backward_weight), the layers
 * after it their weights' gradients, the ones before it their saved
 * tensors.  Its largest moments are the last layer's (all saved tensors,
 * and the LM head's weight gradient, made by the loss's backward) and the
 * first layer's (its own saved tensors, every other layer's gradients, the
 * embedding's still to come).  Where the gradients are those of a plain
 * step (no ZeRO-2/3 bucket, no step in the backward pass) and do not exist
 * before the pass (set_to_none, no accumulation), the first layer's moment
 * is the end of the backward less what that layer and the embedding have
 * not made yet. */
static void
add_backward_work (Ctx               *ctx,
                   HrDevice          *dev,
                   const StageLayers *sl,
                   FirstMoment       *fm)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  const HrLayerActivations *la = &ctx->layer_act;
  double T = ctx->tokens;
  double h = (double) m->hidden;
  double tp = (double) MAX (sc->parallel.tp, 1);
  const HrParallel *p = &sc->parallel;
  gboolean plain_grads = p->zero < 2 && !t->optimizer_in_backward && !p->offload_optimizer;
  gboolean fresh_grads = plain_grads && !ctx->accumulating && t->zero_grad_to_none;
  gboolean autocast = t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32;
  gboolean drop_casts = autocast && p->zero != 3;
  double work = pattern_backward_moment (ctx, dev, plain_grads, fresh_grads, drop_casts,
                                         layer_backward_moment (ctx, la, plain_grads, fresh_grads,
                                                                drop_casts));
  /* The stage's first layer, whose moment ends the backward pass: a layer
   * like the others, or DeepSeek's dense first layer (hr-calc-deepseek.c),
   * with its own working set, weights and casts. */
  const HrLayerActivations *fa = ctx->first_act != NULL ? ctx->first_act : la;
  fm->first_work = fa == la ? work : layer_backward_moment (ctx, fa, plain_grads, fresh_grads, drop_casts);
  double first_params = fa == la ? (double) (ctx->counts.layer_dense + ctx->counts.layer_experts)
                                 : (double) ctx->counts.dense_first;
  double first_linear = fa == la ? (double) ctx->counts.layer_linear : (double) ctx->counts.dense_first_linear;
  double first_lora = fa == la ? (double) ctx->counts.layer_lora : (double) ctx->counts.dense_first_lora;
  /* The embedding's gradient, made last: where gradients exist before the
   * pass, it is added into its own, V·h more for a moment.  A table tied
   * to the head gets two gradients, the head's waiting in autograd's input
   * buffer since the loss's backward: buffer, new one and their sum at
   * once (InputBuffer::accumulate, then AccumulateGrad). */
  fm->last_grad = sl->first && plain_grads && !ctx->lora
                   ? (double) (m->vocab * m->hidden / MAX (sc->parallel.tp, 1)) * ctx->grad_bytes
                     * (m->tied_embeddings && m->head == HR_HEAD_LM ? (fresh_grads ? 2.0 : 3.0)
                        : fresh_grads ? 0.0 : 1.0)
                   : 0.0;
  /* Under autocast the first layer's weight casts (kept by its graph, or
   * made again by its recomputation) are there too.  (A hybrid's la0
   * counts the unadapted layers before its first adapted one among those
   * whose casts are not kept: none of theirs is there either.) */
  fm->first_casts = autocast && p->zero != 3
                    ? (MAX (first_linear - (sl->first_differs ? sl->la0.uncast_weights : 0.0), 0.0)
                       + (ctx->lora ? first_lora : 0.0))
                      * ctx->act_bytes
                    : 0.0;

  /* (A vision-language model's tower and projector come after the
   * first layer, before the embedding: their gradients too.) */
  fm->not_yet = !fresh_grads ? 0.0
                : (ctx->lora ? first_lora : first_params) * ctx->grad_bytes
                  + (sl->first && !ctx->lora && !m->tied_embeddings
                     ? (double) ctx->counts.embedding * ctx->grad_bytes : 0.0)
                  + (sl->first && !ctx->lora ? hr_calc_vision_trained (sc, &ctx->counts) * ctx->grad_bytes
                                             : 0.0);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE (HR_PHASE_BACKWARD_START), N_("gradients in flight (one layer's backward)"),
            "max(2·b·s·f, 2·a·b·s²)·bytes + P_down·grad bytes",
            N_("The backward pass of a layer holds the gradients flowing through it."),
            work);
  /* (Where gradients exist before the pass, the head's new one is added
   * into its own: the same bytes, for a moment.) */
  if (sl->last && plain_grads && !ctx->lora)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_GRADIENTS, HR_POOL_ALLOCATOR, t->dtypes.grads,
              HR_LIVE (HR_PHASE_BACKWARD_START), N_("head gradient (made by the loss's backward)"),
              "P_head·bytes",
              N_("The output layer's gradient, made before the layers' backward pass."),
              (m->head == HR_HEAD_LM ? T > 0 ? (double) m->vocab * h / tp : 0.0
                                     : (double) ctx->counts.head_linear)
              * ctx->grad_bytes
              /* a chunked loss uses the head once per chunk: autograd sums
               * the chunks' (transposed) gradients out of place, two at
               * once (InputBuffer::accumulate), in the compute type */
              + (m->head == HR_HEAD_LM && hr_losses[t->loss].chunked
                 ? (double) m->vocab * h / tp * (autocast ? ctx->act_bytes : ctx->grad_bytes) : 0.0));
}

/* What the stage's layers keep for the backward pass, by checkpointing
 * policy, and the first layer's at its end; returns the latter (the
 * moment a vision tower's recomputed layer follows rather than joins). */
static double
add_saved_tensors (Ctx               *ctx,
                   HrDevice          *dev,
                   const StageLayers *sl,
                   const FirstMoment *fm)
{
  const HrTraining *t = &ctx->sc->training;
  const HrLayerActivations *la = &ctx->layer_act;
  double first_end = 0;

  if (t->checkpointing == HR_CHECKPOINTING_OP)
    {
      /* Per-op: every layer keeps its input and the outputs its policy
       * saves (hr-activations.c); its recomputation rebuilds the rest of
       * what its backward needs. */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                HR_LIVE_SAVED, N_("saved matmul and attention outputs (per-op checkpoints)"),
                "layers·in-flight·(input + every 2nd mm + attention outputs)",
                N_("Per-op checkpointing keeps each layer's input, half of its matrix products and the attention's output."),
                sl->units * la->op_saved);
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                HR_LIVE (HR_PHASE_BACKWARD_START), N_("one layer recomputed for backward"),
                "one layer's saved tensors - what per-op checkpointing kept",
                N_("During the backward pass one layer at a time is recomputed in full."),
                MAX (la->total - (la->op_saved - la->op_only), 0.0));
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                HR_LIVE (HR_PHASE_BACKWARD_END), N_("first layer recomputed (freed last)"),
                "one layer's saved tensors + gradients in flight - gradients still to come",
                N_("The first layer is recomputed last, beside almost every gradient."),
                first_end = MAX (MAX (la->total + la->op_only + fm->first_casts + fm->first_work - fm->not_yet, 0.0),
                                 fm->last_grad));
    }
  else if (sl->n_ck > 0)
    {
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                HR_LIVE_SAVED, N_("layer inputs (checkpoints)"),
                sl->all_ck ? "layers·in-flight·b·s·h·bytes / c" : "(layers / N)·in-flight·b·s·h·bytes / c",
                N_("With full checkpointing only each layer's input is kept; the rest is recomputed."),
                sl->ck_share * sl->units * la->checkpoint);
      /* Recomputing a layer rebuilds its whole working set (§4 of
       * CALC-REFERENCE: "full recompute still needs one layer's"), whose
       * input is the checkpoint already counted.  Where the last layer
       * is not wrapped, the first recomputation comes after its saved
       * tensors are freed, below the backward's start. */
      if (sl->last_ck)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                  HR_LIVE (HR_PHASE_BACKWARD_START), N_("one layer recomputed for backward"),
                  "one layer's saved tensors - its input",
                  N_("During the backward pass one layer at a time is recomputed in full."),
                  ctx->last_recompute);
      if (sl->all_ck)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                  HR_LIVE (HR_PHASE_BACKWARD_END), N_("first layer recomputed (freed last)"),
                  "one layer's saved tensors + gradients in flight - gradients still to come",
                  N_("The first layer is recomputed last, beside almost every gradient."),
                  first_end = MAX (MAX (ctx->first_total + fm->first_casts + fm->first_work - fm->not_yet, 0.0),
                                   fm->last_grad));
    }
  if (t->checkpointing != HR_CHECKPOINTING_OP && !sl->all_ck)
    {
      double plain = (1.0 - sl->ck_share) * sl->units;

      /* On the first stage the model's first layer keeps less when its
       * input needs no gradient (hr_activations_first_layer). */
      for (guint i = 0; i < la->n; i++)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
                  HR_LIVE_SAVED, la->saved[i].name, la->saved[i].formula,
                  N_("Intermediate results kept from the forward pass for the backward pass."),
                  plain * la->saved[i].bytes
                  - (sl->first_differs
                     ? sl->in_flight * ((sl->first_kind == la ? la->saved[i].bytes
                                         : hr_layer_saved_bytes (sl->first_kind, la->saved[i].name))
                                        - hr_layer_saved_bytes (&sl->la0, la->saved[i].name))
                     : 0.0));
      for (guint i = 0; sl->first_differs && i < sl->la0.n; i++)
        if (hr_layer_saved_bytes (la, sl->la0.saved[i].name) == 0)
          hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
                    HR_LIVE_SAVED, sl->la0.saved[i].name, sl->la0.saved[i].formula,
                    N_("Intermediate results kept from the forward pass for the backward pass."),
                    sl->in_flight * sl->la0.saved[i].bytes);
      /* Selective recompute rebuilds one layer's attention scores at a
       * time during the backward pass. */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
                HR_LIVE_BACKWARD, N_("attention scores recomputed for backward"),
                "one layer's a·b·s² terms",
                N_("Selective recomputation rebuilds one layer's attention scores at a time."),
                la->recomputed);
      /* The backward frees them layer by layer; the first layer's go last
       * (never wrapped when only every N-th is, N > 1). */
      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
                HR_LIVE (HR_PHASE_BACKWARD_END), N_("first layer's activations (freed last)"),
                "one layer's saved tensors + gradients in flight - gradients still to come",
                N_("The backward pass frees saved results layer by layer; the first layer's go last."),
                first_end = MAX (MAX ((sl->first_differs ? sl->la0.total : ctx->first_total)
                                      + fm->first_casts + fm->first_work - fm->not_yet, 0.0),
                                 fm->last_grad));
    }
  return first_end;
}

/* Beside the layers: the previous micro-batch's 4-bit inputs, DoRA's
 * temporaries, and the first stage's embeddings and vision tower. */
static void
add_stage_extras (Ctx               *ctx,
                  HrDevice          *dev,
                  const StageLayers *sl,
                  double             first_end)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  const HrLayerActivations *la = &ctx->layer_act;
  double T = ctx->tokens;
  double h = (double) m->hidden;

  /* A loop that keeps its loss variable (LitGPT's, and any plain
   * `loss = model(x)...; loss.backward()` loop) holds the previous
   * micro-batch's graph until the next forward has returned.  After the
   * backward pass the graph's saved tensors are gone, but what bitsandbytes'
   * 4-bit matmuls hold on ctx.tensors is not (hr-activations.c): those
   * inputs sit beside the new forward's activations.  Reentrant full
   * checkpointing runs the forward without a graph, so nothing stays. */
  if (t->method == HR_METHOD_QLORA && t->previous_graph_alive && !sl->all_ck)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
              HR_LIVE (HR_PHASE_FORWARD), N_("previous micro-batch's 4-bit matmul inputs"),
              "layers·(attention, O, MLP and down inputs) + head input",
              N_("The last micro-batch's inputs to the 4-bit layers, held until this forward ends."),
              (double) (sl->n_layers - sl->n_ck) * la->matmul4_inputs
              + (sl->last && t->quant_lm_head ? ctx->tokens * (double) m->hidden * ctx->act_bytes : 0.0));

  if (ctx->lora && t->lora.dora)
    add_dora_temporaries (ctx, dev, sl->n_ck);

  /* Zamba2's shared blocks read the embeddings beside the hidden state:
   * Zamba2Model.forward keeps original_hidden_states =
   * torch.clone(inputs_embeds) (the embedding's type: fp32 under
   * autocast) for every hybrid layer, and a checkpointed layer keeps its
   * inputs, this one among them, until its backward: through the backward
   * to the first hybrid layer.  Without checkpointing no node saves it and
   * it goes when the forward returns. */
  if (sl->first && sl->n_ck > 0 && m->shared_blocks > 0)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("embeddings kept for the shared blocks"), "b·s·h·bytes",
              N_("A copy of the token embeddings that every shared block reads, kept for their backward pass."),
              sl->in_flight * T * h * (t->dtypes.weights == HR_DTYPE_FP32 ? 4.0 : ctx->act_bytes));

  if (sl->first && m->dropout && !sl->first_differs)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("embedding dropout mask"), "b·s·h / c",
              N_("Which embedding values dropout switched off."),
              sl->in_flight * T * h);

  /* PEFT's lora.Embedding (peft/tuners/lora/layer.py, Embedding.forward:
   * after_A = F.embedding(x, lora_embedding_A.T); result + (after_A @
   * lora_embedding_B.T) * scaling, no dropout): the product keeps after_A
   * for B's gradient (under autocast its 16-bit cast); the lookup keeps
   * the token ids, the batch's own. */
  if (sl->first && ctx->lora && (t->lora.targets & HR_LORA_EMBED))
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
              HR_LIVE_SAVED, N_("LoRA embedding A output"), "b·s·r·bytes / c",
              N_("The token table's adapter keeps its first product for the second's gradient."),
              sl->in_flight * T * (double) t->lora.rank * ctx->act_bytes);

  if (sl->first && m->vision != HR_VISION_NONE)
    hr_calc_add_vision (ctx, dev, first_end);

  /* BERT's embeddings end in a LayerNorm (BertEmbeddings.LayerNorm), which
   * keeps its input, the sum of the tables, when the tables train: in fp32
   * under autocast, where that sum is fp32. */
  if (sl->first && m->kind == HR_KIND_ENCODER && hr_activations_input_grad (sc))
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("embedding norm input"), "b·s·h·norm bytes / c",
              N_("The embeddings' sum, kept for their norm's backward pass."),
              sl->in_flight * T * h * hr_activations_norm_bytes (sc));
}

static void
add_attention_buffer (Ctx      *ctx,
                      HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;

  /* Megatron-Core's unfused attention (megatron/core/transformer/
   * dot_product_attention.py, DotProductAttention.forward) hands baddbmm a
   * [b·a/t, s, s] input from parallel_state.get_global_memory_buffer();
   * megatron/core/utils.py GlobalMemoryBuffer.get_tensor allocates it once
   * and keeps it for the run, so it stays between steps beside the states.
   * Every layer reuses the one buffer: it is one layer's scores. */
  if (t->attention_buffer && hr_attentions[t->attention].scores)
    {
      HrStageKinds k;

      hr_calc_stage_kinds (sc, dev, &k);
      guint64 attending = 0;

      for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
        attending += k.count[HR_LAYER_MIXER_ATTENTION][x];
      if (attending > 0)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
                  t->dtypes.activations, HR_LIVE_ALWAYS, N_("attention score buffer (kept)"),
                  "b·a·s²·bytes / (t·c)",
                  N_("One layer's attention scores, in a buffer the framework keeps for the whole run."),
                  (double) m->heads / (double) sc->parallel.tp * ctx->tokens
                  * (double) t->seq_len * ctx->act_bytes);
    }
}

void
hr_calc_add_activations (Ctx      *ctx,
                         HrDevice *dev,
                         guint64   stage)
{
  StageLayers sl;
  FirstMoment fm = { 0 };
  double first_end;

  stage_layers_init (ctx, dev, stage, &sl);
  add_backward_work (ctx, dev, &sl, &fm);
  first_end = add_saved_tensors (ctx, dev, &sl, &fm);
  add_stage_extras (ctx, dev, &sl, first_end);
  add_attention_buffer (ctx, dev);
  hr_calc_add_pipeline_buffers (ctx, dev, sl.in_flight);
  if (sl.last)
    hr_calc_add_head_and_loss (ctx, dev, 1.0 + (double) ctx->sc->model.mtp_modules);
}
