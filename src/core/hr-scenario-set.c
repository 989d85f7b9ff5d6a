/* hr-scenario-set.c: --set PATH=VALUE on a scenario document
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command line changes the JSON before it is read, so a value given
 * with --set goes through exactly the checks a file's value does.
 */

#include "hr-scenario-io.h"
#include "hr-error.h"

#include <string.h>

gboolean
hr_json_set_path (JsonObject  *root,
                  const char  *assignment,
                  GError     **error)
{
  const char *eq = strchr (assignment, '=');
  g_autofree char *path = NULL;
  g_auto(GStrv) parts = NULL;
  JsonObject *obj = root;
  JsonNode *value;
  guint n;

  if (eq == NULL || eq == assignment)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "--set: \"%s\" is not allowed; "
                   "allowed: PATH=VALUE, e.g. training.micro_batch=8", assignment);
      return FALSE;
    }
  path = g_strndup (assignment, eq - assignment);
  parts = g_strsplit (path, ".", -1);
  n = g_strv_length (parts);
  for (guint i = 0; i < n; i++)
    {
      const char *p = parts[i];
      gboolean ok = *p != '\0' && strlen (p) < 64;

      for (; ok && *p; p++)
        ok = g_ascii_isalnum (*p) || *p == '_';
      if (!ok)
        {
          g_set_error (error, HR_ERROR, HR_ERROR_INVALID, "--set: \"%s\" is not a path; "
                       "allowed: keys joined by dots, e.g. parallel.zero", path);
          return FALSE;
        }
    }

  value = json_from_string (eq + 1, NULL);
  if (value == NULL)
    {
      value = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (value, eq + 1);
    }

  for (guint i = 0; i + 1 < n; i++)
    {
      JsonNode *child = json_object_get_member (obj, parts[i]);

      if (child == NULL || !JSON_NODE_HOLDS_OBJECT (child))
        {
          json_object_set_object_member (obj, parts[i], json_object_new ());
          child = json_object_get_member (obj, parts[i]);
        }
      obj = json_node_get_object (child);
    }

  /* Choosing a preset starts that section from the preset. */
  if (n == 2 && strcmp (parts[1], "preset") == 0
      && (strcmp (parts[0], "model") == 0 || strcmp (parts[0], "gpu") == 0))
    {
      g_autoptr(GList) members = json_object_get_members (obj);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_remove_member (obj, l->data);
    }

  json_object_set_member (obj, parts[n - 1], value);
  return TRUE;
}
