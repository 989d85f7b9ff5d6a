/* hr-present-chart.c: the plan as a meeting reads it
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For people who do not train models: one bar per distinct GPU (a group
 * of identical ranks, or a pipeline stage), in five plain parts — the
 * model, its gradients, the optimizer, the activations and what is
 * reserved besides — on one scale, with the GPU's memory as a line, the
 * margin the team wants to keep free as a dashed line, and at the end of
 * each bar how much is left or missing.  No item, formula or phase: that
 * is the window's chart (UX-LESSONS.md points 5 and 10).  Drawn with
 * GtkSnapshot in the theme's font and colours; the categories keep the
 * colours of the window's chart.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "hr-chart.h"
#include "hr-locale.h"
#include "hr-present-chart.h"

typedef struct
{
  char     label[48];
  guint64  bytes[HR_N_CATEGORIES];
  guint64  total;
  gint64   free;
  HrStatus status;
} Bar;

struct _HrPresentChart
{
  GtkWidget  parent_instance;

  GArray    *bars;            /* of Bar */
  guint64    capacity;
  guint64    wanted_free;
  HrUnits    units;
};

G_DEFINE_FINAL_TYPE (HrPresentChart, hr_present_chart, GTK_TYPE_WIDGET)

/* The five parts in words a meeting uses. */
const char *
hr_present_category_label (HrCategory category)
{
  switch (category)
    {
    case HR_CATEGORY_PARAMETERS:
      return _("Model");
    case HR_CATEGORY_GRADIENTS:
      return _("Gradients");
    case HR_CATEGORY_OPTIMIZER:
      return _("Optimizer");
    case HR_CATEGORY_ACTIVATIONS:
      return _("Activations");
    case HR_CATEGORY_OVERHEAD:
    case HR_N_CATEGORIES:
    default:
      return _("Reserved");
    }
}

static GdkRGBA
rgba (HrRgb  c,
      double alpha)
{
  return (GdkRGBA) { c.r, c.g, c.b, alpha };
}

/* A layout of text in the widget's font at size pixels. */
static PangoLayout *
text_layout (GtkWidget  *widget,
             const char *text,
             double      size,
             gboolean    bold)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_copy (
    pango_context_get_font_description (pango_layout_get_context (layout)));

  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  return layout;
}

/* Draws text with its left edge (align 0), centre (0.5) or right edge (1)
 * at x, vertically centred on y; answers its width. */
static int
draw_text (GtkSnapshot   *snapshot,
           GtkWidget     *widget,
           const char    *text,
           double         x,
           double         y,
           double         size,
           gboolean       bold,
           const GdkRGBA *colour,
           double         align)
{
  g_autoptr(PangoLayout) layout = text_layout (widget, text, size, bold);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x - align * w, y - h / 2.0));
  gtk_snapshot_append_layout (snapshot, layout, colour);
  gtk_snapshot_restore (snapshot);
  return w;
}

static int
text_width (GtkWidget  *widget,
            const char *text,
            double      size,
            gboolean    bold)
{
  g_autoptr(PangoLayout) layout = text_layout (widget, text, size, bold);
  int w;

  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

static void
fill (GtkSnapshot   *snapshot,
      double         x,
      double         y,
      double         width,
      double         height,
      const GdkRGBA *colour)
{
  gtk_snapshot_append_color (snapshot, colour, &GRAPHENE_RECT_INIT (x, y, width, height));
}

static char *
bar_end_text (const Bar *bar,
              HrUnits    units)
{
  g_autofree char *size = hr_locale_bytes ((double) ABS (bar->free), units);

  /* TRANSLATORS: at the end of a GPU's bar: memory left, or missing */
  return bar->free >= 0 ? g_strdup_printf (_("%s free"), size)
                        : g_strdup_printf (_("%s over"), size);
}

static void
hr_present_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  HrPresentChart *self = HR_PRESENT_CHART (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  double font = CLAMP (height / 22.0, 14.0, 28.0);
  double legend_h = font * 2.4, axis_h = font * 2.6;
  double label_w = 0, end_w = 0, x0, x1, row_h, scale_bytes = 0;
  GdkRGBA fg, faint, red;
  double x;

  if (self->bars->len == 0 || self->capacity == 0 || width < 100 || height < 100)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  faint = fg;
  faint.alpha = 0.12;
  red = rgba (hr_chart_status_colour (HR_STATUS_OOM, dark), 1.0);

  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      g_autofree char *end = bar_end_text (bar, self->units);

      label_w = MAX (label_w, text_width (widget, bar->label, font * 1.1, TRUE));
      end_w = MAX (end_w, text_width (widget, end, font * 1.1, TRUE));
      scale_bytes = MAX (scale_bytes, (double) bar->total);
    }
  scale_bytes = MAX (scale_bytes, (double) self->capacity) * 1.03;
  x0 = label_w + font;
  x1 = width - end_w - font;
  if (x1 - x0 < 80)
    return;
  row_h = MIN ((height - legend_h - axis_h) / self->bars->len, font * 5);
  /* Centred in its area, as a slide is: one or two bars no longer sit at
   * the top of an empty screen. */
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (
    0, MAX (0, (height - (legend_h + font + self->bars->len * row_h + axis_h)) / 2)));

  /* The legend: five swatches and their names. */
  x = 0;
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      GdkRGBA colour = rgba (hr_chart_category_colour (c, dark), 1.0);

      fill (snapshot, x, legend_h / 2 - font / 2, font, font, &colour);
      x += font * 1.4;
      x += draw_text (snapshot, widget, hr_present_category_label (c), x, legend_h / 2, font,
                      FALSE, &fg, 0) + font * 1.6;
    }

