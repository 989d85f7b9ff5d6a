/* hr-chart-private.h: what the chart's files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <pango/pangocairo.h>

#include "hr-chart.h"

G_BEGIN_DECLS

/* What every drawing function needs: the target, one reused layout, the
 * style, and the font scale. */
typedef struct
{
  cairo_t            *cr;
  PangoLayout        *layout;
  const HrChartStyle *style;
  double              fs;
} Painter;

static inline void
set_rgb (cairo_t *cr,
         HrRgb    c,
         double   alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, alpha);
}

/* Text sized in the chart's points (scaled by the style's font scale). */
static inline double
draw_text (Painter    *p,
           const char *text,
           double      x,
           double      y,
           double      size,
           gboolean    bold,
           HrRgb       colour,
           gboolean    align_right)
{
  return hr_chart_draw_text (p->cr, p->layout, p->style, text, x, y, size * p->fs, bold,
                             colour, align_right ? 1.0 : 0.0);
}

/* Lays TEXT out in P's layout, SIZE in points at font_scale 1. */
void   hr_chart_layout_text (Painter            *p,
                             const char         *text,
                             double              size,
                             gboolean            bold);
/* How wide TEXT is at SIZE points (times the style's scale), laid out in
 * the painter's layout at its current width. */
double hr_chart_text_width  (Painter            *p,
                             const char         *text,
                             double              size,
                             gboolean            bold);
void   hr_chart_set_font    (PangoLayout        *layout,
                             const HrChartStyle *style,
                             double              size,
                             gboolean            bold);
void   hr_chart_set_text    (PangoLayout        *layout,
                             const HrChartStyle *style,
                             const char         *text);

/* The chart's pieces the timeline (hr-timeline-chart.c) draws too. */
double hr_chart_nice_step   (double   range,
                             int      n);
double hr_chart_draw_legend (Painter *p,
                             double   width,
                             double   m,
                             double   y);

G_END_DECLS
