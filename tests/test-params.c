/* test-params.c: parameter counts against the published ones
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CALC-REFERENCE.md section 1: every count in its table, exactly.
 */

#include <math.h>

#include "hr-json.h"
#include "hr-params.h"
#include "hr-model-group.h"
#include "hr-test-util.h"

typedef struct
{
  const char *name;
  guint64 layers, hidden, heads, kv_heads, ffn, vocab;
  gboolean tied;
  HrMlp mlp;
  HrNorm norm;
  HrBias bias;
  guint64 positions, experts, active;
  guint64 params, active_params;
} Reference;

static const Reference references[] = {
  { "GPT-2", 12, 768, 12, 12, 3072, 50257, TRUE, HR_MLP_GELU, HR_NORM_LAYERNORM, HR_BIAS_ALL, 1024, 1, 1, 124439808, 0 },
  { "GPT-2 XL", 48, 1600, 25, 25, 6400, 50257, TRUE, HR_MLP_GELU, HR_NORM_LAYERNORM, HR_BIAS_ALL, 1024, 1, 1, 1557611200, 0 },
  { "Llama-2-7B", 32, 4096, 32, 32, 11008, 32000, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 6738415616, 0 },
  { "Llama-2-13B", 40, 5120, 40, 40, 13824, 32000, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 13015864320, 0 },
  { "Llama-2-70B", 80, 8192, 64, 8, 28672, 32000, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 68976648192, 0 },
  { "Llama-3-8B", 32, 4096, 32, 8, 14336, 128256, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 8030261248, 0 },
  { "Llama-3-70B", 80, 8192, 64, 8, 28672, 128256, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 70553706496, 0 },
  { "Llama-3.1-405B", 126, 16384, 128, 8, 53248, 128256, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 405853388800, 0 },
  { "Llama-3.2-1B", 16, 2048, 32, 8, 8192, 128256, TRUE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 1235814400, 0 },
  { "Llama-3.2-3B", 28, 3072, 24, 8, 8192, 128256, TRUE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 3212749824, 0 },
  { "Mistral-7B-v0.1", 32, 4096, 32, 8, 14336, 32000, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 1, 1, 7241732096, 0 },
  { "Mixtral-8x7B", 32, 4096, 32, 8, 14336, 32000, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_NONE, 0, 8, 2, 46702792704, 12879925248 },
  { "Qwen2.5-7B", 28, 3584, 28, 4, 18944, 152064, FALSE, HR_MLP_SWIGLU, HR_NORM_RMSNORM, HR_BIAS_QKV, 0, 1, 1, 7615616512, 0 },
};

static void
arch_from_reference (const Reference *r,
                     HrModelArch     *m)
{
  hr_model_arch_init_default (m);
  m->layers = r->layers;
  m->hidden = r->hidden;
  m->heads = r->heads;
  m->kv_heads = r->kv_heads;
  m->head_dim = 0;
  m->ffn = r->ffn;
  m->vocab = r->vocab;
  m->tied_embeddings = r->tied;
  m->mlp = r->mlp;
  m->norm = r->norm;
  m->bias = r->bias;
  m->learned_positions = r->positions;
  m->experts = r->experts;
  m->experts_active = r->active;
}

static void
test_reference_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (references); i++)
    {
      const Reference *r = &references[i];
      HrModelArch m;
      HrParamCounts c;

      arch_from_reference (r, &m);
      hr_params_count (&m, NULL, 1, 1, &c);
      g_test_message ("%-16s %" G_GUINT64_FORMAT, r->name, c.total);
      g_assert_cmpuint (c.total, ==, r->params);
      if (r->active_params > 0)
        g_assert_cmpuint (c.active, ==, r->active_params);
      else
        g_assert_cmpuint (c.active, ==, c.total);
    }
}

/* Encoder-decoder models, counted as Hugging Face's
 * T5ForConditionalGeneration and BartForConditionalGeneration hold them
 * (model.num_parameters()); each total is also the arithmetic of the
 * preset's notes:
 *   T5-base: encoder 12·(4·768² + 2·768·3072 + 2·768) = 84,953,088,
 *     decoder 12·(8·768² + 2·768·3072 + 3·768) = 113,273,856, the shared
 *     table 32128·768 = 24,674,304, two final norms 1,536, two relative
 *     biases 2·32·12 = 768: 222,903,552 (keras-hub's t5_base preset);
 *   Flan-T5-base: d_ff 2048 gated (3·768·2048 = 2·768·3072, the same
 *     layers), untied head +24,674,304: 247,577,856;
 *   BART-large: encoder 12·(4·(1024² + 1024) + 2·1024·4096 + 4096 + 1024
 *     + 2·2048) = 151,154,688, decoder 12·(8·(1024² + 1024) + 2·1024·4096
 *     + 4096 + 1024 + 3·2048) = 201,560,064, the table 50265·1024 =
 *     51,471,360, two position tables 2·1026·1024 = 2,101,248, two
 *     embedding LayerNorms 4,096: 406,291,456 (facebook/bart-large). */
typedef struct
{
  const char *name;
  guint64 layers, decoder_layers, hidden, heads, ffn, vocab;
  gboolean tied;
  HrMlp mlp;
  HrNorm norm;
  HrBias bias;
  guint64 positions, buckets;
  gboolean post_norm;
  guint64 params;
} Seq2SeqReference;

static const Seq2SeqReference seq2seq_references[] = {
  { "T5-base", 12, 12, 768, 12, 3072, 32128, TRUE, HR_MLP_RELU, HR_NORM_RMSNORM, HR_BIAS_NONE,
    0, 32, FALSE, 222903552 },
  { "Flan-T5-base", 12, 12, 768, 12, 2048, 32128, FALSE, HR_MLP_GEGLU, HR_NORM_RMSNORM, HR_BIAS_NONE,
    0, 32, FALSE, 247577856 },
  { "BART-large", 12, 12, 1024, 16, 4096, 50265, TRUE, HR_MLP_GELU, HR_NORM_LAYERNORM, HR_BIAS_ALL,
    1026, 0, TRUE, 406291456 },
};

static void
arch_from_seq2seq (const Seq2SeqReference *r,
                   HrModelArch            *m)
{
  hr_model_arch_init_default (m);
  m->kind = HR_KIND_ENCODER_DECODER;
  m->layers = r->layers;
  m->decoder_layers = r->decoder_layers;
  m->hidden = r->hidden;
  m->heads = m->kv_heads = r->heads;
  m->head_dim = 0;
  m->ffn = r->ffn;
  m->vocab = r->vocab;
  m->tied_embeddings = r->tied;
  m->mlp = r->mlp;
  m->norm = r->norm;
  m->bias = r->bias;
  m->learned_positions = r->positions;
  m->position_buckets = r->buckets;
  m->post_norm = r->post_norm;
}

static void
test_seq2seq_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (seq2seq_references); i++)
    {
      const Seq2SeqReference *r = &seq2seq_references[i];
      HrModelArch m;
      HrParamCounts c, split;

      arch_from_seq2seq (r, &m);
      hr_params_count (&m, NULL, 1, 1, &c);
      g_test_message ("%-16s %" G_GUINT64_FORMAT, r->name, c.total);
      g_assert_cmpuint (c.total, ==, r->params);
      g_assert_cmpuint (c.active, ==, c.total);
      /* The pieces the plan adds up per stage give the same total: the
       * layers of both stacks, each decoder layer's cross-attention, and
       * what lies outside the layers. */
      g_assert_cmpuint ((m.layers + m.decoder_layers) * c.layer_dense
                        + m.decoder_layers * c.decoder_extra
                        + c.embedding + c.head + c.final_norm, ==, r->params);
      /* Tensor parallelism splits the cross-attention as it splits the
       * self-attention: 4 matrices by t, its norm (and BART's O bias)
       * replicated. */
      hr_params_count (&m, NULL, 4, 1, &split);
      g_assert_cmpuint (split.decoder_extra_linear * 4, ==, c.decoder_extra_linear);
      g_assert_cmpuint (c.decoder_extra_linear, ==, 4 * m.hidden * m.hidden);
    }

  /* The same model read as a decoder-only one counts neither the decoder
   * stack nor the second position table (the T5 planned as a
   * 109.6 M decoder). */
  {
    HrModelArch m;

    arch_from_seq2seq (&seq2seq_references[0], &m);
    m.kind = HR_KIND_DECODER;
    g_assert_cmpuint (hr_params_total (&m), ==, 84953088 + 24674304 + 768);
  }
}

/* Whisper large-v3 (openai/whisper-large-v3 config.json: d_model 1280,
 * 32 + 32 layers of 20 heads, ffn 5120, gelu, num_mel_bins 128,
 * max_source_positions 1500, max_target_positions 448, vocab 51866),
 * tensor by tensor as transformers' modeling_whisper.py builds it:
 *   attention (WhisperAttention: q, v, out with biases, k_proj without)
 *     4·1280² + 3·1280 = 6,557,440;
 *   MLP fc1 1280·5120 + 5120, fc2 5120·1280 + 1280 = 13,113,600;
 *   encoder layer: attention + MLP + 2 LayerNorms 2·2560 = 19,676,160,
 *     x 32 = 629,637,120;
 *   decoder layer: 2 attentions + MLP + 3 LayerNorms = 26,236,160,
 *     x 32 = 839,557,120;
 *   conv1 128·1280·3 + 1280 = 492,800; conv2 1280·1280·3 + 1280 =
 *     4,916,480;
 *   encoder positions 1500·1280 = 1,920,000 (sinusoidal, frozen);
 *   decoder positions 448·1280 = 573,440; tokens 51866·1280 = 66,388,480
 *     (proj_out tied to them); 2 final LayerNorms 5,120:
 *   1,543,490,560, the published total, which counts the frozen table
 *   (model.num_parameters() counts every nn.Parameter; requires_grad
 *   False does not take it out).  Without it: 1,541,570,560. */
