/* hr-json-strict.c: the JSON grammar of RFC 8259, and nothing more
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib's parser is lenient in ways that hurt a planner: it accepts
 * comments and single-quoted strings (so a depth guard that counts
 * brackets can be fooled into letting 100 000 '[' through to a parser
 * that recurses), reads 010 as 8 and 0x10 as 16, lets a later duplicate
 * key replace a whole section, and ignores a second document after the
 * first.  Every file and --set value is checked here first, by a loop
 * with an explicit stack, so nothing json-glib sees can be deeper than
 * HR_JSON_MAX_DEPTH or mean something else than it says.
 */

#include "hr-json.h"
#include "hr-error.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  const char  *start;
  const char  *p;
  const char  *end;
  const char  *origin;
  GError     **error;
} Scanner;

/* One open array or object; an object keeps its keys to find duplicates. */
typedef struct
{
  gboolean    is_object;
  GHashTable *keys;
} Frame;

static gboolean
scan_fail (Scanner    *s,
           const char *what)
{
  guint line = 1, column = 1;

  for (const char *q = s->start; q < s->p && q < s->end; q = g_utf8_next_char (q))
    {
      if (*q == '\n')
        {
          line++;
          column = 1;
        }
      else
        column++;
    }
  g_set_error (s->error, HR_ERROR, HR_ERROR_PARSE,
               _("%s: not valid JSON (line %u, column %u: %s); allowed: strict JSON "
               "(RFC 8259: no comments, double-quoted strings, decimal numbers, one document)"),
               s->origin, line, column, what);
  return FALSE;
}

static void
skip_space (Scanner *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    s->p++;
}

static int
hex_value (char c)
{
  return g_ascii_xdigit_value (c);
}

/* A string at s->p (the opening quote).  With KEY set, the decoded text
 * is appended to it, so "a" and "\u0061" are the same key. */
static gboolean
scan_string (Scanner *s,
             GString *key)
{
  s->p++;
  while (s->p < s->end)
    {
      guchar c = (guchar) *s->p;

      if (c == '"')
        {
          s->p++;
          return TRUE;
        }
      if (c < 0x20)
        return scan_fail (s, "a control character inside a string (write it as \\n, \\t or \\u00XX)");
      if (c != '\\')
        {
          if (key != NULL)
            g_string_append_c (key, (char) c);
          s->p++;
          continue;
        }
      if (s->p + 1 >= s->end)
        break;
      s->p++;
      switch (*s->p)
        {
        case '"': case '\\': case '/':
          if (key != NULL)
            g_string_append_c (key, *s->p);
          s->p++;
          break;
        case 'b': case 'f': case 'n': case 'r': case 't':
          if (key != NULL)
            g_string_append_c (key, *s->p == 'n' ? '\n' : *s->p == 't' ? '\t' : *s->p);
          s->p++;
          break;
        case 'u':
          {
            gunichar u = 0;

            if (s->end - s->p < 5)
              return scan_fail (s, "a \\u escape needs four hexadecimal digits");
            for (int i = 1; i <= 4; i++)
              {
                int d = hex_value (s->p[i]);

                if (d < 0)
                  return scan_fail (s, "a \\u escape needs four hexadecimal digits");
                u = u * 16 + (gunichar) d;
              }
            if (key != NULL)
              g_string_append_unichar (key, u);
            s->p += 5;
          }
          break;
        default:
          return scan_fail (s, "an unknown escape in a string; allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
        }
    }
  return scan_fail (s, "a string without its closing quote");
}

static gboolean
scan_digits (Scanner *s)
{
  const char *first = s->p;

  while (s->p < s->end && g_ascii_isdigit (*s->p))
    s->p++;
  return s->p > first;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
scan_number (Scanner *s)
{
  if (*s->p == '-')
    s->p++;
  if (s->p < s->end && *s->p == '0')
    {
      s->p++;
      if (s->p < s->end && (g_ascii_isdigit (*s->p) || *s->p == 'x' || *s->p == 'X'))
        return scan_fail (s, "a number with a leading zero (octal and hexadecimal are not JSON)");
    }
  else if (!scan_digits (s))
    return scan_fail (s, "a minus sign without digits");
  if (s->p < s->end && *s->p == '.')
    {
      s->p++;
      if (!scan_digits (s))
        return scan_fail (s, "a decimal point without digits after it");
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      s->p++;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        s->p++;
      if (!scan_digits (s))
        return scan_fail (s, "an exponent without digits");
    }
  return TRUE;
}

static gboolean
scan_literal (Scanner *s)
{
  static const char *const words[] = { "true", "false", "null" };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);

      if ((gsize) (s->end - s->p) >= n && memcmp (s->p, words[i], n) == 0)
        {
          s->p += n;
          return TRUE;
        }
    }
  if (*s->p == '/')
    return scan_fail (s, "a comment");
  if (*s->p == '\'')
    return scan_fail (s, "a single-quoted string");
  return scan_fail (s, "not a value (a value is an object, array, string, number, true, false or null)");
}

