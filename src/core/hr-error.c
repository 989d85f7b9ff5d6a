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
  char *origin;   /* what the message names before the path (a file), or NULL */
} HrErrorPrivate;

static void
hr_error_private_init (HrErrorPrivate *priv)
{
  priv->path = NULL;
  priv->reason = NULL;
  priv->origin = NULL;
}

static void
hr_error_private_copy (const HrErrorPrivate *src,
                       HrErrorPrivate       *dest)
{
  dest->path = g_strdup (src->path);
  dest->reason = g_strdup (src->reason);
  dest->origin = g_strdup (src->origin);
}

static void
hr_error_private_clear (HrErrorPrivate *priv)
{
  g_clear_pointer (&priv->path, g_free);
  g_clear_pointer (&priv->reason, g_free);
  g_clear_pointer (&priv->origin, g_free);
}

G_DEFINE_EXTENDED_ERROR (HrError, hr_error)

static void
set_field_valist (GError      **error,
                  HrErrorCode   code,
                  const char   *origin,
                  const char   *path,
                  const char   *format,
                  va_list       args)
{
  g_autofree char *reason = g_strdup_vprintf (format, args);
  HrErrorPrivate *priv;

  if (origin != NULL)
    g_set_error (error, HR_ERROR, code, "%s: %s: %s", origin, path, reason);
  else
    g_set_error (error, HR_ERROR, code, "%s: %s", path, reason);
  priv = hr_error_get_private (*error);
  priv->path = g_strdup (path);
  priv->reason = g_steal_pointer (&reason);
  priv->origin = g_strdup (origin);
}

/* Sets *error to "PATH: reason" and keeps PATH and the reason beside it. */
void
hr_error_set_field (GError      **error,
                    HrErrorCode   code,
                    const char   *path,
                    const char   *format,
                    ...)
{
  va_list args;

  if (error == NULL)
    return;
  va_start (args, format);
  set_field_valist (error, code, NULL, path, format, args);
  va_end (args);
}

/* Sets *error to "ORIGIN: PATH: reason" (ORIGIN a file, or "--set"), and
 * keeps ORIGIN, PATH and the reason beside it. */
void
hr_error_set_field_in (GError      **error,
                       HrErrorCode   code,
                       const char   *origin,
                       const char   *path,
                       const char   *format,
                       ...)
{
  va_list args;

  if (error == NULL)
    return;
  va_start (args, format);
  set_field_valist (error, code, origin, path, format, args);
  va_end (args);
}

/* Puts "ORIGIN: " before the message, and before the origin it keeps. */
void
hr_error_add_origin (GError     **error,
                     const char  *origin)
{
  HrErrorPrivate *priv;

  if (error == NULL || *error == NULL)
    return;
  g_prefix_error (error, "%s: ", origin);
  priv = hr_error_get_private (*error);
  if (priv == NULL || priv->path == NULL)
    return;
  if (priv->origin != NULL)
    {
      char *both = g_strdup_printf ("%s: %s", origin, priv->origin);

      g_free (priv->origin);
      priv->origin = both;
    }
  else
    priv->origin = g_strdup (origin);
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

/* What the message names before the field's path (the file that holds
 * the value), or NULL. */
const char *
hr_error_origin (const GError *error)
{
  HrErrorPrivate *priv = error != NULL ? hr_error_get_private (error) : NULL;

  return priv != NULL ? priv->origin : NULL;
}
