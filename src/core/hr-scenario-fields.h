/* hr-scenario-fields.h: the fields of each section of a scenario file
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table per section, and one list of the sections: the reader and
 * --set (src/io/hr-fields-read.c), the writer, the window's scenario model
 * and its form rows all go through them, so a field is described once.
 *
 * A field is one line of its section's file in fields/ (model.def,
 * training.def, ...), which declares its member of the section's struct
 * (hr-scenario.h) and gives its row here (hr-scenario-fields.c):
 *
 *   FIELD (guint64, micro_batch,
 *          SPIN (1, HR_MAX_MICRO_BATCH, 1, N_("Micro-batch"), N_("Sequences per GPU per step")))
 *
 * The rows: SPIN (min, max, step, label, help) a whole number;
 * REAL (min, max, step, digits, label, help) a number; SWITCH (label,
 * help) a boolean; CHOICE (names, choices, label, help) one of an enum's
 * names (choices: how the form shows them, NULL: the names); TEXT (label)
 * a string.  After them any of Field's members: OPTIONAL (absent value),
 * .applies, .unit, .flags.  MEMBER (type, member) is a member with no row
 * (read and written by hand); IGNORED ("key") a key files may carry.
 * Above each, a comment that starts with two stars holds its row of
 * docs/scenario-format.md (build-aux/field-docs.py copies it there; the
 * field-docs test fails while a field has none or the copy is stale).
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
  F_NAME,      /* a char array (HrIdText, HrNameText, ...): Field.size bytes */
  F_SKIP,      /* accepted and ignored (documentation keys) */
} FieldKind;

/* How the form shows a number: as it is, as a percentage of a fraction,
 * or in billions. */
typedef enum
{
  HR_FIELD_PLAIN,
  HR_FIELD_PERCENT,
  HR_FIELD_BILLIONS,
} HrFieldUnit;

/* A field that may be left out of a file: the writer writes it only when
 * it holds something else than `absent`, and a custom model starts on
 * `absent` for it rather than on the default model's value. */
#define HR_FIELD_OPTIONAL (1u << 0)
/* A field whose range is checked only where it applies (the LoRA rows: a
 * full fine-tune's file may carry any rank); every other field's range is
 * checked always, since the plan may read it. */
#define HR_FIELD_RANGE_WHERE_APPLIES (1u << 1)
/* An F_NAME field refused when longer than its buffer, not cut: a layer
 * pattern cut short would describe another model. */
#define HR_FIELD_WHOLE (1u << 2)

typedef struct _Field Field;

/* One field of the scenario: everything the reader, the writer, --set,
 * the window's model and its form row need to know about it. */
struct _Field
{
  const char         *key;       /* its key in the section's object */
  FieldKind           kind;
  gsize               offset;    /* in the section's struct */
  const HrEnumNames  *names;     /* F_ENUM: the names in files */
  guint               flags;     /* HR_FIELD_OPTIONAL, HR_FIELD_RANGE_WHERE_APPLIES */
  double              absent;    /* HR_FIELD_OPTIONAL: the value that is not written */
  gsize               size;      /* its member's size (F_NAME: the buffer's) */
  double              min, max;  /* its range: the form's, and the one hr-validate.c checks */
  double              step;
  guint               digits;
  HrFieldUnit         unit;
  const char         *label;     /* N_(): the form row's title */
  const char         *help;      /* N_(): its subtitle, or NULL */
  const char * const *choices;   /* F_ENUM: N_() names as the form shows them, or NULL */
  gboolean          (*applies) (const HrScenario *sc);  /* NULL: always */
};

/* A section of the scenario file and its table: "training.lora" holds
 * hr_lora_fields, whose offsets count from HrScenario's training. */
typedef struct
{
  const char  *path;
  const Field *fields;
  const guint *n_fields;
  gsize        offset;   /* of the section's struct in HrScenario */
} HrFieldSection;

extern const HrFieldSection hr_field_sections[];
extern const guint hr_field_sections_count;

const Field *hr_field_find          (const char       *path,
                                     gsize            *scenario_offset);
double       hr_field_get_number    (const Field      *field,
                                     gconstpointer     base);
/* FIELD's value in BASE as a scenario file writes it ("4", "bf16-mixed"). */
void         hr_field_get_text      (const Field      *field,
                                     gconstpointer     base,
                                     char             *out,
                                     gsize             size);
gboolean     hr_field_is_absent     (const Field      *field,
                                     gconstpointer     base);
void         hr_field_set_absent    (const Field      *field,
                                     gpointer          base);
void         hr_fields_set_all_absent (HrScenario     *scenario);

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
