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

/* Which picture. */
typedef enum
{
  PICTURE_CHART,      /* the per-GPU chart, as the window's plan view draws it */
  PICTURE_TIMELINE,   /* the memory over one step of the GPU that binds ("Over time") */
  PICTURE_SWEEP,      /* the sweep of micro-batches or sequence lengths */
} Picture;

/* What a picture is painted from. */
typedef struct
{
  Picture           picture;
  const HrScenario *scenario;
  const HrSweep    *sweep;
  const HrPlan     *plan;
  HrUnits           units;
} Paint;

/* The picture as the window shows it, in the light style on its
 * background, its text a size fit for a slide. */
static void
paint_picture (cairo_t  *cr,
               double    width,
               double    height,
               gpointer  data)
{
  const Paint *p = data;
  HrChartStyle style;

  hr_chart_style_init_light (&style);
  style.units = p->units;
  style.font_scale = hr_export_settings.font_scale;
  style.paint_background = TRUE;
  switch (p->picture)
    {
    case PICTURE_CHART:
      hr_chart_draw (cr, width, height, p->scenario, p->plan, &style, NULL);
      break;
    case PICTURE_TIMELINE:
      hr_timeline_draw (cr, width, height, p->scenario, p->plan, p->plan->binding_device,
                        &style, NULL);
      break;
    case PICTURE_SWEEP:
      hr_sweep_draw (cr, width, height, p->scenario, p->sweep, &style);
      break;
    }
}

static gboolean
write_picture (const char   *path,
               const Paint  *paint,
               GError      **error)
{
  return hr_write_png_atomic (path, hr_export_settings.width, hr_export_settings.height,
                              hr_export_settings.scale, paint_picture, (gpointer) paint, error);
}

gboolean
hr_render_chart_png (const char        *path,
                     const HrScenario  *scenario,
                     const HrPlan      *plan,
                     HrUnits            units,
                     GError           **error)
{
  Paint paint = { PICTURE_CHART, scenario, NULL, plan, units };

  return write_picture (path, &paint, error);
}

gboolean
hr_render_timeline_png (const char        *path,
                        const HrScenario  *scenario,
                        const HrPlan      *plan,
                        HrUnits            units,
                        GError           **error)
{
  Paint paint = { PICTURE_TIMELINE, scenario, NULL, plan, units };

  return write_picture (path, &paint, error);
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

gboolean
hr_render_sweep_png (const char        *path,
                     const HrScenario  *scenario,
                     const HrSweep     *sweep,
                     HrUnits            units,
                     GError           **error)
{
  Paint paint = { PICTURE_SWEEP, scenario, sweep, NULL, units };

  return write_picture (path, &paint, error);
}
