/* hr-presets.c: the bundled and the user's preset folders
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CONTRACT.md section 6: presets/models, presets/gpus and
 * presets/scenarios hold one JSON file per id; the user's own under
 * $XDG_DATA_HOME/headroom/presets win over the bundled ones.
 * HEADROOM_PRESETS_DIR points a build tree or a test at another bundled
 * folder; a binary run from its build tree falls back on the source tree's.
 */

#include "hr-presets.h"
#include "hr-error.h"
#include "hr-json.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#ifndef HR_PRESETS_DIR
# define HR_PRESETS_DIR "/usr/share/headroom/presets"
#endif

#include <glib/gstdio.h>
#include <sys/stat.h>

struct _HrPresets
{
  GStrv       dirs;     /* highest priority first */
  GHashTable *parsed;   /* path -> ParsedFile */
};

/* A preset file as parsed, with what identifies that version of it.  The
 * window lists the presets and then loads one, and every measured-runs
 * load recognises its models among all of them: without this each file
 * was parsed two or more times at every start (the measured-runs fuzz
 * harness ran at 460 inputs a second). */
typedef struct
{
  JsonNode *node;       /* as parsed; callers get copies */
  GError   *error;      /* or why it does not parse */
  dev_t     dev;
  ino_t     ino;
  goffset   size;
  gint64    mtime_ns;
} ParsedFile;

static void
parsed_file_free (ParsedFile *file)
{
  g_clear_pointer (&file->node, json_node_unref);
  g_clear_error (&file->error);
  g_free (file);
}

/* PATH parsed, from the cache while the file is the one parsed before. */
static JsonNode *
load_parsed (HrPresets   *presets,
             const char  *path,
             GError     **error)
{
  ParsedFile *file = g_hash_table_lookup (presets->parsed, path);
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return hr_json_load_file (path, error);
  if (file == NULL || file->dev != st.st_dev || file->ino != st.st_ino
      || file->size != (goffset) st.st_size
      || file->mtime_ns != (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec)
    {
      file = g_new0 (ParsedFile, 1);
      file->node = hr_json_load_file (path, &file->error);
      file->dev = st.st_dev;
      file->ino = st.st_ino;
      file->size = (goffset) st.st_size;
      file->mtime_ns = (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
      g_hash_table_replace (presets->parsed, g_strdup (path), file);
    }
  if (file->node == NULL)
    {
      if (error != NULL)
        *error = g_error_copy (file->error);
      return NULL;
    }
  /* A copy of its own: the caller may change it (headroom-cli applies
   * --set to the scenario preset it starts from), the cache must not. */
  return hr_json_copy_deep (file->node);
}

const char *
hr_preset_kind_folder (HrPresetKind kind)
{
  switch (kind)
    {
    case HR_PRESET_MODEL:
      return "models";
    case HR_PRESET_GPU:
      return "gpus";
    case HR_PRESET_FRAMEWORK:
      return "frameworks";
    case HR_PRESET_SCENARIO:
    case HR_N_PRESET_KINDS:
    default:
      return "scenarios";
    }
}

HrPresets *
hr_presets_new (const char * const *dirs)
{
  HrPresets *presets = g_new0 (HrPresets, 1);

  presets->dirs = g_strdupv ((char **) dirs);
  presets->parsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) parsed_file_free);
  return presets;
}

HrPresets *
hr_presets_new_default (void)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) dirs = NULL;
  const char *env = g_getenv ("HEADROOM_PRESETS_DIR");
  g_autofree char *user = g_build_filename (g_get_user_data_dir (), "headroom",
                                            "presets", NULL);

  g_strv_builder_add (builder, user);
  if (env != NULL && *env != '\0')
    g_strv_builder_add (builder, env);
  g_strv_builder_add (builder, HR_PRESETS_DIR);
#ifdef HR_SOURCE_PRESETS_DIR
  /* Run from a build tree before installing: the source tree's presets. */
  g_strv_builder_add (builder, HR_SOURCE_PRESETS_DIR);
