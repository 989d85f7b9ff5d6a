/* hr-export.h: the size and style of every PNG the window exports
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-chart.h"
#include "hr-render-png.h"

G_BEGIN_DECLS

void     hr_export_style_init  (HrChartStyle  *style,
                                HrUnits        units);
gboolean hr_export_write_png   (const char    *path,
                                HrPaintFunc    paint,
                                gpointer       data,
                                GError       **error);

G_END_DECLS
