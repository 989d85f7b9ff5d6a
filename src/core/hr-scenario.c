/* hr-scenario.c: the default scenario and derived quantities
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-scenario.h"
#include "hr-precisions.h"
#include "hr-scenario-fields.h"
#include "hr-text.h"

#include <string.h>

void
hr_copy_string (char       *dest,
                gsize       dest_size,
                const char *src)
{
  gsize n;

  g_assert (dest_size > 0);
  /* Cut on a character boundary: half a UTF-8 character would make the
   * JSON output invalid and a saved file that does not reopen. */
  src = src != NULL ? src : "";
  n = hr_text_utf8_prefix (src, dest_size - 1);
  memcpy (dest, src, n);
  dest[n] = '\0';
}

/* A bare architecture, before a preset fills it: the contract's defaults
 * for the fields a preset may leave out (a decoder with a SwiGLU MLP,
 * RMSNorm, no biases, no experts, a language-model head), the sizes 0. */
void
hr_model_arch_init_blank (HrModelArch *model)
{
  memset (model, 0, sizeof *model);
  model->kind = HR_KIND_DECODER;
  model->mlp = HR_MLP_SWIGLU;
  model->norm = HR_NORM_RMSNORM;
  model->bias = HR_BIAS_NONE;
  model->experts = 1;
  model->experts_active = 1;
  model->head = HR_HEAD_LM;
}

/* Llama 2 13B, from its config.json (CALC-REFERENCE.md section 1: 40 layers,
 * hidden 5120, 40 heads, ffn 13824, vocab 32000, untied), on the blank's
 * defaults. */
void
hr_model_arch_init_default (HrModelArch *model)
{
  hr_model_arch_init_blank (model);
  hr_copy_string (model->preset, sizeof model->preset, "llama-2-13b");
  hr_copy_string (model->name, sizeof model->name, "Llama 2 13B");
  model->layers = 40;
  model->hidden = 5120;
  model->heads = 40;
  model->kv_heads = 40;
  model->head_dim = 128;
  model->ffn = 13824;
  model->vocab = 32000;
  model->tied_embeddings = FALSE;
}

/* CONTRACT.md section 2, from the recipe's row (hr-precisions.c); an
 * unknown recipe is bf16-mixed's. */
void
hr_dtypes_for_precision (HrPrecision  precision,
                         HrDtypes    *out)
{
  *out = hr_precisions[precision < HR_N_PRECISIONS ? precision : HR_PRECISION_BF16_MIXED].dtypes;
}

/* Fill the dtypes from the recipe, keeping the parts the user overrode. */
void
hr_training_apply_precision (HrTraining *training)
{
  HrDtypes recipe;
  HrDtype *dst = (HrDtype *) &training->dtypes;
  const HrDtype *src = (const HrDtype *) &recipe;

  G_STATIC_ASSERT (sizeof (HrDtypes) == 5 * sizeof (HrDtype));

  hr_dtypes_for_precision (training->precision, &recipe);
  for (guint i = 0; i < 5; i++)
    if ((training->dtypes_set & (1u << i)) == 0)
      dst[i] = src[i];
}

/* The classic planning case of the issue tracker: Llama 2 13B, ZeRO-3,
 * full checkpointing, bf16 mixed precision, micro-batch 4, sequence 4096,
 * 8x H100 SXM 80GB.  presets/scenarios/default.json says the same, and a
 * test keeps the two equal. */