#define WHISPER_ATTN  (4ull * 1280 * 1280 + 3 * 1280)
#define WHISPER_MLP   (2ull * 1280 * 5120 + 5120 + 1280)
#define WHISPER_TOTAL (32 * (WHISPER_ATTN + WHISPER_MLP + 2 * 2560)                   \
                       + 32 * (2 * WHISPER_ATTN + WHISPER_MLP + 3 * 2560)             \
                       + (128ull * 1280 * 3 + 1280) + (1280ull * 1280 * 3 + 1280)    \
                       + 1500ull * 1280 + 448ull * 1280 + 51866ull * 1280 + 2 * 2560)
G_STATIC_ASSERT (WHISPER_ATTN == 6557440);
G_STATIC_ASSERT (WHISPER_MLP == 13113600);
G_STATIC_ASSERT (WHISPER_TOTAL == 1543490560ull);

static void
whisper_large_v3 (HrModelArch *m)
{
  hr_model_arch_init_default (m);
  m->kind = HR_KIND_ENCODER_DECODER;
  m->layers = m->decoder_layers = 32;
  m->hidden = 1280;
  m->heads = m->kv_heads = 20;
  m->head_dim = 0;
  m->ffn = 5120;
  m->mlp = HR_MLP_GELU;
  m->vocab = 51866;
  m->tied_embeddings = TRUE;
  m->norm = HR_NORM_LAYERNORM;
  m->bias = HR_BIAS_ALL_BUT_K;
  m->learned_positions = 448;
  m->audio_mel_bins = 128;
  m->audio_frames = 1500;
}

static void
test_whisper (void)
{
  HrModelArch m;
  HrParamCounts c, split;

  whisper_large_v3 (&m);
  hr_params_count (&m, NULL, 1, 1, &c);
  g_assert_cmpuint (c.total, ==, WHISPER_TOTAL);
  g_assert_cmpuint (c.active, ==, c.total);
  /* The frozen table is in the count and named apart. */
  g_assert_cmpuint (c.frozen, ==, 1500 * 1280);
  /* The pieces the plan adds up per stage give the same total. */
  g_assert_cmpuint ((m.layers + m.decoder_layers) * c.layer_dense
                    + m.decoder_layers * c.decoder_extra
                    + c.embedding + c.head + c.final_norm, ==, WHISPER_TOTAL);
  g_assert_cmpuint (c.layer_dense, ==, WHISPER_ATTN + WHISPER_MLP + 2 * 2560);
  g_assert_cmpuint (c.decoder_extra, ==, WHISPER_ATTN + 2560);
  /* Tensor parallelism splits the layers' matrices; the stem and both
   * position tables stay whole on every rank. */
  hr_params_count (&m, NULL, 4, 1, &split);
  g_assert_cmpuint (split.embedding, ==, 51866ull * 1280 / 4 + (1500 + 448) * 1280ull
                                         + 492800 + 4916480);

  /* Each piece of Whisper's description is counted: with K biased (all)
   * 96 attentions gain 1280 each; read as a text model (no stem, a
   * learned table of 448 rows in each stack) the stem and the encoder's
   * table go, and the second 448-row table comes. */
  m.bias = HR_BIAS_ALL;
  g_assert_cmpuint (hr_params_total (&m), ==, WHISPER_TOTAL + 96 * 1280);
  m.bias = HR_BIAS_ALL_BUT_K;
  m.audio_mel_bins = m.audio_frames = 0;
  g_assert_cmpuint (hr_params_total (&m), ==, WHISPER_TOTAL - 492800 - 4916480
                                              - 1500 * 1280 + 448 * 1280);
}

/* The model picker's groups, from the architecture: every bundled preset
 * where its kind says it belongs, and the rules' order (SSM before
 * experts, experts before stacks). */
static void
test_model_groups (void)
{
  static const struct { const char *id; HrModelGroup group; const char *family; } presets[] = {
    { "llama-2-13b", HR_MODEL_GROUP_DECODER, "Llama" },
    { "qwen2.5-7b", HR_MODEL_GROUP_DECODER, "Qwen" },
    { "gpt2-small", HR_MODEL_GROUP_DECODER, "GPT" },
    { "phi-3.5-mini", HR_MODEL_GROUP_DECODER, "Phi" },
    { "olmo-2-7b", HR_MODEL_GROUP_DECODER, "OLMo" },
    { "mixtral-8x7b", HR_MODEL_GROUP_MOE, "Mixtral" },
    { "qwen3-30b-a3b", HR_MODEL_GROUP_MOE, "Qwen" },
    { "deepseek-v3", HR_MODEL_GROUP_MOE, "DeepSeek" },
    { "t5-base", HR_MODEL_GROUP_ENCODER_DECODER, "T5" },
    { "bart-large", HR_MODEL_GROUP_ENCODER_DECODER, "BART" },
    { "whisper-large-v3", HR_MODEL_GROUP_ENCODER_DECODER, "Whisper" },
    { "llava-1.5-7b", HR_MODEL_GROUP_VISION_LANGUAGE, "LLaVA" },
    { "qwen2-vl-7b", HR_MODEL_GROUP_VISION_LANGUAGE, "Qwen" },
    { "llama-3.2-11b-vision", HR_MODEL_GROUP_VISION_LANGUAGE, "Llama" },
    { "bert-base-uncased", HR_MODEL_GROUP_ENCODER, "BERT" },
    { "roberta-large", HR_MODEL_GROUP_ENCODER, "RoBERTa" },
    { "vit-h-14", HR_MODEL_GROUP_VISION, "ViT" },
    { "mamba-130m", HR_MODEL_GROUP_STATE_SPACE, "Mamba" },
    { "mamba2-2.7b", HR_MODEL_GROUP_STATE_SPACE, "Mamba" },
    { "jamba-mini", HR_MODEL_GROUP_STATE_SPACE, "Jamba" },
    { "nemotron-h-8b", HR_MODEL_GROUP_STATE_SPACE, "Nemotron" },
    { "nemotron-3-nano-30b-a3b", HR_MODEL_GROUP_STATE_SPACE, "Nemotron" },
    { "nemotron-3-super-120b-a12b", HR_MODEL_GROUP_STATE_SPACE, "Nemotron" },
    { "nemotron-3-ultra-550b-a55b", HR_MODEL_GROUP_STATE_SPACE, "Nemotron" },
    { "zamba2-2.7b", HR_MODEL_GROUP_STATE_SPACE, "Zamba" },
    { "granite-4.0-h-tiny", HR_MODEL_GROUP_STATE_SPACE, "Granite" },
  };
  HrModelArch m;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      HrScenario sc;
      g_autofree char *family = NULL;

      hr_scenario_init_default (&sc);
      hr_test_model (&sc, presets[i].id);
      g_assert_cmpint (hr_model_group (&sc.model), ==, presets[i].group);
      family = hr_model_family (presets[i].id, sc.model.name);
      g_assert_cmpstr (family, ==, presets[i].family);
    }
  for (guint g = 0; g < HR_N_MODEL_GROUPS; g++)
    g_assert_cmpstr (hr_model_group_label (g), !=, "");

  hr_model_arch_init_default (&m);
  g_assert_cmpint (hr_model_group (&m), ==, HR_MODEL_GROUP_DECODER);
  m.experts = 8;
  g_assert_cmpint (hr_model_group (&m), ==, HR_MODEL_GROUP_MOE);
  m.ssm = HR_SSM_MAMBA;
  g_assert_cmpint (hr_model_group (&m), ==, HR_MODEL_GROUP_STATE_SPACE);
  m.ssm = HR_SSM_NONE;
  m.experts = 1;
  m.vision = HR_VISION_CLIP;
  g_assert_cmpint (hr_model_group (&m), ==, HR_MODEL_GROUP_VISION_LANGUAGE);
  m.vision = HR_VISION_NONE;
  m.kind = HR_KIND_ENCODER;
  g_assert_cmpint (hr_model_group (&m), ==, HR_MODEL_GROUP_ENCODER);
  m.patch_dim = 588;
  g_assert_cmpint (hr_model_group (&m), ==, HR_MODEL_GROUP_VISION);
  /* A user's preset named otherwise: the id's word, capitalised. */
  {
    g_autofree char *family = hr_model_family ("mymodel-7b", "Something else");
    g_autofree char *digits = hr_model_family ("42", NULL);

    g_assert_cmpstr (family, ==, "Mymodel");
    g_assert_cmpstr (digits, ==, "42");
  }
}

