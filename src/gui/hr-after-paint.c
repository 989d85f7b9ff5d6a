/* hr-after-paint.c: run a function once, after the next frame is painted
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What depends on where widgets were laid out (is a row in sight? where
 * must the form scroll to show it?) is asked after the frame that laid
 * them out, not during the layout (a change of visibility there starts
 * it again) nor before it (the positions are the last frame's).  The
 * form's rows below the first screen are built after the first frame the
 * same way.  The frame clock is held, so a widget unrealized meanwhile
 * cannot leave the handler on a clock it no longer knows.
 */

#include "config.h"

#include "hr-after-paint.h"

typedef struct
{
  HrAfterPaint     *pending;
  HrAfterPaintFunc  func;
  gpointer          data;
} Call;

static void
on_after_paint (GdkFrameClock *clock,
                Call          *call)
{
  HrAfterPaintFunc func = call->func;
  gpointer data = call->data;

  hr_after_paint_cancel (call->pending);   /* frees call, once this returns */
  func (data);
}

static void
call_free (gpointer data,
           GClosure *closure)
{
  g_free (data);
}

/* Calls func (data) once after widget's next frame, and asks for that
 * frame.  Nothing is queued again while a call is pending; nothing at
 * all while widget has no frame clock (not realized): FALSE then. */
gboolean
hr_after_paint_queue (HrAfterPaint     *pending,
                      GtkWidget        *widget,
                      HrAfterPaintFunc  func,
                      gpointer          data)
{
  GdkFrameClock *clock;
  Call *call;

  clock = gtk_widget_get_frame_clock (widget);
  if (clock == NULL)
    return FALSE;
  if (pending->clock == clock)
    return TRUE;
  hr_after_paint_cancel (pending);   /* on a clock widget has left */
  call = g_new (Call, 1);
  call->pending = pending;
  call->func = func;
  call->data = data;
  pending->clock = g_object_ref (clock);
  pending->handler = g_signal_connect_data (clock, "after-paint", G_CALLBACK (on_after_paint), call,
                                            call_free, 0);
  gtk_widget_queue_draw (widget);
  return TRUE;
}

void
hr_after_paint_cancel (HrAfterPaint *pending)
{
  if (pending->clock == NULL)
    return;
  g_clear_signal_handler (&pending->handler, pending->clock);
  g_clear_object (&pending->clock);
}
