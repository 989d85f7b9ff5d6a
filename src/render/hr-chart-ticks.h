/* hr-chart-ticks.h: round numbers for the charts' axes
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_CHART_MAX_TICKS 24

typedef enum
{
  HR_TICKS_DECIMAL,         /* steps of 1, 2 or 5 times a power of ten: sizes */
  HR_TICKS_POWERS_OF_TWO,   /* steps of 1, 2, 4, 8, ...: batch sizes, lengths */
} HrTickSteps;

guint   hr_chart_ticks       (double       lo,
                              double       hi,
                              guint        about,
                              HrTickSteps  steps,
                              double      *ticks);
double  hr_chart_tick_step   (double       range,
                              guint        about,
                              HrTickSteps  steps);

G_END_DECLS
