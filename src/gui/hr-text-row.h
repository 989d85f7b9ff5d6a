/* hr-text-row.h: a form row with a line of text
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-scenario-model.h"

G_BEGIN_DECLS

#define HR_TYPE_TEXT_ROW (hr_text_row_get_type ())

G_DECLARE_FINAL_TYPE (HrTextRow, hr_text_row, HR, TEXT_ROW, AdwEntryRow)

GtkWidget *hr_text_row_new (HrScenarioModel *model,
                            const char      *path,
                            const char      *title);

G_END_DECLS
