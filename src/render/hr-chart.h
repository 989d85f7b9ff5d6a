/* hr-chart.h: the per-GPU memory chart, drawn on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One function paints the chart: the window's widget calls it from its
 * snapshot, PNG export and `headroom-cli --png` call it on an image
 * surface, so an exported image is what the user saw.
 */

#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "hr-format.h"
#include "hr-plan.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b;
} HrRgb;

typedef struct
{
  gboolean dark;          /* dark style: lighter segment colours */
  HrRgb    foreground;    /* text, in the theme's foreground colour */
  HrRgb    background;    /* painted first when paint_background */
  gboolean paint_background;
  HrUnits  units;
  double   font_scale;    /* 1.0 on screen; larger for presentations */
  gboolean show_title;    /* the scenario's name and the verdict on top */
  const char *font_family;
  double   scale_bytes;   /* > 0: the x axis spans this much (charts compared) */
  /* How numbers are written: NULL for "39.2 GiB" whatever the locale (the
   * PNGs headroom-cli writes, the same on every machine); the window's
   * charts and exports write them as its labels do (hr_locale_number). */
  HrNumberFunc number;
  gboolean hide_breakdown; /* the bars alone, without the binding GPU's items */
} HrChartStyle;

typedef enum
{
  HR_CHART_SEGMENT,       /* a bar's segment, or the label inside it */
  HR_CHART_DEVICE_NAME,   /* "GPU 0-7 ×8" */
  HR_CHART_VERDICT,       /* "✓ Fits, 36.8 GiB free (46 %)" */
  HR_CHART_CAPACITY,      /* "capacity 79.6 GiB", "wanted free 10 %" */
  HR_CHART_COMPARE_HEADING,   /* the Compare page's "Pinned", "Now", its tables' headings */
  HR_CHART_CHANGE,            /* a field that differs: "Micro-batch  4 → 8" */
  HR_CHART_DIFFERENCE,        /* a category's row: pinned, now, difference */
} HrChartLabel;

/* A drawn bar segment, for tooltips: which device and category it shows;
 * or a text's bounds (category HR_N_CATEGORIES for a device's name, its
 * verdict and the capacity's labels). */
typedef struct
{
  double       x, y, width, height;
  guint        device;
  HrCategory   category;
  HrChartLabel kind;
} HrChartHit;

#define HR_CHART_MAX_HITS 512
#define HR_CHART_MAX_LABELS 64

/* The segments as drawn, and the segments' labels (category and the
 * text's bounds) for the tests that check nothing covers them. */
typedef struct
{
  guint      n_hits;
  HrChartHit hits[HR_CHART_MAX_HITS];
  guint      n_labels;
  HrChartHit labels[HR_CHART_MAX_LABELS];
  guint      n_cut_names;   /* the breakdown's item names ellipsized */
} HrChartHits;

void        hr_chart_style_init_light (HrChartStyle       *style);
void        hr_chart_style_init_dark  (HrChartStyle       *style);

void        hr_chart_draw             (cairo_t            *cr,
                                       double              width,
                                       double              height,
                                       const HrScenario   *scenario,
                                       const HrPlan       *plan,
                                       const HrChartStyle *style,
                                       HrChartHits        *hits);

const HrChartHit *hr_chart_hit_test   (const HrChartHits  *hits,
                                       double              x,
                                       double              y);

HrRgb       hr_chart_category_colour  (HrCategory          category,
                                       gboolean            dark);
HrRgb       hr_chart_status_colour    (HrStatus            status,
                                       gboolean            dark);
const char *hr_category_label         (HrCategory          category);
char       *hr_device_verdict         (const HrPlan       *plan,
                                       const HrDevice     *device,
                                       HrUnits             units);

/* Paints with draw on a width x height image at scale, then writes it
 * beside path and renames it over path. */
typedef void (*HrPaintFunc) (cairo_t *cr, double width, double height, gpointer data);

gboolean    hr_write_png_atomic       (const char         *path,
                                       int                 width,
                                       int                 height,
                                       double              scale,
                                       HrPaintFunc         paint,
                                       gpointer            data,
                                       GError            **error);

/* Text in the style's font, size in pixels, vertically centred on y;
 * align 0 puts its left edge at x, 0.5 its centre, 1 its right edge.
 * Answers its width.  The chart, the sweep and the report share it. */
double      hr_chart_draw_text        (cairo_t            *cr,
                                       PangoLayout        *layout,
                                       const HrChartStyle *style,
                                       const char         *text,
                                       double              x,
                                       double              y,
                                       double              size,
                                       gboolean            bold,
                                       HrRgb               colour,
                                       double              align);

/* The breakdown under the chart (hr-chart-breakdown.c): one column per
 * category with the device's items at its peak, in the given box; returns
 * how many items' names it had to cut short. */
guint       hr_chart_draw_breakdown   (cairo_t            *cr,
                                       PangoLayout        *layout,
                                       const HrChartStyle *style,
                                       const HrDevice     *device,
                                       double              x,
                                       double              y,
                                       double              width,
                                       double              height);

/* The height the breakdown takes at WIDTH to list every line it would. */
double      hr_chart_breakdown_height (cairo_t            *cr,
                                       PangoLayout        *layout,
                                       const HrChartStyle *style,
                                       const HrDevice     *device,
                                       double              width);

/* The height the chart wants at WIDTH: every bar at the thickness its
 * labels read well at (thinner where there are many) and, unless hidden,
 * the whole breakdown; a chart drawn taller makes its bars thicker. */
double      hr_chart_height           (cairo_t            *cr,
                                       double              width,
                                       const HrScenario   *scenario,
                                       const HrPlan       *plan,
                                       const HrChartStyle *style);

G_END_DECLS
