/* hr-scenario-fields.c: the fields of each section of a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table per section: each field's key, kind and place in the struct,
 * whether a file may leave it out, and its form row (label, help, range,
 * how its choices read, when it applies).  The JSON reader and --set
 * (src/io/hr-fields-read.c, hr-scenario-set.c), the writer
 * (hr-scenario-writer.c), the window's scenario model and the form
 * (src/gui) all go through these tables: a new field is one row here.
 * The ranges are the bounds hr-validate.c checks (the HR_MAX_ constants).
 */

#include "hr-scenario-applies.h"
#include "hr-scenario-fields.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* --- how choices read in the form, in the order of their names ------------ */

static const char * const kind_choices[] = { N_("Decoder (GPT, Llama)"), N_("Encoder (BERT, ViT)"),
                                              N_("Encoder-decoder (T5, BART)"), NULL };
static const char * const ssm_choices[] = { N_("None (attention only)"), N_("Mamba (selective scan)"),
                                             N_("Mamba-2 (SSD)"), NULL };
static const char * const vision_choices[] = {
  N_("None (text only)"), N_("CLIP ViT (LLaVA)"), N_("Qwen2-VL ViT"),
  N_("Tiled ViT with cross-attention (Llama 3.2 Vision)"), NULL
};
static const char * const projector_choices[] = {
  N_("None"), N_("Two-layer MLP with GELU (LLaVA)"), N_("Patch merger (Qwen2-VL)"),
  N_("One linear layer (Llama 3.2 Vision)"), NULL
};
static const char * const mlp_choices[] = { "SwiGLU", "GeGLU", "GELU", "ReLU", N_("Squared ReLU"), NULL };
static const char * const norm_choices[] = { "RMSNorm", "LayerNorm", NULL };
static const char * const bias_choices[] = { N_("None"), N_("On Q, K, V"), N_("On every linear layer"),
                                              N_("On every linear layer but K (Whisper)"), NULL };
static const char * const head_choices[] = { N_("Language model"), N_("Classifier"), NULL };
static const char * const qk_norm_choices[] = { N_("None"), N_("Per head"), N_("Whole projection"), NULL };
static const char * const attn_kind_choices[] = { N_("Standard (MHA, GQA, MQA)"),
                                                   N_("Multi-head latent (DeepSeek)"), NULL };
static const char * const method_choices[] = { N_("Full fine-tuning"), "LoRA", "QLoRA", NULL };
static const char * const dtype_choices[] = { "fp32", "bf16", "fp16", "fp8", N_("None"), NULL };
static const char * const unpacked_choices[] = { "fp32", "bf16", "fp16", "fp8", N_("The compute type"), NULL };
static const char * const optimizer_impl_choices[] = {
  N_("For-each (PyTorch default)"), N_("Fused"), N_("Per parameter"), NULL
};
static const char * const checkpointing_choices[] = { N_("None"), N_("Selective"), N_("Full"),
                                                      N_("Per op (torchtitan)"), NULL };
static const char * const offload_device_choices[] = { N_("CPU memory"), N_("NVMe drive"), NULL };
static const char * const schedule_choices[] = { "1F1B", N_("Interleaved 1F1B"), N_("Zero bubble ZB-H1"),
                                                 N_("Zero bubble ZB-H2"), "DualPipe", NULL };
static const char * const pp_buffers_choices[] = { N_("Layers only"), N_("PyTorch pipelining"),
                                                   N_("PyTorch pipelining, outputs returned"), NULL };
static const char * const fp8_recipe_choices[] = { N_("Transformer Engine"), N_("torchao Float8Linear"),
                                                   N_("Transformer Engine MXFP8 (Blackwell)"), NULL };
static const char * const fsdp_units_choices[] = { N_("Embeddings and head their own units"),
                                                   N_("Embeddings and head in the root unit"), NULL };

/* --- the tables ------------------------------------------------------------ */

