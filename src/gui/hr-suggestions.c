/* hr-suggestions.c: what would make the plan fit, each with an Apply button
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When a plan is tight or over: the ranked changes that make it fit
 * (hr_suggest), each with what it saves on the fullest GPU, its verdict
 * and its cost.  The Apply buttons activate win.apply-suggestion with the
 * suggestion's index, so the window decides what applying means and can
 * disable them.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "hr-frameworks.h"
#include "hr-locale.h"
#include "hr-suggestions.h"

/* As many as the list shows. */
#define SHOWN 5

struct _HrSuggestions
{
  GtkWidget     parent_instance;

  GtkListBox   *list;
  HrSuggestion *suggestions;    /* [SHOWN], on the heap: each holds a scenario */
  guint         n_suggestions;
  GtkWidget    *first_apply;    /* the first one's Apply button, or NULL */
};

G_DEFINE_FINAL_TYPE (HrSuggestions, hr_suggestions, GTK_TYPE_WIDGET)

static char *
subtitle_for (const HrSuggestion *sg,
              const HrPlan       *plan,
              HrUnits             units)
{
  g_autofree char *saves = hr_locale_bytes ((double) sg->saves_bytes, units);
  int percent = (int) (100.0 * ((double) plan->capacity_bytes - (double) sg->total_bytes)
                       / (double) plan->capacity_bytes);

  if (sg->status == HR_STATUS_OOM)
    {
      g_autofree char *over = hr_locale_bytes ((double) sg->total_bytes
                                               - (double) plan->capacity_bytes, units);

      /* TRANSLATORS: what a suggestion saves per GPU, how far it stays
       * over the capacity, and its cost */
      return g_strdup_printf (_("−%s per GPU · still over by %s · %s"), saves, over, sg->cost);
    }
  /* TRANSLATORS: what a suggestion saves per GPU, the verdict after it
   * with the free share, and its cost */
  return g_strdup_printf (_("−%s per GPU · %s, %d %% free · %s"), saves,
                          sg->status == HR_STATUS_OK ? _("fits") : _("tight"), percent, sg->cost);
}

void
hr_suggestions_clear (HrSuggestions *self)
{
  GtkWidget *child;

  g_return_if_fail (HR_IS_SUGGESTIONS (self));
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  self->n_suggestions = 0;
  self->first_apply = NULL;
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* Shown only when the plan is tight or over. */
void
hr_suggestions_update (HrSuggestions    *self,
                       const HrScenario *scenario,
                       const HrPlan     *plan,
                       HrUnits           units)
{
  g_return_if_fail (HR_IS_SUGGESTIONS (self));

  hr_suggestions_clear (self);
  if (plan->status != HR_STATUS_OK)
    {
      g_autoptr(HrPlan) work = hr_plan_new ();

      self->n_suggestions = hr_suggest_where (scenario, work, self->suggestions, SHOWN,
                                             hr_framework_allows, NULL, NULL);
    }
  for (guint i = 0; i < self->n_suggestions; i++)
    {
      const HrSuggestion *sg = &self->suggestions[i];
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button = gtk_button_new_with_mnemonic (_("_Apply"));
      g_autofree char *subtitle = subtitle_for (sg, plan, units);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), sg->title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.apply-suggestion");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", i);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      gtk_list_box_append (self->list, row);
      if (i == 0)
        self->first_apply = button;
    }
  gtk_widget_set_visible (GTK_WIDGET (self), self->n_suggestions > 0);
}

/* Moves the keyboard focus to the first suggestion's Apply button
 * (the window's jump to the suggestions). */
void
hr_suggestions_focus_first (HrSuggestions *self)
{
  g_return_if_fail (HR_IS_SUGGESTIONS (self));
  if (self->first_apply != NULL)
    gtk_widget_grab_focus (self->first_apply);
}

guint
hr_suggestions_get_count (HrSuggestions *self)
{
  g_return_val_if_fail (HR_IS_SUGGESTIONS (self), 0);
  return self->n_suggestions;
}

/* The suggestion at index, or NULL. */
const HrSuggestion *
hr_suggestions_get (HrSuggestions *self,
                    guint          index)
{
  g_return_val_if_fail (HR_IS_SUGGESTIONS (self), NULL);
  return index < self->n_suggestions ? &self->suggestions[index] : NULL;
}

static void
hr_suggestions_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_SUGGESTIONS);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (hr_suggestions_parent_class)->dispose (object);
}

static void
hr_suggestions_finalize (GObject *object)
{
  g_free (HR_SUGGESTIONS (object)->suggestions);
  G_OBJECT_CLASS (hr_suggestions_parent_class)->finalize (object);
}

static void
hr_suggestions_class_init (HrSuggestionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_suggestions_dispose;
  object_class->finalize = hr_suggestions_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-suggestions.ui");
  gtk_widget_class_bind_template_child (widget_class, HrSuggestions, list);
}

static void
hr_suggestions_init (HrSuggestions *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
  self->suggestions = g_new0 (HrSuggestion, SHOWN);
}

GtkWidget *
hr_suggestions_new (void)
{
  return g_object_new (HR_TYPE_SUGGESTIONS, NULL);
}
