/* hr-text-row.c: a form row with a line of text
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An AdwEntryRow whose text is bound both ways to one string property
 * of the scenario model (the scenario's name, a model's layer pattern).
 */

#include "config.h"

#include "hr-text-row.h"

struct _HrTextRow
{
  AdwEntryRow  parent_instance;
};

G_DEFINE_FINAL_TYPE (HrTextRow, hr_text_row, ADW_TYPE_ENTRY_ROW)

GtkWidget *
hr_text_row_new (HrScenarioModel *model,
                 const char      *path,
                 const char      *title)
{
  HrTextRow *self;

  g_return_val_if_fail (HR_IS_SCENARIO_MODEL (model), NULL);

  self = g_object_new (HR_TYPE_TEXT_ROW, NULL);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), title);
  g_object_bind_property (model, hr_scenario_model_property_for_path (path), self, "text",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  return GTK_WIDGET (self);
}

static void
hr_text_row_class_init (HrTextRowClass *klass)
{
}

static void
hr_text_row_init (HrTextRow *self)
{
}