const Field hr_model_fields[] = {
  TEXT (HrModelArch, name, N_("Name")),
  CHOICE (HrModelArch, kind, hr_kind_names, kind_choices, N_("Kind"), NULL),
  SPIN (HrModelArch, layers, 1, HR_MAX_LAYERS, 1, N_("Layers"), NULL),
  SPIN (HrModelArch, hidden, 1, HR_MAX_HIDDEN, 64, N_("Hidden size"), NULL),
  SPIN (HrModelArch, heads, 1, HR_MAX_HEADS, 1, N_("Attention heads"), NULL, .applies = hr_applies_attention),
  SPIN (HrModelArch, kv_heads, 1, HR_MAX_HEADS, 1, N_("Key/value heads"),
        N_("Fewer than the heads for GQA, 1 for MQA"), .applies = hr_applies_attention),
  SPIN (HrModelArch, head_dim, 0, HR_MAX_HIDDEN, 1, N_("Head dimension"),
        N_("0: hidden size ÷ heads"), OPTIONAL (0), .applies = hr_applies_attention),
  SPIN (HrModelArch, ffn, 0, HR_MAX_FFN, 64, N_("MLP width"), NULL),
  CHOICE (HrModelArch, mlp, hr_mlp_names, mlp_choices, N_("MLP"), N_("Gated MLPs have three matrices")),
  SPIN (HrModelArch, vocab, 0, HR_MAX_VOCAB, 1, N_("Vocabulary"), NULL, .applies = hr_applies_vocab),
  SWITCH (HrModelArch, tied_embeddings, N_("Tied embeddings"), N_("The LM head shares the token table")),
  CHOICE (HrModelArch, norm, hr_norm_names, norm_choices, N_("Norm"), NULL),
  CHOICE (HrModelArch, bias, hr_bias_names, bias_choices, N_("Biases"), NULL),
  SWITCH (HrModelArch, parallel_block, N_("Parallel attention and MLP"), N_("GPT-J, Falcon, Phi-2")),
  SPIN (HrModelArch, learned_positions, 0, HR_MAX_SEQ_LEN, 1, N_("Learned positions"),
        N_("0 for rotary positions")),
  SPIN (HrModelArch, experts, 1, HR_MAX_EXPERTS, 1, N_("Experts"), N_("1 for a dense model")),
  SPIN (HrModelArch, experts_active, 1, HR_MAX_EXPERTS, 1, N_("Experts per token"), NULL,
        .applies = hr_applies_moe),
  SWITCH (HrModelArch, dropout, N_("Dropout"), N_("Its masks are saved for the backward pass")),
  CHOICE (HrModelArch, head, hr_head_names, head_choices, N_("Head"), NULL),
  SPIN (HrModelArch, classes, 0, HR_MAX_VOCAB, 1, N_("Classes"), NULL, .applies = hr_applies_classifier),
  SPIN (HrModelArch, expert_ffn, 0, HR_MAX_FFN, 64, N_("Expert MLP width"), N_("0: the MLP width"),
        OPTIONAL (0), .applies = hr_applies_moe),
  SPIN (HrModelArch, norms_per_layer, 0, 8, 1, N_("Norms per layer"), N_("0: automatic"), OPTIONAL (0)),
  CHOICE (HrModelArch, qk_norm, hr_qk_norm_names, qk_norm_choices, N_("Q/K norm"), NULL,
          OPTIONAL (HR_QK_NORM_NONE)),
  SWITCH (HrModelArch, lm_head_bias, N_("Bias on the LM head"), NULL, OPTIONAL (FALSE)),
  SPIN (HrModelArch, token_types, 0, 1024, 1, N_("Token types"), N_("BERT's segment embeddings"),
        OPTIONAL (0)),
  SWITCH (HrModelArch, pooler, N_("Pooler"), N_("BERT's pooled output layer"), OPTIONAL (FALSE)),
  SPIN (HrModelArch, patch_dim, 0, HR_MAX_HIDDEN, 1, N_("Patch size"),
        N_("Vision transformers: pixels per patch × channels"), OPTIONAL (0)),
  SPIN (HrModelArch, decoder_layers, 0, HR_MAX_LAYERS, 1, N_("Decoder layers"),
        N_("The decoder stack's; the layers above are the encoder's"), OPTIONAL (0),
        .applies = hr_applies_encoder_decoder),
  SPIN (HrModelArch, position_buckets, 0, HR_MAX_POSITION_BUCKETS, 1, N_("Relative position buckets"),
        N_("T5's attention bias: buckets × heads in each stack's first layer"), OPTIONAL (0),
        .applies = hr_applies_encoder_decoder),
  SWITCH (HrModelArch, post_norm, N_("Norm after each sub-layer"),
          N_("BART: post-norm layers, a norm on each stack's embeddings"), OPTIONAL (FALSE),
          .applies = hr_applies_encoder_decoder),
  SPIN (HrModelArch, audio_mel_bins, 0, HR_MAX_AUDIO_MEL_BINS, 1, N_("Audio mel bins"),
        N_("Whisper: the encoder reads log-mel frames through two convolutions; 0 for text"),
        OPTIONAL (0), .applies = hr_applies_encoder_decoder),
  SPIN (HrModelArch, audio_frames, 0, HR_MAX_SEQ_LEN, 1, N_("Audio frames"),
        N_("The encoder's frames after the convolutions (Whisper: 1500, 30 s), each with a frozen position"),
        OPTIONAL (0), .applies = hr_applies_audio),
  CHOICE (HrModelArch, attention_kind, hr_attn_kind_names, attn_kind_choices, N_("Attention kind"),
          N_("DeepSeek-V2 and V3: K and V through a compressed latent"), OPTIONAL (HR_ATTN_KIND_STANDARD),
          .applies = hr_applies_decoder),
  SPIN (HrModelArch, q_lora_rank, 0, HR_MAX_HIDDEN, 64, N_("Query latent rank"),
        N_("0: Q projected directly (DeepSeek-V2-Lite)"), OPTIONAL (0), .applies = hr_applies_mla),
  SPIN (HrModelArch, kv_lora_rank, 0, HR_MAX_HIDDEN, 64, N_("Key/value latent rank"),
        N_("The compressed latent K and V come from"), OPTIONAL (0), .applies = hr_applies_mla),
  SPIN (HrModelArch, qk_nope_head_dim, 0, HR_MAX_HIDDEN, 16, N_("Q/K head dimension without rope"),
        NULL, OPTIONAL (0), .applies = hr_applies_mla),
  SPIN (HrModelArch, qk_rope_head_dim, 0, HR_MAX_HIDDEN, 16, N_("Q/K rope dimension"),
        N_("One rope key shared by every head"), OPTIONAL (0), .applies = hr_applies_mla),
  SPIN (HrModelArch, v_head_dim, 0, HR_MAX_HIDDEN, 16, N_("Value head dimension"), NULL,
        OPTIONAL (0), .applies = hr_applies_mla),
  SPIN (HrModelArch, shared_experts, 0, HR_MAX_EXPERTS, 1, N_("Shared experts"),
        N_("Every token goes through them: one MLP of this many expert widths"), OPTIONAL (0),
        .applies = hr_applies_moe),
  SPIN (HrModelArch, dense_layers, 0, HR_MAX_LAYERS, 1, N_("Dense first layers"),
        N_("The first layers have the dense MLP width instead of experts"), OPTIONAL (0),
        .applies = hr_applies_moe),
  SWITCH (HrModelArch, router_bias, N_("Router bias"),
          N_("DeepSeek-V3's load-balancing bias: one per expert in each MoE layer"), OPTIONAL (FALSE),
          .applies = hr_applies_moe),
  SPIN (HrModelArch, mtp_modules, 0, HR_MAX_MTP_MODULES, 1, N_("Multi-token prediction modules"),
        N_("DeepSeek-V3: each one more layer (with a layer pattern, its blocks) and a second loss, sharing the embedding and head"),
        OPTIONAL (0), .applies = hr_applies_decoder),
  CHOICE (HrModelArch, ssm, hr_ssm_names, ssm_choices, N_("State-space layers"),
          N_("Mamba, Mamba-2; with an attention period, a hybrid (Jamba)"), OPTIONAL (HR_SSM_NONE)),
  SPIN (HrModelArch, ssm_state, 0, HR_MAX_SSM_STATE, 1, N_("SSM state size"),
        N_("d_state; 0: 16 (Mamba), 128 (Mamba-2)"), OPTIONAL (0), .applies = hr_applies_ssm),
  SPIN (HrModelArch, ssm_conv, 0, HR_MAX_SSM_CONV, 1, N_("SSM convolution width"),
        N_("d_conv; 0: 4"), OPTIONAL (0), .applies = hr_applies_ssm),
  SPIN (HrModelArch, ssm_expand, 0, HR_MAX_SSM_EXPAND, 1, N_("SSM expansion"),
        N_("Inner width ÷ hidden size; 0: 2"), OPTIONAL (0), .applies = hr_applies_ssm),
  SPIN (HrModelArch, ssm_inner, 0, HR_MAX_SSM_INNER, 1, N_("SSM inner width"),
        N_("d_inner, where it is no multiple of the hidden size; 0: expansion × hidden size"),
        OPTIONAL (0), .applies = hr_applies_ssm),
  SPIN (HrModelArch, ssm_dt_rank, 0, HR_MAX_HIDDEN, 1, N_("SSM Δ rank"),
        N_("dt_rank; 0: hidden size ÷ 16, rounded up"), OPTIONAL (0), .applies = hr_applies_mamba),
  SPIN (HrModelArch, ssm_heads, 0, HR_MAX_HEADS, 1, N_("SSM heads"),
        N_("0: inner width ÷ SSM head dimension"), OPTIONAL (0), .applies = hr_applies_mamba2),
  SPIN (HrModelArch, ssm_head_dim, 0, HR_MAX_HIDDEN, 1, N_("SSM head dimension"),
        N_("headdim; 0: 64"), OPTIONAL (0), .applies = hr_applies_mamba2),
  SPIN (HrModelArch, ssm_groups, 0, HR_MAX_HEADS, 1, N_("SSM groups"),
        N_("ngroups of B and C; 0: 1"), OPTIONAL (0), .applies = hr_applies_mamba2),
  SWITCH (HrModelArch, ssm_bc_norm, N_("Norms on Δ, B and C"), N_("Jamba's Mamba layers"),
          OPTIONAL (FALSE), .applies = hr_applies_mamba),
  SPIN (HrModelArch, attn_layer_period, 0, HR_MAX_LAYERS, 1, N_("Attention layer period"),
        N_("Every N-th layer attends, the others are SSM layers; 0: none"), OPTIONAL (0),
        .applies = hr_applies_ssm),
  SPIN (HrModelArch, attn_layer_offset, 0, HR_MAX_LAYERS, 1, N_("Attention layer offset"),
        N_("The first attention layer, counted from 0"), OPTIONAL (0), .applies = hr_applies_ssm),
  SPIN (HrModelArch, expert_layer_period, 0, HR_MAX_LAYERS, 1, N_("Expert layer period"),
        N_("Every N-th layer has the experts, the others a dense MLP; 0: every layer"), OPTIONAL (0),
        .applies = hr_applies_moe),
  SPIN (HrModelArch, expert_layer_offset, 0, HR_MAX_LAYERS, 1, N_("Expert layer offset"),
        N_("The first layer with experts, counted from 0"), OPTIONAL (0), .applies = hr_applies_moe),
  { .key = "layer_pattern", .kind = F_NAME, .offset = G_STRUCT_OFFSET (HrModelArch, layer_pattern),
    .size = HR_LAYER_PATTERN_MAX, .label = N_("Layer pattern"),
    .help = N_("A block per layer: M the SSM mixer, * attention, - the MLP, E the experts (Nemotron-H); "
               "S a shared transformer block (Zamba2)"),
    .flags = HR_FIELD_OPTIONAL | HR_FIELD_WHOLE },
  { .key = "mtp_pattern", .kind = F_NAME, .offset = G_STRUCT_OFFSET (HrModelArch, mtp_pattern),
    .size = HR_MTP_PATTERN_MAX, .label = N_("Prediction module blocks"),
    .help = N_("With a layer pattern, the blocks of each multi-token prediction module (Nemotron 3: *E)"),
    .flags = HR_FIELD_OPTIONAL | HR_FIELD_WHOLE, .applies = hr_applies_layer_pattern },
  SPIN (HrModelArch, moe_latent_size, 0, HR_MAX_HIDDEN, 64, N_("Expert latent width"),
        N_("The pattern's expert blocks project each token to this width before the experts "
           "and back after them (Nemotron's latent MoE); 0: none"),
        OPTIONAL (0), .applies = hr_applies_pattern_experts),
  { .key = "layer_mixers", .kind = F_NAME, .offset = G_STRUCT_OFFSET (HrModelArch, layer_mixers),
    .size = HR_LAYER_PATTERN_MAX, .label = N_("Layer mixers"),
    .help = N_("A mixer per layer, each followed by the MLP: M the SSM mixer, * attention (Bamba)"),
    .flags = HR_FIELD_OPTIONAL | HR_FIELD_WHOLE, .applies = hr_applies_ssm },
  SPIN (HrModelArch, shared_blocks, 0, HR_MAX_SHARED_BLOCKS, 1, N_("Shared blocks"),
        N_("Zamba2's shared transformer blocks, which the pattern's S blocks take in turn; 0: none"),
        OPTIONAL (0), .applies = hr_applies_shared),
  SPIN (HrModelArch, shared_adapter_rank, 0, HR_MAX_LORA_RANK, 8, N_("Shared block adapter rank"),
        N_("The rank of the adapter each use of a shared block adds to its MLP; 0: none"),
        OPTIONAL (0), .applies = hr_applies_shared),
  SWITCH (HrModelArch, shared_attention_adapters, N_("Shared block attention adapters"),
          N_("Each use of a shared block adds adapters to Q, K and V too"),
          OPTIONAL (FALSE), .applies = hr_applies_shared),
  CHOICE (HrModelArch, vision, hr_vision_names, vision_choices, N_("Vision tower"),
          N_("A vision-language model's image encoder"), OPTIONAL (HR_VISION_NONE)),
  SPIN (HrModelArch, vision_layers, 0, HR_MAX_LAYERS, 1, N_("Vision layers"), NULL, OPTIONAL (0),
        .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_hidden, 0, HR_MAX_HIDDEN, 64, N_("Vision hidden size"), NULL, OPTIONAL (0),
        .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_heads, 0, HR_MAX_HEADS, 1, N_("Vision attention heads"), NULL,
        OPTIONAL (0), .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_ffn, 0, HR_MAX_FFN, 64, N_("Vision MLP width"), NULL, OPTIONAL (0),
        .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_patch, 0, HR_MAX_IMAGE, 1, N_("Vision patch size"),
        N_("Pixels per side of one patch"), OPTIONAL (0), .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_image, 0, HR_MAX_IMAGE, 1, N_("Vision image size"),
        N_("Pixels per side of one image; a multiple of the patch size"), OPTIONAL (0),
        .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_channels, 0, 64, 1, N_("Image channels"), N_("0: 3 (RGB)"),
        OPTIONAL (0), .applies = hr_applies_vision),
  SPIN (HrModelArch, vision_feature_layer, 0, HR_MAX_LAYERS, 1, N_("Feature layer"),
        N_("The vision layer whose output the projector reads, from 1; 0: the last"),
        OPTIONAL (0), .applies = hr_applies_vision),
  CHOICE (HrModelArch, projector, hr_projector_names, projector_choices, N_("Projector"),
          N_("What carries image features into the language model"), OPTIONAL (HR_PROJECTOR_NONE),
          .applies = hr_applies_vision),
  SPIN (HrModelArch, projector_merge, 0, 64, 1, N_("Spatial merge size"),
        N_("The patch merger joins this many × this many patches into one token; 0: 1"),
        OPTIONAL (0), .applies = hr_applies_patch_merger),
  SPIN (HrModelArch, vision_global_layers, 0, HR_MAX_LAYERS, 1, N_("Global vision layers"),
        N_("Gated layers over all of an image's tiles, after the local ones"), OPTIONAL (0),
        .applies = hr_applies_mllama),
  SPIN (HrModelArch, vision_tiles, 0, HR_MAX_TILES, 1, N_("Tiles per image"),
        N_("An image is cut into this many tiles of the image size (max_num_tiles)"),
        OPTIONAL (0), .applies = hr_applies_mllama),
  SPIN (HrModelArch, vision_aspect_ratios, 0, HR_MAX_TILES * HR_MAX_TILES, 1,
        N_("Tile aspect ratios"),
        N_("The tilings the tile embeddings have a row for (supported_aspect_ratios)"),
        OPTIONAL (0), .applies = hr_applies_mllama),
  SPIN (HrModelArch, vision_intermediate_layers, 0, HR_MAX_LAYERS, 1,
        N_("Intermediate feature layers"),
        N_("Local layers whose outputs join the last layer's as the features"), OPTIONAL (0),
        .applies = hr_applies_mllama),
  SPIN (HrModelArch, cross_attn_layer_period, 0, HR_MAX_LAYERS, 1,
        N_("Cross-attention layer period"),
        N_("Every N-th layer attends to the image features instead of the text; 0: none"),
        OPTIONAL (0), .applies = hr_applies_mllama),
  SPIN (HrModelArch, cross_attn_layer_offset, 0, HR_MAX_LAYERS, 1,
        N_("Cross-attention layer offset"),
        N_("The first cross-attention layer, counted from 0"), OPTIONAL (0),
        .applies = hr_applies_mllama),
};

