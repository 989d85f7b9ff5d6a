/* hr-hf-import.c: a Hugging Face config.json as a model architecture
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * transformers names the same thing differently per family (n_layer,
 * num_hidden_layers, num_layers...) and leaves defaults to its config
 * classes; the defaults below are those classes' (LlamaConfig ties no
 * embeddings, PretrainedConfig ties them, GPT2Config's n_inner is 4h).
 */

#include "hr-hf-import.h"
#include "hr-hf-import-private.h"
#include "hr-import.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-params.h"
#include "hr-text.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static gboolean
in_list (const char          *value,
         const char * const  *list)
{
  return value != NULL && g_strv_contains (list, value);
}

/* The model types this importer maps exactly: each family's parameter
 * count matches its published total (test-import, test-params). */
static const char * const supported_types[] = {
  "bamba", "bart", "bert", "deepseek_v2", "deepseek_v3", "distilbert", "electra", "falcon", "gemma",
  "gemma2", "gpt2", "gpt_neox", "granitemoehybrid", "jamba",
  "llama", "llava", "mamba", "mamba2", "mistral", "mixtral", "mllama", "mt5", "nemotron_h",
  "olmo2", "phi",
  "phi3", "qwen2",
  "qwen2_moe", "qwen2_vl", "qwen3",
  "qwen3_moe", "roberta", "stablelm", "t5", "vit", "whisper", "xlm-roberta", "zamba2", NULL
};

/* Types known not to fit the model description, and why: planned as a
 * decoder they came out wrong without a word (T5-base as a 109.6 M
 * decoder instead of 222.9 M, DeepSeek-V3 at 702.2 B instead of 671.0 B). */
static const struct
{
  const char *type;
  const char *what;
} unsupported_types[] = {
  { "umt5", "an encoder-decoder model with a relative bias in every layer" },
  { "mbart", "an encoder-decoder model with pre-norm layers and embedding norms" },
  { "marian", "an encoder-decoder model with sinusoidal positions" },
  { "pegasus", "an encoder-decoder model with sinusoidal positions" },
  { "llava_next", "a vision-language model with tiled high-resolution images" },
  { "qwen2_5_vl", "a vision-language model with windowed attention and an RMSNorm tower" },
  { "idefics2", "a vision-language model" },
  { "paligemma", "a vision-language model" },
  { "falcon_mamba", "a state-space model with unweighted norms on B, C and dt" },
  { "zamba", "a hybrid of state-space and attention layers" },
  { "deberta", "an encoder with relative position embeddings" },
  { "deberta-v2", "an encoder with relative position embeddings" },
};

/* FALSE, with a message that says what the config is, when its
 * model_type is one this importer does not map exactly. */
static gboolean
check_supported (const char  *type,
                 const char  *origin,
                 GError     **error)
{
  g_autofree char *supported = NULL;
  g_autofree char *shown = NULL;
  const char *what = NULL;

  if (type == NULL || in_list (type, supported_types))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (unsupported_types); i++)
    if (strcmp (unsupported_types[i].type, type) == 0)
      what = unsupported_types[i].what;
  supported = g_strjoinv (", ", (char **) supported_types);
  shown = hr_text_for_message (type, 40);
  if (what != NULL)
    g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: model_type \"%s\": this architecture "
                 "(%s) is not supported yet, and would be planned wrong; supported: %s"),
                 origin, shown, what, supported);
  else
    g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: model_type \"%s\": this architecture "
                 "is not supported; supported: %s"), origin, shown, supported);
  return FALSE;
}

/* The model's name, the first bad value, and the same checks as a
 * scenario's model, named after the config file. */
