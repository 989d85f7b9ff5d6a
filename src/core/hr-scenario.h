/* hr-scenario.h: one training run to plan, as plain values
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScenario is a value type: it holds no pointers, so it can be copied with
 * "=" (the solver copies it for every trial) and compared with memcmp after
 * hr_scenario_init.  Field meanings are those of CONTRACT.md section 1;
 * fields marked "extension" are Headroom's additions to the contract.
 */

#pragma once

#include "hr-enums.h"

G_BEGIN_DECLS

#define HR_NAME_MAX 128
#define HR_ID_MAX   64
/* A scenario's "description": a paragraph, as the bundled presets write
 * (the longest, 193 bytes).  Every HrScenario holds one, the window a
 * dozen (its suggestions): kept small. */
#define HR_DESCRIPTION_MAX 1024
/* model.layer_pattern: one character per layer, and its terminating NUL. */
#define HR_LAYER_PATTERN_MAX 512
#define HR_MTP_PATTERN_MAX 16
/* parallel.stage_layers: one entry per virtual pipeline stage (pp·vpp). */
#define HR_MAX_STAGE_LAYERS 256

typedef char    HrIdText[HR_ID_MAX];
typedef char    HrNameText[HR_NAME_MAX];
typedef char    HrLayerPattern[HR_LAYER_PATTERN_MAX];
typedef char    HrMtpPattern[HR_MTP_PATTERN_MAX];
typedef guint32 HrStageLayers[HR_MAX_STAGE_LAYERS];

/* Each section's struct is declared from its file in fields/, which also
 * gives each member its row in the field table (hr-scenario-fields.c):
 * a field is one line there, its type beside its key, range and label.
 * Here only the type and the name of each line count. */
#if defined (FIELD) || defined (MEMBER) || defined (IGNORED)
#error "FIELD, MEMBER and IGNORED name the lines of src/core/fields/*.def"
#endif
#define FIELD(type, member, row) type member;
#define MEMBER(type, member)     type member;
#define IGNORED(key)

typedef struct
{
#include "fields/model.def"
} HrModelArch;

typedef struct
{
#include "fields/dtypes.def"
} HrDtypes;

typedef struct
{
#include "fields/lora.def"
} HrLora;

typedef struct
{
#include "fields/training.def"
} HrTraining;

typedef struct
{
#include "fields/parallel.def"
} HrParallel;

typedef struct
{
#include "fields/gpu.def"
} HrGpu;

/* Extension: what the run costs in time and money. */
typedef struct
{
#include "fields/cost.def"
} HrCost;

typedef struct
{
#include "fields/overhead.def"
} HrOverhead;

#undef FIELD
#undef MEMBER
#undef IGNORED

typedef struct
{
  char        name[HR_NAME_MAX * 2];
  char        description[HR_DESCRIPTION_MAX];  /* "" when the file has none */
  HrModelArch model;
  HrTraining  training;
  HrParallel  parallel;
  HrGpu       gpu;
  HrOverhead  overhead;
  HrCost      cost;
} HrScenario;

void     hr_scenario_init_default  (HrScenario       *scenario);
void     hr_dtypes_for_precision   (HrPrecision       precision,
                                    HrDtypes         *out);
void     hr_training_apply_precision (HrTraining     *training);
void     hr_model_arch_init_blank  (HrModelArch     *model);
void     hr_model_arch_init_default (HrModelArch     *model);
void     hr_scenario_fit_model_lengths (HrScenario   *scenario);

guint64  hr_parallel_dp_degree     (const HrParallel *parallel);
guint64  hr_parallel_shard_degree  (const HrParallel *parallel);
guint64  hr_model_head_dim         (const HrModelArch *model);
guint64  hr_model_expert_ffn       (const HrModelArch *model);
guint64  hr_model_norms_per_layer  (const HrModelArch *model);
guint64  hr_model_stack_layers     (const HrModelArch *model);
gboolean hr_model_mla              (const HrModelArch *model);
guint64  hr_training_target_len    (const HrScenario  *scenario);
gboolean hr_model_gated            (const HrModelArch *model);
gboolean hr_model_linear_biases    (const HrModelArch *model);
gboolean hr_model_key_bias         (const HrModelArch *model);
gboolean hr_model_audio            (const HrModelArch *model);
guint64  hr_model_ssm_inner        (const HrModelArch *model);
guint64  hr_model_ssm_state        (const HrModelArch *model);
guint64  hr_model_ssm_conv         (const HrModelArch *model);
guint64  hr_model_ssm_dt_rank      (const HrModelArch *model);
guint64  hr_model_ssm_head_dim     (const HrModelArch *model);
guint64  hr_model_ssm_heads        (const HrModelArch *model);
guint64  hr_model_ssm_groups       (const HrModelArch *model);
/* A layer's two parts: its mixer and what follows it (a pattern's block
 * has one of them only).  The values index the kinds of layer
 * (HrParamCounts, HrPatternKinds). */
typedef enum
{
  HR_LAYER_MIXER_SSM,
  HR_LAYER_MIXER_ATTENTION,
  HR_LAYER_MIXER_NONE,
  HR_LAYER_MIXER_SHARED,     /* Zamba2's shared transformer block (S) */
  HR_N_LAYER_MIXERS
} HrLayerMixer;

typedef enum
{
  HR_LAYER_MLP_DENSE,
  HR_LAYER_MLP_EXPERTS,
  HR_LAYER_MLP_NONE,
  HR_N_LAYER_MLPS
} HrLayerMlp;

HrLayerMixer hr_model_layer_mixer  (const HrModelArch *model,
                                    guint64            layer);
HrLayerMlp hr_model_layer_mlp      (const HrModelArch *model,
                                    guint64            layer);
gboolean hr_model_layer_attends    (const HrModelArch *model,
                                    guint64            layer);
gboolean hr_model_layer_has_experts (const HrModelArch *model,
                                     guint64            layer);
gboolean hr_model_layer_has_mlp    (const HrModelArch *model,
                                    guint64            layer);
gboolean hr_model_mixed_layers     (const HrModelArch *model);
guint64  hr_model_mtp_blocks       (const HrModelArch *model);
guint64  hr_model_vision_patches   (const HrModelArch *model);
guint64  hr_model_vision_tokens    (const HrModelArch *model);
guint64  hr_model_image_tokens     (const HrModelArch *model);
guint64  hr_model_vision_layers_run (const HrModelArch *model);
guint64  hr_model_vision_channels  (const HrModelArch *model);
guint64  hr_model_projector_merge  (const HrModelArch *model);
gboolean hr_model_layer_cross_attends (const HrModelArch *model,
                                       guint64            layer);
guint64  hr_model_cross_layers     (const HrModelArch *model,
                                    guint64            first_layer,
                                    guint64            n_layers);
guint64  hr_model_tile_tokens      (const HrModelArch *model);
guint64  hr_model_cross_tokens     (const HrModelArch *model);

void     hr_copy_string            (char             *dest,
                                    gsize             dest_size,
                                    const char       *src);

G_END_DECLS
