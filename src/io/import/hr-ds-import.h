/* hr-ds-import.h: a DeepSpeed config JSON onto a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

/* Sets the ZeRO stage, offloads, micro-batch, gradient accumulation,
 * precision, optimizer and checkpointing the config names; leaves the
 * rest of scenario as it is.  unmapped (may be NULL) receives what the
 * scenario cannot say, and each "auto" left as the scenario's; a value
 * DeepSpeed would refuse is an error naming the file and the key. */
gboolean hr_ds_import_node (HrScenario  *scenario,
                            JsonNode    *root,
                            const char  *origin,
                            GPtrArray   *unmapped,
                            GError     **error);

G_END_DECLS
