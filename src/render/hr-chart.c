/* hr-chart.c: the per-GPU memory chart, drawn on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * UX-LESSONS.md, point by point: the capacity and the wanted-headroom band
 * are on the chart; each bar ends in a verdict in words; over capacity is
 * hatched in the warning colour, with an icon and text, never colour
 * alone; the binding GPU is labelled; identical ranks are one bar
 * ("GPU 0-7 ×8"); the palette is Okabe-Ito (colour-blind safe), model
 * states in blues and green, activations orange, overhead grey; text uses
 * the theme's foreground colour.
 */

#include "hr-chart-private.h"
#include "hr-file-write.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>

static void
hatch (cairo_t *cr,
       double   x,
       double   y,
       double   w,
       double   h,
       double   gap)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  for (double d = -h; d < w; d += gap)
    {
      cairo_move_to (cr, x + d, y + h);
      cairo_line_to (cr, x + d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static char *
device_label (const HrDevice *d)
{
  if (d->ranks > 1)
    return g_strdup_printf ("%s ×%" G_GUINT64_FORMAT, d->label, d->ranks);
  return g_strdup (d->label);
}

/* Where the bars go, once the title, legend and columns are laid out. */
typedef struct
{
  double x, w;            /* the plot's left edge and width */
  double top, bottom;
  double bar_h, gap;
  double most;            /* bytes at the right end of the axis */
  double scale;           /* pixels per byte */
  double unit;            /* bytes per axis unit (GiB or GB) */
  double capacity;        /* bytes */
  gboolean labels;        /* whether bars are tall enough for labels */
  gboolean stacked;       /* a device's name and verdict on a line above its bar */
  gboolean two_lines;     /* ... or on two lines, the verdict under the name */
  double text_h;          /* that line's height, 0 when not stacked */
  double left, right;     /* the chart's margins */
} Plot;

/* Device I's bar: its top and its thickness. */
static void
bar_extent (const Plot *plot,
            guint       i,
            double     *by,
            double     *bh)
{
  *by = plot->top + i * plot->bar_h + plot->text_h + plot->gap / 2;
  *bh = MAX (plot->bar_h - plot->text_h - plot->gap, 1);
}

/* The scenario and the verdict in words, coloured; returns the next y. */
static double
draw_title (Painter          *p,
            const HrScenario *sc,
            const HrPlan     *plan,
            double            m,
            double            y)
{
  const HrDevice *binding = hr_plan_binding (plan);
  g_autofree char *verdict = hr_device_verdict (plan, binding, p->style->units);
  g_autofree char *summary = NULL;
  HrRgb colour = hr_chart_status_colour (plan->status, p->style->dark);

  draw_text (p, sc->name, m, y + 10 * p->fs, 15, TRUE, p->style->foreground, FALSE);
  y += 26 * p->fs;
  summary = g_strdup_printf ("%s — %s", verdict, binding->label);
  draw_text (p, summary, m, y + 9 * p->fs, 13, TRUE, colour, FALSE);
  return y + 26 * p->fs;
}

/* The categories' colours, wrapped to the width; returns the next y. */
double
hr_chart_draw_legend (Painter *p,
                      double   width,
                      double   m,
                      double   y)
{
  double fs = p->fs, x = m;

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      const char *label = hr_category_label (c);
      double w = hr_chart_text_width (p, label, 11, FALSE);

      if (x + 18 * fs + w > width - m && x > m)
        {
          x = m;
          y += 20 * fs;
        }
      set_rgb (p->cr, hr_chart_category_colour (c, p->style->dark), 1.0);
      cairo_rectangle (p->cr, x, y + 2 * fs, 12 * fs, 12 * fs);
      cairo_fill (p->cr);
      draw_text (p, label, x + 17 * fs, y + 8 * fs, 11, FALSE, p->style->foreground, FALSE);
      x += 17 * fs + w + 18 * fs;
    }
  return y + 28 * fs;
}

/* The thickness a bar and its line of text (TEXT_H, when stacked) read
 * well at: 56 points, less where there are more than eight bars. */
static double
bar_thickness (double fs,
               guint  n,
               double text_h)
{
  return MAX (MIN (56 * fs, 448 * fs / MAX (n, 1)), 20 * fs) + text_h;
}

/* Device labels on the left, verdicts on the right, the bars between;
 * BELOW is the height wanted under the bars (the axis and the breakdown),
 * 0 when the chart shows no breakdown.  FALSE when there is no room left
 * for them. */
static gboolean
lay_out_plot (Painter      *p,
              const HrPlan *plan,
              double        width,
              double        height,
              double        m,
              double        y,
              double        below,
              Plot         *plot)
{
  double fs = p->fs, left_w = 0, right_w = 0, line_w = 0;
  double most = (double) plan->capacity_bytes;
  guint n = plan->n_devices;

  for (guint i = 0; i < n; i++)
    {
      const HrDevice *d = &plan->devices[i];
      g_autofree char *label = device_label (d);
      g_autofree char *verdict = hr_device_verdict (plan, d, p->style->units);

      double lw = hr_chart_text_width (p, label, 11, TRUE);
      double vw = hr_chart_text_width (p, verdict, 11, TRUE);

      left_w = MAX (left_w, lw);
      right_w = MAX (right_w, vw);
      line_w = MAX (line_w, lw + 10 * fs + vw);
      most = MAX (most, (double) d->total_bytes);
    }
  left_w += 12 * fs;
  right_w += 16 * fs;
  /* Names left and verdicts right while they leave the bars half the
   * width; on a narrower chart (a phone, a half window: below about 700
   * points for "✓ Fits, 36.8 GiB free (46 %)") each bar gets a line above
   * it for both, and the whole width, so that no verdict is cut. */
  plot->stacked = left_w + right_w > (width - 2 * m) * 0.5;
  /* and where the name and the verdict do not fit on one line (large
   * text on a phone), the verdict goes on a second */
  plot->two_lines = plot->stacked && line_w > width - 2 * m;
  plot->text_h = plot->stacked ? (plot->two_lines ? 34 : 17) * fs : 0;
  plot->x = plot->stacked ? m : m + left_w;
  plot->w = plot->stacked ? width - 2 * m : width - m - right_w - plot->x;
  plot->left = m;
  plot->right = width - m;
  plot->top = y + 16 * fs;                 /* room for the capacity label */
  plot->bottom = height - m - 22 * fs;      /* room for the axis */
  if (plot->w < 40 || plot->bottom - plot->top < 8)
    return FALSE;

  /* Bars as thick as they read well (thinner where there are many); what
   * is left below the axis shows where the memory of the binding GPU
   * goes, item by item.  Room beyond what both need goes to the bars, up
   * to half as thick again, so a tall pane is not left blank below. */
  plot->bar_h = MIN (bar_thickness (fs, n, plot->text_h), (plot->bottom - plot->top) / n);
  if (below > 0)
    {
      double room = (plot->bottom + 22 * fs - below - plot->top) / n;

      if (room > plot->bar_h)
        plot->bar_h = MIN (room, 1.5 * plot->bar_h - 0.5 * plot->text_h);
    }
  plot->bottom = plot->top + plot->bar_h * n;

  most *= 1.04;
  if (p->style->scale_bytes > most)
    most = p->style->scale_bytes;
  plot->most = most;
  plot->scale = plot->w / most;
  plot->gap = plot->bar_h - plot->text_h >= 10 ? (plot->bar_h - plot->text_h) * 0.22 : 0;
  plot->labels = plot->bar_h - plot->text_h - plot->gap >= 13 * fs;
  plot->unit = p->style->units == HR_UNITS_DECIMAL ? 1e9 : HR_GIB;
  plot->capacity = (double) plan->capacity_bytes;
  return TRUE;
}

/* The axis in round numbers of GiB (or GB), with its grid: as many ticks
 * as the width holds, none whose number would touch its neighbour's.  The
 * unit stands left of the axis, or after the first number when the names
 * are above the bars and nothing is left of it. */
static void
draw_axis (Painter    *p,
           const Plot *plot)
{
  cairo_t *cr = p->cr;
  double fs = p->fs, most = plot->most, last_right = -G_MAXDOUBLE;
  double step = hr_chart_nice_step (most / plot->unit, (int) CLAMP (plot->w / (60 * fs), 2, 6));
  const char *unit = p->style->units == HR_UNITS_DECIMAL ? "GB" : "GiB";

  cairo_set_line_width (cr, 1);
  for (double v = 0; v * plot->unit <= most; v += step)
    {
      double x = round (plot->x + v * plot->unit * plot->scale) + 0.5;
      g_autofree char *number = hr_format_double (v, step < 1 ? 1 : 0);
      g_autofree char *shown = v == 0 && plot->stacked ? g_strdup_printf ("%s %s", number, unit)
                                                       : g_strdup (number);
      double left;
      int w, h;

      set_rgb (cr, p->style->foreground, 0.12);
      cairo_move_to (cr, x, plot->top);
      cairo_line_to (cr, x, plot->bottom);
      cairo_stroke (cr);
      hr_chart_layout_text (p, shown, 11, FALSE);
      pango_layout_get_pixel_size (p->layout, &w, &h);
      left = v == 0 && plot->stacked ? plot->x : x - w / 2.0;
      if (left < last_right + 6 * fs || left + w > plot->right)
        continue;
      set_rgb (cr, p->style->foreground, 0.75);
      cairo_move_to (cr, left, plot->bottom + 4 * fs);
      pango_cairo_show_layout (cr, p->layout);
      last_right = left + w;
    }
  if (!plot->stacked)
    draw_text (p, unit, plot->x - 8 * fs, plot->bottom + 11 * fs, 11, TRUE, p->style->foreground,
               TRUE);
}

/* The wanted-headroom band, just below the capacity. */
static void
draw_headroom_band (Painter          *p,
                    const HrScenario *sc,
                    const Plot       *plot)
{
  double x0 = plot->x + plot->capacity * (1 - sc->overhead.headroom) * plot->scale;
  double x1 = plot->x + plot->capacity * plot->scale;
  HrRgb amber = hr_chart_status_colour (HR_STATUS_TIGHT, p->style->dark);

  set_rgb (p->cr, amber, 0.12);
  cairo_rectangle (p->cr, x0, plot->top, x1 - x0, plot->bottom - plot->top);
  cairo_fill (p->cr);
}

/* Device I's bar: its categories and, over capacity, what does not fit
 * hatched in the warning colour.  Its labels come after every bar and
 * line (draw_bar_labels), so that nothing is drawn over them. */
static void
draw_bar (Painter      *p,
          const HrPlan *plan,
          guint         i,
          const Plot   *plot,
          HrChartHits  *hits)
{
  cairo_t *cr = p->cr;
  const HrChartStyle *style = p->style;
  const HrDevice *d = &plan->devices[i];
  double fs = p->fs;
  double by, bh;
  double x = plot->x;

  bar_extent (plot, i, &by, &bh);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      double w = (double) d->category_bytes[c] * plot->scale;

      if (w <= 0)
        continue;
      set_rgb (cr, hr_chart_category_colour (c, style->dark), 1.0);
      cairo_rectangle (cr, x, by, w, bh);
      cairo_fill (cr);
      if (hits != NULL && hits->n_hits < HR_CHART_MAX_HITS)
        hits->hits[hits->n_hits++] = (HrChartHit) { x, by, w, bh, i, c };
      /* A hairline between segments, in the background colour. */
      set_rgb (cr, style->background, style->paint_background ? 1.0 : 0.8);
      cairo_rectangle (cr, x + w - 0.5, by, 1, bh);
      cairo_fill (cr);
      x += w;
    }

  if (d->status == HR_STATUS_OOM)
    {
      double cx = plot->x + plot->capacity * plot->scale;

      set_rgb (cr, hr_chart_status_colour (d->status, style->dark), 0.9);
      cairo_set_line_width (cr, 2 * fs);
      hatch (cr, cx, by, x - cx, bh, 7 * fs);
      cairo_rectangle (cr, cx, by, x - cx, bh);
      cairo_stroke (cr);
    }
}

