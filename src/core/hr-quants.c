/* hr-quants.c: the quantized weights' formats, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * QLoRA §3 (Dettmers et al. 2023): NF4 is 4 bits a weight and one fp32
 * absmax per block of 64 (0.5625 bytes); double quantization brings the
 * constants to 0.127 bits a weight (0.515875 bytes).
 */

#include "hr-quants.h"

#include <glib/gi18n-lib.h>

const HrQuantInfo hr_quants[HR_N_QUANTS] = {
  [HR_QUANT_NF4] = {
    "nf4", "NF4", 0.5 + 4.0 / 64.0,
    .source = "QLoRA §3: 4-bit NormalFloat, an fp32 absmax per 64 weights" },
  [HR_QUANT_NF4_DQ] = {
    "nf4-dq", N_("NF4, double quantization"), 0.5 + 0.127 / 8.0,
    .source = "QLoRA §3: the absmax constants quantized to 8 bits, 0.127 bits a weight" },
  [HR_QUANT_INT8] = {
    "int8", "INT8", 1.0,
    .source = "LLM.int8 (bitsandbytes Linear8bitLt): one byte a weight; its fp32 scale per "
              "row is small enough to leave out" },
  [HR_QUANT_INT4] = {
    "int4", "INT4", 0.5 + 4.0 / 64.0,
    .source = "bitsandbytes FP4: NF4's block layout" },
};

const HrEnumNames hr_quant_names = {
  &hr_quants[0].name, HR_N_QUANTS, sizeof (HrQuantInfo), &hr_quants[0].label
};
