/* hr-view.h: what every view of a plan in the window can do
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-chart.h"

G_BEGIN_DECLS

#define HR_TYPE_VIEW (hr_view_get_type ())

G_DECLARE_INTERFACE (HrView, hr_view, HR, VIEW, GtkWidget)

struct _HrViewInterface
{
  GTypeInterface parent_iface;

  /* Shows the current scenario and its plan (a valid one). */
  void      (*show_plan)  (HrView             *self,
                           const HrScenario   *scenario,
                           const HrPlan       *plan,
                           HrUnits             units);
  /* Forgets what it shows: the scenario cannot be planned, and nothing
   * it showed is true of it any more. */
  void      (*clear)      (HrView             *self);
  /* Whether the view has something of its own to export now. */
  gboolean  (*can_export) (HrView             *self);
  /* Paints what the view shows for an export. */
  void      (*paint)      (HrView             *self,
                           cairo_t            *cr,
                           double              width,
                           double              height,
                           const HrChartStyle *style);
  /* Its numbers as CSV. */
  char     *(*to_csv)     (HrView             *self);
};

void      hr_view_show_plan  (HrView           *self,
                              const HrScenario *scenario,
                              const HrPlan     *plan,
                              HrUnits           units);
void      hr_view_clear      (HrView           *self);
gboolean  hr_view_can_export (HrView           *self);
gboolean  hr_view_write_png  (HrView           *self,
                              const char       *path,
                              HrUnits           units,
                              GError          **error);
char     *hr_view_to_csv     (HrView           *self);

G_END_DECLS