/* State-space and hybrid models, from their configs and the modeling
 * code (hr-params-ssm.c has each tensor):
 *   Mamba 130M (state-spaces/mamba-130m: d_model 768, n_layer 24, vocab
 *   50277 padded to a multiple of 8 = 50280; d_inner 1536, dt_rank
 *   ceil(768/16) = 48, d_state 16, d_conv 4): per layer in_proj
 *   768·3072 = 2,359,296, conv1d 1536·4 + 1536 = 7,680, x_proj
 *   1536·(48 + 32) = 122,880, dt_proj 48·1536 + 1536 = 75,264, A_log
 *   1536·16 = 24,576, D 1,536, out_proj 1536·768 = 1,179,648, norm 768:
 *   3,771,648; x 24 = 90,519,552, tied table 50280·768 = 38,615,040,
 *   final norm 768: 129,135,360 ("130M").
 *   Mamba 2.8B (d_model 2560, n_layer 64, vocab 50280; d_inner 5120,
 *   dt_rank 160): per layer 26,214,400 + 25,600 + 983,040 + 824,320 +
 *   81,920 + 5,120 + 13,107,200 + 2,560 = 41,244,160; x 64 =
 *   2,639,626,240, table 50280·2560 = 128,716,800, norm 2,560:
 *   2,768,345,600 ("2.8B").
 *   Mamba-2 2.7B (state-spaces/mamba2-2.7b: d_model 2560, n_layer 64,
 *   vocab 50277 padded to a multiple of 16 = 50288; d_state 128, headdim
 *   64: 80 heads, 1 group): in_proj 2560·(10240 + 256 + 80) = 27,074,560,
 *   conv1d 5376·4 + 5376 = 26,880, dt_bias + A_log + D 240, gated norm
 *   5,120, out_proj 13,107,200, norm 2,560: 40,216,560; x 64 =
 *   2,573,859,840, table 50288·2560 = 128,737,280, norm 2,560:
 *   2,702,599,680 ("2.7B").
 *   Jamba (ai21labs/AI21-Jamba-Mini-1.5 = Jamba-v0.1's shape: hidden
 *   4096, 32 layers, 32 heads, 8 K/V heads, intermediate 14336, 16
 *   experts top-2, vocab 65536 untied; attention at i % 8 = 4: 4 layers,
 *   experts at i % 2 = 1: 16 layers; Mamba d_inner 8192, dt_rank 256,
 *   d_state 16 with the dt/B/C norms): attention 2·4096² + 2·4096·1024 =
 *   41,943,040; Mamba 67,108,864 + 40,960 + 2,359,296 + 2,105,344 +
 *   131,072 + 8,192 + 33,554,432 + 288 = 105,308,448; dense MLP
 *   3·4096·14336 = 176,160,768, MoE 16 of them + router 4096·16 =
 *   2,818,637,824; norms 2·4096 per layer.  4·41,943,040 +
 *   28·105,308,448 + 16·176,160,768 + 16·2,818,637,824 + 32·8,192 +
 *   2·65536·4096 + 4,096 = 51,570,323,328 ("52B total"); active, top-2
 *   (2·176,160,768 + 65,536 per MoE layer): 12,110,311,296 ("12B
 *   active"). */
typedef struct
{
  const char *name;
  HrSsm ssm;
  guint64 layers, hidden, ffn, vocab, experts, active;
  guint64 attn_period, attn_offset, expert_period, expert_offset;
  gboolean tied, bc_norm;
  guint64 params, active_params;
} SsmReference;

static const SsmReference ssm_references[] = {
  { "Mamba-130M", HR_SSM_MAMBA, 24, 768, 0, 50280, 1, 1, 0, 0, 0, 0, TRUE, FALSE,
    129135360, 129135360 },
  { "Mamba-2.8B", HR_SSM_MAMBA, 64, 2560, 0, 50280, 1, 1, 0, 0, 0, 0, TRUE, FALSE,
    2768345600, 2768345600 },
  { "Mamba-2-2.7B", HR_SSM_MAMBA2, 64, 2560, 0, 50288, 1, 1, 0, 0, 0, 0, TRUE, FALSE,
    2702599680, 2702599680 },
  { "Jamba-Mini-1.5", HR_SSM_MAMBA, 32, 4096, 14336, 65536, 16, 2, 8, 4, 2, 1, FALSE, TRUE,
    51570323328, 12110311296 },
};

static void
arch_from_ssm (const SsmReference *r,
               HrModelArch        *m)
{
  hr_model_arch_init_default (m);
  m->ssm = r->ssm;
  m->layers = r->layers;
  m->hidden = r->hidden;
  m->heads = r->attn_period > 0 ? 32 : 1;
  m->kv_heads = r->attn_period > 0 ? 8 : 1;
  m->head_dim = 0;
  m->ffn = r->ffn;
  m->vocab = r->vocab;
  m->tied_embeddings = r->tied;
  m->experts = r->experts;
  m->experts_active = r->active;
  m->attn_layer_period = r->attn_period;
  m->attn_layer_offset = r->attn_offset;
  m->expert_layer_period = r->expert_period;
  m->expert_layer_offset = r->expert_offset;
  m->ssm_bc_norm = r->bc_norm;
}

static void
test_ssm_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (ssm_references); i++)
    {
      const SsmReference *r = &ssm_references[i];
      HrModelArch m;
      HrParamCounts c;

      arch_from_ssm (r, &m);
      hr_params_count (&m, NULL, 1, 1, &c);
      g_test_message ("%-16s %" G_GUINT64_FORMAT " (active %" G_GUINT64_FORMAT ")",
                      r->name, c.total, c.active);
      g_assert_cmpuint (c.total, ==, r->params);
      g_assert_cmpuint (c.active, ==, r->active_params);
      /* What the plan adds up for its one stage is the same total: L
       * layers of one kind, or a hybrid's stack sums. */
      if (c.mixed)
        g_assert_cmpuint (c.stack_dense + c.stack_experts + c.embedding + c.head + c.final_norm,
                          ==, r->params);
      else
        g_assert_cmpuint (m.layers * (c.layer_dense + c.layer_experts)
                          + c.embedding + c.head + c.final_norm, ==, r->params);
    }

  /* Jamba's layer pattern: 4 attention layers, 16 with experts; the
   * largest layer is an SSM one with the experts (105,308,448 + 8,192 +
   * 2,818,637,824). */
  {
    HrModelArch m;
    HrParamCounts c;

    arch_from_ssm (&ssm_references[3], &m);
    hr_params_count (&m, NULL, 1, 1, &c);
    g_assert_true (c.mixed);
    g_assert_cmpuint (c.attention_layers, ==, 4);
    g_assert_cmpuint (c.expert_layers, ==, 16);
    g_assert_cmpuint (c.layer_dense + c.layer_experts, ==, 105308448 + 8192 + 2818637824);
    /* Expert parallelism over 4 ranks: each holds 4 of the 16 experts. */
    {
      HrParamCounts split;

      hr_params_count (&m, NULL, 1, 4, &split);
      g_assert_cmpuint (split.stack_experts * 4, ==, c.stack_experts);
      g_assert_cmpuint (split.stack_dense, ==, c.stack_dense);
    }
    /* Without Jamba's dt, B and C norms, 28 Mamba layers of 288 fewer. */
    m.ssm_bc_norm = FALSE;
    g_assert_cmpuint (hr_params_total (&m), ==, 51570323328 - 28 * 288);
  }

  /* The defaults are mamba_ssm's: writing them out changes nothing. */
  {
    HrModelArch m, explicit;

    arch_from_ssm (&ssm_references[2], &m);
    explicit = m;
    explicit.ssm_state = 128;
    explicit.ssm_conv = 4;
    explicit.ssm_expand = 2;
    explicit.ssm_head_dim = 64;
    explicit.ssm_heads = 80;
    explicit.ssm_groups = 1;
    g_assert_cmpuint (hr_params_total (&explicit), ==, hr_params_total (&m));
    /* 8 groups of B and C (Mamba-Codestral): in_proj and conv1d grow by
     * 2·7·128 channels each, 64 layers. */
    explicit.ssm_groups = 8;
    g_assert_cmpuint (hr_params_total (&explicit), ==,
                      hr_params_total (&m) + 64 * (2 * 7 * 128) * (2560 + 4 + 1));
  }

  /* Megatron's MambaMixer on t ranks: each holds a t-th of the block
   * (Mamba-Codestral's shape: 109,635,968 per block, 8 groups), the
   * layer's norm whole: 4 x (27,408,992 + 4,096) = 109,640,064 + 3 x
   * 4,096. */
  {
    HrModelArch m;
    HrParamCounts whole, split;

    arch_from_ssm (&ssm_references[2], &m);
    m.hidden = 4096;
    m.ssm_groups = 8;
    hr_params_count (&m, NULL, 1, 1, &whole);
    hr_params_count (&m, NULL, 4, 1, &split);
    g_assert_cmpuint (whole.layer_dense, ==, 109640064);
    g_assert_cmpuint (split.layer_dense, ==, 27408992 + 4096);
    g_assert_cmpuint (4 * split.layer_linear, ==, whole.layer_linear);
  }
}