const Field hr_training_fields[] = {
  /* Checked against the profiles by the reader (src/io: they are data). */
  { .key = "framework", .kind = F_NAME, .offset = G_STRUCT_OFFSET (HrTraining, framework),
    .size = HR_ID_MAX, .label = N_("Framework"), .flags = HR_FIELD_OPTIONAL },
  CHOICE (HrTraining, method, hr_method_names, method_choices, N_("Method"), NULL),
  CHOICE (HrTraining, quant, hr_quant_names, NULL, N_("Quantization"),
          N_("The frozen base of QLoRA"), .applies = hr_applies_qlora),
  SWITCH (HrTraining, quant_lm_head, N_("Quantize the LM head"), N_("LitGPT does, PEFT does not"),
          OPTIONAL (FALSE), .applies = hr_applies_qlora),
  CHOICE (HrTraining, dequant_dtype, hr_dtype_names, unpacked_choices, N_("4-bit weights unpack to"),
          N_("Lightning quantizes from fp16"), OPTIONAL (HR_DTYPE_NONE), .applies = hr_applies_qlora),
  CHOICE (HrTraining, precision, hr_precision_names, NULL, N_("Precision"), NULL),
  CHOICE (HrTraining, fp8_recipe, hr_fp8_recipe_names, fp8_recipe_choices, N_("fp8 by"),
          N_("Transformer Engine keeps fp8 weight copies, MXFP8 two with their scales; torchao casts per matmul"),
          OPTIONAL (HR_FP8_RECIPE_TE), .applies = hr_applies_fp8),
  SWITCH (HrTraining, fp8_all_gather, N_("FSDP2 gathers weights in fp8"),
          N_("torchao's enable_fsdp_float8_all_gather, tensorwise scaling only"), OPTIONAL (FALSE),
          .applies = hr_applies_fp8_all_gather),
  /* Its choices are labelled by its rows (hr-optimizers.c). */
  CHOICE (HrTraining, optimizer, hr_optimizer_names, NULL, N_("Optimizer"), NULL),
  CHOICE (HrTraining, optimizer_impl, hr_optimizer_impl_names, optimizer_impl_choices,
          N_("Optimizer step"), N_("How much scratch memory the step uses")),
  /* GaLore's README and torchrun_main.py: --rank 128 (its 60M runs; the
   * paper's Table 2 uses 128 to 512 by model size). */
  SPIN (HrTraining, galore_rank, 1, HR_MAX_LORA_RANK, 64, N_("GaLore rank"),
        N_("Rank the gradients are projected to; the paper uses 128 to 512"), OPTIONAL (128),
        .applies = hr_applies_galore),
  SPIN (HrTraining, micro_batch, 1, HR_MAX_MICRO_BATCH, 1, N_("Micro-batch"),
        N_("Sequences per GPU per step")),
  SPIN (HrTraining, seq_len, 1, HR_MAX_SEQ_LEN, 128, N_("Sequence length"), N_("Tokens")),
  SPIN (HrTraining, target_len, 0, HR_MAX_SEQ_LEN, 128, N_("Target length"),
        N_("The decoder's tokens; 0: the sequence length"), OPTIONAL (0),
        .applies = hr_applies_encoder_decoder),
  SPIN (HrTraining, grad_accum, 1, HR_MAX_MICRO_BATCH, 1, N_("Gradient accumulation"),
        N_("Micro-batches per optimizer step")),
  CHOICE (HrTraining, checkpointing, hr_checkpointing_names, checkpointing_choices,
          N_("Activation checkpointing"), NULL),
  SPIN (HrTraining, checkpoint_every, 1, HR_MAX_LAYERS, 1, N_("Checkpoint every"),
        N_("Every N-th layer only; the others keep all they save"), OPTIONAL (1),
        .applies = hr_applies_full_checkpointing),
  CHOICE (HrTraining, attention, hr_attention_names, NULL, N_("Attention"), NULL),
  CHOICE (HrTraining, loss, hr_loss_names, NULL, N_("Loss"), NULL),
  SPIN (HrTraining, loss_chunk_tokens, 1, HR_MAX_SEQ_LEN, 16, N_("Loss chunk"),
        N_("Tokens of each sequence per chunk (LitGPT: 128)"), OPTIONAL (128),
        .applies = hr_applies_chunked_loss),
  SPIN (HrTraining, loss_chunks, 0, HR_MAX_SEQ_LEN, 1, N_("Loss chunks"),
        N_("Chunks per sequence instead (torchtune: 8); 0: by tokens"), OPTIONAL (0),
        .applies = hr_applies_chunked_loss),
  SWITCH (HrTraining, logits_fp32, N_("fp32 logits for the loss"), N_("Hugging Face upcasts them"),
          .applies = hr_applies_logits_fp32),
  SWITCH (HrTraining, logits_fp32_in_model, N_("Model returns fp32 logits"),
          N_("transformers before 4.46 upcast them in the model"), OPTIONAL (FALSE),
          .applies = hr_applies_logits_fp32),
  SWITCH (HrTraining, compile, N_("torch.compile"),
          N_("Fused graphs recompute what is cheap; the loss keeps 16-bit logits"), OPTIONAL (FALSE)),
  /* torchtitan's compile.components, ["model", "loss"] by default; its
   * training.compile left the loss eager before 2024-10-22 (e10cb94) and
   * from 2024-12-18 (e8977b0) to 2025-04-02 (bbb1b61). */
  SWITCH (HrTraining, compile_loss, N_("Compile the loss too"),
          N_("Off: each layer compiled, the loss eager (torchtitan 2024-12 to 2025-04)"), OPTIONAL (TRUE),
          .applies = hr_applies_compile),
  SWITCH (HrTraining, zero_grad_to_none, N_("Free gradients after each step"),
          N_("zero_grad(set_to_none=True), PyTorch 2's default"), OPTIONAL (TRUE)),
  SWITCH (HrTraining, optimizer_in_backward, N_("Optimizer step in backward"),
          N_("torchtune: each gradient is applied and freed at once"), OPTIONAL (FALSE)),
  SWITCH (HrTraining, activation_offloading, N_("Offload activations to CPU"),
          N_("Saved activations stream to host memory"), OPTIONAL (FALSE)),
  SWITCH (HrTraining, previous_graph_alive, N_("Loss kept into the next forward"),
          N_("LitGPT's loop: the last 4-bit inputs stay allocated"), OPTIONAL (FALSE),
          .applies = hr_applies_qlora),
  SPIN (HrTraining, images_per_sample, 0, HR_MAX_IMAGES, 1, N_("Images per sample"),
        N_("LLaVA, Qwen2-VL: their tokens are part of the sequence length; Llama 3.2 Vision: "
           "its cross-attention reads them"), OPTIONAL (1), .applies = hr_applies_vision),
  SWITCH (HrTraining, freeze_vision, N_("Frozen vision tower"),
          N_("The image encoder is not trained (LLaVA's fine-tuning)"), OPTIONAL (FALSE),
          .applies = hr_applies_vision),
  SWITCH (HrTraining, attention_buffer, N_("Attention score buffer kept"),
          N_("Megatron's unfused attention keeps one buffer for its scores"), OPTIONAL (FALSE),
          .applies = hr_applies_eager_attention),
};

