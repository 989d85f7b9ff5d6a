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
                                     guint64      *out_read,
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
