/* hr-verdict.c: the verdict above the views, in words
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "✓ Fits on 8x H100 SXM 80GB with 39.2 GiB (49 %) to spare per GPU",
 * in the status colour, and below it the parameters, the peak's phase,
 * the allocated / reserved / total figures with their error bar from the
 * measured runs, the host memory and the time and cost of the run; or,
 * while the scenario cannot be planned, that it cannot.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-cost.h"
#include "hr-locale.h"
#include "hr-measured.h"
#include "hr-report.h"
#include "hr-verdict.h"

struct _HrVerdict
{
  GtkWidget  parent_instance;

  GtkLabel  *summary_label;
  GtkLabel  *details_label;
};

G_DEFINE_FINAL_TYPE (HrVerdict, hr_verdict, GTK_TYPE_WIDGET)

static void
set_status_class (GtkWidget *label,
                  HrStatus   status,
                  gboolean   valid)
{
  gtk_widget_remove_css_class (label, "success");
  gtk_widget_remove_css_class (label, "warning");
  gtk_widget_remove_css_class (label, "error");
  if (!valid)
    return;
  gtk_widget_add_css_class (label, status == HR_STATUS_OK ? "success"
                                   : status == HR_STATUS_TIGHT ? "warning" : "error");
}

/* The runs behind the error bar, in the details' tooltip, each with how
 * far the plan was from what it measured: those of the plan's kind, or
 * of the nearest kind measured. */
static void
show_measured_runs (HrVerdict        *self,
                    const HrErrorBar *bar,
                    GPtrArray        *runs)
{
  g_autofree char *kind = hr_run_kind_label (&bar->kind);
  g_autofree char *from = hr_run_kind_label (&bar->from);
  GString *text = g_string_new (NULL);

  if (bar->like_this)
    /* TRANSLATORS: the kind of run: framework, method, layout */
    g_string_printf (text, _("Headroom against the measured runs like this (%s)"), kind);
  else
    /* TRANSLATORS: the plan's kind of run, then the nearest kind measured */
    g_string_printf (text, _("No measured run like this (%s); Headroom against the nearest "
                             "kind measured (%s)"), kind, from);
  g_string_append_printf (text, " %s", _("(minus: planned less than measured):"));
  for (guint i = 0; i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);

      g_string_append_printf (text, "\n%s  %+.1f %%", run->id, 100 * run->error);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->details_label), text->str);
  g_string_free (text, TRUE);
}

void
hr_verdict_show_plan (HrVerdict        *self,
                      const HrScenario *sc,
                      const HrPlan     *plan,
                      HrUnits           units)
{
  const HrDevice *d = hr_plan_binding (plan);
  g_autofree char *summary = hr_plan_summary (sc, plan, units);
  g_autofree char *params = hr_locale_count ((double) plan->params);
  g_autofree char *trainable = hr_locale_count ((double) plan->trainable_params);
  g_autofree char *allocated = hr_locale_bytes ((double) d->allocated_bytes, units);
  g_autofree char *reserved = hr_locale_bytes ((double) d->reserved_bytes, units);
  g_autofree char *total = hr_locale_bytes ((double) d->total_bytes, units);
  g_autofree char *cap = hr_locale_bytes ((double) plan->capacity_bytes, units);
  g_autofree char *details = NULL;
  const char *icon = plan->status == HR_STATUS_OK ? "✓"
                     : plan->status == HR_STATUS_TIGHT ? "⚠" : "✗";
  g_autofree char *local = hr_locale_text (summary);
  g_autofree char *headline = g_strdup_printf ("%s %s", icon, local);
  HrCostEstimate est;

  g_return_if_fail (HR_IS_VERDICT (self));

  /* TRANSLATORS: parameters, trainable parameters, the peak's phase,
   * then PyTorch's allocated and reserved and the whole device's memory */
  details = g_strdup_printf (_("%s parameters, %s trainable · peak during the %s · "
                               "allocated %s, reserved %s, total %s of %s"),
                             params, trainable, hr_phase_label (d->peak_phase),
                             allocated, reserved, total, cap);
  /* The honest error bar, from the measured runs of the plan's kind (read
   * the first time a plan is shown, once in the process). */
  {
    g_autoptr(GPtrArray) runs = g_ptr_array_new ();
    HrErrorBar bar;

    if (hr_calibration_error_bar (hr_calibration_bundled (), sc, &bar, runs))
      {
        g_autofree char *sentence = hr_error_bar_sentence (&bar, hr_locale_number);
        /* TRANSLATORS: the totals, then their error bar in parentheses */
        g_autofree char *more = g_strdup_printf (_("%s (error bar: %s)"), details, sentence);

        g_free (details);
        details = g_steal_pointer (&more);
        show_measured_runs (self, &bar, runs);
      }
    else
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->details_label), NULL);
  }
  if (plan->host_bytes_per_node > 0)
    {
      g_autofree char *host = hr_locale_bytes ((double) plan->host_bytes_per_node, units);
      g_autofree char *more = g_strdup_printf (_("%s · host RAM per node %s"), details, host);

      g_free (details);
      details = g_steal_pointer (&more);
    }

  hr_cost_estimate (sc, plan, &est);
  if (est.known)
    {
      g_autofree char *cost = hr_cost_sentence (sc, &est);
      g_autofree char *more = g_strdup_printf ("%s\n%s", details, cost);

      g_free (details);
      details = g_steal_pointer (&more);
    }
  gtk_label_set_text (self->summary_label, headline);
  gtk_label_set_text (self->details_label, details);
  set_status_class (GTK_WIDGET (self->summary_label), plan->status, TRUE);
}

/* The scenario cannot be planned: says so, with no number of the last
 * plan that could (the reason is shown over the chart). */
void
hr_verdict_show_error (HrVerdict  *self,
                       const char *details)
{
  g_return_if_fail (HR_IS_VERDICT (self));
  gtk_label_set_text (self->summary_label, _("Cannot plan this scenario"));
  set_status_class (GTK_WIDGET (self->summary_label), HR_STATUS_OOM, FALSE);
  gtk_label_set_text (self->details_label, details != NULL ? details : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->details_label), NULL);
}

const char *
hr_verdict_get_summary (HrVerdict *self)
{
  g_return_val_if_fail (HR_IS_VERDICT (self), NULL);
  return gtk_label_get_text (self->summary_label);
}

const char *
hr_verdict_get_details (HrVerdict *self)
{
  g_return_val_if_fail (HR_IS_VERDICT (self), NULL);
  return gtk_label_get_text (self->details_label);
}

const char *
hr_verdict_get_details_tooltip (HrVerdict *self)
{
  g_return_val_if_fail (HR_IS_VERDICT (self), NULL);
  return gtk_widget_get_tooltip_text (GTK_WIDGET (self->details_label));
}

static void
hr_verdict_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_VERDICT);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (hr_verdict_parent_class)->dispose (object);
}

static void
hr_verdict_class_init (HrVerdictClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_verdict_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-verdict.ui");
  gtk_widget_class_bind_template_child (widget_class, HrVerdict, summary_label);
  gtk_widget_class_bind_template_child (widget_class, HrVerdict, details_label);
}

static void
hr_verdict_init (HrVerdict *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
}

GtkWidget *
hr_verdict_new (void)
{
  return g_object_new (HR_TYPE_VERDICT, NULL);
}
