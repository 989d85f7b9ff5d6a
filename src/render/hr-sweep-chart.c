/* hr-sweep-chart.c: the sweep drawn on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fullest GPU's memory stacked by category against the swept value,
 * with the capacity, the wanted headroom, the scenario's own value and
 * the last value that fits.
 */

#include "hr-sweep-chart.h"
#include "hr-chart-ticks.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>

/* The plot's edges in a chart WIDTH x HEIGHT at font scale FS. */
static void
plot_edges (double  width,
            double  height,
            double  fs,
            double *left,
            double *right,
            double *top,
            double *bottom)
{
  double m = 16 * fs;

  *left = m + 56 * fs;
  *right = width - m;
  *top = m + 48 * fs + 20 * fs;   /* the title, the legend, the markers' labels */
  *bottom = height - m - 34 * fs;
}

/* The axes' ticks as hr_sweep_draw() draws them in a chart WIDTH x
 * HEIGHT: the swept values in powers of two (the micro-batches and the
 * lengths people choose), the sizes in 1, 2 or 5 times a power of ten,
 * as many as fit the plot without crowding. */
void
hr_sweep_ticks (const HrSweep      *sweep,
                const HrChartStyle *style,
                double              width,
                double              height,
                HrSweepTicks       *out)
{
  double fs = MAX (style->font_scale, 0.25);
  double unit = style->units == HR_UNITS_DECIMAL ? 1e9 : HR_GIB;
  double left, right, top, bottom;

  g_return_if_fail (sweep != NULL && out != NULL);
  *out = (HrSweepTicks) { 0 };
  if (sweep->n_points < 2)
    return;
  plot_edges (width, height, fs, &left, &right, &top, &bottom);
  out->ymax = (double) sweep->capacity_bytes;
  for (guint i = 0; i < sweep->n_points; i++)
    out->ymax = MAX (out->ymax, (double) sweep->points[i].total_bytes);
  out->ymax *= 1.05;
  out->xmin = (double) sweep->points[0].value;
  out->xmax = (double) sweep->points[sweep->n_points - 1].value;
  /* A label of up to five digits wants about 60 points; a row too. */
  out->n_x = hr_chart_ticks (out->xmin, out->xmax,
                             (guint) CLAMP ((right - left) / (60 * fs), 2, 10),
                             HR_TICKS_POWERS_OF_TWO, out->x);
  out->n_y = hr_chart_ticks (0, out->ymax / unit,
                             (guint) CLAMP ((bottom - top) / (60 * fs), 2, 8),
                             HR_TICKS_DECIMAL, out->y);
  out->y_step = out->n_y > 1 ? out->y[1] - out->y[0] : 1;
}

/* The plot's area and the values at its edges. */
typedef struct
{
  double left, right, top, bottom;
  double xmin, xmax, ymax;
} Frame;

static double
frame_x (const Frame *f,
         double       value)
{
  return f->left + (value - f->xmin) / MAX (f->xmax - f->xmin, 1) * (f->right - f->left);
}

static double
frame_y (const Frame *f,
         double       bytes)
{
  return f->bottom - bytes / f->ymax * (f->bottom - f->top);
}

/* The title, and the categories' legend below it. */
static void
draw_title (cairo_t            *cr,
            PangoLayout        *layout,
            const HrChartStyle *style,
            const char         *axis_name)
{
  double fs = MAX (style->font_scale, 0.25), m = 16 * fs;
  g_autofree char *title = g_strdup_printf (_("Memory of the fullest GPU against %s"), axis_name);
  double x = m;

  hr_chart_draw_text (cr, layout, style, title, m, m + 8 * fs, 14 * fs, TRUE, style->foreground, 0);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      HrRgb col = hr_chart_category_colour (c, style->dark);
      int w, h;

      cairo_set_source_rgb (cr, col.r, col.g, col.b);
      cairo_rectangle (cr, x, m + 24 * fs, 12 * fs, 12 * fs);
      cairo_fill (cr);
      hr_chart_draw_text (cr, layout, style, hr_category_label (c), x + 16 * fs, m + 30 * fs, 11 * fs,
                          FALSE, style->foreground, 0);
      pango_layout_get_pixel_size (layout, &w, &h);
      x += 16 * fs + w + 16 * fs;
    }
}

