/* hr-hf-import-nemotron.c: Nemotron-H configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' NemotronHConfig (configuration_nemotron_h.py) and the
 * blocks of modeling_nemotron_h.py: every layer a NemotronHBlock, one
 * RMSNorm and one module, named by hybrid_override_pattern (M a Mamba-2
 * mixer, * attention, - an MLP, E an MoE block) or, in newer configs, by
 * layers_block_type ("mamba" or "linear_attention", "attention" or
 * "full_attention", "mlp", "moe").  The class's defaults for what a config
 * leaves out (NemotronH-v0.1, the 8B): vocab_size 131072, hidden_size
 * 4096, intermediate_size 21504, num_attention_heads 32,
 * num_key_value_heads 8, head_dim 128, mlp_hidden_act relu2,
 * ssm_state_size 128, mamba_num_heads 128, mamba_head_dim 64, n_groups 8,
 * conv_kernel 4, tie_word_embeddings false.  The mixer's inner width is
 * mamba_num_heads x mamba_head_dim (NemotronHMamba2Mixer), no multiple of
 * the hidden size in the 4B (112 x 64 over 3072): model.ssm_inner.
 * The attention has no bias and no position embedding whatever the config
 * says (NemotronHAttention: bias=False, no rotary call), the MLP no gate.
 * The MoE block (NemotronHMoE): n_routed_experts non-gated experts of
 * moe_intermediate_size, num_experts_per_tok of them per token, a router
 * of n_routed_experts x hidden (its e_score_correction_bias is a buffer,
 * no parameter) and one shared MLP of moe_shared_expert_intermediate_size
 * over every token, which the plan holds as shared_experts x expert_ffn:
 * a width that is no multiple of the experts' is refused; multi-token
 * prediction layers are left out, as transformers loads none (note_mtp).
 * With moe_latent_size (Nemotron 3's latent MoE)
 * fc1_latent_proj takes each token to that width before the experts, which
 * read and write it, and fc2_latent_proj takes their sum back:
 * model.moe_latent_size.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* The block a layers_block_type entry names, or '\0'. */
static char
block_char (const char *type)
{
  if (g_strcmp0 (type, "mamba") == 0 || g_strcmp0 (type, "linear_attention") == 0)
    return 'M';
  if (g_strcmp0 (type, "attention") == 0 || g_strcmp0 (type, "full_attention") == 0)
    return '*';
  if (g_strcmp0 (type, "mlp") == 0)
    return '-';
  if (g_strcmp0 (type, "moe") == 0)
    return 'E';
  return '\0';
}

/* The pattern, from hybrid_override_pattern or layers_block_type (the
 * latter wins, as NemotronHConfig stores it and derives the former);
 * NemotronH-v0.1's when neither is there. */
static gboolean
read_pattern (HrHfReader   *r,
              HrModelArch  *out,
              GError      **error)
{
  JsonNode *list = json_object_get_member (r->obj, "layers_block_type");
  const char *pattern = hr_hf_get_string (r->obj, "hybrid_override_pattern");

  if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
    {
      JsonArray *a = json_node_get_array (list);
      guint n = json_array_get_length (a);

      if (n == 0 || n >= HR_LAYER_PATTERN_MAX)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: layers_block_type: %u layers is "
                       "not supported; allowed: 1 to %d"), r->origin, n, HR_LAYER_PATTERN_MAX - 1);
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          const char *type = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
                             ? json_node_get_string (e) : NULL;
          char c = block_char (type);

          if (c == '\0')
            {
              g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: layers_block_type[%u]: "
                           "not a block type; allowed: mamba, linear_attention, attention, "
                           "full_attention, mlp, moe"), r->origin, i);
              return FALSE;
            }
          out->layer_pattern[i] = c;
        }
      out->layer_pattern[n] = '\0';
      return TRUE;
    }
  if (pattern == NULL)
    pattern = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-";
  if (*pattern == '\0' || strlen (pattern) >= HR_LAYER_PATTERN_MAX
      || strspn (pattern, "M*-E") != strlen (pattern))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: hybrid_override_pattern: not a "
                   "pattern Headroom reads; allowed: 1 to %d of the characters M, *, - and E"),
                   r->origin, HR_LAYER_PATTERN_MAX - 1);
      return FALSE;
    }
  g_strlcpy (out->layer_pattern, pattern, sizeof out->layer_pattern);
  return TRUE;
}

