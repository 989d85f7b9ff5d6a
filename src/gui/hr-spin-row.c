/* hr-spin-row.c: a form row with a number in a spin button
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An AdwActionRow (libadwaita 1.2 has no spin row) with a GtkSpinButton
 * bound both ways to one property of the scenario model: as it is, a
 * fraction in per cent, or a count in billions; a row whose -1 means
 * "work it out" shows and takes "Automatic".  The form's wheel rule
 * (hr-form.c, on_scroll) finds its spin button by type.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-spin-row.h"

struct _HrSpinRow
{
  AdwActionRow  parent_instance;

  GtkWidget    *spin;
};

G_DEFINE_FINAL_TYPE (HrSpinRow, hr_spin_row, ADW_TYPE_ACTION_ROW)

/* --- the value in the unit the row shows ----------------------------------- */

static gboolean
fraction_to_percent (GBinding     *binding,
                     const GValue *from,
                     GValue       *to,
                     gpointer      user_data)
{
  g_value_set_double (to, g_value_get_double (from) * 100.0);
  return TRUE;
}

static gboolean
percent_to_fraction (GBinding     *binding,
                     const GValue *from,
                     GValue       *to,
                     gpointer      user_data)
{
  g_value_set_double (to, g_value_get_double (from) / 100.0);
  return TRUE;
}

static gboolean
to_billions (GBinding     *binding,
             const GValue *from,
             GValue       *to,
             gpointer      user_data)
{
  g_value_set_double (to, g_value_get_double (from) / 1e9);
  return TRUE;
}

static gboolean
from_billions (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  g_value_set_double (to, g_value_get_double (from) * 1e9);
  return TRUE;
}

/* --- "Automatic" for -1 (sized from the plan or the GPU) ------------------- */

static gboolean
on_automatic_output (GtkSpinButton *spin,
                     gpointer       user_data)
{
  if (gtk_spin_button_get_value (spin) < 0)
    {
      /* TRANSLATORS: a size worked out from the plan or the GPU */
      gtk_editable_set_text (GTK_EDITABLE (spin), _("Automatic"));
      return TRUE;
    }
  return FALSE;
}

/* "Automatic" (as shown, in any case) or "auto" is -1; anything below 0
 * is too. */
static int
on_automatic_input (GtkSpinButton *spin,
                    double        *value,
                    gpointer       user_data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  g_autofree char *folded = g_utf8_casefold (text, -1);
  g_autofree char *automatic = g_utf8_casefold (_("Automatic"), -1);

  if (g_str_equal (folded, automatic) || g_str_has_prefix (folded, "auto"))
    {
      *value = -1;
      return TRUE;
    }
  return FALSE;
}

/* The row's -1 means "work it out" (the communication buffers, the BLAS
 * workspace): its spin shows and takes "Automatic". */
void
hr_spin_row_set_automatic (HrSpinRow *self)
{
  GtkSpinButton *spin;

  g_return_if_fail (HR_IS_SPIN_ROW (self));

  spin = GTK_SPIN_BUTTON (self->spin);
  /* A numeric spin button would refuse the letters of "Automatic". */
  gtk_spin_button_set_numeric (spin, FALSE);
  g_signal_connect (spin, "output", G_CALLBACK (on_automatic_output), NULL);
  g_signal_connect (spin, "input", G_CALLBACK (on_automatic_input), NULL);
  gtk_spin_button_update (spin);
  on_automatic_output (spin, NULL);
}

/* --- the row --------------------------------------------------------------- */

/* A fraction shown in per cent, 0 to max × 100 in steps of one, to one
 * decimal, with "%" after it. */
static void
show_percent (HrSpinRow *self,
              double     max)
{
  GtkSpinButton *spin = GTK_SPIN_BUTTON (self->spin);

  gtk_spin_button_set_adjustment (spin, gtk_adjustment_new (0, 0, max * 100, 1, 10, 0));
  gtk_spin_button_set_digits (spin, 1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self), gtk_label_new ("%"));
}

/* A whole number (or a decimal with digits > 0), in the unit it is shown
 * in. */
static void
show_number (HrSpinRow *self,
             double     min,
             double     max,
             double     step,
             guint      digits)
{
  GtkSpinButton *spin = GTK_SPIN_BUTTON (self->spin);
  /* Room for the value's digits: 9, or up to 11 where the range reaches
   * past them (DeepSpeed's sizes, 1e9 elements by default, were cut to
   * "100000000(" in 9); a phone's narrow row keeps its title readable. */
  int width = CLAMP ((int) ceil (log10 (MAX (max, 1.0) + 1.0)) + (int) digits + (digits > 0), 9, 11);

  gtk_spin_button_configure (spin, gtk_adjustment_new (min, min, max, step, step * 10, 0), step,
                             digits);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->spin), width);
  gtk_spin_button_set_numeric (spin, TRUE);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self), self->spin);
}

/* A row bound to the property of model for path; min, max and step are
 * in the model's unit, as the field table gives them (a fraction, a
 * count), and shown in unit. */
GtkWidget *
hr_spin_row_new (HrScenarioModel *model,
                 const char      *path,
                 const char      *title,
                 const char      *subtitle,
                 double           min,
                 double           max,
                 double           step,
                 guint            digits,
                 HrFieldUnit      unit)
{
  HrSpinRow *self;
  GBindingTransformFunc to_widget = NULL, to_model = NULL;

  g_return_val_if_fail (HR_IS_SCENARIO_MODEL (model), NULL);

  self = g_object_new (HR_TYPE_SPIN_ROW, "title", title, NULL);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title, -1);
  switch (unit)
    {
    case HR_FIELD_PERCENT:
      show_percent (self, max);
      to_widget = fraction_to_percent;
      to_model = percent_to_fraction;
      break;
    case HR_FIELD_BILLIONS:
      show_number (self, min / 1e9, max / 1e9, step / 1e9, digits);
      to_widget = to_billions;
      to_model = from_billions;
      break;
    case HR_FIELD_PLAIN:
    default:
      show_number (self, min, max, step, digits);
      break;
    }
  g_object_bind_property_full (model, hr_scenario_model_property_for_path (path), self->spin,
                               "value", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               to_widget, to_model, NULL, NULL);
  return GTK_WIDGET (self);
}

GtkSpinButton *
hr_spin_row_get_spin_button (HrSpinRow *self)
{
  g_return_val_if_fail (HR_IS_SPIN_ROW (self), NULL);
  return GTK_SPIN_BUTTON (self->spin);
}

static void
hr_spin_row_class_init (HrSpinRowClass *klass)
{
}

/* The spin button is the row's from the start (hr_spin_row_new sets its
 * range and binds it), so a row made by g_object_new is whole too. */
static void
hr_spin_row_init (HrSpinRow *self)
{
  self->spin = gtk_spin_button_new (NULL, 1, 0);
  gtk_widget_set_valign (self->spin, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self), self->spin);
}
