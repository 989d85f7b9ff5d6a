/* hr-chart-widget.c: the chart in the window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thin widget around hr_chart_draw(): snapshot paints through
 * gtk_snapshot_append_cairo, tooltips come from the segments the drawing
 * reports, and the accessible description carries the verdict and the
 * largest parts (UX-LESSONS.md point 9).  The widget keeps copies of the
 * scenario and plan it shows, so it never reads freed memory.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "hr-chart-theme.h"
#include "hr-chart-widget.h"
#include "hr-locale.h"
#include "hr-report.h"

struct _HrChartWidget
{
  GtkWidget   parent_instance;

  HrScenario  scenario;
  HrPlan     *plan;
  gboolean    has_plan;
  HrUnits     units;
  HrChartHits hits;
  guint       draw_count;
  double      scale_bytes;
  double      font_scale;
  gboolean    hide_breakdown;
  int         measured_width;    /* the width the height below is for */
  int         measured_height;
};

G_DEFINE_FINAL_TYPE (HrChartWidget, hr_chart_widget, GTK_TYPE_WIDGET)

/* The chart's sizes are in points whose body text is 11: scaled so that
 * it is as large as the window's own body text (Cantarell 11 pt at 96
 * dpi: 14.7 pixels, a scale of 1.33). */
static double
body_text_scale (GtkWidget *widget)
{
  PangoContext *context = gtk_widget_get_pango_context (widget);
  const PangoFontDescription *font = pango_context_get_font_description (context);
  double size, dpi;

  if (font == NULL || pango_font_description_get_size (font) <= 0)
    return 1.0;
  size = pango_font_description_get_size (font) / (double) PANGO_SCALE;
  if (!pango_font_description_get_size_is_absolute (font))
    {
      dpi = pango_cairo_context_get_resolution (context);
      size *= (dpi > 0 ? dpi : 96.0) / 72.0;
    }
  return CLAMP (size / 11.0, 0.75, 3.0);
}

void
hr_chart_widget_get_style (HrChartWidget *self,
                           HrChartStyle  *style)
{
  hr_chart_theme_style (GTK_WIDGET (self), self->units, style);
  style->scale_bytes = self->scale_bytes;
  style->font_scale = self->font_scale * body_text_scale (GTK_WIDGET (self));
  style->hide_breakdown = self->hide_breakdown;
}

/* The height the chart wants at WIDTH (hr_chart_height), on a scratch
 * surface. */
static int
chart_height (HrChartWidget *self,
              int            width)
{
  HrChartStyle style;
  cairo_surface_t *surface;
  cairo_t *cr;
  double height;

  if (!self->has_plan)
    return 0;
  hr_chart_widget_get_style (self, &style);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  height = hr_chart_height (cr, width, &self->scenario, self->plan, &style);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return (int) ceil (height);
}

static GtkSizeRequestMode
hr_chart_widget_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* As tall as the bars and the breakdown need at the width given, so a
 * pane too short for them scrolls rather than cut the breakdown; taller
 * where the pane has room (the bars grow). */
static void
hr_chart_widget_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  HrChartWidget *self = HR_CHART_WIDGET (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = *natural = 300;
      return;
    }
  /* Asked without a width, it answers its least height, or the height
   * for the width it last had, without laying the chart out: only a
   * GtkScrolledWindow asks so (the results pane's, whose scrollbar takes
   * what does not fit), and it throws the answer away.  Laying the chart
   * out at its least width (300) for that answer was 2.3 % of the
   * instructions to the window's first frame (callgrind,
   * tests/bench-map.c).  The width it is drawn at always comes first. */
  if (for_size < 0)
    {
      *minimum = *natural = MAX (self->measured_width > 0 ? self->measured_height : 0, 120);
      return;
    }
  if (for_size != self->measured_width)
    {
      self->measured_width = for_size;
      self->measured_height = chart_height (self, for_size);
    }
  *minimum = *natural = MAX (self->measured_height, 120);
}

static void
hr_chart_widget_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrChartWidget *self = HR_CHART_WIDGET (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  HrChartStyle style;
  cairo_t *cr;

  if (!self->has_plan || width <= 0 || height <= 0)
    return;

  hr_chart_widget_get_style (self, &style);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  hr_chart_draw (cr, width, height, &self->scenario, self->plan, &style, &self->hits);
  cairo_destroy (cr);
  self->draw_count++;
}

/* The items of the hovered segment with their sizes and formulas. */
static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  HrChartWidget *self = HR_CHART_WIDGET (widget);
  const HrChartHit *hit;
  const HrDevice *d;
  GString *markup;
  g_autofree char *total = NULL;

  if (!self->has_plan || keyboard)
    return FALSE;
  hit = hr_chart_hit_test (&self->hits, x, y);
  if (hit == NULL || hit->device >= self->plan->n_devices)
    return FALSE;

  d = &self->plan->devices[hit->device];
  total = hr_locale_bytes ((double) d->category_bytes[hit->category], self->units);
  markup = g_string_new (NULL);
  g_string_append_printf (markup, "<b>%s — %s</b>  <small>%s</small>",
                          hr_category_label (hit->category), total, d->label);
  for (guint i = 0; i < d->n_items; i++)
    {
      const HrItem *item = &d->items[i];
      g_autofree char *name = NULL;
      g_autofree char *size = NULL;
      g_autofree char *line = NULL;
      g_autofree char *span = NULL;

      if (item->category != hit->category || !hr_item_is_live_at_peak (d, item))
        continue;
      name = hr_item_label (item);
      size = hr_locale_bytes ((double) item->bytes, self->units);
      span = hr_live_span (item->live, TRUE);
      line = g_markup_printf_escaped ("\n%s: <b>%s</b>  <small>%s</small>\n"
                                      "<small><tt>%s</tt> — %s</small>",
                                      name, size, span, item->formula, _(item->why));
      g_string_append (markup, line);
    }
  gtk_tooltip_set_markup (tooltip, markup->str);
  g_string_free (markup, TRUE);
  return TRUE;
}

