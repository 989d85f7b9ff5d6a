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

/* Look-ups that answer NULL / FALSE for an absent member or one of
 * another type: imported and measured files come from anywhere. */
JsonObject  *hr_json_member_object    (JsonObject    *obj,
                                       const char    *key);
gboolean     hr_json_member_true      (JsonObject    *obj,
                                       const char    *key);

G_END_DECLS
