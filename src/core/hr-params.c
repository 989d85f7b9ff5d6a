/* hr-params.c: exact parameter counts
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CALC-REFERENCE.md section 1 (after Megatron-LM's
 * theoretical_memory_usage.py and llm-analysis): per layer, attention
 * h·a·d + 2·h·k·d + a·d·h plus biases, the MLP 3·h·f (gated) or 2·h·f,
 * times the experts, a router h·E for MoE, and the norms; then embeddings,
 * an untied head and the final norm.  The counts reproduce the published
 * totals exactly (tests/test-params.c).
 *
 * Tensor parallelism (Megatron): Q/K/V/O and MLP matrices and the
 * vocabulary are split by t; norms, routers, row-parallel biases and
 * position tables are replicated.  With fewer KV heads than t, each rank
 * keeps one whole KV head.
 *
 * Encoder-decoder models (Hugging Face's T5ForConditionalGeneration,
 * BartForConditionalGeneration): model.layers encoder layers as above,
 * decoder_layers decoder layers with a cross-attention of the same shape
 * (Q from the decoder, K and V from the encoder's output, both h wide) and
 * a third norm; one token table shared by both stacks and, untied, the LM
 * head.  Each stack has its own learned positions (BART: 1024 + 2, the
 * offset BartLearnedPositionalEmbedding adds), its own relative attention
 * bias in its first layer (T5: buckets x heads, T5Attention's
 * relative_attention_bias, has_relative_attention_bias = i == 0), and its
 * own final norm (T5, pre-norm) or embedding norm (BART's
 * layernorm_embedding, post-norm).  BART's final_logits_bias is a buffer,
 * not a parameter.
 *
 * Whisper (modeling_whisper.py, WhisperForConditionalGeneration): the
 * same two stacks, pre-norm with LayerNorms, biases on every linear layer
 * but k_proj (model.bias = all-but-k), and an audio encoder: a stem of two
 * convolutions over model.audio_mel_bins log-mel channels and a frozen
 * sinusoidal position table of model.audio_frames rows instead of the
 * encoder's learned one (position_rows, audio_stem); the decoder keeps
 * its learned table (WhisperPositionalEmbedding, max_target_positions).
 *
 * DeepSeek-V2 and V3 (Hugging Face's modeling_deepseek_v3.py,
 * DeepseekV3DecoderLayer): multi-head latent attention (hr-params-mla.c);
 * the first model.dense_layers layers (first_k_dense_replace) have the
 * dense MLP of width ffn, the others a DeepseekV3MoE: the routed experts,
 * the router's E x h weight, V3's e_score_correction_bias (E: a Parameter
 * in DeepSeek's inference/model.py, Gate.bias; Hugging Face registers it
 * as a buffer, counted all the same as the published 671B counts it) and
 * one shared MLP of shared_experts x expert_ffn (DeepseekV3MoE
 * .shared_experts) that every token goes through.  Each multi-token-
 * prediction module (DeepSeek-V3 §2.2; README_WEIGHTS.md: model.layers.61)
 * is enorm, hnorm, eh_proj (2h -> h), one more MoE layer and its head's
 * norm; its embedding and output head are the model's (shared, counted
 * once; the checkpoint stores copies of them).  Megatron puts the modules
 * on the last pipeline stage.
 *
 * State-space and hybrid models (count_layers): each layer has a mixer,
 * attention as above or an SSM block (hr-params-ssm.c), then the dense
 * MLP, the experts or, in a pure Mamba model (mamba_ssm's MixerModel
 * with d_intermediate 0), neither; a norm before each (mamba_ssm's
 * modules/block.py, Block; modeling_jamba.py, JambaAttentionDecoderLayer
 * and JambaMambaDecoderLayer: input_layernorm, pre_ff_layernorm).
 */

#include "hr-params-private.h"

/* An encoder-decoder model has two stacks, each with its own position
 * table, relative bias and final (or embedding) norm. */