static gboolean
finish_model (HrModelArch *m,
              HrModelArch *out,
              JsonObject  *obj,
              const char  *type,
              const char  *origin,
              HrHfReader      *r,
              GError     **error)
{
  const char *name = hr_hf_get_string (obj, "_name_or_path");
  HrScenario check;
  g_autoptr(GError) local = NULL;

  hr_copy_string (out->name, sizeof out->name,
                  name != NULL && *name != '\0' ? name : (type != NULL ? type : "Imported model"));
  if (r->error != NULL)
    {
      g_propagate_error (error, r->error);
      r->error = NULL;
      return FALSE;
    }

  hr_scenario_init_default (&check);
  check.model = *out;
  check.parallel.gpus = 1;
  check.parallel.zero = 0;
  /* (T5's bias needs eager attention, Llama 3.2 Vision's masks SDPA:
   * training choices checked when they are planned.) */
  check.training.attention = out->vision == HR_VISION_MLLAMA ? HR_ATTENTION_FLASH
                                                             : HR_ATTENTION_EAGER;
  hr_scenario_fit_model_lengths (&check);
  if (!hr_scenario_validate (&check, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", origin, local->message);
      return FALSE;
    }

  *m = *out;
  return TRUE;
}

/* The architectures with an importer of their own (hr-hf-import-*.c):
 * TRUE with *HANDLED set when TYPE is one of them and it read the config,
 * FALSE with ERROR when it could not. */
static gboolean
import_family (HrHfReader   *r,
               const char   *type,
               HrModelArch  *out,
               GPtrArray    *unmapped,
               gboolean     *handled,
               GError      **error)
{
  *handled = TRUE;
  if (strcmp (type, "t5") == 0 || strcmp (type, "mt5") == 0 || strcmp (type, "bart") == 0)
    return hr_hf_import_seq2seq (r, type, out, unmapped, error);
  if (strcmp (type, "llava") == 0 || strcmp (type, "qwen2_vl") == 0)
    return hr_hf_import_vlm (r, type, out, unmapped, error);
  if (strcmp (type, "mllama") == 0)
    return hr_hf_import_mllama (r, out, unmapped, error);
  if (strcmp (type, "whisper") == 0)
    return hr_hf_import_whisper (r, out, unmapped, error);
  if (strcmp (type, "mamba") == 0 || strcmp (type, "mamba2") == 0)
    return hr_hf_import_mamba (r, type, out, unmapped, error);
  if (strcmp (type, "nemotron_h") == 0)
    return hr_hf_import_nemotron_h (r, out, unmapped, error);
  if (strcmp (type, "bamba") == 0)
    return hr_hf_import_bamba (r, out, unmapped, error);
  if (strcmp (type, "zamba2") == 0)
    return hr_hf_import_zamba2 (r, out, unmapped, error);
  if (strcmp (type, "granitemoehybrid") == 0)
    return hr_hf_import_granite_hybrid (r, out, unmapped, error);
  *handled = FALSE;
  return TRUE;
}

/* A transformer's sizes: layers, width and heads (required), K/V heads,
 * head width, MLP width and vocabulary, under each family's names. */
static gboolean
read_transformer_shape (HrHfReader   *r,
                        HrModelArch  *out,
                        GError      **error)
{
  static const char * const layer_keys[] = { "num_hidden_layers", "n_layer", "num_layers", NULL };
  static const char * const hidden_keys[] = { "hidden_size", "n_embd", "d_model", "dim", NULL };
  static const char * const head_keys[] = { "num_attention_heads", "n_head", "num_heads", NULL };
  static const char * const ffn_keys[] = { "intermediate_size", "n_inner", "ffn_dim", NULL };
  guint64 v;

  if (!hr_hf_get_uint_any (r, layer_keys, 1, HR_MAX_LAYERS, &out->layers)
      || !hr_hf_get_uint_any (r, hidden_keys, 1, HR_MAX_HIDDEN, &out->hidden)
      || !hr_hf_get_uint_any (r, head_keys, 1, HR_MAX_HEADS, &out->heads))
    {
      if (r->error != NULL)
        {
          g_propagate_error (error, r->error);
          r->error = NULL;
          return FALSE;
        }
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: the layer count, hidden size "
                   "and head count are required; allowed: a transformers config.json "
                   "with num_hidden_layers, hidden_size and num_attention_heads"), r->origin);
      return FALSE;
    }
  out->kv_heads = out->heads;
  hr_hf_get_uint (r, "num_key_value_heads", 1, HR_MAX_HEADS, &out->kv_heads);
  if (hr_hf_get_bool (r->obj, "multi_query", FALSE))
    out->kv_heads = 1;
  if (hr_hf_get_bool (r->obj, "new_decoder_architecture", FALSE)
      && hr_hf_get_uint (r, "num_kv_heads", 1, HR_MAX_HEADS, &v))
    out->kv_heads = v;
  hr_hf_get_uint (r, "head_dim", 1, HR_MAX_HIDDEN, &out->head_dim);
  if (out->heads > 0 && out->head_dim == out->hidden / out->heads)
    out->head_dim = 0;
  if (!hr_hf_get_uint_any (r, ffn_keys, 0, HR_MAX_FFN, &out->ffn) || out->ffn == 0)
    out->ffn = 4 * out->hidden;
  hr_hf_get_uint (r, "vocab_size", 1, HR_MAX_VOCAB, &out->vocab);
  return TRUE;
}

