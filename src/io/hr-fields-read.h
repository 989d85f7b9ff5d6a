/* hr-fields-read.h: a JSON object read through a field table, strictly
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-scenario-fields.h"

G_BEGIN_DECLS

/* Sets *error to "ORIGIN: message" and returns FALSE. */
#define FAIL(code, ...)                                         \
  G_STMT_START {                                                \
    g_autofree char *_msg = g_strdup_printf (__VA_ARGS__);      \
    g_set_error (error, HR_ERROR, code, "%s: %s", origin, _msg); \
    return FALSE;                                               \
  } G_STMT_END

/* Sets *error to "ORIGIN: PATH: message", with ORIGIN and PATH kept
 * beside it (hr_error_origin, hr_error_field), and returns FALSE. */
#define FAIL_AT(code, path, ...)                                         \
  G_STMT_START {                                                         \
    hr_error_set_field_in (error, code, origin, path, __VA_ARGS__);      \
    return FALSE;                                                        \
  } G_STMT_END

char       *hr_fields_describe_node (JsonNode     *node);
char       *hr_fields_keys_allowed  (const Field  *fields,
                                     guint         n_fields,
                                     const char   *extra);
/* Which rows of a table a file gave: a bit per row.  The model's table
 * outgrew 32 rows and then 64 (a vision tower and an audio encoder);
 * test-fields checks that every table fits. */
#define HR_FIELD_MASK_BITS 256

typedef struct
{
  guint64 words[HR_FIELD_MASK_BITS / 64];
} HrFieldMask;

static inline void
hr_field_mask_add (HrFieldMask *mask,
                   guint        row)
{
  mask->words[row / 64] |= G_GUINT64_CONSTANT (1) << (row % 64);
}

static inline gboolean
hr_field_mask_has (const HrFieldMask *mask,
                   guint              row)
{
  return (mask->words[row / 64] >> (row % 64)) & 1;
}

/* Whether any row from FIRST on is in the mask. */
static inline gboolean
hr_field_mask_any_from (const HrFieldMask *mask,
                        guint              first)
{
  for (guint row = first; row < HR_FIELD_MASK_BITS; row++)
    if (hr_field_mask_has (mask, row))
      return TRUE;
  return FALSE;
}

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
                                     HrFieldMask  *out_read,
                                     GError      **error);
JsonObject *hr_fields_member_object (JsonObject   *obj,
                                     const char   *key,
                                     const char   *origin,
                                     const char   *path,
                                     GError      **error);

gboolean    hr_fields_read_lora_targets (HrTraining  *t,
                                         JsonNode    *node,
                                         const char  *origin,
                                         GError     **error);

gboolean    hr_fields_read_stage_layers (HrParallel  *p,
                                         JsonNode    *node,
                                         const char  *origin,
                                         GError     **error);

G_END_DECLS
