/* hr-switch-field-row.c: a form row with a yes or no in a switch
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An AdwActionRow with a GtkSwitch bound both ways to one boolean
 * property of the scenario model; a click anywhere on the row flips it.
 * Not "AdwSwitchRow": libadwaita 1.2 has none, and a later libadwaita's
 * would clash with the name.
 */

#include "config.h"

#include "hr-switch-field-row.h"

struct _HrSwitchFieldRow
{
  AdwActionRow  parent_instance;

  GtkWidget    *sw;
};

G_DEFINE_FINAL_TYPE (HrSwitchFieldRow, hr_switch_field_row, ADW_TYPE_ACTION_ROW)

GtkWidget *
hr_switch_field_row_new (HrScenarioModel *model,
                         const char      *path,
                         const char      *title,
                         const char      *subtitle)
{
  HrSwitchFieldRow *self;

  g_return_val_if_fail (HR_IS_SCENARIO_MODEL (model), NULL);

  self = g_object_new (HR_TYPE_SWITCH_FIELD_ROW, "title", title, NULL);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->sw), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  g_object_bind_property (model, hr_scenario_model_property_for_path (path), self->sw, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  return GTK_WIDGET (self);
}

GtkSwitch *
hr_switch_field_row_get_switch (HrSwitchFieldRow *self)
{
  g_return_val_if_fail (HR_IS_SWITCH_FIELD_ROW (self), NULL);
  return GTK_SWITCH (self->sw);
}

static void
hr_switch_field_row_class_init (HrSwitchFieldRowClass *klass)
{
}

static void
hr_switch_field_row_init (HrSwitchFieldRow *self)
{
  self->sw = gtk_switch_new ();
  gtk_widget_set_valign (self->sw, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self), self->sw);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self), self->sw);
}
