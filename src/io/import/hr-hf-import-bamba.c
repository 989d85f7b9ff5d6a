/* hr-hf-import-bamba.c: Bamba configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' BambaConfig (configuration_bamba.py) and modeling_bamba.py:
 * every layer a BambaDecoderLayer, an RMSNorm, its mixer (a Mamba-2
 * BambaMixer, or attention at the layers attn_layer_indices lists), an
 * RMSNorm and a SwiGLU BambaMLP (gate, up, down, no bias), as Jamba's
 * layers are; model.layer_mixers says which layer attends.  The class's
 * defaults for what a config leaves out: vocab_size 128000, hidden_size
 * 4096, intermediate_size 14336, 32 layers, 32 heads, 8 K/V heads,
 * mamba_n_heads 128, mamba_d_head "auto" (expand x hidden / heads),
 * mamba_n_groups 1, mamba_d_state 256, mamba_d_conv 4, mamba_expand 2,
 * tie_word_embeddings false, no attention layer.  The attention and the
 * MLP have no bias whatever the config says (BambaConfig sets
 * attention_bias and mlp_bias false); the mixer's conv1d has one
 * (mamba_conv_bias) and its projections none (mamba_proj_bias), which is
 * what the plan's Mamba-2 has: the other way round is refused.
 * Checked against ibm-fms/Bamba-9B's config.json (at 43f21514: 32 layers,
 * attention at 9, 18 and 27, 128 Mamba heads of 64, d_state 128, vocab
 * 128256, untied): 9,780,235,392 parameters, the model card's 9.78B.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* The mixers from attn_layer_indices: each a whole number below the
 * layer count; a list that is not one is refused, naming the key. */
static gboolean
read_attention_layers (HrHfReader   *r,
                       HrModelArch  *out,
                       GError      **error)
{
  JsonNode *node = json_object_get_member (r->obj, "attn_layer_indices");
  g_autofree char *allowed = g_strdup_printf (_("null or a list of layer numbers, 0 to %" PRIu64),
                                              out->layers - 1);

  memset (out->layer_mixers, 'M', out->layers);
  out->layer_mixers[out->layers] = '\0';
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return hr_hf_refuse (r->origin, "attn_layer_indices", _("not a list"), "Bamba", allowed, error);
  for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (node), i);
      double v = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) != G_TYPE_STRING
                 && json_node_get_value_type (e) != G_TYPE_BOOLEAN
                 ? json_node_get_double (e) : -1;

      /* (the range first: converting a double past 2^64, or NaN, to an
       * integer is undefined) */
      if (!(v >= 0) || v >= (double) out->layers || v != (double) (guint64) v)
        {
          g_autofree char *key = g_strdup_printf ("attn_layer_indices[%u]", i);

          return hr_hf_refuse (r->origin, key, _("not a layer number"), "Bamba", allowed, error);
        }
      out->layer_mixers[(guint64) v] = '*';
    }
  return TRUE;
}

/* The Mamba-2 mixer's sizes; d_head "auto" (or absent) is expand x
 * hidden / heads, and any other must give the same inner width
 * (BambaConfig raises otherwise).  Granite 4.0-H's mixer is BambaMixer
 * with the same keys and defaults (GraniteMoeHybridMambaLayer). */
