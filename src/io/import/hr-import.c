/* hr-import.c: configs of other tools read into a scenario
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include "hr-import.h"
#include "hr-error.h"
#include "hr-importers.h"
#include "hr-json.h"

/* The importers src/meson.build lists, in the order detection tries
 * them: HR_IMPORTERS is "HR_IMPORTER (deepspeed) HR_IMPORTER (hf)". */
#define HR_IMPORTER(id) extern const HrImporter hr_##id##_importer;
HR_IMPORTERS
#undef HR_IMPORTER

#define HR_IMPORTER(id) &hr_##id##_importer,
static const HrImporter * const importers[] = { HR_IMPORTERS };
#undef HR_IMPORTER

/* The importer whose id is ID, or NULL. */
const HrImporter *
hr_importer_find (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (importers); i++)
    if (g_strcmp0 (importers[i]->id, id) == 0)
      return importers[i];
  return NULL;
}

/* "a DeepSpeed config or a Hugging Face config.json": what an import
 * may be, for messages. */
static char *
importer_names (void)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (importers); i++)
    {
      if (i > 0 && i + 1 < G_N_ELEMENTS (importers))
        g_string_append (names, ", ");
      else if (i > 0)
        /* TRANSLATORS: before the last of the formats Headroom can import,
         * "a DeepSpeed config or a Hugging Face config.json" */
        g_string_append (names, C_("the last of alternatives", " or "));
      g_string_append (names, _(importers[i]->name));
    }
  return g_string_free (names, FALSE);
}

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
      g_autofree char *allowed = importer_names ();

      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: not a config Headroom can "
                   "import; allowed: %s"), path, allowed);
      return FALSE;
    }
  if (used != NULL)
    *used = importer;
  return importer->apply (scenario, root, path, unmapped, error);
}
