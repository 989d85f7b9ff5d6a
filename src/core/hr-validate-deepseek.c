/* hr-validate-deepseek.c: what makes a DeepSeek-style model plannable
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Multi-head latent attention, shared experts, dense first layers, the
 * router bias and multi-token prediction (hr-params.c, hr-params-mla.c,
 * hr-activations-mla.c): their ranges, how they must agree with the rest
 * of the model, and what the plan does not cover with them yet, refused
 * naming the field rather than planned as something else.
 */

#include "hr-validate-private.h"
#include "hr-error.h"
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

/* The latent attention's own fields: each at least 1 with MLA (the query
 * latent may be 0: DeepSeek-V2-Lite projects Q directly), all 0 without. */
static gboolean
validate_mla (const HrModelArch  *m,
              GError            **error)
{
  gboolean mla = m->attention_kind == HR_ATTN_KIND_MLA;
  guint64 lo = mla ? 1 : 0, hi = mla ? HR_MAX_HIDDEN : 0;

  if (m->attention_kind >= HR_N_ATTN_KINDS)
    FAIL ("model.attention_kind", _("%u is not a kind; allowed: standard, mla"), m->attention_kind);
  if (!hr_check_range ("model.q_lora_rank", m->q_lora_rank, 0, hi, error)
      || !hr_check_range ("model.kv_lora_rank", m->kv_lora_rank, lo, hi, error)
      || !hr_check_range ("model.qk_nope_head_dim", m->qk_nope_head_dim, lo, hi, error)
      || !hr_check_range ("model.qk_rope_head_dim", m->qk_rope_head_dim, mla ? 2 : 0, hi, error)
      || !hr_check_range ("model.v_head_dim", m->v_head_dim, lo, hi, error))
    {
      if (!mla)
        {
          g_clear_error (error);
          FAIL ("model.attention_kind", _("\"standard\" has no latent ranks or split head dimensions; "
                "allowed: attention_kind mla with q_lora_rank, kv_lora_rank, qk_nope_head_dim, "
                "qk_rope_head_dim and v_head_dim, or those fields 0"));
        }
      return FALSE;
    }
  if (!mla)
    return TRUE;

  /* Rope rotates pairs of dimensions (rotate_half). */
  if (m->qk_rope_head_dim % 2 != 0)
    FAIL ("model.qk_rope_head_dim", _("%" PRIu64 " is odd; allowed: an even number "
          "(rope rotates pairs of dimensions)"), m->qk_rope_head_dim);
  if (m->kind != HR_KIND_DECODER)
    FAIL ("model.attention_kind", _("\"mla\" is planned for decoder models; allowed with "
          "model.kind encoder or encoder-decoder: standard"));
  if (m->head_dim != 0)
    FAIL ("model.head_dim", _("%" PRIu64 " has no meaning with attention_kind mla, whose "
          "heads are qk_nope_head_dim + qk_rope_head_dim wide for Q and K and v_head_dim for V; "
          "allowed: 0"), m->head_dim);
  if (m->kv_heads != m->heads)
    FAIL ("model.kv_heads", _("%" PRIu64 " is not model.heads = %" PRIu64
          "; allowed with attention_kind mla: %" PRIu64 " (every head has its own K and V "
          "from the latent)"), m->kv_heads, m->heads, m->heads);
  if (m->bias != HR_BIAS_NONE || m->qk_norm != HR_QK_NORM_NONE || m->parallel_block)
    FAIL (m->bias != HR_BIAS_NONE ? "model.bias" : m->qk_norm != HR_QK_NORM_NONE
          ? "model.qk_norm" : "model.parallel_block",
          _("is not planned with attention_kind mla (DeepSeek's layers have none); allowed: "
          "bias none, qk_norm none, parallel_block false"));
  return TRUE;
}

/* Shared experts, dense first layers and the router bias belong to an MoE
 * model; multi-token prediction to a decoder with an LM head. */
