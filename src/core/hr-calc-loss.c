/* hr-calc-loss.c: the last stage's head and loss
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the final norm, the output layer and each kind of loss keep, and
 * the loss's backward holds, on the last pipeline stage; HEADS is how many
 * sets of logits it makes (DeepSeek's multi-token-prediction modules add
 * one each).
 */

#include "hr-calc-private.h"
#include "hr-losses.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* The tokens of a sequence a chunked loss takes at a time: training.
 * loss_chunks chunks of it (torchtune's 8), or loss_chunk_tokens (LitGPT's
 * 128); the whole sequence unchunked. */
static double
chunk_tokens (const HrTraining *t)
{
  double s = (double) t->seq_len;

  if (!hr_losses[t->loss].chunked)
    return s;
  return t->loss_chunks > 0 ? ceil (s / (double) t->loss_chunks)
                            : MIN (s, (double) t->loss_chunk_tokens);
}

/* The head.  Hugging Face's RMSNorm (LlamaRMSNorm.forward) keeps its
 * input upcast to fp32 and, when its weight trains, the normalised copy
 * the weight multiplies (of its input's type: fp32 under autocast, where
 * the residual stream is fp32); LayerNorm keeps its input.  The head keeps
 * its input only when its weight needs a gradient (autograd saves
 * mm's self only for mat2's gradient) or an adapter reads it; a
 * classifier reads one token of it: a view of the whole tensor, or under
 * autocast a cast copy of that token alone.  An encoder (BERT) has no
 * final norm: its classifier reads the last layer's output, through the
 * pooler's tanh when there is one. */
static void
add_head_input (Ctx      *ctx,
                HrDevice *dev,
                double    heads)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  double T = ctx->tokens;
  double h = (double) m->hidden;
  gboolean autocast = t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32;
  double ab = ctx->act_bytes;
  double norm_in = hr_activations_norm_bytes (sc);
  gboolean head_reads = !ctx->lora
                        || (m->head == HR_HEAD_LM && (t->lora.targets & HR_LORA_LM_HEAD))
                        || (t->method == HR_METHOD_QLORA && t->quant_lm_head);
  double b = (double) t->micro_batch;
  /* An adapter on the LM head keeps its A output and, with dropout, its
   * dropped-out copy of the input and the mask instead of the input. */
  gboolean head_adapter = ctx->lora && m->head == HR_HEAD_LM && (t->lora.targets & HR_LORA_LM_HEAD);
  double head_in = !head_reads ? 0.0
                   : head_adapter ? T * h * (t->lora.dropout > 0 ? ab + 1.0 : ab)
                                    + T * (double) t->lora.rank * ab
                   : m->head == HR_HEAD_LM || !autocast ? T * h * ab : b * h * ab;

  /* (An encoder-decoder's decoder ends as a decoder does, in T5's final
   * norm, or as BART's post-norm layers do, in its last layer's norm.) */
  if (m->kind == HR_KIND_DECODER || (m->kind == HR_KIND_ENCODER_DECODER && !m->post_norm))
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_LOSS, N_("final norm input and output"),
              "b·s·h·(norm bytes + head input bytes) / c",
              N_("The last layer's output, kept for the output layer's backward pass."),
              heads * (T * h * norm_in + head_in));
  else
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_NONE,
              HR_LIVE_LOSS, N_("head input (last layer's output)"), "b·s·h·bytes / c",
              N_("The last layer's output, kept for the output layer's backward pass."),
              head_in + (m->pooler ? b * h * ab : 0.0));
}

