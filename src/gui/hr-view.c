/* hr-view.c: what every view of a plan in the window can do
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's views (the plan per GPU, a sweep, a comparison) show a
 * plan, export what they show as a PNG at the export size (hr-export.c)
 * and their numbers as CSV; the window asks whichever view is visible.
 */

#include "config.h"

#include "hr-export.h"
#include "hr-view.h"

G_DEFINE_INTERFACE (HrView, hr_view, GTK_TYPE_WIDGET)

static void
hr_view_default_init (HrViewInterface *iface)
{
}

void
hr_view_show_plan (HrView           *self,
                   const HrScenario *scenario,
                   const HrPlan     *plan,
                   HrUnits           units)
{
  g_return_if_fail (HR_IS_VIEW (self));
  HR_VIEW_GET_IFACE (self)->show_plan (self, scenario, plan, units);
}

void
hr_view_clear (HrView *self)
{
  g_return_if_fail (HR_IS_VIEW (self));
  HR_VIEW_GET_IFACE (self)->clear (self);
}

gboolean
hr_view_can_export (HrView *self)
{
  g_return_val_if_fail (HR_IS_VIEW (self), FALSE);
  return HR_VIEW_GET_IFACE (self)->can_export (self);
}

typedef struct
{
  HrView       *view;
  HrChartStyle  style;
} PaintData;

static void
paint (cairo_t  *cr,
       double    width,
       double    height,
       gpointer  user_data)
{
  PaintData *data = user_data;

  HR_VIEW_GET_IFACE (data->view)->paint (data->view, cr, width, height, &data->style);
}

/* What the view shows, as a PNG of the export size. */
gboolean
hr_view_write_png (HrView      *self,
                   const char  *path,
                   HrUnits      units,
                   GError     **error)
{
  PaintData data = { self };

  g_return_val_if_fail (HR_IS_VIEW (self), FALSE);
  hr_export_style_init (&data.style, units);
  return hr_export_write_png (path, paint, &data, error);
}

char *
hr_view_to_csv (HrView *self)
{
  g_return_val_if_fail (HR_IS_VIEW (self), NULL);
  return HR_VIEW_GET_IFACE (self)->to_csv (self);
}
