/* hr-cli-scenario.c: the scenario headroom-cli plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file, the scenario preset or the default, as JSON; a Hugging Face
 * import as its model, --framework and each --set applied to that JSON,
 * then read and checked once; a DeepSpeed import applied to the read
 * scenario, --set again over it.  Errors name the file or the flag.
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

/* The scenario as JSON, before --import-hf and --set change it. */
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

static gboolean
apply_import (JsonObject  *root,
              const char  *path,
              GError     **error)
{
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc;
  g_autoptr(JsonNode) node = NULL;

  g_autoptr(GError) local = NULL;

  hr_scenario_init_default (&sc);
  if (!hr_import_file (&sc, path, &hr_hf_importer, NULL, unmapped, &local))
    {
      g_set_error (error, HR_ERROR, local->code, "--import-hf: %s", local->message);
      return FALSE;
    }
  node = hr_scenario_to_json (&sc);
  json_object_set_member (root, "model",
                          json_node_copy (json_object_get_member (json_node_get_object (node),
                                                                  "model")));
  /* T5's bias takes eager attention, which the import chose (hf_apply). */
  if (sc.model.position_buckets > 0)
    {
      JsonObject *training = json_object_has_member (root, "training")
                             ? json_object_get_object_member (root, "training") : NULL;

      if (training == NULL)
        {
          training = json_object_new ();
          json_object_set_object_member (root, "training", training);
        }
      json_object_set_string_member (training, "attention", "eager");
    }
  /* An audio encoder takes whole 30 s clips and a target no longer than
   * its decoder's table, the lengths the import chose
   * (hr_scenario_fit_model_lengths). */
  if (hr_model_audio (&sc.model))
    {
      JsonObject *training = json_object_has_member (root, "training")
                             ? json_object_get_object_member (root, "training") : NULL;

      if (training == NULL)
        {
          training = json_object_new ();
          json_object_set_object_member (root, "training", training);
        }
      json_object_set_int_member (training, "seq_len", (gint64) sc.training.seq_len);
      json_object_set_int_member (training, "target_len", (gint64) sc.training.target_len);
    }
  for (guint i = 0; i < unmapped->len; i++)
    hr_cli_note ("%s: not mapped: %s", path, (char *) g_ptr_array_index (unmapped, i));
  return TRUE;
}

/* The scenario the command plans: the file, the preset or the default,
 * with the imports, the framework and --set applied, read and checked. */
int
hr_cli_build_scenario (const HrCliOptions  *o,
                       HrPresets           *presets,
                       HrScenario          *sc,
                       char               **out_origin)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
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
  if (o->sets != NULL || o->import_hf != NULL || o->import_ds != NULL || o->framework != NULL)
    follow_plan_name (json_node_get_object (root), origin, presets);
  if (o->import_hf != NULL && !apply_import (json_node_get_object (root), o->import_hf, &error))
    return hr_cli_bad_input (error->message);
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
    if (!hr_json_set_path (json_node_get_object (root), o->sets[i], &error))
      return hr_cli_bad_input (error->message);

  if (!hr_scenario_read_node (sc, root, origin, presets, &error))
    return bad_input_from_sets (error, origin, o->sets);

  /* A DeepSpeed config changes the read scenario; --set still wins. */
  if (o->import_ds != NULL)
    {
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);

      if (!hr_import_file (sc, o->import_ds, &hr_ds_importer, NULL, unmapped, &error))
        {
          g_autofree char *msg = g_strdup_printf ("--import-deepspeed: %s", error->message);
          return hr_cli_bad_input (msg);
        }
      for (guint i = 0; i < unmapped->len; i++)
        hr_cli_note ("%s: not mapped: %s", o->import_ds,
                     (char *) g_ptr_array_index (unmapped, i));
      for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
        if (!hr_scenario_set (sc, o->sets[i], presets, origin, &error))
          return bad_input_from_sets (error, origin, o->sets);
      if (!hr_scenario_validate (sc, &error))
        {
          hr_error_add_origin (&error, origin);
          return bad_input_from_sets (error, origin, o->sets);
        }
    }
  return EXIT_PLANNED;
}

