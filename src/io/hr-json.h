/* hr-json.h: reading JSON files safely, and typed member look-ups
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonNode    *hr_json_load_file        (const char    *path,
                                       GError       **error);
JsonNode    *hr_json_load_data        (const char    *data,
                                       gssize         length,
                                       const char    *origin,
                                       GError       **error);
char        *hr_json_read_file        (const char    *path,
                                       gsize         *length,
                                       GError       **error);

/* Deepest nesting any file may have: json-glib's parser recurses. */
#define HR_JSON_MAX_DEPTH 64

gboolean     hr_json_check_strict     (const char    *data,
                                       gsize          length,
                                       const char    *origin,
                                       GError       **error);

/* JSON text that reads back as written (hr-json-writer.c). */
char        *hr_json_to_data          (JsonNode      *root,
                                       gboolean       pretty,
                                       gsize         *length);

JsonNode    *hr_json_copy_deep        (JsonNode      *node);

/* Look-ups that answer NULL / FALSE for an absent member or one of
 * another type: imported and measured files come from anywhere. */
JsonObject  *hr_json_member_object    (JsonObject    *obj,
                                       const char    *key);
gboolean     hr_json_member_true      (JsonObject    *obj,
                                       const char    *key);

/* Strict on purpose: a key outside `allowed` (NULL-terminated) is a typo
 * the user must hear about, as "ORIGIN: KEY: unknown key; allowed: ...". */
gboolean     hr_json_check_keys       (JsonObject         *obj,
                                       const char         *origin,
                                       const char * const *allowed,
                                       GError            **error);

G_END_DECLS
