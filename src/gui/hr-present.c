/* hr-present.c: the full-screen presentation of plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For a meeting: one large verdict, the chart at twice the type size, and
 * the keyboard to step through the pinned, the current and the example
 * scenarios (UX-LESSONS.md point 10).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-calc.h"
#include "hr-chart-widget.h"
#include "hr-present.h"
#include "hr-report.h"

struct _HrPresent
{
  AdwWindow      parent_instance;

  GArray        *scenarios;
  guint          index;
  HrUnits        units;
  HrPlan        *plan;

  GtkLabel      *title;
  GtkLabel      *verdict;
  GtkLabel      *position;
  HrChartWidget *chart;
};

G_DEFINE_FINAL_TYPE (HrPresent, hr_present, ADW_TYPE_WINDOW)

static void
show_current (HrPresent *self)
{
  const HrScenario *sc = &g_array_index (self->scenarios, HrScenario, self->index);
  g_autofree char *position = g_strdup_printf (_("%u of %u · ← → to step · Esc to leave"),
                                               self->index + 1, self->scenarios->len);
  GtkWidget *label = GTK_WIDGET (self->verdict);

  gtk_label_set_text (self->title, sc->name);
  gtk_label_set_text (self->position, position);
  gtk_widget_remove_css_class (label, "success");
  gtk_widget_remove_css_class (label, "warning");
  gtk_widget_remove_css_class (label, "error");
  if (!hr_calc_plan (sc, self->plan, NULL))
    {
      gtk_label_set_text (self->verdict, _("Cannot plan this scenario"));
      return;
    }
  {
    g_autofree char *summary = hr_plan_summary (sc, self->plan, self->units);
    g_autofree char *text = g_strdup_printf ("%s %s", self->plan->status == HR_STATUS_OK ? "✓"
                                             : self->plan->status == HR_STATUS_TIGHT ? "⚠" : "✗",
                                             summary);

    gtk_label_set_text (self->verdict, text);
    gtk_widget_add_css_class (label, self->plan->status == HR_STATUS_OK ? "success"
                                     : self->plan->status == HR_STATUS_TIGHT ? "warning"
                                                                           : "error");
  }
  hr_chart_widget_set_plan (self->chart, sc, self->plan);
}

/* Steps delta scenarios on, round the list. */
void
hr_present_step (HrPresent *self,
                 int        delta)
{
  guint n;

  g_return_if_fail (HR_IS_PRESENT (self));
  n = self->scenarios->len;
  self->index = (guint) (((int) self->index + delta % (int) n + (int) n) % (int) n);
  show_current (self);
}

const char *
hr_present_get_verdict (HrPresent *self)
{
  g_return_val_if_fail (HR_IS_PRESENT (self), NULL);
  return gtk_label_get_text (self->verdict);
}

static gboolean
on_key (GtkEventControllerKey *controller,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        HrPresent             *self)
{
  switch (keyval)
    {
    case GDK_KEY_Escape:
      gtk_window_close (GTK_WINDOW (self));
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_Page_Down:
    case GDK_KEY_space:
      hr_present_step (self, 1);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_Page_Up:
      hr_present_step (self, -1);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
hr_present_finalize (GObject *object)
{
  HrPresent *self = HR_PRESENT (object);

  g_clear_pointer (&self->scenarios, g_array_unref);
  g_clear_pointer (&self->plan, hr_plan_free);
  G_OBJECT_CLASS (hr_present_parent_class)->finalize (object);
}

static void
hr_present_class_init (HrPresentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_present_finalize;
}

static void
hr_present_init (HrPresent *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->plan = hr_plan_new ();
  self->units = HR_UNITS_BINARY;

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "title-1");
  self->verdict = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->verdict, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->verdict), "title-2");
  self->chart = HR_CHART_WIDGET (hr_chart_widget_new ());
  hr_chart_widget_set_font_scale (self->chart, 2.0);
  self->position = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->position), "dim-label");

  gtk_widget_set_margin_top (box, 36);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 48);
  gtk_widget_set_margin_end (box, 48);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->verdict));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->chart));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->position));
  adw_window_set_content (ADW_WINDOW (self), box);
  gtk_window_set_title (GTK_WINDOW (self), _("Presentation"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1280, 800);

  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

GtkWidget *
hr_present_new (GtkWindow        *parent,
                const HrScenario *scenarios,
                guint             n_scenarios,
                guint             first,
                HrUnits           units)
{
  HrPresent *self;

  g_return_val_if_fail (n_scenarios > 0, NULL);

  self = g_object_new (HR_TYPE_PRESENT, "transient-for", parent, NULL);
  self->scenarios = g_array_sized_new (FALSE, FALSE, sizeof (HrScenario), n_scenarios);
  g_array_append_vals (self->scenarios, scenarios, n_scenarios);
  self->index = MIN (first, n_scenarios - 1);
  self->units = units;
  hr_chart_widget_set_units (self->chart, units);
  show_current (self);
  gtk_window_fullscreen (GTK_WINDOW (self));
  return GTK_WIDGET (self);
}
