/* hr-precisions.c: the precision recipes, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CONTRACT.md section 2: the type each recipe gives the weights, their
 * gradients, the master copy, the optimizer's states and the
 * activations.  A scenario's own training.dtypes override any of them
 * (hr_training_apply_precision).
 */

#include "hr-precisions.h"

#include <glib/gi18n-lib.h>

#define DTYPES(w, g, m, o, a) \
  { HR_DTYPE_##w, HR_DTYPE_##g, HR_DTYPE_##m, HR_DTYPE_##o, HR_DTYPE_##a }

const HrPrecisionInfo hr_precisions[HR_N_PRECISIONS] = {
  [HR_PRECISION_FP32] = {
    "fp32", "fp32", DTYPES (FP32, FP32, NONE, FP32, FP32),
    .source = "plain PyTorch" },
  [HR_PRECISION_AMP_BF16] = {
    "amp-bf16", N_("Autocast bf16 (fp32 weights)"), DTYPES (FP32, FP32, NONE, FP32, BF16),
    .source = "torch.autocast, the Hugging Face Trainer's bf16=True, Lightning's bf16-mixed" },
  [HR_PRECISION_AMP_FP16] = {
    "amp-fp16", N_("Autocast fp16 (fp32 weights)"), DTYPES (FP32, FP32, NONE, FP32, FP16),
    .source = "torch.autocast with a GradScaler, the Trainer's fp16=True" },
  [HR_PRECISION_BF16_MIXED] = {
    "bf16-mixed", N_("bf16 mixed (fp32 master)"), DTYPES (BF16, BF16, FP32, FP32, BF16),
    .source = "DeepSpeed, Megatron, the ZeRO paper (16 bytes a parameter with Adam)" },
  [HR_PRECISION_FP16_MIXED] = {
    "fp16-mixed", N_("fp16 mixed (fp32 master)"), DTYPES (FP16, FP16, FP32, FP32, FP16),
    .source = "DeepSpeed's and Megatron's fp16 engines, with a loss scale" },
  [HR_PRECISION_BF16_TRUE] = {
    "bf16-true", N_("Pure bf16"), DTYPES (BF16, BF16, NONE, BF16, BF16),
    .source = "Lightning's bf16-true, torchtune (8 bytes a parameter with AdamW)" },
  /* Transformer Engine keeps bf16 weights plus fp8 copies (counted by
   * the calculation), fp8 activations for the matmuls. */
  [HR_PRECISION_FP8_MIXED] = {
    "fp8-mixed", N_("fp8 mixed (Transformer Engine)"), DTYPES (BF16, BF16, FP32, FP32, BF16),
    .source = "Transformer Engine, torchao's Float8Linear (training.fp8_recipe)" },
};

const HrEnumNames hr_precision_names = {
  &hr_precisions[0].name, HR_N_PRECISIONS, sizeof (HrPrecisionInfo), &hr_precisions[0].label
};
