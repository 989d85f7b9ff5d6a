/* hr-scenario-fields.h: the fields of each section of a scenario file
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table per section; src/io/hr-fields-read.h reads JSON through them.
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

typedef enum
{
  F_UINT,      /* guint64, a whole number >= 0 */
  F_BOOL,      /* gboolean */
  F_DOUBLE,    /* double >= 0 */
  F_ENUM,      /* an enum stored as guint, named by a table */
  F_NAME,      /* char[HR_NAME_MAX] */
  F_SKIP,      /* accepted and ignored (documentation keys) */
} FieldKind;

typedef struct
{
  const char        *key;
  FieldKind          kind;
  gsize              offset;
  const HrEnumNames *names;
} Field;

#define UINT(s, k)      { #k, F_UINT, G_STRUCT_OFFSET (s, k), NULL }
#define BOOL(s, k)      { #k, F_BOOL, G_STRUCT_OFFSET (s, k), NULL }
#define DBL(s, k)       { #k, F_DOUBLE, G_STRUCT_OFFSET (s, k), NULL }
#define ENUM(s, k, t)   { #k, F_ENUM, G_STRUCT_OFFSET (s, k), &t }


extern const Field hr_model_fields[];
extern const guint hr_model_fields_count;
extern const Field hr_training_fields[];
extern const guint hr_training_fields_count;
extern const Field hr_lora_fields[];
extern const guint hr_lora_fields_count;
extern const Field hr_dtype_fields[];
extern const guint hr_dtype_fields_count;
extern const Field hr_parallel_fields[];
extern const guint hr_parallel_fields_count;
extern const Field hr_gpu_fields[];
extern const guint hr_gpu_fields_count;
extern const Field hr_cost_fields[];
extern const guint hr_cost_fields_count;
extern const Field hr_overhead_fields[];
extern const guint hr_overhead_fields_count;

G_END_DECLS
