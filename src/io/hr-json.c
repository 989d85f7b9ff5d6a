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
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reading refuses files that could only be a mistake or an attack: a
 * scenario is a few kilobytes. */
#define MAX_FILE_BYTES (4 * 1024 * 1024)

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
                   _("%s: the file is %" "zu" " bytes; allowed: up to %d bytes"),
                   origin, len, MAX_FILE_BYTES);
      return NULL;
    }
  if (!g_utf8_validate (data, len, NULL))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   _("%s: the file is not UTF-8 text; allowed: a JSON document"), origin);
      return NULL;
    }
  /* json-glib only ever sees what the strict grammar accepts, so its
   * recursion is bounded and its leniencies never change a value. */
  if (!hr_json_check_strict (data, len, origin, error))
    return NULL;
  if (!json_parser_load_from_data (parser, data, (gssize) len, &local))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE, _("%s: not valid JSON (%s)"),
                   origin, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   _("%s: the file is empty; allowed: a JSON object"), origin);
      return NULL;
    }
  return json_node_ref (root);
}

/* The file at PATH, when it is a regular file of at most MAX_FILE_BYTES:
 * a FIFO would block every start of the window, a link to /dev/zero would
 * read until memory runs out, so the kind is checked on the open file
 * (O_NONBLOCK, so opening a FIFO does not wait for a writer) and the cap
 * while reading, never after. */
char *
hr_json_read_file (const char  *path,
                   gsize       *length,
                   GError     **error)
{
  g_autofree char *data = NULL;
  struct stat st;
  gsize len = 0;
  int fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, HR_ERROR, HR_ERROR_IO, "%s: %s", path, g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_IO, _("%s: not a regular file (%s); "
                   "allowed: a JSON file"), path,
                   S_ISFIFO (st.st_mode) ? _("a named pipe") : S_ISDIR (st.st_mode) ? _("a folder")
                   : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? _("a device") : _("a special file"));
      close (fd);
      return NULL;
    }
  if (st.st_size > MAX_FILE_BYTES)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   _("%s: the file is %" PRId64 " bytes; allowed: up to %d bytes"),
                   path, (gint64) st.st_size, MAX_FILE_BYTES);
      close (fd);
      return NULL;
    }
  /* One byte more than the cap, in case the file grows while it is read. */
  data = g_malloc ((gsize) st.st_size + 2);
  while (len <= (gsize) st.st_size)
    {
      gssize n = read (fd, data + len, (gsize) st.st_size + 1 - len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, HR_ERROR, HR_ERROR_IO, "%s: %s", path, g_strerror (saved));
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;
      len += (gsize) n;
    }
  close (fd);
  if (len > MAX_FILE_BYTES)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   _("%s: the file grew past %d bytes while it was read; allowed: up to %d bytes"),
                   path, MAX_FILE_BYTES, MAX_FILE_BYTES);
      return NULL;
    }
  data[len] = '\0';
  *length = len;
  return g_steal_pointer (&data);
}

JsonNode *
hr_json_load_file (const char  *path,
                   GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  data = hr_json_read_file (path, &length, error);
  if (data == NULL)
    return NULL;
  return hr_json_load_data (data, (gssize) length, path, error);
}

/* A copy of NODE that shares nothing with it: json_node_copy shares the
 * object or array it holds, so a change to the copy would change the
 * original (a preset kept parsed, say).  Depth is bounded by the strict
 * check every document passed. */
JsonNode *
hr_json_copy_deep (JsonNode *node)
{
  JsonNode *copy;

  if (node == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *src = json_node_get_object (node);
      JsonObject *dst = json_object_new ();
      g_autoptr(GList) members = json_object_get_members (src);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (dst, l->data,
                                hr_json_copy_deep (json_object_get_member (src, l->data)));
      copy = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (copy, dst);
      return copy;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *src = json_node_get_array (node);
      JsonArray *dst = json_array_sized_new (json_array_get_length (src));

      for (guint i = 0; i < json_array_get_length (src); i++)
        json_array_add_element (dst, hr_json_copy_deep (json_array_get_element (src, i)));
      copy = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (copy, dst);
      return copy;
    }
  copy = json_node_copy (node);   /* a value or null: nothing shared */
  return copy;
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

gboolean
hr_json_check_keys (JsonObject         *obj,
                    const char         *origin,
                    const char * const *allowed,
                    GError            **error)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        /* Escaped and cut, so a key with a line break or of a megabyte
         * still makes a one-line message. */
        g_autofree char *shown = hr_text_for_message (l->data, 40);
        g_autofree char *keys = g_strjoinv (", ", (char **) allowed);

        hr_error_set_field_in (error, HR_ERROR_UNKNOWN_KEY, origin, shown,
                               _("unknown key; allowed: %s"), keys);
        return FALSE;
      }
  return TRUE;
}
