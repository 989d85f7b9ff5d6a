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
