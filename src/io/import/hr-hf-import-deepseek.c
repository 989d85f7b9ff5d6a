/* hr-hf-import-deepseek.c: DeepSeek-V2 and V3 configs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* DeepSeek-V2 and V3 (transformers' DeepseekV2Config, DeepseekV3Config;
 * modeling_deepseek_v3.py): multi-head latent attention from q_lora_rank
 * (null: Q projected directly, V2-Lite), kv_lora_rank, qk_nope_head_dim,
 * qk_rope_head_dim and v_head_dim; n_shared_experts shared experts of
 * moe_intermediate_size each; the first first_k_dense_replace layers dense
 * (intermediate_size); V3's router bias (e_score_correction_bias, with its
 * topk_method "noaux_tc"); num_nextn_predict_layers multi-token-prediction
 * modules.  The latent's ranks and head dimensions are required (the
 * classes' defaults are DeepSeek-V3's, which would plan another model
 * silently); q_lora_rank absent is the classes' 1536.  MoE layers other
 * than every one (moe_layer_freq) are refused. */
gboolean
hr_hf_import_deepseek (HrHfReader   *r,
                       const char   *type,
                       HrModelArch  *out,
                       GError      **error)
{
  JsonObject *obj = r->obj;
  JsonNode *ql = json_object_get_member (obj, "q_lora_rank");
  const char *topk = hr_hf_get_string (obj, "topk_method");
  guint64 v;

  out->attention_kind = HR_ATTN_KIND_MLA;
  out->head_dim = 0;
  out->q_lora_rank = 1536;
  if (ql != NULL && JSON_NODE_HOLDS_NULL (ql))
    out->q_lora_rank = 0;
  else
    hr_hf_get_uint (r, "q_lora_rank", 0, HR_MAX_HIDDEN, &out->q_lora_rank);
  if (!hr_hf_get_uint (r, "kv_lora_rank", 1, HR_MAX_HIDDEN, &out->kv_lora_rank)
      || !hr_hf_get_uint (r, "qk_nope_head_dim", 1, HR_MAX_HIDDEN, &out->qk_nope_head_dim)
      || !hr_hf_get_uint (r, "qk_rope_head_dim", 2, HR_MAX_HIDDEN, &out->qk_rope_head_dim)
      || !hr_hf_get_uint (r, "v_head_dim", 1, HR_MAX_HIDDEN, &out->v_head_dim))
    {
      if (r->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&r->error));
          return FALSE;
        }
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: model_type \"%s\" needs "
                   "kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and v_head_dim; allowed: "
                   "a config.json with all four"), r->origin, type);
      return FALSE;
    }
  if (out->experts > 1)
    {
      hr_hf_get_uint (r, "n_shared_experts", 0, HR_MAX_EXPERTS, &out->shared_experts);
      hr_hf_get_uint (r, "first_k_dense_replace", 0, HR_MAX_LAYERS, &out->dense_layers);
      if (hr_hf_get_uint (r, "moe_layer_freq", 1, HR_MAX_LAYERS, &v) && v != 1)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: moe_layer_freq: %" PRIu64
                       " is not supported; allowed: 1 (every layer after the dense ones is MoE)"),
                       r->origin, v);
          return FALSE;
        }
      out->router_bias = topk != NULL ? strcmp (topk, "noaux_tc") == 0
                                      : strcmp (type, "deepseek_v3") == 0;
    }
  hr_hf_get_uint (r, "num_nextn_predict_layers", 0, HR_MAX_MTP_MODULES, &out->mtp_modules);
  return TRUE;   /* (a bad value above is r->error, which finish_model reports) */
}