/* A compiled cross-entropy (torchtitan compiles the loss with the
 * model: compile.components "model", "loss") fuses the upcast, the
 * log-softmax and its backward: it keeps the 16-bit logits and one fp32
 * log-sum-exp per row (the partitioner recomputes the log-probabilities
 * from them), and its backward makes one logits-sized gradient, in the
 * logits' type (softmax minus the one-hot target).  torchtune compiles
 * a chunked loss chunk by chunk (torchtune/training/_compile.py
 * compile_loss: CEWithChunkedOutputLoss.compute_cross_entropy, the
 * upcast and cross_entropy of one chunk, is what torch.compile wraps):
 * every chunk keeps its 16-bit logits and log-sum-exps the same way, and
 * the backward makes one chunk's gradient at a time.  With
 * training.compile_loss false only the layers are compiled (torchtitan's
 * apply_compile, torch.compile of each TransformerBlock, with its
 * loss_fn left eager: train.py at e8977b0, 2024-12-18, to bbb1b61,
 * 2025-04-02) and the loss keeps what the eager one does, below. */
static void
add_compiled_loss (Ctx      *ctx,
                   HrDevice *dev,
                   double    logits)
{
  const HrTraining *t = &ctx->sc->training;
  double s = (double) t->seq_len;
  double chunk = chunk_tokens (t);

  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            t->previous_graph_alive ? HR_LIVE_ALWAYS : HR_LIVE_LOSS,
            N_("logits and log-sum-exp (kept by the compiled loss)"), "b·s·(V·bytes + 4) / (t·c)",
            N_("The compiled loss keeps the logits and one number per position for its backward pass."),
            logits * ctx->act_bytes + ctx->tokens * 4.0);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE (HR_PHASE_LOSS_BACKWARD), N_("loss gradients"),
            "b·chunk·V·bytes / (t·c) (compiled)",
            N_("The compiled loss's backward makes one logits-sized gradient."),
            logits * MIN (chunk / s, 1.0) * ctx->act_bytes);
}

/* Megatron's vocab-parallel cross-entropy (megatron/core/tensor_parallel/
 * cross_entropy.py, VocabParallelCrossEntropy) upcasts the logits inside
 * its forward, turns that fp32 copy into the softmax in place
 * (torch.exp (..., out=exp_logits)) and saves it; its backward makes the
 * gradient in the same tensor (grad_input = softmax, mul_), which autograd
 * then casts back to the logits' type for the output layer.  The 16-bit
 * logits are gone once the model's forward has returned the loss. */
static void
add_vocab_parallel_loss (Ctx      *ctx,
                         HrDevice *dev,
                         double    logits)
{
  const HrTraining *t = &ctx->sc->training;

  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_FP32,
            t->previous_graph_alive ? HR_LIVE_ALWAYS : HR_LIVE_LOSS,
            N_("softmax (saved by the vocab-parallel loss)"), "b·s·V·4 / (t·c)",
            N_("Megatron's loss keeps one full-precision softmax and computes its gradient in it."),
            logits * 4.0);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, t->dtypes.activations,
            HR_LIVE (HR_PHASE_LOSS_BACKWARD), N_("loss gradients"),
            "b·s·V·bytes / (t·c) (cast for the output layer)",
            N_("The loss's gradient, cast back to the logits' type for the output layer."),
            logits * ctx->act_bytes);
  /* --cross-entropy-loss-fusion (megatron/core/fusions/
   * fused_cross_entropy.py, since 7b4a6d76, 2024-06) runs the same steps
   * as functions under jit_fuser, torch.compile from PyTorch 2.2
   * (megatron/core/jit.py).  calculate_predicted_logits changes the fp32
   * logits in place and sums over them, and calculate_gradients scatters
   * into the softmax: Inductor keeps such a mutation in place only where
   * pointwise ops alone read it, so each graph computes into a fresh
   * logits-sized fp32 buffer and copies it back (as the note Megatron's
   * later rewrite of the file gives for doing those steps eagerly), once
   * in the loss's forward and once in its backward. */
  if (hr_losses[t->loss].compiled_copy)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_FP32,
              HR_LIVE_LOSS, N_("fused loss's compiled buffer"),
              "b·s·V·4 / (t·c) (torch.compile)",
              N_("The fused loss's compiled steps compute into a new full-precision buffer and copy it back into the softmax."),
              logits * 4.0);
}

