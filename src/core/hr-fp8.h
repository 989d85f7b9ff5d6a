/* hr-fp8.h: the bytes of an fp8 training recipe's copies
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What Transformer Engine keeps per element of a linear weight between
 * steps and of a linear input it saves for the backward pass, by recipe.
 * Read from Transformer Engine v2.18 (commit 27486e03, 2026-08-04; the
 * same in main at d0067d0d, 2.20.0.dev0):
 *
 * - per-tensor scaling on Hopper (te): Float8Quantizer (tensor/
 *   float8_tensor.py) keeps the rowwise data and, for the columnwise
 *   usage, a separate fp8 transpose: 1 + 1 byte a weight; one fp32 scale
 *   per tensor, nothing per element.
 * - MXFP8 block scaling on Blackwell (te-mxfp8): MXFP8Quantizer
 *   (tensor/mxfp8_tensor.py) scales each block of 32 consecutive values
 *   along one axis with one E8M0 byte (MXFP8_BLOCK_SCALING_SIZE 32,
 *   constants.py).  A 1-D block runs along the rows or along the columns,
 *   so the columnwise usage is a second quantization of its own, not a
 *   transpose of the first: create_tensor (csrc/quantizer.cpp) allocates
 *   _rowwise_data and _columnwise_data, each uint8 of the tensor's shape,
 *   and _rowwise_scale_inv / _columnwise_scale_inv of get_scale_shape's
 *   shapes, [roundup(M, 128), roundup(N/32, 4)] and
 *   [roundup(M/32, 4), roundup(N, 128)] for an M x N tensor: N/32 and M/32
 *   bytes a row or column, M·N/32 each when M and N are multiples of 128.
 *   A weight keeps both usages (linear.py _linear_forward_impl:
 *   weight_quantizer.set_usage(rowwise=True, columnwise=columnwise_usage)
 *   when its input needs a gradient, weightmat.update_usage(rowwise_usage=
 *   True) keeps both): 2 + 2/32 bytes.  A saved input keeps the
 *   columnwise usage only (update_usage(rowwise_usage=False,
 *   columnwise_usage=True), "not needed in backward pass"): 1 + 1/32.
 *
 * The scales' padding to 128 x 4 is not counted: it is nothing when both
 * dimensions are multiples of 128 (the hidden size, attention width and
 * MLP width of 56 of the 59 bundled models, not Falcon-7B's 4544, GPT-2
 * XL's 1600 or DeepSeek-V2-Lite's dense 10944; a micro-batch's b·s
 * tokens when they are), and with both of 1024 or more it adds at most
 * (1 + 127/1024)·(1 + 3·32/1024) - 1 = 23 % of the scales, 0.7 % of the
 * copies' bytes.
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* MXFP8_BLOCK_SCALING_SIZE (transformer_engine/pytorch/constants.py). */
#define HR_MXFP8_BLOCK 32.0

/* Transformer Engine's fp8 linears: per-tensor (Hopper) or MXFP8. */
static inline gboolean
hr_fp8_is_te (const HrTraining *t)
{
  return t->precision == HR_PRECISION_FP8_MIXED
         && (t->fp8_recipe == HR_FP8_RECIPE_TE || t->fp8_recipe == HR_FP8_RECIPE_TE_MXFP8);
}

/* Bytes a linear weight's copies take per weight: fp8 data and its
 * transpose (te), or rowwise and columnwise data with a scale byte per 32
 * of each (te-mxfp8); 0 for other recipes. */
static inline double
hr_fp8_weight_copy_bytes (const HrTraining *t)
{
  if (t->precision != HR_PRECISION_FP8_MIXED)
    return 0.0;
  if (t->fp8_recipe == HR_FP8_RECIPE_TE)
    return 2.0;
  if (t->fp8_recipe == HR_FP8_RECIPE_TE_MXFP8)
    return 2.0 + 2.0 / HR_MXFP8_BLOCK;
  return 0.0;
}

/* Bytes per element of a linear input Transformer Engine saves: 1 (te),
 * 1 + 1/32 (te-mxfp8, the columnwise data and scales). */
static inline double
hr_fp8_saved_input_bytes (const HrTraining *t)
{
  return t->fp8_recipe == HR_FP8_RECIPE_TE_MXFP8 ? 1.0 + 1.0 / HR_MXFP8_BLOCK : 1.0;
}

/* Bytes per element of the output gradient a Transformer Engine linear
 * quantizes in its backward pass, for the dgrad GEMM (rowwise) and the
 * wgrad GEMM (columnwise) at once (TE 2.18 linear.py _linear_backward,
 * layernorm_linear.py _LayerNormLinear.backward: grad_output_quantizer.
 * set_usage(rowwise=True, columnwise=True), then grad_output_preprocess):
 * 2 + 2/32 under MXFP8; 0 for other recipes (te's fp8 data and transpose,
 * 2 bytes, are not counted: its plans predate this). */
static inline double
hr_fp8_grad_copy_bytes (const HrTraining *t)
{
  return t->precision == HR_PRECISION_FP8_MIXED && t->fp8_recipe == HR_FP8_RECIPE_TE_MXFP8
         ? 2.0 + 2.0 / HR_MXFP8_BLOCK : 0.0;
}

G_END_DECLS
