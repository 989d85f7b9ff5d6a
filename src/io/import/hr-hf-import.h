/* hr-hf-import.h: a Hugging Face config.json as a model architecture
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

/* Fills model from a config.json object.  unmapped (may be NULL) receives
 * one line for each setting that matters for memory but has no place in
 * the scenario (sliding windows, MLA, ...). */
gboolean hr_hf_import_node (HrModelArch  *model,
                            JsonNode     *root,
                            const char   *origin,
                            GPtrArray    *unmapped,
                            GError      **error);

G_END_DECLS
