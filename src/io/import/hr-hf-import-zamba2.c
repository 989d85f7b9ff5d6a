/* hr-hf-import-zamba2.c: Zamba2 configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' Zamba2Config (configuration_zamba2.py at 02f58079) and
 * modeling_zamba2.py: num_hidden_layers Mamba-2 layers, those that
 * layers_block_type calls "hybrid" led by a shared transformer block (the
 * pattern's S before the layer's M, hr-validate-shared.c), num_mem_blocks
 * blocks taken in turn.  What Zamba2Config.__init__ derives, a config
 * cannot set otherwise: attention_hidden_size = 2 x hidden_size,
 * attention_head_dim = 2 x hidden_size / num_attention_heads, mamba_headdim
 * = mamba_expand x hidden_size / n_mamba_heads.  The class's defaults for
 * what a config leaves out: hidden_size 2560, num_hidden_layers 54 with
 * its layer list, intermediate_size 4 x hidden_size, num_attention_heads
 * 32, num_key_value_heads = the heads, num_mem_blocks 1, adapter_rank 128,
 * use_shared_attention_adapter false, mamba_d_state 64, mamba_d_conv 4,
 * mamba_expand 2, mamba_ngroups 1, n_mamba_heads 8, vocab_size 32000,
 * hidden_act gelu (the MLP's act(gate) x up: geglu), tied embeddings
 * (PretrainedConfig's default).  The conv1d has a bias whatever
 * use_conv_bias says (bias=True in Zamba2MambaMixer).  Zyphra's own
 * format (ffn_hidden_size, use_shared_block_lora), which its first
 * checkpoints were published in, is refused: Hugging Face's code builds
 * other modules from it.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#define ARCHITECTURE "Zamba2"

/* Zamba2Config's layers_block_type when the config gives none:
 * ["mamba"] + (["mamba"] * 5 + ["hybrid"]) * 7 + ["mamba"] * 4 +
 * ["hybrid"] + ["mamba"] * 3 + ["hybrid"] + ["mamba"] * 2: hybrid at 6,
 * 12, 18, 24, 30, 36, 42, 47 and 51 of 54. */
static const guint default_hybrid[] = { 6, 12, 18, 24, 30, 36, 42, 47, 51 };
#define DEFAULT_LAYERS 54

/* The pattern: an M per layer, an S before each hybrid one. */
static gboolean
read_layers (HrHfReader   *r,
             HrModelArch  *out,
             GError      **error)
{
  JsonNode *list = json_object_get_member (r->obj, "layers_block_type");
  guint64 layers = DEFAULT_LAYERS;
  gboolean hybrid[HR_LAYER_PATTERN_MAX] = { FALSE };
  gsize n = 0;

  hr_hf_get_uint (r, "num_hidden_layers", 1, HR_LAYER_PATTERN_MAX - 1, &layers);
  if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
    {
      JsonArray *a = json_node_get_array (list);

      if (json_array_get_length (a) != layers)
        {
          g_autofree char *value = g_strdup_printf (_("%u entries"), json_array_get_length (a));
          g_autofree char *allowed = g_strdup_printf (_("one entry per layer, %" PRIu64), layers);

          return hr_hf_refuse (r->origin, "layers_block_type", value, ARCHITECTURE, allowed, error);
        }
      for (guint i = 0; i < layers; i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          const char *type = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
                             ? json_node_get_string (e) : NULL;

          if (g_strcmp0 (type, "mamba") != 0 && g_strcmp0 (type, "hybrid") != 0)
            {
              g_autofree char *key = g_strdup_printf ("layers_block_type[%u]", i);

              return hr_hf_refuse (r->origin, key, type != NULL ? type : _("not a string"),
                                   ARCHITECTURE, "mamba, hybrid", error);
            }
          hybrid[i] = g_strcmp0 (type, "hybrid") == 0;
        }
    }
  else if (layers == DEFAULT_LAYERS)
    for (guint i = 0; i < G_N_ELEMENTS (default_hybrid); i++)
      hybrid[default_hybrid[i]] = TRUE;
  else
    return hr_hf_refuse (r->origin, "layers_block_type", _("(missing)"), ARCHITECTURE,
                         _("the list of \"mamba\" and \"hybrid\" layers, which Zamba2Config has "
                           "for its 54 layers only"), error);
  /* (two characters a hybrid layer: at most 255 layers fit, checked by
   * the pattern's length) */
  for (guint64 i = 0; i < layers; i++)
    {
      if (n + 2 >= HR_LAYER_PATTERN_MAX)
        return hr_hf_refuse (r->origin, "num_hidden_layers", _("(too many hybrid layers)"),
                             ARCHITECTURE, _("up to 511 blocks, a hybrid layer two"), error);
      if (hybrid[i])
        out->layer_pattern[n++] = 'S';
      out->layer_pattern[n++] = 'M';
    }
  out->layer_pattern[n] = '\0';
  out->layers = n;
  return TRUE;
}

