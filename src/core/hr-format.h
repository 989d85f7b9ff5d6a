/* hr-format.h: sizes in words people read
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_GIB (1024.0 * 1024.0 * 1024.0)
#define HR_MIB (1024.0 * 1024.0)

typedef enum
{
  HR_UNITS_BINARY,    /* GiB, as nvidia-smi's MiB */
  HR_UNITS_DECIMAL,   /* GB, as the ZeRO paper and marketing */
} HrUnits;

/* A number written "39.2" or "1234" as a reader writes it ("39,2",
 * "1 234"); what follows the number is kept. */
typedef char *(*HrNumberFunc) (const char *ascii);

char *hr_format_bytes   (double  bytes,
                         HrUnits units);
char *hr_format_count   (double  count);
char *hr_format_double  (double  value,
                         int     decimals);
char *hr_format_amounts (const char   *ascii,
                         HrNumberFunc  number);

G_END_DECLS
