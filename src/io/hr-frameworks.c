/* hr-frameworks.c: what a training framework does that changes memory
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each framework is the scenario values its code implies, so that choosing
 * "LitGPT" in the window or `--framework litgpt` plans what the measured
 * LitGPT runs were validated with (hr-measured.c applies the same list).
 * Every value is read off the framework's code; the comments say where.
 */

#include "hr-frameworks.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-scenario-io.h"
#include "hr-validate.h"

/* LitGPT 0.4 (2024): litgpt/finetune/{lora,full}.py, litgpt/model.py,
 * litgpt/lora.py, and Lightning's BitsandbytesPrecision plugin. */
static const char * const litgpt[] = {
  /* TrainArgs.tie_embeddings is unset: the head is a parameter of its own. */
  "model.tied_embeddings=false",
  /* chunked_cross_entropy on the bf16 logits, 128 positions at a time. */
  "training.loss=chunked",
  "training.logits_fp32=false",
  /* CausalSelfAttention expands K and V to every head for SDPA. */
  "training.attention=sdpa",
  /* LoRAQKVLinear: one fused QKV linear, one dropout for its adapters. */
  "training.lora.fused_qkv=true",
  /* fit() keeps `loss` and `logits` until the next forward returns. */
  "training.previous_graph_alive=true",
  /* The plugin replaces every nn.Linear, the LM head too, and quantizes
   * from fp16 (_Linear4bit._quantize_weight). */
  "training.quant_lm_head=true",
  "training.dequant_dtype=fp16",
  "training.zero_grad_to_none=true",
  /* Accumulation runs inside fabric.no_backward_sync. */
  "parallel.no_sync=true",
  NULL
};

/* Hugging Face Trainer with PEFT (transformers 4.36 to 4.44, PyTorch 2). */
static const char * const hf_trainer[] = {
  /* The model's CrossEntropyLoss over all logits, upcast to fp32 first
   * (LlamaForCausalLM.forward: logits = logits.float()). */
  "training.loss=standard",
  "training.logits_fp32=true",
  /* attn_implementation="sdpa" by default; repeat_kv copies K and V. */
  "training.attention=sdpa",
  /* PEFT wraps q_proj, k_proj and v_proj one by one. */
  "training.lora.fused_qkv=false",
  /* training_step returns loss.detach(): the graph is freed. */
  "training.previous_graph_alive=false",
  /* BitsAndBytesConfig keeps lm_head in 16 bits (get_keys_to_not_convert)
   * and quantizes weights in the type they were loaded in. */
  "training.quant_lm_head=false",
  "training.dequant_dtype=none",
  "training.zero_grad_to_none=true",
  /* accelerate's accumulate() skips the gradient sync (no_sync). */
  "parallel.no_sync=true",
  NULL
};

static const HrFramework frameworks[] = {
  { "litgpt", N_("LitGPT"),
    N_("Chunked loss on bf16 logits, SDPA, fused QKV, 4-bit head from fp16, loss kept"),
    litgpt },
  { "hf-trainer", N_("Hugging Face Trainer + PEFT"),
    N_("fp32 logits, SDPA, separate Q/K/V adapters, 16-bit head, graph freed"),
    hf_trainer },
};

guint
hr_frameworks_count (void)
{
  return G_N_ELEMENTS (frameworks);
}

const HrFramework *
hr_framework_get (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (frameworks), NULL);
  return &frameworks[index];
}

const HrFramework *
hr_framework_find (const char *id)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (frameworks); i++)
    if (strcmp (frameworks[i].id, id) == 0)
      return &frameworks[i];
  return NULL;
}

char *
hr_frameworks_allowed (void)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (frameworks); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", frameworks[i].id);
  return g_string_free (out, FALSE);
}

gboolean
hr_framework_apply_json (const HrFramework *framework,
                         JsonObject        *root,
                         GError           **error)
{
  g_return_val_if_fail (framework != NULL && root != NULL, FALSE);

  for (guint i = 0; framework->assignments[i] != NULL; i++)
    if (!hr_json_set_path (root, framework->assignments[i], error))
      return FALSE;
  return TRUE;
}

gboolean
hr_framework_apply (const HrFramework *framework,
                    HrScenario        *scenario,
                    HrPresets         *presets,
                    GError           **error)
{
  HrScenario changed = *scenario;

  g_return_val_if_fail (framework != NULL && scenario != NULL, FALSE);

  /* Field by field on the struct, through the same table and checks as a
   * file's values, without a round trip through JSON text. */
  for (guint i = 0; framework->assignments[i] != NULL; i++)
    if (!hr_scenario_set (&changed, framework->assignments[i], presets, framework->id, error))
      return FALSE;
  if (!hr_scenario_validate (&changed, error))
    {
      g_prefix_error (error, "%s: ", framework->id);
      return FALSE;
    }
  *scenario = changed;
  return TRUE;
}

gboolean
hr_framework_matches (const HrFramework *framework,
                      const HrScenario  *scenario)
{
  /* Field by field: the drop-down asks after every change. */
  for (guint i = 0; framework->assignments[i] != NULL; i++)
    if (!hr_scenario_has_value (scenario, framework->assignments[i]))
      return FALSE;
  return TRUE;
}
