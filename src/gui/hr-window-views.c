/* hr-window-views.c: the window's three views of a plan
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Per GPU" is the chart; "Sweep" plots the fullest GPU's memory against
 * the micro-batch or the sequence length; "Compare" shows a pinned
 * scenario above the current one, both charts on one scale, with a table
 * of the differences per category.  Export PNG and CSV export the view
 * that is shown.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-calc.h"
#include "hr-report.h"
#include "hr-sweep-chart.h"
#include "hr-window-private.h"

const char *
hr_window_visible_view (HrWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->views);

  return name != NULL ? name : "plan";
}

static void
on_view_changed (HrWindow *self)
{
  hr_window_update_views (self);
}

static void
on_axis_changed (HrWindow *self)
{
  hr_window_update_views (self);
}

static GtkWidget *
diff_label (const char *text,
            gboolean    bold,
            float       xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (bold)
    gtk_widget_add_css_class (label, "heading");
  else
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

static void
update_compare (HrWindow *self)
{
  const HrDevice *before, *after;
  HrUnits units = hr_window_units (self);
  GtkWidget *child;
  double scale;
  g_autofree char *title = NULL;

  if (!self->has_pin)
    {
      gtk_label_set_text (self->compare_label,
                          _("Pin the scenario (Ctrl+P), change things, and compare them here."));
      gtk_widget_set_visible (GTK_WIDGET (self->pinned_chart), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->diff_grid), FALSE);
      return;
    }

  before = hr_plan_binding (self->pinned_plan);
  after = hr_plan_binding (self->plan);
  title = g_strdup_printf (_("Above: pinned, “%s”. Below: now, “%s”."), self->pinned.name,
                           hr_scenario_model_get_scenario (self->model)->name);
  gtk_label_set_text (self->compare_label, title);
  gtk_widget_set_visible (GTK_WIDGET (self->pinned_chart), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->diff_grid), TRUE);

  /* One scale for both. */
  scale = MAX (MAX ((double) before->total_bytes, (double) after->total_bytes),
               MAX ((double) self->pinned_plan->capacity_bytes, (double) self->plan->capacity_bytes))
          * 1.04;
  hr_chart_widget_set_units (self->pinned_chart, units);
  hr_chart_widget_set_units (self->current_chart, units);
  hr_chart_widget_set_scale_bytes (self->pinned_chart, scale);
  hr_chart_widget_set_scale_bytes (self->current_chart, scale);
  hr_chart_widget_set_plan (self->pinned_chart, &self->pinned, self->pinned_plan);
  hr_chart_widget_set_plan (self->current_chart, hr_scenario_model_get_scenario (self->model),
                            self->plan);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->diff_grid))) != NULL)
    gtk_grid_remove (self->diff_grid, child);
  gtk_grid_attach (self->diff_grid, diff_label (_("Fullest GPU"), TRUE, 0), 0, 0, 1, 1);
  gtk_grid_attach (self->diff_grid, diff_label (_("Pinned"), TRUE, 1), 1, 0, 1, 1);
  gtk_grid_attach (self->diff_grid, diff_label (_("Now"), TRUE, 1), 2, 0, 1, 1);
  gtk_grid_attach (self->diff_grid, diff_label (_("Difference"), TRUE, 1), 3, 0, 1, 1);
  for (guint c = 0; c <= HR_N_CATEGORIES; c++)
    {
      double a = c < HR_N_CATEGORIES ? (double) before->category_bytes[c] : (double) before->total_bytes;
      double b = c < HR_N_CATEGORIES ? (double) after->category_bytes[c] : (double) after->total_bytes;
      g_autofree char *sa = hr_format_bytes (a, units);
      g_autofree char *sb = hr_format_bytes (b, units);
      g_autofree char *sd = hr_format_bytes (b - a, units);
      g_autofree char *signed_d = g_strdup_printf ("%s%s", b > a ? "+" : "", sd);

      gtk_grid_attach (self->diff_grid,
                       diff_label (c < HR_N_CATEGORIES ? hr_category_label (c) : _("Total"),
                                   c == HR_N_CATEGORIES, 0), 0, c + 1, 1, 1);
      gtk_grid_attach (self->diff_grid, diff_label (sa, FALSE, 1), 1, c + 1, 1, 1);
      gtk_grid_attach (self->diff_grid, diff_label (sb, FALSE, 1), 2, c + 1, 1, 1);
      gtk_grid_attach (self->diff_grid, diff_label (signed_d, c == HR_N_CATEGORIES, 1), 3, c + 1, 1, 1);
    }
}