/* What the modules cannot hold: biases on the linears, another MLP. */
static gboolean
refuse_unplanned (HrHfReader   *r,
                  HrModelArch  *out,
                  GError      **error)
{
  const char *act = hr_hf_get_string (r->obj, "hidden_act");

  if (json_object_has_member (r->obj, "ffn_hidden_size")
      || json_object_has_member (r->obj, "use_shared_block_lora"))
    return hr_hf_refuse (r->origin, json_object_has_member (r->obj, "ffn_hidden_size")
                         ? "ffn_hidden_size" : "use_shared_block_lora", _("(present)"),
                         ARCHITECTURE, _("a config in transformers' format (intermediate_size, "
                         "adapter_rank); this is Zyphra's own, which builds other modules"), error);
  if (hr_hf_get_bool (r->obj, "add_bias_linear", FALSE))
    return hr_hf_refuse (r->origin, "add_bias_linear", "true", ARCHITECTURE, "false", error);
  if (act == NULL || g_strcmp0 (act, "gelu") == 0 || g_strcmp0 (act, "gelu_pytorch_tanh") == 0)
    out->mlp = HR_MLP_GEGLU;
  else if (g_strcmp0 (act, "silu") == 0)
    out->mlp = HR_MLP_SWIGLU;
  else
    return hr_hf_refuse (r->origin, "hidden_act", act, ARCHITECTURE, "gelu, silu", error);
  return TRUE;
}

gboolean
hr_hf_import_zamba2 (HrHfReader   *r,
                     HrModelArch  *out,
                     GPtrArray    *unmapped,
                     GError      **error)
{
  guint64 expand = 2, mamba_heads = 8, ffn = 0;

  hr_hf_init_rms_decoder (out, HR_MLP_GEGLU);
  out->vocab = 32000;
  out->hidden = 2560;
  out->heads = 32;
  out->tied_embeddings = hr_hf_get_bool (r->obj, "tie_word_embeddings", TRUE);
  if (!read_layers (r, out, error) || !refuse_unplanned (r, out, error))
    return FALSE;
  hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
  hr_hf_get_uint (r, "hidden_size", 1, HR_MAX_HIDDEN, &out->hidden);
  hr_hf_get_uint (r, "num_attention_heads", 1, HR_MAX_HEADS, &out->heads);
  out->kv_heads = out->heads;
  hr_hf_get_uint (r, "num_key_value_heads", 1, HR_MAX_HEADS, &out->kv_heads);
  out->ffn = 4 * out->hidden;
  if (hr_hf_get_uint (r, "intermediate_size", 1, HR_MAX_FFN, &ffn))
    out->ffn = ffn;
  /* attention_head_dim and mamba_headdim are derived, whatever the file
   * says (Zamba2Config.__init__) */
  if (2 * out->hidden % out->heads != 0)
    {
      g_autofree char *value = g_strdup_printf ("%" PRIu64, out->heads);
      g_autofree char *allowed = g_strdup_printf (_("a divisor of 2 x hidden_size = %" PRIu64),
                                                  2 * out->hidden);

      return hr_hf_refuse (r->origin, "num_attention_heads", value, ARCHITECTURE, allowed, error);
    }
  out->head_dim = 2 * out->hidden / out->heads;

  out->ssm = HR_SSM_MAMBA2;
  out->ssm_state = 64;
  out->ssm_conv = 4;
  out->ssm_groups = 1;
  hr_hf_get_uint (r, "mamba_d_state", 1, HR_MAX_SSM_STATE, &out->ssm_state);
  hr_hf_get_uint (r, "mamba_d_conv", 1, HR_MAX_SSM_CONV, &out->ssm_conv);
  hr_hf_get_uint (r, "mamba_ngroups", 1, HR_MAX_HEADS, &out->ssm_groups);
  hr_hf_get_uint (r, "mamba_expand", 1, HR_MAX_SSM_EXPAND, &expand);
  hr_hf_get_uint (r, "n_mamba_heads", 1, HR_MAX_HEADS, &mamba_heads);
  out->ssm_inner = expand * out->hidden;
  out->ssm_heads = mamba_heads;
  if (out->ssm_inner % mamba_heads != 0)
    {
      g_autofree char *value = g_strdup_printf ("%" PRIu64, mamba_heads);
      g_autofree char *allowed = g_strdup_printf (_("a divisor of mamba_expand x hidden_size = %" PRIu64),
                                                  out->ssm_inner);

      return hr_hf_refuse (r->origin, "n_mamba_heads", value, ARCHITECTURE, allowed, error);
    }
  out->ssm_head_dim = out->ssm_inner / mamba_heads;

  out->shared_blocks = 1;
  out->shared_adapter_rank = 128;
  hr_hf_get_uint (r, "num_mem_blocks", 1, HR_MAX_SHARED_BLOCKS, &out->shared_blocks);
  hr_hf_get_uint (r, "adapter_rank", 1, HR_MAX_LORA_RANK, &out->shared_adapter_rank);
  out->shared_attention_adapters = hr_hf_get_bool (r->obj, "use_shared_attention_adapter", FALSE);
  if (unmapped != NULL && json_object_has_member (r->obj, "use_shared_mlp_adapter"))
    g_ptr_array_add (unmapped, g_strdup ("use_shared_mlp_adapter: the MLP adapters are built "
                                         "whatever it says (modeling_zamba2.py), and planned"));
  return TRUE;
}
