/* hr-compare-view.c: the "Compare" view, a pinned scenario and the current one
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which fields differ (their form labels, before → after), the pinned
 * scenario above the current one, each headed "Pinned" or "Now", both
 * charts on one scale, and a table of the differences per category on
 * the fullest GPU;
 * exported as one page with both charts, the fields that differ and the
 * categories' differences (hr_compare_draw), the table as CSV.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-calc.h"
#include "hr-chart-widget.h"
#include "hr-compare-chart.h"
#include "hr-compare-view.h"
#include "hr-locale.h"
#include "hr-scenario-diff.h"

/* As many as the export lists (hr-compare-chart.c); the rest counted. */
#define MAX_CHANGES 10

struct _HrCompareView
{
  GtkWidget      parent_instance;

  GtkLabel      *label;
  GtkGrid       *changes_grid;
  GtkLabel      *pinned_heading;
  GtkLabel      *current_heading;
  HrChartWidget *pinned_chart;
  HrChartWidget *current_chart;
  GtkGrid       *diff_grid;

  gboolean       has_pin;
  HrScenario     pinned;
  HrPlan        *pinned_plan;
};

static void hr_compare_view_iface_init (HrViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (HrCompareView, hr_compare_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (HR_TYPE_VIEW, hr_compare_view_iface_init))

static GtkWidget *
diff_label (const char *text,
            gboolean    bold,
            float       xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_widget_add_css_class (label, bold ? "heading" : "numeric");
  return label;
}

/* One scale for both charts: the larger total or capacity, and a margin. */
static double
shared_scale (const HrPlan *a,
              const HrPlan *b)
{
  const HrDevice *da = hr_plan_binding (a), *db = hr_plan_binding (b);

  return MAX (MAX ((double) da->total_bytes, (double) db->total_bytes),
              MAX ((double) a->capacity_bytes, (double) b->capacity_bytes)) * 1.04;
}

static void
show_comparison (HrCompareView *self,
                 gboolean       pinned,
                 gboolean       current)
{
  gtk_widget_set_visible (GTK_WIDGET (self->label), !pinned || !current);
  gtk_widget_set_visible (GTK_WIDGET (self->pinned_heading), pinned);
  gtk_widget_set_visible (GTK_WIDGET (self->pinned_chart), pinned);
  gtk_widget_set_visible (GTK_WIDGET (self->current_heading), pinned && current);
  gtk_widget_set_visible (GTK_WIDGET (self->changes_grid), pinned && current);
  gtk_widget_set_visible (GTK_WIDGET (self->diff_grid), pinned && current);
}

static void
show_nothing_pinned (HrCompareView *self)
{
  gtk_label_set_text (self->label,
                      _("Pin the scenario (Ctrl+P), change things, and compare them here."));
  show_comparison (self, FALSE, TRUE);
}

/* "Pinned  Llama 2 13B, …" above a chart: which of the two it is, even
 * when both names are the same. */
static void
set_heading (GtkLabel   *heading,
             const char *which,
             const char *name)
{
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>   %s", which, name);

  gtk_label_set_markup (heading, markup);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

/* The fields that differ, in the form's words: "Micro-batch   4 → 8". */
static void
fill_changes (HrCompareView    *self,
              const HrScenario *now)
{
  HrFieldChange changes[MAX_CHANGES];
  guint n = hr_scenario_diff (&self->pinned, now, changes, MAX_CHANGES);
  GtkWidget *label;

  clear_grid (self->changes_grid);
  gtk_grid_attach (self->changes_grid, diff_label (_("What changed"), TRUE, 0), 0, 0, 2, 1);
  if (n == 0)
    {
      label = diff_label (_("Nothing: the same scenario"), FALSE, 0);
      gtk_widget_remove_css_class (label, "numeric");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (self->changes_grid, label, 0, 1, 2, 1);
      return;
    }
  for (guint i = 0; i < MIN (n, MAX_CHANGES); i++)
    {
      const HrFieldChange *c = &changes[i];
      g_autofree char *before = hr_locale_text (c->before);
      g_autofree char *after = hr_locale_text (c->after);
      g_autofree char *values = g_strdup_printf ("%s → %s", before, after);

      label = diff_label (c->field->label != NULL ? _(c->field->label) : c->path, FALSE, 0);
      gtk_widget_remove_css_class (label, "numeric");
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_grid_attach (self->changes_grid, label, 0, i + 1, 1, 1);
      label = diff_label (values, FALSE, 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_grid_attach (self->changes_grid, label, 1, i + 1, 1, 1);
    }
  if (n > MAX_CHANGES)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more field",
                                                            "and %u more fields",
                                                            n - MAX_CHANGES), n - MAX_CHANGES);

      label = diff_label (more, FALSE, 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (self->changes_grid, label, 0, MAX_CHANGES + 1, 2, 1);
    }
}

static void
fill_differences (HrCompareView  *self,
                  const HrDevice *before,
                  const HrDevice *after,
                  HrUnits         units)
{
  clear_grid (self->diff_grid);
  gtk_grid_attach (self->diff_grid, diff_label (_("Fullest GPU"), TRUE, 0), 0, 0, 1, 1);
  gtk_grid_attach (self->diff_grid, diff_label (_("Pinned"), TRUE, 1), 1, 0, 1, 1);
  gtk_grid_attach (self->diff_grid, diff_label (_("Now"), TRUE, 1), 2, 0, 1, 1);
  gtk_grid_attach (self->diff_grid, diff_label (_("Difference"), TRUE, 1), 3, 0, 1, 1);
  for (guint c = 0; c <= HR_N_CATEGORIES; c++)
    {
      gboolean total = c == HR_N_CATEGORIES;
      double a = total ? (double) before->total_bytes : (double) before->category_bytes[c];
      double b = total ? (double) after->total_bytes : (double) after->category_bytes[c];
      g_autofree char *sa = hr_locale_bytes (a, units);
      g_autofree char *sb = hr_locale_bytes (b, units);
      g_autofree char *sd = hr_locale_bytes (b - a, units);
      g_autofree char *signed_d = g_strdup_printf ("%s%s", b > a ? "+" : "", sd);

      gtk_grid_attach (self->diff_grid, diff_label (total ? _("Total") : hr_category_label (c),
                                                    total, 0), 0, c + 1, 1, 1);
      gtk_grid_attach (self->diff_grid, diff_label (sa, FALSE, 1), 1, c + 1, 1, 1);
      gtk_grid_attach (self->diff_grid, diff_label (sb, FALSE, 1), 2, c + 1, 1, 1);
      gtk_grid_attach (self->diff_grid, diff_label (signed_d, total, 1), 3, c + 1, 1, 1);
    }
}

static void
hr_compare_view_show_plan (HrView           *view,
                           const HrScenario *scenario,
                           const HrPlan     *plan,
                           HrUnits           units)
{
  HrCompareView *self = HR_COMPARE_VIEW (view);
  double scale;

  gtk_widget_remove_css_class (GTK_WIDGET (self->current_chart), "stale");
  if (!self->has_pin)
    {
      show_nothing_pinned (self);
      return;
    }

  show_comparison (self, TRUE, TRUE);
  set_heading (self->pinned_heading, _("Pinned"), self->pinned.name);
  set_heading (self->current_heading, _("Now"), scenario->name);
  fill_changes (self, scenario);

  scale = shared_scale (self->pinned_plan, plan);
  hr_chart_widget_set_units (self->pinned_chart, units);
  hr_chart_widget_set_units (self->current_chart, units);
  hr_chart_widget_set_scale_bytes (self->pinned_chart, scale);
  hr_chart_widget_set_scale_bytes (self->current_chart, scale);
  hr_chart_widget_set_plan (self->pinned_chart, &self->pinned, self->pinned_plan);
  hr_chart_widget_set_plan (self->current_chart, scenario, plan);
  fill_differences (self, hr_plan_binding (self->pinned_plan), hr_plan_binding (plan), units);
}

static void
hr_compare_view_clear (HrView *view)
{
  HrCompareView *self = HR_COMPARE_VIEW (view);
  g_autofree char *title = NULL;

  hr_chart_widget_set_plan (self->current_chart, NULL, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->current_chart), "stale");
  if (!self->has_pin)
    return;
  show_comparison (self, TRUE, FALSE);
  title = g_strdup_printf (_("Above: pinned, “%s”. The scenario as it is now cannot be planned."),
                           self->pinned.name);
  gtk_label_set_text (self->label, title);
}