/* training.lora: offsets in HrTraining; the targets are an array of names,
 * read and written by hand (hr-scenario-reader.c, hr-scenario-writer.c). */
const Field hr_lora_fields[] = {
  { .key = "rank", .kind = F_UINT, .offset = G_STRUCT_OFFSET (HrTraining, lora_rank),
    .min = 1, .max = HR_MAX_LORA_RANK, .step = 1, .label = N_("LoRA rank"),
    .flags = HR_FIELD_RANGE_WHERE_APPLIES, .applies = hr_applies_lora },
  { .key = "dropout", .kind = F_DOUBLE, .offset = G_STRUCT_OFFSET (HrTraining, lora_dropout),
    .min = 0, .max = 0.99, .step = 0.05, .digits = 2, .label = N_("LoRA dropout"),
    .flags = HR_FIELD_OPTIONAL | HR_FIELD_RANGE_WHERE_APPLIES, .absent = 0, .applies = hr_applies_lora },
  { .key = "fused_qkv", .kind = F_BOOL, .offset = G_STRUCT_OFFSET (HrTraining, lora_fused_qkv),
    .label = N_("One input for Q, K, V adapters"), .help = N_("LitGPT's fused QKV layer drops it out once"),
    OPTIONAL (FALSE), .applies = hr_applies_lora },
  /* PEFT's LoraConfig(use_dora=True): Liu et al. 2024. */
  { .key = "dora", .kind = F_BOOL, .offset = G_STRUCT_OFFSET (HrTraining, lora_dora),
    .label = N_("DoRA"), .help = N_("Weight-decomposed LoRA: a trainable magnitude per output of each adapted layer"),
    OPTIONAL (FALSE), .applies = hr_applies_lora },
};