gboolean
hr_hf_read_bamba_mixer (HrHfReader   *r,
                        HrModelArch  *out,
                        const char   *architecture,
                        GError      **error)
{
  guint64 heads = 128, head_dim = 0, expand = 2;

  out->ssm = HR_SSM_MAMBA2;
  out->ssm_state = 256;
  out->ssm_conv = 4;
  out->ssm_groups = 1;
  hr_hf_get_uint (r, "mamba_n_heads", 1, HR_MAX_HEADS, &heads);
  hr_hf_get_uint (r, "mamba_expand", 1, HR_MAX_SSM_EXPAND, &expand);
  hr_hf_get_uint (r, "mamba_d_state", 1, HR_MAX_SSM_STATE, &out->ssm_state);
  hr_hf_get_uint (r, "mamba_d_conv", 1, HR_MAX_SSM_CONV, &out->ssm_conv);
  hr_hf_get_uint (r, "mamba_n_groups", 1, HR_MAX_HEADS, &out->ssm_groups);
  if (r->error != NULL)
    return TRUE;      /* a value out of range, which the caller reports */
  if (!hr_hf_get_uint (r, "mamba_d_head", 1, HR_MAX_HIDDEN, &head_dim))
    head_dim = expand * out->hidden / heads;
  if (r->error != NULL)
    return TRUE;
  if (head_dim * heads != expand * out->hidden)
    {
      g_autofree char *value = g_strdup_printf ("%" PRIu64, head_dim);
      g_autofree char *allowed = g_strdup_printf (_("mamba_expand x hidden_size / mamba_n_heads = %"
                                                    PRIu64), expand * out->hidden / heads);

      return hr_hf_refuse (r->origin, "mamba_d_head", value, architecture, allowed, error);
    }
  out->ssm_expand = expand;
  out->ssm_heads = heads;
  out->ssm_head_dim = head_dim;
  if (hr_hf_get_bool (r->obj, "mamba_proj_bias", FALSE))
    return hr_hf_refuse (r->origin, "mamba_proj_bias", "true", architecture, "false", error);
  if (!hr_hf_get_bool (r->obj, "mamba_conv_bias", TRUE))
    return hr_hf_refuse (r->origin, "mamba_conv_bias", "false", architecture, "true", error);
  return TRUE;
}

gboolean
hr_hf_read_hybrid_shape (HrHfReader  *r,
                         HrModelArch *out,
                         const char  *architecture,
                         GError     **error)
{
  const char *act = hr_hf_get_string (r->obj, "hidden_act");

  out->tied_embeddings = hr_hf_get_bool (r->obj, "tie_word_embeddings", FALSE);
  if (act != NULL && strcmp (act, "silu") != 0)
    return hr_hf_refuse (r->origin, "hidden_act", act, architecture, "silu", error);
  hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
  hr_hf_get_uint (r, "hidden_size", 1, HR_MAX_HIDDEN, &out->hidden);
  hr_hf_get_uint (r, "num_hidden_layers", 1, HR_LAYER_PATTERN_MAX - 1, &out->layers);
  hr_hf_get_uint (r, "num_attention_heads", 1, HR_MAX_HEADS, &out->heads);
  if (out->kv_heads == 0)
    out->kv_heads = out->heads;
  hr_hf_get_uint (r, "num_key_value_heads", 1, HR_MAX_HEADS, &out->kv_heads);
  out->head_dim = out->hidden / out->heads;
  hr_hf_get_uint (r, "head_dim", 1, HR_MAX_HIDDEN, &out->head_dim);
  return TRUE;
}

gboolean
hr_hf_import_bamba (HrHfReader   *r,
                    HrModelArch  *out,
                    GPtrArray    *unmapped,
                    GError      **error)
{
  hr_hf_init_rms_decoder (out, HR_MLP_SWIGLU);
  out->vocab = 128000;
  out->hidden = 4096;
  out->ffn = 14336;
  out->layers = 32;
  out->heads = 32;
  out->kv_heads = 8;
  if (!hr_hf_read_hybrid_shape (r, out, "Bamba", error))
    return FALSE;
  hr_hf_get_uint (r, "intermediate_size", 1, HR_MAX_FFN, &out->ffn);
  if (!read_attention_layers (r, out, error) || !hr_hf_read_bamba_mixer (r, out, "Bamba", error))
    return FALSE;
  if (unmapped != NULL && strchr (out->layer_mixers, '*') != NULL)
    g_ptr_array_add (unmapped, g_strdup ("partial_rotary_factor: 0.5 (BambaConfig's, RoPE on half "
                                         "of each head) is planned as RoPE on the whole head"));
  return TRUE;
}