/* A text's bounds, for the tests that check what is cut or covered. */
static void
record_text (HrChartHits  *hits,
             double        x,
             double        y,
             double        w,
             double        fs,
             guint         device,
             HrChartLabel  kind)
{
  if (hits != NULL && hits->n_labels < HR_CHART_MAX_LABELS)
    hits->labels[hits->n_labels++] = (HrChartHit) { x, y - 8 * fs, w, 16 * fs, device,
                                                    HR_N_CATEGORIES, kind };
}

/* A segment's label, on a plate of the segment's own colour where the
 * hatching or the capacity line would run through it. */
static void
draw_segment_label (Painter     *p,
                    const char  *text,
                    double       x,
                    double       y,
                    HrCategory   c,
                    gboolean     plate,
                    HrChartHits *hits)
{
  double fs = p->fs, w = hr_chart_text_width (p, text, 11, FALSE), h = 16 * fs;
  HrRgb ink = c == HR_CATEGORY_OVERHEAD || c == HR_CATEGORY_GRADIENTS
              || c == HR_CATEGORY_ACTIVATIONS ? (HrRgb) { 0.1, 0.1, 0.1 } : (HrRgb) { 1, 1, 1 };

  if (plate)
    {
      set_rgb (p->cr, hr_chart_category_colour (c, p->style->dark), 1.0);
      cairo_rectangle (p->cr, x - 3 * fs, y - h / 2, w + 6 * fs, h);
      cairo_fill (p->cr);
    }
  draw_text (p, text, x, y, 11, FALSE, ink, FALSE);
  if (hits != NULL && hits->n_labels < HR_CHART_MAX_LABELS)
    hits->labels[hits->n_labels++] = (HrChartHit) { x, y - h / 2, w, h, 0, c, HR_CHART_SEGMENT };
}

