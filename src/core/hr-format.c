/* hr-format.c: sizes in words people read
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every number goes through g_ascii_formatd so that a German locale still
 * writes "3.03", never "3,03", in files other programs read.
 */

#include "hr-format.h"

#include <math.h>
#include <string.h>

char *
hr_format_double (double value,
                  int    decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char fmt[8];

  decimals = CLAMP (decimals, 0, 9);
  g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);
  g_ascii_formatd (buf, sizeof buf, fmt, value);
  return g_strdup (buf);
}

/* "3.03 GiB", "812 MiB", "1.25 TiB"; negative sizes keep their sign. */
char *
hr_format_bytes (double  bytes,
                 HrUnits units)
{
  static const char * const binary[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  static const char * const decimal[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
  const char * const *names = units == HR_UNITS_DECIMAL ? decimal : binary;
  double base = units == HR_UNITS_DECIMAL ? 1000.0 : 1024.0;
  double magnitude = fabs (bytes);
  guint unit = 0;
  g_autofree char *number = NULL;

  if (!isfinite (bytes))
    return g_strdup ("?");

  /* Switch units at 1000, not 1024, so "1000 MiB" reads "0.98 GiB". */
  while (magnitude >= 1000.0 && unit < 6)
    {
      magnitude /= base;
      unit++;
    }

  number = hr_format_double (bytes < 0 ? -magnitude : magnitude,
                             unit == 0 ? 0 : magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0);
  return g_strdup_printf ("%s %s", number, names[unit]);
}

/* "13.0 B", "124.4 M" parameters. */
char *
hr_format_count (double count)
{
  static const char * const names[] = { "", " K", " M", " B", " T", " Q" };
  guint unit = 0;
  g_autofree char *number = NULL;

  while (fabs (count) >= 1000.0 && unit < 5)
    {
      count /= 1000.0;
      unit++;
    }
  number = hr_format_double (count, unit == 0 ? 0 : 2);
  return g_strdup_printf ("%s%s", number, names[unit]);
}

static gboolean
is_unit (const char *p)
{
  static const char * const units[] = { "EiB", "PiB", "TiB", "GiB", "MiB", "KiB", "EB", "PB",
                                        "TB", "GB", "MB", "kB", "B", "%" };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_has_prefix (p, units[i]) && !g_ascii_isalnum (p[strlen (units[i])]))
      return TRUE;
  return FALSE;
}

/* A sentence ("Fits on 8x H100 SXM 80GB with 39.2 GiB (49 %) to spare")
 * with each amount — a number, a space and a unit — through number;
 * other numbers ("Llama 3.1 8B", "80GB") stay as they are.  The window's
 * text and its charts share it (hr_locale_text, HrChartStyle.number). */
char *
hr_format_amounts (const char   *ascii,
                   HrNumberFunc  number)
{
  GString *out;
  const char *p;

  g_return_val_if_fail (ascii != NULL && number != NULL, NULL);
  out = g_string_sized_new (strlen (ascii));
  p = ascii;
  while (*p != '\0')
    {
      const char *end = p;

      if (g_ascii_isdigit (*p) && (p == ascii || (!g_ascii_isalnum (p[-1]) && p[-1] != '.')))
        {
          while (g_ascii_isdigit (*end))
            end++;
          if (*end == '.' && g_ascii_isdigit (end[1]))
            for (end++; g_ascii_isdigit (*end); end++)
              ;
          if (*end == ' ' && is_unit (end + 1))
            {
              g_autofree char *digits = g_strndup (p, end - p);
              g_autofree char *local = number (digits);

              g_string_append (out, local);
              p = end;
              continue;
            }
          g_string_append_len (out, p, end - p);
          p = end;
          continue;
        }
      g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}
