/* hr-hf-import-mllama.c: Llama 3.2 Vision configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers' MllamaConfig (models/mllama/configuration_mllama.py) nests
 * a text_config (MllamaTextConfig) and a vision_config
 * (MllamaVisionConfig), each leaving out what its class defaults:
 *   MllamaTextConfig:   vocab_size 128256, hidden_size 4096, hidden_act
 *                       "silu", num_hidden_layers 40, num_attention_heads
 *                       32, num_key_value_heads 8, intermediate_size
 *                       14336, tie_word_embeddings false,
 *                       cross_attention_layers [3, 8, 13, 18, 23, 28, 33,
 *                       38], dropout 0;
 *   MllamaVisionConfig: hidden_size 1280, hidden_act "gelu",
 *                       num_hidden_layers 32, num_global_layers 8,
 *                       num_attention_heads 16 (written back as
 *                       attention_heads, which the Hub's configs carry),
 *                       num_channels 3, intermediate_size 5120,
 *                       vision_output_dim 7680, image_size 448, patch_size
 *                       14, max_num_tiles 4, intermediate_layers_indices
 *                       [3, 7, 15, 23, 30], supported_aspect_ratios the 8
 *                       tilings of up to 4 tiles (none other without
 *                       max_num_tiles 4: __init__ raises).
 * The language model is a Llama (MllamaTextModel: RMSNorm, gated MLP,
 * untied head; its token table 8 rows longer, hr-params.c) whose
 * cross-attention layers must be every N-th from one offset
 * (model.cross_attn_layer_period and _offset); the features are the last
 * global layer's output and the intermediate layers', so
 * vision_output_dim must be hidden_size times one more than those (else
 * multi_modal_projector would not take them).  What the description
 * cannot say is refused naming the key.
 */

#include "hr-hf-import.h"
#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-text.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* How the refusals name the architecture. */
#define ARCHITECTURE "Llama 3.2 Vision"

/* An array of whole numbers from min to max (the key absent: DEFAULTS),
 * into VALUES (at most max_n of them); FALSE, with the error, where it is
 * anything else. */
static gboolean
int_list (JsonObject   *obj,
          const char   *key,
          const char   *origin,
          const gint64 *defaults,
          guint         n_defaults,
          gint64        min,
          gint64        max,
          gint64       *values,
          guint         max_n,
          guint        *n,
          GError      **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      memcpy (values, defaults, n_defaults * sizeof *values);
      *n = n_defaults;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node)
      || json_array_get_length (array = json_node_get_array (node)) > max_n)
    goto bad;
  *n = json_array_get_length (array);
  for (guint i = 0; i < *n; i++)
    {
      JsonNode *e = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64
          || json_node_get_int (e) < min || json_node_get_int (e) > max)
        goto bad;
      values[i] = json_node_get_int (e);
    }
  return TRUE;

bad:
  g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: %s: not a list of whole numbers from "
               "%" PRId64 " to %" PRId64 " (at most %u); allowed: such a list"),
               origin, key, (int64_t) min, (int64_t) max, max_n);
  return FALSE;
}

/* The language model: a Llama through the importer, then its cross-
 * attention layers as a period and an offset. */
