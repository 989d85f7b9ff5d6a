/* hr-scenario-applies.c: when each field of a scenario applies
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The field table's `.applies` rules (hr-scenario-fields.c): whether a
 * field means anything for the scenario as it stands (LoRA's rows under
 * LoRA, DeepSpeed's sizes with its engine, an SSM's sizes with SSM layers).
 * The form greys what does not apply, the framework matcher skips it, and
 * the validation checks some ranges only where they apply.
 */

#include "hr-scenario-applies.h"
#include "hr-attentions.h"
#include "hr-losses.h"

#include <string.h>

gboolean
hr_applies_lora (const HrScenario *sc)
{
  return sc->training.method != HR_METHOD_FULL;
}

gboolean
hr_applies_qlora (const HrScenario *sc)
{
  return sc->training.method == HR_METHOD_QLORA;
}

gboolean
hr_applies_galore (const HrScenario *sc)
{
  return sc->training.optimizer == HR_OPTIMIZER_GALORE_ADAMW;
}

gboolean
hr_applies_moe (const HrScenario *sc)
{
  return sc->model.experts > 1;
}

gboolean
hr_applies_expert_parallel (const HrScenario *sc)
{
  return sc->model.experts > 1 || sc->parallel.ep > 1;
}

gboolean
hr_applies_classifier (const HrScenario *sc)
{
  return sc->model.head == HR_HEAD_CLASSIFIER;
}

gboolean
hr_applies_vocab (const HrScenario *sc)
{
  return sc->model.head == HR_HEAD_LM || sc->model.patch_dim == 0;
}

gboolean
hr_applies_logits_fp32 (const HrScenario *sc)
{
  return sc->model.head == HR_HEAD_LM && hr_losses[sc->training.loss].logits
         && !hr_losses[sc->training.loss].own_softmax;
}

gboolean
hr_applies_fp8 (const HrScenario *sc)
{
  return sc->training.precision == HR_PRECISION_FP8_MIXED;
}

gboolean
hr_applies_fp8_all_gather (const HrScenario *sc)
{
  return sc->training.precision == HR_PRECISION_FP8_MIXED
         && sc->training.fp8_recipe == HR_FP8_RECIPE_TORCHAO && sc->parallel.fsdp == 2;
}

gboolean
hr_applies_chunked_loss (const HrScenario *sc)
{
  return sc->model.head == HR_HEAD_LM && hr_losses[sc->training.loss].chunked;
}

gboolean
hr_applies_encoder_decoder (const HrScenario *sc)
{
  return sc->model.kind == HR_KIND_ENCODER_DECODER;
}

gboolean
hr_applies_audio (const HrScenario *sc)
{
  return sc->model.kind == HR_KIND_ENCODER_DECODER && sc->model.audio_mel_bins > 0;
}

gboolean
hr_applies_mla (const HrScenario *sc)
{
  return sc->model.attention_kind == HR_ATTN_KIND_MLA;
}

gboolean
hr_applies_decoder (const HrScenario *sc)
{
  return sc->model.kind == HR_KIND_DECODER;
}

/* A pure SSM model has no attention layer whose heads could be edited;
 * a pattern has them where it has attention blocks. */
gboolean
hr_applies_attention (const HrScenario *sc)
{
  if (sc->model.layer_pattern[0] != '\0')
    return strchr (sc->model.layer_pattern, '*') != NULL || strchr (sc->model.layer_pattern, 'S') != NULL;
  if (sc->model.layer_mixers[0] != '\0')
    return strchr (sc->model.layer_mixers, '*') != NULL;
  return sc->model.ssm == HR_SSM_NONE || sc->model.attn_layer_period > 0;
}

/* Only attention that makes the s × s scores can keep a buffer for them. */
gboolean
hr_applies_eager_attention (const HrScenario *sc)
{
  return hr_applies_attention (sc) && hr_attentions[sc->training.attention].scores;
}

gboolean
hr_applies_ssm (const HrScenario *sc)
{
  return sc->model.ssm != HR_SSM_NONE;
}

/* A pattern with expert blocks (E). */
gboolean
hr_applies_pattern_experts (const HrScenario *sc)
{
  return strchr (sc->model.layer_pattern, 'E') != NULL;
}

/* A layer pattern (Nemotron-H's). */
gboolean
hr_applies_layer_pattern (const HrScenario *sc)
{
  return sc->model.layer_pattern[0] != '\0';
}

/* Zamba2's shared blocks: a pattern with S blocks. */
gboolean
hr_applies_shared (const HrScenario *sc)
{
  return strchr (sc->model.layer_pattern, 'S') != NULL;
}

gboolean
hr_applies_mamba (const HrScenario *sc)
{
  return sc->model.ssm == HR_SSM_MAMBA;
}

gboolean
hr_applies_vision (const HrScenario *sc)
{
  return sc->model.vision != HR_VISION_NONE;
}

gboolean
hr_applies_mllama (const HrScenario *sc)
{
  return sc->model.vision == HR_VISION_MLLAMA;
}

gboolean
hr_applies_patch_merger (const HrScenario *sc)
{
  return sc->model.projector == HR_PROJECTOR_PATCH_MERGER;
}

gboolean
hr_applies_mamba2 (const HrScenario *sc)
{
  return sc->model.ssm == HR_SSM_MAMBA2;
}

gboolean
hr_applies_pipeline (const HrScenario *sc)
{
  return sc->parallel.pp > 1;
}

gboolean
hr_applies_sequence_parallel (const HrScenario *sc)
{
  return sc->parallel.tp > 1 || sc->parallel.sp;
}

gboolean
hr_applies_sharded (const HrScenario *sc)
{
  return sc->parallel.zero >= 1;
}

/* DeepSpeed's engine, and its stages' own settings. */
gboolean
hr_applies_deepspeed (const HrScenario *sc)
{
  return sc->parallel.zero >= 1 && sc->parallel.deepspeed;
}

gboolean
hr_applies_deepspeed_12 (const HrScenario *sc)
{
  return hr_applies_deepspeed (sc) && sc->parallel.zero <= 2;
}

gboolean
hr_applies_deepspeed_3 (const HrScenario *sc)
{
  return hr_applies_deepspeed (sc) && sc->parallel.zero == 3;
}

gboolean
hr_applies_fsdp (const HrScenario *sc)
{
  return sc->parallel.zero >= 1 && !sc->parallel.deepspeed;
}

gboolean
hr_applies_fsdp2 (const HrScenario *sc)
{
  return sc->parallel.zero >= 2 && !sc->parallel.deepspeed && sc->parallel.fsdp == 2;
}

gboolean
hr_applies_offload_params (const HrScenario *sc)
{
  return sc->parallel.zero == 3 || sc->parallel.offload_params;
}

gboolean
hr_applies_offload_optimizer_device (const HrScenario *sc)
{
  return sc->parallel.offload_optimizer;
}

gboolean
hr_applies_offload_params_device (const HrScenario *sc)
{
  return sc->parallel.offload_params;
}

gboolean
hr_applies_compile (const HrScenario *sc)
{
  return sc->training.compile;
}

gboolean
hr_applies_full_checkpointing (const HrScenario *sc)
{
  return sc->training.checkpointing == HR_CHECKPOINTING_FULL;
}

gboolean
hr_applies_no_sync (const HrScenario *sc)
{
  return sc->parallel.zero >= 2 && sc->training.grad_accum > 1;
}
