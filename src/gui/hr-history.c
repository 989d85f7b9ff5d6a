/* hr-history.c: the scenario's undo history
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Snapshots of the whole scenario, one per step, with whether its name
 * follows the plan.  The window notes each property that changes and
 * commits the edits as a step after each main-loop turn in which fields
 * changed; a turn that
 * changes only fields the last step changed, within a second of it, is
 * merged into that step, so dragging a spin button from 4 to 32 undoes in
 * one go.  Undo moves back a step, an edit after it forgets the steps
 * ahead.  The step that was saved is remembered, so undoing back to it
 * makes the scenario clean again.
 */

#include "config.h"

#include <string.h>

#include "hr-history.h"

typedef struct
{
  HrScenario scenario;
  gboolean   name_follows;
} Step;

struct _HrHistory
{
  GObject    parent_instance;

  GArray    *steps;         /* of Step; [0] the scenario as it was loaded */
  guint      index;         /* the step the scenario is at */
  int        saved;         /* the step that was saved or loaded, -1 when gone */
  GPtrArray *last_fields;   /* interned property names the last step changed */
  gint64     last_usec;
  gboolean   mergeable;     /* the next edit may merge into the current step */
  GPtrArray *edits;         /* interned property names changed since the last commit */
  gboolean   alone;         /* the next commit merges with no step (Apply, Import) */
};

G_DEFINE_FINAL_TYPE (HrHistory, hr_history, G_TYPE_OBJECT)

/* Bytes after a string's end are whatever a longer value left there:
 * cleared, so that equal scenarios compare equal. */
static void
clear_tail (char  *s,
            gsize  size)
{
  gsize n = strnlen (s, size);

  if (n < size)
    memset (s + n, 0, size - n);
}

static void
normalise (HrScenario *sc)
{
  clear_tail (sc->name, sizeof sc->name);
  clear_tail (sc->description, sizeof sc->description);
  clear_tail (sc->model.preset, sizeof sc->model.preset);
  clear_tail (sc->model.name, sizeof sc->model.name);
  clear_tail (sc->gpu.preset, sizeof sc->gpu.preset);
  clear_tail (sc->gpu.name, sizeof sc->gpu.name);
}

static Step *
step_at (HrHistory *self,
         guint      index)
{
  return &g_array_index (self->steps, Step, index);
}

static gboolean
is_subset (GPtrArray *fields,
           GPtrArray *of)
{
  for (guint i = 0; i < fields->len; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < of->len && !found; j++)
        found = g_ptr_array_index (fields, i) == g_ptr_array_index (of, j);
      if (!found)
        return FALSE;
    }
  return TRUE;
}

/* Forgets every step and starts from scenario (New, Open, an example). */
void
hr_history_reset (HrHistory        *self,
                  const HrScenario *scenario,
                  gboolean          name_follows)
{
  Step step = { .name_follows = name_follows };

  g_return_if_fail (HR_IS_HISTORY (self));
  step.scenario = *scenario;
  normalise (&step.scenario);
  g_array_set_size (self->steps, 0);
  g_array_append_val (self->steps, step);
  self->index = 0;
  self->saved = 0;
  self->mergeable = FALSE;
  g_ptr_array_set_size (self->last_fields, 0);
  g_ptr_array_set_size (self->edits, 0);
}

/* Records the scenario after an edit of fields (property names, NULL for
 * unknown).  Returns whether it made or changed a step: an edit that
 * leaves the scenario as it was makes none. */
static gboolean
record (HrHistory        *self,
        const HrScenario *scenario,
        gboolean          name_follows,
        GPtrArray        *fields,
        gboolean          mergeable,
        gint64            now_usec)
{
  Step step = { .name_follows = name_follows };
  gboolean merge;

  step.scenario = *scenario;
  normalise (&step.scenario);
  if (memcmp (&step.scenario, &step_at (self, self->index)->scenario, sizeof step.scenario) == 0)
    return FALSE;

  merge = mergeable && self->mergeable && self->index > 0 && (int) self->index != self->saved
          && fields != NULL && fields->len > 0 && is_subset (fields, self->last_fields)
          && now_usec - self->last_usec < HR_HISTORY_MERGE_USEC;

  /* The steps undone are forgotten. */
  g_array_set_size (self->steps, self->index + 1);
  if (self->saved > (int) self->index)
    self->saved = -1;

  if (merge)
    *step_at (self, self->index) = step;
  else
    {
      g_array_append_val (self->steps, step);
      self->index++;
      g_ptr_array_set_size (self->last_fields, 0);
      for (guint i = 0; fields != NULL && i < fields->len; i++)
        g_ptr_array_add (self->last_fields, g_ptr_array_index (fields, i));
      if (self->steps->len > HR_HISTORY_MAX_STEPS)
        {
          g_array_remove_index (self->steps, 0);
          self->index--;
          self->saved = self->saved > 0 ? self->saved - 1 : -1;
        }
    }
  self->last_usec = now_usec;
  self->mergeable = mergeable;
  return TRUE;
}

