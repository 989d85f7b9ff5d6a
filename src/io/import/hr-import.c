/* hr-import.c: configs of other tools read into a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include "hr-import.h"
#include "hr-error.h"
#include "hr-json.h"

/* In the order detection tries them. */
static const HrImporter * const importers[] = {
  &hr_ds_importer,
  &hr_hf_importer,
};

/* The importer whose format ROOT is, or NULL (a scenario file, say). */
const HrImporter *
hr_importer_detect (JsonNode *root)
{
  JsonObject *obj = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root)
                                                                   : NULL;

  for (guint i = 0; obj != NULL && i < G_N_ELEMENTS (importers); i++)
    if (importers[i]->detect (obj))
      return importers[i];
  return NULL;
}

/* Reads PATH and applies it to SCENARIO with IMPORTER, or with the one
 * whose format it is when IMPORTER is NULL; *USED (may be NULL) names
 * the one applied.  A file of no known format is an error. */
gboolean
hr_import_file (HrScenario        *scenario,
                const char        *path,
                const HrImporter  *importer,
                const HrImporter **used,
                GPtrArray         *unmapped,
                GError           **error)
{
  g_autoptr(JsonNode) root = hr_json_load_file (path, error);

  if (root == NULL)
    return FALSE;
  if (importer == NULL)
    importer = hr_importer_detect (root);
  if (importer == NULL)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: not a config Headroom can "
                   "import; allowed: a Hugging Face config.json or a DeepSpeed config"), path);
      return FALSE;
    }
  if (used != NULL)
    *used = importer;
  return importer->apply (scenario, root, path, unmapped, error);
}
