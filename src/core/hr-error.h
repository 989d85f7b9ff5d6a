/* hr-error.h: the one error domain of the core
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Messages start with the path of the offending field ("parallel.tp: ..."),
 * so the CLI can print them after a file name; hr_error_set_field keeps
 * the path beside the message too, so the GUI can show the reason next to
 * the field it names, and the CLI can tell a --set value's error from the
 * file's.  A reader's error names its file first ("s.json: parallel.tp:
 * ..."): hr_error_set_field_in keeps that origin beside the path.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_ERROR (hr_error_quark ())

typedef enum
{
  HR_ERROR_PARSE,        /* not JSON */
  HR_ERROR_UNKNOWN_KEY,  /* a key the contract does not define */
  HR_ERROR_TYPE,         /* a value of the wrong JSON type */
  HR_ERROR_INVALID,      /* a value out of range, or fields that disagree */
  HR_ERROR_NOT_FOUND,    /* a preset id that does not exist */
  HR_ERROR_IO,           /* a file that cannot be read or written */
} HrErrorCode;

GQuark       hr_error_quark      (void);
void         hr_error_set_field  (GError        **error,
                                  HrErrorCode     code,
                                  const char     *path,
                                  const char     *format,
                                  ...) G_GNUC_PRINTF (4, 5);
void         hr_error_set_field_in (GError      **error,
                                    HrErrorCode   code,
                                    const char   *origin,
                                    const char   *path,
                                    const char   *format,
                                    ...) G_GNUC_PRINTF (5, 6);
void         hr_error_add_origin (GError        **error,
                                  const char     *origin);
const char  *hr_error_field      (const GError   *error);
const char  *hr_error_reason     (const GError   *error);
const char  *hr_error_origin     (const GError   *error);

G_END_DECLS