/* The categories as stacked areas, the last one drawn first. */
static void
draw_areas (cairo_t            *cr,
            const HrChartStyle *style,
            const Frame        *f,
            const HrSweep      *sweep)
{
  for (guint c = HR_N_CATEGORIES; c-- > 0;)
    {
      HrRgb col = hr_chart_category_colour (c, style->dark);

      cairo_move_to (cr, frame_x (f, (double) sweep->points[0].value), frame_y (f, 0));
      for (guint i = 0; i < sweep->n_points; i++)
        {
          guint64 stack = 0;

          for (guint k = 0; k <= c; k++)
            stack += sweep->points[i].category_bytes[k];
          cairo_line_to (cr, frame_x (f, (double) sweep->points[i].value), frame_y (f, (double) stack));
        }
      cairo_line_to (cr, frame_x (f, (double) sweep->points[sweep->n_points - 1].value), frame_y (f, 0));
      cairo_close_path (cr);
      cairo_set_source_rgb (cr, col.r, col.g, col.b);
      cairo_fill (cr);
    }
}

/* The headroom band and the capacity line. */
static void
draw_capacity (cairo_t            *cr,
               PangoLayout        *layout,
               const HrChartStyle *style,
               const Frame        *f,
               const HrSweep      *sweep)
{
  double fs = MAX (style->font_scale, 0.25);
  HrRgb fg = style->foreground;
  HrRgb amber = hr_chart_status_colour (HR_STATUS_TIGHT, style->dark);
  double yc = frame_y (f, (double) sweep->capacity_bytes);
  double yh = frame_y (f, (double) (sweep->capacity_bytes * (1 - sweep->headroom)));
  g_autofree char *cap = hr_format_bytes ((double) sweep->capacity_bytes, style->units);
  g_autofree char *label = g_strdup_printf (_("capacity %s"), cap);

  cairo_set_source_rgba (cr, amber.r, amber.g, amber.b, 0.25);
  cairo_rectangle (cr, f->left, yc, f->right - f->left, yh - yc);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, fg.r, fg.g, fg.b);
  cairo_set_line_width (cr, 2 * fs);
  cairo_move_to (cr, f->left, yc);
  cairo_line_to (cr, f->right, yc);
  cairo_stroke (cr);
  /* At the left end, above the line: the memory grows with the swept
   * value, so the areas are lowest there (at the right end they rise
   * into the band and over the line). */
  hr_chart_draw_text (cr, layout, style, label, f->left + 6 * fs, yc - 9 * fs, 10 * fs, TRUE, fg, 0);
}

