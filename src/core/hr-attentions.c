/* hr-attentions.c: the attention implementations, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-attentions.h"

#include <glib/gi18n-lib.h>

const HrAttentionInfo hr_attentions[HR_N_ATTENTIONS] = {
  [HR_ATTENTION_FLASH] = {
    "flash", "FlashAttention", .pads_v = TRUE,
    .source = "FlashAttention-2 (flash_attn_func, and SDPA's flash and cuDNN kernels with "
              "enable_gqa): grouped K and V as they are; saves the output and one fp32 "
              "log-sum-exp per row and head; Hugging Face pads V to the head width it "
              "needs (modeling_deepseek_v3.py)" },
  [HR_ATTENTION_EAGER] = {
    "eager", N_("Eager (s × s scores)"), .scores = TRUE, .repeats_kv = TRUE,
    .source = "transformers eager_attention_forward: repeat_kv, then matmul, softmax and "
              "matmul, each saving its inputs (derivatives.yaml)" },
  [HR_ATTENTION_SDPA] = {
    "sdpa", N_("PyTorch SDPA (K, V repeated per head)"), .repeats_kv = TRUE, .kv_views = TRUE,
    .source = "transformers sdpa_attention_forward before huggingface/transformers#39412: "
              "repeat_kv, then scaled_dot_product_attention, which keeps the expanded view "
              "of a single K/V head as it is" },
};

const HrEnumNames hr_attention_names = {
  &hr_attentions[0].name, HR_N_ATTENTIONS, sizeof (HrAttentionInfo), &hr_attentions[0].label
};