/* The MLP's activation, the norms and the biases, by family where the
 * config does not say. */
static void
read_mlp_norm_bias (HrHfReader  *r,
                    const char  *type,
                    HrModelArch *out)
{
  static const char * const gated_acts[] = { "silu", "swish", "swiglu", NULL };
  JsonObject *obj = r->obj;
  const char *act;
  gboolean gated_family;

  /* MLP: gated when the family gates (Llama and kin: SiLU; Gemma: GeGLU). */
  act = hr_hf_get_string (obj, "hidden_act");
  if (act == NULL)
    act = hr_hf_get_string (obj, "activation_function");
  gated_family = type != NULL && (g_str_has_prefix (type, "llama") || g_str_has_prefix (type, "mistral")
                                  || g_str_has_prefix (type, "mixtral") || g_str_has_prefix (type, "qwen")
                                  || g_str_has_prefix (type, "gemma") || g_str_has_prefix (type, "phi3")
                                  || g_str_has_prefix (type, "olmo") || strcmp (type, "stablelm") == 0
                                  || g_str_has_prefix (type, "deepseek"));
  if (type != NULL && g_str_has_prefix (type, "gemma"))
    out->mlp = HR_MLP_GEGLU;
  else if (gated_family || in_list (act, gated_acts))
    out->mlp = HR_MLP_SWIGLU;
  else if (act != NULL && strcmp (act, "relu") == 0)
    out->mlp = HR_MLP_RELU;
  else
    out->mlp = HR_MLP_GELU;

  /* Norms: an RMSNorm epsilon says RMSNorm. */
  out->norm = json_object_has_member (obj, "rms_norm_eps") ? HR_NORM_RMSNORM : HR_NORM_LAYERNORM;
  if (type != NULL && strcmp (type, "stablelm") == 0)
    out->norm = HR_NORM_LAYERNORM;

  /* Biases. */
  if (type != NULL && (strcmp (type, "gpt2") == 0 || strcmp (type, "phi") == 0
                       || out->kind == HR_KIND_ENCODER))
    out->bias = HR_BIAS_ALL;
  else if (type != NULL && (strcmp (type, "qwen2") == 0 || strcmp (type, "qwen2_moe") == 0))
    out->bias = HR_BIAS_QKV;
  else if (hr_hf_get_bool (obj, "attention_bias", FALSE)
           || hr_hf_get_bool (obj, "use_qkv_bias", FALSE)
           || hr_hf_get_bool (obj, "qkv_bias", FALSE))
    out->bias = hr_hf_get_bool (obj, "bias", FALSE) ? HR_BIAS_ALL : HR_BIAS_QKV;
  else if (hr_hf_get_bool (obj, "bias", FALSE))
    out->bias = HR_BIAS_ALL;
  out->lm_head_bias = type != NULL && strcmp (type, "phi") == 0;
}