static guint64
stacks (const HrModelArch *m)
{
  return m->kind == HR_KIND_ENCODER_DECODER ? 2 : 1;
}

static guint64
decoder_layers (const HrModelArch *m)
{
  return m->kind == HR_KIND_ENCODER_DECODER ? m->decoder_layers : 0;
}

/* T5's relative attention bias: a buckets x heads table in the first
 * self-attention of each stack (not split by tensor parallelism). */
static guint64
relative_bias (const HrModelArch *m)
{
  if (m->kind != HR_KIND_ENCODER_DECODER)
    return 0;
  return stacks (m) * m->position_buckets * m->heads;
}

/* The rows of the position tables: each stack's learned table, or with
 * an audio encoder (Whisper) the decoder's learned one and the encoder's
 * sinusoidal one of audio_frames rows (WhisperEncoder.embed_positions,
 * nn.Embedding (max_source_positions, d_model), requires_grad set to False:
 * a parameter, in the published count, that does not train). */
static guint64
position_rows (const HrModelArch *m)
{
  if (hr_model_audio (m))
    return m->learned_positions + m->audio_frames;
  return stacks (m) * m->learned_positions;
}

static guint64
frozen_rows (const HrModelArch *m)
{
  return hr_model_audio (m) ? m->audio_frames : 0;
}

/* Whisper's convolutional stem (modeling_whisper.py, WhisperEncoder
 * .__init__): conv1 = Conv1d (num_mel_bins, d_model, kernel_size 3),
 * conv2 = Conv1d (d_model, d_model, kernel_size 3, stride 2), each
 * out x in x 3 weights and out biases; not split by tensor parallelism. */
static guint64
audio_stem (const HrModelArch *m)
{
  if (!hr_model_audio (m))
    return 0;
  return m->hidden * m->audio_mel_bins * 3 + m->hidden + m->hidden * m->hidden * 3 + m->hidden;
}

/* Adafactor factors a 3-d weight over its last two dimensions
 * (transformers' Adafactor, exp_avg_sq_row of shape[:-1], exp_avg_sq_col
 * of shape[:-2] + shape[-1:]): out·in + out·3 per conv, biases whole. */
static guint64
audio_stem_adafactor (const HrModelArch *m)
{
  if (!hr_model_audio (m))
    return 0;
  return (m->hidden * m->audio_mel_bins + m->hidden * 3 + m->hidden)
         + (m->hidden * m->hidden + m->hidden * 3 + m->hidden);
}

/* LoRA (Hu et al. 2021 §4.1): r·(d_in + d_out) per adapted matrix.
 * DeepSeek's latent attention has its own matrices (hr-params-mla.c), its
 * MoE layers one shared MLP beside the routed experts, its dense first
 * layers the dense MLP: PEFT adapts every one the targets name.
 *
 * Sets one layer's adapters (out->layer_lora) and a dense first layer's
 * (out->dense_first_lora) as this rank holds them, *OUT_LAYER a layer's
 * on all ranks; returns one attention's, which a hybrid's layer kinds
 * count again (hr_params_count_kinds). */
