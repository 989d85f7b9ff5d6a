/* hr-hf-import-ssm.c: Mamba, Mamba-2 and Jamba configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' MambaConfig, Mamba2Config and JambaConfig
 * (configuration_mamba.py, configuration_mamba2.py,
 * configuration_jamba.py), with those classes' defaults for what a config
 * leaves out:
 *   mamba:  hidden_size 768, num_hidden_layers 32, vocab_size 50280,
 *           state_size 16, conv_kernel 4, expand 2, time_step_rank "auto"
 *           (ceil(hidden_size / 16)), use_bias false, use_conv_bias true,
 *           tie_word_embeddings true (MambaForCausalLM ties lm_head);
 *   mamba2: hidden_size 4096, num_hidden_layers 64, vocab_size 32768,
 *           state_size 128, conv_kernel 4, expand 2, num_heads 128,
 *           head_dim 64, n_groups 8, tie_word_embeddings false;
 *   jamba:  mamba_d_state 16, mamba_d_conv 4, mamba_expand 2,
 *           mamba_dt_rank "auto", mamba_conv_bias true, mamba_proj_bias
 *           false, attn_layer_period 8 / offset 4, expert_layer_period 2 /
 *           offset 1, vocab_size 65536, intermediate_size 14336,
 *           num_key_value_heads 8, num_experts 16, num_experts_per_tok 2
 *           (Jamba-v0.1's).
 * The layers are those of hr-params-ssm.c: a pure Mamba model has no MLP
 * (MambaBlock: norm and mixer).  What these configs can say and the plan
 * does not count (biases on the projections, a convolution without one)
 * is refused, naming the key.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* "auto" or a number: Δ's rank, 0 for the default ceil(h / 16). */
static void
get_dt_rank (HrHfReader  *r,
             const char  *key,
             HrModelArch *out)
{
  const char *s = hr_hf_get_string (r->obj, key);

  if (s != NULL && strcmp (s, "auto") == 0)
    out->ssm_dt_rank = 0;
  else
    hr_hf_get_uint (r, key, 1, HR_MAX_HIDDEN, &out->ssm_dt_rank);
}

static gboolean
refuse_biases (HrHfReader  *r,
               const char  *proj_key,
               const char  *conv_key,
               GError     **error)
{
  if (hr_hf_get_bool (r->obj, proj_key, FALSE))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: %s: true (biases on the SSM "
                   "projections) is not supported; allowed: false"), r->origin, proj_key);
      return FALSE;
    }
  if (!hr_hf_get_bool (r->obj, conv_key, TRUE))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: %s: false (a convolution "
                   "without a bias) is not supported; allowed: true"), r->origin, conv_key);
      return FALSE;
    }
  return TRUE;
}

