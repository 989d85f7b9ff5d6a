/* hr-cli-scenario.c: the scenario headroom-cli plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file, the scenario preset or the default, as JSON, with --framework;
 * without an import each --set goes into that JSON too, and it is read
 * and checked once.  With --import-hf or --import-deepspeed, the file is
 * read, the imports change the read scenario, each --set is applied once
 * over them and the result is checked.  Errors name the file or the flag.
 */

#include "config.h"

#include <string.h>

#include "hr-cli-commands.h"
#include "hr-cli-scenario.h"
#include "hr-ds-import.h"
#include "hr-error.h"
#include "hr-hf-import.h"
#include "hr-import.h"
#include "hr-json.h"
#include "hr-scenario-io.h"
#include "hr-scenario-name.h"
#include "hr-validate.h"

/* A value given with --set is the command line's fault, not the file's:
 * name "--set" instead of the file when the error is about that path. */
static int
bad_input_from_sets (const GError  *error,
                     const char    *origin,
                     char         **sets)
{
  const char *field = hr_error_field (error);

  for (guint i = 0; field != NULL && sets != NULL && sets[i] != NULL; i++)
    {
      const char *eq = strchr (sets[i], '=');

      if (eq != NULL && g_strcmp0 (hr_error_origin (error), origin) == 0
          && strlen (field) == (gsize) (eq - sets[i])
          && strncmp (sets[i], field, eq - sets[i]) == 0)
        {
          g_autofree char *msg = g_strdup_printf ("--set %s: %s", field,
                                                  hr_error_reason (error));

          return hr_cli_bad_input (msg);
        }
    }
  return hr_cli_bad_input (error->message);
}

/* The scenario as JSON, before --framework and --set change it. */
static JsonNode *
load_root (const HrCliOptions *o,
           HrPresets          *presets,
           char              **origin,
           GError            **error)
{
  if (o->files != NULL && o->files[0] != NULL)
    {
      if (o->files[1] != NULL)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "%s: only one scenario file "
                       "is allowed", o->files[1]);
          return NULL;
        }
      if (o->preset != NULL)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "--preset: give a scenario "
                       "file or --preset, not both");
          return NULL;
        }
      *origin = g_strdup (o->files[0]);
      return hr_json_load_file (o->files[0], error);
    }
  if (o->preset != NULL)
    {
      g_autoptr(GError) local = NULL;
      JsonNode *node = hr_presets_load (presets, HR_PRESET_SCENARIO, o->preset, origin, &local);

      if (node == NULL)
        g_set_error (error, HR_ERROR, local->code, "--preset: %s", local->message);
      return node;
    }

  /* The default scenario, as the window opens with it; the compiled-in
   * copy stands in when no preset folder is installed. */
  {
    JsonNode *node = hr_presets_load (presets, HR_PRESET_SCENARIO, "default", origin, NULL);

    if (node != NULL)
      return node;
    *origin = g_strdup ("default scenario");
    node = json_node_new (JSON_NODE_OBJECT);
    json_node_take_object (node, json_object_new ());
    return node;
  }
}

/* A name that is the one the plan gives itself ("Llama 2 13B, ZeRO-3,
 * 8x H100", the default's) follows the plan through --set and the
 * imports, as it does in the window; a name the user chose stays. */
static void
follow_plan_name (JsonObject *root,
                  const char *origin,
                  HrPresets  *presets)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  HrScenario base;

  if (!json_object_has_member (root, "name"))
    return;
  json_node_set_object (node, root);
  if (hr_scenario_read_node (&base, node, origin, presets, NULL)
      && hr_scenario_name_is_generated (&base))
    json_object_remove_member (root, "name");
}

/* A training.framework assignment: the profile fills what the file leaves
 * out, which only the reader knows, so it goes into the file. */
static gboolean
is_framework_set (const char *assignment)
{
  return g_str_has_prefix (assignment, "training.framework=");
}

/* The importer src/meson.build lists under ID: one of the flags'
 * formats, so a NULL here is a mistake in this file, never the user's
 * (NULL would let hr_import_file take any format). */
static const HrImporter *
flag_importer (const char *id)
{
  const HrImporter *importer = hr_importer_find (id);

  g_assert (importer != NULL);
  return importer;
}

