/* hr-document.h: the scenario as a document: its file, its undo history,
 * whether it has unsaved changes and whether its name follows the plan
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_DOCUMENT (hr_document_get_type ())

G_DECLARE_FINAL_TYPE (HrDocument, hr_document, HR, DOCUMENT, GObject)

HrDocument       *hr_document_new             (const HrScenario *scenario,
                                               gboolean          name_follows);
void              hr_document_replace         (HrDocument       *self,
                                               const HrScenario *scenario,
                                               gboolean          name_follows);
void              hr_document_restore_step    (HrDocument       *self,
                                               const HrScenario *scenario,
                                               gboolean          name_follows);
gboolean          hr_document_note_edit       (HrDocument       *self,
                                               const char       *field);
void              hr_document_next_edit_alone (HrDocument       *self);
gboolean          hr_document_record_edit     (HrDocument       *self,
                                               const HrScenario *scenario);
void              hr_document_mark_saved      (HrDocument       *self);
void              hr_document_user_named      (HrDocument       *self,
                                               const HrScenario *scenario);
const char       *hr_document_next_name       (HrDocument       *self,
                                               const HrScenario *scenario);
gboolean          hr_document_name_follows    (HrDocument       *self);
GFile            *hr_document_get_file        (HrDocument       *self);
void              hr_document_set_file        (HrDocument       *self,
                                               GFile            *file);
gboolean          hr_document_is_dirty        (HrDocument       *self);
gboolean          hr_document_can_undo        (HrDocument       *self);
gboolean          hr_document_can_redo        (HrDocument       *self);
const HrScenario *hr_document_undo            (HrDocument       *self,
                                               gboolean         *name_follows);
const HrScenario *hr_document_redo            (HrDocument       *self,
                                               gboolean         *name_follows);

G_END_DECLS
