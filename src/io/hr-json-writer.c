/* hr-json-writer.c: JSON text that every JSON reader, Headroom's included,
 * reads back as it was written
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib 1.6's generator writes a double with "%.17g" and appends ".0"
 * when the text has no point: 2e17 becomes "2e+17.0" and infinity "inf.0",
 * neither of them JSON, so a saved scenario did not reopen.  This writer
 * prints a double in the fewest digits that read back to the same value,
 * keeps a whole-valued double recognisable as one ("3.0"), and writes a
 * non-finite number, which JSON cannot hold, as null (the producers check
 * their figures are finite: this is the last line of defence).
 */

#include "hr-json.h"
#include "hr-text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
append_double (GString *out,
               double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean plain = TRUE;

  if (!isfinite (v))
    {
      g_string_append (out, "null");
      return;
    }
  for (int digits = 15; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  for (const char *p = buf; *p; p++)
    if (*p == '.' || *p == 'e' || *p == 'E')
      plain = FALSE;
  g_string_append (out, buf);
  if (plain)
    g_string_append (out, ".0");
}

static void
append_string (GString    *out,
               const char *s)
{
  const char *p = s;

  g_string_append_c (out, '"');
  while (*p != '\0')
    {
      const char *run = p;
      gunichar c;

      /* Plain ASCII, most of every report, is copied a run at a time:
       * a character at a time was a tenth of `--format json`. */
      while (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
        p++;
      if (p > run)
        g_string_append_len (out, run, p - run);
      if (*p == '\0')
        break;
      c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: never write what a reader would refuse. */
          g_string_append (out, "\\ufffd");
          p++;
          continue;
        }
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

static void
append_indent (GString *out,
               gboolean pretty,
               guint    level)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

static void append_node (GString *out, JsonNode *node, gboolean pretty, guint level);

static void
append_object (GString    *out,
               JsonObject *obj,
               gboolean    pretty,
               guint       level)
{
  /* json_object_get_members keeps the order the members were added in. */
  g_autoptr(GList) members = json_object_get_members (obj);

  g_string_append_c (out, '{');
  for (GList *l = members; l != NULL; l = l->next)
    {
      append_indent (out, pretty, level + 1);
      append_string (out, l->data);
      g_string_append (out, pretty ? " : " : ":");
      append_node (out, json_object_get_member (obj, l->data), pretty, level + 1);
      if (l->next != NULL)
        g_string_append_c (out, ',');
    }
  if (members != NULL)
    append_indent (out, pretty, level);
  g_string_append_c (out, '}');
}

static void
append_array (GString   *out,
              JsonArray *array,
              gboolean   pretty,
              guint      level)
{
  guint n = json_array_get_length (array);

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      append_indent (out, pretty, level + 1);
      append_node (out, json_array_get_element (array, i), pretty, level + 1);
      if (i + 1 < n)
        g_string_append_c (out, ',');
    }
  if (n > 0)
    append_indent (out, pretty, level);
  g_string_append_c (out, ']');
}

static void
append_node (GString  *out,
             JsonNode *node,
             gboolean  pretty,
             guint     level)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      g_string_append (out, "null");
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      append_object (out, json_node_get_object (node), pretty, level);
      return;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      append_array (out, json_node_get_array (node), pretty, level);
      return;
    }
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      append_double (out, json_node_get_double (node));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      append_string (out, json_node_get_string (node));
      break;
    default:
      g_string_append (out, "null");
    }
}

char *
hr_json_to_data (JsonNode *root,
                 gboolean  pretty,
                 gsize    *length)
{
  GString *out = g_string_new (NULL);

  append_node (out, root, pretty, 0);
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}