/* A value the blocks cannot hold: the MoE block, an MLP with another
 * activation or biases, biased SSM projections. */
static gboolean
refuse_unplanned (HrHfReader   *r,
                  HrModelArch  *out,
                  GError      **error)
{
  const char *act = hr_hf_get_string (r->obj, "mlp_hidden_act");

  if (act != NULL && strcmp (act, "relu2") != 0)
    return hr_hf_refuse (r->origin, "mlp_hidden_act", act, "Nemotron-H", "relu2", error);
  if (hr_hf_get_bool (r->obj, "mlp_bias", FALSE))
    return hr_hf_refuse (r->origin, "mlp_bias", "true", "Nemotron-H", "false", error);
  if (hr_hf_get_bool (r->obj, "use_bias", FALSE))
    return hr_hf_refuse (r->origin, "use_bias", "true", "Nemotron-H", "false", error);
  if (!hr_hf_get_bool (r->obj, "use_conv_bias", hr_hf_get_bool (r->obj, "mamba_conv_bias", TRUE)))
    return hr_hf_refuse (r->origin, "use_conv_bias", "false", "Nemotron-H", "true", error);
  return TRUE;
}

/* Nemotron 3's multi-token-prediction layers: transformers' NemotronH
 * builds none and drops their weights on loading
 * (NemotronHPreTrainedModel._keys_to_ignore_on_load_unexpected, mtp.*),
 * so the plan, as Hugging Face trains, has none, and says so; Megatron,
 * which trains them, lays them out by a pattern of their own
 * (mtp_hybrid_override_pattern) that the plan does not read. */
static void
note_mtp (HrHfReader *r,
          GPtrArray  *unmapped)
{
  guint64 mtp = 0;

  if (hr_hf_get_uint (r, "num_nextn_predict_layers", 0, 64, &mtp) && mtp > 0 && unmapped != NULL)
    g_ptr_array_add (unmapped, g_strdup_printf ("num_nextn_predict_layers: %" PRIu64 " multi-token-"
                                                "prediction layer(s) not planned: transformers' "
                                                "NemotronH loads none (Megatron trains them)", mtp));
}

/* The MoE blocks' experts and shared MLP, NemotronHConfig's defaults
 * for what the config leaves out (8 experts of 7688, 2 per token, a
 * shared MLP of 7688). */
static gboolean
read_moe (HrHfReader   *r,
          HrModelArch  *out,
          GError      **error)
{
  static const char * const experts_keys[] = { "n_routed_experts", "num_local_experts", NULL };
  guint64 shared = 7688;

  out->experts = 8;
  out->experts_active = 2;
  out->expert_ffn = 7688;
  hr_hf_get_uint_any (r, experts_keys, 2, HR_MAX_EXPERTS, &out->experts);
  hr_hf_get_uint (r, "num_experts_per_tok", 1, HR_MAX_EXPERTS, &out->experts_active);
  hr_hf_get_uint (r, "moe_intermediate_size", 1, HR_MAX_FFN, &out->expert_ffn);
  hr_hf_get_uint (r, "moe_shared_expert_intermediate_size", 0, HR_MAX_FFN, &shared);
  /* (null, NemotronHConfig's default, is no latent) */
  out->moe_latent_size = 0;
  hr_hf_get_uint (r, "moe_latent_size", 1, HR_MAX_HIDDEN, &out->moe_latent_size);
  if (shared % out->expert_ffn != 0)
    {
      g_autofree char *value = g_strdup_printf ("%" PRIu64, shared);
      g_autofree char *allowed = g_strdup_printf (_("a multiple of moe_intermediate_size = %" PRIu64),
                                                  out->expert_ffn);

      return hr_hf_refuse (r->origin, "moe_shared_expert_intermediate_size", value, "Nemotron-H",
                           allowed, error);
    }
  out->shared_experts = shared / out->expert_ffn;
  return TRUE;
}

