/* hr-render-png.c: the pictures headroom-cli writes, as one small API
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-render-png.h"
#include "hr-chart.h"
#include "hr-report-page.h"
#include "hr-sweep-chart.h"
#include "hr-timeline-chart.h"

const HrExportSettings hr_export_settings = {
  .width = 1600,
  .height = 900,
  .scale = 2.0,
  .font_scale = 1.25,
};

/* What a picture is painted from. */
typedef struct
{
  const HrScenario *scenario;
  const HrSweep    *sweep;
  const HrPlan     *plan;
  HrUnits           units;
} Paint;

/* The chart as the window shows it, in the light style, its text a size
 * fit for a slide. */
static void
cli_style (HrChartStyle *style,
           HrUnits       units)
{
  hr_chart_style_init_light (style);
  style->units = units;
  style->font_scale = hr_export_settings.font_scale;
}

/* The per-GPU chart, as the window's plan view draws it. */
static void
paint_chart (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  data)
{
  const Paint *p = data;
  HrChartStyle style;

  cli_style (&style, p->units);
  style.paint_background = TRUE;
  hr_chart_draw (cr, width, height, p->scenario, p->plan, &style, NULL);
}

gboolean
hr_render_chart_png (const char        *path,
                     const HrScenario  *scenario,
                     const HrPlan      *plan,
                     HrUnits            units,
                     GError           **error)
{
  Paint paint = { scenario, NULL, plan, units };

  return hr_write_png_atomic (path, hr_export_settings.width, hr_export_settings.height,
                              hr_export_settings.scale, paint_chart, &paint, error);
}

/* The memory over one step of the GPU that binds, as the window's "Over
 * time" view draws it. */
static void
paint_timeline (cairo_t  *cr,
                double    width,
                double    height,
                gpointer  data)
{
  const Paint *p = data;
  HrChartStyle style;

  cli_style (&style, p->units);
  style.paint_background = TRUE;
  hr_timeline_draw (cr, width, height, p->scenario, p->plan, p->plan->binding_device, &style,
                    NULL);
}

gboolean
hr_render_timeline_png (const char        *path,
                        const HrScenario  *scenario,
                        const HrPlan      *plan,
                        HrUnits            units,
                        GError           **error)
{
  Paint paint = { scenario, NULL, plan, units };

  return hr_write_png_atomic (path, hr_export_settings.width, hr_export_settings.height,
                              hr_export_settings.scale, paint_timeline,
                              &paint, error);
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

static void
paint_sweep (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  data)
{
  const Paint *p = data;
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
  Paint paint = { scenario, sweep, NULL, units };

  return hr_write_png_atomic (path, hr_export_settings.width, hr_export_settings.height,
                              hr_export_settings.scale, paint_sweep,
                              &paint, error);
}
