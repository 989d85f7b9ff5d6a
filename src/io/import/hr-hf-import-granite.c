/* hr-hf-import-granite.c: Granite 4.0-H configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' GraniteMoeHybridConfig (configuration_granitemoehybrid.py)
 * and modular_granitemoehybrid.py: every layer a
 * GraniteMoeHybridDecoderLayer, an RMSNorm, its mixer (Bamba's Mamba-2
 * BambaMixer where layer_types says "mamba", attention where it says
 * "attention"), an RMSNorm, then with num_local_experts > 0 the experts
 * (GraniteMoeMoE: a router of num_local_experts x hidden without bias,
 * every expert a gated MLP of intermediate_size) plus the shared MLP, or
 * without experts the shared MLP alone (GraniteMoeSharedMLP: a gated MLP
 * of shared_intermediate_size, no bias).  The plan holds the shared MLP
 * as shared_experts x expert_ffn, so shared_intermediate_size must be a
 * multiple of intermediate_size where there are experts.  The class's
 * defaults for what a config leaves out: vocab_size 32000, hidden_size
 * 4096, intermediate_size 11008, 32 layers, 32 heads, K/V heads as many
 * as heads, 8 experts, 2 per token, a shared MLP of 1024, every layer
 * Mamba, untied embeddings; the mixer's are Bamba's.  The multipliers
 * (embedding, residual, attention, logits_scaling) are scalars: no
 * parameter, and no tensor autograd keeps.
 * Checked against ibm-granite/granite-4.0-h-tiny's config (40 layers of
 * 1536, attention at 5, 15, 25 and 35, 64 experts of 512, 6 per token, a
 * shared MLP of 1024, 48 Mamba heads of 64, vocab 100352, tied):
 * 6,939,037,248 parameters, llama.cpp's 6.94 B for IBM's GGUF of it.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#define ARCHITECTURE "Granite 4.0-H"

/* layer_types: "mamba" or "attention" for each layer, as many as the
 * layers; absent or null, every layer Mamba (layers_block_type). */
static gboolean
read_layer_types (HrHfReader   *r,
                  HrModelArch  *out,
                  GError      **error)
{
  JsonNode *node = json_object_get_member (r->obj, "layer_types");
  g_autofree char *allowed = g_strdup_printf (_("null or a list of %" PRIu64 " of \"mamba\" and "
                                                "\"attention\" (num_hidden_layers)"), out->layers);
  JsonArray *list;

  memset (out->layer_mixers, 'M', out->layers);
  out->layer_mixers[out->layers] = '\0';
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return hr_hf_refuse (r->origin, "layer_types", _("not a list"), ARCHITECTURE, allowed, error);
  list = json_node_get_array (node);
  if (json_array_get_length (list) != out->layers)
    {
      g_autofree char *value = g_strdup_printf (_("%u layers"), json_array_get_length (list));

      return hr_hf_refuse (r->origin, "layer_types", value, ARCHITECTURE, allowed, error);
    }
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *e = json_array_get_element (list, i);
      const char *kind = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
                         ? json_node_get_string (e) : NULL;

      if (g_strcmp0 (kind, "attention") == 0)
        out->layer_mixers[i] = '*';
      else if (g_strcmp0 (kind, "mamba") != 0)
        {
          g_autofree char *key = g_strdup_printf ("layer_types[%u]", i);

          return hr_hf_refuse (r->origin, key, kind != NULL ? kind : _("not a string"),
                               ARCHITECTURE, "\"mamba\", \"attention\"", error);
        }
    }
  return TRUE;
}

/* The MLP of every layer: the experts and the shared MLP, or the shared
 * MLP alone as the dense MLP. */
static gboolean
read_mlp (HrHfReader   *r,
          HrModelArch  *out,
          GError      **error)
{
  guint64 experts = 8, active = 2, width = 11008, shared = 1024;

  hr_hf_get_uint (r, "num_local_experts", 0, HR_MAX_EXPERTS, &experts);
  hr_hf_get_uint (r, "intermediate_size", 1, HR_MAX_FFN, &width);
  hr_hf_get_uint (r, "shared_intermediate_size", 0, HR_MAX_FFN, &shared);
  if (experts == 0)
    {
      /* (num_experts_per_tok is not read without experts: the configs of
       * the dense models say 0) */
      out->ffn = shared;
      return TRUE;
    }
  hr_hf_get_uint (r, "num_experts_per_tok", 1, experts, &active);
  if (r->error != NULL)
    return TRUE;      /* a value out of range, which the caller reports */
  if (experts == 1)
    return hr_hf_refuse (r->origin, "num_local_experts", "1", ARCHITECTURE,
                         _("0 (the shared MLP alone), or 2 or more"), error);
  /* (none beside the experts would make them Jamba's to the plan, whose
   * router and linears differ: hr-activations-ssm.c) */
  if (shared == 0 || shared % width != 0)
    {
      g_autofree char *value = g_strdup_printf ("%" PRIu64, shared);
      g_autofree char *allowed = g_strdup_printf (_("a multiple of intermediate_size = %" PRIu64
                                                    ", one or more"), width);

      return hr_hf_refuse (r->origin, "shared_intermediate_size", value, ARCHITECTURE, allowed, error);
    }
  out->experts = experts;
  out->experts_active = active;
  out->expert_ffn = width;
  out->ffn = width;
  out->shared_experts = shared / width;
  return TRUE;
}

gboolean
hr_hf_import_granite_hybrid (HrHfReader   *r,
                             HrModelArch  *out,
                             GPtrArray    *unmapped,
                             GError      **error)
{
  hr_hf_init_rms_decoder (out, HR_MLP_SWIGLU);
  out->vocab = 32000;
  out->hidden = 4096;
  out->layers = 32;
  out->heads = 32;
  out->kv_heads = 0;      /* as many as the heads */
  if (hr_hf_get_bool (r->obj, "attention_bias", FALSE))
    return hr_hf_refuse (r->origin, "attention_bias", "true", ARCHITECTURE, "false", error);
  if (!hr_hf_read_hybrid_shape (r, out, ARCHITECTURE, error))
    return FALSE;
  if (r->error != NULL)
    return TRUE;      /* a value out of range, which the caller reports */
  if (!read_layer_types (r, out, error) || !read_mlp (r, out, error))
    return FALSE;
  if (r->error != NULL)
    return TRUE;
  if (strchr (out->layer_mixers, 'M') == NULL)
    {
      /* Every layer attends (Granite 4.0's dense transformers, whose
       * model_type is this one): a plain decoder, which plans the
       * shared MLP as its MLP; experts beside it would be planned as
       * DeepSeek's, whose router keeps an fp32 copy of the tokens
       * (hr-activations-blocks.c), so those are refused. */
      out->layer_mixers[0] = '\0';
      if (out->experts > 1)
        return hr_hf_refuse (r->origin, "layer_types", _("attention in every layer"), ARCHITECTURE,
                             _("at least one \"mamba\" layer where num_local_experts > 0"), error);
      return TRUE;
    }
  if (!hr_hf_read_bamba_mixer (r, out, ARCHITECTURE, error))
    return FALSE;
  (void) unmapped;
  return TRUE;
}