void
hr_scenario_init_default (HrScenario *scenario)
{
  HrTraining *t = &scenario->training;
  HrParallel *p = &scenario->parallel;

  memset (scenario, 0, sizeof *scenario);
  /* The optional fields' defaults are the field table's `absent` values
   * (checkpoint_every 1, loss_chunk_tokens 128, fsdp 2, comm_buffer_mib
   * automatic, ...): what a file that leaves them out means. */
  hr_fields_set_all_absent (scenario);
  hr_copy_string (scenario->name, sizeof scenario->name,
                  "Llama 2 13B, ZeRO-3, 8x H100");
  hr_model_arch_init_default (&scenario->model);

  t->method = HR_METHOD_FULL;
  t->lora.rank = 16;
  t->lora.targets = HR_LORA_ALL_LINEAR;
  t->quant = HR_QUANT_NF4_DQ;
  t->precision = HR_PRECISION_BF16_MIXED;
  t->dtypes_set = 0;
  hr_training_apply_precision (t);
  t->optimizer = HR_OPTIMIZER_ADAMW;
  t->optimizer_impl = HR_OPTIMIZER_IMPL_FUSED;
  t->micro_batch = 4;
  t->seq_len = 4096;
  t->grad_accum = 1;
  t->checkpointing = HR_CHECKPOINTING_FULL;
  t->attention = HR_ATTENTION_FLASH;
  t->loss = HR_LOSS_STANDARD;
  t->logits_fp32 = TRUE;

  p->gpus = 8;
  p->gpus_per_node = 8;
  p->tp = p->pp = p->vpp = p->cp = p->ep = 1;
  p->sp = FALSE;
  p->zero = 3;
  p->shard_group = 0;

  hr_copy_string (scenario->gpu.preset, sizeof scenario->gpu.preset,
                  "h100-sxm-80gb");
  hr_copy_string (scenario->gpu.name, sizeof scenario->gpu.name,
                  "H100 SXM 80GB");
  scenario->gpu.memory_mib = 81559;
  scenario->gpu.bf16_tflops = 989;   /* H100 SXM, dense (torchtitan get_peak_flops) */
  scenario->gpu.fp8_tflops = 1979;   /* and fp8 (torchao roofline_utils gpu_name_to_specs) */
  scenario->gpu.compute_capability = 9.0;  /* NVIDIA's CUDA GPU Compute Capability table */

  scenario->overhead.cuda_context_mib = 600;
  scenario->overhead.fragmentation = 0.08;
  scenario->overhead.headroom = 0.10;

  /* 40 % model FLOPs utilisation is what well-tuned large runs report
   * (Llama 3: 38-43 % on H100, Meta 2024). */
  scenario->cost.mfu = 0.40;
}

guint64
hr_parallel_dp_degree (const HrParallel *parallel)
{
  guint64 mp = parallel->tp * parallel->pp * parallel->cp;

  return mp > 0 ? MAX (parallel->gpus / mp, 1) : 1;
}

/* ZeRO and FSDP shard over the data-parallel and the context-parallel
 * ranks together, gpus / (tp·pp): the context-parallel ranks of a
 * data-parallel rank hold the same weights, so they split the model states
 * with it.  torchtitan builds its FSDP mesh as dp_shard_cp = dp_shard · cp
 * (torchtitan/distributed/parallel_dims.py, ParallelDims.build_mesh), and
 * Megatron's gradient buffers, which its distributed optimizer shards, use
 * get_data_parallel_group (with_context_parallel=True)
 * (megatron/core/distributed/distributed_data_parallel.py,
 * DistributedDataParallel.__init__).  With hybrid
 * sharding (HSDP) shard_group is torchtitan's dp_shard, the data-parallel
 * ranks of one shard group, and the group's context-parallel ranks join
 * it: shard_group · cp. */
guint64
hr_parallel_shard_degree (const HrParallel *parallel)
{
  guint64 dp = hr_parallel_dp_degree (parallel);
  guint64 cp = MAX (parallel->cp, 1);

  if (parallel->shard_group > 0 && parallel->shard_group < dp)
    return parallel->shard_group * cp;
  return dp * cp;
}

guint64
hr_model_head_dim (const HrModelArch *model)
{
  if (model->head_dim > 0)
    return model->head_dim;
  return model->heads > 0 ? model->hidden / model->heads : 0;
}

guint64
hr_model_expert_ffn (const HrModelArch *model)
{
  return model->expert_ffn > 0 ? model->expert_ffn : model->ffn;
}

guint64
hr_model_norms_per_layer (const HrModelArch *model)
{
  if (model->norms_per_layer > 0)
    return model->norms_per_layer;
  /* A pattern's block has one norm before its one module
   * (modeling_nemotron_h.py, NemotronHBlock); a Mamba block without an
   * MLP its mixer's alone (mamba_ssm/modules/block.py, Block: norm2 only
   * with an mlp). */
  if (model->layer_pattern[0] != '\0')
    return 1;
  if (model->ssm != HR_SSM_NONE)
    return hr_model_layer_has_mlp (model, 0) ? 2 : 1;
  return model->parallel_block ? 1 : 2;
}

/* The defaults of the reference implementations: mamba_ssm's
 * modules/mamba_simple.py (Mamba.__init__: d_state 16, d_conv 4,
 * expand 2, dt_rank "auto" = ceil(d_model / 16)) and modules/mamba2.py
 * (Mamba2.__init__: d_state 128, headdim 64, ngroups 1). */
guint64
hr_model_ssm_inner (const HrModelArch *model)
{
  if (model->ssm_inner > 0)
    return model->ssm_inner;
  return (model->ssm_expand > 0 ? model->ssm_expand : 2) * model->hidden;
}

