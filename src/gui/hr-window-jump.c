/* hr-window-jump.c: the button that takes the user to the suggestions
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When the plan does not fit, or leaves less than the wanted free memory,
 * the changes that would make it fit are listed under the chart and its
 * breakdown: in a window of 800 points, below the pane's edge, where a
 * user who sees "Does not fit" does not know to look.  A pill over the
 * foot of the pane says they are there and scrolls to them (moving the
 * focus to the first Apply); it goes once they are in sight, as a chat's
 * "new messages" button does.  It floats rather than taking a line of
 * its own, so the chart does not jump when a dragged value crosses from
 * fitting to not fitting.
 */

#include "config.h"

#include "hr-window-private.h"

/* How much of the suggestions must show for them to be in sight: their
 * heading and most of the first one. */
#define IN_SIGHT 72

/* Where the suggestions' top is in the pane's visible area; FALSE while
 * they are not laid out. */
static gboolean
suggestions_top (HrWindow *self,
                 double   *top)
{
  graphene_point_t point;

  if (!gtk_widget_get_visible (GTK_WIDGET (self->suggestions))
      || !gtk_widget_compute_point (GTK_WIDGET (self->suggestions), GTK_WIDGET (self->results_scroller),
                                    &GRAPHENE_POINT_INIT (0, 0), &point))
    return FALSE;
  *top = point.y;
  return TRUE;
}

/* Shown while there are suggestions and they are below the pane's edge. */
static void
update_jump (gpointer data)
{
  HrWindow *self = data;
  double top;
  gboolean below = suggestions_top (self, &top)
                   && top + IN_SIGHT > gtk_widget_get_height (GTK_WIDGET (self->results_scroller));

  gtk_widget_set_visible (self->jump_button, below);
}

/* After the plan, the reason, the pane's size or its scrolling changed
 * where the suggestions are: looked at once the next frame has laid them
 * out (the viewport moves its child at the next allocation, and the
 * adjustment changes during one, when a change of the button's
 * visibility would start it again). */
void
hr_window_queue_update_jump (HrWindow *self)
{
  hr_after_paint_queue (&self->jump_paint, GTK_WIDGET (self->results_scroller), update_jump, self);
}

static void
on_jump_clicked (HrWindow *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->results_scroller);
  AdwAnimationTarget *target;
  double top, to;

  if (!suggestions_top (self, &top))
    return;
  /* their heading at the top, a margin's worth below the edge */
  to = CLAMP (gtk_adjustment_get_value (v) + top - 12, gtk_adjustment_get_lower (v),
              gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v));
  if (self->jump_animation == NULL)
    {
      target = adw_property_animation_target_new (G_OBJECT (v), "value");
      self->jump_animation = adw_timed_animation_new (GTK_WIDGET (self->results_scroller), 0, 1, 250,
                                                      target);
      adw_timed_animation_set_easing (ADW_TIMED_ANIMATION (self->jump_animation), ADW_EASE_OUT_CUBIC);
    }
  adw_animation_reset (self->jump_animation);
  adw_timed_animation_set_value_from (ADW_TIMED_ANIMATION (self->jump_animation),
                                      gtk_adjustment_get_value (v));
  adw_timed_animation_set_value_to (ADW_TIMED_ANIMATION (self->jump_animation), to);
  adw_animation_play (self->jump_animation);
  hr_suggestions_focus_first (self->suggestions);
}

/* The pill (for tests). */
GtkWidget *
hr_window_get_jump_button (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->jump_button;
}

/* Connects the button and the pane's scrolling (hr_window_init). */
void
hr_window_init_jump (HrWindow *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->results_scroller);

  g_signal_connect_swapped (self->jump_button, "clicked", G_CALLBACK (on_jump_clicked), self);
  g_signal_connect_swapped (v, "value-changed", G_CALLBACK (hr_window_queue_update_jump), self);
  g_signal_connect_swapped (v, "changed", G_CALLBACK (hr_window_queue_update_jump), self);
}

/* Lets go of the frame clock and the animation (the window's dispose). */
void
hr_window_dispose_jump (HrWindow *self)
{
  if (self->results_scroller != NULL)
    g_signal_handlers_disconnect_by_data (gtk_scrolled_window_get_vadjustment (self->results_scroller),
                                          self);
  hr_after_paint_cancel (&self->jump_paint);
  g_clear_object (&self->jump_animation);
}
