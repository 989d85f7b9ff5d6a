/* hr-activations-seq2seq.c: the layers of an encoder-decoder model
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * T5 and BART as Hugging Face writes them (modeling_t5.py: T5Block is a
 * T5LayerSelfAttention, in the decoder a T5LayerCrossAttention, and a
 * T5LayerFF; modeling_bart.py: BartEncoderLayer, BartDecoderLayer with
 * self_attn, encoder_attn and fc1/fc2).  An encoder layer is a layer of
 * hr-activations.c over the source, training.seq_len tokens, without a
 * causal mask (which keeps nothing: the mask is a buffer).  A decoder layer
 * is one over the target, training.target_len tokens, plus its
 * cross-attention: a norm (before it in T5, after its residual sum in
 * BART), Q from the decoder's tokens, K and V from the encoder's output,
 * s_t x s_s scores, and O.  The encoder's output is one tensor that every
 * decoder layer's K and V read: autograd keeps it once for all of them
 * (hr-calc-seq2seq.c), except under torch.autocast, where each of those
 * linears saves its own 16-bit cast of it (autocast caches only the casts
 * of leaf weights).
 */

#include "hr-activations.h"
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The index of the saved tensor of that name, or -1.  Names are the
 * activation code's string constants, so the same name is nearly always
 * the same pointer; the strings are compared where it is not, their first
 * letters first: most names asked for are not in the list (a plan
 * averages two kinds of layer on every stage that mixes them), and a full
 * comparison with each was a third of a hybrid's plan (Jamba Mini under
 * LoRA: 64.3 K instructions, 53.5 K with the first letters first). */
int
hr_layer_find_saved (const HrLayerActivations *la,
                     const char               *name)
{
  for (guint i = 0; i < la->n; i++)
    if (la->saved[i].name == name)
      return (int) i;
  for (guint i = 0; i < la->n; i++)
    if (la->saved[i].name[0] == name[0] && strcmp (la->saved[i].name, name) == 0)
      return (int) i;
  return -1;
}

double
hr_layer_saved_bytes (const HrLayerActivations *la,
                      const char               *name)
{
  int i = hr_layer_find_saved (la, name);

  return i >= 0 ? la->saved[i].bytes : 0;
}

/* Adds to the tensor of that name when the layer has one (the cross-
 * attention's norm among the norm inputs), else lists a new one. */
static void
add_to (HrLayerActivations *out,
        const char         *name,
        const char         *formula,
        double              bytes)
{
  int i;

  if (bytes <= 0)
    return;
  out->total += bytes;
  i = hr_layer_find_saved (out, name);
  if (i >= 0)
    {
      out->saved[i].bytes += bytes;
      return;
    }
  g_assert (out->n < HR_MAX_SAVED);
  out->saved[out->n++] = (HrSavedTensor) { name, formula, bytes };
}

/* Whether eager attention's softmax output is fp32 with a 16-bit copy
 * beside it: under torch.autocast, and in T5's attention (the one with
 * relative position buckets), which upcasts its scores itself:
 * softmax(scores.float(), dim=-1).type_as(scores) (modeling_t5.py,
 * T5Attention.forward).  In fp32 the copy is the output itself. */
gboolean
hr_activations_fp32_softmax (const HrScenario *scenario)
{
  const HrTraining *t = &scenario->training;
  gboolean autocast = t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32;

  /* (and a vision tower's layers: CLIP's and Qwen2-VL's eager_attention_
   * forward, softmax(..., dtype=torch.float32).to(query.dtype);
   * hr-activations-vision.c marks their layer with the tower's kind) */
  return autocast
         || (((scenario->model.kind == HR_KIND_ENCODER_DECODER && scenario->model.position_buckets > 0)
              || (scenario->model.kind == HR_KIND_ENCODER && scenario->model.vision != HR_VISION_NONE))
             && hr_dtype_bytes (t->dtypes.activations) < 4.0);
}

void
hr_activations_encoder_layer (const HrScenario   *scenario,
                              HrLayerActivations *out)
{
  hr_activations_layer (scenario, out);
}

/* Validation (hr-validate.c, validate_encoder_decoder) leaves full
 * training, multi-head attention, a dense MLP and one pipeline stage: every
 * input needs a gradient, K and V have a's heads. */