guint64
hr_model_ssm_state (const HrModelArch *model)
{
  if (model->ssm_state > 0)
    return model->ssm_state;
  return model->ssm == HR_SSM_MAMBA2 ? 128 : 16;
}

guint64
hr_model_ssm_conv (const HrModelArch *model)
{
  return model->ssm_conv > 0 ? model->ssm_conv : 4;
}

guint64
hr_model_ssm_dt_rank (const HrModelArch *model)
{
  return model->ssm_dt_rank > 0 ? model->ssm_dt_rank : (model->hidden + 15) / 16;
}

guint64
hr_model_ssm_head_dim (const HrModelArch *model)
{
  return model->ssm_head_dim > 0 ? model->ssm_head_dim : 64;
}

guint64
hr_model_ssm_heads (const HrModelArch *model)
{
  if (model->ssm_heads > 0)
    return model->ssm_heads;
  return hr_model_ssm_inner (model) / MAX (hr_model_ssm_head_dim (model), 1);
}

guint64
hr_model_ssm_groups (const HrModelArch *model)
{
  return model->ssm_groups > 0 ? model->ssm_groups : 1;
}

/* A layer's mixer: Nemotron-H's pattern (configuration_nemotron_h.py,
 * layers_block_type: M mamba, * attention, - mlp, E moe; one module per
 * block), or Jamba's (modeling_jamba.py, JambaModel.__init__: layer i is
 * an attention layer when i % attn_layer_period == attn_layer_offset); a
 * model without SSM layers attends in every layer. */
/* A layer's block in the pattern; past the model's layers, the blocks of
 * its prediction modules in turn ('\0' where there are none). */
static char
pattern_block (const HrModelArch *model,
               guint64            layer)
{
  if (layer >= model->layers)
    {
      gsize n = strlen (model->mtp_pattern);

      return n > 0 ? model->mtp_pattern[(layer - model->layers) % n] : '\0';
    }
  return layer < HR_LAYER_PATTERN_MAX ? model->layer_pattern[layer] : '\0';
}

/* The blocks the multi-token-prediction modules add after the layers: a
 * pattern's modules are its mtp_pattern's blocks each, DeepSeek's one
 * layer each. */
guint64
hr_model_mtp_blocks (const HrModelArch *model)
{
  if (model->layer_pattern[0] != '\0')
    return model->mtp_modules * strlen (model->mtp_pattern);
  return model->mtp_modules;
}

HrLayerMixer
hr_model_layer_mixer (const HrModelArch *model,
                      guint64            layer)
{
  if (model->layer_pattern[0] != '\0')
    {
      char c = pattern_block (model, layer);

      return c == 'M' ? HR_LAYER_MIXER_SSM : c == '*' ? HR_LAYER_MIXER_ATTENTION
             : c == 'S' ? HR_LAYER_MIXER_SHARED : HR_LAYER_MIXER_NONE;
    }
  /* Bamba's attn_layer_indices (modeling_bamba.py, BambaModel: layer i
   * attends when config.layers_block_type[i] is "attention") */
  if (model->layer_mixers[0] != '\0')
    return layer < HR_LAYER_PATTERN_MAX && model->layer_mixers[layer] == '*'
           ? HR_LAYER_MIXER_ATTENTION : HR_LAYER_MIXER_SSM;
  if (model->ssm == HR_SSM_NONE)
    return HR_LAYER_MIXER_ATTENTION;
  return model->attn_layer_period > 0 && layer % model->attn_layer_period == model->attn_layer_offset
         ? HR_LAYER_MIXER_ATTENTION : HR_LAYER_MIXER_SSM;
}

/* ... and what follows it: the pattern's MLP or experts, or Jamba's
 * (a sparse MoE layer when i % expert_layer_period ==
 * expert_layer_offset); no MLP in a Mamba block without one (ffn 0). */
HrLayerMlp
hr_model_layer_mlp (const HrModelArch *model,
                    guint64            layer)
{
  if (model->layer_pattern[0] != '\0')
    {
      char c = pattern_block (model, layer);

      return c == 'E' ? HR_LAYER_MLP_EXPERTS : c == '-' || c == 'S' ? HR_LAYER_MLP_DENSE : HR_LAYER_MLP_NONE;
    }
  if (model->experts > 1
      && (model->expert_layer_period == 0
          || layer % model->expert_layer_period == model->expert_layer_offset))
    return HR_LAYER_MLP_EXPERTS;
  return model->ffn > 0 ? HR_LAYER_MLP_DENSE : HR_LAYER_MLP_NONE;
}

