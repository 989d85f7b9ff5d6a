/* hr-calc-seq2seq.c: an encoder-decoder model's activations on its device
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan multiplies one layer's saved tensors by the device's layers
 * (hr-calc-activations.c); an encoder-decoder model has two kinds, so the
 * layer it multiplies stands for both stacks (hr_activations_stack_average)
 * and the head sees the decoder's tokens.  Besides the layers, the two
 * stacks keep what joins them: the encoder's output, which every decoder
 * layer's cross-attention reads (Hugging Face: encoder_hidden_states,
 * passed to each T5Block / BartDecoderLayer), the encoder's final norm (T5)
 * or both stacks' embedding norms (BART), the encoder's embedding dropout,
 * T5's relative position buckets and Whisper's audio stem.
 * validate_encoder_decoder leaves one pipeline stage, full training and
 * every layer or none checkpointed.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>

void
hr_calc_seq2seq_layers (Ctx *ctx)
{
  const HrScenario *sc = ctx->sc;
  HrLayerActivations encoder, decoder;

  hr_activations_encoder_layer (sc, &encoder);
  hr_activations_decoder_layer (sc, &decoder);
  hr_activations_stack_average (&encoder, sc->model.layers, &decoder, sc->model.decoder_layers,
                                &ctx->layer_act);
  /* The backward pass starts at the last decoder layer and ends at the
   * first encoder layer. */
  ctx->first_total = encoder.total;
  ctx->last_recompute = decoder.total - decoder.checkpoint;
  ctx->tokens = (double) sc->training.micro_batch * (double) hr_training_target_len (sc);
}

/* Whisper's audio stem (modeling_whisper.py, WhisperEncoder.forward):
 * gelu (conv1 (input_features)), gelu (conv2 (...)), permute, + the
 * frozen positions.  Over 2F mel frames in and F = audio_frames out,
 * autograd keeps conv1's input (b·mel·2F: Conv1d saves its input for
 * the weight's gradient; the features themselves, the batch, which
 * WhisperEncoder.forward does not cast, but under autocast the 16-bit
 * cast of the fp32 features), the first GELU's input (conv1's output,
 * b·h·2F), conv2's input (the first GELU's output, b·h·2F) and the
 * second GELU's input (b·h·F); the permute and the sum with a table that
 * needs no gradient keep nothing.  The stem sits outside every encoder
 * layer, so checkpointing the layers (HF's gradient_checkpointing wraps
 * each WhisperEncoderLayer) leaves it as it is. */
static void
add_audio_stem (Ctx      *ctx,
                HrDevice *dev,
                gboolean  autocast)
{
  const HrModelArch *m = &ctx->sc->model;
  double b = (double) ctx->sc->training.micro_batch, h = (double) m->hidden;
  double ab = ctx->act_bytes;
  double F = (double) m->audio_frames, mel = (double) m->audio_mel_bins;

  if (autocast)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("audio stem: log-mel input of the first convolution"),
              "b·mel·2F·bytes (autocast's cast)",
              N_("The spectrogram the first convolution keeps for its weights' gradient."),
              b * mel * 2.0 * F * ab);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_SAVED, N_("audio stem: convolution outputs and GELU inputs"),
            "b·h·(2F + 2F + F)·bytes",
            N_("What the two convolutions and their GELUs keep for the backward pass."),
            b * h * 5.0 * F * ab);
}

/* T5's relative attention bias (T5Attention.compute_bias): an int64
 * bucket index per query and key position, which the bias table's
 * embedding keeps for its backward, once per stack; the bias it gives,
 * heads x s x s in the weights' type, is an input of every checkpointed
 * layer of its stack, kept once.  Every layer of a stack adds its scores'
 * gradient, summed over the batch, into the bias's: autograd's input
 * buffer holds the sum and the new one at once (InputBuffer::accumulate)
 * through the stack's backward pass, the decoder's at the backward's
 * start, the encoder's at its end. */
