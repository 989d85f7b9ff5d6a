/* hr-scenario-applies.h: when each field of a scenario applies
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The field table's `.applies` rules (hr-scenario-applies.c); TRUE where
 * the field means something for SC.
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

gboolean hr_applies_lora (const HrScenario *sc);
gboolean hr_applies_qlora (const HrScenario *sc);
gboolean hr_applies_galore (const HrScenario *sc);
gboolean hr_applies_moe (const HrScenario *sc);
gboolean hr_applies_expert_parallel (const HrScenario *sc);
gboolean hr_applies_classifier (const HrScenario *sc);
gboolean hr_applies_vocab (const HrScenario *sc);
gboolean hr_applies_logits_fp32 (const HrScenario *sc);
gboolean hr_applies_fp8 (const HrScenario *sc);
gboolean hr_applies_fp8_all_gather (const HrScenario *sc);
gboolean hr_applies_chunked_loss (const HrScenario *sc);
gboolean hr_applies_encoder_decoder (const HrScenario *sc);
gboolean hr_applies_audio (const HrScenario *sc);
gboolean hr_applies_mla (const HrScenario *sc);
gboolean hr_applies_decoder (const HrScenario *sc);
gboolean hr_applies_attention (const HrScenario *sc);
gboolean hr_applies_eager_attention (const HrScenario *sc);
gboolean hr_applies_ssm (const HrScenario *sc);
gboolean hr_applies_pattern_experts (const HrScenario *sc);
gboolean hr_applies_layer_pattern (const HrScenario *sc);
gboolean hr_applies_shared (const HrScenario *sc);
gboolean hr_applies_mamba (const HrScenario *sc);
gboolean hr_applies_vision (const HrScenario *sc);
gboolean hr_applies_mllama (const HrScenario *sc);
gboolean hr_applies_patch_merger (const HrScenario *sc);
gboolean hr_applies_mamba2 (const HrScenario *sc);
gboolean hr_applies_pipeline (const HrScenario *sc);
gboolean hr_applies_sequence_parallel (const HrScenario *sc);
gboolean hr_applies_sharded (const HrScenario *sc);
gboolean hr_applies_deepspeed (const HrScenario *sc);
gboolean hr_applies_deepspeed_12 (const HrScenario *sc);
gboolean hr_applies_deepspeed_3 (const HrScenario *sc);
gboolean hr_applies_fsdp (const HrScenario *sc);
gboolean hr_applies_fsdp2 (const HrScenario *sc);
gboolean hr_applies_offload_params (const HrScenario *sc);
gboolean hr_applies_offload_optimizer_device (const HrScenario *sc);
gboolean hr_applies_offload_params_device (const HrScenario *sc);
gboolean hr_applies_compile (const HrScenario *sc);
gboolean hr_applies_full_checkpointing (const HrScenario *sc);
gboolean hr_applies_no_sync (const HrScenario *sc);

G_END_DECLS