/* How the blocks are laid out: tied tables, parallel blocks, extra norms,
 * Q/K norms, learned positions and dropout. */
static void
read_block_layout (HrHfReader  *r,
                   const char  *type,
                   HrModelArch *out)
{
  static const char * const untied[] = { "llama", "mistral", "mixtral", "qwen2", "qwen2_moe",
                                         "qwen3", "qwen3_moe", "phi", "phi3", "olmo2",
                                         "stablelm", "gpt_neox", "deepseek_v2", "deepseek_v3",
                                         "jamba", NULL };
  JsonObject *obj = r->obj;

  out->tied_embeddings = hr_hf_get_bool (obj, "tie_word_embeddings", !in_list (type, untied));
  out->parallel_block = hr_hf_get_bool (obj, "parallel_attn", FALSE)
                        || hr_hf_get_bool (obj, "use_parallel_residual", FALSE)
                        || (type != NULL && strcmp (type, "phi") == 0);
  if (hr_hf_get_bool (obj, "new_decoder_architecture", FALSE))
    {
      out->parallel_block = TRUE;
      out->norms_per_layer = 2;
    }
  if (type != NULL && strcmp (type, "gemma2") == 0)
    out->norms_per_layer = 4;
  if (type != NULL && g_str_has_prefix (type, "qwen3"))
    out->qk_norm = HR_QK_NORM_HEAD;
  if (type != NULL && strcmp (type, "olmo2") == 0)
    out->qk_norm = HR_QK_NORM_FULL;

  /* Positions: learned tables in GPT-2 and the encoders. */
  if (type != NULL && strcmp (type, "gpt2") == 0)
    hr_hf_get_uint (r, "n_positions", 0, HR_MAX_SEQ_LEN, &out->learned_positions);
  if (out->kind == HR_KIND_ENCODER)
    {
      hr_hf_get_uint (r, "max_position_embeddings", 0, HR_MAX_SEQ_LEN, &out->learned_positions);
      if (!hr_hf_get_uint (r, "type_vocab_size", 0, 1024, &out->token_types))
        out->token_types = 0;
      out->pooler = TRUE;
      out->dropout = TRUE;
    }
  if (type != NULL && strcmp (type, "gpt2") == 0)
    out->dropout = TRUE;
}

/* Mixture of experts: the experts, how many a token takes, their width. */
static void
read_experts (HrHfReader  *r,
              HrModelArch *out)
{
  static const char * const expert_keys[] = { "num_local_experts", "num_experts", "n_routed_experts", NULL };
  guint64 v;

  if (hr_hf_get_uint_any (r, expert_keys, 0, HR_MAX_EXPERTS, &v) && v > 1)
    {
      out->experts = v;
      if (!hr_hf_get_uint (r, "num_experts_per_tok", 1, HR_MAX_EXPERTS, &out->experts_active))
        out->experts_active = 2;
      if (hr_hf_get_uint (r, "moe_intermediate_size", 1, HR_MAX_FFN, &v))
        out->expert_ffn = v;
    }
}