gboolean
hr_model_layer_attends (const HrModelArch *model,
                        guint64            layer)
{
  return hr_model_layer_mixer (model, layer) == HR_LAYER_MIXER_ATTENTION;
}

gboolean
hr_model_layer_has_experts (const HrModelArch *model,
                            guint64            layer)
{
  return hr_model_layer_mlp (model, layer) == HR_LAYER_MLP_EXPERTS;
}

gboolean
hr_model_layer_has_mlp (const HrModelArch *model,
                        guint64            layer)
{
  return hr_model_layer_mlp (model, layer) != HR_LAYER_MLP_NONE;
}

/* Whether the layers differ from one another: a hybrid of attention and
 * SSM layers, experts in some layers only, or a pattern of blocks. */
gboolean
hr_model_mixed_layers (const HrModelArch *model)
{
  return (model->ssm != HR_SSM_NONE && model->attn_layer_period > 0)
         || (model->experts > 1 && model->expert_layer_period > 1)
         || model->layer_pattern[0] != '\0' || model->layer_mixers[0] != '\0';
}

/* A vision tower's patches per image: (image / patch)², validated to
 * divide (CLIPVisionEmbeddings.num_patches; Qwen2-VL's image_grid_thw
 * with t = 1, a still image's two frames in one temporal patch). */
guint64
hr_model_vision_patches (const HrModelArch *model)
{
  guint64 side;

  if (model->vision == HR_VISION_NONE || model->vision_patch == 0)
    return 0;
  side = model->vision_image / model->vision_patch;
  return side * side;
}

/* The tokens each image is inside the tower: CLIP adds its class token
 * (CLIPVisionEmbeddings.forward: torch.cat([class_embeds, patch_embeds])). */
guint64
hr_model_vision_tokens (const HrModelArch *model)
{
  /* (Llama 3.2 Vision adds one to each tile: MllamaVisionModel
   * .apply_class_embedding) */
  return hr_model_vision_patches (model)
         + (model->vision == HR_VISION_CLIP || model->vision == HR_VISION_MLLAMA ? 1 : 0);
}

/* Llama 3.2 Vision's tower pads each tile's patches and class token to a
 * multiple of 8 (MllamaVisionModel.forward: num_padding_patches =
 * (8 - (hidden_state.shape[-2] % 8)) % 8) and runs its layers over an
 * image's tiles as one sequence (hidden_state.view(batch_size *
 * num_concurrent_media, -1, dim)): the tokens of one tile there. */
guint64
hr_model_tile_tokens (const HrModelArch *model)
{
  guint64 tokens = hr_model_vision_tokens (model);

  return (tokens + 7) / 8 * 8;
}

/* The image tokens each image gives the cross-attention layers' keys and
 * values: every tile's patches and class token, the padding removed
 * (hidden_state[:, :, :slice_index]), for all vision_tiles tiles:
 * MllamaImageProcessor pads every image to max_image_tiles tiles
 * (image_processing_mllama.py, pack_images), which the tower and the
 * projector run over whole (aspect_ratio_mask masks them in attention
 * only). */
guint64
hr_model_cross_tokens (const HrModelArch *model)
{
  if (model->vision != HR_VISION_MLLAMA)
    return 0;
  return model->vision_tiles * hr_model_vision_tokens (model);
}

/* Whether the language model's layer (from 0) is a gated cross-attention
 * layer (Llama 3.2 Vision: MllamaTextModel builds a
 * MllamaCrossAttentionDecoderLayer for each index of
 * cross_attention_layers, a MllamaSelfAttentionDecoderLayer for the
 * others). */
gboolean
hr_model_layer_cross_attends (const HrModelArch *model,
                              guint64            layer)
{
  return model->cross_attn_layer_period > 0
         && layer % model->cross_attn_layer_period == model->cross_attn_layer_offset;
}

/* ... and how many of the n_layers from first_layer on are. */
guint64
hr_model_cross_layers (const HrModelArch *model,
                       guint64            first_layer,
                       guint64            n_layers)
{
  guint64 p = model->cross_attn_layer_period, o = model->cross_attn_layer_offset;
  guint64 end = first_layer + n_layers;

  if (p == 0 || o >= end)
    return 0;
  /* layers o, o + p, ... below end, less those below first_layer */
  return (end - o + p - 1) / p - (first_layer > o ? (first_layer - o + p - 1) / p : 0);
}

