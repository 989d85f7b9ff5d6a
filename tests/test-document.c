/* test-document.c: the scenario as a document, without a window
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrDocument (src/gui/hr-document.c) needs no GTK: its file, its undo
 * history, whether it has unsaved changes and whether its name follows
 * the plan, driven as the window drives it (an edit noted, the edits of
 * a turn recorded as a step, undo, a save).  The window's own tests
 * (test-window.c: /window/undo, /window/name-follows, /window/files)
 * drive the same through the widgets.
 */

#include "hr-document.h"
#include "hr-scenario-name.h"

/* An edit as the window makes one: the model's field changes, the window
 * notes it, and after the main-loop turn records the scenario. */
static gboolean
edit_gpus (HrDocument *doc,
           HrScenario *sc,
           guint64     gpus)
{
  sc->parallel.gpus = gpus;
  hr_document_note_edit (doc, g_intern_static_string ("gpus"));
  return hr_document_record_edit (doc, sc);
}

static void
test_new (void)
{
  g_autoptr(HrDocument) doc = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  doc = hr_document_new (&sc, TRUE);
  g_assert_false (hr_document_is_dirty (doc));
  g_assert_null (hr_document_get_file (doc));
  g_assert_true (hr_document_name_follows (doc));
  g_assert_false (hr_document_can_undo (doc));
  g_assert_false (hr_document_can_redo (doc));
  /* no edit noted, no step */
  g_assert_false (hr_document_record_edit (doc, &sc));
  g_assert_false (hr_document_can_undo (doc));
}

/* An edit makes the document dirty at once, before its step is
 * recorded; undoing back to the step loaded makes it clean again. */
static void
test_dirty (void)
{
  g_autoptr(HrDocument) doc = NULL;
  HrScenario sc;
  const HrScenario *step;
  gboolean follows = FALSE;

  hr_scenario_init_default (&sc);
  sc.parallel.gpus = 8;
  doc = hr_document_new (&sc, TRUE);

  sc.parallel.gpus = 16;
  g_assert_true (hr_document_note_edit (doc, g_intern_static_string ("gpus")));
  g_assert_true (hr_document_is_dirty (doc));
  /* already dirty: the title need not change */
  g_assert_false (hr_document_note_edit (doc, g_intern_static_string ("gpus")));
  g_assert_true (hr_document_record_edit (doc, &sc));
  g_assert_true (hr_document_is_dirty (doc));
  g_assert_true (hr_document_can_undo (doc));

  step = hr_document_undo (doc, &follows);
  g_assert_nonnull (step);
  g_assert_cmpuint (step->parallel.gpus, ==, 8);
  g_assert_true (follows);
  hr_document_restore_step (doc, step, follows);
  g_assert_false (hr_document_is_dirty (doc));
  g_assert_false (hr_document_can_undo (doc));
  g_assert_true (hr_document_can_redo (doc));

  step = hr_document_redo (doc, &follows);
  g_assert_nonnull (step);
  g_assert_cmpuint (step->parallel.gpus, ==, 16);
  hr_document_restore_step (doc, step, follows);
  g_assert_true (hr_document_is_dirty (doc));
  g_assert_null (hr_document_redo (doc, NULL));
}

/* An edit that leaves the scenario as it was is recorded, and makes no
 * step: the document is clean again. */
static void
test_edit_back (void)
{
  g_autoptr(HrDocument) doc = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  doc = hr_document_new (&sc, TRUE);
  g_assert_true (hr_document_note_edit (doc, g_intern_static_string ("gpus")));
  g_assert_true (hr_document_is_dirty (doc));
  g_assert_true (hr_document_record_edit (doc, &sc));
  g_assert_false (hr_document_is_dirty (doc));
  g_assert_false (hr_document_can_undo (doc));
}

/* Saved, the current step is clean; undoing past it makes it dirty, and
 * a new file replaces the old. */