static double
text_width (PangoLayout        *layout,
            const HrChartStyle *style,
            const char         *text,
            double              size,
            gboolean            bold)
{
  PangoFontDescription *font = pango_font_description_from_string (style->font_family);
  int w;

  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

/* Where the plan stops fitting, and the scenario's own value. */
static void
draw_markers (cairo_t            *cr,
              PangoLayout        *layout,
              const HrChartStyle *style,
              const Frame        *f,
              const HrSweep      *sweep)
{
  double fs = MAX (style->font_scale, 0.25);
  HrRgb fg = style->foreground;
  double x = frame_x (f, (double) sweep->current);
  g_autofree char *now = g_strdup_printf (_("now: %llu"), (unsigned long long) sweep->current);

  /* The markers' lines run up into a row of their own above the plot,
   * where their labels are clear of the capacity line and the areas:
   * each right of its line, or left of it where it would run past the
   * edge or into the other. */
  double row = f->top - 10 * fs, now_l = 0, now_r = 0;
  gboolean has_now = x >= f->left && x <= f->right;

  if (has_now)
    {
      double w = text_width (layout, style, now, 11 * fs, FALSE);

      now_l = x + 4 * fs;
      if (now_l + w > f->right)
        now_l = x - 4 * fs - w;
      now_r = now_l + w;
      cairo_set_source_rgb (cr, fg.r, fg.g, fg.b);
      cairo_set_line_width (cr, 1.5 * fs);
      cairo_move_to (cr, x, row + 8 * fs);
      cairo_line_to (cr, x, f->bottom);
      cairo_stroke (cr);
      hr_chart_draw_text (cr, layout, style, now, now_l, row, 11 * fs, FALSE, fg, 0);
    }
  if (sweep->last_fitting > 0 && (double) sweep->last_fitting <= f->xmax)
    {
      HrRgb green = hr_chart_status_colour (HR_STATUS_OK, style->dark);
      g_autofree char *label = g_strdup_printf (_("fits up to %llu"),
                                                (unsigned long long) sweep->last_fitting);
      double xf = frame_x (f, (double) sweep->last_fitting);
      double w = text_width (layout, style, label, 11 * fs, TRUE), l = xf + 4 * fs;

      if (l + w > f->right || (has_now && l < now_r + 8 * fs && l + w > now_l - 8 * fs))
        l = xf - 4 * fs - w;
      if (has_now && l < now_r + 8 * fs && l + w > now_l - 8 * fs)
        l = MAX (now_r + 8 * fs, xf + 4 * fs);
      cairo_set_source_rgb (cr, green.r, green.g, green.b);
      cairo_set_line_width (cr, 2 * fs);
      cairo_set_dash (cr, (double[]) { 6 * fs, 4 * fs }, 2, 0);
      cairo_move_to (cr, xf, row + 8 * fs);
      cairo_line_to (cr, xf, f->bottom);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      hr_chart_draw_text (cr, layout, style, label, l, row, 11 * fs, TRUE, green, 0);
    }
}

/* The axes: the swept values below, the sizes on the left. */
static void
draw_axes (cairo_t            *cr,
           PangoLayout        *layout,
           const HrChartStyle *style,
           const Frame        *f,
           const HrSweepTicks *ticks,
           const char         *axis_name)
{
  double fs = MAX (style->font_scale, 0.25);
  double unit = style->units == HR_UNITS_DECIMAL ? 1e9 : HR_GIB;
  HrRgb fg = style->foreground;

  cairo_set_source_rgba (cr, fg.r, fg.g, fg.b, 0.6);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, f->left, f->bottom + 0.5);
  cairo_line_to (cr, f->right, f->bottom + 0.5);
  cairo_stroke (cr);
  for (guint i = 0; i < ticks->n_x; i++)
    {
      g_autofree char *xs = g_strdup_printf ("%.0f", ticks->x[i]);

      hr_chart_draw_text (cr, layout, style, xs, frame_x (f, ticks->x[i]), f->bottom + 10 * fs, 10 * fs,
                          FALSE, fg, 0.5);
    }
  for (guint i = 0; i < ticks->n_y; i++)
    {
      g_autofree char *ys = hr_format_double (ticks->y[i], ticks->y_step < 1 ? 1 : 0);

      hr_chart_draw_text (cr, layout, style, ys, f->left - 6 * fs, frame_y (f, ticks->y[i] * unit),
                          10 * fs, FALSE, fg, 1);
    }
  hr_chart_draw_text (cr, layout, style, axis_name, (f->left + f->right) / 2, f->bottom + 26 * fs,
                      11 * fs, TRUE, fg, 0.5);
  hr_chart_draw_text (cr, layout, style, style->units == HR_UNITS_DECIMAL ? "GB" : "GiB",
                      f->left - 6 * fs, (f->top + frame_y (f, f->ymax * 0.8)) / 2, 10 * fs, TRUE, fg, 1);
}

void
hr_sweep_draw (cairo_t            *cr,
               double              width,
               double              height,
               const HrScenario   *sc,
               const HrSweep      *sweep,
               const HrChartStyle *style)
{
  double fs = MAX (style->font_scale, 0.25);
  Frame f;
  HrSweepTicks ticks;
  PangoLayout *layout;
  const char *axis_name = sweep->axis == HR_SWEEP_MICRO_BATCH ? _("Micro-batch")
                                                              : _("Sequence length");

  plot_edges (width, height, fs, &f.left, &f.right, &f.top, &f.bottom);
  if (sweep->n_points < 2 || f.right - f.left < 60 || f.bottom - f.top < 40)
    return;
  hr_sweep_ticks (sweep, style, width, height, &ticks);
  f.ymax = ticks.ymax;
  f.xmin = ticks.xmin;
  f.xmax = ticks.xmax;

  cairo_save (cr);
  layout = pango_cairo_create_layout (cr);
  if (style->paint_background)
    {
      cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
      cairo_paint (cr);
    }
  draw_title (cr, layout, style, axis_name);
  draw_areas (cr, style, &f, sweep);
  draw_capacity (cr, layout, style, &f, sweep);
  draw_markers (cr, layout, style, &f, sweep);
  draw_axes (cr, layout, style, &f, &ticks, axis_name);
  g_object_unref (layout);
  cairo_restore (cr);
  (void) sc;
}