/* Device I's labels: each category's inside its segment where it fits
 * ("Optimizer states 18.2 GiB", or the size), the device's name and its
 * verdict. */
static void
draw_bar_labels (Painter      *p,
                 const HrPlan *plan,
                 guint         i,
                 const Plot   *plot,
                 HrChartHits  *hits)
{
  const HrChartStyle *style = p->style;
  const HrDevice *d = &plan->devices[i];
  double fs = p->fs;
  double by, bh;
  double x = plot->x, cx = plot->x + plot->capacity * plot->scale;

  bar_extent (plot, i, &by, &bh);
  for (guint c = 0; c < HR_N_CATEGORIES && plot->labels; c++)
    {
      double w = (double) d->category_bytes[c] * plot->scale;
      g_autofree char *size = NULL;
      g_autofree char *text = NULL;

      if (w <= 0)
        continue;
      size = hr_format_bytes ((double) d->category_bytes[c], style->units);
      text = g_strdup_printf ("%s %s", hr_category_label (c), size);
      if (hr_chart_text_width (p, text, 11, FALSE) + 8 * fs > w)
        g_clear_pointer (&text, g_free);
      if (text == NULL && hr_chart_text_width (p, size, 11, FALSE) + 8 * fs <= w)
        text = g_strdup (size);
      if (text != NULL)
        {
          double end = x + 4 * fs + hr_chart_text_width (p, text, 11, FALSE);

          /* Past the capacity line: the line or the hatching is under it. */
          draw_segment_label (p, text, x + 4 * fs, by + bh / 2, c, end + 5 * fs > cx, hits);
        }
      x += w;
    }

  if (plot->labels || plot->stacked || i == plan->binding_device)
    {
      g_autofree char *label = device_label (d);
      g_autofree char *verdict = hr_device_verdict (plan, d, style->units);
      HrRgb colour = hr_chart_status_colour (d->status, style->dark);
      double lw, vw, ty = by - plot->gap / 2 - plot->text_h / 2;

      if (plot->stacked)
        {
          /* The name at the left, the verdict at the right of the line,
           * on the background: the capacity line and the band run
           * through the line they are on. */
          double vx, ly = ty, vy = ty;

          lw = hr_chart_text_width (p, label, 11, TRUE);
          vw = hr_chart_text_width (p, verdict, 11, TRUE);
          vx = MAX (plot->x + plot->w - vw, plot->x + lw + 10 * fs);
          if (plot->two_lines)
            {
              vx = plot->x;
              ly = ty - 8.5 * fs;
              vy = ty + 8.5 * fs;
            }
          set_rgb (p->cr, style->background, 1.0);
          cairo_rectangle (p->cr, plot->x - 2 * fs, ly - 8 * fs, lw + 4 * fs, 16 * fs);
          cairo_rectangle (p->cr, vx - 2 * fs, vy - 8 * fs, vw + 4 * fs, 16 * fs);
          cairo_fill (p->cr);
          draw_text (p, label, plot->x, ly, 11, TRUE, style->foreground, FALSE);
          draw_text (p, verdict, vx, vy, 11, TRUE, colour, FALSE);
          record_text (hits, plot->x, ly, lw, fs, i, HR_CHART_DEVICE_NAME);
          record_text (hits, vx, vy, vw, fs, i, HR_CHART_VERDICT);
        }
      else
        {
          lw = draw_text (p, label, plot->x - 8 * fs, by + bh / 2, 11, TRUE, style->foreground,
                          TRUE);
          vw = draw_text (p, verdict, plot->x + plot->w + 10 * fs, by + bh / 2, 11, TRUE, colour,
                          FALSE);
          record_text (hits, plot->x - 8 * fs - lw, by + bh / 2, lw, fs, i, HR_CHART_DEVICE_NAME);
          record_text (hits, plot->x + plot->w + 10 * fs, by + bh / 2, vw, fs, i, HR_CHART_VERDICT);
        }
    }
}