static void
update_description (HrChartWidget *self)
{
  g_autofree char *summary = NULL;
  GString *text;
  const HrDevice *d;

  if (!self->has_plan)
    return;
  d = hr_plan_binding (self->plan);
  {
    g_autofree char *ascii = hr_plan_summary (&self->scenario, self->plan, self->units);

    summary = hr_locale_text (ascii);
  }
  text = g_string_new (summary);
  g_string_append (text, ". ");
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      g_autofree char *size = hr_locale_bytes ((double) d->category_bytes[c], self->units);

      g_string_append_printf (text, "%s %s%s", hr_category_label (c), size,
                              c + 1 < HR_N_CATEGORIES ? ", " : ".");
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
  g_string_free (text, TRUE);
}

/* The plan or the style changed: a new height where it needs one.  While
 * a slider is dragged the height rarely changes, and the pane is not laid
 * out again for nothing. */
static void
remeasure (HrChartWidget *self)
{
  int height;

  /* no plan (an invalid input): the chart keeps its size, greyed */
  if (!self->has_plan)
    return;
  if (self->measured_width <= 0)
    {
      gtk_widget_queue_resize (GTK_WIDGET (self));
      return;
    }
  height = chart_height (self, self->measured_width);
  if (height != self->measured_height)
    {
      self->measured_width = 0;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

void
hr_chart_widget_set_plan (HrChartWidget    *self,
                          const HrScenario *scenario,
                          const HrPlan     *plan)
{
  g_return_if_fail (HR_IS_CHART_WIDGET (self));

  self->has_plan = scenario != NULL && plan != NULL && plan->n_devices > 0;
  if (self->has_plan)
    {
      self->scenario = *scenario;
      hr_plan_reserve_devices (self->plan, plan->n_devices);
      {
        HrDevice *devices = self->plan->devices;
        guint allocated = self->plan->devices_allocated;

        *self->plan = *plan;
        self->plan->devices = devices;
        self->plan->devices_allocated = allocated;
        memcpy (devices, plan->devices, plan->n_devices * sizeof (HrDevice));
      }
      update_description (self);
    }
  remeasure (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
hr_chart_widget_set_units (HrChartWidget *self,
                           HrUnits        units)
{
  g_return_if_fail (HR_IS_CHART_WIDGET (self));
  self->units = units;
  update_description (self);
  remeasure (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Two charts compared share one scale. */
void
hr_chart_widget_set_scale_bytes (HrChartWidget *self,
                                 double         scale_bytes)
{
  g_return_if_fail (HR_IS_CHART_WIDGET (self));
  self->scale_bytes = scale_bytes;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Larger type, for presentations. */
void
hr_chart_widget_set_font_scale (HrChartWidget *self,
                                double         font_scale)
{
  g_return_if_fail (HR_IS_CHART_WIDGET (self));
  self->font_scale = CLAMP (font_scale, 0.5, 4.0);
  remeasure (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The bars alone, without the binding GPU's items below them (the
 * Compare view's two charts). */
void
hr_chart_widget_set_show_breakdown (HrChartWidget *self,
                                    gboolean       show)
{
  g_return_if_fail (HR_IS_CHART_WIDGET (self));
  self->hide_breakdown = !show;
  remeasure (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What the chart shows, or NULL when it shows no plan. */
const HrScenario *
hr_chart_widget_get_scenario (HrChartWidget *self)
{
  g_return_val_if_fail (HR_IS_CHART_WIDGET (self), NULL);
  return self->has_plan ? &self->scenario : NULL;
}

const HrPlan *
hr_chart_widget_get_plan (HrChartWidget *self)
{
  g_return_val_if_fail (HR_IS_CHART_WIDGET (self), NULL);
  return self->has_plan ? self->plan : NULL;
}

guint
hr_chart_widget_get_draw_count (HrChartWidget *self)
{
  return self->draw_count;
}

static void
on_dark_changed (HrChartWidget *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
hr_chart_widget_finalize (GObject *object)
{
  HrChartWidget *self = HR_CHART_WIDGET (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  hr_plan_free (self->plan);
  G_OBJECT_CLASS (hr_chart_widget_parent_class)->finalize (object);
}

static void
hr_chart_widget_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (hr_chart_widget_parent_class)->css_changed (widget, change);
  /* the font, and with it the text's scale, may have changed */
  HR_CHART_WIDGET (widget)->measured_width = 0;
  gtk_widget_queue_resize (widget);
  gtk_widget_queue_draw (widget);
}

static void
hr_chart_widget_class_init (HrChartWidgetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = hr_chart_widget_finalize;
  widget_class->snapshot = hr_chart_widget_snapshot;
  widget_class->css_changed = hr_chart_widget_css_changed;
  widget_class->get_request_mode = hr_chart_widget_get_request_mode;
  widget_class->measure = hr_chart_widget_measure;
  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_chart_widget_init (HrChartWidget *self)
{
  self->plan = hr_plan_new ();
  self->units = HR_UNITS_BINARY;
  self->font_scale = 1.0;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_dark_changed), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory per GPU"), -1);
}

GtkWidget *
hr_chart_widget_new (void)
{
  return g_object_new (HR_TYPE_CHART_WIDGET, NULL);
}