/* The presets of the same models give the same counts. */
static void
test_presets_match_reference (void)
{
  static const struct { const char *id; guint64 params; } presets[] = {
    { "gpt2-small", 124439808 }, { "gpt2-xl", 1557611200 },
    { "llama-2-7b", 6738415616 }, { "llama-2-13b", 13015864320 },
    { "llama-2-70b", 68976648192 }, { "llama-3-8b", 8030261248 },
    { "llama-3-70b", 70553706496 }, { "llama-3.1-405b", 405853388800 },
    { "llama-3.2-1b", 1235814400 }, { "llama-3.2-3b", 3212749824 },
    { "mistral-7b-v0.1", 7241732096 }, { "mixtral-8x7b", 46702792704 },
    { "qwen2.5-7b", 7615616512 },
    { "t5-base", 222903552 }, { "flan-t5-base", 247577856 }, { "bart-large", 406291456 },
    { "whisper-large-v3", WHISPER_TOTAL },
    { "mamba-130m", 129135360 }, { "mamba-2.8b", 2768345600 },
    { "mamba2-2.7b", 2702599680 }, { "jamba-mini", 51570323328 },
    { "nemotron-h-8b", 8100852736 },
    /* Zamba2: Mamba-2 layers, shared blocks counted once, each use's
     * linear and adapters (the presets' notes have the parts) */
    { "zamba2-1.2b", 38ull * 25849280 + 109058048 + 6ull * 9699328 + 32000ull * 2048 + 2048 },
    { "zamba2-2.7b", 54ull * 39888240 + 2 * 170401280ull + 9ull * 9502720 + 32000ull * 2560 + 2560 },
    { "zamba2-7b", 81ull * 78437456 + 2 * 333982208ull + 13ull * 16973824 + 32000ull * 3584 + 3584 },
    /* 23 Mamba-2, 23 MoE (128 experts, a shared MLP of two widths) and 6
     * attention blocks: the preset's notes have the parts */
    { "nemotron-3-nano-30b-a3b", 23 * (38742208ull + 2688) + 23 * (128ull * 2688 + 128ull * 2 * 2688 * 1856
                                                                    + 2ull * 2688 * 3712 + 2688)
                                 + 6 * (2 * 2688ull * 4096 + 2 * 2688ull * 256 + 2688) + 2 * 131072ull * 2688 + 2688 },
    /* Granite 4.0-H Tiny: 36 Mamba-2 and 4 attention layers, each with
     * two norms and the MoE (router 1536 x 64, 64 experts of 3 x 1536 x
     * 512, a shared MLP of 3 x 1536 x 1024); the tied table and the
     * final norm (the preset's notes have the parts): llama.cpp's 6.94 B */
    { "granite-4.0-h-tiny", 36 * (1536ull * (2 * 3072 + 2 * 128 + 48) + 3328 * 4 + 3328 + 3 * 48 + 3072
                                  + 3072ull * 1536)
                            + 4 * (2 * 1536ull * 1536 + 2 * 1536ull * 512)
                            + 40 * (1536ull * 64 + 64 * 3 * 1536ull * 512 + 3 * 1536ull * 1024 + 2 * 1536)
                            + 100352ull * 1536 + 1536 },
    /* Granite 4.0-H Small: Mamba-2 mixers of 128 heads of 64, experts and
     * a shared MLP of two experts' width in each of its 40 layers; the
     * dense 1B and 350M: the shared MLP alone (the presets' notes have the
     * parts): llama.cpp's 1.46 B for the 1B */
    { "granite-4.0-h-small", 36 * (4096ull * (2 * 8192 + 2 * 128 + 128) + 8448 * 4 + 8448 + 3 * 128 + 8192
                                   + 8192ull * 4096)
                             + 4 * (2 * 4096ull * 4096 + 2 * 4096ull * 1024)
                             + 40 * (4096ull * 72 + 72 * 3 * 4096ull * 768 + 3 * 4096ull * 1536 + 2 * 4096)
                             + 100352ull * 4096 + 4096 },
    { "granite-4.0-h-1b", 36 * (1536ull * (2 * 3072 + 2 * 128 + 48) + 3328 * 4 + 3328 + 3 * 48 + 3072
                                + 3072ull * 1536)
                          + 4 * (2 * 1536ull * 1536 + 2 * 1536ull * 512)
                          + 40 * (3 * 1536ull * 4096 + 2 * 1536) + 100352ull * 1536 + 1536 },
    { "granite-4.0-h-350m", 28 * (768ull * (2 * 1536 + 2 * 128 + 48) + 1792 * 4 + 1792 + 3 * 48 + 1536
                                  + 1536ull * 768)
                            + 4 * (2 * 768ull * 768 + 2 * 768ull * 256)
                            + 32 * (3 * 768ull * 2048 + 2 * 768) + 100352ull * 768 + 768 },
    /* Nemotron 3 Ultra: 48 Mamba-2 blocks (256 heads of 64, 8 groups), 48
     * latent MoE blocks (512 experts of 5120 in a 2048 latent, a shared MLP
     * of 10240) and 12 attention blocks (64 heads, 2 KV heads of 128), an
     * untied 131072 vocabulary (the preset's notes have the parts): NVIDIA's
     * 550 B; the MTP module adds 11,215,609,856 (the Hub's 561 B) */
    { "nemotron-3-ultra-550b-a55b",
      48 * (8192ull * (2 * 16384 + 2 * 8 * 128 + 256) + 18432 * 4 + 18432 + 3 * 256 + 16384
            + 16384ull * 8192 + 8192)
      + 48 * (512ull * 8192 + 2 * 8192ull * 2048 + 512 * 2 * 5120ull * 2048 + 2 * 8192ull * 10240 + 8192)
      + 12 * (2 * 8192ull * 8192 + 2 * 8192ull * 256 + 8192) + 2 * 131072ull * 8192 + 8192 },
    /* ViT-H/14 as HF's ViTForImageClassification (no pooler, a 1000-class
     * head; ../shared/data/facts/models.json): the CLS token 1280, 257
     * positions x 1280, the patch projection 588 x 1280 + 1280, 32 layers
     * of 19,677,440 (Q, K, V and O 4 x (1280² + 1280), fc1 and fc2
     * 2 x 1280 x 5120 + 5120 + 1280, two LayerNorms 2 x 2560), the final
     * norm 2560 and the classifier 1280 x 1000 + 1000. */
    { "vit-h-14", 1280 + 257 * 1280 + 588 * 1280 + 1280 + 32 * 19677440ull + 2560 + 1281000 },
    /* the published totals (test_vision_counts has the arithmetic) */
    { "llava-1.5-7b", 7063427072 }, { "qwen2-vl-7b", 8291375616 },
    { "llama-3.2-11b-vision", 10670220835 },
  };
  G_STATIC_ASSERT (1280 + 257 * 1280 + 588 * 1280 + 1280 + 32 * 19677440ull + 2560 + 1281000
                   == 632045800ull);
  G_STATIC_ASSERT (36 * (1536ull * (2 * 3072 + 2 * 128 + 48) + 3328 * 4 + 3328 + 3 * 48 + 3072 + 3072ull * 1536)
                   + 4 * (2 * 1536ull * 1536 + 2 * 1536ull * 512)
                   + 40 * (1536ull * 64 + 64 * 3 * 1536ull * 512 + 3 * 1536ull * 1024 + 2 * 1536)
                   + 100352ull * 1536 + 1536 == 6939037248ull);
  G_STATIC_ASSERT (36 * (1536ull * (2 * 3072 + 2 * 128 + 48) + 3328 * 4 + 3328 + 3 * 48 + 3072 + 3072ull * 1536)
                   + 4 * (2 * 1536ull * 1536 + 2 * 1536ull * 512)
                   + 40 * (3 * 1536ull * 4096 + 2 * 1536) + 100352ull * 1536 + 1536 == 1461538368ull);

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      HrScenario sc;

      hr_scenario_init_default (&sc);
      hr_test_model (&sc, presets[i].id);
      g_assert_cmpuint (hr_params_total (&sc.model), ==, presets[i].params);
    }
}

/* LoRA on a Mamba block's in_proj, r 16, r·(h + in_proj's width) a
 * layer: Mamba 2.8B (h 2560, d_inner 5120, in_proj to 2·d_inner) 64 x
 * 16·(2560 + 10240) = 13,107,200; Mamba-2 2.7B (in_proj to 2·5120 + 2·1·128
 * + 80 = 10,576) 64 x 16·(2560 + 10576) = 13,451,264.
 *
 * Jamba Mini (h 4096, d_inner 8192, dt_rank 256, N 16, 32 heads of 128, 8
 * KV heads, f 14336, 16 experts), every target, r 16: a Mamba block's
 * in_proj 16·(4096 + 16384) = 327,680, x_proj 16·(8192 + 256 + 32) =
 * 135,680, out_proj 16·(8192 + 4096) = 196,608: 659,968; the attention's
 * q and o 16·8192 each, k and v 16·5120 each: 425,984; a dense MLP
 * 3·16·(4096 + 14336) = 884,736, the experts 16 x that = 14,155,776.
 * Layers: 4 attention ones with the dense MLP, 12 Mamba ones with it, 16
 * with the experts: 4·1,310,720 + 12·1,544,704 + 16·14,815,744 =
 * 260,831,232; the largest layer's 14,815,744. */
static void
test_ssm_lora_counts (void)
{
  static const struct { const char *id; guint64 lora; } models[] = {
    { "mamba-2.8b", 64ull * 16 * (2560 + 10240) },
    { "mamba2-2.7b", 64ull * 16 * (2560 + 10576) },
  };
  G_STATIC_ASSERT (64ull * 16 * (2560 + 10240) == 13107200);
  G_STATIC_ASSERT (64ull * 16 * (2560 + 10576) == 13451264);

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      HrScenario sc;
      HrParamCounts c;

      hr_scenario_init_default (&sc);
      hr_test_model (&sc, models[i].id);
      sc.training.method = HR_METHOD_LORA;
      sc.training.lora.rank = 16;
      sc.training.lora.targets = HR_LORA_IN_PROJ;
      hr_params_count (&sc.model, &sc.training, 1, 1, &c);
      g_assert_cmpuint (c.lora_total, ==, models[i].lora);
      g_assert_cmpuint (c.layer_lora * 64, ==, models[i].lora);
    }

  {
    HrScenario sc;
    HrParamCounts c;

    G_STATIC_ASSERT (4ull * (425984 + 884736) + 12ull * (659968 + 884736)
                     + 16ull * (659968 + 16ull * 884736) == 260831232);
    hr_scenario_init_default (&sc);
    hr_test_model (&sc, "jamba-mini");
    sc.training.method = HR_METHOD_LORA;
    sc.training.lora.rank = 16;
    sc.training.lora.targets = HR_LORA_ALL_LINEAR | HR_LORA_SSM;
    hr_params_count (&sc.model, &sc.training, 1, 1, &c);
    g_assert_cmpuint (c.lora_total, ==, 260831232);
    g_assert_cmpuint (c.layer_lora, ==, 659968 + 16 * 884736);
    g_assert_cmpuint (c.kind_lora[1][0], ==, 425984 + 884736);
    g_assert_cmpuint (c.kind_lora[0][0], ==, 659968 + 884736);
  }
}

/* Nemotron 3 Nano as a latent MoE of 1024: each of its 23 expert blocks
 * gains fc1_latent_proj and fc2_latent_proj (2·2688·1024 = 5,505,024)
 * and its 128 experts read and write 1024 instead of 2688 (128·2·1856 x
 * 1664 = 790,626,304 less): 785,121,280 less a block. */
static void
test_latent_moe_counts (void)
{
  HrScenario sc;

  G_STATIC_ASSERT (128ull * 2 * 1856 * (2688 - 1024) - 2ull * 2688 * 1024 == 785121280);
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "nemotron-3-nano-30b-a3b");
  g_assert_cmpuint (hr_params_total (&sc.model), ==, 31577937344);
  sc.model.moe_latent_size = 1024;
  g_assert_cmpuint (hr_params_total (&sc.model), ==, 31577937344 - 23 * 785121280ull);
}