/* What the config says that the plan leaves out, in UNMAPPED. */
static void
note_unmapped (JsonObject        *obj,
               const HrModelArch *out,
               GPtrArray         *unmapped)
{
  /* Megatron trains the MTP modules (mtp_num_layers); transformers'
   * DeepseekV3ForCausalLM builds none (_keys_to_ignore_on_load_unexpected:
   * model.layers.61): the plan follows the config, and says so. */
  if (out->mtp_modules > 0)
    g_ptr_array_add (unmapped, g_strdup_printf ("num_nextn_predict_layers: %" G_GUINT64_FORMAT
                                                " multi-token-prediction module(s) planned as Megatron "
                                                "trains them; transformers' model loads none (set "
                                                "model.mtp_modules to 0 to plan that)",
                                                out->mtp_modules));
  if (json_object_has_member (obj, "sliding_window")
      && !JSON_NODE_HOLDS_NULL (json_object_get_member (obj, "sliding_window")))
    g_ptr_array_add (unmapped, g_strdup ("sliding_window: attention windows are not "
                                         "modelled (FlashAttention's memory does not "
                                         "depend on them)"));
  if (json_object_has_member (obj, "kv_lora_rank") && !hr_model_mla (out))
    g_ptr_array_add (unmapped, g_strdup ("kv_lora_rank: multi-head latent attention "
                                         "(DeepSeek) is counted as plain attention"));
  if (json_object_has_member (obj, "shared_expert_intermediate_size")
      || (json_object_has_member (obj, "n_shared_experts") && !hr_model_mla (out)))
    g_ptr_array_add (unmapped, g_strdup ("shared experts are not counted"));
  if (json_object_has_member (obj, "first_k_dense_replace") && !hr_model_mla (out))
    g_ptr_array_add (unmapped, g_strdup ("first_k_dense_replace: every layer is "
                                         "counted as MoE"));
  if (json_object_has_member (obj, "quantization_config"))
    g_ptr_array_add (unmapped, g_strdup ("quantization_config: choose the quantization "
                                         "under Training"));
}

gboolean
hr_hf_import_node (HrModelArch  *m,
                   JsonNode     *root,
                   const char   *origin,
                   GPtrArray    *unmapped,
                   GError      **error)
{
  static const char * const encoders[] = { "bert", "roberta", "deberta", "deberta-v2", "electra",
                                           "distilbert", "vit", "xlm-roberta", NULL };
  JsonObject *obj;
  const char *type;
  HrModelArch out;
  gboolean handled = FALSE;
  HrHfReader r = { NULL, origin, NULL };

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE, _("%s: not a config.json object"), origin);
      return FALSE;
    }
  obj = json_node_get_object (root);
  r.obj = obj;
  type = hr_hf_get_string (obj, "model_type");
  if (!check_supported (type, origin, error))
    return FALSE;
  if (type == NULL && unmapped != NULL)
    g_ptr_array_add (unmapped, g_strdup ("model_type: missing; read as a decoder-only "
                                         "transformer"));

  memset (&out, 0, sizeof out);
  if (type != NULL && !import_family (&r, type, &out, unmapped, &handled, error))
    return FALSE;
  if (handled)
    return finish_model (m, &out, obj, type, origin, &r, error);

  /* A transformer: decoder-only, or an encoder. */
  out.kind = in_list (type, encoders) ? HR_KIND_ENCODER : HR_KIND_DECODER;
  out.experts = out.experts_active = 1;
  out.head = HR_HEAD_LM;
  if (!read_transformer_shape (&r, &out, error))
    return FALSE;
  read_mlp_norm_bias (&r, type, &out);
  read_block_layout (&r, type, &out);
  read_experts (&r, &out);
  if (type != NULL && (strcmp (type, "deepseek_v2") == 0 || strcmp (type, "deepseek_v3") == 0)
      && !hr_hf_import_deepseek (&r, type, &out, error))
    return FALSE;
  if (type != NULL && strcmp (type, "jamba") == 0
      && !hr_hf_import_jamba (&r, &out, unmapped, error))
    return FALSE;
  if (unmapped != NULL)
    note_unmapped (obj, &out, unmapped);

  return finish_model (m, &out, obj, type, origin, &r, error);
}

/* A Hugging Face config.json: a model type or a layer count at its top. */
static gboolean
hf_detect (JsonObject *root)
{
  return json_object_has_member (root, "model_type")
         || json_object_has_member (root, "num_hidden_layers")
         || json_object_has_member (root, "n_layer");
}

