/* hr-frameworks.h: what a training framework does that changes memory
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-presets.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

/* A framework is a list of scenario field values ("training.loss=chunked"),
 * each a behaviour of its code with a source, not a user's choice: the
 * precision, optimizer and batch stay as they are. */
typedef struct
{
  const char         *id;           /* "litgpt", for files and the CLI */
  const char         *name;         /* "LitGPT", translatable */
  const char         *summary;      /* one line on what it sets, translatable */
  const char * const *assignments;  /* PATH=VALUE, NULL-terminated */
} HrFramework;

guint              hr_frameworks_count     (void);
const HrFramework *hr_framework_get        (guint              index);
const HrFramework *hr_framework_find       (const char        *id);
char              *hr_frameworks_allowed   (void);

/* Sets the framework's fields in a scenario document (before it is read,
 * as --set does). */
gboolean           hr_framework_apply_json (const HrFramework *framework,
                                            JsonObject        *root,
                                            GError           **error);

/* The same on a scenario: written out, changed, read back and checked. */
gboolean           hr_framework_apply      (const HrFramework *framework,
                                            HrScenario        *scenario,
                                            HrPresets         *presets,
                                            GError           **error);

/* Whether the scenario already has every value the framework sets. */
gboolean           hr_framework_matches    (const HrFramework *framework,
                                            const HrScenario  *scenario);

G_END_DECLS