static guint64
count_layer_lora (const HrModelArch *m,
                  const Shape       *s,
                  const HrTraining  *training,
                  guint64            t,
                  guint64           *out_layer,
                  HrParamCounts     *out)
{
  gboolean lora = training != NULL && training->method != HR_METHOD_FULL;
  guint targets = lora ? training->lora.targets : 0;
  guint64 r = lora ? training->lora.rank : 0;
  guint64 lora_attn = 0, lora_layer = 0;

  if (hr_model_mla (m))
    lora_attn = hr_params_mla_lora (m, targets, r);
  else
    {
      if (targets & HR_LORA_Q)
        lora_attn += r * (s->h + s->a * s->d);
      if (targets & HR_LORA_K)
        lora_attn += r * (s->h + s->k * s->d);
      if (targets & HR_LORA_V)
        lora_attn += r * (s->h + s->k * s->d);
      if (targets & HR_LORA_O)
        lora_attn += r * (s->a * s->d + s->h);
    }
  lora_layer = lora_attn + s->E * lora_mlp (s, targets, r, s->E > 1 ? s->ef : s->f)
               + (s->E > 1 && m->shared_experts > 0
                  ? lora_mlp (s, targets, r, m->shared_experts * s->ef) : 0);
  if (dense_first_layers (m, s) > 0)
    out->dense_first_lora = (lora_attn + lora_mlp (s, targets, r, s->f)) / t;
  /* DoRA (Liu et al. 2024 §4.1; peft/tuners/lora/dora.py,
   * DoraLinearLayer.update_layer: nn.Parameter of the weight's norm along
   * its input dimension) trains one magnitude per output of each adapted
   * matrix. */
  if (lora && training->lora.dora)
    {
      guint64 width = s->E > 1 ? s->ef : s->f;

      lora_layer += ((targets & HR_LORA_Q) ? s->a * s->d : 0) + ((targets & HR_LORA_K) ? s->k * s->d : 0)
                    + ((targets & HR_LORA_V) ? s->k * s->d : 0) + ((targets & HR_LORA_O) ? s->h : 0)
                    + s->E * ((s->gated && (targets & HR_LORA_GATE) ? width : 0)
                             + ((targets & HR_LORA_UP) ? width : 0)
                             + ((targets & HR_LORA_DOWN) ? s->h : 0));
    }
  out->layer_lora = lora_layer / t;
  *out_layer = lora_layer;
  return lora_attn;
}

/* One layer on a rank of TP x EP: its attention, norms and MLP or experts,
 * what of it is nn.Linear and Adafactor's size; DeepSeek's dense first
 * layers and multi-token-prediction extras.  Returns the attention's
 * parameters (ATTN_LINEAR of them linear). */
static guint64
count_layer (const HrModelArch *m,
             const Shape       *s,
             guint64            t,
             guint64            e,
             guint64           *attn_linear,
             HrParamCounts     *out)
{
  guint64 attn = attention_params (m, s, t, attn_linear);
  guint64 norms = hr_model_norms_per_layer (m) * s->norm;
  guint64 attn_adafactor;

  /* MLP: dense, or E experts of which this rank holds E/ep, plus a router. */
  if (s->E > 1)
    {
      guint64 shared_width = m->shared_experts * s->ef;
      guint64 experts_here = (s->E + e - 1) / e;

      out->layer_experts = experts_here * mlp_params (m, s, s->ef, t);
      out->layer_shared = shared_mlp_params (m, s, t);
      out->layer_dense = attn + norms + router_params (m, s) + out->layer_shared;
      out->layer_linear = *attn_linear + s->h * s->E
                          + experts_here * (s->gated ? 3 : 2) * s->h * s->ef / t
                          + (s->gated ? 3 : 2) * s->h * shared_width / t;
      out->layer_adafactor = (s->h + s->E) + (m->router_bias ? s->E : 0)
                             + experts_here * mlp_adafactor (s, s->ef) / t
                             + (shared_width > 0 ? mlp_adafactor (s, shared_width) / t : 0);
    }
  else
    {
      out->layer_dense = attn + norms + mlp_params (m, s, s->f, t);
      out->layer_linear = *attn_linear + (s->gated ? 3 : 2) * s->h * s->f / t;
      out->layer_adafactor = mlp_adafactor (s, s->f) / t;
    }

  /* Adafactor keeps r + c values per r x c matrix, whole vectors for the
   * rest (Shazeer & Stern 2018). */
  if (hr_model_mla (m))
    hr_params_mla_attention (m, t, NULL, &attn_adafactor);
  else
    attn_adafactor = ((s->h + s->a * s->d) * 2 + (s->h + s->k * s->d) * 2) / t + (attn - *attn_linear);
  out->layer_adafactor += attn_adafactor + norms;

  /* DeepSeek's dense first layers, and its multi-token-prediction modules'
   * parts beyond their MoE layer: enorm, hnorm, the head's norm (h each)
   * and eh_proj, column-parallel as Megatron builds it
   * (multi_token_prediction.py, MultiTokenPredictionLayer: eh_proj). */
  if (dense_first_layers (m, s) > 0)
    {
      out->dense_first = attn + norms + mlp_params (m, s, s->f, t);
      out->dense_first_linear = *attn_linear + (s->gated ? 3 : 2) * s->h * s->f / t;
      out->dense_first_adafactor = attn_adafactor + norms + mlp_adafactor (s, s->f) / t;
    }
  if (m->mtp_modules > 0)
    {
      out->mtp_extra_linear = 2 * s->h * s->h / t;
      out->mtp_extra = out->mtp_extra_linear + 3 * s->norm;
    }
  return attn;
}