/* Nemotron 3 Super 120B-A12B, a latent MoE at full size: 40 Mamba-2
 * blocks of 109,640,064 (in_proj 4096 x 18560, conv1d 10240 x 4 + 10240,
 * A, D and dt 3 x 128, the gated norm 8192, out_proj 8192 x 4096, the
 * block's norm), 40 MoE blocks of 2,873,102,336 (router 512 x 4096, the
 * two latent projections 2 x 4096 x 1024, 512 experts 2 x 2688 x 1024,
 * the shared MLP 2 x 4096 x 5376, norm), 8 attention blocks of 35,655,680,
 * the untied table and head 2 x 131072 x 4096 and the final norm: the BF16
 * checkpoint's 123,611,012,096 weights less its MTP module's 2,942,324,736
 * (its safetensors headers, as the preset's source quotes them).  Active:
 * 490 of 512 experts idle in each of the 40 blocks, 107,898,470,400. */
static void
test_nemotron_super_counts (void)
{
  HrScenario sc;
  HrParamCounts c;

  G_STATIC_ASSERT (40 * 109640064ull + 40 * 2873102336ull + 8 * 35655680ull + 2 * 131072ull * 4096 + 4096
                   == 123611012096ull - 2942324736ull);
  G_STATIC_ASSERT (4096ull * 18560 + 10240 * 4 + 10240 + 3 * 128 + 8192 + 8192ull * 4096 + 4096 == 109640064ull);
  G_STATIC_ASSERT (512ull * 4096 + 2 * 4096ull * 1024 + 512ull * 2 * 2688 * 1024 + 2 * 4096ull * 5376 + 4096
                   == 2873102336ull);
  G_STATIC_ASSERT (40 * 490ull * 2 * 2688 * 1024 == 107898470400ull);
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "nemotron-3-super-120b-a12b");
  hr_params_count (&sc.model, &sc.training, 1, 1, &c);
  g_assert_cmpuint (c.total, ==, 120668687360ull);
  g_assert_cmpuint (c.active, ==, 120668687360ull - 107898470400ull);
  /* ... and with its MTP module ("*E": an attention and an expert block,
   * eh_proj 8192 x 4096 and three norms): the whole checkpoint */
  G_STATIC_ASSERT (35655680ull + 2873102336ull + 8192ull * 4096 + 3 * 4096 == 2942324736ull);
  sc.model.mtp_modules = 1;
  hr_params_count (&sc.model, &sc.training, 1, 1, &c);
  g_assert_cmpuint (c.total, ==, 123611012096ull);
}

/* LoRA on Zamba2 2.7B (h 2560, 32 heads of 160: Q, K, V 2h -> 5120, O
 * 5120 -> h; f 10240, gate_up_proj h -> 2f; 2 shared blocks; 54 Mamba-2
 * layers whose in_proj goes to 2·5120 + 2·1·64 + 80 = 10,448), r 16 on
 * every linear and in_proj.  A shared block's adapters, once per block
 * (PEFT wraps a shared module once): q, k, v 16·(5120 + 5120) = 163,840
 * each, o 16·(5120 + 2560) = 122,880, the one gate_up_proj adapter
 * 16·(2560 + 20480) = 368,640, down 16·(10240 + 2560) = 204,800:
 * 1,187,840, twice 2,375,680; in_proj 54 x 16·(2560 + 10448) =
 * 11,238,912.  The uses' own linears and adapters get none. */
static void
test_zamba2_lora_counts (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const guint64 block = 3 * 163840ull + 122880 + 368640 + 204800;
  HrScenario sc;
  HrParamCounts c;

  G_STATIC_ASSERT (2 * (3 * 16ull * (5120 + 5120) + 16ull * (5120 + 2560) + 16ull * (2560 + 20480)
                        + 16ull * (10240 + 2560)) == 2375680);
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "zamba2-2.7b");
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.targets = HR_LORA_ALL_LINEAR | HR_LORA_IN_PROJ;
  hr_params_count (&sc.model, &sc.training, 1, 1, &c);
  g_assert_cmpuint (c.shared_blocks_lora, ==, 2 * block);
  g_assert_cmpuint (c.lora_total, ==, 2 * block + 54ull * 16 * (2560 + 10448));
  g_assert_cmpuint (c.lora_total, ==, 2375680 + 11238912);

  /* ... planned so on one GPU: every adapter is trainable */
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.parallel.deepspeed = FALSE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->trainable_params, ==, 2375680 + 11238912);
}

/* QLoRA on Jamba Mini as transformers' Jamba documentation quantizes it
 * (llm_int8_skip_modules=["mamba"]): the attention's, the MLPs', the
 * experts' and the routers' linears in 4 bits, every Mamba mixer's in 16.
 * Attention q and o 4096·4096 each, k and v 4096·1024 each: 41,943,040; a
 * dense MLP 3·4096·14336 = 176,160,768; an expert layer's router 4096·16
 * and 16 MLPs: 2,818,637,824.  Layers: 4 attention ones with the dense
 * MLP, 12 Mamba ones with it, 16 with the experts: 48,084,549,632
 * quantized.  A mixer's linears (in_proj 4096·16384, x_proj 8192·288,
 * dt_proj 256·8192, out_proj 8192·4096: 105,119,744) stay out of them;
 * under LoRA they are linears as before. */
static void
test_jamba_qlora_counts (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const guint64 attn = 2ull * 4096 * 4096 + 2ull * 4096 * 1024;
  const guint64 mlp = 3ull * 4096 * 14336;
  const guint64 moe = 4096ull * 16 + 16 * mlp;
  const guint64 mixer = 4096ull * 16384 + 8192ull * 288 + 256ull * 8192 + 8192ull * 4096;
  HrScenario sc;
  HrParamCounts lora, qlora;

  G_STATIC_ASSERT (4 * (2ull * 4096 * 4096 + 2ull * 4096 * 1024 + 3ull * 4096 * 14336)
                   + 12 * 3ull * 4096 * 14336 + 16 * (4096ull * 16 + 16 * 3ull * 4096 * 14336)
                   == 48084549632ull);
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "jamba-mini");
  sc.training.method = HR_METHOD_LORA;
  hr_params_count (&sc.model, &sc.training, 1, 1, &lora);
  sc.training.method = HR_METHOD_QLORA;
  hr_params_count (&sc.model, &sc.training, 1, 1, &qlora);
  g_assert_cmpuint (qlora.kind_linear[1][0], ==, attn + mlp);
  g_assert_cmpuint (qlora.kind_linear[0][0], ==, mlp);
  g_assert_cmpuint (qlora.kind_linear[0][1], ==, moe);
  g_assert_cmpuint (lora.kind_linear[0][0], ==, mixer + mlp);
  g_assert_cmpuint (lora.kind_linear[0][1], ==, mixer + moe);
  g_assert_cmpuint (qlora.total, ==, lora.total);
  /* the largest quantized matrix, dequantized one at a time: an MLP's,
   * not in_proj's 4096 x 16384 */
  g_assert_cmpuint (qlora.largest_linear, ==, 4096ull * 14336);

  /* One GPU: the 4-bit bytes, and the other weights in bf16 (the mixers,
   * the token table, the untied head, the norms, the convolutions) */
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.quant = HR_QUANT_NF4;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "frozen base, quantized linears"), ==,
                    (guint64) (48084549632.0 * (0.5 + 4.0 / 64.0)));
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "frozen base, other weights"), ==,
                    (51570323328ull - 48084549632ull) * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "dequantized weight (one at a time)"), ==,
                    4096ull * 14336 * 2);
}

/* Nemotron-H's pattern (modeling_nemotron_h.py: a block is one RMSNorm
 * and one module): the 8B's 24 Mamba-2 blocks, 4 attention blocks and 24
 * MLP blocks, each kind by hand.  Mamba-2 mixer (NemotronHMamba2Mixer,
 * d_inner 128 heads x 64): in_proj 4096 x (2·8192 + 2·8·128 + 128),
 * conv1d 10240 x 4 and its bias, dt_bias, A_log and D of 128, the gated
 * norm 8192, out_proj 8192 x 4096.  Attention 2·4096² + 2·4096·1024;
 * the MLP up and down 2·4096·21504 (squared ReLU, no gate).  Then a
 * 4B-like stack whose inner width is no multiple of the hidden size
 * (112 heads x 64 over 3072: model.ssm_inner), and LoRA on it. */
