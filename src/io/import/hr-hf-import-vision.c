/* hr-hf-import-vision.c: LLaVA and Qwen2-VL configs as model architectures
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A vision-language config nests its parts: transformers' LlavaConfig
 * (configuration_llava.py) holds a text_config (a LlamaConfig unless its
 * model_type says otherwise) and a vision_config (a CLIPVisionConfig);
 * Qwen2VLConfig (configuration_qwen2_vl.py) holds the language model at
 * its top (or, written by transformers from 4.52 on, in text_config) and a
 * Qwen2VLVisionConfig.  Each part leaves out what its class defaults, and
 * llava-hf/llava-1.5-7b-hf leaves out nearly everything: its text_config
 * says only vocab_size 32064 and model_type llama, the 7B sizes being
 * LlamaConfig's defaults.  So the defaults below are those classes':
 *   LlamaConfig:          hidden_size 4096, intermediate_size 11008,
 *                         num_hidden_layers 32, num_attention_heads 32,
 *                         vocab_size 32000, rms_norm_eps 1e-6, untied;
 *   LlavaConfig:          vision_config CLIP ViT-L/14-336 (hidden 1024,
 *                         intermediate 4096, 24 layers, 16 heads, patch 14,
 *                         image 336), vision_feature_layer -2,
 *                         vision_feature_select_strategy "default",
 *                         projector_hidden_act "gelu",
 *                         multimodal_projector_bias true;
 *   CLIPVisionConfig:     hidden_size 768, intermediate_size 3072,
 *                         num_hidden_layers 12, num_attention_heads 12,
 *                         num_channels 3, image_size 224, patch_size 32,
 *                         hidden_act "quick_gelu";
 *   Qwen2VLConfig:        vocab_size 152064, hidden_size 8192,
 *                         intermediate_size 29568, num_hidden_layers 80,
 *                         num_attention_heads 64, num_key_value_heads 8,
 *                         rms_norm_eps 1e-5, untied (Qwen2-VL-72B's);
 *   Qwen2VLVisionConfig:  depth 32, embed_dim 1280, hidden_size 3584,
 *                         mlp_ratio 4, num_heads 16, in_channels 3,
 *                         patch_size 14, spatial_merge_size 2,
 *                         temporal_patch_size 2, hidden_act "quick_gelu".
 * The language model goes through the importer as the config of its own
 * type; the tower and projector are hr-params-vision.c's.  What these
 * configs can say and the plan does not cover (another tower, features of
 * several layers, the class token kept, an image size Qwen2-VL leaves to
 * its processor) is refused naming the key, or said under "not mapped".
 */

#include "hr-hf-import.h"
#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-text.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* Qwen2-VL sizes each image itself; the planned size when a config
 * cannot say one: 16 merged tokens on a side. */
#define QWEN2_VL_PLANNED_SIDE_TOKENS 16

/* A copy of OBJ (NULL: an empty object) with TYPE as its model_type. */
static JsonObject *
copy_object (JsonObject *obj,
             const char *type)
{
  JsonObject *out = json_object_new ();

  if (obj != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (obj);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (out, l->data,
                                json_node_copy (json_object_get_member (obj, l->data)));
    }
  if (type != NULL)
    json_object_set_string_member (out, "model_type", type);
  return out;
}

static void
default_int (JsonObject *obj,
             const char *key,
             gint64      value)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    json_object_set_int_member (obj, key, value);
}

static JsonObject *
member_object (JsonObject  *obj,
               const char  *key,
               const char  *origin,
               GError     **error)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: %s: not an object; allowed: the "
                   "nested config of the model's part"), origin, key);
      return NULL;
    }
  return json_node_get_object (node);
}

/* text_config and vision_config, each NULL where absent: FALSE, with
 * the error, where either is not an object (Llama 3.2 Vision's importer
 * reads them so too). */
gboolean
hr_hf_nested_configs (HrHfReader  *r,
                      JsonObject **text,
                      JsonObject **vision,
                      GError     **error)
{
  GError *local = NULL;

  *vision = NULL;
  *text = member_object (r->obj, "text_config", r->origin, &local);
  if (local == NULL)
    *vision = member_object (r->obj, "vision_config", r->origin, &local);
  if (local == NULL)
    return TRUE;
  g_propagate_error (error, local);
  return FALSE;
}

