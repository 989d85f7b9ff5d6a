/* hr-timeline-chart.c: one training step's memory over time, on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Users ask "when does it run out?", and PyTorch's memory snapshot viewer
 * answers it for a real run with live memory stacked over time.  This is
 * the same picture for the plan: the moments of a step the planner
 * measures (HrPhase) along x, the memory alive at each stacked by
 * category as bands in the chart's palette, the capacity and the
 * wanted-headroom margin as lines, and the peak marked and said in words
 * (UX-LESSONS.md 5: call peaks peaks).  What is over capacity is hatched
 * in the warning colour, as on the bars (UX-LESSONS.md 2).
 */

#include "hr-chart-private.h"
#include "hr-timeline-chart.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* "peak: 61.2 GiB in the backward pass": a sentence per phase, so that
 * each language can word it whole. */
char *
hr_timeline_peak_label (const HrDevice *device,
                        HrUnits         units)
{
  g_autofree char *size = NULL;

  g_return_val_if_fail (device != NULL, NULL);

  size = hr_format_bytes ((double) device->total_bytes, units);
  switch (device->peak_phase)
    {
    case HR_PHASE_FORWARD:
      /* TRANSLATORS: %s is a size, "61.2 GiB"; the most memory of one
       * training step, at the moment named */
      return g_strdup_printf (_("peak: %s at the end of the forward pass"), size);
    case HR_PHASE_LOSS_BACKWARD:
      return g_strdup_printf (_("peak: %s in the loss's backward pass"), size);
    case HR_PHASE_BACKWARD_START:
      return g_strdup_printf (_("peak: %s in the backward pass"), size);
    case HR_PHASE_BACKWARD_END:
      return g_strdup_printf (_("peak: %s at the end of the backward pass"), size);
    case HR_PHASE_STEP:
    case HR_N_PHASES:
    default:
      return g_strdup_printf (_("peak: %s in the optimizer step"), size);
    }
}

static double
to_y (const HrTimelineGeometry *g,
      double                    ymax,
      double                    bytes)
{
  return g->bottom - bytes / ymax * (g->bottom - g->top);
}

