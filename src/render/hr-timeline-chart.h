/* hr-timeline-chart.h: one training step's memory over time, on any cairo_t
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's "Over time" view and `headroom-cli --png FILE --chart
 * timeline` draw it with the same function, so an export is what the
 * user saw.
 */

#pragma once

#include <cairo.h>

#include "hr-chart.h"

G_BEGIN_DECLS

/* Where one phase's column was drawn, and what it holds. */
typedef struct
{
  double  x, width;                       /* the column's flat top */
  double  top;                            /* y of its total */
  double  segment_y[HR_N_CATEGORIES];     /* each band's top in this column */
  double  segment_h[HR_N_CATEGORIES];
  guint64 bytes[HR_N_CATEGORIES];
  guint64 total;
} HrTimelineColumn;

/* What was drawn where: the widget's tooltips and the tests read it. */
typedef struct
{
  gboolean         drawn;                 /* FALSE: too small, nothing drawn */
  guint            device;
  HrPhase          peak_phase;
  double           left, right, top, bottom;   /* the plot */
  double           capacity_y, margin_y;
  HrTimelineColumn columns[HR_N_PHASES];
} HrTimelineGeometry;

void      hr_timeline_draw        (cairo_t            *cr,
                                   double              width,
                                   double              height,
                                   const HrScenario   *scenario,
                                   const HrPlan       *plan,
                                   guint               device,
                                   const HrChartStyle *style,
                                   HrTimelineGeometry *geometry);

char     *hr_timeline_peak_label  (const HrDevice     *device,
                                   HrUnits             units);

gboolean  hr_timeline_hit_test    (const HrTimelineGeometry *geometry,
                                   double              x,
                                   double              y,
                                   HrPhase            *phase,
                                   HrCategory         *category);

G_END_DECLS
