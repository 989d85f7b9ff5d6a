/* hr-form-rows.c: the form's rows by path, and a field's row
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each kind of row is its own type that binds itself to the scenario
 * model (HrSpinRow, HrSwitchFieldRow, HrChoiceRow, HrTextRow); here the
 * form picks a field's from the field table, puts it in its group and
 * registers it and its bound widget under its scenario path, for the
 * errors, the sensitivity and the lookups by path.  The groups and the
 * lists of the form's drop-downs are made here too.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-choice-row.h"
#include "hr-form-private.h"
#include "hr-scenario-fields.h"
#include "hr-spin-row.h"
#include "hr-switch-field-row.h"
#include "hr-text-row.h"

void
hr_form_register_row (HrForm     *self,
                      const char *path,
                      GtkWidget  *row,
                      GtkWidget  *control)
{
  g_hash_table_insert (self->rows, g_strdup (path), row);
  if (control != NULL)
    g_hash_table_insert (self->controls, g_strdup (path), control);
  if (ADW_IS_ACTION_ROW (row))
    g_hash_table_insert (self->subtitles, g_strdup (path),
                         g_strdup (adw_action_row_get_subtitle (ADW_ACTION_ROW (row))));
}

void
hr_form_add_row (GtkWidget *parent,
                 GtkWidget *row)
{
  if (ADW_IS_EXPANDER_ROW (parent))
    {
      adw_expander_row_add_row (ADW_EXPANDER_ROW (parent), row);
      /* A collapsed expander's rows are hidden, not only folded away: its
       * GtkRevealer measures a concealed child all the same, and the
       * architecture's and data types' rows were 40 % of measuring the
       * form when the window first maps (tests/bench-map.c). */
      g_object_bind_property (parent, "expanded", row, "visible", G_BINDING_SYNC_CREATE);
    }
  else
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (parent), row);
}

/* Puts row (an HrSpinRow, HrChoiceRow, ...) in parent and registers it
 * and the widget bound to the model under path. */
void
hr_form_place_row (HrForm     *self,
                   GtkWidget  *parent,
                   const char *path,
                   GtkWidget  *row,
                   GtkWidget  *control)
{
  hr_form_add_row (parent, row);
  hr_form_register_row (self, path, row, control);
}

GtkWidget *
hr_form_action_row (const char *title,
                    const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

/* --- drop-down lists with section headings ------------------------------- */

/* GTK 4.8 has no sections in a list (GtkListHeaderFactory is 4.12): the
 * first item of each section carries its heading above its label, in a
 * box the heading and the label share. */
static void
setup_section_item (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *heading = gtk_label_new (NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (heading), 0.0f);
  gtk_widget_add_css_class (heading, "heading");
  gtk_widget_add_css_class (heading, "dim-label");
  gtk_widget_set_margin_top (heading, 6);
  gtk_widget_set_margin_bottom (heading, 4);
  gtk_widget_set_visible (heading, FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (item, box);
}

static void
bind_section_item (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GObject *object = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *heading = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (heading);
  const char *section = object != NULL ? g_object_get_data (object, HR_FORM_SECTION) : NULL;

  gtk_label_set_text (GTK_LABEL (label), GTK_IS_STRING_OBJECT (object)
                      ? gtk_string_object_get_string (GTK_STRING_OBJECT (object)) : "");
  gtk_label_set_text (GTK_LABEL (heading), section != NULL ? section : "");
  gtk_widget_set_visible (heading, section != NULL);
}

GtkListItemFactory *
hr_form_section_factory (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_section_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_section_item), NULL);
  return factory;
}

void
hr_form_wrap_drop_down (GtkDropDown *dropdown)
{
  g_autoptr(GtkListItemFactory) button = hr_choice_row_label_factory (TRUE);
  g_autoptr(GtkListItemFactory) list = hr_choice_row_label_factory (FALSE);

  gtk_drop_down_set_factory (dropdown, button);
  gtk_drop_down_set_list_factory (dropdown, list);
}

GtkWidget *
hr_form_new_group (GtkWidget  *page,
                   const char *title,
                   const char *description)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
  return group;
}

/* The row of a field of the scenario's field table, as the table
 * describes it: its kind picks the widget, its label, help, range and
 * choices come from the table (src/core/hr-scenario-fields.c). */
GtkWidget *
hr_form_field_row (HrForm     *self,
                   GtkWidget  *parent,
                   const char *path)
{
  const Field *field = hr_field_find (path, NULL);
  const char *help;
  GtkWidget *row, *control;

  g_return_val_if_fail (field != NULL, NULL);
  help = field->help != NULL ? _(field->help) : NULL;
  switch (field->kind)
    {
    case F_UINT:
    case F_DOUBLE:
      row = hr_spin_row_new (self->model, path, _(field->label), help, field->min, field->max,
                             field->step, field->digits, field->unit);
      control = GTK_WIDGET (hr_spin_row_get_spin_button (HR_SPIN_ROW (row)));
      break;
    case F_BOOL:
      row = hr_switch_field_row_new (self->model, path, _(field->label), help);
      control = GTK_WIDGET (hr_switch_field_row_get_switch (HR_SWITCH_FIELD_ROW (row)));
      break;
    case F_ENUM:
      {
        g_autofree const char **labels = g_new0 (const char *, field->names->n_names + 1);

        for (guint i = 0; i < field->names->n_names; i++)
          labels[i] = field->choices != NULL ? _(field->choices[i])
                      : _(hr_enum_label (field->names, i));
        row = control = hr_choice_row_new (self->model, path, _(field->label), help, labels);
      }
      break;
    case F_NAME:
      row = control = hr_text_row_new (self->model, path, _(field->label));
      break;
    case F_SKIP:
    default:
      g_return_val_if_reached (NULL);
    }
  hr_form_place_row (self, parent, path, row, control);
  return control;
}

/* The rows of the fields of SECTION ("parallel") that its group does not
 * place itself, in the table's order after the placed ones: a field added
 * to the table has its row without a line here. */
void
hr_form_rest_rows (HrForm     *self,
                   GtkWidget  *group,
                   const char *section)
{
  for (guint t = 0; t < hr_field_sections_count; t++)
    {
      const HrFieldSection *sec = &hr_field_sections[t];

      if (!g_str_equal (sec->path, section))
        continue;
      for (guint f = 0; f < *sec->n_fields; f++)
        {
          const Field *field = &sec->fields[f];
          g_autofree char *path = NULL;

          if (field->kind == F_SKIP || field->label == NULL)
            continue;
          path = g_strconcat (section, ".", field->key, NULL);
          if (!g_hash_table_contains (self->rows, path) && !g_hash_table_contains (self->controls, path)
              && !hr_form_expander_will_hold (self, path))
            hr_form_field_row (self, group, path);
        }
    }
}

/* A field's row whose -1 means "work it out": its spin shows and takes
 * "Automatic". */
void
hr_form_automatic_row (HrForm     *self,
                       GtkWidget  *group,
                       const char *path)
{
  hr_form_field_row (self, group, path);
  hr_spin_row_set_automatic (HR_SPIN_ROW (g_hash_table_lookup (self->rows, path)));
}