static gboolean
hr_compare_view_can_export (HrView *view)
{
  HrCompareView *self = HR_COMPARE_VIEW (view);

  return self->has_pin && hr_chart_widget_get_plan (self->current_chart) != NULL;
}

/* Pinned above, now below, on one scale, named; then which fields differ
 * and how each category moves (hr-compare-chart.c). */
static void
hr_compare_view_paint (HrView             *view,
                       cairo_t            *cr,
                       double              width,
                       double              height,
                       const HrChartStyle *style)
{
  HrCompareView *self = HR_COMPARE_VIEW (view);
  const HrPlan *plan = hr_chart_widget_get_plan (self->current_chart);

  if (!self->has_pin || plan == NULL)
    return;
  hr_compare_draw (cr, width, height, &self->pinned, self->pinned_plan,
                   hr_chart_widget_get_scenario (self->current_chart), plan, style, NULL);
}

/* The fullest GPU of each, per category. */
static char *
hr_compare_view_to_csv (HrView *view)
{
  HrCompareView *self = HR_COMPARE_VIEW (view);
  const HrPlan *plan = hr_chart_widget_get_plan (self->current_chart);
  const HrDevice *a, *b;
  GString *out;

  if (!self->has_pin || plan == NULL)
    return g_strdup ("");
  a = hr_plan_binding (self->pinned_plan);
  b = hr_plan_binding (plan);
  out = g_string_new ("category,pinned_bytes,now_bytes,difference_bytes\r\n");
  for (guint c = 0; c <= HR_N_CATEGORIES; c++)
    {
      gboolean total = c == HR_N_CATEGORIES;
      gint64 x = total ? (gint64) a->total_bytes : (gint64) a->category_bytes[c];
      gint64 y = total ? (gint64) b->total_bytes : (gint64) b->category_bytes[c];

      g_string_append_printf (out, "%s,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
                              G_GINT64_FORMAT "\r\n",
                              total ? "total" : hr_enum_name (&hr_category_names, c), x, y, y - x);
    }
  return g_string_free (out, FALSE);
}

