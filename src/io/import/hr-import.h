/* hr-import.h: configs of other tools read into a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One interface for every format: an id, whether a document looks like
 * it, and how it changes a scenario.  headroom-cli's --import,
 * --import-hf and --import-deepspeed, the window's Import and its file
 * drop all go through it.  A new format is
 * its own file with an `HrImporter hr_<id>_importer` and a line in
 * src/meson.build's list of importers, which gives it its fuzz harness.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

typedef struct
{
  const char *id;     /* "hf", "deepspeed" */
  const char *name;   /* N_(), for messages: "a Hugging Face config.json" */
  /* Whether ROOT (an object) is a document of this format. */
  gboolean  (*detect) (JsonObject *root);
  /* Changes SCENARIO after ROOT; UNMAPPED (may be NULL) receives one line
   * for each setting that matters for memory but has no place in it. */
  gboolean  (*apply)  (HrScenario  *scenario,
                       JsonNode    *root,
                       const char  *origin,
                       GPtrArray   *unmapped,
                       GError     **error);
} HrImporter;

const HrImporter *hr_importer_find    (const char        *id);
const HrImporter *hr_importer_detect  (JsonNode          *root);
gboolean          hr_import_file      (HrScenario        *scenario,
                                       const char        *path,
                                       const HrImporter  *importer,
                                       const HrImporter **used,
                                       GPtrArray         *unmapped,
                                       GError           **error);

G_END_DECLS
