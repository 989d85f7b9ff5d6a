/* hr-error.c: the one error domain of the core
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-error.h"

#include <string.h>

G_DEFINE_QUARK (hr-error-quark, hr_error)

/* "parallel.tp: 3 does not divide ..." -> "parallel.tp", or NULL when the
 * message names no field. */
char *
hr_error_path (const GError *error)
{
  const char *colon;

  if (error == NULL || error->domain != HR_ERROR)
    return NULL;
  colon = strstr (error->message, ": ");
  if (colon == NULL)
    return NULL;
  for (const char *p = error->message; p < colon; p++)
    if (!(g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '[' || *p == ']'))
      return NULL;
  return g_strndup (error->message, colon - error->message);
}