/* The capacity as a line over the bars, labelled with the wanted free share. */
static void
draw_capacity_line (Painter          *p,
                    const HrScenario *sc,
                    const Plot       *plot,
                    HrChartHits      *hits)
{
  cairo_t *cr = p->cr;
  double fs = p->fs;
  double x = round (plot->x + plot->capacity * plot->scale) + 0.5;
  g_autofree char *cap = hr_format_bytes (plot->capacity, p->style->units);
  g_autofree char *text = g_strdup_printf (_("capacity %s"), cap);
  g_autofree char *band = g_strdup_printf (_("wanted free %d %%"),
                                           (int) (sc->overhead.headroom * 100 + 0.5));

  double cap_w = hr_chart_text_width (p, text, 11, TRUE);
  double band_w = sc->overhead.headroom > 0 ? hr_chart_text_width (p, band, 11, FALSE) : 0;
  double cap_x = x - cap_w, band_x = x + 6 * fs, ty = plot->top - 12 * fs;

  set_rgb (cr, p->style->foreground, 0.9);
  cairo_set_line_width (cr, 2 * fs);
  cairo_move_to (cr, x, plot->top - 6 * fs);
  cairo_line_to (cr, x, plot->bottom);
  cairo_stroke (cr);
  /* The capacity left of the line and the wanted share right of it; both
   * right of the line when it is near the left edge (far over capacity),
   * both left when it is near the right; the share left out where
   * neither fits. */
  if (cap_x < plot->left)
    {
      cap_x = x + 6 * fs;
      band_x = cap_x + cap_w + 10 * fs;
    }
  else if (band_x + band_w > plot->right)
    band_x = cap_x - 10 * fs - band_w;
  draw_text (p, text, cap_x, ty, 11, TRUE, p->style->foreground, FALSE);
  record_text (hits, cap_x, ty, cap_w, fs, 0, HR_CHART_CAPACITY);
  if (band_w > 0 && band_x >= plot->left && band_x + band_w <= plot->right)
    {
      draw_text (p, band, band_x, ty, 11, FALSE,
                 hr_chart_status_colour (HR_STATUS_TIGHT, p->style->dark), FALSE);
      record_text (hits, band_x, ty, band_w, fs, 0, HR_CHART_CAPACITY);
    }
}

