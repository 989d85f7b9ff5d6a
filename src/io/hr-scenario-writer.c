/* hr-scenario-writer.c: scenario files out (CONTRACT.md section 1)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A saved scenario spells out the whole architecture, so it plans the same
 * on a machine whose presets differ; extension keys are written only when
 * they differ from their defaults, to keep files short and readable.
 */

#include "hr-scenario-io.h"
#include "hr-error.h"
#include "hr-json.h"

#define ENUM_NAME(table, v) hr_enum_name (&(table), (guint) (v))

static void
add_model (JsonBuilder       *b,
           const HrModelArch *m)
{
  json_builder_set_member_name (b, "model");
  json_builder_begin_object (b);
  if (m->preset[0] != '\0')
    {
      json_builder_set_member_name (b, "preset");
      json_builder_add_string_value (b, m->preset);
    }
#define U(k) G_STMT_START { json_builder_set_member_name (b, #k); \
                            json_builder_add_int_value (b, (gint64) m->k); } G_STMT_END
#define B(k) G_STMT_START { json_builder_set_member_name (b, #k); \
                            json_builder_add_boolean_value (b, m->k); } G_STMT_END
#define E(k, t) G_STMT_START { json_builder_set_member_name (b, #k); \
                               json_builder_add_string_value (b, ENUM_NAME (t, m->k)); } G_STMT_END
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, m->name);
  E (kind, hr_kind_names);
  U (layers); U (hidden); U (heads); U (kv_heads);
  if (m->head_dim > 0)
    U (head_dim);
  U (ffn);
  E (mlp, hr_mlp_names);
  U (vocab);
  B (tied_embeddings);
  E (norm, hr_norm_names);
  E (bias, hr_bias_names);
  B (parallel_block);
  U (learned_positions);
  U (experts); U (experts_active);
  B (dropout);
  E (head, hr_head_names);
  U (classes);
  if (m->expert_ffn > 0) U (expert_ffn);
  if (m->norms_per_layer > 0) U (norms_per_layer);
  if (m->qk_norm != HR_QK_NORM_NONE) E (qk_norm, hr_qk_norm_names);
  if (m->lm_head_bias) B (lm_head_bias);
  if (m->token_types > 0) U (token_types);
  if (m->pooler) B (pooler);
  if (m->patch_dim > 0) U (patch_dim);
#undef U
#undef B
#undef E
  json_builder_end_object (b);
}

static void
add_training (JsonBuilder      *b,
              const HrTraining *t)
{
  static const char * const dtype_keys[] = { "weights", "grads", "master", "optimizer",
                                             "activations" };
  const HrDtype *dtypes = (const HrDtype *) &t->dtypes;

  json_builder_set_member_name (b, "training");
  json_builder_begin_object (b);
#define U(k) G_STMT_START { json_builder_set_member_name (b, #k); \
                            json_builder_add_int_value (b, (gint64) t->k); } G_STMT_END
