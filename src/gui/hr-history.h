/* hr-history.h: the scenario's undo history
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "hr-scenario.h"

G_BEGIN_DECLS

/* Edits of the same fields closer than this merge into one step. */
#define HR_HISTORY_MERGE_USEC (1000 * 1000)
/* The steps kept; older ones are forgotten. */
#define HR_HISTORY_MAX_STEPS 200

#define HR_TYPE_HISTORY (hr_history_get_type ())

G_DECLARE_FINAL_TYPE (HrHistory, hr_history, HR, HISTORY, GObject)

HrHistory        *hr_history_new         (void);
void              hr_history_reset       (HrHistory        *self,
                                          const HrScenario *scenario,
                                          gboolean          name_follows);
void              hr_history_note_edit   (HrHistory        *self,
                                          const char       *field);
void              hr_history_next_alone  (HrHistory        *self);
gboolean          hr_history_commit      (HrHistory        *self,
                                          const HrScenario *scenario,
                                          gboolean          name_follows,
                                          gint64            now_usec);
void              hr_history_drop_edits  (HrHistory        *self);
const HrScenario *hr_history_undo        (HrHistory        *self,
                                          gboolean         *name_follows);
const HrScenario *hr_history_redo        (HrHistory        *self,
                                          gboolean         *name_follows);
gboolean          hr_history_can_undo    (HrHistory        *self);
gboolean          hr_history_can_redo    (HrHistory        *self);
void              hr_history_mark_saved  (HrHistory        *self);
gboolean          hr_history_is_saved    (HrHistory        *self);
guint             hr_history_get_length  (HrHistory        *self);

G_END_DECLS