static gboolean
validate_moe_parts (const HrModelArch  *m,
                    GError            **error)
{
  gboolean moe = m->experts > 1;

  if (!hr_check_range ("model.shared_experts", m->shared_experts, 0, moe ? HR_MAX_EXPERTS : 0, error)
      || !hr_check_range ("model.dense_layers", m->dense_layers, 0, moe ? m->layers - 1 : 0, error)
      || !hr_check_range ("model.mtp_modules", m->mtp_modules, 0, HR_MAX_MTP_MODULES, error))
    {
      if (!moe && (m->shared_experts > 0 || m->dense_layers > 0))
        {
          g_clear_error (error);
          FAIL (m->shared_experts > 0 ? "model.shared_experts" : "model.dense_layers",
                _("belongs to a mixture of experts; allowed with model.experts = 1: 0"));
        }
      return FALSE;
    }
  if (m->router_bias && !moe)
    FAIL ("model.router_bias", _("belongs to a mixture of experts; allowed with model.experts = 1: false"));
  if (m->dense_layers > 0 && m->ffn == 0)
    FAIL ("model.ffn", _("0 leaves the %" PRIu64 " dense first layers without an MLP; "
          "allowed: 1 to %u"), m->dense_layers, HR_MAX_FFN);
  if (m->mtp_modules > 0 && (m->kind != HR_KIND_DECODER || m->head != HR_HEAD_LM))
    FAIL ("model.mtp_modules", _("multi-token prediction needs a decoder with an LM head; "
          "allowed with this model: 0"));
  if ((m->shared_experts > 0 || m->dense_layers > 0 || m->router_bias) && m->kind != HR_KIND_DECODER)
    FAIL (m->shared_experts > 0 ? "model.shared_experts" : m->dense_layers > 0
          ? "model.dense_layers" : "model.router_bias",
          _("is planned for decoder models; allowed with model.kind %s: %s"),
          m->kind == HR_KIND_ENCODER ? "encoder" : "encoder-decoder",
          m->shared_experts > 0 || m->dense_layers > 0 ? "0" : "false");
  return TRUE;
}

/* LoRA and QLoRA as PEFT adapts Hugging Face's DeepSeek models: q adapts
 * the query projections (q_proj, or q_a_proj and q_b_proj), k
 * kv_a_proj_with_mqa, v kv_b_proj, o o_proj, gate/up/down every MLP
 * (routed experts, shared experts, dense first layers). */
static gboolean
validate_lora (const HrScenario  *sc,
               GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;

  /* (modeling_deepseek_v3.py builds no multi-token-prediction module: it
   * drops those weights on loading, _keys_to_ignore_on_load_unexpected) */
  if (m->mtp_modules > 0)
    FAIL ("model.mtp_modules", _("%" PRIu64 " is not planned with LoRA or QLoRA (Hugging Face's "
          "DeepSeek models, which PEFT adapts, have no multi-token prediction module); allowed "
          "with training.method %s: 0"), m->mtp_modules, hr_enum_name (&hr_method_names, t->method));
  if (t->lora.dora)
    FAIL ("training.lora.dora", _("is not planned yet with DeepSeek's layers; allowed: false"));
  if (hr_model_mla (m) && t->lora.fused_qkv)
    FAIL ("training.lora.fused_qkv", _("latent attention has no fused QKV linear; allowed: false"));
  /* (Megatron keeps the latent's down projections whole on every rank:
   * their adapters are not split as the plan splits the others') */
  if (hr_model_mla (m) && sc->parallel.tp > 1)
    FAIL ("parallel.tp", _("%" PRIu64 " is not planned with LoRA on latent attention; allowed: 1"),
          sc->parallel.tp);
  return TRUE;
}

gboolean
hr_validate_deepseek (const HrScenario  *sc,
                      GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  const char *field;

  if (!validate_mla (m, error) || !validate_moe_parts (m, error))
    return FALSE;

  field = m->attention_kind == HR_ATTN_KIND_MLA ? "model.attention_kind"
          : m->shared_experts > 0 ? "model.shared_experts"
          : m->dense_layers > 0 ? "model.dense_layers"
          : m->mtp_modules > 0 ? "model.mtp_modules" : NULL;
  if (field == NULL)
    return TRUE;

  /* What these layers save is known in eager PyTorch, for full training
   * and for PEFT's LoRA on Hugging Face's DeepSeek modules (hr-activations-
   * mla.c); torch.compile's partitioner and per-op checkpointing choose
   * differently, and are not planned yet. */
  if (t->method != HR_METHOD_FULL && !validate_lora (sc, error))
    return FALSE;
  if (t->compile)
    FAIL ("training.compile", _("is not planned yet with %s; allowed: false"), field);
  /* Hugging Face pads V to the Q/K width for FlashAttention-2; a wider V
   * would be cut (modeling_deepseek_v3.py pads by qk_head_dim - v_head_dim) */
  if (m->attention_kind == HR_ATTN_KIND_MLA && hr_attentions[t->attention].pads_v
      && m->v_head_dim > m->qk_nope_head_dim + m->qk_rope_head_dim)
    FAIL ("training.attention", _("flash needs model.v_head_dim (%" PRIu64 ") at most "
          "qk_nope_head_dim + qk_rope_head_dim (%" PRIu64 "); allowed: eager, sdpa"),
          m->v_head_dim, m->qk_nope_head_dim + m->qk_rope_head_dim);
  if (t->checkpointing == HR_CHECKPOINTING_OP)
    FAIL ("training.checkpointing", _("\"op\" is not planned yet with %s; allowed: none, selective, full"),
          field);
  return TRUE;
}