/* The config at PATH, of IMPORTER's format (given with FLAG), changes the
 * read scenario, as the window's Import does; what it cannot map is said
 * on stderr. */
static gboolean
apply_import (HrScenario        *sc,
              const char        *flag,
              const char        *path,
              const HrImporter  *importer,
              GError           **error)
{
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) local = NULL;

  if (!hr_import_file (sc, path, importer, NULL, unmapped, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "%s: %s", flag, local->message);
      return FALSE;
    }
  for (guint i = 0; i < unmapped->len; i++)
    hr_cli_note ("%s: not mapped: %s", path, (char *) g_ptr_array_index (unmapped, i));
  return TRUE;
}

/* The scenario the command plans: the file, the preset or the default,
 * with the framework, the imports and --set applied, read and checked.
 *
 * Without an import, each --set goes into the file before it is read, so
 * its value is the file's: a preset it chooses yields to the file's other
 * values, a framework fills what neither gives.  With one, the file is
 * read first, the imports change the read scenario (--import-hf its
 * model, --import-deepspeed its training and layout, then --import as its
 * format does), and each --set is
 * applied once, after them, so that it wins over them too; the result is
 * checked once. */
int
hr_cli_build_scenario (const HrCliOptions  *o,
                       HrPresets           *presets,
                       HrScenario          *sc,
                       char               **out_origin)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *read_name = NULL;
  gboolean imports = o->import_hf != NULL || o->import_ds != NULL || o->import != NULL;
  gboolean generated;
  char *origin = NULL;

  root = load_root (o, presets, &origin, &error);
  *out_origin = origin;   /* the caller's to free, whatever happens */
  if (root == NULL)
    return hr_cli_bad_input (error->message);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *msg = g_strdup_printf ("%s: the document is not an object; "
                                              "allowed: a scenario object", origin);
      return hr_cli_bad_input (msg);
    }
  /* Only a change can make a generated name stale: without one, the
   * name the file gives is the one the reader would generate, and
   * reading the whole scenario twice to find that out is a third of the
   * start-up of a plain `headroom-cli`. */
  if (!imports && (o->sets != NULL || o->framework != NULL))
    follow_plan_name (json_node_get_object (root), origin, presets);
  if (o->framework != NULL)
    {
      /* --framework ID is --set training.framework=ID (contract 1.1):
       * the profile fills what the file leaves out, the file's own
       * values win, and --set wins over both; the id was checked with
       * the other choices. */
      g_autofree char *set = g_strdup_printf ("training.framework=\"%s\"", o->framework);

      if (!hr_json_set_path (json_node_get_object (root), set, &error))
        return hr_cli_bad_input (error->message);
    }
  for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
    if ((!imports || is_framework_set (o->sets[i]))
        && !hr_json_set_path (json_node_get_object (root), o->sets[i], &error))
      return hr_cli_bad_input (error->message);

  if (!hr_scenario_read_node (sc, root, origin, presets, &error))
    return bad_input_from_sets (error, origin, o->sets);
  if (!imports)
    return EXIT_PLANNED;

  /* A name that is the one the plan gives itself follows the plan
   * through the imports and --set (follow_plan_name does it for a file
   * changed before it is read). */
  generated = hr_scenario_name_is_generated (sc);
  read_name = g_strdup (sc->name);
  if (o->import_hf != NULL
      && !apply_import (sc, "--import-hf", o->import_hf, flag_importer ("hf"), &error))
    return hr_cli_bad_input (error->message);
  if (o->import_ds != NULL
      && !apply_import (sc, "--import-deepspeed", o->import_ds, flag_importer ("deepspeed"),
                        &error))
    return hr_cli_bad_input (error->message);
  /* --import: whichever format the file is (NULL: detected). */
  if (o->import != NULL && !apply_import (sc, "--import", o->import, NULL, &error))
    return hr_cli_bad_input (error->message);
  for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
    if (!is_framework_set (o->sets[i])
        && !hr_scenario_set (sc, o->sets[i], presets, origin, &error))
      return bad_input_from_sets (error, origin, o->sets);
  if (!hr_scenario_validate (sc, &error))
    {
      hr_error_add_origin (&error, origin);
      return bad_input_from_sets (error, origin, o->sets);
    }
  if (generated && strcmp (sc->name, read_name) == 0)
    hr_scenario_set_generated_name (sc);
  return EXIT_PLANNED;
}