/* The language model, imported as a config of its own type. */
static gboolean
import_text (JsonObject  *text,
             const char  *origin,
             HrModelArch *out,
             GPtrArray   *unmapped,
             GError     **error)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *where = g_strdup_printf ("%s: text_config", origin);

  json_node_take_object (node, json_object_ref (text));
  return hr_hf_import_node (out, node, where, unmapped, error);
}

/* How the refusals name the architecture (translated where used). */
#define ARCHITECTURE _("a vision-language model")

/* LLaVA's tower: CLIP's, with CLIPVisionConfig's defaults where
 * vision_config is silent, LLaVA's ViT-L/14-336 where there is none. */
static gboolean
import_clip_tower (const char  *origin,
                   JsonObject  *vision_in,
                   HrModelArch *out,
                   GError     **error)
{
  const char *s;
  HrHfReader v;

  s = vision_in != NULL ? hr_hf_get_string (vision_in, "model_type") : NULL;
  if (s != NULL && strcmp (s, "clip_vision_model") != 0)
    return hr_hf_refuse (origin, "vision_config.model_type", s, ARCHITECTURE, "clip_vision_model", error);
  out->vision = HR_VISION_CLIP;
  out->projector = HR_PROJECTOR_MLP2X_GELU;
  out->vision_layers = vision_in != NULL ? 12 : 24;
  out->vision_hidden = vision_in != NULL ? 768 : 1024;
  out->vision_heads = vision_in != NULL ? 12 : 16;
  out->vision_ffn = vision_in != NULL ? 3072 : 4096;
  out->vision_patch = vision_in != NULL ? 32 : 14;
  out->vision_image = vision_in != NULL ? 224 : 336;
  out->vision_channels = 0;
  if (vision_in != NULL)
    {
      guint64 channels = 3;

      v = (HrHfReader) { vision_in, origin, NULL };
      hr_hf_get_uint (&v, "num_hidden_layers", 1, HR_MAX_LAYERS, &out->vision_layers);
      hr_hf_get_uint (&v, "hidden_size", 1, HR_MAX_HIDDEN, &out->vision_hidden);
      hr_hf_get_uint (&v, "num_attention_heads", 1, HR_MAX_HEADS, &out->vision_heads);
      hr_hf_get_uint (&v, "intermediate_size", 1, HR_MAX_FFN, &out->vision_ffn);
      hr_hf_get_uint (&v, "patch_size", 1, HR_MAX_IMAGE, &out->vision_patch);
      hr_hf_get_uint (&v, "image_size", 1, HR_MAX_IMAGE, &out->vision_image);
      hr_hf_get_uint (&v, "num_channels", 1, 64, &channels);
      if (v.error != NULL)
        {
          g_prefix_error (&v.error, "vision_config: ");
          g_propagate_error (error, v.error);
          return FALSE;
        }
      out->vision_channels = channels == 3 ? 0 : channels;
      s = hr_hf_get_string (vision_in, "hidden_act");
      if (s != NULL && strcmp (s, "quick_gelu") != 0)
        return hr_hf_refuse (origin, "vision_config.hidden_act", s, ARCHITECTURE, "quick_gelu", error);
    }
  return TRUE;
}