void
hr_activations_decoder_layer (const HrScenario   *scenario,
                              HrLayerActivations *out)
{
  const HrModelArch *m = &scenario->model;
  const HrTraining *tr = &scenario->training;
  const HrParallel *par = &scenario->parallel;
  HrScenario target = *scenario;
  double t = (double) MAX (par->tp, 1);
  double rep = par->sp ? t : 1.0;
  double ab = hr_dtype_bytes (tr->dtypes.activations);
  gboolean autocast = tr->dtypes.weights == HR_DTYPE_FP32 && tr->dtypes.activations != HR_DTYPE_FP32;
  double h = (double) m->hidden;
  double d = (double) hr_model_head_dim (m);
  double a = (double) m->heads / t;
  double k = (double) m->kv_heads / t;
  double b = (double) tr->micro_batch;
  double s_t = (double) hr_training_target_len (scenario);
  double s_s = (double) tr->seq_len;
  double T_t = b * s_t, T_s = b * s_s;
  double cross_work;

  /* Its self-attention and MLP: a layer of the target's length. */
  target.training.seq_len = hr_training_target_len (scenario);
  hr_activations_layer (&target, out);

  /* The cross-attention's norm keeps its input as the others do
   * (hr_activations_norm_bytes); Q keeps the normed tokens; K and V keep
   * the encoder's output, here only their autocast casts of it. */
  add_to (out, N_("norm inputs"), "norms·b·s·h·bytes / c",
          hr_activations_norm_bytes (scenario) * T_t * h / rep);
  add_to (out, N_("cross-attention query input"), "b·s_t·h·bytes", T_t * h * ab / rep);
  if (autocast)
    add_to (out, N_("cross-attention K, V inputs (casts of the encoder output)"),
            "2·b·s_s·h·bytes", 2.0 * T_s * h * ab / rep);
  add_to (out, N_("cross-attention Q, K, V"), "b·(s_t·a + 2·s_s·k)·d·bytes / t",
          (T_t * a + 2.0 * T_s * k) * d * ab);
  if (!hr_attentions[tr->attention].scores)
    add_to (out, N_("cross-attention output + log-sum-exp"), "b·s_t·a·(d·bytes + 4) / t",
            T_t * a * (d * ab + 4.0));
  else
    {
      /* As the self-attention's scores (hr-activations.c), s_t x s_s of
       * them: softmax output, dropout mask and output, or autocast's fp32
       * softmax and its 16-bit cast. */
      gboolean fp32_softmax = hr_activations_fp32_softmax (scenario);
      double probs = fp32_softmax ? 4.0 : ab;
      double per = probs + (m->dropout ? 1.0 : 0.0)
                   + (fp32_softmax ? ab : m->dropout ? probs : 0.0);
      double scores = a * b * s_t * s_s * per;

      if (tr->checkpointing != HR_CHECKPOINTING_SELECTIVE)
        add_to (out, N_("cross-attention scores (softmax, dropout)"),
                "a·b·s_t·s_s·(softmax + dropout mask + dropout output) / t", scores);
      else
        out->recomputed += scores;
      add_to (out, N_("cross-attention context (O input)"), "b·s_t·a·d·bytes / t", T_t * a * d * ab);
    }
  if (m->dropout)
    add_to (out, N_("attention dropout mask"), "b·s·h / c", T_t * h / rep);

  /* Its backward makes the gradients of Q, K and V while its output's
   * exists, beside the residual's; eager attention's softmax holds two
   * s_t x s_s gradients. */
  cross_work = (2.0 * T_t * a + 2.0 * T_s * k) * d * ab
               + (hr_attentions[tr->attention].scores
                  ? 2.0 * a * b * s_t * s_s * (hr_activations_fp32_softmax (scenario) ? 4.0 : ab) : 0.0)
               + T_t * h * ab / rep;
  out->backward_attn_work = MAX (out->backward_attn_work, cross_work);
}

/* One layer standing for both stacks where the plan multiplies a layer by
 * the device's layers (enc + dec of them): each tensor's bytes averaged so
 * that the product is the two stacks' sum.  What the backward pass holds
 * at one layer (its work, its recomputation) is the decoder's: the
 * backward starts at the last decoder layer. */
void
hr_activations_stack_average (const HrLayerActivations *encoder,
                              guint64                   encoder_layers,
                              const HrLayerActivations *decoder,
                              guint64                   decoder_layers,
                              HrLayerActivations       *out)
{
  double le = (double) encoder_layers, ld = (double) decoder_layers;
  double n = MAX (le + ld, 1.0);

  *out = *decoder;
  out->total = (le * encoder->total + ld * decoder->total) / n;
  out->checkpoint = (le * encoder->checkpoint + ld * decoder->checkpoint) / n;
  out->matmul4_inputs = (le * encoder->matmul4_inputs + ld * decoder->matmul4_inputs) / n;
  for (guint i = 0; i < out->n; i++)
    out->saved[i].bytes = (le * hr_layer_saved_bytes (encoder, decoder->saved[i].name)
                           + ld * decoder->saved[i].bytes) / n;
  for (guint i = 0; i < encoder->n; i++)
    if (hr_layer_saved_bytes (decoder, encoder->saved[i].name) == 0 && encoder->saved[i].bytes > 0)
      {
        g_assert (out->n < HR_MAX_SAVED);
        out->saved[out->n] = encoder->saved[i];
        out->saved[out->n++].bytes = le * encoder->saved[i].bytes / n;
      }
}
