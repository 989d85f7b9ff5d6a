/* hr-text.h: user text made safe to show in one line of a message
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char  *hr_text_for_message  (const char *text,
                             gsize       max_chars);
gsize  hr_text_utf8_prefix  (const char *text,
                             gsize       max_bytes);

G_END_DECLS