static gboolean
import_llava (HrHfReader  *r,
              HrModelArch *out,
              GPtrArray   *unmapped,
              GError     **error)
{
  JsonObject *obj = r->obj;
  JsonObject *text_in, *vision_in;
  g_autoptr(JsonObject) text = NULL;
  const char *text_type, *s;
  JsonNode *layer;
  gint64 feature = -2;

  if (!hr_hf_nested_configs (r, &text_in, &vision_in, error))
    return FALSE;

  /* The language model: LlamaConfig's defaults where a llama text_config
   * is silent (llava-hf/llava-1.5-7b-hf's says only its vocabulary). */
  text_type = text_in != NULL ? hr_hf_get_string (text_in, "model_type") : NULL;
  if (text_type == NULL)
    text_type = "llama";
  text = copy_object (text_in, text_type);
  if (strcmp (text_type, "llama") == 0)
    {
      default_int (text, "hidden_size", 4096);
      default_int (text, "intermediate_size", 11008);
      default_int (text, "num_hidden_layers", 32);
      default_int (text, "num_attention_heads", 32);
      default_int (text, "vocab_size", 32000);
      if (!json_object_has_member (text, "rms_norm_eps"))
        json_object_set_double_member (text, "rms_norm_eps", 1e-6);
    }
  else
    {
      static const char * const needed[] = { "hidden_size", "intermediate_size",
                                              "num_hidden_layers", "num_attention_heads",
                                              "vocab_size", NULL };

      /* Another family's defaults are not LlamaConfig's: its sizes are
       * required rather than guessed. */
      for (guint i = 0; needed[i] != NULL; i++)
        if (!json_object_has_member (text, needed[i]))
          {
            g_autofree char *shown = hr_text_for_message (text_type, 40);

            g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: text_config: %s is "
                         "required for a text model of type \"%s\"; allowed: a text_config "
                         "with hidden_size, intermediate_size, num_hidden_layers, "
                         "num_attention_heads and vocab_size"), r->origin, needed[i], shown);
            return FALSE;
          }
    }
  if (!import_text (text, r->origin, out, unmapped, error))
    return FALSE;

  if (!import_clip_tower (r->origin, vision_in, out, error))
    return FALSE;

  /* The features: one layer's, without the class token, through
   * LlavaMultiModalProjector's two biased linears and a GELU. */
  layer = json_object_get_member (obj, "vision_feature_layer");
  if (layer != NULL && !JSON_NODE_HOLDS_NULL (layer))
    {
      if (!JSON_NODE_HOLDS_VALUE (layer) || json_node_get_value_type (layer) != G_TYPE_INT64)
        return hr_hf_refuse (r->origin, "vision_feature_layer", _("(not one layer)"), ARCHITECTURE,
                             _("one layer's index, e.g. -2"), error);
      feature = json_node_get_int (layer);
    }
  /* hidden_states[i]: 0 is the embeddings, i the output of layer i, -k
   * the (layers + 1 - k)-th entry. */
  if (feature < 0)
    feature += (gint64) out->vision_layers + 1;
  if (feature < 1 || feature > (gint64) out->vision_layers)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: vision_feature_layer: it names "
                   "no layer of the %" PRIu64 "-layer tower's output; allowed: 1 to %" PRIu64
                   ", or -1 to -%" PRIu64), r->origin, out->vision_layers, out->vision_layers,
                   out->vision_layers);
      return FALSE;
    }
  out->vision_feature_layer = (guint64) feature == out->vision_layers ? 0 : (guint64) feature;
  s = hr_hf_get_string (obj, "vision_feature_select_strategy");
  if (s != NULL && strcmp (s, "default") != 0)
    return hr_hf_refuse (r->origin, "vision_feature_select_strategy", s, ARCHITECTURE,
                         _("default (the class token dropped)"), error);
  s = hr_hf_get_string (obj, "projector_hidden_act");
  if (s != NULL && strcmp (s, "gelu") != 0)
    return hr_hf_refuse (r->origin, "projector_hidden_act", s, ARCHITECTURE, "gelu", error);
  if (!hr_hf_get_bool (obj, "multimodal_projector_bias", TRUE))
    return hr_hf_refuse (r->origin, "multimodal_projector_bias", "false", ARCHITECTURE, "true", error);
  if (unmapped != NULL && json_object_has_member (obj, "image_grid_pinpoints"))
    g_ptr_array_add (unmapped, g_strdup ("image_grid_pinpoints: one image of "
                                         "vision_config.image_size is planned per image"));
  return TRUE;
}

