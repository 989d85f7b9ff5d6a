/* hr-after-paint.h: run a function once, after the next frame is painted
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef void (*HrAfterPaintFunc) (gpointer data);

/* One pending call: zero-initialised in its owner, cancelled in the
 * owner's dispose. */
typedef struct
{
  GdkFrameClock *clock;     /* held while a call is pending */
  gulong         handler;
} HrAfterPaint;

gboolean hr_after_paint_queue  (HrAfterPaint     *pending,
                                GtkWidget        *widget,
                                HrAfterPaintFunc  func,
                                gpointer          data);
void     hr_after_paint_cancel (HrAfterPaint     *pending);

G_END_DECLS