/* training.dtypes: a file names only the parts it overrides (dtypes_set). */
const Field hr_dtype_fields[] = {
  CHOICE (HrDtypes, weights, hr_dtype_names, dtype_choices, N_("Weights"), NULL),
  CHOICE (HrDtypes, grads, hr_dtype_names, dtype_choices, N_("Gradients"), NULL),
  CHOICE (HrDtypes, master, hr_dtype_names, dtype_choices, N_("Master weights"), NULL),
  CHOICE (HrDtypes, optimizer, hr_dtype_names, dtype_choices, N_("Optimizer states"), NULL),
  CHOICE (HrDtypes, activations, hr_dtype_names, dtype_choices, N_("Activations"), NULL),
};

const Field hr_parallel_fields[] = {
  SPIN (HrParallel, gpus, 1, HR_MAX_GPUS, 1, N_("GPUs"), N_("A multiple of tensor × pipeline × context")),
  SPIN (HrParallel, gpus_per_node, 1, 1024, 1, N_("GPUs per node"), NULL),
  SPIN (HrParallel, tp, 1, HR_MAX_HEADS, 1, N_("Tensor parallel"), NULL),
  SPIN (HrParallel, pp, 1, HR_MAX_PP, 1, N_("Pipeline parallel"), NULL),
  SPIN (HrParallel, vpp, 1, 64, 1, N_("Virtual pipeline stages"), N_("Interleaved 1F1B"),
        .applies = hr_applies_pipeline),
  CHOICE (HrParallel, schedule, hr_schedule_names, schedule_choices, N_("Pipeline schedule"),
          N_("How many micro-batches each stage holds: ZB-H2 twice 1F1B's, DualPipe two chunks per GPU"),
          OPTIONAL (HR_SCHEDULE_1F1B), .applies = hr_applies_pipeline),
  CHOICE (HrParallel, pp_buffers, hr_pp_buffers_names, pp_buffers_choices, N_("Pipeline buffers"),
          N_("torch.distributed.pipelining keeps a receive buffer for every micro-batch"),
          OPTIONAL (HR_PP_BUFFERS_NONE), .applies = hr_applies_pipeline),
  SPIN (HrParallel, cp, 1, HR_MAX_GPUS, 1, N_("Context parallel"), NULL),
  SPIN (HrParallel, ep, 1, HR_MAX_EXPERTS, 1, N_("Expert parallel"), NULL,
        .applies = hr_applies_expert_parallel),
  SWITCH (HrParallel, sp, N_("Sequence parallel"), N_("Splits what tensor parallelism replicates"),
          .applies = hr_applies_sequence_parallel),
  SPIN (HrParallel, zero, 0, 3, 1, N_("ZeRO stage / FSDP"), NULL),
  SPIN (HrParallel, shard_group, 0, HR_MAX_GPUS, 1, N_("Shard group"),
        N_("Hybrid sharding; 0: all data-parallel GPUs"), .applies = hr_applies_sharded),
  SWITCH (HrParallel, offload_optimizer, N_("Offload optimizer to CPU"), NULL),
  SWITCH (HrParallel, offload_params, N_("Offload parameters to CPU"), NULL,
          .applies = hr_applies_offload_params),
  CHOICE (HrParallel, offload_optimizer_device, hr_offload_device_names, offload_device_choices,
          N_("Optimizer offloaded to"), N_("NVMe (ZeRO-Infinity) takes no host memory for it"),
          OPTIONAL (HR_OFFLOAD_DEVICE_CPU), .applies = hr_applies_offload_optimizer_device),
  CHOICE (HrParallel, offload_params_device, hr_offload_device_names, offload_device_choices,
          N_("Parameters offloaded to"), NULL,
          OPTIONAL (HR_OFFLOAD_DEVICE_CPU), .applies = hr_applies_offload_params_device),
  SWITCH (HrParallel, no_sync, N_("Accumulate without syncing"), N_("FSDP no_sync keeps gradients unsharded"),
          OPTIONAL (FALSE), .applies = hr_applies_no_sync),
  SWITCH (HrParallel, deepspeed, N_("DeepSpeed engine"),
          N_("Its flat gradient partition and reduce buckets, sized as its zero_optimization says"),
          OPTIONAL (FALSE), .applies = hr_applies_sharded),
  /* DeepSpeed's zero_optimization keys and its defaults
   * (deepspeed/runtime/zero/config.py, DeepSpeedZeroConfig). */
  SPIN (HrParallel, reduce_bucket_size, 1, HR_MAX_DS_ELEMENTS, 1e6, N_("Reduce bucket"),
        N_("Gradient elements DeepSpeed reduces at once (reduce_bucket_size)"),
        OPTIONAL (5e8), .applies = hr_applies_deepspeed),
  SWITCH (HrParallel, overlap_comm, N_("Overlap communication"),
          N_("ZeRO-1/2: a second reduce bucket, filled while the first is reduced (overlap_comm)"),
          OPTIONAL (FALSE), .applies = hr_applies_deepspeed_12),
  SPIN (HrParallel, stage3_prefetch_bucket_size, 0, HR_MAX_DS_ELEMENTS, 1e6, N_("Prefetch bucket"),
        N_("Weight elements ZeRO-3 gathers ahead (stage3_prefetch_bucket_size)"),
        OPTIONAL (5e7), .applies = hr_applies_deepspeed_3),
  SPIN (HrParallel, stage3_max_live_parameters, 0, HR_MAX_DS_ELEMENTS, 1e6, N_("Most live parameters"),
        N_("Gathered weight elements ZeRO-3 allows at once (stage3_max_live_parameters)"),
        OPTIONAL (1e9), .applies = hr_applies_deepspeed_3),
  SPIN (HrParallel, stage3_max_reuse_distance, 0, HR_MAX_DS_ELEMENTS, 1e6, N_("Reuse distance"),
        N_("Weights used again within this many elements stay gathered (stage3_max_reuse_distance)"),
        OPTIONAL (1e9), .applies = hr_applies_deepspeed_3),
  SPIN (HrParallel, stage3_param_persistence_threshold, 0, HR_MAX_DS_ELEMENTS, 1e3,
        N_("Persistence threshold"),
        N_("Weights this small stay whole on every GPU (stage3_param_persistence_threshold)"),
        OPTIONAL (1e5), .applies = hr_applies_deepspeed_3),
  SPIN (HrParallel, sub_group_size, 1, HR_MAX_DS_ELEMENTS, 1e6, N_("Optimizer sub-group"),
        N_("Elements ZeRO-3 steps at a time, each with its fp32 gradients (sub_group_size)"),
        OPTIONAL (1e9), .applies = hr_applies_deepspeed_3),
  SPIN (HrParallel, fsdp, 1, 2, 1, N_("FSDP version"),
        N_("1: flat parameters (FSDP1); 2: per-parameter, fully_shard (FSDP2)"), OPTIONAL (2),
        .applies = hr_applies_fsdp),
  CHOICE (HrParallel, fsdp_units, hr_fsdp_units_names, fsdp_units_choices, N_("FSDP2 units"),
          N_("torchtitan before 2025 and accelerate wrap only the blocks: the rest stays gathered all step"),
          OPTIONAL (HR_FSDP_UNITS_SEPARATE), .applies = hr_applies_fsdp2),
};