static gboolean
import_text (JsonObject  *text_in,
             const char  *origin,
             HrModelArch *out,
             GPtrArray   *unmapped,
             GError     **error)
{
  static const gint64 default_cross[] = { 3, 8, 13, 18, 23, 28, 33, 38 };
  g_autoptr(JsonObject) text = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *where = g_strdup_printf ("%s: text_config", origin);
  const char *s;
  gint64 cross[HR_MAX_STAGE_LAYERS];
  guint n_cross = 0;
  gint64 period, offset;

  if (text_in != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (text_in);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (text, l->data,
                                json_node_copy (json_object_get_member (text_in, l->data)));
      s = hr_hf_get_string (text_in, "model_type");
      if (s != NULL && strcmp (s, "mllama_text_model") != 0 && strcmp (s, "mllama") != 0)
        return hr_hf_refuse (origin, "text_config.model_type", s, ARCHITECTURE, "mllama_text_model", error);
      s = hr_hf_get_string (text_in, "hidden_act");
      if (s != NULL && strcmp (s, "silu") != 0)
        return hr_hf_refuse (origin, "text_config.hidden_act", s, ARCHITECTURE, _("silu (a SwiGLU MLP)"), error);
      /* (attention dropout in every layer, not planned) */
      {
        JsonNode *dropout = json_object_get_member (text_in, "dropout");

        if (dropout != NULL && !JSON_NODE_HOLDS_NULL (dropout)
            && (!JSON_NODE_HOLDS_VALUE (dropout)
                || (json_node_get_value_type (dropout) != G_TYPE_INT64
                    && json_node_get_value_type (dropout) != G_TYPE_DOUBLE)
                || json_node_get_double (dropout) != 0.0))
          return hr_hf_refuse (origin, "text_config.dropout", _("(not 0)"), ARCHITECTURE, "0", error);
      }
    }
  /* MllamaTextConfig's defaults where text_config is silent; the rest is
   * read as a Llama's (LlamaConfig's keys, RMSNorm, gated MLP). */
  json_object_set_string_member (text, "model_type", "llama");
  json_object_remove_member (text, "cross_attention_layers");
  json_object_remove_member (text, "dropout");
  {
    static const struct { const char *key; gint64 value; } d[] = {
      { "vocab_size", 128256 }, { "hidden_size", 4096 }, { "num_hidden_layers", 40 },
      { "num_attention_heads", 32 }, { "num_key_value_heads", 8 },
      { "intermediate_size", 14336 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (d); i++)
      {
        JsonNode *v = json_object_get_member (text, d[i].key);

        if (v == NULL || JSON_NODE_HOLDS_NULL (v))
          json_object_set_int_member (text, d[i].key, d[i].value);
      }
    if (!json_object_has_member (text, "rms_norm_eps"))
      json_object_set_double_member (text, "rms_norm_eps", 1e-5);
    if (!json_object_has_member (text, "tie_word_embeddings"))
      json_object_set_boolean_member (text, "tie_word_embeddings", FALSE);
  }
  json_node_take_object (node, json_object_ref (text));
  if (!hr_hf_import_node (out, node, where, unmapped, error))
    return FALSE;

  /* cross_attention_layers: every N-th layer from an offset below N,
   * through the last (MllamaTextModel: a cross-attention layer for each
   * index listed). */
  if (!int_list (text_in, "cross_attention_layers", where, default_cross,
                 G_N_ELEMENTS (default_cross), 0, (gint64) out->layers - 1, cross,
                 G_N_ELEMENTS (cross), &n_cross, error))
    return FALSE;
  if (n_cross == 0)
    return hr_hf_refuse (origin, "text_config.cross_attention_layers", "[]", ARCHITECTURE,
                         _("one layer or more (without them the images are read by nothing)"), error);
  offset = cross[0];
  period = n_cross > 1 ? cross[1] - cross[0] : (gint64) out->layers;
  for (guint i = 0; i < n_cross; i++)
    if (cross[i] != offset + (gint64) i * period)
      period = 0;
  if (period <= offset || cross[n_cross - 1] + period < (gint64) out->layers)
    return hr_hf_refuse (origin, "text_config.cross_attention_layers", _("(this list)"), ARCHITECTURE,
                         _("every N-th layer from an offset below N through the last, as Llama 3.2 "
                           "Vision's [3, 8, 13, …, 38]"), error);
  if (offset == 0)
    return hr_hf_refuse (origin, "text_config.cross_attention_layers", _("(from layer 0)"), ARCHITECTURE,
                         _("a first cross-attention layer after layer 0 (the first layer attends to "
                           "the text, as in every Llama 3.2 Vision)"), error);
  out->cross_attn_layer_period = (guint64) period;
  out->cross_attn_layer_offset = (guint64) offset;
  return TRUE;
}

gboolean
hr_hf_import_mllama (HrHfReader  *r,
                     HrModelArch *out,
                     GPtrArray   *unmapped,
                     GError     **error)
{
  static const gint64 default_indices[] = { 3, 7, 15, 23, 30 };
  JsonObject *text_in, *vision_in;
  HrHfReader v;
  guint64 output_dim = 7680, tiles = 4, channels = 3, ratios = 8;
  gint64 indices[HR_MAX_STAGE_LAYERS];
  guint n_indices = 0;
  const char *s;

  if (!hr_hf_nested_configs (r, &text_in, &vision_in, error))
    return FALSE;
  if (!import_text (text_in, r->origin, out, unmapped, error))
    return FALSE;

  out->vision = HR_VISION_MLLAMA;
  out->projector = HR_PROJECTOR_LINEAR;
  out->vision_layers = 32;
  out->vision_global_layers = 8;
  out->vision_hidden = 1280;
  out->vision_heads = 16;
  out->vision_ffn = 5120;
  out->vision_patch = 14;
  out->vision_image = 448;
  v = (HrHfReader) { vision_in, r->origin, NULL };
  if (vision_in != NULL)
    {
      static const char * const head_keys[] = { "attention_heads", "num_attention_heads", NULL };
      JsonNode *ratios_node = json_object_get_member (vision_in, "supported_aspect_ratios");

      s = hr_hf_get_string (vision_in, "model_type");
      if (s != NULL && strcmp (s, "mllama_vision_model") != 0)
        return hr_hf_refuse (r->origin, "vision_config.model_type", s, ARCHITECTURE, "mllama_vision_model", error);
      hr_hf_get_uint (&v, "num_hidden_layers", 1, HR_MAX_LAYERS, &out->vision_layers);
      hr_hf_get_uint (&v, "num_global_layers", 0, HR_MAX_LAYERS, &out->vision_global_layers);
      hr_hf_get_uint (&v, "hidden_size", 1, HR_MAX_HIDDEN, &out->vision_hidden);
      hr_hf_get_uint_any (&v, head_keys, 1, HR_MAX_HEADS, &out->vision_heads);
      hr_hf_get_uint (&v, "intermediate_size", 1, HR_MAX_FFN, &out->vision_ffn);
      hr_hf_get_uint (&v, "patch_size", 1, HR_MAX_IMAGE, &out->vision_patch);
      hr_hf_get_uint (&v, "image_size", 1, HR_MAX_IMAGE, &out->vision_image);
      hr_hf_get_uint (&v, "num_channels", 1, 64, &channels);
      hr_hf_get_uint (&v, "max_num_tiles", 1, HR_MAX_TILES, &tiles);
      hr_hf_get_uint (&v, "vision_output_dim", 1, HR_MAX_HIDDEN * (HR_MAX_LAYERS + 1ull),
                      &output_dim);
      if (v.error != NULL)
        {
          g_prefix_error (&v.error, "vision_config: ");
          g_propagate_error (error, v.error);
          return FALSE;
        }
      s = hr_hf_get_string (vision_in, "hidden_act");
      if (s != NULL && strcmp (s, "gelu") != 0)
        return hr_hf_refuse (r->origin, "vision_config.hidden_act", s, ARCHITECTURE, "gelu", error);
      /* Each tiling a row of the tile tables: their count is what counts. */
      if (ratios_node != NULL && !JSON_NODE_HOLDS_NULL (ratios_node))
        {
          if (JSON_NODE_HOLDS_ARRAY (ratios_node))
            ratios = json_array_get_length (json_node_get_array (ratios_node));
          if (!JSON_NODE_HOLDS_ARRAY (ratios_node) || ratios == 0
              || ratios > HR_MAX_TILES * HR_MAX_TILES)
            return hr_hf_refuse (r->origin, "vision_config.supported_aspect_ratios",
                                 _("(not a list of tilings)"), ARCHITECTURE, _("a list of 1 to 4096 tilings"), error);
        }
      else if (tiles != 4)
        return hr_hf_refuse (r->origin, "vision_config.supported_aspect_ratios", _("(none)"), ARCHITECTURE,
                             _("a list of tilings, which MllamaVisionConfig requires with "
                               "max_num_tiles other than 4"), error);
    }
  if (!int_list (vision_in, "intermediate_layers_indices", r->origin, default_indices,
                 G_N_ELEMENTS (default_indices), -(gint64) out->vision_layers - 1,
                 (gint64) out->vision_layers, indices, G_N_ELEMENTS (indices), &n_indices, error))
    {
      g_prefix_error (error, "vision_config: ");
      return FALSE;
    }
  out->vision_tiles = tiles;
  out->vision_aspect_ratios = ratios;
  out->vision_intermediate_layers = n_indices;
  out->vision_channels = channels == 3 ? 0 : channels;
  /* The projector's input is the concatenated features. */
  if (output_dim != out->vision_hidden * (1 + n_indices))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: vision_config.vision_output_dim: %"
                   PRIu64 " is not hidden_size × (1 + %u intermediate layers) = %" PRIu64
                   ", the features multi_modal_projector reads; allowed: %" PRIu64),
                   r->origin, output_dim, n_indices, out->vision_hidden * (1 + n_indices),
                   out->vision_hidden * (1 + n_indices));
      return FALSE;
    }
  if (unmapped != NULL)
    g_ptr_array_add (unmapped, g_strdup_printf ("max_num_tiles: every image is planned as %"
                                                G_GUINT64_FORMAT " tiles, as the processor "
                                                "pads it (set training.images_per_sample for "
                                                "the images per sequence)", tiles));
  return TRUE;
}