/* Called after every successful recompute: only the visible view works. */
void
hr_window_update_views (HrWindow *self)
{
  const char *view = hr_window_visible_view (self);
  g_autoptr(HrPlan) work = NULL;

  if (!self->plan_valid)
    return;
  if (g_str_equal (view, "sweep"))
    {
      HrSweepAxis axis = gtk_drop_down_get_selected (self->sweep_axis) == 1
                         ? HR_SWEEP_SEQ_LEN : HR_SWEEP_MICRO_BATCH;

      work = hr_plan_new ();
      self->sweep_valid = hr_sweep_compute (hr_scenario_model_get_scenario (self->model), axis,
                                            work, self->sweep, NULL);
      hr_sweep_widget_set_sweep (self->sweep_widget, hr_scenario_model_get_scenario (self->model),
                                 self->sweep_valid ? self->sweep : NULL, hr_window_units (self));
    }
  else if (g_str_equal (view, "compare"))
    update_compare (self);
}

void
hr_window_pin (HrWindow *self)
{
  g_autofree char *message = NULL;

  if (!self->plan_valid)
    return;
  self->pinned = *hr_scenario_model_get_scenario (self->model);
  hr_calc_plan (&self->pinned, self->pinned_plan, NULL);
  self->has_pin = TRUE;
  adw_view_stack_set_visible_child_name (self->views, "compare");
  update_compare (self);
  message = g_strdup_printf (_("Pinned “%s”: change the scenario to compare"), self->pinned.name);
  hr_window_toast (self, message);
}

static void
paint_view (cairo_t  *cr,
            double    width,
            double    height,
            gpointer  data)
{
  HrWindow *self = data;
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);
  HrChartStyle style;

  hr_chart_style_init_light (&style);
  style.units = hr_window_units (self);
  style.paint_background = TRUE;
  style.font_scale = 1.25;
  if (g_str_equal (hr_window_visible_view (self), "sweep") && self->sweep_valid)
    hr_sweep_draw (cr, width, height, sc, self->sweep, &style);
  else if (self->has_pin)
    {
      const HrDevice *a = hr_plan_binding (self->pinned_plan), *b = hr_plan_binding (self->plan);

      /* Pinned above, now below, on one scale. */
      style.scale_bytes = MAX (MAX ((double) a->total_bytes, (double) b->total_bytes),
                               (double) MAX (self->pinned_plan->capacity_bytes,
                                             self->plan->capacity_bytes)) * 1.04;
      hr_chart_draw (cr, width, height / 2, &self->pinned, self->pinned_plan, &style, NULL);
      cairo_translate (cr, 0, height / 2);
      style.paint_background = FALSE;
      hr_chart_draw (cr, width, height / 2, sc, self->plan, &style, NULL);
    }
}

/* The sweep or the comparison as a PNG of 3200 x 1800; the plan view goes
 * through hr_chart_write_png. */
gboolean
hr_window_export_view_png (HrWindow    *self,
                           const char  *path,
                           GError     **error)
{
  return hr_write_png_atomic (path, 1600, 900, 2.0, paint_view, self, error);
}

