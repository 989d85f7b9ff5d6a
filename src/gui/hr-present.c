/* hr-present.c: the full-screen presentation of plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For a meeting of people who do not train models: the verdict in large
 * type ("Fits, 14 GiB to spare on every GPU", "Does not fit: 9 GiB over on
 * GPU 0"), the scenario in one sentence, and one bar per distinct GPU in
 * five plain parts with the margin line (hr-present-chart.c); no formula,
 * no item.  The keyboard steps through the pinned, the current and the
 * example scenarios (UX-LESSONS.md point 10).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-calc.h"
#include "hr-locale.h"
#include "hr-present-chart.h"
#include "hr-present.h"

struct _HrPresent
{
  AdwWindow      parent_instance;

  GArray        *scenarios;
  guint          index;
  HrUnits        units;
  HrPlan        *plan;

  GtkLabel       *title;
  GtkLabel       *verdict;
  GtkLabel       *sentence;
  GtkLabel       *position;
  HrPresentChart *chart;
};

G_DEFINE_FINAL_TYPE (HrPresent, hr_present, ADW_TYPE_WINDOW)

/* The verdict for the GPU with the least memory left. */
static char *
plain_verdict (const HrScenario *sc,
               const HrPlan     *plan,
               HrUnits           units)
{
  const HrDevice *d = hr_plan_binding (plan);
  g_autofree char *size = hr_locale_bytes ((double) ABS (d->free_bytes), units);

  if (!plan->fits)
    /* TRANSLATORS: %s is an amount of memory, then a GPU ("GPU 0") */
    return g_strdup_printf (_("Does not fit: %s over on %s"), size, d->label);
  if (plan->status == HR_STATUS_TIGHT)
    return g_strdup_printf (_("Fits, but only %s to spare on %s"), size, d->label);
  if (sc->parallel.gpus <= 1)
    return g_strdup_printf (_("Fits, %s to spare"), size);
  return g_strdup_printf (_("Fits, %s to spare on every GPU"), size);
}

/* "Full fine-tuning of Llama 2 13B on 8 H100 SXM 80GB GPUs, 4 sequences
 * of 4,096 tokens at a time on each GPU." */
static char *
plain_sentence (const HrScenario *sc)
{
  const HrTraining *t = &sc->training;
  const char *how = t->method == HR_METHOD_LORA ? _("LoRA fine-tuning")
                    : t->method == HR_METHOD_QLORA ? _("QLoRA fine-tuning")
                                                   : _("Full fine-tuning");
  const char *model = sc->model.name[0] != '\0' ? sc->model.name : _("a custom model");
  guint64 gpus = MAX (sc->parallel.gpus, 1);
  g_autofree char *gpu = sc->gpu.name[0] != '\0'
                         ? g_strdup (sc->gpu.name)
                         : g_strdup_printf (_("%.0f GiB"), (double) sc->gpu.memory_mib / 1024.0);
  g_autofree char *n_gpus = hr_locale_whole (gpus);
  g_autofree char *mb = hr_locale_whole (t->micro_batch);
  g_autofree char *seq = hr_locale_whole (t->seq_len);
  g_autofree char *on = NULL;
  g_autofree char *batch = NULL;

  /* TRANSLATORS: the GPUs a run uses: their count and their name */
  on = gpus == 1 ? g_strdup_printf (_("one %s GPU"), gpu)
                 : g_strdup_printf (ngettext ("%s %s GPU", "%s %s GPUs", gpus), n_gpus, gpu);
  batch = g_strdup_printf (ngettext ("%s sequence of %s tokens at a time on each GPU",
                                     "%s sequences of %s tokens at a time on each GPU",
                                     t->micro_batch),
                           mb, seq);
  /* TRANSLATORS: how a model is trained, the model, on which GPUs, and
   * how much data each GPU holds at a time */
  return g_strdup_printf (_("%s of %s on %s, %s."), how, model, on, batch);
}

static void
show_current (HrPresent *self)
{
  const HrScenario *sc = &g_array_index (self->scenarios, HrScenario, self->index);
  g_autofree char *position = g_strdup_printf (_("%u of %u · ← → to step · Esc to leave"),
                                               self->index + 1, self->scenarios->len);
  GtkWidget *label = GTK_WIDGET (self->verdict);

  g_autofree char *sentence = plain_sentence (sc);

  gtk_label_set_text (self->title, sc->name);
  gtk_label_set_text (self->sentence, sentence);
  gtk_label_set_text (self->position, position);
  gtk_widget_remove_css_class (label, "success");
  gtk_widget_remove_css_class (label, "warning");
  gtk_widget_remove_css_class (label, "error");
  if (!hr_calc_plan (sc, self->plan, NULL))
    {
      gtk_label_set_text (self->verdict, _("Cannot plan this scenario"));
      hr_present_chart_set_plan (self->chart, NULL, self->units);
      return;
    }
  {
    g_autofree char *verdict = plain_verdict (sc, self->plan, self->units);
    g_autofree char *text = g_strdup_printf ("%s %s", self->plan->status == HR_STATUS_OK ? "✓"
                                             : self->plan->status == HR_STATUS_TIGHT ? "⚠" : "✗",
                                             verdict);

    gtk_label_set_text (self->verdict, text);
    gtk_widget_add_css_class (label, self->plan->status == HR_STATUS_OK ? "success"
                                     : self->plan->status == HR_STATUS_TIGHT ? "warning"
                                                                           : "error");
  }
  hr_present_chart_set_plan (self->chart, self->plan, self->units);
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

const char *
hr_present_get_sentence (HrPresent *self)
{
  g_return_val_if_fail (HR_IS_PRESENT (self), NULL);
  return gtk_label_get_text (self->sentence);
}

HrPresentChart *
hr_present_get_chart (HrPresent *self)
{
  g_return_val_if_fail (HR_IS_PRESENT (self), NULL);
  return self->chart;
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
  gtk_label_set_wrap (self->title, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "title-2");
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "dim-label");
  self->verdict = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->verdict, TRUE);
  gtk_label_set_justify (self->verdict, GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->verdict), "present-verdict");
  self->sentence = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->sentence, TRUE);
  gtk_label_set_justify (self->sentence, GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->sentence), "title-3");
  self->chart = HR_PRESENT_CHART (hr_present_chart_new ());
  gtk_widget_set_margin_top (GTK_WIDGET (self->chart), 24);
  self->position = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->position), "dim-label");

  gtk_widget_set_margin_top (box, 36);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 48);
  gtk_widget_set_margin_end (box, 48);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->verdict));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->sentence));
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
  show_current (self);
  gtk_window_fullscreen (GTK_WINDOW (self));
  return GTK_WIDGET (self);
}
