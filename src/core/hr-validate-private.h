/* hr-validate-private.h: what the validator's files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-error.h"
#include "hr-validate.h"

G_BEGIN_DECLS

/* "PATH: reason", with the path kept beside the message (hr_error_field)
 * for the window to find the row.  The reasons are translated (the paths
 * are not: they are what the file says); guint64 values are printed with
 * PRIu64, which gettext's catalogues carry for each platform, where
 * G_GUINT64_FORMAT would cut the message xgettext extracts short. */
#define FAIL(path, ...)                                                   \
  G_STMT_START {                                                          \
    hr_error_set_field (error, HR_ERROR_INVALID, path, __VA_ARGS__);      \
    return FALSE;                                                         \
  } G_STMT_END

/* VALUE within MIN..MAX, or an error "PATH: VALUE is out of range;
 * allowed: MIN to MAX". */
gboolean hr_check_range (const char  *path,
                         guint64      value,
                         guint64      min,
                         guint64      max,
                         GError     **error);

/* hr-validate-shared.c: Zamba2's shared blocks, after the pattern's own
 * checks. */
gboolean hr_validate_shared    (const HrScenario  *sc,
                                GError           **error);

G_END_DECLS