static void
test_nemotron_h_counts (void)
{
  const guint64 mixer = 4096ull * (2 * 8192 + 2 * 8 * 128 + 128) + 10240 * 4 + 10240 + 3 * 128 + 8192
                        + 8192ull * 4096;
  const guint64 attn = 2ull * 4096 * 4096 + 2ull * 4096 * 1024;
  const guint64 mlp = 2ull * 4096 * 21504;
  HrScenario sc;
  HrParamCounts c;

  G_STATIC_ASSERT (4096ull * (2 * 8192 + 2 * 8 * 128 + 128) + 10240 * 4 + 10240 + 3 * 128 + 8192
                   + 8192ull * 4096 == 109635968);
  G_STATIC_ASSERT (24 * (109635968ull + 4096) + 4 * (41943040ull + 4096) + 24 * (176160768ull + 4096)
                   + 2 * 131072ull * 4096 + 4096 == 8100852736ull);
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "nemotron-h-8b");
  hr_params_count (&sc.model, NULL, 1, 1, &c);
  g_assert_true (c.mixed);
  g_assert_cmpuint (c.kind_dense[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE], ==, mixer + 4096);
  g_assert_cmpuint (c.kind_dense[HR_LAYER_MIXER_ATTENTION][HR_LAYER_MLP_NONE], ==, attn + 4096);
  g_assert_cmpuint (c.kind_dense[HR_LAYER_MIXER_NONE][HR_LAYER_MLP_DENSE], ==, mlp + 4096);
  g_assert_cmpuint (c.attention_layers, ==, 4);
  g_assert_cmpuint (c.total, ==, 8100852736ull);
  g_assert_cmpuint (c.stack_dense, ==, 24 * (mixer + 4096) + 4 * (attn + 4096) + 24 * (mlp + 4096));
  /* the largest linear: the MLP's 4096 x 21504, above in_proj's 18560 */
  g_assert_cmpuint (c.largest_linear, ==, 4096ull * 21504);

  /* 3072 wide, 112 Mamba heads of 64: d_inner 7168; in_proj to
   * 2·7168 + 2·8·128 + 112, conv1d over 7168 + 2048 channels */
  sc.model.hidden = 3072;
  sc.model.ffn = 12288;
  sc.model.ssm_inner = 7168;
  sc.model.ssm_heads = 112;
  hr_params_count (&sc.model, NULL, 1, 1, &c);
  g_assert_cmpuint (c.kind_dense[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE], ==,
                    3072ull * (2 * 7168 + 2 * 8 * 128 + 112) + 9216 * 4 + 9216 + 3 * 112 + 7168
                    + 7168ull * 3072 + 3072);

  /* LoRA at r 8 on q, v, up, down and in_proj (Mamba2Mixer calls in_proj
   * as a module, its out_proj's weight goes to the fused kernel): per
   * Mamba block 8·(3072 + 16496), per attention block 8·(3072 + 4096) +
   * 8·(3072 + 1024), per MLP block 8·(3072 + 12288) twice */
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 8;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V | HR_LORA_UP | HR_LORA_DOWN | HR_LORA_IN_PROJ;
  hr_params_count (&sc.model, &sc.training, 1, 1, &c);
  g_assert_cmpuint (c.kind_lora[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE], ==, 8ull * (3072 + 16496));
  g_assert_cmpuint (c.kind_lora[HR_LAYER_MIXER_ATTENTION][HR_LAYER_MLP_NONE], ==,
                    8ull * (3072 + 4096) + 8ull * (3072 + 1024));
  g_assert_cmpuint (c.kind_lora[HR_LAYER_MIXER_NONE][HR_LAYER_MLP_DENSE], ==, 2 * 8ull * (3072 + 12288));
  g_assert_cmpuint (c.lora_total, ==, 24 * 8ull * (3072 + 16496)
                    + 4 * (8ull * (3072 + 4096) + 8ull * (3072 + 1024)) + 24 * 2 * 8ull * (3072 + 12288));
}

/* Every model preset's notes carry the count computed from its config
 * fields (data/facts/models.json); Headroom must agree with each. */
static void
test_every_preset_count (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) list = hr_presets_list (presets, HR_PRESET_MODEL);
  guint checked = 0;

  g_assert_cmpuint (list->len, >=, 25);
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autoptr(JsonNode) node = hr_json_load_file (info->path, NULL);
      const char *notes;
      const char *at;
      HrScenario sc;

      g_assert_nonnull (node);
      hr_scenario_init_default (&sc);
      hr_test_model (&sc, info->id);
      notes = json_object_get_string_member_with_default (json_node_get_object (node),
                                                          "notes", "");
      at = strstr (notes, "computed parameters ");
      /* ViT-H/14's published count includes HF's pooler layout, which the
       * timm model planned here does not have. */
      if (at == NULL || g_str_equal (info->id, "vit-h-14"))
        continue;
      /* The facts count encoders without their task head. */
      g_assert_cmpuint (hr_params_total (&sc.model)
                        - (sc.model.head == HR_HEAD_CLASSIFIER
                           ? sc.model.hidden * sc.model.classes + sc.model.classes : 0), ==,
                        g_ascii_strtoull (at + strlen ("computed parameters "), NULL, 10));
      checked++;
    }
  g_assert_cmpuint (checked, >=, 40);
}

/* DeepSeek-V2-Lite and V3 from their configs (deepseek-ai/DeepSeek-V3
 * inference/configs/config_16B.json and config_671B.json; the Hugging Face
 * configs deepseek-ai/DeepSeek-V2-Lite and DeepSeek-V3 have the same
 * values), as Hugging Face's modeling_deepseek_v3.py builds them. */
static void
deepseek_arch (HrModelArch *m,
               gboolean     v3)
{
  hr_model_arch_init_default (m);
  m->attention_kind = HR_ATTN_KIND_MLA;
  m->layers = v3 ? 61 : 27;
  m->hidden = v3 ? 7168 : 2048;
  m->heads = m->kv_heads = v3 ? 128 : 16;
  m->head_dim = 0;
  m->ffn = v3 ? 18432 : 10944;
  m->vocab = v3 ? 129280 : 102400;
  m->tied_embeddings = FALSE;
  m->experts = v3 ? 256 : 64;
  m->experts_active = v3 ? 8 : 6;
  m->expert_ffn = v3 ? 2048 : 1408;
  m->shared_experts = v3 ? 1 : 2;
  m->dense_layers = v3 ? 3 : 1;
  m->router_bias = v3;
  m->q_lora_rank = v3 ? 1536 : 0;
  m->kv_lora_rank = 512;
  m->qk_nope_head_dim = 128;
  m->qk_rope_head_dim = 64;
  m->v_head_dim = 128;
}

/* The counts of ../shared/data/facts/models.json (computed_params and
 * computed_active_params), term by term:
 *
 * DeepSeek-V2-Lite (h 2048, a 16, no query latent, kv_lora 512, nope 128,
 * rope 64, v 128; 64 experts of 1408, 6 active, 2 shared; 1 dense layer of
 * 10944; vocab 102400):
 *   attention  q_proj 2048·16·192 = 6,291,456; kv_a_proj 2048·(512 + 64)
 *              = 1,179,648; kv_a_layernorm 512; kv_b_proj 512·16·256
 *              = 2,097,152; o_proj 16·128·2048 = 4,194,304: 13,763,072,
 *              + 2 norms 4,096 = 13,767,168 per layer
 *   MoE layer  64·3·2048·1408 = 553,648,128 + router 64·2048 = 131,072
 *              + shared 3·2048·2816 = 17,301,504: 571,080,704
 *   dense MLP  3·2048·10944 = 67,239,936
 *   outside    2·102400·2048 + 2048 = 419,432,448
 *   27·13,767,168 + 26·571,080,704 + 67,239,936 + 419,432,448
 *   = 15,706,484,224; active: 6 of 64 experts (51,904,512 + 131,072
 *   + 17,301,504 = 69,337,088 per MoE layer): 2,661,150,208.
 *
 * DeepSeek-V3 (h 7168, a 128, q_lora 1536; 256 experts of 2048, 8 active,
 * 1 shared; 3 dense layers of 18432; router bias; vocab 129280):
 *   attention  q_a_proj 7168·1536 = 11,010,048; q_a_layernorm 1,536;
 *              q_b_proj 1536·128·192 = 37,748,736; kv_a_proj 7168·576
 *              = 4,128,768; kv_a_layernorm 512; kv_b_proj 512·128·256
 *              = 16,777,216; o_proj 128·128·7168 = 117,440,512:
 *              187,107,328, + 2 norms 14,336 = 187,121,664 per layer
 *   MoE layer  256·3·7168·2048 = 11,274,289,152 + router 256·7168
 *              = 1,835,008 + bias 256 + shared 3·7168·2048 = 44,040,192:
 *              11,320,164,608
 *   dense MLP  3·7168·18432 = 396,361,728
 *   outside    2·129280·7168 + 7168 = 1,853,365,248
 *   61·187,121,664 + 58·11,320,164,608 + 3·396,361,728 + 1,853,365,248
 *   = 671,026,419,200 (README.md: "671B total"); active: 8 of 256
 *   experts (352,321,536 + 1,835,264 + 44,040,192 = 398,196,992 per MoE
 *   layer): 37,552,297,472.
 *
 * The multi-token-prediction module (num_nextn_predict_layers 1;
 * README_WEIGHTS.md: model.layers.61 is enorm, hnorm, eh_proj, one more
 * decoder layer "identical to the Main Model hidden layers" and
 * shared_head, whose embed_tokens and head share the model's): one more
 * MoE layer 187,121,664 + 11,320,164,608, eh_proj 2·7168·7168
 * = 102,760,448, three norms 3·7168 = 21,504: 11,610,068,224 ("11.5B
 * unique parameters", of which the decoder layer, 11.5 B, is the most).
 * Trained, the model has 671,026,419,200 + 11,610,068,224
 * = 682,636,487,424; the Hugging Face checkpoint stores the shared
 * embedding and head again under model.layers.61 (2·129280·7168
 * = 1,853,358,080): 684,489,845,504, its "685B" (13.46 B for the MTP
 * module, the README's "14B"). */
static void
test_deepseek_counts (void)
{
  HrModelArch m;
  HrParamCounts c;

  deepseek_arch (&m, FALSE);
  hr_params_count (&m, NULL, 1, 1, &c);
  g_assert_cmpuint (c.total, ==, 15706484224);
  g_assert_cmpuint (c.active, ==, 2661150208);
  g_assert_cmpuint (c.layer_dense + c.layer_experts, ==, 13767168 + 571080704);
  g_assert_cmpuint (c.dense_first, ==, 13767168 + 67239936);

  deepseek_arch (&m, TRUE);
  hr_params_count (&m, NULL, 1, 1, &c);
  g_assert_cmpuint (c.total, ==, 671026419200);
  g_assert_cmpuint (c.active, ==, 37552297472);
  g_assert_cmpuint (c.layer_dense + c.layer_experts, ==, 187121664 + 11320164608);
  g_assert_cmpuint (c.largest_linear, ==, 7168 * 18432);   /* a dense layer's gate */

  m.mtp_modules = 1;
  hr_params_count (&m, NULL, 1, 1, &c);
  g_assert_cmpuint (c.total, ==, 682636487424);
  g_assert_cmpuint (c.total - 671026419200, ==, 187121664 + 11320164608 + 102760448 + 21504);
  g_assert_cmpuint (c.total + 2 * 129280 * 7168, ==, 684489845504);
  g_assert_cmpuint (c.mtp_extra, ==, 102760448 + 21504);
  /* (the module is active for every token: its MoE layer's 8 experts) */
  g_assert_cmpuint (c.active - 37552297472, ==, 187121664 + 398196992 + 102760448 + 21504);
}