/* A checkpoint's model.safetensors.index.json beside the config says how
 * many bytes its weights take (metadata.total_size): at the config's
 * torch_dtype that is the parameter count, checked against Headroom's.
 * Buffers saved with the weights (Llama's rotary inv_freq: 8 KiB for 7B)
 * stay well under the 0.1 % allowed.  NULL when there is nothing to say. */
static char *
check_safetensors_index (const HrModelArch *model,
                         JsonObject        *config,
                         const char        *origin)
{
  g_autofree char *dir = g_path_get_dirname (origin);
  g_autofree char *path = g_build_filename (dir, "model.safetensors.index.json", NULL);
  g_autoptr(JsonNode) index = NULL;
  JsonObject *metadata;
  const char *dtype = hr_hf_get_string (config, "torch_dtype");
  double bytes_per_param, counted, stored;
  JsonNode *size;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || dtype == NULL)
    return NULL;
  /* A quantized checkpoint's bytes are not its torch_dtype's: DeepSeek-V3
   * stores fp8 weights with an fp32 scale per 128 x 128 block
   * (README_WEIGHTS.md, quantization_config) */
  if (json_object_has_member (config, "quantization_config"))
    return NULL;
  if (strcmp (dtype, "bfloat16") == 0 || strcmp (dtype, "float16") == 0)
    bytes_per_param = 2;
  else if (strcmp (dtype, "float32") == 0)
    bytes_per_param = 4;
  else
    return NULL;
  index = hr_json_load_file (path, NULL);
  metadata = index != NULL && JSON_NODE_HOLDS_OBJECT (index)
             ? hr_json_member_object (json_node_get_object (index), "metadata") : NULL;
  size = metadata != NULL ? json_object_get_member (metadata, "total_size") : NULL;
  if (size == NULL || !JSON_NODE_HOLDS_VALUE (size)
      || (json_node_get_value_type (size) != G_TYPE_INT64
          && json_node_get_value_type (size) != G_TYPE_DOUBLE))
    return g_strdup ("model.safetensors.index.json: no metadata.total_size to check the "
                     "parameter count against");
  stored = json_node_get_double (size) / bytes_per_param;
  counted = (double) hr_params_total (model);
  if (fabs (counted - stored) <= 0.001 * stored)
    return NULL;
  return g_strdup_printf ("model.safetensors.index.json: the checkpoint holds %.0f parameters "
                          "(%s), Headroom counts %.0f (%+.2f %%): this config may describe "
                          "the model incompletely", stored, dtype, counted,
                          100.0 * (counted - stored) / stored);
}

/* The config becomes the scenario's model, a custom one. */
static gboolean
hf_apply (HrScenario  *scenario,
          JsonNode    *root,
          const char  *origin,
          GPtrArray   *unmapped,
          GError     **error)
{
  g_autofree char *mismatch = NULL;

  if (!hr_hf_import_node (&scenario->model, root, origin, unmapped, error))
    return FALSE;
  scenario->model.preset[0] = '\0';
  hr_scenario_fit_model_lengths (scenario);
  /* transformers runs T5Attention eagerly, its bias added to the scores:
   * the plan follows, and says so. */
  if (scenario->model.position_buckets > 0 && scenario->training.attention != HR_ATTENTION_EAGER)
    {
      scenario->training.attention = HR_ATTENTION_EAGER;
      if (unmapped != NULL)
        g_ptr_array_add (unmapped, g_strdup ("relative_attention_num_buckets: training.attention "
                                             "set to eager (T5Attention adds its bias to eager "
                                             "scores)"));
    }
  mismatch = check_safetensors_index (&scenario->model, json_node_get_object (root), origin);
  if (mismatch != NULL && unmapped != NULL)
    g_ptr_array_add (unmapped, g_steal_pointer (&mismatch));
  return TRUE;
}

const HrImporter hr_hf_importer = {
  .id = "hf",
  .name = N_("a Hugging Face config.json"),
  .detect = hf_detect,
  .apply = hf_apply,
};
