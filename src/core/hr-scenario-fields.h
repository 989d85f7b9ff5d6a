/* hr-scenario-fields.h: the fields of each section of a scenario file
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Private to the scenario reader: one table per section, and the code
 * that reads a JSON object through a table, strictly.
 */

#pragma once

#include <json-glib/json-glib.h>

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

#define FAIL(code, ...)                                         \
  G_STMT_START {                                                \
    g_autofree char *_msg = g_strdup_printf (__VA_ARGS__);      \
    g_set_error (error, HR_ERROR, code, "%s: %s", origin, _msg); \
    return FALSE;                                               \
  } G_STMT_END

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

char       *hr_fields_describe_node (JsonNode     *node);
char       *hr_fields_keys_allowed  (const Field  *fields,
                                     guint         n_fields,
                                     const char   *extra);
gboolean    hr_fields_read_field    (const Field  *field,
                                     gpointer      base,
                                     JsonNode     *node,
                                     const char   *origin,
                                     const char   *path,
                                     GError      **error);
gboolean    hr_fields_read_section  (JsonObject   *obj,
                                     const Field  *fields,
                                     guint         n_fields,
                                     gpointer      base,
                                     const char   *origin,
                                     const char   *section,
                                     const char  **skip,
                                     guint        *out_read,
                                     GError      **error);
JsonObject *hr_fields_member_object (JsonObject   *obj,
                                     const char   *key,
                                     const char   *origin,
                                     const char   *path,
                                     GError      **error);

G_END_DECLS
