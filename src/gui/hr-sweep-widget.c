/* hr-sweep-widget.c: the sweep chart in the window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Paints hr_sweep_draw(), the function PNG export uses too, in the theme's
 * colours; keeps its own copy of the sweep it shows.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "hr-chart-theme.h"
#include "hr-locale.h"
#include "hr-sweep-chart.h"
#include "hr-sweep-widget.h"

struct _HrSweepWidget
{
  GtkWidget  parent_instance;
  HrScenario scenario;
  HrSweep    sweep;
  gboolean   has_sweep;
  HrUnits    units;
};

G_DEFINE_FINAL_TYPE (HrSweepWidget, hr_sweep_widget, GTK_TYPE_WIDGET)

static void
hr_sweep_widget_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrSweepWidget *self = HR_SWEEP_WIDGET (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  HrChartStyle style;
  cairo_t *cr;

  if (!self->has_sweep || width <= 0 || height <= 0)
    return;
  hr_chart_theme_style (widget, self->units, &style);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  hr_sweep_draw (cr, width, height, &self->scenario, &self->sweep, &style);
  cairo_destroy (cr);
}

void
hr_sweep_widget_set_sweep (HrSweepWidget    *self,
                           const HrScenario *scenario,
                           const HrSweep    *sweep,
                           HrUnits           units)
{
  g_autofree char *description = NULL;

  g_return_if_fail (HR_IS_SWEEP_WIDGET (self));
  self->has_sweep = scenario != NULL && sweep != NULL;
  if (self->has_sweep)
    {
      g_autofree char *last = hr_locale_whole (sweep->last_fitting);

      self->scenario = *scenario;
      self->sweep = *sweep;
      self->units = units;
      /* TRANSLATORS: %s is a micro-batch or a sequence length */
      description = g_strdup_printf (_("Fits with the wanted free memory up to %s"), last);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      description, -1);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
hr_sweep_widget_class_init (HrSweepWidgetClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = hr_sweep_widget_snapshot;
  gtk_widget_class_set_css_name (widget_class, "sweep");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_sweep_widget_init (HrSweepWidget *self)
{
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 300, 220);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory against micro-batch or sequence length"), -1);
}

GtkWidget *
hr_sweep_widget_new (void)
{
  return g_object_new (HR_TYPE_SWEEP_WIDGET, NULL);
}