void
hr_chart_draw (cairo_t            *cr,
               double              width,
               double              height,
               const HrScenario   *sc,
               const HrPlan       *plan,
               const HrChartStyle *style,
               HrChartHits        *hits)
{
  Painter p = { cr, NULL, style, MAX (style->font_scale, 0.25) };
  double m = 16 * p.fs, y = m, below = 0;
  Plot plot;

  g_return_if_fail (cr != NULL && sc != NULL && plan != NULL && style != NULL);

  if (hits != NULL)
    hits->n_hits = hits->n_labels = hits->n_cut_names = 0;
  if (width < 80 || height < 60 || plan->n_devices == 0)
    return;

  cairo_save (cr);
  p.layout = pango_cairo_create_layout (cr);
  if (style->paint_background)
    {
      set_rgb (cr, style->background, 1.0);
      cairo_paint (cr);
    }
  if (style->show_title)
    y = draw_title (&p, sc, plan, m, y);
  y = hr_chart_draw_legend (&p, width, m, y);
  if (!style->hide_breakdown)
    below = 34 * p.fs + hr_chart_breakdown_height (cr, p.layout, style, hr_plan_binding (plan),
                                                   width - 2 * m);
  if (lay_out_plot (&p, plan, width, height, m, y, below, &plot))
    {
      draw_axis (&p, &plot);
      draw_headroom_band (&p, sc, &plot);
      for (guint i = 0; i < plan->n_devices; i++)
        draw_bar (&p, plan, i, &plot, hits);
      draw_capacity_line (&p, sc, &plot, hits);
      for (guint i = 0; i < plan->n_devices; i++)
        draw_bar_labels (&p, plan, i, &plot, hits);
      if (!style->hide_breakdown)
        {
          guint cut = hr_chart_draw_breakdown (cr, p.layout, style, hr_plan_binding (plan), m,
                                               plot.bottom + 34 * p.fs, width - 2 * m,
                                               height - m - (plot.bottom + 34 * p.fs));

          if (hits != NULL)
            hits->n_cut_names = cut;
        }
    }
  g_object_unref (p.layout);
  cairo_restore (cr);
}