/* The sweep's points, or the comparison per category. */
char *
hr_window_view_csv (HrWindow *self)
{
  const char *view = hr_window_visible_view (self);
  GString *out;
  const HrDevice *a, *b;

  if (g_str_equal (view, "sweep") && self->sweep_valid)
    return hr_sweep_csv (self->sweep);
  if (!g_str_equal (view, "compare") || !self->has_pin)
    return hr_report_csv (self->plan);

  a = hr_plan_binding (self->pinned_plan);
  b = hr_plan_binding (self->plan);
  out = g_string_new ("category,pinned_bytes,now_bytes,difference_bytes\r\n");
  for (guint c = 0; c <= HR_N_CATEGORIES; c++)
    {
      gint64 x = c < HR_N_CATEGORIES ? (gint64) a->category_bytes[c] : (gint64) a->total_bytes;
      gint64 y = c < HR_N_CATEGORIES ? (gint64) b->category_bytes[c] : (gint64) b->total_bytes;

      g_string_append_printf (out, "%s,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\r\n",
                              c < HR_N_CATEGORIES ? hr_enum_name (&hr_category_names, c) : "total",
                              x, y, y - x);
    }
  return g_string_free (out, FALSE);
}

void
hr_window_build_views (HrWindow *self)
{
  GtkWidget *switcher, *sweep_page, *compare_page, *axis_row, *scroller;
  static const char *axes[] = { N_("Micro-batch"), N_("Sequence length"), NULL };
  const char *axes_t[] = { _(axes[0]), _(axes[1]), NULL };

  self->sweep = g_new0 (HrSweep, 1);
  self->pinned_plan = hr_plan_new ();
  self->views = ADW_VIEW_STACK (adw_view_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->views), TRUE);

  /* Per GPU: the chart. */
  self->chart = HR_CHART_WIDGET (hr_chart_widget_new ());
  adw_view_stack_add_titled_with_icon (self->views, GTK_WIDGET (self->chart), "plan",
                                       _("Per GPU"), "view-paged-symbolic");

  /* Sweep: an axis and the chart. */
  sweep_page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  axis_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->sweep_axis = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (axes_t));
  gtk_box_append (GTK_BOX (axis_row), gtk_label_new (_("Against")));
  gtk_box_append (GTK_BOX (axis_row), GTK_WIDGET (self->sweep_axis));
  self->sweep_widget = HR_SWEEP_WIDGET (hr_sweep_widget_new ());
  gtk_box_append (GTK_BOX (sweep_page), axis_row);
  gtk_box_append (GTK_BOX (sweep_page), GTK_WIDGET (self->sweep_widget));
  adw_view_stack_add_titled_with_icon (self->views, sweep_page, "sweep", _("Sweep"),
                                       "media-playlist-consecutive-symbolic");

  /* Compare: pinned above, now below, the differences. */
  compare_page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->compare_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->compare_label, TRUE);
  gtk_label_set_xalign (self->compare_label, 0);
  self->pinned_chart = HR_CHART_WIDGET (hr_chart_widget_new ());
  self->current_chart = HR_CHART_WIDGET (hr_chart_widget_new ());
  self->diff_grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->diff_grid, 24);
  gtk_grid_set_row_spacing (self->diff_grid, 2);
  gtk_box_append (GTK_BOX (compare_page), GTK_WIDGET (self->compare_label));
  gtk_box_append (GTK_BOX (compare_page), GTK_WIDGET (self->pinned_chart));
  gtk_box_append (GTK_BOX (compare_page), GTK_WIDGET (self->current_chart));
  gtk_box_append (GTK_BOX (compare_page), GTK_WIDGET (self->diff_grid));
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), compare_page);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  adw_view_stack_add_titled_with_icon (self->views, scroller, "compare", _("Compare"),
                                       "view-dual-symbolic");

  switcher = adw_view_switcher_new ();
  adw_view_switcher_set_policy (ADW_VIEW_SWITCHER (switcher), ADW_VIEW_SWITCHER_POLICY_WIDE);
  adw_view_switcher_set_stack (ADW_VIEW_SWITCHER (switcher), self->views);
  gtk_widget_set_halign (switcher, GTK_ALIGN_START);
  gtk_box_append (self->result_box, switcher);
  gtk_box_append (self->result_box, GTK_WIDGET (self->views));

  g_signal_connect_swapped (self->views, "notify::visible-child-name",
                            G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (self->sweep_axis, "notify::selected", G_CALLBACK (on_axis_changed), self);
  update_compare (self);
}