const Field hr_gpu_fields[] = {
  TEXT (HrGpu, name, N_("Name")),
  SPIN (HrGpu, memory_mib, 1, HR_MAX_MEMORY_MIB, 1024, N_("Memory"), N_("MiB, as nvidia-smi reports it")),
  REAL (HrGpu, bf16_tflops, 0, 1e6, 1, 0, N_("bf16 TFLOPS"), N_("Dense peak, for the time estimate"),
        OPTIONAL (0)),
  REAL (HrGpu, fp8_tflops, 0, 1e6, 1, 0, N_("fp8 TFLOPS"),
        N_("Dense fp8 peak, for the time estimate of fp8 training; 0: none or unknown"),
        OPTIONAL (0)),
  REAL (HrGpu, compute_capability, 0, 99, 0.1, 1, N_("Compute capability"),
        N_("CUDA's, as nvidia-smi --query-gpu=compute_cap shows it; 0: not NVIDIA, or not known"),
        OPTIONAL (0)),
  /* -1: cuBLAS's default for the compute capability (hr-calc.c). */
  REAL (HrGpu, blas_workspace_mib, -1, 65536, 8, 0, N_("BLAS workspace"),
        N_("MiB the matrix libraries keep for each thread that multiplies; Automatic: cuBLAS's default"),
        OPTIONAL (-1)),
  SKIP ("source"),
  SKIP ("notes"),
};

