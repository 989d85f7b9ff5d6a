/* hr-locale.c: numbers in the window as the user's locale writes them
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The core formats sizes with g_ascii_formatd, so files and the CLI
 * always write "39.2 GiB".  What the window shows is for a person: the
 * same figure with the locale's decimal mark and digit grouping ("39,2
 * GiB", "4 096"), through printf's ' flag after setlocale (main.c).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-locale.h"

/* ascii with its leading number ("-39.2", "1234", "13.02") in the
 * locale's format and the rest as it is; text without one unchanged. */
char *
hr_locale_number (const char *ascii)
{
  const char *p = ascii, *digits, *end;
  const char *sign = "";
  g_autofree char *number = NULL;
  char *dot;
  int decimals = 0;

  g_return_val_if_fail (ascii != NULL, NULL);
  if (*p == '-' || *p == '+')
    sign = *p == '-' ? "-" : "+", p++;
  else if (g_str_has_prefix (p, "−"))
    sign = "−", p += strlen ("−");
  digits = p;
  while (g_ascii_isdigit (*p))
    p++;
  if (p == digits)
    return g_strdup (ascii);
  if (*p == '.' && g_ascii_isdigit (p[1]))
    {
      p++;
      while (g_ascii_isdigit (*p))
        {
          p++;
          decimals++;
        }
    }
  end = p;
  number = g_strndup (digits, end - digits);
  if ((dot = strchr (number, '.')) == NULL && end - digits > 15)
    return g_strdup (ascii);   /* beyond what a double holds exactly */
  return g_strdup_printf ("%s%'.*f%s", sign, decimals, g_ascii_strtod (number, NULL), end);
}

char *
hr_locale_bytes (double  bytes,
                 HrUnits units)
{
  g_autofree char *ascii = hr_format_bytes (bytes, units);

  return hr_locale_number (ascii);
}

char *
hr_locale_count (double count)
{
  g_autofree char *ascii = hr_format_count (count);

  return hr_locale_number (ascii);
}

/* A sentence from the core ("Fits on 8x H100 SXM 80GB with 39.2 GiB (49 %)
 * to spare per GPU") with each amount — a number, a space and a unit —
 * in the locale's format; other numbers ("Llama 3.1 8B", "80GB") stay as
 * they are. */
char *
hr_locale_text (const char *ascii)
{
  g_return_val_if_fail (ascii != NULL, NULL);
  return hr_format_amounts (ascii, hr_locale_number);
}

/* "4096", "4,096" or "4 096". */
char *
hr_locale_whole (guint64 value)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, value);
}
