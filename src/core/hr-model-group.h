/* hr-model-group.h: what kind of model an architecture is, and its family
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* The groups the model picker shows, in its order.  A new one is a value
 * here, its row in hr-model-group.c's table and its rule in
 * hr_model_group. */
typedef enum
{
  HR_MODEL_GROUP_DECODER,
  HR_MODEL_GROUP_MOE,
  HR_MODEL_GROUP_ENCODER_DECODER,
  HR_MODEL_GROUP_VISION_LANGUAGE,
  HR_MODEL_GROUP_ENCODER,
  HR_MODEL_GROUP_VISION,
  HR_MODEL_GROUP_STATE_SPACE,
  HR_N_MODEL_GROUPS
} HrModelGroup;

HrModelGroup  hr_model_group        (const HrModelArch *model);
/* The group's label, untranslated (N_): the caller translates it. */
const char   *hr_model_group_label  (HrModelGroup       group);
/* The family a preset belongs to ("Llama", "Qwen", "T5"), from its id's
 * leading word and the casing its name gives it. */
char         *hr_model_family       (const char        *id,
                                     const char        *name);

G_END_DECLS