double
hr_chart_height (cairo_t            *cr,
                 double              width,
                 const HrScenario   *sc,
                 const HrPlan       *plan,
                 const HrChartStyle *style)
{
  Painter p = { cr, NULL, style, MAX (style->font_scale, 0.25) };
  double fs = p.fs, m = 16 * fs, y = m, text_h = 0;
  guint n = plan->n_devices;

  g_return_val_if_fail (cr != NULL && sc != NULL && plan != NULL && style != NULL, 0);

  if (n == 0 || width < 80)
    return 60;
  /* The title and the legend are laid out as drawn, into a group that is
   * thrown away. */
  cairo_save (cr);
  cairo_push_group (cr);
  p.layout = pango_cairo_create_layout (cr);
  if (style->show_title)
    y = draw_title (&p, sc, plan, m, y);
  y = hr_chart_draw_legend (&p, width, m, y);
  {
    Plot plot;

    if (lay_out_plot (&p, plan, width, G_MAXINT / 2, m, y, 0, &plot))
      text_h = plot.text_h;
  }
  y += 16 * fs + n * bar_thickness (fs, n, text_h);
  if (style->hide_breakdown)
    y += 22 * fs;
  else
    y += 34 * fs + hr_chart_breakdown_height (cr, p.layout, style, hr_plan_binding (plan),
                                              width - 2 * m);
  g_object_unref (p.layout);
  cairo_pattern_destroy (cairo_pop_group (cr));
  cairo_restore (cr);
  return ceil (y + m);
}

const HrChartHit *
hr_chart_hit_test (const HrChartHits *hits,
                   double             x,
                   double             y)
{
  g_return_val_if_fail (hits != NULL, NULL);

  for (guint i = 0; i < hits->n_hits; i++)
    {
      const HrChartHit *h = &hits->hits[i];

      if (x >= h->x && x < h->x + h->width && y >= h->y && y < h->y + h->height)
        return h;
    }
  return NULL;
}

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
hr_write_png_atomic (const char   *path,
                     int           width,
                     int           height,
                     double        scale,
                     HrPaintFunc   paint,
                     gpointer      data,
                     GError      **error)
{
  g_autoptr(GByteArray) png = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (width * scale),
                                        (int) (height * scale));
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  paint (cr, width, height, data);
  cairo_destroy (cr);
  status = cairo_surface_write_to_png_stream (surface, append_bytes, png);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: could not draw the PNG (%s)"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }

  /* Written beside the target and renamed over it, so a failure leaves an
   * existing file as it was. */
  return hr_write_file_atomic (path, (const char *) png->data, png->len, error);
}