/* LoRA on DeepSeek-V2-Lite as PEFT adapts Hugging Face's modules, every
 * linear (q k v o gate up down), r = 16, r·(d_in + d_out) each
 * (hr_params_mla_lora; deepseek_arch's shapes):
 *   q  q_proj 2048 -> 16·192:         16·(2048 + 3072) =  81,920
 *   k  kv_a_proj_with_mqa 2048 -> 576: 16·(2048 + 576) =  41,984
 *   v  kv_b_proj 512 -> 16·256:        16·(512 + 4096) =  73,728
 *   o  o_proj 16·128 -> 2048:          16·(2048 + 2048) = 65,536
 *   an expert's three 2048 x 1408:     3·16·(2048 + 1408) = 165,888, x 64
 *   the shared experts' 2048 x 2816:   3·16·(2048 + 2816) = 233,472
 *   the dense layer's 2048 x 10944:    3·16·(2048 + 10944) = 623,616
 * an MoE layer 263,168 + 10,616,832 + 233,472 = 11,113,472, the dense
 * first layer 263,168 + 623,616 = 886,784; the model 26 MoE layers and
 * one dense: 289,837,056.  With a query latent (V3, q_lora 1536) q adapts
 * q_a_proj and q_b_proj: 16·(7168 + 1536) + 16·(1536 + 128·192). */
static void
test_deepseek_lora_counts (void)
{
  HrModelArch m;
  HrScenario sc;
  HrTraining t;
  HrParamCounts c;

  deepseek_arch (&m, FALSE);
  hr_scenario_init_default (&sc);
  t = sc.training;
  t.method = HR_METHOD_LORA;
  t.lora.rank = 16;
  t.lora.targets = HR_LORA_ALL_LINEAR;
  hr_params_count (&m, &t, 1, 1, &c);
  g_assert_cmpuint (c.layer_lora, ==, 11113472);
  g_assert_cmpuint (c.dense_first_lora, ==, 886784);
  g_assert_cmpuint (c.lora_total, ==, 289837056);

  t.lora.targets = HR_LORA_Q;
  deepseek_arch (&m, TRUE);
  hr_params_count (&m, &t, 1, 1, &c);
  g_assert_cmpuint (c.layer_lora, ==, 16 * (7168 + 1536) + 16 * (1536 + 128 * 192));
  g_assert_cmpuint (c.dense_first_lora, ==, c.layer_lora);
}

/* GaLore (rank 128) on DeepSeek-V2-Lite, one GPU: Adam's two states r x n
 * and the projection r x m for each m x n matrix, m <= n (galore_matrix):
 *   q_proj 2048 x 3072       786,432 + 262,144
 *   kv_a_proj 2048 x 576     524,288 +  73,728
 *   kv_b_proj 512 x 4096   1,048,576 +  65,536
 *   o_proj 2048 x 2048       524,288 + 262,144
 *   the attention          2,883,584 + 663,552
 *   64 experts x 3 of 2048 x 1408: 192 x (524,288 + 180,224)
 *                        100,663,296 + 34,603,008
 *   shared 3 of 2048 x 2816: 3 x (720,896 + 262,144)
 *                          2,162,688 + 786,432
 *   router 2048 x 64 (rank 64 at most): 262,144 + 4,096
 * an MoE layer 105,971,712 + 36,057,088; the dense first layer, the
 * attention and 3 of 2048 x 10944: 2,883,584 + 3 x 2,801,664
 * = 11,288,576 and 663,552 + 3 x 262,144 = 1,449,984. */
static void
test_deepseek_galore (void)
{
  HrModelArch m;
  guint64 states, projection;

  deepseek_arch (&m, FALSE);
  hr_params_galore_layer (&m, 1, 1, 128, &states, &projection);
  g_assert_cmpuint (states, ==, 105971712);
  g_assert_cmpuint (projection, ==, 36057088);
  hr_params_galore_dense (&m, 1, 128, &states, &projection);
  g_assert_cmpuint (states, ==, 11288576);
  g_assert_cmpuint (projection, ==, 1449984);
}

/* Vision-language models as Hugging Face builds them (hr-params-vision.c),
 * against the published totals: llava-hf/llava-1.5-7b-hf 7,063,427,072
 * and Qwen/Qwen2-VL-7B-Instruct 8,291,375,616 (their model cards'
 * safetensors counts). */
static void
test_vision_counts (void)
{
  HrScenario sc;
  HrParamCounts c;
  /* One CLIP or Qwen2-VL layer of width 1024 / 1280: Q, K, V, O with
   * biases 4·(h² + h), fc1 h·f + f, fc2 f·h + h, two LayerNorms 2·2h. */
  const guint64 clip_layer = 4 * (1024 * 1024 + 1024) + (1024 * 4096 + 4096)
                             + (4096 * 1024 + 1024) + 2 * 2 * 1024;
  const guint64 qwen_layer = 4 * (1280 * 1280 + 1280) + (1280 * 5120 + 5120)
                             + (5120 * 1280 + 1280) + 2 * 2 * 1280;

  G_STATIC_ASSERT (4 * (1024 * 1024 + 1024) + (1024 * 4096 + 4096) + (4096 * 1024 + 1024)
                   + 2 * 2 * 1024 == 12596224);
  G_STATIC_ASSERT (4 * (1280 * 1280 + 1280) + (1280 * 5120 + 5120) + (5120 * 1280 + 1280)
                   + 2 * 2 * 1280 == 19677440);

  /* LLaVA-1.5 7B: Llama 2 7B with a 32064-token table and head (64 rows
   * more each than Llama 2's 6,738,415,616); CLIPVisionTransformer: class
   * token, patch conv 3·14²·1024 (no bias), (24² + 1) positions, pre- and
   * post-LayerNorm, 24 layers; LlavaMultiModalProjector 1024 -> 4096 ->
   * 4096 with biases. */
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llava-1.5-7b");
  hr_params_count (&sc.model, NULL, 1, 1, &c);
  g_assert_cmpuint (c.vision, ==, 1024 + 588 * 1024 + 577 * 1024 + 2 * 2048 + 24 * clip_layer);
  g_assert_cmpuint (c.vision, ==, 303507456);
  g_assert_cmpuint (c.projector, ==, 1024 * 4096 + 4096 + 4096 * 4096 + 4096);
  g_assert_cmpuint (c.projector, ==, 20979712);
  g_assert_cmpuint (c.total - c.vision - c.projector, ==, 6738415616ull + 2 * 64 * 4096);
  g_assert_cmpuint (c.total, ==, 7063427072ull);
  g_assert_cmpuint (c.active, ==, c.total);
  g_assert_cmpuint (hr_model_vision_tokens (&sc.model), ==, 577);
  g_assert_cmpuint (hr_model_image_tokens (&sc.model), ==, 576);
  g_assert_cmpuint (hr_model_vision_layers_run (&sc.model), ==, 23);

  /* Qwen2-VL 7B: Qwen2-7B's language model (as Qwen2.5-7B, 7,615,616,512);
   * Conv3d 3·2·14²·1280 (no bias), 32 blocks; PatchMerger LayerNorm 1280,
   * 5120 -> 5120 -> 3584 with biases (5120 = 1280·2²). */
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "qwen2-vl-7b");
  hr_params_count (&sc.model, NULL, 1, 1, &c);
  g_assert_cmpuint (c.vision, ==, 3 * 2 * 14 * 14 * 1280 + 32 * qwen_layer);
  g_assert_cmpuint (c.vision, ==, 631183360);
  g_assert_cmpuint (c.projector, ==, 2 * 1280 + 5120 * 5120 + 5120 + 5120 * 3584 + 3584);
  g_assert_cmpuint (c.projector, ==, 44575744);
  g_assert_cmpuint (c.total - c.vision - c.projector, ==, 7615616512ull);
  g_assert_cmpuint (c.total, ==, 8291375616ull);
  g_assert_cmpuint (hr_model_vision_tokens (&sc.model), ==, 32 * 32);
  g_assert_cmpuint (hr_model_image_tokens (&sc.model), ==, 16 * 16);
  g_assert_cmpuint (hr_model_vision_layers_run (&sc.model), ==, 32);

  /* Without a tower nothing changes: the language model alone. */
  sc.model.vision = HR_VISION_NONE;
  g_assert_cmpuint (hr_params_total (&sc.model), ==, 7615616512ull);
}

/* Llama 3.2 11B Vision (meta-llama/Llama-3.2-11B-Vision config.json,
 * tests/data/hf/llama-3.2-11b-vision.json), module by module as
 * transformers/models/mllama/modeling_mllama.py builds
 * MllamaForConditionalGeneration; the published total is 10,670,220,835.
 *
 * Language model (MllamaForCausalLM), h 4096, 32 heads, 8 KV heads of 128,
 * ffn 14336, 40 layers of which 3, 8, ..., 38 cross-attend:
 *   embed_tokens  (128256 + 8) x 4096                     =   525,369,344
 *   lm_head       128256 x 4096                           =   525,336,576
 *   self layer    q, o 2·4096²; k, v 2·4096·1024; gate, up, down
 *                 3·4096·14336; two RMSNorms 2·4096       =   218,112,000
 *   cross layer   the same + q_norm, k_norm 2·128 + two gates 2
 *                                                         =   218,112,258
 *   norm          4096
 *   32·218,112,000 + 8·218,112,258 + 525,369,344 + 525,336,576 + 4,096
 *                                                         = 9,775,192,080
 * Tower (MllamaVisionModel), h_v 1280, f_v 5120, 1600 patches + 1 per
 * 560² tile, 4 tiles, 8 aspect ratios (9 table rows):
 *   patch_embedding 3·14²·1280                            =       752,640
 *   class_embedding                                       =         1,280
 *   gated_positional_embedding 1 + 1601·1280 + 9·4·1601·1280
 *                                                         =    75,823,361
 *   pre_ and post_tile_positional_embedding 2·(9·4·1280 + 1)
 *                                                         =        92,162
 *   layernorm_pre, layernorm_post 2·2·1280                =         5,120
 *   local layer   q, k, v, o 4·1280² (no biases); fc1, fc2 2·1280·5120
 *                 + 5120 + 1280; two LayerNorms 2·2·1280  =    19,672,320
 *   global layer  the same + gate_attn, gate_ffn          =    19,672,322
 *   ... + 32·19,672,320 + 8·19,672,322                    =   863,567,379
 * multi_modal_projector 7680·4096 + 4096 (7680 = 1280·(1 + 5))
 *                                                         =    31,461,376
 * 9,775,192,080 + 863,567,379 + 31,461,376             = 10,670,220,835 */