#endif
  dirs = g_strv_builder_end (builder);
  return hr_presets_new ((const char * const *) dirs);
}

void
hr_presets_free (HrPresets *presets)
{
  if (presets == NULL)
    return;
  g_strfreev (presets->dirs);
  g_hash_table_unref (presets->parsed);
  g_free (presets);
}

void
hr_preset_info_free (HrPresetInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->id);
  g_free (info->name);
  g_free (info->path);
  g_free (info);
}

/* Ids are file names: lower-case letters, digits, '.', '_' and '-', so an
 * id can never climb out of its folder. */
gboolean
hr_preset_id_is_valid (const char *id)
{
  if (id == NULL || *id == '\0' || *id == '.' || strlen (id) >= 64)
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!(g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '.' || *p == '_' || *p == '-'))
      return FALSE;
  return TRUE;
}

char *
hr_presets_find (HrPresets     *presets,
                 HrPresetKind   kind,
                 const char    *id,
                 GError       **error)
{
  g_autofree char *file = NULL;

  if (!hr_preset_id_is_valid (id))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_NOT_FOUND,
                   _("\"%s\" is not a preset id; allowed: lower-case letters, digits, "
                   "'.', '_' and '-'"), id != NULL ? id : "");
      return NULL;
    }

  file = g_strconcat (id, ".json", NULL);
  for (guint i = 0; presets->dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (presets->dirs[i],
                                                hr_preset_kind_folder (kind),
                                                file, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }

  g_set_error (error, HR_ERROR, HR_ERROR_NOT_FOUND,
               _("\"%s\" is not a known %s preset; allowed: the ids `headroom-cli "
               "--list %s` prints"), id, hr_preset_kind_folder (kind),
               hr_preset_kind_folder (kind));
  return NULL;
}

/* Every *.json file of KIND's folders, highest priority first: a GStrv
 * of paths.  The one walk of the folders that listing, naming the broken
 * files and collecting the ids share. */
static GStrv
json_files (HrPresets    *presets,
            HrPresetKind  kind)
{
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; presets->dirs[i] != NULL; i++)
    {
      g_autofree char *folder = g_build_filename (presets->dirs[i], hr_preset_kind_folder (kind),
                                                  NULL);
      g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
      const char *entry;

      while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (entry, ".json"))
          g_ptr_array_add (paths, g_build_filename (folder, entry, NULL));
    }
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_free (paths, FALSE);
}

/* A preset file's id: its name without ".json". */
static char *
file_id (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return g_strndup (base, strlen (base) - 5);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

GPtrArray *
hr_presets_find_all (HrPresets    *presets,
                     HrPresetKind  kind,
                     const char   *id)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *file = NULL;

  if (!hr_preset_id_is_valid (id))
    return paths;
  file = g_strconcat (id, ".json", NULL);
  for (guint i = 0; presets->dirs[i] != NULL; i++)
    {
      char *path = g_build_filename (presets->dirs[i], hr_preset_kind_folder (kind), file, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (paths, path);
      else
        g_free (path);
    }
  return paths;
}

GStrv
hr_presets_ids (HrPresets    *presets,
                HrPresetKind  kind)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) files = json_files (presets, kind);
  g_autofree const char **ids = NULL;
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv out;

  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *id = file_id (files[i]);

      if (hr_preset_id_is_valid (id))
        g_hash_table_add (seen, g_steal_pointer (&id));
    }
  ids = (const char **) g_hash_table_get_keys_as_array (seen, NULL);
  g_qsort_with_data (ids, g_hash_table_size (seen), sizeof (char *),
                     (GCompareDataFunc) compare_strings, NULL);
  for (guint i = 0; ids[i] != NULL; i++)
    g_strv_builder_add (builder, ids[i]);
  out = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return out;
}