static gboolean
import_qwen2_vl (HrHfReader  *r,
                 HrModelArch *out,
                 GPtrArray   *unmapped,
                 GError     **error)
{
  JsonObject *obj = r->obj;
  JsonObject *text_in, *vision_in;
  g_autoptr(JsonObject) text = NULL;
  guint64 out_hidden = 3584, ratio = 4, temporal = 2, channels = 3;
  const char *s;
  HrHfReader v;

  if (!hr_hf_nested_configs (r, &text_in, &vision_in, error))
    return FALSE;

  /* The language model, a Qwen2 (QKV biases, untied), with
   * Qwen2VLConfig's defaults. */
  text = copy_object (text_in != NULL ? text_in : obj, "qwen2");
  json_object_remove_member (text, "vision_config");
  json_object_remove_member (text, "text_config");
  default_int (text, "vocab_size", 152064);
  default_int (text, "hidden_size", 8192);
  default_int (text, "intermediate_size", 29568);
  default_int (text, "num_hidden_layers", 80);
  default_int (text, "num_attention_heads", 64);
  default_int (text, "num_key_value_heads", 8);
  if (!json_object_has_member (text, "rms_norm_eps"))
    json_object_set_double_member (text, "rms_norm_eps", 1e-5);
  if (text_in == NULL && json_object_has_member (obj, "_name_or_path"))
    json_object_remove_member (text, "_name_or_path");
  if (!import_text (text, r->origin, out, unmapped, error))
    return FALSE;

  out->vision = HR_VISION_QWEN2_VL;
  out->projector = HR_PROJECTOR_PATCH_MERGER;
  out->vision_layers = 32;
  out->vision_hidden = 1280;
  out->vision_heads = 16;
  out->vision_patch = 14;
  out->projector_merge = 2;
  v = (HrHfReader) { vision_in, r->origin, NULL };
  if (vision_in != NULL)
    {
      static const char * const channel_keys[] = { "in_channels", "in_chans", NULL };

      hr_hf_get_uint (&v, "depth", 1, HR_MAX_LAYERS, &out->vision_layers);
      hr_hf_get_uint (&v, "embed_dim", 1, HR_MAX_HIDDEN, &out->vision_hidden);
      hr_hf_get_uint (&v, "num_heads", 1, HR_MAX_HEADS, &out->vision_heads);
      hr_hf_get_uint (&v, "patch_size", 1, HR_MAX_IMAGE, &out->vision_patch);
      hr_hf_get_uint (&v, "spatial_merge_size", 1, 64, &out->projector_merge);
      hr_hf_get_uint (&v, "mlp_ratio", 1, 64, &ratio);
      hr_hf_get_uint (&v, "hidden_size", 1, HR_MAX_HIDDEN, &out_hidden);
      hr_hf_get_uint (&v, "temporal_patch_size", 1, 64, &temporal);
      for (guint i = 0; channel_keys[i] != NULL; i++)
        if (json_object_has_member (vision_in, channel_keys[i]))
          {
            hr_hf_get_uint (&v, channel_keys[i], 1, 64, &channels);
            break;
          }
      if (v.error != NULL)
        {
          g_prefix_error (&v.error, "vision_config: ");
          g_propagate_error (error, v.error);
          return FALSE;
        }
      s = hr_hf_get_string (vision_in, "hidden_act");
      if (s != NULL && strcmp (s, "quick_gelu") != 0)
        return hr_hf_refuse (r->origin, "vision_config.hidden_act", s, ARCHITECTURE, "quick_gelu", error);
    }
  if (temporal != 2)
    {
      g_autofree char *shown = g_strdup_printf ("%" PRIu64, temporal);

      return hr_hf_refuse (r->origin, "vision_config.temporal_patch_size", shown, ARCHITECTURE, "2", error);
    }
  /* The merger's output is the language model's input. */
  if (out_hidden != out->hidden)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: vision_config.hidden_size: %"
                   PRIu64 " is not the language model's hidden_size %" PRIu64 "; allowed: %"
                   PRIu64), r->origin, out_hidden, out->hidden, out->hidden);
      return FALSE;
    }
  out->vision_ffn = out->vision_hidden * ratio;
  out->vision_channels = channels == 3 ? 0 : channels;
  out->vision_image = out->vision_patch * out->projector_merge * QWEN2_VL_PLANNED_SIDE_TOKENS;
  if (unmapped != NULL)
    g_ptr_array_add (unmapped, g_strdup_printf ("vision_config: Qwen2-VL sizes each image "
                                                "itself (preprocessor_config.json, min_pixels "
                                                "to max_pixels); planned at %" G_GUINT64_FORMAT
                                                " x %" G_GUINT64_FORMAT " pixels, %d image "
                                                "tokens: set model.vision_image for another size",
                                                out->vision_image, out->vision_image,
                                                QWEN2_VL_PLANNED_SIDE_TOKENS
                                                * QWEN2_VL_PLANNED_SIDE_TOKENS));
  return TRUE;
}

gboolean
hr_hf_import_vlm (HrHfReader   *r,
                  const char   *type,
                  HrModelArch  *out,
                  GPtrArray    *unmapped,
                  GError      **error)
{
  if (strcmp (type, "llava") == 0)
    return import_llava (r, out, unmapped, error);
  return import_qwen2_vl (r, out, unmapped, error);
}
