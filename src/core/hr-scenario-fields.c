/* hr-scenario-fields.c: the fields of each section of a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table per section: each field's key, kind and place in the struct.
 * The JSON reader (src/io/hr-fields-read.c), --set and the docs go
 * through these tables.
 */

#include "hr-scenario-fields.h"

const Field hr_model_fields[] = {
  { "name", F_NAME, G_STRUCT_OFFSET (HrModelArch, name), NULL },
  ENUM (HrModelArch, kind, hr_kind_names),
  UINT (HrModelArch, layers),
  UINT (HrModelArch, hidden),
  UINT (HrModelArch, heads),
  UINT (HrModelArch, kv_heads),
  UINT (HrModelArch, head_dim),
  UINT (HrModelArch, ffn),
  ENUM (HrModelArch, mlp, hr_mlp_names),
  UINT (HrModelArch, vocab),
  BOOL (HrModelArch, tied_embeddings),
  ENUM (HrModelArch, norm, hr_norm_names),
  ENUM (HrModelArch, bias, hr_bias_names),
  BOOL (HrModelArch, parallel_block),
  UINT (HrModelArch, learned_positions),
  UINT (HrModelArch, experts),
  UINT (HrModelArch, experts_active),
  BOOL (HrModelArch, dropout),
  ENUM (HrModelArch, head, hr_head_names),
  UINT (HrModelArch, classes),
  UINT (HrModelArch, expert_ffn),
  UINT (HrModelArch, norms_per_layer),
  ENUM (HrModelArch, qk_norm, hr_qk_norm_names),
  BOOL (HrModelArch, lm_head_bias),
  UINT (HrModelArch, token_types),
  BOOL (HrModelArch, pooler),
  UINT (HrModelArch, patch_dim),
};

const Field hr_training_fields[] = {
  ENUM (HrTraining, method, hr_method_names),
  ENUM (HrTraining, quant, hr_quant_names),
  BOOL (HrTraining, quant_lm_head),
  ENUM (HrTraining, dequant_dtype, hr_dtype_names),
  ENUM (HrTraining, precision, hr_precision_names),
  ENUM (HrTraining, optimizer, hr_optimizer_names),
  ENUM (HrTraining, optimizer_impl, hr_optimizer_impl_names),
  UINT (HrTraining, micro_batch),
  UINT (HrTraining, seq_len),
  UINT (HrTraining, grad_accum),
  ENUM (HrTraining, checkpointing, hr_checkpointing_names),
  ENUM (HrTraining, attention, hr_attention_names),
  ENUM (HrTraining, loss, hr_loss_names),
  BOOL (HrTraining, logits_fp32),
  BOOL (HrTraining, zero_grad_to_none),
  BOOL (HrTraining, optimizer_in_backward),
  BOOL (HrTraining, activation_offloading),
  BOOL (HrTraining, previous_graph_alive),
};

const Field hr_lora_fields[] = {
  { "rank", F_UINT, G_STRUCT_OFFSET (HrTraining, lora_rank), NULL },
  { "dropout", F_DOUBLE, G_STRUCT_OFFSET (HrTraining, lora_dropout), NULL },
  { "fused_qkv", F_BOOL, G_STRUCT_OFFSET (HrTraining, lora_fused_qkv), NULL },
};

const Field hr_dtype_fields[] = {
  ENUM (HrDtypes, weights, hr_dtype_names),
  ENUM (HrDtypes, grads, hr_dtype_names),
  ENUM (HrDtypes, master, hr_dtype_names),
  ENUM (HrDtypes, optimizer, hr_dtype_names),
  ENUM (HrDtypes, activations, hr_dtype_names),
};

const Field hr_parallel_fields[] = {
  UINT (HrParallel, gpus),
  UINT (HrParallel, gpus_per_node),
  UINT (HrParallel, tp),
  UINT (HrParallel, pp),
  UINT (HrParallel, vpp),
  UINT (HrParallel, cp),
  UINT (HrParallel, ep),
  BOOL (HrParallel, sp),
  UINT (HrParallel, zero),
  UINT (HrParallel, shard_group),
  BOOL (HrParallel, offload_optimizer),
  BOOL (HrParallel, offload_params),
  ENUM (HrParallel, offload_optimizer_device, hr_offload_device_names),
  ENUM (HrParallel, offload_params_device, hr_offload_device_names),
  BOOL (HrParallel, no_sync),
};

const Field hr_gpu_fields[] = {
  { "name", F_NAME, G_STRUCT_OFFSET (HrGpu, name), NULL },
  UINT (HrGpu, memory_mib),
  DBL (HrGpu, bf16_tflops),
  { "source", F_SKIP, 0, NULL },
  { "notes", F_SKIP, 0, NULL },
};

const Field hr_cost_fields[] = {
  DBL (HrCost, tokens),
  DBL (HrCost, mfu),
  DBL (HrCost, price_per_gpu_hour),
};

const Field hr_overhead_fields[] = {
  DBL (HrOverhead, cuda_context_mib),
  DBL (HrOverhead, comm_buffer_mib),
  DBL (HrOverhead, fragmentation),
  DBL (HrOverhead, headroom),
};

const guint hr_model_fields_count = G_N_ELEMENTS (hr_model_fields);
const guint hr_training_fields_count = G_N_ELEMENTS (hr_training_fields);
const guint hr_lora_fields_count = G_N_ELEMENTS (hr_lora_fields);
const guint hr_dtype_fields_count = G_N_ELEMENTS (hr_dtype_fields);
const guint hr_parallel_fields_count = G_N_ELEMENTS (hr_parallel_fields);
const guint hr_gpu_fields_count = G_N_ELEMENTS (hr_gpu_fields);
const guint hr_cost_fields_count = G_N_ELEMENTS (hr_cost_fields);
const guint hr_overhead_fields_count = G_N_ELEMENTS (hr_overhead_fields);