/* Outside the layers, on a rank of TP: the embeddings, the head (and its
 * LoRA adapter), the final norms and Adafactor's size of all of them. */
static void
count_outside (const HrModelArch *m,
               const Shape       *s,
               const HrTraining  *training,
               guint64            t,
               HrParamCounts     *out)
{
  gboolean lora = training != NULL && training->method != HR_METHOD_FULL;
  guint targets = lora ? training->lora.targets : 0;
  guint64 r = lora ? training->lora.rank : 0;

  /* Embeddings: token table (vocab-parallel), learned positions, BERT's
   * segment table and embedding norm, a vision patch projection + CLS;
   * an encoder-decoder's stacks each have their own position table,
   * relative bias and (post-norm) embedding norm. */
  out->embedding = s->V * s->h / t + position_rows (m) * s->h
                   + m->token_types * s->h + relative_bias (m) + audio_stem (m);
  out->frozen = frozen_rows (m) * s->h;
  if (m->kind == HR_KIND_ENCODER
      || (m->kind == HR_KIND_ENCODER_DECODER && m->post_norm))
    out->embedding += stacks (m) * s->norm;
  if (m->patch_dim > 0)
    out->embedding += m->patch_dim * s->h + s->h + s->h;

  /* Head: an untied LM head, or a pooler and a classifier. */
  if (m->head == HR_HEAD_LM)
    {
      if (!m->tied_embeddings)
        {
          out->head = s->V * s->h / t;
          out->head_linear = out->head;
        }
      if (m->lm_head_bias)
        out->head += s->V / t;
      if (targets & HR_LORA_LM_HEAD)
        out->head_lora = (r * (s->h + s->V) + (training->lora.dora ? s->V : 0)) / t;
    }
  else
    {
      out->head = s->h * m->classes + m->classes;
      out->head_linear = s->h * m->classes;
    }
  if (m->pooler)
    out->head += s->h * s->h + s->h;

  /* Post-norm encoders (BERT, BART) have no final norm; their embedding
   * norm is counted above.  T5 closes each stack with one. */
  out->final_norm = m->kind == HR_KIND_ENCODER
                    || (m->kind == HR_KIND_ENCODER_DECODER && m->post_norm)
                    ? 0 : stacks (m) * s->norm;
  out->outside_adafactor = (s->V + s->h) * (m->tied_embeddings ? 1 : 2) / t
                           + (position_rows (m) - frozen_rows (m)) * s->h + out->final_norm
                           + audio_stem_adafactor (m);
}

/* The largest nn.Linear weight on a rank of TP.  Every layer of a MoE
 * model has experts: no dense MLP of width ffn is there to be the largest
 * matrix (the reference oracle's case 230 of seed 294901, where ffn =
 * 2·expert_ffn). */
static guint64
largest_linear (const HrModelArch *m,
                const Shape       *s,
                guint64            t)
{
  guint64 largest = MAX (s->h * s->a * s->d, s->h * (s->E > 1 ? s->ef : s->f)) / t;

  if (hr_model_mla (m))
    largest = MAX (hr_params_mla_largest (m, t), s->h * (s->E > 1 ? s->ef : s->f) / t);
  if (s->E > 1)
    largest = MAX (largest, s->h * MAX (m->shared_experts * s->ef,
                                        dense_first_layers (m, s) > 0 ? s->f : 0) / t);
  return largest;
}

