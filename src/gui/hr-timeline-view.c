/* hr-timeline-view.c: the "Over time" view, memory through one step
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The memory alive in each phase of one training step, stacked by
 * category (hr-timeline-chart.c), for the GPU that binds or, when the
 * GPUs differ (pipeline stages), the one chosen above the chart.
 * Exported as the same drawing, its numbers as CSV: a row per phase.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-report.h"
#include "hr-timeline-view.h"

struct _HrTimelineView
{
  GtkWidget         parent_instance;

  GtkWidget        *device_row;
  GtkDropDown      *device_choice;
  GtkStringList    *device_names;
  HrTimelineWidget *timeline;
  HrUnits           units;
  guint             updating;      /* > 0 while the choice is refilled */
};

static void hr_timeline_view_iface_init (HrViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (HrTimelineView, hr_timeline_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (HR_TYPE_VIEW, hr_timeline_view_iface_init))

static char *
device_name (const HrDevice *d)
{
  if (d->ranks > 1)
    return g_strdup_printf ("%s (×%" G_GUINT64_FORMAT ")", d->label, d->ranks);
  return g_strdup (d->label);
}

/* The choice lists the plan's devices; a plan with the same devices keeps
 * the user's choice, another starts from the one that binds.  Answers the
 * device to show. */
static guint
fill_device_choice (HrTimelineView *self,
                    const HrPlan   *plan)
{
  GListModel *names = G_LIST_MODEL (self->device_names);
  gboolean same = g_list_model_get_n_items (names) == plan->n_devices;

  for (guint i = 0; same && i < plan->n_devices; i++)
    {
      g_autofree char *name = device_name (&plan->devices[i]);

      same = g_str_equal (gtk_string_list_get_string (self->device_names, i), name);
    }
  gtk_widget_set_visible (self->device_row, plan->n_devices > 1);
  if (same)
    return MIN (gtk_drop_down_get_selected (self->device_choice), plan->n_devices - 1);

  self->updating++;
  {
    g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < plan->n_devices; i++)
      g_ptr_array_add (list, device_name (&plan->devices[i]));
    g_ptr_array_add (list, NULL);
    gtk_string_list_splice (self->device_names, 0, g_list_model_get_n_items (names),
                            (const char * const *) list->pdata);
  }
  gtk_drop_down_set_selected (self->device_choice, plan->binding_device);
  self->updating--;
  return plan->binding_device;
}

static void
on_device_chosen (HrTimelineView *self)
{
  const HrPlan *plan = hr_timeline_widget_get_plan (self->timeline);
  guint device = gtk_drop_down_get_selected (self->device_choice);

  if (self->updating > 0 || plan == NULL || device == GTK_INVALID_LIST_POSITION)
    return;
  hr_timeline_widget_set_plan (self->timeline, hr_timeline_widget_get_scenario (self->timeline),
                               plan, device, self->units);
}

static void
hr_timeline_view_show_plan (HrView           *view,
                            const HrScenario *scenario,
                            const HrPlan     *plan,
                            HrUnits           units)
{
  HrTimelineView *self = HR_TIMELINE_VIEW (view);
  guint device = fill_device_choice (self, plan);

  self->units = units;
  gtk_widget_remove_css_class (GTK_WIDGET (self->timeline), "stale");
  hr_timeline_widget_set_plan (self->timeline, scenario, plan, device, units);
}

static void
hr_timeline_view_clear (HrView *view)
{
  HrTimelineView *self = HR_TIMELINE_VIEW (view);

  hr_timeline_widget_set_plan (self->timeline, NULL, NULL, 0, HR_UNITS_BINARY);
  gtk_widget_add_css_class (GTK_WIDGET (self->timeline), "stale");
}

static gboolean
hr_timeline_view_can_export (HrView *view)
{
  return hr_timeline_widget_get_plan (HR_TIMELINE_VIEW (view)->timeline) != NULL;
}

static void
hr_timeline_view_paint (HrView             *view,
                        cairo_t            *cr,
                        double              width,
                        double              height,
                        const HrChartStyle *style)
{
  HrTimelineWidget *timeline = HR_TIMELINE_VIEW (view)->timeline;
  const HrPlan *plan = hr_timeline_widget_get_plan (timeline);

  if (plan != NULL)
    hr_timeline_draw (cr, width, height, hr_timeline_widget_get_scenario (timeline), plan,
                      hr_timeline_widget_get_device (timeline), style, NULL);
}

static char *
hr_timeline_view_to_csv (HrView *view)
{
  HrTimelineWidget *timeline = HR_TIMELINE_VIEW (view)->timeline;
  const HrPlan *plan = hr_timeline_widget_get_plan (timeline);

  if (plan == NULL)
    return g_strdup ("");
  return hr_report_timeline_csv (&plan->devices[hr_timeline_widget_get_device (timeline)]);
}

static void
hr_timeline_view_iface_init (HrViewInterface *iface)
{
  iface->show_plan = hr_timeline_view_show_plan;
  iface->clear = hr_timeline_view_clear;
  iface->can_export = hr_timeline_view_can_export;
  iface->paint = hr_timeline_view_paint;
  iface->to_csv = hr_timeline_view_to_csv;
}

HrTimelineWidget *
hr_timeline_view_get_widget (HrTimelineView *self)
{
  g_return_val_if_fail (HR_IS_TIMELINE_VIEW (self), NULL);
  return self->timeline;
}

GtkDropDown *
hr_timeline_view_get_device_choice (HrTimelineView *self)
{
  g_return_val_if_fail (HR_IS_TIMELINE_VIEW (self), NULL);
  return self->device_choice;
}

static void
hr_timeline_view_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (hr_timeline_view_parent_class)->dispose (object);
}

static void
hr_timeline_view_class_init (HrTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_timeline_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
hr_timeline_view_init (HrTimelineView *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_GPU"));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);

  /* Pipeline stages hold different memory: which one to follow. */
  self->device_names = gtk_string_list_new (NULL);
  self->device_choice = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->device_names),
                                                          NULL));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->device_choice));
  self->device_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (self->device_row), label);
  gtk_box_append (GTK_BOX (self->device_row), GTK_WIDGET (self->device_choice));
  gtk_widget_set_visible (self->device_row, FALSE);
  gtk_widget_set_parent (self->device_row, GTK_WIDGET (self));

  self->timeline = HR_TIMELINE_WIDGET (hr_timeline_widget_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->timeline), GTK_WIDGET (self));
  g_signal_connect_swapped (self->device_choice, "notify::selected",
                            G_CALLBACK (on_device_chosen), self);
}

GtkWidget *
hr_timeline_view_new (void)
{
  return g_object_new (HR_TYPE_TIMELINE_VIEW, NULL);
}
