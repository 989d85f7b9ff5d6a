/* hr-params-ssm.c: the parameters of one state-space (Mamba) block
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mamba (Gu & Dao 2023), as mamba_ssm writes it (modules/mamba_simple.py,
 * Mamba.__init__), with d_inner = expand·h, R = dt_rank, N = d_state,
 * K = d_conv:
 *   in_proj   h -> 2·d_inner, no bias                  h·2·d_inner
 *   conv1d    depthwise over d_inner, width K, a bias  d_inner·K + d_inner
 *   x_proj    d_inner -> R + 2N, no bias                d_inner·(R + 2N)
 *   dt_proj   R -> d_inner, with a bias                 R·d_inner + d_inner
 *   A_log     d_inner x N                               d_inner·N
 *   D         d_inner                                   d_inner
 *   out_proj  d_inner -> h, no bias                     d_inner·h
 * Jamba's Mamba layers add RMSNorms on dt, B and C (modeling_jamba.py,
 * JambaMambaMixer.__init__: dt_layernorm, b_layernorm, c_layernorm):
 * R + 2N weights.  Hugging Face's MambaMixer (modeling_mamba.py) has the
 * same tensors.
 *
 * Mamba-2 (Dao & Gu 2024; modules/mamba2.py, Mamba2.__init__), with H
 * heads of P = headdim (H·P = d_inner) and G groups of B and C:
 *   in_proj   h -> 2·d_inner + 2·G·N + H, no bias      (z, x, B, C, dt)
 *   conv1d    over d_inner + 2·G·N, width K, a bias
 *   dt_bias, A_log, D   H each (D_has_hdim false)
 *   norm      RMSNormGated over d_inner                 d_inner
 *   out_proj  d_inner -> h, no bias                     d_inner·h
 * Hugging Face's Mamba2Mixer (modeling_mamba2.py) has the same tensors.
 *
 * Adafactor factors every tensor of two or more dimensions over its last
 * two (torch/optim/_adafactor.py: row_var grad.shape[:-1], col_var
 * grad.shape[:-2] + grad.shape[-1:]): an r x c matrix keeps r + c values,
 * the convolution's C x 1 x K weight C + C·K, vectors their size.
 */

#include "hr-params.h"

void
hr_params_ssm_mixer (const HrModelArch *m,
                     HrSsmMixerParams  *out)
{
  guint64 h = m->hidden;
  guint64 di = hr_model_ssm_inner (m);
  guint64 N = hr_model_ssm_state (m);
  guint64 K = hr_model_ssm_conv (m);

  *out = (HrSsmMixerParams) { 0 };
  if (m->ssm == HR_SSM_MAMBA)
    {
      guint64 R = hr_model_ssm_dt_rank (m);
      guint64 norms = m->ssm_bc_norm ? R + 2 * N : 0;

      out->linear = h * 2 * di + di * (R + 2 * N) + R * di + di * h;
      out->total = out->linear
                   + di * K + di        /* conv1d weight and bias */
                   + di                 /* dt_proj's bias */
                   + di * N + di        /* A_log, D */
                   + norms;
      out->adafactor = (h + 2 * di) + (di + R + 2 * N) + (R + di) + (di + h)
                       + (di + di * K) + di + di + (di + N) + di + norms;
      out->largest = MAX (h * 2 * di, di * h);
      out->in_proj = 2 * di;
    }
  else if (m->ssm == HR_SSM_MAMBA2)
    {
      guint64 H = hr_model_ssm_heads (m);
      guint64 G = hr_model_ssm_groups (m);
      guint64 in_proj = 2 * di + 2 * G * N + H;
      guint64 conv_dim = di + 2 * G * N;

      out->linear = h * in_proj + di * h;
      out->total = out->linear
                   + conv_dim * K + conv_dim   /* conv1d weight and bias */
                   + 3 * H                     /* dt_bias, A_log, D */
                   + di;                       /* the gated RMSNorm */
      out->adafactor = (h + in_proj) + (di + h) + (conv_dim + conv_dim * K) + conv_dim
                       + 3 * H + di;
      out->largest = MAX (h * in_proj, di * h);
      out->in_proj = in_proj;
    }
}
