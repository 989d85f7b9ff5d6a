/* hr-document.c: the scenario as a document: its file, its undo history,
 * whether it has unsaved changes and whether its name follows the plan
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window holds the scenario model and tells the document what
 * happens to it: an edit of a field, the edits of a main-loop turn
 * committed as a step, the scenario replaced (New, Open, an example) or
 * restored to a step (Undo, Redo), a save.  The document keeps what
 * follows from that and no widget: the file, the undo history
 * (hr-history.c), whether there are unsaved changes (an edit makes the
 * scenario dirty at once; a committed step makes it dirty unless it is
 * the step that was saved) and the name's state.  Until the user names
 * the scenario its name follows the plan: "Llama 2 13B, ZeRO-3, 8x H100"
 * becomes "..., 16x H100" with the GPUs.  A name that came with an
 * example stays until a change would rename it, and so does a name the
 * user has just cleared (to type another).
 */

#include "config.h"

#include "hr-document.h"
#include "hr-history.h"
#include "hr-scenario-name.h"

struct _HrDocument
{
  GObject    parent_instance;

  GFile     *file;          /* where the scenario was opened or saved */
  gboolean   dirty;
  HrHistory *history;       /* undo: the steps, and the edits since the last */
  gboolean   name_follows;  /* the user has not named the scenario */
  char      *name_base;     /* the name generated when it was last set */
};

G_DEFINE_FINAL_TYPE (HrDocument, hr_document, G_TYPE_OBJECT)

/* The name the plan of scenario would give it is the one to follow
 * from. */
static void
set_name_state (HrDocument       *self,
                const HrScenario *scenario,
                gboolean          name_follows)
{
  self->name_follows = name_follows;
  g_free (self->name_base);
  self->name_base = hr_scenario_generate_name (scenario);
}

/* The scenario is replaced as a whole (New, Open, an example): not an
 * edit.  The history starts again from it, clean; its name follows the
 * plan from now on when name_follows. */
void
hr_document_replace (HrDocument       *self,
                     const HrScenario *scenario,
                     gboolean          name_follows)
{
  g_return_if_fail (HR_IS_DOCUMENT (self));
  set_name_state (self, scenario, name_follows);
  hr_history_reset (self->history, scenario, name_follows);
  self->dirty = FALSE;
}

/* The scenario went back or ahead to a step of the history (Undo, Redo):
 * not an edit either.  It is dirty unless that is the step saved. */
void
hr_document_restore_step (HrDocument       *self,
                          const HrScenario *scenario,
                          gboolean          name_follows)
{
  g_return_if_fail (HR_IS_DOCUMENT (self));
  set_name_state (self, scenario, name_follows);
  hr_history_drop_edits (self->history);
  self->dirty = !hr_history_is_saved (self->history);
}

/* A field of the scenario changed (its property name, interned).
 * Returns whether that made a clean document dirty. */
gboolean
hr_document_note_edit (HrDocument *self,
                       const char *field)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), FALSE);
  hr_history_note_edit (self->history, field);
  if (self->dirty)
    return FALSE;
  self->dirty = TRUE;
  return TRUE;
}

/* The edits that come next are a step of their own, merged with none: a
 * change the user takes back as one (Apply a suggestion, Import). */
void
hr_document_next_edit_alone (HrDocument *self)
{
  g_return_if_fail (HR_IS_DOCUMENT (self));
  hr_history_next_alone (self->history);
}

/* The edits noted since the last step become a step of scenario as it is
 * now (merged with the last one when they are more of the same), and the
 * document is dirty unless it is back at the step that was saved.
 * Returns whether a step was committed: FALSE when no edit was noted. */
gboolean
hr_document_record_edit (HrDocument       *self,
                         const HrScenario *scenario)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), FALSE);
  if (!hr_history_commit (self->history, scenario, self->name_follows, g_get_monotonic_time ()))
    return FALSE;
  self->dirty = !hr_history_is_saved (self->history);
  return TRUE;
}

/* The current step is what the file holds now. */
void
hr_document_mark_saved (HrDocument *self)
{
  g_return_if_fail (HR_IS_DOCUMENT (self));
  hr_history_mark_saved (self->history);
  self->dirty = FALSE;
}

/* The user edited the name: a name of their own stays; clearing it lets
 * it follow again, from the next change that renames the plan. */
void
hr_document_user_named (HrDocument       *self,
                        const HrScenario *scenario)
{
  g_return_if_fail (HR_IS_DOCUMENT (self));
  set_name_state (self, scenario, scenario->name[0] == '\0');
}

/* The name scenario takes now that it changed: the one its plan
 * generates, when the name follows the plan and that name differs from
 * the one generated last.  NULL when the name stays as it is. */
const char *
hr_document_next_name (HrDocument       *self,
                       const HrScenario *scenario)
{
  g_autofree char *generated = NULL;

  g_return_val_if_fail (HR_IS_DOCUMENT (self), NULL);
  if (!self->name_follows)
    return NULL;
  generated = hr_scenario_generate_name (scenario);
  if (g_strcmp0 (generated, self->name_base) == 0)
    return NULL;
  g_free (self->name_base);
  self->name_base = g_steal_pointer (&generated);
  return self->name_base;
}

/* Whether the name follows the plan (the user has not named it). */
gboolean
hr_document_name_follows (HrDocument *self)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), FALSE);
  return self->name_follows;
}

/* The file the scenario was opened from or saved to, or NULL. */
GFile *
hr_document_get_file (HrDocument *self)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), NULL);
  return self->file;
}

void
hr_document_set_file (HrDocument *self,
                      GFile      *file)
{
  g_return_if_fail (HR_IS_DOCUMENT (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_set_object (&self->file, file);
}

/* Whether the scenario has changes the file does not hold. */
gboolean
hr_document_is_dirty (HrDocument *self)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), FALSE);
  return self->dirty;
}

gboolean
hr_document_can_undo (HrDocument *self)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), FALSE);
  return hr_history_can_undo (self->history);
}

gboolean
hr_document_can_redo (HrDocument *self)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), FALSE);
  return hr_history_can_redo (self->history);
}

/* The step one back, or NULL at the start; the caller restores it
 * (hr_document_restore_step).  The step stays the history's. */
const HrScenario *
hr_document_undo (HrDocument *self,
                  gboolean   *name_follows)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), NULL);
  return hr_history_undo (self->history, name_follows);
}

/* The step one ahead, or NULL at the end; as hr_document_undo. */
const HrScenario *
hr_document_redo (HrDocument *self,
                  gboolean   *name_follows)
{
  g_return_val_if_fail (HR_IS_DOCUMENT (self), NULL);
  return hr_history_redo (self->history, name_follows);
}

static void
hr_document_finalize (GObject *object)
{
  HrDocument *self = HR_DOCUMENT (object);

  g_clear_object (&self->file);
  g_clear_object (&self->history);
  g_clear_pointer (&self->name_base, g_free);
  G_OBJECT_CLASS (hr_document_parent_class)->finalize (object);
}

static void
hr_document_class_init (HrDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_document_finalize;
}

static void
hr_document_init (HrDocument *self)
{
  self->history = hr_history_new ();
}

/* A clean document of scenario, with no file, whose name follows the
 * plan when name_follows. */
HrDocument *
hr_document_new (const HrScenario *scenario,
                 gboolean          name_follows)
{
  HrDocument *self;

  g_return_val_if_fail (scenario != NULL, NULL);
  self = g_object_new (HR_TYPE_DOCUMENT, NULL);
  hr_document_replace (self, scenario, name_follows);
  return self;
}