gboolean
hr_hf_import_mamba (HrHfReader   *r,
                    const char   *type,
                    HrModelArch  *out,
                    GPtrArray    *unmapped,
                    GError      **error)
{
  gboolean two = strcmp (type, "mamba2") == 0;
  guint64 v;

  hr_hf_init_rms_decoder (out, HR_MLP_SWIGLU);
  out->ssm = two ? HR_SSM_MAMBA2 : HR_SSM_MAMBA;
  /* No attention: the heads are not used (hr-validate.c needs them whole). */
  out->heads = out->kv_heads = 1;
  out->ffn = 0;
  out->hidden = two ? 4096 : 768;
  out->layers = two ? 64 : 32;
  out->vocab = two ? 32768 : 50280;
  out->tied_embeddings = hr_hf_get_bool (r->obj, "tie_word_embeddings", !two);

  hr_hf_get_uint (r, "hidden_size", 1, HR_MAX_HIDDEN, &out->hidden);
  hr_hf_get_uint (r, "num_hidden_layers", 1, HR_MAX_LAYERS, &out->layers);
  hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
  out->ssm_state = two ? 128 : 16;
  hr_hf_get_uint (r, "state_size", 1, HR_MAX_SSM_STATE, &out->ssm_state);
  out->ssm_conv = 4;
  hr_hf_get_uint (r, "conv_kernel", 1, HR_MAX_SSM_CONV, &out->ssm_conv);
  out->ssm_expand = 2;
  hr_hf_get_uint (r, "expand", 1, HR_MAX_SSM_EXPAND, &out->ssm_expand);
  if (!refuse_biases (r, "use_bias", "use_conv_bias", error))
    return FALSE;
  if (two)
    {
      out->ssm_heads = 128;
      out->ssm_head_dim = 64;
      out->ssm_groups = 8;
      hr_hf_get_uint (r, "num_heads", 1, HR_MAX_HEADS, &out->ssm_heads);
      hr_hf_get_uint (r, "head_dim", 1, HR_MAX_HIDDEN, &out->ssm_head_dim);
      hr_hf_get_uint (r, "n_groups", 1, HR_MAX_HEADS, &out->ssm_groups);
    }
  else
    get_dt_rank (r, "time_step_rank", out);
  /* The intermediate width is expand x hidden (MambaMixer,
   * Mamba2Mixer: int(config.expand * hidden_size)); a config that says
   * otherwise is not one these classes build. */
  if (hr_hf_get_uint (r, "intermediate_size", 1, HR_MAX_FFN, &v) && r->error == NULL
      && v != out->ssm_expand * out->hidden)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: intermediate_size: %" PRIu64
                   " is not expand x hidden_size = %" PRIu64 "; allowed: %"
                   PRIu64), r->origin, v, out->ssm_expand * out->hidden,
                   out->ssm_expand * out->hidden);
      return FALSE;
    }
  if (unmapped != NULL && !hr_hf_get_bool (r->obj, "residual_in_fp32", TRUE))
    g_ptr_array_add (unmapped, g_strdup ("residual_in_fp32: false; the plan keeps the "
                                         "residual stream in fp32, as the released models do"));
  return TRUE;
}

gboolean
hr_hf_import_jamba (HrHfReader   *r,
                    HrModelArch  *out,
                    GPtrArray    *unmapped,
                    GError      **error)
{
  JsonObject *obj = r->obj;

  /* JambaConfig's defaults for the transformer keys the generic reader
   * defaults otherwise (4·h wide, K/V heads = heads, no experts). */
  if (!json_object_has_member (obj, "vocab_size"))
    out->vocab = 65536;
  if (!json_object_has_member (obj, "intermediate_size"))
    out->ffn = 14336;
  if (!json_object_has_member (obj, "num_key_value_heads"))
    out->kv_heads = 8;
  if (!json_object_has_member (obj, "num_experts"))
    {
      out->experts = 16;
      out->experts_active = 2;
      hr_hf_get_uint (r, "num_experts_per_tok", 1, HR_MAX_EXPERTS, &out->experts_active);
    }
  out->ssm = HR_SSM_MAMBA;
  out->ssm_bc_norm = TRUE;
  out->ssm_state = 16;
  out->ssm_conv = 4;
  out->ssm_expand = 2;
  hr_hf_get_uint (r, "mamba_d_state", 1, HR_MAX_SSM_STATE, &out->ssm_state);
  hr_hf_get_uint (r, "mamba_d_conv", 1, HR_MAX_SSM_CONV, &out->ssm_conv);
  hr_hf_get_uint (r, "mamba_expand", 1, HR_MAX_SSM_EXPAND, &out->ssm_expand);
  get_dt_rank (r, "mamba_dt_rank", out);
  if (!refuse_biases (r, "mamba_proj_bias", "mamba_conv_bias", error))
    return FALSE;
  out->attn_layer_period = 8;
  out->attn_layer_offset = 4;
  hr_hf_get_uint (r, "attn_layer_period", 1, HR_MAX_LAYERS, &out->attn_layer_period);
  hr_hf_get_uint (r, "attn_layer_offset", 0, HR_MAX_LAYERS, &out->attn_layer_offset);
  if (out->experts > 1)
    {
      out->expert_layer_period = 2;
      out->expert_layer_offset = 1;
      hr_hf_get_uint (r, "expert_layer_period", 1, HR_MAX_LAYERS, &out->expert_layer_period);
      hr_hf_get_uint (r, "expert_layer_offset", 0, HR_MAX_LAYERS, &out->expert_layer_offset);
    }
  /* Jamba's experts are its MLP's width (JambaSparseMoeBlock of JambaMLP). */
  out->expert_ffn = 0;
  (void) unmapped;
  return TRUE;
}
