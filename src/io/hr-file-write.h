/* hr-file-write.h: saving a file so that a failure leaves the old one
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean   hr_write_file_atomic    (const char   *path,
                                    const char   *data,
                                    gsize         length,
                                    GError      **error);
gboolean   hr_file_same            (const char   *a,
                                    const char   *b);

G_END_DECLS
