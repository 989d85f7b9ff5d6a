/* hr-plan-view.c: the "Per GPU" view, the chart of the plan
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One stacked bar per GPU group or pipeline stage and, below it, every
 * item of the binding GPU (the breakdown), both drawn by hr_chart_draw;
 * exported as the same drawing with the scenario's name and verdict.
 */

#include "config.h"

#include "hr-plan-view.h"
#include "hr-report.h"

struct _HrPlanView
{
  GtkWidget      parent_instance;

  HrChartWidget *chart;
};

static void hr_plan_view_iface_init (HrViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (HrPlanView, hr_plan_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (HR_TYPE_VIEW, hr_plan_view_iface_init))

static void
hr_plan_view_show_plan (HrView           *view,
                        const HrScenario *scenario,
                        const HrPlan     *plan,
                        HrUnits           units)
{
  HrPlanView *self = HR_PLAN_VIEW (view);

  hr_plan_view_set_stale (self, FALSE);
  hr_chart_widget_set_units (self->chart, units);
  hr_chart_widget_set_plan (self->chart, scenario, plan);
}

static void
hr_plan_view_clear (HrView *view)
{
  HrPlanView *self = HR_PLAN_VIEW (view);

  hr_chart_widget_set_plan (self->chart, NULL, NULL);
  hr_plan_view_set_stale (self, TRUE);
}

static gboolean
hr_plan_view_can_export (HrView *view)
{
  return hr_chart_widget_get_plan (HR_PLAN_VIEW (view)->chart) != NULL;
}

static void
hr_plan_view_paint (HrView             *view,
                    cairo_t            *cr,
                    double              width,
                    double              height,
                    const HrChartStyle *style)
{
  HrPlanView *self = HR_PLAN_VIEW (view);
  const HrPlan *plan = hr_chart_widget_get_plan (self->chart);

  if (plan != NULL)
    hr_chart_draw (cr, width, height, hr_chart_widget_get_scenario (self->chart), plan, style,
                   NULL);
}

static char *
hr_plan_view_to_csv (HrView *view)
{
  const HrPlan *plan = hr_chart_widget_get_plan (HR_PLAN_VIEW (view)->chart);

  return plan != NULL ? hr_report_csv (plan) : g_strdup ("");
}

static void
hr_plan_view_iface_init (HrViewInterface *iface)
{
  iface->show_plan = hr_plan_view_show_plan;
  iface->clear = hr_plan_view_clear;
  iface->can_export = hr_plan_view_can_export;
  iface->paint = hr_plan_view_paint;
  iface->to_csv = hr_plan_view_to_csv;
}

/* Greyed while the form holds an invalid value (UX-LESSONS.md 8). */
void
hr_plan_view_set_stale (HrPlanView *self,
                        gboolean    stale)
{
  g_return_if_fail (HR_IS_PLAN_VIEW (self));
  if (stale)
    gtk_widget_add_css_class (GTK_WIDGET (self->chart), "stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->chart), "stale");
}

HrChartWidget *
hr_plan_view_get_chart (HrPlanView *self)
{
  g_return_val_if_fail (HR_IS_PLAN_VIEW (self), NULL);
  return self->chart;
}

static void
hr_plan_view_dispose (GObject *object)
{
  HrPlanView *self = HR_PLAN_VIEW (object);

  if (self->chart != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->chart));
      self->chart = NULL;
    }
  G_OBJECT_CLASS (hr_plan_view_parent_class)->dispose (object);
}

static void
hr_plan_view_class_init (HrPlanViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_plan_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hr_plan_view_init (HrPlanView *self)
{
  self->chart = HR_CHART_WIDGET (hr_chart_widget_new ());
  /* The chart asks for the height its bars and breakdown need at its
   * width: on a small screen the results pane scrolls rather than
   * squeeze them (hr_chart_widget_measure). */
  gtk_widget_set_parent (GTK_WIDGET (self->chart), GTK_WIDGET (self));
}

GtkWidget *
hr_plan_view_new (void)
{
  return g_object_new (HR_TYPE_PLAN_VIEW, NULL);
}