static void
add_relative_position_bias (Ctx      *ctx,
                            HrDevice *dev,
                            gboolean  all_ck)
{
  const HrModelArch *m = &ctx->sc->model;
  const HrTraining *t = &ctx->sc->training;
  double s_s = (double) t->seq_len, s_t = (double) hr_training_target_len (ctx->sc);
  double positions = s_s * s_s + s_t * s_t;
  double a = (double) m->heads;

  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_SAVED, N_("relative position buckets"), "(s_s² + s_t²)·8",
            N_("Which bias bucket each pair of positions uses, kept for the bias table's backward pass."),
            positions * 8.0);
  if (all_ck)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.weights,
              HR_LIVE_SAVED, N_("relative position bias (checkpoint input)"),
              "a·(s_s² + s_t²)·weight bytes",
              N_("The attention bias every checkpointed layer of a stack takes as an input."),
              a * positions * ctx->weight_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.weights,
            HR_LIVE (HR_PHASE_BACKWARD_START), N_("relative position bias gradients (decoder)"),
            "2·a·s_t²·weight bytes",
            N_("The decoder's attention bias gradient, summed over its layers."),
            2.0 * a * s_t * s_t * ctx->weight_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.weights,
            HR_LIVE (HR_PHASE_BACKWARD_END), N_("relative position bias gradients (encoder)"),
            "2·a·s_s²·weight bytes",
            N_("The encoder's attention bias gradient, summed over its layers."),
            2.0 * a * s_s * s_s * ctx->weight_bytes);
}

void
hr_calc_add_seq2seq (Ctx      *ctx,
                     HrDevice *dev)
{
  const HrScenario *sc = ctx->sc;
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  double rep = sc->parallel.sp ? (double) MAX (sc->parallel.tp, 1) : 1.0;
  double b = (double) t->micro_batch;
  double s_s = (double) t->seq_len, s_t = (double) hr_training_target_len (sc);
  double T_s = b * s_s, T_t = b * s_t;
  double h = (double) m->hidden;
  double ab = ctx->act_bytes;
  gboolean autocast = t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32;
  /* The residual stream's type: fp32 under autocast (fp32 embeddings plus
   * 16-bit outputs), which is what the encoder's output is. */
  double rb = autocast ? 4.0 : ab;
  gboolean all_ck = t->checkpointing == HR_CHECKPOINTING_FULL;
  double norm_bytes = hr_activations_norm_bytes (sc);

  /* The encoder's output: kept by every decoder layer's K and V linears
   * for their weights' gradients, one tensor for all of them; under
   * autocast each keeps its own cast instead (in the decoder layer's
   * list).  Full checkpointing keeps it as an input of every decoder
   * layer's checkpoint, again one tensor. */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE_SAVED, N_("encoder output (read by every cross-attention)"),
            "b·s_s·h·bytes",
            N_("The encoder's result, which each decoder layer's cross-attention reads."),
            all_ck ? T_s * h * rb / rep : autocast ? 0.0 : T_s * h * ab / rep);

  if (hr_model_audio (m))
    add_audio_stem (ctx, dev, autocast);

  /* T5 closes its encoder with a norm, which keeps its input; BART's
   * post-norm stacks start with one on each embedding instead
   * (layernorm_embedding). */
  if (!m->post_norm)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("encoder final norm input"), "b·s_s·h·norm bytes",
              N_("The encoder's last layer's output, kept for its final norm's backward pass."),
              T_s * h * norm_bytes / rep);
  else
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("embedding norm inputs (both stacks)"), "b·(s_s + s_t)·h·norm bytes",
              N_("The embeddings' sums, kept for their norms' backward pass."),
              (T_s + T_t) * h * norm_bytes / rep);

  /* (The decoder's embedding dropout is the plan's "embedding dropout
   * mask", over the decoder's tokens.) */
  if (m->dropout)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_SAVED, N_("encoder embedding dropout mask"), "b·s_s·h",
              N_("Which of the encoder's embedding values dropout switched off."),
              T_s * h / rep);

  if (m->position_buckets > 0)
    add_relative_position_bias (ctx, dev, all_ck);

  /* The backward pass sums the encoder output's gradient over the decoder
   * layers' cross-attentions (autograd's input buffer) until it reaches
   * the encoder. */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
            HR_LIVE (HR_PHASE_BACKWARD_START), N_("encoder output gradient"), "b·s_s·h·bytes",
            N_("The gradient every cross-attention adds to, until the encoder's backward pass."),
            T_s * h * rb / rep);
}
