/* hr-timeline-widget.c: one training step's memory over time, in the window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Paints hr_timeline_draw(), the function `headroom-cli --chart timeline`
 * and the export use too, in the theme's colours.  Tooltips name the
 * items of the band under the pointer at that moment of the step; the
 * accessible description carries the peak and each phase's total
 * (UX-LESSONS.md 9).  It keeps copies of the scenario and plan it shows.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "hr-chart-theme.h"
#include "hr-locale.h"
#include "hr-timeline-widget.h"

struct _HrTimelineWidget
{
  GtkWidget          parent_instance;

  HrScenario         scenario;
  HrPlan            *plan;
  gboolean           has_plan;
  guint              device;
  HrUnits            units;
  HrTimelineGeometry geometry;
};

G_DEFINE_FINAL_TYPE (HrTimelineWidget, hr_timeline_widget, GTK_TYPE_WIDGET)

static void
hr_timeline_widget_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  HrTimelineWidget *self = HR_TIMELINE_WIDGET (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  HrChartStyle style;
  cairo_t *cr;

  if (!self->has_plan || width <= 0 || height <= 0)
    {
      memset (&self->geometry, 0, sizeof self->geometry);
      return;
    }
  hr_chart_theme_style (widget, self->units, &style);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  hr_timeline_draw (cr, width, height, &self->scenario, self->plan, self->device, &style,
                    &self->geometry);
  cairo_destroy (cr);
}

/* The band under the pointer: its category at that moment, and the items
 * alive in it then. */
static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  HrTimelineWidget *self = HR_TIMELINE_WIDGET (widget);
  const HrDevice *d;
  HrPhase phase;
  HrCategory category;
  g_autofree char *total = NULL;
  GString *markup;

  if (!self->has_plan || keyboard
      || !hr_timeline_hit_test (&self->geometry, x, y, &phase, &category))
    return FALSE;
  d = &self->plan->devices[self->geometry.device];
  total = hr_locale_bytes ((double) self->geometry.columns[phase].bytes[category], self->units);
  markup = g_string_new (NULL);
  {
    g_autofree char *head = g_markup_printf_escaped ("<b>%s — %s</b>  <small>%s</small>",
                                                     hr_category_label (category), total,
                                                     hr_phase_label (phase));

    g_string_append (markup, head);
  }
  for (guint i = 0; i < d->n_items; i++)
    {
      const HrItem *item = &d->items[i];
      g_autofree char *name = NULL;
      g_autofree char *size = NULL;
      g_autofree char *line = NULL;

      if (item->category != category || (item->live & HR_LIVE (phase)) == 0 || item->bytes == 0)
        continue;
      name = hr_item_label (item);
      size = hr_locale_bytes ((double) item->bytes, self->units);
      line = g_markup_printf_escaped ("\n%s: <b>%s</b>", name, size);
      g_string_append (markup, line);
    }
  gtk_tooltip_set_markup (tooltip, markup->str);
  g_string_free (markup, TRUE);
  return TRUE;
}

/* "peak: 42.8 GiB in the loss's backward pass. forward 39.9 GiB, ..." */
static void
update_description (HrTimelineWidget *self)
{
  const HrDevice *d = &self->plan->devices[self->device];
  g_autofree char *peak = hr_timeline_peak_label (d, self->units);
  g_autofree char *ascii = NULL;
  g_autofree char *text = NULL;
  GString *out = g_string_new (peak);

  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      guint64 bytes[HR_N_CATEGORIES];
      g_autofree char *size = hr_format_bytes ((double) hr_device_phase_categories (d, ph, bytes),
                                               self->units);

      g_string_append_printf (out, "%s %s %s", ph == 0 ? "." : ",", hr_phase_label (ph), size);
    }
  g_string_append_c (out, '.');
  ascii = g_string_free (out, FALSE);
  text = hr_locale_text (ascii);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text, -1);
}

/* Shows DEVICE of PLAN, or nothing with a NULL plan. */
void
hr_timeline_widget_set_plan (HrTimelineWidget *self,
                             const HrScenario *scenario,
                             const HrPlan     *plan,
                             guint             device,
                             HrUnits           units)
{
  g_return_if_fail (HR_IS_TIMELINE_WIDGET (self));

  self->has_plan = scenario != NULL && plan != NULL && plan->n_devices > 0;
  self->units = units;
  if (self->has_plan)
    {
      self->scenario = *scenario;
      hr_plan_copy_into (self->plan, plan);
      self->device = MIN (device, plan->n_devices - 1);
      update_description (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const HrPlan *
hr_timeline_widget_get_plan (HrTimelineWidget *self)
{
  g_return_val_if_fail (HR_IS_TIMELINE_WIDGET (self), NULL);
  return self->has_plan ? self->plan : NULL;
}

const HrScenario *
hr_timeline_widget_get_scenario (HrTimelineWidget *self)
{
  g_return_val_if_fail (HR_IS_TIMELINE_WIDGET (self), NULL);
  return self->has_plan ? &self->scenario : NULL;
}

guint
hr_timeline_widget_get_device (HrTimelineWidget *self)
{
  g_return_val_if_fail (HR_IS_TIMELINE_WIDGET (self), 0);
  return self->device;
}

/* Where the last frame drew each phase and band. */
const HrTimelineGeometry *
hr_timeline_widget_get_geometry (HrTimelineWidget *self)
{
  g_return_val_if_fail (HR_IS_TIMELINE_WIDGET (self), NULL);
  return &self->geometry;
}

static void
on_dark_changed (HrTimelineWidget *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
hr_timeline_widget_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (hr_timeline_widget_parent_class)->css_changed (widget, change);
  gtk_widget_queue_draw (widget);
}

static void
hr_timeline_widget_finalize (GObject *object)
{
  HrTimelineWidget *self = HR_TIMELINE_WIDGET (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  hr_plan_free (self->plan);
  G_OBJECT_CLASS (hr_timeline_widget_parent_class)->finalize (object);
}

static void
hr_timeline_widget_class_init (HrTimelineWidgetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = hr_timeline_widget_finalize;
  widget_class->snapshot = hr_timeline_widget_snapshot;
  widget_class->css_changed = hr_timeline_widget_css_changed;
  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_timeline_widget_init (HrTimelineWidget *self)
{
  self->plan = hr_plan_new ();
  self->units = HR_UNITS_BINARY;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  /* Tall enough for the phases' names under the bands: on a small
   * screen the results pane scrolls rather than squeeze them. */
  gtk_widget_set_size_request (GTK_WIDGET (self), 300, 400);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_dark_changed), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory over one training step"), -1);
}

GtkWidget *
hr_timeline_widget_new (void)
{
  return g_object_new (HR_TYPE_TIMELINE_WIDGET, NULL);
}
