/* hr-enums.c: names of the scenario's choices
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-enums.h"

#include <string.h>

#define TABLE(var, ...)                                         \
  static const char * const var##_list[] = { __VA_ARGS__ };     \
  const HrEnumNames var = { var##_list, G_N_ELEMENTS (var##_list) }

TABLE (hr_kind_names, "decoder", "encoder", "encoder-decoder");
TABLE (hr_ssm_names, "none", "mamba", "mamba2");
TABLE (hr_vision_names, "none", "clip", "qwen2-vl", "mllama");
TABLE (hr_projector_names, "none", "mlp2x_gelu", "patch_merger", "linear");
TABLE (hr_mlp_names, "swiglu", "geglu", "gelu", "relu", "relu2");
TABLE (hr_norm_names, "rmsnorm", "layernorm");
TABLE (hr_bias_names, "none", "qkv", "all", "all-but-k");
TABLE (hr_head_names, "lm", "classifier");
TABLE (hr_qk_norm_names, "none", "head", "full");
TABLE (hr_attn_kind_names, "standard", "mla");
TABLE (hr_method_names, "full", "lora", "qlora");
TABLE (hr_dtype_names, "fp32", "bf16", "fp16", "fp8", "none");
TABLE (hr_optimizer_impl_names, "foreach", "fused", "loop");
TABLE (hr_checkpointing_names, "none", "selective", "full", "op");
TABLE (hr_offload_device_names, "cpu", "nvme");
TABLE (hr_schedule_names, "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe");
TABLE (hr_fp8_recipe_names, "te", "torchao", "te-mxfp8");
TABLE (hr_fsdp_units_names, "separate", "root");
TABLE (hr_pp_buffers_names, "none", "torch", "torch-outputs");
TABLE (hr_category_names, "parameters", "gradients", "optimizer",
       "activations", "overhead");
TABLE (hr_status_names, "ok", "tight", "oom");
TABLE (hr_lora_target_names, "q", "k", "v", "o", "gate", "up", "down",
       "lm_head", "in_proj", "x_proj", "out_proj", "embed_tokens");

static const char *
name_at (const HrEnumNames  *table,
         const char * const *first,
         guint               i)
{
  gsize stride = table->stride > 0 ? table->stride : sizeof (const char *);

  return *(const char * const *) (gconstpointer) ((const char *) first + i * stride);
}

/* How the window shows VALUE: its label, or its name. */
const char *
hr_enum_label (const HrEnumNames *table,
               guint              value)
{
  g_return_val_if_fail (table != NULL, "?");

  if (value >= table->n_names)
    return "?";
  return table->labels != NULL ? name_at (table, table->labels, value)
                               : name_at (table, table->names, value);
}

gboolean
hr_enum_parse (const HrEnumNames *table,
               const char        *name,
               guint             *out_value)
{
  g_return_val_if_fail (table != NULL, FALSE);

  if (name == NULL)
    return FALSE;

  for (guint i = 0; i < table->n_names; i++)
    {
      if (strcmp (name_at (table, table->names, i), name) == 0)
        {
          *out_value = i;
          return TRUE;
        }
    }

  return FALSE;
}

const char *
hr_enum_name (const HrEnumNames *table,
              guint              value)
{
  g_return_val_if_fail (table != NULL, "?");

  if (value >= table->n_names)
    return "?";

  return name_at (table, table->names, value);
}

/* "a, b or c": for error messages that say what is allowed. */
char *
hr_enum_allowed (const HrEnumNames *table)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < table->n_names; i++)
    {
      if (i > 0)
        g_string_append (s, i + 1 == table->n_names ? " or " : ", ");
      g_string_append (s, name_at (table, table->names, i));
    }

  return g_string_free (s, FALSE);
}

/* Bytes per element, times 8 so that sub-byte formats stay integers. */
guint
hr_dtype_bytes_x8 (HrDtype dtype)
{
  switch (dtype)
    {
    case HR_DTYPE_FP32:
      return 32;
    case HR_DTYPE_BF16:
    case HR_DTYPE_FP16:
      return 16;
    case HR_DTYPE_FP8:
      return 8;
    case HR_DTYPE_NONE:
    case HR_N_DTYPES:
    default:
      return 0;
    }
}

double
hr_dtype_bytes (HrDtype dtype)
{
  return hr_dtype_bytes_x8 (dtype) / 8.0;
}