#define X(bytes) (x0 + (x1 - x0) * (double) (bytes) / scale_bytes)

  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      double y = legend_h + font + i * row_h, bar_h = row_h * 0.62, bx = x0;
      g_autofree char *end = bar_end_text (bar, self->units);
      GdkRGBA status = rgba (hr_chart_status_colour (bar->status, dark), 1.0);

      draw_text (snapshot, widget, bar->label, 0, y + bar_h / 2, font * 1.1, TRUE, &fg, 0);
      fill (snapshot, x0, y, X (self->capacity) - x0, bar_h, &faint);
      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        {
          GdkRGBA colour = rgba (hr_chart_category_colour (c, dark), 1.0);
          double w = X (bar->bytes[c]) - x0;

          fill (snapshot, bx, y, w, bar_h, &colour);
          bx += w;
        }
      /* What does not fit, framed in red beyond the capacity line: a
       * bracket around the bar's end, outside it, so its segments keep
       * the legend's colours. */
      if (bar->total > self->capacity)
        {
          double cx = X (self->capacity), ex = X (bar->total), t = MAX (font * 0.18, 3);

          fill (snapshot, cx, y - 2 * t, ex - cx + 2 * t, t, &red);
          fill (snapshot, cx, y + bar_h + t, ex - cx + 2 * t, t, &red);
          fill (snapshot, ex + t, y - 2 * t, t, bar_h + 4 * t, &red);
        }
      draw_text (snapshot, widget, end, width, y + bar_h / 2, font * 1.1, TRUE, &status, 1);
    }

  /* The GPU's memory, and the margin the team wants free. */
  {
    double top = legend_h + font * 0.5;
    double bottom = legend_h + font + self->bars->len * row_h;
    double cx = X (self->capacity), mx = X (self->capacity - MIN (self->wanted_free,
                                                                 self->capacity));
    g_autofree char *cap = hr_locale_bytes ((double) self->capacity, self->units);
    g_autofree char *margin = hr_locale_bytes ((double) self->wanted_free, self->units);
    g_autofree char *cap_text = g_strdup_printf (_("GPU memory %s"), cap);
    g_autofree char *margin_text = g_strdup_printf (_("keep %s free"), margin);

    fill (snapshot, cx - 1.5, top, 3, bottom - top, &fg);
    for (double y = top; y < bottom; y += font * 0.8)
      fill (snapshot, mx - 1, y, 2, MIN (font * 0.45, bottom - y), &fg);
    double cap_w = text_width (widget, cap_text, font, TRUE);
    double margin_w = text_width (widget, margin_text, font, FALSE);

    /* Centred under the line and ending left of the margin's line, but
     * never closer to the edge than the bars' names are (a plan far over
     * capacity puts both lines near the left). */
    draw_text (snapshot, widget, cap_text, CLAMP (cx - cap_w / 2, 0, MAX (width - cap_w, 0)),
               bottom + font * 0.9, font, TRUE, &fg, 0);
    if (self->wanted_free > 0 && cx - mx > 4)
      draw_text (snapshot, widget, margin_text, MAX (mx - font * 0.5 - margin_w, 0),
                 bottom + font * 2.0, font, FALSE, &fg, 0);
  }
#undef X
  gtk_snapshot_restore (snapshot);
}

static void
update_description (HrPresentChart *self)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      g_autofree char *end = bar_end_text (bar, self->units);

      g_string_append_printf (text, "%s%s: ", i > 0 ? "; " : "", bar->label);
      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        {
          g_autofree char *size = hr_locale_bytes ((double) bar->bytes[c], self->units);

          g_string_append_printf (text, "%s %s, ", hr_present_category_label (c), size);
        }
      g_string_append (text, end);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
  g_string_free (text, TRUE);
}

/* One bar per device of plan (each a distinct GPU or group of them). */
void
hr_present_chart_set_plan (HrPresentChart *self,
                           const HrPlan   *plan,
                           HrUnits         units)
{
  g_return_if_fail (HR_IS_PRESENT_CHART (self));

  g_array_set_size (self->bars, 0);
  self->capacity = plan != NULL ? plan->capacity_bytes : 0;
  self->wanted_free = plan != NULL ? plan->wanted_free_bytes : 0;
  self->units = units;
  for (guint i = 0; plan != NULL && i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];
      Bar bar = { .total = d->total_bytes, .free = d->free_bytes, .status = d->status };

      g_strlcpy (bar.label, d->label, sizeof bar.label);
      memcpy (bar.bytes, d->category_bytes, sizeof bar.bytes);
      g_array_append_val (self->bars, bar);
    }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
hr_present_chart_get_n_bars (HrPresentChart *self)
{
  g_return_val_if_fail (HR_IS_PRESENT_CHART (self), 0);
  return self->bars->len;
}

static void
hr_present_chart_finalize (GObject *object)
{
  HrPresentChart *self = HR_PRESENT_CHART (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_array_unref (self->bars);
  G_OBJECT_CLASS (hr_present_chart_parent_class)->finalize (object);
}

static void
hr_present_chart_class_init (HrPresentChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = hr_present_chart_finalize;
  widget_class->snapshot = hr_present_chart_snapshot;
  gtk_widget_class_set_css_name (widget_class, "presentchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_present_chart_init (HrPresentChart *self)
{
  self->bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  self->units = HR_UNITS_BINARY;
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory of each GPU"), -1);
}

GtkWidget *
hr_present_chart_new (void)
{
  return g_object_new (HR_TYPE_PRESENT_CHART, NULL);
}
