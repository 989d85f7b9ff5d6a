/* hr-losses.c: the cross-entropy implementations, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-losses.h"

#include <glib/gi18n-lib.h>

const HrLossInfo hr_losses[HR_N_LOSSES] = {
  [HR_LOSS_STANDARD] = {
    "standard", N_("Standard"), .logits = TRUE,
    .source = "torch.nn.functional.cross_entropy over all logits: log_softmax saves its "
              "result; its backward and nll_loss's make two logits-sized tensors" },
  [HR_LOSS_CHUNKED] = {
    "chunked", N_("Chunked"), .logits = TRUE, .chunked = TRUE,
    .source = "litgpt/utils.py chunked_cross_entropy (128 tokens), torchtune "
              "CEWithChunkedOutputLoss (8 chunks)" },
  [HR_LOSS_FUSED] = {
    "fused", N_("Fused (never materialised)"),
    .source = "a fused linear + cross-entropy kernel (Liger's FusedLinearCrossEntropy): the "
              "logits are never held whole" },
  [HR_LOSS_VOCAB_PARALLEL] = {
    "vocab-parallel", N_("Vocab-parallel, in place (Megatron)"), .logits = TRUE,
    .own_softmax = TRUE,
    .source = "megatron/core/tensor_parallel/cross_entropy.py VocabParallelCrossEntropy" },
  [HR_LOSS_LOSS_PARALLEL] = {
    "loss-parallel", N_("Loss parallel (PyTorch, torchtitan)"), .logits = TRUE,
    .sharded_vocab = TRUE,
    .source = "torch/distributed/tensor/parallel/loss.py loss_parallel, "
              "_nll_loss_and_log_softmax_backward" },
  [HR_LOSS_VOCAB_PARALLEL_FUSED] = {
    "vocab-parallel-fused", N_("Vocab-parallel, fused (Megatron)"), .logits = TRUE,
    .own_softmax = TRUE, .compiled_copy = TRUE,
    .source = "megatron/core/fusions/fused_cross_entropy.py under jit_fuser (torch.compile "
              "from PyTorch 2.2, megatron/core/jit.py)" },
};

const HrEnumNames hr_loss_names = {
  &hr_losses[0].name, HR_N_LOSSES, sizeof (HrLossInfo), &hr_losses[0].label
};
