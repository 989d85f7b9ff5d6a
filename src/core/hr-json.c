/* hr-json.c: reading JSON files safely, and typed member look-ups
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Headroom reads (scenarios, presets, imported configs,
 * measured runs) comes through here, so the size and depth limits and
 * the "file: problem; allowed: ..." messages hold for all of them.
 */

#include "hr-json.h"
#include "hr-error.h"

/* Reading refuses files that could only be a mistake or an attack: a
 * scenario is a few kilobytes, and json-glib's parser recurses. */
#define MAX_FILE_BYTES (4 * 1024 * 1024)
#define MAX_DEPTH      64

/* Deepest nesting of arrays and objects, strings skipped. */
static guint
json_depth (const char *data,
            gsize       length)
{
  guint depth = 0, deepest = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        deepest = MAX (deepest, ++depth);
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return deepest;
}

JsonNode *
hr_json_load_data (const char  *data,
                   gssize       length,
                   const char  *origin,
                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local = NULL;
  gsize len = length < 0 ? strlen (data) : (gsize) length;
  JsonNode *root;

  if (len > MAX_FILE_BYTES)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   "%s: the file is %" G_GSIZE_FORMAT " bytes; allowed: up to %d bytes",
                   origin, len, MAX_FILE_BYTES);
      return NULL;
    }
  if (!g_utf8_validate (data, len, NULL))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   "%s: the file is not UTF-8 text; allowed: a JSON document", origin);
      return NULL;
    }
  if (json_depth (data, len) > MAX_DEPTH)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   "%s: the JSON nests deeper than %d levels; allowed: a scenario "
                   "(a few levels)", origin, MAX_DEPTH);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, (gssize) len, &local))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE, "%s: not valid JSON (%s)",
                   origin, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   "%s: the file is empty; allowed: a JSON object", origin);
      return NULL;
    }
  return json_node_ref (root);
}

JsonNode *
hr_json_load_file (const char  *path,
                   GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_IO, "%s: %s", path, local->message);
      return NULL;
    }
  return hr_json_load_data (data, (gssize) length, path, error);
}

JsonObject *
hr_json_member_object (JsonObject *obj,
                       const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

gboolean
hr_json_member_true (JsonObject *obj,
                     const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}
