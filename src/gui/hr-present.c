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

#include <adwaita.h>
#include <glib/gi18n.h>

#include "hr-calc.h"
#include "hr-chart-widget.h"
#include "hr-present.h"
#include "hr-report.h"

typedef struct
{
  GArray        *scenarios;
  guint          index;
  HrUnits        units;
  HrPlan        *plan;
  GtkLabel      *title;
  GtkLabel      *verdict;
  GtkLabel      *position;
  HrChartWidget *chart;
} Present;

static void
present_free (Present *p)
{
  g_array_unref (p->scenarios);
  hr_plan_free (p->plan);
  g_free (p);
}

static void
show_current (Present *p)
{
  const HrScenario *sc = &g_array_index (p->scenarios, HrScenario, p->index);
  g_autofree char *position = g_strdup_printf (_("%u of %u · ← → to step · Esc to leave"),
                                               p->index + 1, p->scenarios->len);

  gtk_label_set_text (p->title, sc->name);
  gtk_label_set_text (p->position, position);
  if (!hr_calc_plan (sc, p->plan, NULL))
    {
      gtk_label_set_text (p->verdict, _("Cannot plan this scenario"));
      return;
    }
  {
    g_autofree char *summary = hr_plan_summary (sc, p->plan, p->units);
    g_autofree char *text = g_strdup_printf ("%s %s", p->plan->status == HR_STATUS_OK ? "✓"
                                             : p->plan->status == HR_STATUS_TIGHT ? "⚠" : "✗",
                                             summary);
    GtkWidget *label = GTK_WIDGET (p->verdict);

    gtk_label_set_text (p->verdict, text);
    gtk_widget_remove_css_class (label, "success");
    gtk_widget_remove_css_class (label, "warning");
    gtk_widget_remove_css_class (label, "error");
    gtk_widget_add_css_class (label, p->plan->status == HR_STATUS_OK ? "success"
                                     : p->plan->status == HR_STATUS_TIGHT ? "warning" : "error");
  }
  hr_chart_widget_set_plan (p->chart, sc, p->plan);
}

static gboolean
on_key (GtkEventControllerKey *controller,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        Present               *p)
{
  GtkWidget *window = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  switch (keyval)
    {
    case GDK_KEY_Escape:
      gtk_window_close (GTK_WINDOW (window));
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_Page_Down:
    case GDK_KEY_space:
      p->index = (p->index + 1) % p->scenarios->len;
      show_current (p);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_Page_Up:
      p->index = (p->index + p->scenarios->len - 1) % p->scenarios->len;
      show_current (p);
      return TRUE;
    default:
      return FALSE;
    }
}

GtkWidget *
hr_present_new (GtkWindow        *parent,
                const HrScenario *scenarios,
                guint             n_scenarios,
                guint             first,
                HrUnits           units)
{
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkEventController *keys = gtk_event_controller_key_new ();
  Present *p = g_new0 (Present, 1);

  g_return_val_if_fail (n_scenarios > 0, NULL);

  p->scenarios = g_array_sized_new (FALSE, FALSE, sizeof (HrScenario), n_scenarios);
  g_array_append_vals (p->scenarios, scenarios, n_scenarios);
  p->index = MIN (first, n_scenarios - 1);
  p->units = units;
  p->plan = hr_plan_new ();

  p->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (p->title), "title-1");
  p->verdict = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (p->verdict, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (p->verdict), "title-2");
  p->chart = HR_CHART_WIDGET (hr_chart_widget_new ());
  hr_chart_widget_set_units (p->chart, units);
  hr_chart_widget_set_font_scale (p->chart, 2.0);
  p->position = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (p->position), "dim-label");

  gtk_widget_set_margin_top (box, 36);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 48);
  gtk_widget_set_margin_end (box, 48);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (p->title));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (p->verdict));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (p->chart));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (p->position));
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_set_title (GTK_WINDOW (window), _("Presentation"));
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);

  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key), p);
  gtk_widget_add_controller (window, keys);
  g_object_set_data_full (G_OBJECT (window), "present", p, (GDestroyNotify) present_free);

  show_current (p);
  gtk_window_fullscreen (GTK_WINDOW (window));
  return window;
}