const Field hr_cost_fields[] = {
  REAL (HrCost, tokens, 0, 1e18, 1e9, 1, N_("Tokens to train on"), N_("Billions; 0: no estimate"),
        .unit = HR_FIELD_BILLIONS),
  REAL (HrCost, mfu, 0, 1, 0.01, 0, N_("Model FLOPs utilisation"),
        /* xgettext:no-c-format */
        N_("40 % is typical of large runs"), .unit = HR_FIELD_PERCENT),
  REAL (HrCost, price_per_gpu_hour, 0, 1e6, 0.1, 2, N_("Price per GPU-hour"), NULL),
};

const Field hr_overhead_fields[] = {
  REAL (HrOverhead, cuda_context_mib, 0, 1048576, 50, 0, N_("CUDA context"), N_("MiB")),
  /* -1: sized from the plan (hr-calc.c), never written. */
  REAL (HrOverhead, comm_buffer_mib, -1, 1048576, 64, 0, N_("Communication buffers"),
        N_("MiB of NCCL buffers"), OPTIONAL (-1)),
  REAL (HrOverhead, fragmentation, 0, 1, 0.01, 0, N_("Allocator fragmentation"),
        N_("Of the allocated memory"), .unit = HR_FIELD_PERCENT),
  REAL (HrOverhead, headroom, 0, 0.95, 0.01, 0, N_("Wanted free memory"),
        /* xgettext:no-c-format */
        N_("10–15 % is the usual advice"), .unit = HR_FIELD_PERCENT),
};