/* A property of the scenario changed (its name interned). */
void
hr_history_note_edit (HrHistory  *self,
                      const char *field)
{
  g_return_if_fail (HR_IS_HISTORY (self));
  if (!g_ptr_array_find (self->edits, field, NULL))
    g_ptr_array_add (self->edits, (gpointer) field);
}

/* The edits that come next are a step of their own, merged with none: a
 * change the user takes back as one (Apply a suggestion, Import). */
void
hr_history_next_alone (HrHistory *self)
{
  g_return_if_fail (HR_IS_HISTORY (self));
  self->alone = TRUE;
}

/* The edits noted since the last commit become a step of the scenario as
 * it is now (merged with the last step when they are more of the same).
 * Returns FALSE, and keeps everything as it was, when none were noted. */
gboolean
hr_history_commit (HrHistory        *self,
                   const HrScenario *scenario,
                   gboolean          name_follows,
                   gint64            now_usec)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), FALSE);
  if (self->edits->len == 0)
    return FALSE;
  record (self, scenario, name_follows, self->edits, !self->alone, now_usec);
  g_ptr_array_set_size (self->edits, 0);
  self->alone = FALSE;
  return TRUE;
}

/* Forgets the edits noted: the scenario was replaced or restored as a
 * whole, which is no edit. */
void
hr_history_drop_edits (HrHistory *self)
{
  g_return_if_fail (HR_IS_HISTORY (self));
  g_ptr_array_set_size (self->edits, 0);
}

/* The scenario one step back, or NULL at the start. */
const HrScenario *
hr_history_undo (HrHistory *self,
                 gboolean  *name_follows)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), NULL);
  if (self->index == 0)
    return NULL;
  self->index--;
  self->mergeable = FALSE;
  if (name_follows != NULL)
    *name_follows = step_at (self, self->index)->name_follows;
  return &step_at (self, self->index)->scenario;
}

/* The scenario one step ahead, or NULL at the end. */
const HrScenario *
hr_history_redo (HrHistory *self,
                 gboolean  *name_follows)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), NULL);
  if (self->index + 1 >= self->steps->len)
    return NULL;
  self->index++;
  self->mergeable = FALSE;
  if (name_follows != NULL)
    *name_follows = step_at (self, self->index)->name_follows;
  return &step_at (self, self->index)->scenario;
}

gboolean
hr_history_can_undo (HrHistory *self)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), FALSE);
  return self->index > 0;
}

gboolean
hr_history_can_redo (HrHistory *self)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), FALSE);
  return self->index + 1 < self->steps->len;
}

/* The current step is what the file holds now; edits after it start a
 * step of their own. */
void
hr_history_mark_saved (HrHistory *self)
{
  g_return_if_fail (HR_IS_HISTORY (self));
  self->saved = (int) self->index;
  self->mergeable = FALSE;
}

gboolean
hr_history_is_saved (HrHistory *self)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), FALSE);
  return self->saved == (int) self->index;
}

guint
hr_history_get_length (HrHistory *self)
{
  g_return_val_if_fail (HR_IS_HISTORY (self), 0);
  return self->steps->len;
}

static void
hr_history_finalize (GObject *object)
{
  HrHistory *self = HR_HISTORY (object);

  g_array_unref (self->steps);
  g_ptr_array_unref (self->last_fields);
  g_ptr_array_unref (self->edits);
  G_OBJECT_CLASS (hr_history_parent_class)->finalize (object);
}

static void
hr_history_class_init (HrHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_history_finalize;
}

static void
hr_history_init (HrHistory *self)
{
  HrScenario sc;

  self->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  self->last_fields = g_ptr_array_new ();
  self->edits = g_ptr_array_new ();
  hr_scenario_init_default (&sc);
  hr_history_reset (self, &sc, TRUE);
}

HrHistory *
hr_history_new (void)
{
  return g_object_new (HR_TYPE_HISTORY, NULL);
}