static void
test_save (void)
{
  g_autoptr(HrDocument) doc = NULL;
  g_autoptr(GFile) first = g_file_new_for_path ("/tmp/first.json");
  g_autoptr(GFile) second = g_file_new_for_path ("/tmp/second.json");
  HrScenario sc;
  gboolean follows;

  hr_scenario_init_default (&sc);
  doc = hr_document_new (&sc, TRUE);
  hr_document_set_file (doc, first);
  g_assert_true (hr_document_get_file (doc) == first);

  g_assert_true (edit_gpus (doc, &sc, 16));
  hr_document_set_file (doc, second);
  hr_document_mark_saved (doc);
  g_assert_false (hr_document_is_dirty (doc));
  g_assert_true (hr_document_get_file (doc) == second);

  hr_document_restore_step (doc, hr_document_undo (doc, &follows), follows);
  g_assert_true (hr_document_is_dirty (doc));
  hr_document_restore_step (doc, hr_document_redo (doc, &follows), follows);
  g_assert_false (hr_document_is_dirty (doc));

  hr_document_set_file (doc, NULL);
  g_assert_null (hr_document_get_file (doc));
}

/* Replacing the scenario (New, Open, an example) starts a clean history. */
static void
test_replace (void)
{
  g_autoptr(HrDocument) doc = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  doc = hr_document_new (&sc, TRUE);
  g_assert_true (edit_gpus (doc, &sc, 16));
  g_assert_true (hr_document_is_dirty (doc));

  g_strlcpy (sc.name, "Mine", sizeof sc.name);
  hr_document_replace (doc, &sc, FALSE);
  g_assert_false (hr_document_is_dirty (doc));
  g_assert_false (hr_document_can_undo (doc));
  g_assert_false (hr_document_can_redo (doc));
  g_assert_false (hr_document_name_follows (doc));
}

/* Until the user names it, the name follows the plan: a change that
 * renames the plan gives the new name, one that does not gives none. */
static void
test_name_follows (void)
{
  g_autoptr(HrDocument) doc = NULL;
  HrScenario sc;
  const char *name;

  hr_scenario_init_default (&sc);
  sc.parallel.gpus = 8;
  hr_scenario_set_generated_name (&sc);
  doc = hr_document_new (&sc, TRUE);
  g_assert_null (hr_document_next_name (doc, &sc));

  sc.parallel.gpus = 16;
  name = hr_document_next_name (doc, &sc);
  g_assert_nonnull (name);
  g_assert_true (g_str_has_suffix (name, ", 16x H100"));
  /* given once: the same plan renames nothing again */
  g_assert_null (hr_document_next_name (doc, &sc));

  /* a name of the user's own stays */
  g_strlcpy (sc.name, "Mine", sizeof sc.name);
  hr_document_user_named (doc, &sc);
  g_assert_false (hr_document_name_follows (doc));
  sc.parallel.gpus = 32;
  g_assert_null (hr_document_next_name (doc, &sc));

  /* cleared, it follows again from the next change that renames the
   * plan, not at once */
  sc.name[0] = '\0';
  hr_document_user_named (doc, &sc);
  g_assert_true (hr_document_name_follows (doc));
  g_assert_null (hr_document_next_name (doc, &sc));
  sc.parallel.gpus = 64;
  name = hr_document_next_name (doc, &sc);
  g_assert_nonnull (name);
  g_assert_true (g_str_has_suffix (name, ", 64x H100"));
}

/* A step keeps whether its name followed the plan: undoing past the
 * user's naming brings the following name back. */
static void
test_name_undo (void)
{
  g_autoptr(HrDocument) doc = NULL;
  HrScenario sc;
  const HrScenario *step;
  gboolean follows = FALSE;

  hr_scenario_init_default (&sc);
  doc = hr_document_new (&sc, TRUE);
  g_strlcpy (sc.name, "Mine", sizeof sc.name);
  hr_document_note_edit (doc, g_intern_static_string ("name"));
  hr_document_user_named (doc, &sc);
  g_assert_true (hr_document_record_edit (doc, &sc));
  g_assert_false (hr_document_name_follows (doc));

  step = hr_document_undo (doc, &follows);
  g_assert_true (follows);
  hr_document_restore_step (doc, step, follows);
  g_assert_true (hr_document_name_follows (doc));

  step = hr_document_redo (doc, &follows);
  g_assert_false (follows);
  g_assert_cmpstr (step->name, ==, "Mine");
  hr_document_restore_step (doc, step, follows);
  g_assert_false (hr_document_name_follows (doc));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/document/new", test_new);
  g_test_add_func ("/document/dirty", test_dirty);
  g_test_add_func ("/document/edit-back", test_edit_back);
  g_test_add_func ("/document/save", test_save);
  g_test_add_func ("/document/replace", test_replace);
  g_test_add_func ("/document/name-follows", test_name_follows);
  g_test_add_func ("/document/name-undo", test_name_undo);
  return g_test_run ();
}
