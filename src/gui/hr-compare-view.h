/* hr-compare-view.h: the "Compare" view, a pinned scenario and the current one
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_COMPARE_VIEW (hr_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (HrCompareView, hr_compare_view, HR, COMPARE_VIEW, GtkWidget)

GtkWidget        *hr_compare_view_new         (void);
void              hr_compare_view_pin         (HrCompareView    *self,
                                               const HrScenario *scenario);
const HrScenario *hr_compare_view_get_pinned  (HrCompareView    *self);

G_END_DECLS