JsonNode *
hr_presets_load_path (HrPresets   *presets,
                      const char  *path,
                      GError     **error)
{
  JsonNode *node = load_parsed (presets, path, error);

  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_TYPE,
                   _("%s: the preset is not a JSON object; allowed: an object"), path);
      g_clear_pointer (&node, json_node_unref);
    }
  return node;
}

JsonNode *
hr_presets_load (HrPresets     *presets,
                 HrPresetKind   kind,
                 const char    *id,
                 char         **out_path,
                 GError       **error)
{
  g_autofree char *path = hr_presets_find (presets, kind, id, error);
  JsonNode *node;

  if (path == NULL)
    return NULL;
  node = hr_presets_load_path (presets, path, error);
  if (node != NULL && out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return node;
}

static int
compare_info (gconstpointer a,
              gconstpointer b)
{
  const HrPresetInfo *x = *(HrPresetInfo * const *) a;
  const HrPresetInfo *y = *(HrPresetInfo * const *) b;

  return strcmp (x->id, y->id);
}

/* The display name a preset file gives itself, or its id. */
static char *
preset_name (HrPresetKind  kind,
             JsonObject   *obj,
             const char   *id)
{
  JsonObject *inner = obj;

  if (kind == HR_PRESET_MODEL && json_object_has_member (obj, "model")
      && JSON_NODE_HOLDS_OBJECT (json_object_get_member (obj, "model")))
    inner = json_object_get_object_member (obj, "model");
  if (json_object_has_member (inner, "name")
      && JSON_NODE_HOLDS_VALUE (json_object_get_member (inner, "name"))
      && json_node_get_value_type (json_object_get_member (inner, "name")) == G_TYPE_STRING)
    return g_strdup (json_object_get_string_member (inner, "name"));
  return g_strdup (id);
}

/* The display name of one preset (NULL when it is not found or does not
 * load): what a list shows for it without reading every other file. */
char *
hr_presets_name (HrPresets    *presets,
                 HrPresetKind  kind,
                 const char   *id)
{
  g_autoptr(JsonNode) node = NULL;

  if (id == NULL || !hr_preset_id_is_valid (id))
    return NULL;
  node = hr_presets_load (presets, kind, id, NULL, NULL);
  return node != NULL ? preset_name (kind, json_node_get_object (node), id) : NULL;
}

/* Every valid preset of a kind, the user's shadowing the bundled ones,
 * sorted by id.  Files that do not parse are left out here and reported
 * by hr_presets_broken(). */
GPtrArray *
hr_presets_list (HrPresets    *presets,
                 HrPresetKind  kind)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_preset_info_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) files = json_files (presets, kind);

  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *id = file_id (files[i]);
      g_autoptr(JsonNode) node = NULL;
      HrPresetInfo *info;

      if (!hr_preset_id_is_valid (id) || g_hash_table_contains (seen, id))
        continue;
      node = load_parsed (presets, files[i], NULL);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      g_hash_table_add (seen, g_strdup (id));
      info = g_new0 (HrPresetInfo, 1);
      info->name = preset_name (kind, json_node_get_object (node), id);
      info->id = g_steal_pointer (&id);
      info->path = g_strdup (files[i]);
      g_ptr_array_add (list, info);
    }
  g_ptr_array_sort (list, compare_info);
  return list;
}

/* Messages for preset files that do not parse, so the app can start
 * anyway and name them. */
GPtrArray *
hr_presets_broken (HrPresets *presets)
{
  GPtrArray *messages = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < HR_N_PRESET_KINDS; k++)
    {
      g_auto(GStrv) files = json_files (presets, k);

      for (guint i = 0; files[i] != NULL; i++)
        {
          g_autoptr(JsonNode) node = NULL;
          g_autoptr(GError) error = NULL;

          node = load_parsed (presets, files[i], &error);
          if (node == NULL)
            g_ptr_array_add (messages, g_strdup (error->message));
          else if (!JSON_NODE_HOLDS_OBJECT (node))
            g_ptr_array_add (messages, g_strdup_printf ("%s: not a JSON object", files[i]));
        }
    }
  return messages;
}
