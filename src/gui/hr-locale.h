/* hr-locale.h: numbers in the window as the user's locale writes them
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-format.h"

G_BEGIN_DECLS

char *hr_locale_number (const char *ascii);
char *hr_locale_bytes  (double      bytes,
                        HrUnits     units);
char *hr_locale_count  (double      count);
char *hr_locale_whole  (guint64     value);
char *hr_locale_text   (const char *ascii);

G_END_DECLS