/* Text wrapped to a width and centred on x, its top at y. */
static void
draw_wrapped (Painter    *p,
              const char *text,
              double      x,
              double      y,
              double      width,
              double      size,
              gboolean    bold)
{
  hr_chart_set_font (p->layout, p->style, size * p->fs, bold);
  hr_chart_set_text (p->layout, p->style, text);
  pango_layout_set_width (p->layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (p->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (p->layout, PANGO_ALIGN_CENTER);
  set_rgb (p->cr, p->style->foreground, 1.0);
  cairo_move_to (p->cr, x - width / 2, y);
  pango_cairo_show_layout (p->cr, p->layout);
  /* The other texts are laid out on one line, left-aligned. */
  pango_layout_set_width (p->layout, -1);
  pango_layout_set_alignment (p->layout, PANGO_ALIGN_LEFT);
}

/* Text on a ground of the background's colour, for a label that may
 * cross a line or a band; its left edge at x (its right with
 * align_right).  Answers its width. */
static double
draw_on_ground (Painter    *p,
                const char *text,
                double      x,
                double      y,
                double      size,
                gboolean    bold,
                HrRgb       colour,
                gboolean    align_right)
{
  double w = hr_chart_text_width (p, text, size, bold), fs = p->fs;
  double left = align_right ? x - w : x;

  set_rgb (p->cr, p->style->background, 0.85);
  cairo_rectangle (p->cr, left - 2 * fs, y - (size / 2 + 2) * fs, w + 4 * fs, (size + 4) * fs);
  cairo_fill (p->cr);
  draw_text (p, text, left, y, size, bold, colour, FALSE);
  return w;
}

/* The top of band C (the bottom of the plot for -1) across the phases,
 * left to right or back, as part of the current path: flat over each
 * column, sloping from one phase to the next. */
static void
trace_level (cairo_t                  *cr,
             const HrTimelineGeometry *g,
             int                       c,
             gboolean                  forward,
             gboolean                  start)
{
  for (guint k = 0; k < HR_N_PHASES; k++)
    {
      const HrTimelineColumn *col = &g->columns[forward ? k : HR_N_PHASES - 1 - k];
      double y = c < 0 ? g->bottom : col->segment_y[c];
      double x0 = forward ? col->x : col->x + col->width;
      double x1 = forward ? col->x + col->width : col->x;

      if (k == 0 && start)
        cairo_move_to (cr, x0, y);
      else
        cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
    }
}

/* Each category as a band across the phases, from parameters at the
 * bottom to overhead on top, with a hairline between bands. */
static void
draw_bands (Painter            *p,
            HrTimelineGeometry *g,
            double              ymax)
{
  cairo_t *cr = p->cr;

  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      HrTimelineColumn *col = &g->columns[ph];
      guint64 stack = 0;

      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        {
          double lo = to_y (g, ymax, (double) stack);

          stack += col->bytes[c];
          col->segment_y[c] = to_y (g, ymax, (double) stack);
          col->segment_h[c] = lo - col->segment_y[c];
        }
      col->top = to_y (g, ymax, (double) col->total);
    }

  for (int c = 0; c < HR_N_CATEGORIES; c++)
    {
      trace_level (cr, g, c, TRUE, TRUE);
      trace_level (cr, g, c - 1, FALSE, FALSE);
      cairo_close_path (cr);
      set_rgb (cr, hr_chart_category_colour (c, p->style->dark), 1.0);
      cairo_fill (cr);
    }

  cairo_set_line_width (cr, 1);
  set_rgb (cr, p->style->background, 0.7);
  for (int c = 0; c + 1 < HR_N_CATEGORIES; c++)
    {
      trace_level (cr, g, c, TRUE, TRUE);
      cairo_stroke (cr);
    }
}

/* What does not fit: hatched where the stack rises over the capacity. */
static void
draw_overflow (Painter                  *p,
               const HrTimelineGeometry *g,
               HrRgb                     colour)
{
  cairo_t *cr = p->cr;
  double h = g->capacity_y - (g->top - 40 * p->fs);

  cairo_save (cr);
  trace_level (cr, g, HR_N_CATEGORIES - 1, TRUE, TRUE);
  trace_level (cr, g, -1, FALSE, FALSE);
  cairo_close_path (cr);
  cairo_clip (cr);
  cairo_rectangle (cr, g->left, g->top - 40 * p->fs, g->right - g->left, h);
  cairo_clip (cr);
  set_rgb (cr, colour, 0.9);
  cairo_set_line_width (cr, 2 * p->fs);
  for (double d = -h; d < g->right - g->left; d += 7 * p->fs)
    {
      cairo_move_to (cr, g->left + d, g->capacity_y);
      cairo_line_to (cr, g->left + d + h, g->capacity_y - h);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* Sizes on the left in round GiB (or GB), with their grid. */
static void
draw_axis (Painter                  *p,
           const HrTimelineGeometry *g,
           double                    ymax)
{
  cairo_t *cr = p->cr;
  double fs = p->fs;
  double unit = p->style->units == HR_UNITS_DECIMAL ? 1e9 : HR_GIB;
  double step = hr_chart_nice_step (ymax / unit, 5);

  cairo_set_line_width (cr, 1);
  for (double v = 0; v * unit <= ymax; v += step)
    {
      double y = round (to_y (g, ymax, v * unit)) + 0.5;
      g_autofree char *number = hr_format_double (v, step < 1 ? 1 : 0);

      set_rgb (cr, p->style->foreground, 0.12);
      cairo_move_to (cr, g->left, y);
      cairo_line_to (cr, g->right, y);
      cairo_stroke (cr);
      draw_text (p, number, g->left - 6 * fs, y, 10, FALSE, p->style->foreground, TRUE);
    }
  draw_text (p, p->style->units == HR_UNITS_DECIMAL ? "GB" : "GiB", g->left - 6 * fs,
             g->top - 14 * fs, 10, TRUE, p->style->foreground, TRUE);
  set_rgb (cr, p->style->foreground, 0.6);
  cairo_move_to (cr, g->left, round (g->bottom) + 0.5);
  cairo_line_to (cr, g->right, round (g->bottom) + 0.5);
  cairo_stroke (cr);
}

/* The wanted headroom as a band under the capacity, drawn before the
 * bands so that it tints only what is not memory. */
static void
draw_margin_band (Painter                  *p,
                  const HrTimelineGeometry *g)
{
  set_rgb (p->cr, hr_chart_status_colour (HR_STATUS_TIGHT, p->style->dark), 0.12);
  cairo_rectangle (p->cr, g->left, g->capacity_y, g->right - g->left,
                   g->margin_y - g->capacity_y);
  cairo_fill (p->cr);
}

/* The capacity as a solid line and the wanted-headroom margin dashed
 * below it, each named at the right of the plot or, where that leaves the
 * plot too little room (a phone), inside it: the capacity's above its
 * line, the margin's below its own. */
static void
draw_limits (Painter                  *p,
             const HrScenario         *sc,
             const HrPlan             *plan,
             const HrTimelineGeometry *g,
             gboolean                  inside)
{
  cairo_t *cr = p->cr;
  double fs = p->fs;
  HrRgb amber = hr_chart_status_colour (HR_STATUS_TIGHT, p->style->dark);
  g_autofree char *cap = hr_format_bytes ((double) plan->capacity_bytes, p->style->units);
  g_autofree char *cap_text = g_strdup_printf (_("capacity %s"), cap);

  if (sc->overhead.headroom > 0)
    {
      double margin = (double) plan->capacity_bytes * (1 - sc->overhead.headroom);
      g_autofree char *size = hr_format_bytes (margin, p->style->units);
      /* TRANSLATORS: the line to stay under: the capacity less the
       * wanted free memory, "margin 71.6 GiB (10 % free)" */
      g_autofree char *text = g_strdup_printf (_("margin %s (%d %% free)"), size,
                                               (int) (sc->overhead.headroom * 100 + 0.5));
      double label_y = MAX (g->margin_y, g->capacity_y + 14 * fs);

      set_rgb (cr, amber, 1.0);
      cairo_set_line_width (cr, 1.5 * fs);
      cairo_set_dash (cr, (double[]) { 6 * fs, 4 * fs }, 2, 0);
      cairo_move_to (cr, g->left, g->margin_y);
      cairo_line_to (cr, g->right, g->margin_y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      if (inside)
        draw_on_ground (p, text, g->right - 4 * fs, g->margin_y + 10 * fs, 10, FALSE, amber,
                        TRUE);
      else
        draw_text (p, text, g->right + 6 * fs, label_y, 10, FALSE, amber, FALSE);
    }

  set_rgb (cr, p->style->foreground, 0.9);
  cairo_set_line_width (cr, 2 * fs);
  cairo_move_to (cr, g->left, g->capacity_y);
  cairo_line_to (cr, g->right + (inside ? 0 : 2 * fs), g->capacity_y);
  cairo_stroke (cr);
  if (inside)
    draw_on_ground (p, cap_text, g->right - 4 * fs, g->capacity_y - 10 * fs, 10, TRUE,
                    p->style->foreground, TRUE);
  else
    draw_text (p, cap_text, g->right + 6 * fs, g->capacity_y, 10, TRUE, p->style->foreground,
               FALSE);
}

/* Each phase's total above its column; the peak's in bold, marked with a
 * dot and named in words in the device's status colour. */
static void
draw_totals (Painter                  *p,
             const HrDevice           *d,
             const HrTimelineGeometry *g,
             double                    width,
             double                    m)
{
  cairo_t *cr = p->cr;
  double fs = p->fs;
  HrRgb status = hr_chart_status_colour (d->status, p->style->dark);

  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      const HrTimelineColumn *col = &g->columns[ph];
      g_autofree char *size = hr_format_bytes ((double) col->total, p->style->units);
      gboolean peak = ph == d->peak_phase;
      double w = hr_chart_text_width (p, size, 10, peak);

      /* Narrow columns (a phone) keep the peak's total only: the others
       * would run into each other. */
      if (!peak && w > col->width + (g->right - g->left) / HR_N_PHASES * 0.18 - 6 * fs)
        continue;
      draw_on_ground (p, size, col->x + col->width / 2 - w / 2, col->top - 9 * fs, 10, peak,
                      p->style->foreground, FALSE);
    }

  {
    const HrTimelineColumn *col = &g->columns[d->peak_phase];
    g_autofree char *label = hr_timeline_peak_label (d, p->style->units);
    double cx = col->x + col->width / 2, w = hr_chart_text_width (p, label, 11, TRUE);
    double x = CLAMP (cx - w / 2, m, MAX (m, width - m - w)), y = col->top - 24 * fs;

    draw_on_ground (p, label, x, y, 11, TRUE, status, FALSE);

    set_rgb (cr, p->style->background, 1.0);
    cairo_arc (cr, cx, col->top, 5 * fs, 0, 2 * G_PI);
    cairo_fill (cr);
    set_rgb (cr, p->style->foreground, 1.0);
    cairo_arc (cr, cx, col->top, 3.5 * fs, 0, 2 * G_PI);
    cairo_fill (cr);
  }
}

/* Inside the peak column, each band's size where it fits: the bars'
 * numbers, at the moment they are measured. */
static void
label_peak_bands (Painter                  *p,
                  const HrDevice           *d,
                  const HrTimelineGeometry *g)
{
  const HrTimelineColumn *col = &g->columns[d->peak_phase];
  double fs = p->fs;

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      g_autofree char *size = NULL;

      if (col->segment_h[c] < 14 * fs)
        continue;
      size = hr_format_bytes ((double) col->bytes[c], p->style->units);
      if (hr_chart_text_width (p, size, 10, FALSE) + 8 * fs > col->width)
        continue;
      draw_text (p, size, col->x + 4 * fs, col->segment_y[c] + col->segment_h[c] / 2, 10, FALSE,
                 c == HR_CATEGORY_OVERHEAD || c == HR_CATEGORY_GRADIENTS
                 || c == HR_CATEGORY_ACTIVATIONS
                 ? (HrRgb) { 0.1, 0.1, 0.1 } : (HrRgb) { 1, 1, 1 }, FALSE);
    }
}

void
hr_timeline_draw (cairo_t            *cr,
                  double              width,
                  double              height,
                  const HrScenario   *sc,
                  const HrPlan       *plan,
                  guint               device,
                  const HrChartStyle *style,
                  HrTimelineGeometry *geometry)
{
  Painter p = { cr, NULL, style, 1.0 };
  HrTimelineGeometry local;
  HrTimelineGeometry *g = geometry != NULL ? geometry : &local;
  const HrDevice *d;
  double fs, m, y, ymax, most = 0, right_w;
  gboolean inside;
  g_autofree char *heading = NULL;
  g_autofree char *cap_text = NULL;
  g_autofree char *margin_text = NULL;
  g_autofree char *cap = NULL;

  g_return_if_fail (cr != NULL && sc != NULL && plan != NULL && style != NULL);

  memset (g, 0, sizeof *g);
  p.fs = fs = MAX (style->font_scale, 0.25);
  m = 16 * fs;
  y = m;
  if (width < 160 || height < 140 || plan->n_devices == 0)
    return;
  device = MIN (device, plan->n_devices - 1);
  d = &plan->devices[device];
  g->device = device;
  g->peak_phase = d->peak_phase;
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      g->columns[ph].total = hr_device_phase_categories (d, ph, g->columns[ph].bytes);
      most = MAX (most, (double) g->columns[ph].total);
    }
  ymax = MAX (most, (double) plan->capacity_bytes) * 1.04;

  cairo_save (cr);
  p.layout = pango_cairo_create_layout (cr);
  if (style->paint_background)
    {
      set_rgb (cr, style->background, 1.0);
      cairo_paint (cr);
    }
  if (style->show_title)
    {
      draw_text (&p, sc->name, m, y + 10 * fs, 15, TRUE, style->foreground, FALSE);
      y += 26 * fs;
    }
  if (d->ranks > 1)
    /* TRANSLATORS: the heading of the memory-over-time chart; %s is a GPU
     * or a pipeline stage, %llu how many GPUs are alike */
    heading = g_strdup_printf (_("One training step on %s (×%llu)"), d->label,
                               (unsigned long long) d->ranks);
  else
    heading = g_strdup_printf (_("One training step on %s"), d->label);
  draw_text (&p, heading, m, y + 9 * fs, 13, TRUE, style->foreground, FALSE);
  y += 24 * fs;
  y = hr_chart_draw_legend (&p, width, m, y);

  /* The limits are named at the right of the plot. */
  cap = hr_format_bytes ((double) plan->capacity_bytes, style->units);
  cap_text = g_strdup_printf (_("capacity %s"), cap);
  right_w = hr_chart_text_width (&p, cap_text, 10, TRUE);
  if (sc->overhead.headroom > 0)
    {
      g_autofree char *size = hr_format_bytes ((double) plan->capacity_bytes
                                               * (1 - sc->overhead.headroom), style->units);

      margin_text = g_strdup_printf (_("margin %s (%d %% free)"), size,
                                     (int) (sc->overhead.headroom * 100 + 0.5));
      right_w = MAX (right_w, hr_chart_text_width (&p, margin_text, 10, FALSE));
    }
  right_w += 12 * fs;
  inside = right_w > width * 0.3;
  if (inside)
    right_w = 0;

  g->left = m + 40 * fs;
  g->right = width - m - right_w;
  g->top = y + 36 * fs;            /* room for the peak's words */
  g->bottom = height - m - 30 * fs;  /* room for the phases' names */
  if (g->right - g->left >= 120 && g->bottom - g->top >= 60)
    {
      double colw = (g->right - g->left) / HR_N_PHASES, slope = colw * 0.18;

      g->capacity_y = to_y (g, ymax, (double) plan->capacity_bytes);
      g->margin_y = to_y (g, ymax, (double) plan->capacity_bytes * (1 - sc->overhead.headroom));
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        {
          g->columns[ph].x = g->left + ph * colw + slope / 2;
          g->columns[ph].width = colw - slope;
        }
      draw_axis (&p, g, ymax);
      draw_margin_band (&p, g);
      draw_bands (&p, g, ymax);
      if (most > (double) plan->capacity_bytes)
        draw_overflow (&p, g, hr_chart_status_colour (HR_STATUS_OOM, style->dark));
      draw_limits (&p, sc, plan, g, inside);
      label_peak_bands (&p, d, g);
      draw_totals (&p, d, g, width, m);
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        draw_wrapped (&p, hr_phase_label (ph), g->columns[ph].x + g->columns[ph].width / 2,
                      g->bottom + 5 * fs, colw - 2 * fs, 10, ph == d->peak_phase);
      g->drawn = TRUE;
    }
  g_object_unref (p.layout);
  cairo_restore (cr);
}

/* The band under a point: which phase, which category. */
gboolean
hr_timeline_hit_test (const HrTimelineGeometry *g,
                      double                    x,
                      double                    y,
                      HrPhase                  *phase,
                      HrCategory               *category)
{
  guint ph;

  g_return_val_if_fail (g != NULL, FALSE);

  if (!g->drawn || x < g->left || x >= g->right)
    return FALSE;
  ph = MIN ((guint) ((x - g->left) / ((g->right - g->left) / HR_N_PHASES)), HR_N_PHASES - 1);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      const HrTimelineColumn *col = &g->columns[ph];

      if (col->bytes[c] > 0 && y >= col->segment_y[c]
          && y < col->segment_y[c] + MAX (col->segment_h[c], 1))
        {
          *phase = ph;
          *category = c;
          return TRUE;
        }
    }
  return FALSE;
}
