/* hr-params-galore.c: GaLore's projected optimizer states
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GaLore (Zhao et al. 2024) keeps Adam's two moments of every hidden
 * matrix in a rank-r projection of its gradient, plus the projection
 * itself; everything else (embeddings, norms, the head) keeps full Adam
 * states, counted by hr-calc-optimizer.c.  These functions give, per layer
 * kind and as one tensor-parallel rank holds it, the projected states and
 * the projections in elements.
 */

#include "hr-params-private.h"

/* One d x d' matrix under GaLore at rank r (Zhao et al. 2024, Table 1:
 * for W of m x n, m <= n, optimizer states mr + 2nr; galore_projector.py,
 * GaLoreProjector.project, proj_type "std"): the gradient is projected on
 * its smaller side by the first r singular vectors of that side (the r x m
 * rows of Vh, or U's m x r columns: get_orthogonal_matrix), so Adam's
 * exp_avg and exp_avg_sq are r x n each and the projection r x m.  A rank
 * above the smaller side keeps all of it: the slices stop at m. */
static void
galore_matrix (guint64  rows,
               guint64  cols,
               guint64  rank,
               guint64  count,
               guint64 *states,
               guint64 *projection)
{
  guint64 lo = MIN (rows, cols), hi = MAX (rows, cols), r = MIN (rank, lo);

  *states += count * 2 * r * hi;
  *projection += count * r * lo;
}

/* Q, K, V and O of one standard attention, as this rank holds them. */
static void
galore_attention (const Shape *s,
                  guint64      t,
                  guint64      rank,
                  guint64     *states,
                  guint64     *projection)
{
  galore_matrix (s->h, s->a * s->d / t, rank, 2, states, projection);   /* Q, O */
  /* K, V: kv heads split by t, replicated once t exceeds them
   * (attention_params) */
  galore_matrix (s->h, (t > 1 ? MAX (s->k / t, 1) : s->k) * s->d, rank, 2, states, projection);
}

/* DeepSeek's latent attention (hr-params-mla.c), as this rank holds it:
 * q_a_proj and q_b_proj (or q_proj), kv_a_proj_with_mqa and kv_b_proj,
 * o_proj; the down projections whole on every rank, the rest split over
 * the heads. */
static void
galore_mla (const HrModelArch *m,
            guint64            t,
            guint64            rank,
            guint64           *states,
            guint64           *projection)
{
  guint64 h = m->hidden, a = m->heads;
  guint64 qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
  guint64 ql = m->q_lora_rank, kvl = m->kv_lora_rank;

  if (ql > 0)
    {
      galore_matrix (h, ql, rank, 1, states, projection);
      galore_matrix (ql, a * qk / t, rank, 1, states, projection);
    }
  else
    galore_matrix (h, a * qk / t, rank, 1, states, projection);
  galore_matrix (h, kvl + m->qk_rope_head_dim, rank, 1, states, projection);
  galore_matrix (kvl, a * (m->qk_nope_head_dim + m->v_head_dim) / t, rank, 1, states, projection);
  galore_matrix (a * m->v_head_dim / t, h, rank, 1, states, projection);
}

/* One layer's attention, standard or latent. */
static void
galore_layer_attention (const HrModelArch *m,
                        const Shape       *s,
                        guint64            t,
                        guint64            rank,
                        guint64           *states,
                        guint64           *projection)
{
  if (hr_model_mla (m))
    galore_mla (m, t, rank, states, projection);
  else
    galore_attention (s, t, rank, states, projection);
}

/* DeepSeek's dense first layers: the attention and the dense MLP
 * (model.ffn wide); 0 for other models. */
void
hr_params_galore_dense (const HrModelArch *m,
                        guint64            tp,
                        guint64            rank,
                        guint64           *out_states,
                        guint64           *out_projection)
{
  Shape s;
  guint64 t = MAX (tp, 1);

  *out_states = *out_projection = 0;
  if (m->dense_layers == 0 || m->experts <= 1)
    return;
  shape_from_model (m, &s);
  galore_layer_attention (m, &s, t, rank, out_states, out_projection);
  galore_matrix (s.h, s.f / t, rank, s.gated ? 3 : 2, out_states, out_projection);
}

/* An encoder-decoder model's decoder layer has one attention more than
 * its encoder layer, the cross-attention over the encoder's output (T5's
 * EncDecAttention, BART's encoder_attn, Whisper's encoder_attn): its Q, K,
 * V and O, the same shapes as the self-attention's; 0 for other models. */
void
hr_params_galore_cross (const HrModelArch *m,
                        guint64            tp,
                        guint64            rank,
                        guint64           *out_states,
                        guint64           *out_projection)
{
  Shape s;

  *out_states = *out_projection = 0;
  if (m->kind != HR_KIND_ENCODER_DECODER)
    return;
  shape_from_model (m, &s);
  galore_attention (&s, MAX (tp, 1), rank, out_states, out_projection);
}

/* Every hidden matrix of a layer with standard or latent attention and a
 * dense or MoE MLP (the validator refuses GaLore elsewhere), as this rank
 * holds it: Q, K, V, O (or the latent attention's five); gate, up and down
 * (or fc1, fc2) of the MLP, or of each expert, the shared experts and the
 * router. */
void
hr_params_galore_layer (const HrModelArch *m,
                        guint64            tp,
                        guint64            ep,
                        guint64            rank,
                        guint64           *out_states,
                        guint64           *out_projection)
{
  Shape s;
  guint64 t = MAX (tp, 1), e = MAX (ep, 1);
  guint64 mlp = 0;

  shape_from_model (m, &s);
  mlp = s.gated ? 3 : 2;
  *out_states = *out_projection = 0;
  galore_layer_attention (m, &s, t, rank, out_states, out_projection);
  if (s.E > 1)
    {
      galore_matrix (s.h, s.ef / t, rank, mlp * ((s.E + e - 1) / e), out_states, out_projection);
      if (m->shared_experts > 0)
        galore_matrix (s.h, m->shared_experts * s.ef / t, rank, mlp, out_states, out_projection);
      galore_matrix (s.h, s.E, rank, 1, out_states, out_projection);
    }
  else
    galore_matrix (s.h, s.f / t, rank, mlp, out_states, out_projection);
}
