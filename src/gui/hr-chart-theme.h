/* hr-chart-theme.h: the charts' style from the window's theme and locale
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-chart.h"

G_BEGIN_DECLS

void hr_chart_theme_style (GtkWidget    *widget,
                           HrUnits       units,
                           HrChartStyle *style);

G_END_DECLS