gboolean
hr_hf_import_nemotron_h (HrHfReader   *r,
                         HrModelArch  *out,
                         GPtrArray    *unmapped,
                         GError      **error)
{
  static const char * const groups_keys[] = { "n_groups", "mamba_n_groups", NULL };
  static const char * const conv_keys[] = { "conv_kernel", "mamba_d_conv", NULL };
  static const char * const head_dim_keys[] = { "head_dim", "attention_head_dim", NULL };
  guint64 layers = 0, mamba_heads = 128, mamba_head_dim = 64;

  hr_hf_init_rms_decoder (out, HR_MLP_RELU2);
  out->vocab = 131072;
  out->hidden = 4096;
  out->ffn = 21504;
  out->heads = 32;
  out->kv_heads = 8;
  out->head_dim = 128;
  out->tied_embeddings = hr_hf_get_bool (r->obj, "tie_word_embeddings", FALSE);
  if (!read_pattern (r, out, error) || !refuse_unplanned (r, out, error))
    return FALSE;
  /* NemotronHConfig.num_hidden_layers is the pattern's length; a config
   * that says otherwise gets a warning there and the pattern's count. */
  out->layers = strlen (out->layer_pattern);
  if (hr_hf_get_uint (r, "num_hidden_layers", 1, HR_MAX_LAYERS, &layers) && layers != out->layers
      && unmapped != NULL)
    g_ptr_array_add (unmapped, g_strdup_printf ("num_hidden_layers: %" PRIu64 "; the pattern's %"
                                                PRIu64 " layers are planned, as NemotronHConfig "
                                                "does", layers, out->layers));

  hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
  hr_hf_get_uint (r, "hidden_size", 1, HR_MAX_HIDDEN, &out->hidden);
  hr_hf_get_uint (r, "intermediate_size", 1, HR_MAX_FFN, &out->ffn);
  hr_hf_get_uint (r, "num_attention_heads", 1, HR_MAX_HEADS, &out->heads);
  hr_hf_get_uint (r, "num_key_value_heads", 1, HR_MAX_HEADS, &out->kv_heads);
  hr_hf_get_uint_any (r, head_dim_keys, 1, HR_MAX_HIDDEN, &out->head_dim);

  if (strchr (out->layer_pattern, 'M') != NULL)
    {
      out->ssm = HR_SSM_MAMBA2;
      out->ssm_state = 128;
      out->ssm_conv = 4;
      out->ssm_groups = 8;
      hr_hf_get_uint (r, "ssm_state_size", 1, HR_MAX_SSM_STATE, &out->ssm_state);
      hr_hf_get_uint_any (r, conv_keys, 1, HR_MAX_SSM_CONV, &out->ssm_conv);
      hr_hf_get_uint_any (r, groups_keys, 1, HR_MAX_HEADS, &out->ssm_groups);
      hr_hf_get_uint (r, "mamba_num_heads", 1, HR_MAX_HEADS, &mamba_heads);
      hr_hf_get_uint (r, "mamba_head_dim", 1, HR_MAX_HIDDEN, &mamba_head_dim);
      out->ssm_heads = mamba_heads;
      out->ssm_head_dim = mamba_head_dim;
      out->ssm_inner = mamba_heads * mamba_head_dim;
    }
  if (strchr (out->layer_pattern, 'E') != NULL && !read_moe (r, out, error))
    return FALSE;
  note_mtp (r, unmapped);
  if (unmapped != NULL && hr_hf_get_bool (r->obj, "residual_in_fp32", FALSE))
    g_ptr_array_add (unmapped, g_strdup ("residual_in_fp32: true; NemotronHBlock keeps the "
                                         "residual in the model's type, and so does the plan"));
  return TRUE;
}