static void
test_mllama_count (void)
{
  HrScenario sc;
  HrParamCounts c;
  const guint64 self_layer = 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096;
  const guint64 cross_layer = self_layer + 2 * 128 + 2;
  const guint64 vision_layer = 4 * 1280 * 1280 + 2 * 1280 * 5120 + 5120 + 1280 + 2 * 2 * 1280;
  const guint64 text = 32 * self_layer + 8 * cross_layer + (128256 + 8) * 4096ull
                       + 128256 * 4096ull + 4096;
  const guint64 tower = 588 * 1280 + 1280 + (1 + 1601 * 1280 + 9 * 4 * 1601 * 1280ull)
                        + 2 * (9 * 4 * 1280 + 1) + 2 * 2 * 1280
                        + 32 * vision_layer + 8 * (vision_layer + 2);

  G_STATIC_ASSERT (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096 == 218112000);
  G_STATIC_ASSERT (4 * 1280 * 1280 + 2 * 1280 * 5120 + 5120 + 1280 + 2 * 2 * 1280 == 19672320);
  g_assert_cmpuint (text, ==, 9775192080ull);
  g_assert_cmpuint (tower, ==, 863567379ull);

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.2-11b-vision");
  hr_params_count (&sc.model, NULL, 1, 1, &c);
  g_assert_cmpuint (c.vision, ==, tower);
  g_assert_cmpuint (c.vision_linear, ==, 40 * (4 * 1280 * 1280 + 2 * 1280 * 5120));
  g_assert_cmpuint (c.projector, ==, 7680 * 4096 + 4096);
  g_assert_cmpuint (c.projector_linear, ==, 7680 * 4096);
  g_assert_cmpuint (c.cross_layers, ==, 8);
  g_assert_cmpuint (c.cross_extra, ==, 2 * 128 + 2);
  g_assert_cmpuint (c.layer_dense, ==, self_layer);
  g_assert_cmpuint (c.embedding, ==, (128256 + 8) * 4096ull);
  g_assert_cmpuint (c.total - c.vision - c.projector, ==, text);
  g_assert_cmpuint (c.total, ==, 10670220835ull);
  g_assert_cmpuint (c.active, ==, c.total);
  /* one tile: 40² patches and the class token, padded to 1608 in the
   * tower; an image: 4 tiles, 6404 keys and values, none in the text */
  g_assert_cmpuint (hr_model_vision_tokens (&sc.model), ==, 1601);
  g_assert_cmpuint (hr_model_tile_tokens (&sc.model), ==, 1608);
  g_assert_cmpuint (hr_model_cross_tokens (&sc.model), ==, 6404);
  g_assert_cmpuint (hr_model_image_tokens (&sc.model), ==, 0);
  g_assert_cmpuint (hr_model_vision_layers_run (&sc.model), ==, 40);
  for (guint64 i = 0; i < 40; i++)
    g_assert_cmpint (hr_model_layer_cross_attends (&sc.model, i), ==, i % 5 == 3);
  /* a stage's share: layers 10 to 29 hold 13, 18, 23, 28 */
  g_assert_cmpuint (hr_model_cross_layers (&sc.model, 10, 20), ==, 4);
  g_assert_cmpuint (hr_model_cross_layers (&sc.model, 0, 3), ==, 0);
  g_assert_cmpuint (hr_model_cross_layers (&sc.model, 0, 4), ==, 1);
  g_assert_cmpuint (hr_model_cross_layers (&sc.model, 4, 4), ==, 0);
  g_assert_cmpuint (hr_model_cross_layers (&sc.model, 38, 2), ==, 1);

  /* Llama 3.2 90B Vision's shapes (meta-llama/Llama-3.2-90B-Vision
   * config.json: 100 layers, cross-attention every 5th from 3, hidden 8192,
   * 64 heads, 8 KV heads, ffn 28672, the same tower): 20 cross layers of
   * 2·128 + 2 more each; the projector 7680 -> 8192. */
  sc.model.layers = 100;
  sc.model.hidden = 8192;
  sc.model.heads = 64;
  sc.model.ffn = 28672;
  hr_params_count (&sc.model, NULL, 1, 1, &c);
  g_assert_cmpuint (c.cross_layers, ==, 20);
  g_assert_cmpuint (c.projector, ==, 7680 * 8192 + 8192);
  g_assert_cmpuint (c.vision, ==, tower);
}

/* Tensor parallelism of the latent attention as Megatron builds it: the
 * down projections and latent norms whole on each rank, the up and output
 * projections split. */
static void
test_deepseek_tensor_parallel (void)
{
  HrModelArch m;
  HrParamCounts whole, split;
  guint64 replicated;

  deepseek_arch (&m, TRUE);
  hr_params_count (&m, NULL, 1, 1, &whole);
  hr_params_count (&m, NULL, 8, 8, &split);
  /* q_a_proj, q_a_layernorm, kv_a_proj, kv_a_layernorm, 2 norms, the
   * router and its bias */
  replicated = 11010048 + 1536 + 4128768 + 512 + 14336 + 1835008 + 256;
  g_assert_cmpuint (8 * split.layer_dense, ==, whole.layer_dense + 7 * replicated);
  /* (the experts split over ep and, as the rest, by t) */
  g_assert_cmpuint (64 * split.layer_experts, ==, whole.layer_experts);
}

/* PEFT's measured count: Llama-3.2-3B, r = 32 on q and v: 9,175,040. */
static void
test_lora_count (void)
{
  HrScenario sc;
  HrParamCounts c;

  hr_scenario_init_default (&sc);
  arch_from_reference (&references[9], &sc.model);
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 32;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V;
  hr_params_count (&sc.model, &sc.training, 1, 1, &c);
  g_assert_cmpuint (c.lora_total, ==, 9175040);

  /* PEFT's lora.Embedding on the token table, r 16, on Llama 3.2 3B (h
   * 3072, 24 heads of 128, 8 KV heads, V 128256, 28 layers) with q and v:
   * lora_embedding_A 16 x 128256 and B 3072 x 16, 2,101,248; q 16·(3072 +
   * 3072) and v 16·(3072 + 1024) a layer, 28·163,840 = 4,587,520; in all
   * 6,688,768, on the first stage. */
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.2-3b");
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V | HR_LORA_EMBED;
  hr_params_count (&sc.model, &sc.training, 1, 1, &c);
  g_assert_cmpuint (c.embedding_lora, ==, 2101248);
  g_assert_cmpuint (c.lora_total, ==, 6688768);
}

/* Tensor parallelism splits the matrices: t ranks hold the whole model
 * plus t - 1 extra copies of what is replicated (norms). */
static void
test_tensor_parallel_split (void)
{
  HrModelArch m;
  HrParamCounts whole, split;
  guint64 norms;

  arch_from_reference (&references[4], &m);   /* Llama-2-70B, GQA 8 */
  hr_params_count (&m, NULL, 1, 1, &whole);
  hr_params_count (&m, NULL, 8, 1, &split);
  norms = 2 * m.hidden;
  g_assert_cmpuint (8 * split.layer_dense, ==, whole.layer_dense + 7 * norms);
  g_assert_cmpuint (8 * split.embedding, ==, whole.embedding);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/params/reference-table", test_reference_table);
  g_test_add_func ("/params/encoder-decoder", test_seq2seq_table);
  g_test_add_func ("/params/whisper", test_whisper);
  g_test_add_func ("/params/model-groups", test_model_groups);
  g_test_add_func ("/params/deepseek-lora", test_deepseek_lora_counts);
  g_test_add_func ("/params/deepseek-galore", test_deepseek_galore);
  g_test_add_func ("/params/deepseek", test_deepseek_counts);
  g_test_add_func ("/params/deepseek-tensor-parallel", test_deepseek_tensor_parallel);
  g_test_add_func ("/params/state-space", test_ssm_table);
  g_test_add_func ("/params/state-space-lora", test_ssm_lora_counts);
  g_test_add_func ("/params/vision-language", test_vision_counts);
  g_test_add_func ("/params/llama-3.2-vision", test_mllama_count);
  g_test_add_func ("/params/presets-match-reference", test_presets_match_reference);
  g_test_add_func ("/params/every-preset", test_every_preset_count);
  g_test_add_func ("/params/lora", test_lora_count);
  g_test_add_func ("/params/jamba-qlora", test_jamba_qlora_counts);
  g_test_add_func ("/params/zamba2-lora", test_zamba2_lora_counts);
  g_test_add_func ("/params/latent-moe", test_latent_moe_counts);
  g_test_add_func ("/params/nemotron-3-super", test_nemotron_super_counts);
  g_test_add_func ("/params/nemotron-h", test_nemotron_h_counts);
  g_test_add_func ("/params/tensor-parallel", test_tensor_parallel_split);
  return g_test_run ();
}