/* The whole model outside its layers, unsharded (count_outside with t = 1,
 * FINAL_NORM its final norms). */
static guint64
whole_outside (const HrModelArch *m,
               const Shape       *s,
               guint64            final_norm)
{
  guint64 outside = s->V * s->h + position_rows (m) * s->h + m->token_types * s->h
                    + relative_bias (m) + audio_stem (m)
                    + (m->kind == HR_KIND_ENCODER
                       || (m->kind == HR_KIND_ENCODER_DECODER && m->post_norm) ? stacks (m) * s->norm : 0)
                    + (m->patch_dim > 0 ? m->patch_dim * s->h + 2 * s->h : 0)
                    + final_norm;

  if (m->head == HR_HEAD_LM)
    outside += (m->tied_embeddings ? 0 : s->V * s->h)
               + (m->lm_head_bias ? s->V : 0);
  else
    outside += s->h * m->classes + m->classes;
  if (m->pooler)
    outside += s->h * s->h + s->h;
  return outside;
}

/* The whole model's parameters, unsharded, and those a token uses (MoE:
 * top-k experts instead of all), with OUTSIDE those beyond the layers. */
static void
count_whole (const HrModelArch *m,
             const Shape       *s,
             guint64            outside,
             HrParamCounts     *out)
{
  guint64 attn = attention_params (m, s, 1, NULL);
  guint64 norms = hr_model_norms_per_layer (m) * s->norm;
  guint64 decoder = decoder_layers (m);
  guint64 cross = decoder > 0 ? attn + s->norm : 0;
  guint64 dense = dense_first_layers (m, s);
  guint64 moe = m->layers - dense + m->mtp_modules;
  /* (every dense first layer's MLP is the dense one; each
   * multi-token-prediction module is one more MoE layer and its extras) */
  guint64 dense_mlp = dense > 0 ? dense * mlp_params (m, s, s->f, 1) : 0;
  guint64 mtp = m->mtp_modules * (2 * s->h * s->h + 3 * s->norm);

  out->total = m->layers * (attn + norms) + moe * layer_mlp_params (m, s, s->E) + dense_mlp
               + m->mtp_modules * (attn + norms) + mtp
               + decoder * (attn + norms + layer_mlp_params (m, s, s->E) + cross)
               + outside;
  out->active = m->layers * (attn + norms) + moe * layer_mlp_params (m, s, s->K) + dense_mlp
                + m->mtp_modules * (attn + norms) + mtp
                + decoder * (attn + norms + layer_mlp_params (m, s, s->K) + cross)
                + outside;
}

/* A vision-language model's tower and projector (hr-params-vision.c):
 * outside the language model's layers, on its first stage; Llama 3.2
 * Vision's cross-attention extras and image rows. */
static void
count_vision (const HrModelArch *m,
              const Shape       *s,
              HrParamCounts     *out)
{
  out->vision = hr_params_vision_tower (m, &out->vision_linear);
  out->projector = hr_params_projector (m, &out->projector_linear);
  out->vision_unreached = hr_params_vision_unreached (m);
  out->total += out->vision + out->projector;
  out->active += out->vision + out->projector;

  /* Llama 3.2 Vision's language model (modeling_mllama.py): its cross-
   * attention layers (MllamaCrossAttentionDecoderLayer: cross_attn, a
   * MllamaTextCrossAttention with q/k/v/o_proj shaped as the self-
   * attention's, K and V reading the projector's H-wide output, and q_norm,
   * k_norm, MllamaTextRMSNorm(head_dim); cross_attn_attn_gate and
   * cross_attn_mlp_gate, one value each; input_ and
   * post_attention_layernorm; mlp) and its token table of vocab_size + 8
   * rows (MllamaTextModel.__init__: nn.Embedding(config.vocab_size + 8,
   * ...): the image token and the rows after it) against an LM head of
   * vocab_size (MllamaForCausalLM.lm_head).  (Validation keeps t = 1.) */
  if (m->vision == HR_VISION_MLLAMA)
    {
      out->cross_layers = hr_model_cross_layers (m, 0, m->layers);
      out->cross_extra = 2 * s->d + 2;
      out->image_rows = HR_MLLAMA_EXTRA_TOKEN_ROWS;
      out->embedding += out->image_rows * s->h;
      out->total += out->cross_layers * out->cross_extra + out->image_rows * s->h;
      out->active += out->cross_layers * out->cross_extra + out->image_rows * s->h;
      out->outside_adafactor += out->image_rows;   /* a factored (V + 8) x h table */
    }
}