const guint hr_model_fields_count = G_N_ELEMENTS (hr_model_fields);
const guint hr_training_fields_count = G_N_ELEMENTS (hr_training_fields);
const guint hr_lora_fields_count = G_N_ELEMENTS (hr_lora_fields);
const guint hr_dtype_fields_count = G_N_ELEMENTS (hr_dtype_fields);
const guint hr_parallel_fields_count = G_N_ELEMENTS (hr_parallel_fields);
const guint hr_gpu_fields_count = G_N_ELEMENTS (hr_gpu_fields);
const guint hr_cost_fields_count = G_N_ELEMENTS (hr_cost_fields);
const guint hr_overhead_fields_count = G_N_ELEMENTS (hr_overhead_fields);

#define SECTION_OFFSET(member) G_STRUCT_OFFSET (HrScenario, member)

/* In the order a file lists them; a sub-section after its parent. */
const HrFieldSection hr_field_sections[] = {
  { "model", hr_model_fields, &hr_model_fields_count, SECTION_OFFSET (model) },
  { "training", hr_training_fields, &hr_training_fields_count, SECTION_OFFSET (training) },
  { "training.lora", hr_lora_fields, &hr_lora_fields_count, SECTION_OFFSET (training) },
  { "training.dtypes", hr_dtype_fields, &hr_dtype_fields_count,
    SECTION_OFFSET (training) + G_STRUCT_OFFSET (HrTraining, dtypes) },
  { "parallel", hr_parallel_fields, &hr_parallel_fields_count, SECTION_OFFSET (parallel) },
  { "gpu", hr_gpu_fields, &hr_gpu_fields_count, SECTION_OFFSET (gpu) },
  { "overhead", hr_overhead_fields, &hr_overhead_fields_count, SECTION_OFFSET (overhead) },
  { "cost", hr_cost_fields, &hr_cost_fields_count, SECTION_OFFSET (cost) },
};

const guint hr_field_sections_count = G_N_ELEMENTS (hr_field_sections);
