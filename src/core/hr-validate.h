/* hr-validate.h: what makes a scenario plannable
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* Bounds that keep every product of the calculation far from overflow and
 * still cover the largest runs anyone plans (a 10-trillion-parameter
 * model on 100,000 GPUs with a 10-million-token sequence). */
#define HR_MAX_LAYERS       100000
#define HR_MAX_HIDDEN       (1u << 20)
#define HR_MAX_HEADS        65536
#define HR_MAX_FFN          (1u << 24)
#define HR_MAX_VOCAB        (1u << 24)
#define HR_MAX_EXPERTS      65536
#define HR_MAX_PARAMS       1e15
#define HR_MAX_MICRO_BATCH  (1u << 20)
#define HR_MAX_SEQ_LEN      (1u << 27)
#define HR_MAX_GPUS         (1u << 24)
#define HR_MAX_PP           4096
#define HR_MAX_MEMORY_MIB   (1u << 24)
#define HR_MAX_LORA_RANK    65536
#define HR_MAX_POSITION_BUCKETS 65536
#define HR_MAX_MTP_MODULES  16
#define HR_MAX_SHARED_BLOCKS 64     /* Zamba2: 1 or 2 */
#define HR_MAX_AUDIO_MEL_BINS 4096
#define HR_MAX_SSM_STATE    65536
#define HR_MAX_SSM_CONV     64
#define HR_MAX_SSM_EXPAND   64
#define HR_MAX_SSM_INNER    (HR_MAX_HIDDEN * HR_MAX_SSM_EXPAND)
#define HR_MAX_IMAGE        65536   /* pixels per side */
#define HR_MAX_IMAGES       65536   /* per sample */
#define HR_MAX_TILES        64      /* per image (Llama 3.2 Vision: 4) */
#define HR_MAX_DS_ELEMENTS  1e12    /* a DeepSpeed bucket or window, in elements */

gboolean hr_scenario_validate (const HrScenario  *scenario,
                               GError           **error);
/* hr-validate-deepseek.c: latent attention, shared experts, dense first
 * layers, multi-token prediction. */
gboolean hr_validate_deepseek (const HrScenario  *scenario,
                               GError           **error);
/* hr-validate-vision.c: a vision tower and its projector. */
gboolean hr_validate_vision   (const HrScenario  *scenario,
                               GError           **error);
/* hr-validate-ssm.c: state-space layers and layer patterns. */
gboolean hr_validate_ssm      (const HrScenario  *scenario,
                               GError           **error);
gboolean hr_gpu_validate      (const HrGpu       *gpu,
                               const char        *section,
                               GError           **error);

G_END_DECLS