/* The eager losses: a standard cross-entropy, or one chunk by chunk. */
static void
add_eager_loss (Ctx      *ctx,
                HrDevice *dev,
                double    logits,
                double    heads)
{
  const HrTraining *t = &ctx->sc->training;
  /* Under autocast the loss is fp32 whatever the loop asks: cross_entropy
   * and log_softmax are on autocast's fp32 list. */
  gboolean fp32_loss = t->logits_fp32 || (t->dtypes.weights == HR_DTYPE_FP32
                                           && t->dtypes.activations != HR_DTYPE_FP32);
  double lp = fp32_loss ? 4.0 : ctx->act_bytes;

  /* Nothing saves the logits themselves (log_softmax keeps its result,
   * the fp32 upcast nothing): they live while the loop holds the
   * model's output.  Hugging Face's Trainer drops it once the loss is
   * computed (compute_loss returns the loss alone); a loop that keeps
   * its variables (previous_graph_alive) holds them until the next
   * forward has returned. */
  /* transformers before 4.46 upcast them in the model's forward
   * (LlamaForCausalLM.forward: logits = logits.float()), so its output
   * is the fp32 copy; 4.46 moved the upcast into the loss
   * (loss/loss_utils.py ForCausalLMLoss), whose fp32 copy is gone
   * once the loss is computed. */
  gboolean fp32_out = t->logits_fp32_in_model && t->logits_fp32;

  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
            fp32_out ? HR_DTYPE_FP32 : t->dtypes.activations,
            t->previous_graph_alive ? HR_LIVE_ALWAYS : HR_LIVE (HR_PHASE_FORWARD),
            N_("logits"), fp32_out ? "b·s·V·4 / (t·c)" : "b·s·V·bytes / (t·c)",
            N_("The model's score for every word of the vocabulary at every position."),
            logits * (fp32_out ? 4.0 : ctx->act_bytes));
  /* The forward pass's last moment is the loss's own: cross_entropy's
   * log_softmax makes the log-probabilities while its fp32 input, the
   * upcast copy of 16-bit logits (logits.float(), or autocast's cast:
   * log_softmax is on its fp32 list), still exists beside the logits;
   * the copy goes when the loss returns (replayed at full size,
   * tests/reference/reserved-replay.py: the Trainer over Llama 3.2 1B with
   * checkpointing at 2 x 2048 tokens peaks there, 21.68 GiB, where the
   * loss's backward holds 20.81).  With DeepSeek's prediction modules the
   * losses run one after another, each copy gone before the next is made:
   * one set of logits' copy at a time (the reference oracle's MTP runs). */
  if (fp32_loss && !fp32_out && ctx->act_bytes < 4.0
      && !hr_losses[t->loss].chunked)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_FP32,
              HR_LIVE (HR_PHASE_FORWARD), N_("logits' fp32 copy (while the loss runs)"),
              "b·s·V·4 / (t·c)",
              N_("The loss computes in full precision from a copy of the logits, gone once it returns."),
              logits / heads * 4.0);
  /* ... and there, a causal LM shifted them for the loss with a copy
   * (LlamaForCausalLM.forward before 4.46, as every causal LM of
   * transformers then: shift_logits = logits[..., :-1, :].contiguous()),
   * a second fp32 tensor of all but each sequence's last position, alive
   * until the forward returns; a masked LM (BERT) does not shift. */
  if (fp32_out && ctx->sc->model.kind == HR_KIND_DECODER)
    hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR, HR_DTYPE_FP32,
              HR_LIVE (HR_PHASE_FORWARD), N_("shifted logits (the model's copy for its loss)"),
              "b·(s - 1)·V·4 / (t·c)",
              N_("The model shifts its full-precision logits by one position for the loss, in a copy."),
              logits / heads * 4.0 * ((double) t->seq_len - 1.0) / (double) t->seq_len);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
            fp32_loss ? HR_DTYPE_FP32 : t->dtypes.activations,
            HR_LIVE_LOSS, N_("log-probabilities (saved by the loss)"),
            fp32_loss ? "b·s·V·4 / (t·c)" : "b·s·V·bytes / (t·c)",
            N_("The loss keeps its softmax for the backward pass."),
            logits * lp);
  /* The loss's backward holds the gradient of the log-probabilities
   * and of the logits at once: two full-size tensors, unless the loss
   * runs chunk by chunk.  PyTorch's loss_parallel, over logits sharded by
   * vocabulary on the tensor-parallel ranks, runs both backwards as one
   * (torch/distributed/tensor/parallel/loss.py,
   * _nll_loss_and_log_softmax_backward: grad_input = zeros_like(x), then
   * (grad_input + torch.exp(x)) * grad_output): the zeros, the
   * exponential and the sum beside the saved log-probabilities, three;
   * without tensor parallelism torchtitan does not enter it
   * (ParallelDims.loss_parallel_enabled: tp > 1). */
  if (!hr_losses[t->loss].chunked)
    {
      gboolean dtensor = hr_losses[t->loss].sharded_vocab && ctx->sc->parallel.tp > 1;

      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
                fp32_loss ? HR_DTYPE_FP32 : t->dtypes.activations,
                HR_LIVE (HR_PHASE_LOSS_BACKWARD), N_("loss gradients"),
                dtensor ? "3·b·s·V·bytes / (t·c) (loss_parallel)" : "2·b·s·V·bytes / (t·c)",
                dtensor ? N_("The backward pass of the sharded loss briefly needs three more logits-sized tensors.")
                        : N_("The backward pass of the loss briefly needs two more logits-sized tensors."),
                (dtensor ? 3.0 : 2.0) * logits * lp);
    }
  /* A chunked loss's backward runs chunk by chunk: the autograd engine
   * takes the node made last first, so each chunk's loss backward runs
   * to its logits' gradient before the next starts, and at the first,
   * beside every chunk's log-probabilities, the gradients of one
   * chunk's log-probabilities and logits exist (the reference oracle's
   * case 31 of seed 5150).  LitGPT chunks each sequence by 128 tokens
   * (litgpt/utils.py chunked_cross_entropy, chunk_size=128, with the
   * head's lm_head_chunk_size=128), torchtune into 8 chunks
   * (CEWithChunkedOutputLoss, num_output_chunks=8). */
  else
    {
      double s = (double) t->seq_len;
      double chunk = chunk_tokens (t);

      hr_calc_add_item (ctx, dev, HR_CATEGORY_ACTIVATIONS, HR_POOL_ALLOCATOR,
                fp32_loss ? HR_DTYPE_FP32 : t->dtypes.activations,
                HR_LIVE (HR_PHASE_LOSS_BACKWARD), N_("loss gradients (one chunk)"),
                "2·b·chunk·V·bytes / (t·c)",
                N_("The backward pass of a chunked loss needs two tensors of one chunk's logits' size at a time."),
                2.0 * logits * MIN (chunk / s, 1.0) * lp);
    }
}

void
hr_calc_add_head_and_loss (Ctx      *ctx,
                           HrDevice *dev,
                           double    heads)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  /* every set of logits, on this rank's share of the vocabulary */
  double logits = heads * ctx->tokens * (double) sc->model.vocab / (double) MAX (sc->parallel.tp, 1);
  const HrLossInfo *loss = &hr_losses[t->loss];
  /* A loss torch.compile can take whole: not Megatron's own, and not
   * loss_parallel's, whose handlers run at DTensor's dispatch, which a
   * compiled loss's graph is not planned through (with tensor
   * parallelism it is planned eager). */
  gboolean plain = loss->logits && !loss->own_softmax && !(loss->sharded_vocab && sc->parallel.tp > 1);

  add_head_input (ctx, dev, heads);
  if (sc->model.head != HR_HEAD_LM)
    return;
  if (plain && t->compile && t->compile_loss)
    add_compiled_loss (ctx, dev, logits);
  else if (loss->own_softmax)
    add_vocab_parallel_loss (ctx, dev, logits);
  else if (loss->logits)
    add_eager_loss (ctx, dev, logits, heads);
}
