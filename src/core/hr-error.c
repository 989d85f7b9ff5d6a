/* hr-error.c: the one error domain of the core
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An extended GError domain (GLib 2.68): besides its message, an error
 * about one field carries that field's path and the reason without it, so
 * the window finds the row to mark without taking the message apart.
 */

#include "hr-error.h"

#include <stdarg.h>

typedef struct
{
  char *path;     /* "parallel.tp", or NULL */
  char *reason;   /* the message after "parallel.tp: " */
} HrErrorPrivate;

static void
hr_error_private_init (HrErrorPrivate *priv)
{
  priv->path = NULL;
  priv->reason = NULL;
}

static void
hr_error_private_copy (const HrErrorPrivate *src,
                       HrErrorPrivate       *dest)
{
  dest->path = g_strdup (src->path);
  dest->reason = g_strdup (src->reason);
}

static void
hr_error_private_clear (HrErrorPrivate *priv)
{
  g_clear_pointer (&priv->path, g_free);
  g_clear_pointer (&priv->reason, g_free);
}

G_DEFINE_EXTENDED_ERROR (HrError, hr_error)

/* Sets *error to "PATH: reason" and keeps PATH and the reason beside it. */
void
hr_error_set_field (GError      **error,
                    HrErrorCode   code,
                    const char   *path,
                    const char   *format,
                    ...)
{
  g_autofree char *reason = NULL;
  HrErrorPrivate *priv;
  va_list args;

  if (error == NULL)
    return;
  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, HR_ERROR, code, "%s: %s", path, reason);
  priv = hr_error_get_private (*error);
  priv->path = g_strdup (path);
  priv->reason = g_steal_pointer (&reason);
}

/* The path of the field an error is about, or NULL. */
const char *
hr_error_field (const GError *error)
{
  HrErrorPrivate *priv = error != NULL ? hr_error_get_private (error) : NULL;

  return priv != NULL ? priv->path : NULL;
}

/* The message without the field's path ("3 does not divide ..."), or the
 * whole message for an error about no one field. */
const char *
hr_error_reason (const GError *error)
{
  HrErrorPrivate *priv = error != NULL ? hr_error_get_private (error) : NULL;

  if (priv != NULL && priv->reason != NULL)
    return priv->reason;
  return error != NULL ? error->message : NULL;
}