static gboolean
scan_key (Scanner *s,
          Frame   *frame)
{
  g_autoptr(GString) key = g_string_new (NULL);

  if (s->p >= s->end || *s->p != '"')
    return scan_fail (s, s->p < s->end && *s->p == '\''
                         ? "a single-quoted key" : "expected a key in double quotes");
  if (!scan_string (s, key))
    return FALSE;
  if (g_hash_table_contains (frame->keys, key->str))
    {
      g_autofree char *shown = hr_text_for_message (key->str, 40);
      g_autofree char *what = g_strdup_printf ("the key \"%s\" a second time in one object", shown);

      return scan_fail (s, what);
    }
  g_hash_table_add (frame->keys, g_string_free (g_steal_pointer (&key), FALSE));
  skip_space (s);
  if (s->p >= s->end || *s->p != ':')
    return scan_fail (s, "expected ':' after a key");
  s->p++;
  return TRUE;
}

static void
frame_clear (Frame *frame)
{
  g_clear_pointer (&frame->keys, g_hash_table_unref);
}

gboolean
hr_json_check_strict (const char  *data,
                      gsize        length,
                      const char  *origin,
                      GError     **error)
{
  Scanner s = { data, data, data + length, origin, error };
  Frame stack[HR_JSON_MAX_DEPTH];
  guint depth = 0;
  gboolean ok = FALSE;

  skip_space (&s);
  if (s.p == s.end)
    {
      g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                   _("%s: the file is empty; allowed: a JSON object"), origin);
      return FALSE;
    }

  for (;;)
    {
      /* A value is expected at s.p. */
      skip_space (&s);
      if (s.p >= s.end)
        {
          scan_fail (&s, "the document ends where a value should be");
          goto out;
        }
      if (*s.p == '[' || *s.p == '{')
        {
          Frame *frame;

          if (depth == HR_JSON_MAX_DEPTH)
            {
              g_set_error (error, HR_ERROR, HR_ERROR_PARSE,
                           _("%s: the JSON nests deeper than %d levels; allowed: a scenario "
                           "(a few levels)"), origin, HR_JSON_MAX_DEPTH);
              goto out;
            }
          frame = &stack[depth++];
          frame->is_object = *s.p == '{';
          frame->keys = frame->is_object ? g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) : NULL;
          s.p++;
          skip_space (&s);
          if (s.p < s.end && *s.p == (frame->is_object ? '}' : ']'))
            {
              s.p++;
              frame_clear (&stack[--depth]);
            }
          else if (frame->is_object)
            {
              if (!scan_key (&s, frame))
                goto out;
              continue;
            }
          else
            continue;
        }
      else if (*s.p == '"')
        {
          if (!scan_string (&s, NULL))
            goto out;
        }
      else if (*s.p == '-' || g_ascii_isdigit (*s.p))
        {
          if (!scan_number (&s))
            goto out;
        }
      else if (!scan_literal (&s))
        goto out;

      /* A value has ended: close what it ends, or go on to the next one. */
      for (;;)
        {
          Frame *top;

          skip_space (&s);
          if (depth == 0)
            {
              if (s.p != s.end)
                {
                  scan_fail (&s, *s.p == '/' ? "a comment" : "a second value after the document");
                  goto out;
                }
              ok = TRUE;
              goto out;
            }
          top = &stack[depth - 1];
          if (s.p < s.end && *s.p == ',')
            {
              s.p++;
              if (top->is_object)
                {
                  skip_space (&s);
                  if (!scan_key (&s, top))
                    goto out;
                }
              break;
            }
          if (s.p < s.end && *s.p == (top->is_object ? '}' : ']'))
            {
              s.p++;
              frame_clear (&stack[--depth]);
              continue;
            }
          scan_fail (&s, s.p >= s.end ? "the document ends inside an array or object"
                         : top->is_object ? "expected ',' or '}'" : "expected ',' or ']'");
          goto out;
        }
    }

out:
  while (depth > 0)
    frame_clear (&stack[--depth]);
  return ok;
}
