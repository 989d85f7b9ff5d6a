/* hr-text.c: user text made safe to show in one line of a message
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Keys, values and names come from files anyone can write.  Shown in an
 * error they must stay one short line (a 1 MB key once froze the window
 * for 30 s while GTK laid it out), must not drive the terminal (control
 * characters), and must stay valid UTF-8 when cut.
 */

#include "hr-text.h"

#include <string.h>

/* The longest prefix of TEXT, at most MAX_BYTES long, that ends on a
 * character boundary (and before any invalid byte). */
gsize
hr_text_utf8_prefix (const char *text,
                     gsize       max_bytes)
{
  const char *end;
  gsize n;

  g_utf8_validate (text, -1, &end);
  n = (gsize) (end - text);
  if (n <= max_bytes)
    return n;
  n = max_bytes;
  while (n > 0 && ((guchar) text[n] & 0xC0) == 0x80)
    n--;
  return n;
}

/* TEXT with control characters written as escapes (\n, \t, \u001b),
 * invalid bytes as \xFF, and cut after MAX_CHARS characters with "…". */
char *
hr_text_for_message (const char *text,
                     gsize       max_chars)
{
  GString *out = g_string_new (NULL);
  const char *p = text != NULL ? text : "";
  gsize chars = 0;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (chars == max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      chars++;
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02X", (guchar) *p);
          p++;
          continue;
        }
      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0x2028 || c == 0x2029
               || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
        /* C0 and C1 controls, line separators and the bidirectional
         * overrides, which can make a terminal show other text. */
        g_string_append_printf (out, "\\u%04X", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}
