/* hr-preferences.h: the Preferences window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *hr_preferences_new (GtkWindow *parent);

G_END_DECLS
