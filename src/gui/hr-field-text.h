/* hr-field-text.h: fields in messages, by the labels the form shows
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *hr_field_text_label      (const char   *path);
char       *hr_field_text_labels     (const char   *text);
char       *hr_field_text_for_error  (const GError *error);

G_END_DECLS