/* The tokens each image adds to the language model's sequence: LLaVA's
 * "default" feature strategy drops the class token
 * (LlavaModel.get_image_features: selected_image_feature[:, 1:]); the patch
 * merger joins merge² patches into one (Qwen2-VL's
 * Qwen2VLImageProcessor: image_grid_thw.prod() // merge_size**2). */
guint64
hr_model_image_tokens (const HrModelArch *model)
{
  guint64 merge = hr_model_projector_merge (model);

  /* (Llama 3.2 Vision's are keys and values of its cross-attention
   * layers, not in the sequence: hr_model_cross_tokens.) */
  if (model->vision == HR_VISION_MLLAMA)
    return 0;

  return hr_model_vision_patches (model) / (merge * merge);
}

/* The tower's layers a forward pass needs: those up to the feature layer
 * (LLaVA's vision_feature_layer -2 leaves the last one's output unused). */
guint64
hr_model_vision_layers_run (const HrModelArch *model)
{
  if (model->vision == HR_VISION_NONE)
    return 0;
  /* (Llama 3.2 Vision's features are its last global layer's output and
   * intermediate local layers': all of them run.) */
  if (model->vision == HR_VISION_MLLAMA)
    return model->vision_layers + model->vision_global_layers;
  return model->vision_feature_layer > 0 ? model->vision_feature_layer : model->vision_layers;
}

guint64
hr_model_vision_channels (const HrModelArch *model)
{
  return model->vision_channels > 0 ? model->vision_channels : 3;
}

guint64
hr_model_projector_merge (const HrModelArch *model)
{
  return model->projector_merge > 0 ? model->projector_merge : 1;
}

gboolean
hr_model_gated (const HrModelArch *model)
{
  return model->mlp == HR_MLP_SWIGLU || model->mlp == HR_MLP_GEGLU;
}

/* Biases on the MLP and the attention's output: "all" (GPT-2, BERT,
 * BART) and Whisper's "all-but-k". */
gboolean
hr_model_linear_biases (const HrModelArch *model)
{
  return model->bias == HR_BIAS_ALL || model->bias == HR_BIAS_ALL_BUT_K;
}

/* A bias on K: with "qkv" and "all", not on Whisper's k_proj
 * (modeling_whisper.py, WhisperAttention.__init__: nn.Linear(embed_dim,
 * embed_dim, bias=False) for k_proj, bias=True for q, v and out). */
gboolean
hr_model_key_bias (const HrModelArch *model)
{
  return model->bias == HR_BIAS_QKV || model->bias == HR_BIAS_ALL;
}

/* An encoder that reads log-mel frames (Whisper) rather than tokens. */
gboolean
hr_model_audio (const HrModelArch *model)
{
  return model->kind == HR_KIND_ENCODER_DECODER && model->audio_mel_bins > 0;
}

/* An audio encoder reads only whole 30 s clips (Whisper: 1500 frames;
 * WhisperEncoder.forward refuses any other length), and its decoder no
 * more tokens than its learned position table holds: a run of such a
 * model takes those lengths.  Called where a model is chosen (a preset,
 * an import); the file's or the user's training keys may change them
 * after, and are then checked (hr-validate.c, validate_audio). */
void
hr_scenario_fit_model_lengths (HrScenario *scenario)
{
  const HrModelArch *m = &scenario->model;

  if (!hr_model_audio (m) || m->audio_frames == 0)
    return;
  scenario->training.seq_len = m->audio_frames;
  if (m->learned_positions > 0 && hr_training_target_len (scenario) > m->learned_positions)
    scenario->training.target_len = m->learned_positions;
}

/* The layers of both stacks: an encoder-decoder model runs its encoder's
 * model.layers and its decoder's decoder_layers, one after the other. */
guint64
hr_model_stack_layers (const HrModelArch *model)
{
  if (model->kind == HR_KIND_ENCODER_DECODER)
    return model->layers + model->decoder_layers;
  return model->layers;
}

/* DeepSeek's multi-head latent attention instead of Q, K, V, O of
 * heads x head_dim. */
gboolean
hr_model_mla (const HrModelArch *model)
{
  return model->attention_kind == HR_ATTN_KIND_MLA;
}

/* The decoder's tokens per sequence of an encoder-decoder model (the
 * labels' length); 0 in the file means as long as the source. */
guint64
hr_training_target_len (const HrScenario *scenario)
{
  if (scenario->training.target_len > 0)
    return scenario->training.target_len;
  return scenario->training.seq_len;
}
