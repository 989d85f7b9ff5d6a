/* hr-render-png.c: the pictures headroom-cli writes, as one small API
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-render-png.h"
#include "hr-chart.h"
#include "hr-report-page.h"
#include "hr-sweep-chart.h"

/* The chart as the window shows it, in the light style, its text a size
 * fit for a slide. */
static void
cli_style (HrChartStyle *style,
           HrUnits       units)
{
  hr_chart_style_init_light (style);
  style->units = units;
  style->font_scale = 1.25;
}

gboolean
hr_render_chart_png (const char        *path,
                     const HrScenario  *scenario,
                     const HrPlan      *plan,
                     HrUnits            units,
                     GError           **error)
{
  HrChartStyle style;

  cli_style (&style, units);
  return hr_chart_write_png (path, HR_PNG_WIDTH, HR_PNG_HEIGHT, HR_PNG_SCALE, scenario, plan,
                             &style, error);
}

gboolean
hr_render_report_png (const char        *path,
                      const HrScenario  *scenario,
                      const HrPlan      *plan,
                      HrUnits            units,
                      GError           **error)
{
  return hr_report_write_png (path, scenario, plan, units, error);
}

typedef struct
{
  const HrScenario *scenario;
  const HrSweep    *sweep;
  HrUnits           units;
} SweepPaint;

static void
paint_sweep (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  data)
{
  const SweepPaint *p = data;
  HrChartStyle style;

  cli_style (&style, p->units);
  style.paint_background = TRUE;
  hr_sweep_draw (cr, width, height, p->scenario, p->sweep, &style);
}

gboolean
hr_render_sweep_png (const char        *path,
                     const HrScenario  *scenario,
                     const HrSweep     *sweep,
                     HrUnits            units,
                     GError           **error)
{
  SweepPaint paint = { scenario, sweep, units };

  return hr_write_png_atomic (path, HR_PNG_WIDTH, HR_PNG_HEIGHT, HR_PNG_SCALE, paint_sweep,
                              &paint, error);
}