void
hr_params_count (const HrModelArch *m,
                 const HrTraining  *training,
                 guint64            tp,
                 guint64            ep,
                 HrParamCounts     *out)
{
  Shape s;
  guint64 t = MAX (tp, 1);
  guint64 e = MAX (ep, 1);
  guint64 attn_linear, outside;
  guint64 lora_attn, lora_layer;
  gboolean lora = training != NULL && training->method != HR_METHOD_FULL;
  guint targets = lora ? training->lora.targets : 0;
  guint64 r = lora ? training->lora.rank : 0;

  shape_from_model (m, &s);
  *out = (HrParamCounts) { 0 };

  count_layer (m, &s, t, e, &attn_linear, out);
  lora_attn = count_layer_lora (m, &s, training, t, &lora_layer, out);

  /* An encoder-decoder's decoder layer: a cross-attention (Q, K, V, O as
   * the self-attention's) and its norm. */
  if (m->kind == HR_KIND_ENCODER_DECODER)
    {
      guint64 cross_linear;
      guint64 cross = attention_params (m, &s, t, &cross_linear);

      out->decoder_extra = cross + s.norm;
      out->decoder_extra_linear = cross_linear;
      out->decoder_extra_adafactor = ((s.h + s.a * s.d) * 2 + (s.h + s.k * s.d) * 2) / t
                                     + (cross - cross_linear) + s.norm;
    }

  count_outside (m, &s, training, t, out);
  out->largest_linear = largest_linear (m, &s, t);
  outside = whole_outside (m, &s, out->final_norm);
  count_whole (m, &s, outside, out);

  /* PEFT's lora.Embedding (peft/tuners/lora/layer.py, Embedding.update_
   * layer): lora_embedding_A r x V and lora_embedding_B h x r. */
  if (targets & HR_LORA_EMBED)
    out->embedding_lora = r * (s.V + s.h);
  out->lora_total = (m->layers - dense_first_layers (m, &s)) * lora_layer
                    + dense_first_layers (m, &s) * out->dense_first_lora * t
                    + (targets & HR_LORA_LM_HEAD ? r * (s.h + s.V) + (training->lora.dora ? s.V : 0) : 0)
                    + out->embedding_lora;
  out->attention_layers = m->layers;
  out->expert_layers = s.E > 1 ? m->layers : 0;

  /* (Adapters by layer kind too: a Mamba block's, the attention's and the
   * MLPs' that hr-validate-ssm.c allows.  QLoRA leaves the Mamba mixers
   * in 16 bits: transformers' Jamba documentation quantizes with
   * llm_int8_skip_modules=["mamba"], which keeps every module whose name
   * holds "mamba", its mixers', as they were.) */
  if (m->ssm != HR_SSM_NONE || hr_model_mixed_layers (m))
    hr_params_count_kinds (m, &s, t, e, outside, targets, r, lora_attn,
                           (targets & HR_LORA_LM_HEAD ? r * (s.h + s.V) : 0) + out->embedding_lora,
                           training != NULL && training->method == HR_METHOD_QLORA, out);

  if (m->vision != HR_VISION_NONE)
    count_vision (m, &s, out);
}

guint64
hr_params_total (const HrModelArch *model)
{
  HrParamCounts c;

  hr_params_count (model, NULL, 1, 1, &c);
  return c.total;
}
