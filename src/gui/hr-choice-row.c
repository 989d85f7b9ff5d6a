/* hr-choice-row.c: a form row with a choice among labels
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An AdwComboRow over a list of labels, in the order of the enum the
 * scenario model's property holds, its "selected" bound both ways to
 * it; its labels wrap rather than end in "…".
 */

#include "config.h"

#include "hr-choice-row.h"

struct _HrChoiceRow
{
  AdwComboRow  parent_instance;
};

G_DEFINE_FINAL_TYPE (HrChoiceRow, hr_choice_row, ADW_TYPE_COMBO_ROW)

/* --- drop-down labels that wrap, never cut short ------------------------- */

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  float xalign = GPOINTER_TO_INT (user_data) / 100.0f;
  GtkWidget *label = gtk_label_new (NULL);

  /* The choice on a row's button is laid out by bind_label, whole; the
   * lists below wrap at words. */
  if (xalign <= 0.5f)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
    }
  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_justify (GTK_LABEL (label), xalign > 0.5f ? GTK_JUSTIFY_RIGHT : GTK_JUSTIFY_LEFT);
  gtk_list_item_set_child (item, label);
}

/* TEXT on two lines, broken at the space nearest its middle, when it is
 * longer than BUTTON_LINE_CHARS characters; else a copy. */
#define BUTTON_LINE_CHARS 22

static char *
in_two_lines (const char *text)
{
  glong length = g_utf8_strlen (text, -1), at = 0, best_distance = G_MAXLONG;
  const char *best = NULL;
  char *copy;

  if (length <= BUTTON_LINE_CHARS)
    return g_strdup (text);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p), at++)
    if (*p == ' ' && ABS (2 * at - length) < best_distance)
      {
        best_distance = ABS (2 * at - length);
        best = p;
      }
  copy = g_strdup (text);
  if (best != NULL)
    copy[best - text] = '\n';
  return copy;
}

/* The choice on a row's button, whole and on lines of its own making: a
 * label that wrapped to the width it was given was cut there.  AdwComboRow
 * shows the choice in a list view as high as the label at its natural
 * width, so a second line fell outside it ("3 — and parameters (FSDP" at
 * 1280 points), and GtkDropDown's stack kept the label's natural width past
 * a narrower button ("DeepSpeed" ran off its row at 360).  Unwrapped, the
 * label's width is the least its row gives it, and a long choice has two
 * lines at every width. */
static void
bind_label (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  const char *text = string != NULL ? gtk_string_object_get_string (string) : "";

  if (gtk_label_get_wrap (label))
    gtk_label_set_text (label, text);
  else
    {
      g_autofree char *lines = in_two_lines (text);

      gtk_label_set_text (label, lines);
    }
}

/* Labels for the strings of a drop-down that never end in "…" ("Llama 2
 * 13…"): the one on the button aligned to its end, on two lines when it is
 * long, those in the list to their start, wrapping at words. */
GtkListItemFactory *
hr_choice_row_label_factory (gboolean on_button)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_label),
                    GINT_TO_POINTER (on_button ? 100 : 0));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
  return factory;
}

/* --- the row --------------------------------------------------------------- */

/* A choice among labels[] (NULL-terminated), bound to the property of
 * model for path. */
GtkWidget *
hr_choice_row_new (HrScenarioModel    *model,
                   const char         *path,
                   const char         *title,
                   const char         *subtitle,
                   const char * const *labels)
{
  HrChoiceRow *self;
  GtkStringList *list;

  g_return_val_if_fail (HR_IS_SCENARIO_MODEL (model), NULL);

  self = g_object_new (HR_TYPE_CHOICE_ROW, "title", title, NULL);
  list = gtk_string_list_new (NULL);
  for (guint i = 0; labels[i] != NULL; i++)
    gtk_string_list_append (list, labels[i]);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle);
  adw_combo_row_set_model (ADW_COMBO_ROW (self), G_LIST_MODEL (list));
  g_object_unref (list);
  g_object_bind_property (model, hr_scenario_model_property_for_path (path), self,
                          "selected", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  return GTK_WIDGET (self);
}

static void
hr_choice_row_class_init (HrChoiceRowClass *klass)
{
}

/* Its labels wrap on the button and in the list from the start. */
static void
hr_choice_row_init (HrChoiceRow *self)
{
  g_autoptr(GtkListItemFactory) button = hr_choice_row_label_factory (TRUE);
  g_autoptr(GtkListItemFactory) popup = hr_choice_row_label_factory (FALSE);

  adw_combo_row_set_factory (ADW_COMBO_ROW (self), button);
  adw_combo_row_set_list_factory (ADW_COMBO_ROW (self), popup);
}