static void
hr_compare_view_iface_init (HrViewInterface *iface)
{
  iface->show_plan = hr_compare_view_show_plan;
  iface->clear = hr_compare_view_clear;
  iface->can_export = hr_compare_view_can_export;
  iface->paint = hr_compare_view_paint;
  iface->to_csv = hr_compare_view_to_csv;
}

/* Keeps scenario (a valid one) to compare the next changes with. */
void
hr_compare_view_pin (HrCompareView    *self,
                     const HrScenario *scenario)
{
  g_return_if_fail (HR_IS_COMPARE_VIEW (self));
  self->pinned = *scenario;
  self->has_pin = hr_calc_plan (&self->pinned, self->pinned_plan, NULL);
}

const HrScenario *
hr_compare_view_get_pinned (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return self->has_pin ? &self->pinned : NULL;
}

static void
hr_compare_view_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_COMPARE_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (hr_compare_view_parent_class)->dispose (object);
}

static void
hr_compare_view_finalize (GObject *object)
{
  hr_plan_free (HR_COMPARE_VIEW (object)->pinned_plan);
  G_OBJECT_CLASS (hr_compare_view_parent_class)->finalize (object);
}

static void
hr_compare_view_class_init (HrCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_compare_view_dispose;
  object_class->finalize = hr_compare_view_finalize;
  g_type_ensure (HR_TYPE_CHART_WIDGET);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, label);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, changes_grid);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, pinned_heading);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, current_heading);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, pinned_chart);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, current_chart);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, diff_grid);
}

static void
hr_compare_view_init (HrCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The bars alone, each chart as tall as they need: the table below
   * says how the categories move. */
  hr_chart_widget_set_show_breakdown (self->pinned_chart, FALSE);
  hr_chart_widget_set_show_breakdown (self->current_chart, FALSE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->pinned_chart), FALSE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->current_chart), FALSE);
  self->pinned_plan = hr_plan_new ();
  show_nothing_pinned (self);
}

GtkWidget *
hr_compare_view_new (void)
{
  return g_object_new (HR_TYPE_COMPARE_VIEW, NULL);
}