#define E(k, tb) G_STMT_START { json_builder_set_member_name (b, #k); \
                                json_builder_add_string_value (b, ENUM_NAME (tb, t->k)); } G_STMT_END
  E (method, hr_method_names);
  json_builder_set_member_name (b, "lora");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "rank");
  json_builder_add_int_value (b, (gint64) t->lora_rank);
  json_builder_set_member_name (b, "targets");
  json_builder_begin_array (b);
  for (guint i = 0; i < HR_N_LORA_TARGETS; i++)
    if (t->lora_targets & (1u << i))
      json_builder_add_string_value (b, hr_enum_name (&hr_lora_target_names, i));
  json_builder_end_array (b);
  if (t->lora_dropout > 0)
    {
      json_builder_set_member_name (b, "dropout");
      json_builder_add_double_value (b, t->lora_dropout);
    }
  if (t->lora_fused_qkv)
    {
      json_builder_set_member_name (b, "fused_qkv");
      json_builder_add_boolean_value (b, TRUE);
    }
  json_builder_end_object (b);
  E (quant, hr_quant_names);
  if (t->quant_lm_head)
    {
      json_builder_set_member_name (b, "quant_lm_head");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (t->dequant_dtype != HR_DTYPE_NONE)
    E (dequant_dtype, hr_dtype_names);
  E (precision, hr_precision_names);
  if (t->dtypes_set != 0)
    {
      json_builder_set_member_name (b, "dtypes");
      json_builder_begin_object (b);
      for (guint i = 0; i < G_N_ELEMENTS (dtype_keys); i++)
        if (t->dtypes_set & (1u << i))
          {
            json_builder_set_member_name (b, dtype_keys[i]);
            json_builder_add_string_value (b, hr_enum_name (&hr_dtype_names, dtypes[i]));
          }
      json_builder_end_object (b);
    }
  E (optimizer, hr_optimizer_names);
  E (optimizer_impl, hr_optimizer_impl_names);
  U (micro_batch); U (seq_len); U (grad_accum);
  E (checkpointing, hr_checkpointing_names);
  E (attention, hr_attention_names);
  E (loss, hr_loss_names);
  json_builder_set_member_name (b, "logits_fp32");
  json_builder_add_boolean_value (b, t->logits_fp32);
  if (t->optimizer_in_backward)
    {
      json_builder_set_member_name (b, "optimizer_in_backward");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (t->activation_offloading)
    {
      json_builder_set_member_name (b, "activation_offloading");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (t->previous_graph_alive)
    {
      json_builder_set_member_name (b, "previous_graph_alive");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (!t->zero_grad_to_none)
    {
      json_builder_set_member_name (b, "zero_grad_to_none");
      json_builder_add_boolean_value (b, FALSE);
    }
#undef U
#undef E
  json_builder_end_object (b);
}

static void
add_parallel (JsonBuilder      *b,
              const HrParallel *p)
{
  json_builder_set_member_name (b, "parallel");
  json_builder_begin_object (b);
#define U(k) G_STMT_START { json_builder_set_member_name (b, #k); \
                            json_builder_add_int_value (b, (gint64) p->k); } G_STMT_END
#define B(k) G_STMT_START { json_builder_set_member_name (b, #k); \
                            json_builder_add_boolean_value (b, p->k); } G_STMT_END
  U (gpus); U (gpus_per_node); U (tp); U (pp); U (vpp); U (cp); U (ep);
  B (sp);
  U (zero); U (shard_group);
  B (offload_optimizer); B (offload_params);
  if (p->offload_optimizer_device != HR_OFFLOAD_DEVICE_CPU)
    {
      json_builder_set_member_name (b, "offload_optimizer_device");
      json_builder_add_string_value (b, ENUM_NAME (hr_offload_device_names,
                                                   p->offload_optimizer_device));
    }
  if (p->offload_params_device != HR_OFFLOAD_DEVICE_CPU)
    {
      json_builder_set_member_name (b, "offload_params_device");
      json_builder_add_string_value (b, ENUM_NAME (hr_offload_device_names,
                                                   p->offload_params_device));
    }
  if (p->no_sync)
    B (no_sync);
#undef U
#undef B
  json_builder_end_object (b);
}

static void
add_rest (JsonBuilder      *b,
          const HrScenario *sc)
{
  const HrOverhead *o = &sc->overhead;

  json_builder_set_member_name (b, "gpu");
  json_builder_begin_object (b);
  if (sc->gpu.preset[0] != '\0')
    {
      json_builder_set_member_name (b, "preset");
      json_builder_add_string_value (b, sc->gpu.preset);
    }
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, sc->gpu.name);
  json_builder_set_member_name (b, "memory_mib");
  json_builder_add_int_value (b, (gint64) sc->gpu.memory_mib);
  if (sc->gpu.bf16_tflops > 0)
    {
      json_builder_set_member_name (b, "bf16_tflops");
      json_builder_add_double_value (b, sc->gpu.bf16_tflops);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "overhead");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "cuda_context_mib");
  json_builder_add_double_value (b, o->cuda_context_mib);
  if (o->comm_buffer_mib >= 0)
    {
      json_builder_set_member_name (b, "comm_buffer_mib");
      json_builder_add_double_value (b, o->comm_buffer_mib);
    }
  json_builder_set_member_name (b, "fragmentation");
  json_builder_add_double_value (b, o->fragmentation);
  json_builder_set_member_name (b, "headroom");
  json_builder_add_double_value (b, o->headroom);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "cost");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "tokens");
  json_builder_add_double_value (b, sc->cost.tokens);
  json_builder_set_member_name (b, "mfu");
  json_builder_add_double_value (b, sc->cost.mfu);
  json_builder_set_member_name (b, "price_per_gpu_hour");
  json_builder_add_double_value (b, sc->cost.price_per_gpu_hour);
  json_builder_end_object (b);
}

JsonNode *
hr_scenario_to_json (const HrScenario *scenario)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

  g_return_val_if_fail (scenario != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "headroom");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, scenario->name);
  if (scenario->description[0] != '\0')
    {
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, scenario->description);
    }
  add_model (b, &scenario->model);
  add_training (b, &scenario->training);
  add_parallel (b, &scenario->parallel);
  add_rest (b, scenario);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
hr_scenario_to_data (const HrScenario *scenario,
                     gsize            *length)
{
  g_autoptr(JsonNode) root = hr_scenario_to_json (scenario);
  g_autofree char *text = hr_json_to_data (root, TRUE, length);

  /* End with a newline, as text files do. */
  if (length != NULL)
    *length += 1;
  return g_strconcat (text, "\n", NULL);
}
