/* hr-sweep-view.c: the "Sweep" view, memory against one setting
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plots the fullest GPU's memory against the micro-batch or the sequence
 * length, with the capacity and the last value that fits; exported as the
 * same drawing, its points as CSV.  The sweep is computed when the view
 * is shown a plan, which the window does only while it is visible.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-sweep-chart.h"
#include "hr-sweep-view.h"
#include "hr-sweep-widget.h"

struct _HrSweepView
{
  GtkWidget      parent_instance;

  GtkDropDown   *axis;
  HrSweepWidget *sweep_widget;

  HrScenario     scenario;     /* the last scenario shown */
  gboolean       has_scenario;
  HrUnits        units;
  HrSweep       *sweep;
  gboolean       sweep_valid;
};

static void hr_sweep_view_iface_init (HrViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (HrSweepView, hr_sweep_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (HR_TYPE_VIEW, hr_sweep_view_iface_init))

static void
compute (HrSweepView *self)
{
  HrSweepAxis axis = gtk_drop_down_get_selected (self->axis) == 1 ? HR_SWEEP_SEQ_LEN
                                                                  : HR_SWEEP_MICRO_BATCH;
  g_autoptr(HrPlan) work = hr_plan_new ();

  if (!self->has_scenario)
    return;
  self->sweep_valid = hr_sweep_compute (&self->scenario, axis, work, self->sweep, NULL);
  hr_sweep_widget_set_sweep (self->sweep_widget, &self->scenario,
                             self->sweep_valid ? self->sweep : NULL, self->units);
}

static void
hr_sweep_view_show_plan (HrView           *view,
                         const HrScenario *scenario,
                         const HrPlan     *plan,
                         HrUnits           units)
{
  HrSweepView *self = HR_SWEEP_VIEW (view);

  self->scenario = *scenario;
  self->has_scenario = TRUE;
  self->units = units;
  gtk_widget_remove_css_class (GTK_WIDGET (self->sweep_widget), "stale");
  compute (self);
}

static void
hr_sweep_view_clear (HrView *view)
{
  HrSweepView *self = HR_SWEEP_VIEW (view);

  self->has_scenario = FALSE;
  self->sweep_valid = FALSE;
  hr_sweep_widget_set_sweep (self->sweep_widget, NULL, NULL, self->units);
  gtk_widget_add_css_class (GTK_WIDGET (self->sweep_widget), "stale");
}

static gboolean
hr_sweep_view_can_export (HrView *view)
{
  return HR_SWEEP_VIEW (view)->sweep_valid;
}

static void
hr_sweep_view_paint (HrView             *view,
                     cairo_t            *cr,
                     double              width,
                     double              height,
                     const HrChartStyle *style)
{
  HrSweepView *self = HR_SWEEP_VIEW (view);

  if (self->sweep_valid)
    hr_sweep_draw (cr, width, height, &self->scenario, self->sweep, style);
}

static char *
hr_sweep_view_to_csv (HrView *view)
{
  HrSweepView *self = HR_SWEEP_VIEW (view);

  return self->sweep_valid ? hr_sweep_csv (self->sweep) : g_strdup ("");
}

static void
hr_sweep_view_iface_init (HrViewInterface *iface)
{
  iface->show_plan = hr_sweep_view_show_plan;
  iface->clear = hr_sweep_view_clear;
  iface->can_export = hr_sweep_view_can_export;
  iface->paint = hr_sweep_view_paint;
  iface->to_csv = hr_sweep_view_to_csv;
}

static void
hr_sweep_view_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (hr_sweep_view_parent_class)->dispose (object);
}

static void
hr_sweep_view_finalize (GObject *object)
{
  g_free (HR_SWEEP_VIEW (object)->sweep);
  G_OBJECT_CLASS (hr_sweep_view_parent_class)->finalize (object);
}

static void
hr_sweep_view_class_init (HrSweepViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_sweep_view_dispose;
  object_class->finalize = hr_sweep_view_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
hr_sweep_view_init (HrSweepView *self)
{
  static const char *axes[] = { N_("Micro-batch"), N_("Sequence length"), NULL };
  const char *axes_t[] = { _(axes[0]), _(axes[1]), NULL };
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
  self->sweep = g_new0 (HrSweep, 1);
  self->units = HR_UNITS_BINARY;

  self->axis = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (axes_t));
  gtk_box_append (GTK_BOX (row), gtk_label_new (_("Against")));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->axis));
  gtk_widget_set_parent (row, GTK_WIDGET (self));
  self->sweep_widget = HR_SWEEP_WIDGET (hr_sweep_widget_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->sweep_widget), GTK_WIDGET (self));
  g_signal_connect_swapped (self->axis, "notify::selected", G_CALLBACK (compute), self);
}

GtkWidget *
hr_sweep_view_new (void)
{
  return g_object_new (HR_TYPE_SWEEP_VIEW, NULL);
}
