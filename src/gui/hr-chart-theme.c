/* hr-chart-theme.c: the charts' style from the window's theme and locale
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-GPU chart, the sweep and the timeline draw with src/render's
 * painters, which the CLI uses with fixed colours; in the window they take
 * the light or dark palette of the style manager, the theme's foreground
 * colour (so text keeps its contrast) and the locale's number format, as
 * the window's labels write numbers.  No title: the verdict is above.
 */

#include "config.h"

#include <adwaita.h>

#include "hr-chart-theme.h"
#include "hr-locale.h"

void
hr_chart_theme_style (GtkWidget    *widget,
                      HrUnits       units,
                      HrChartStyle *style)
{
  GdkRGBA fg;

  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    hr_chart_style_init_dark (style);
  else
    hr_chart_style_init_light (style);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  style->foreground = (HrRgb) { fg.red, fg.green, fg.blue };
  style->units = units;
  style->number = hr_locale_number;
  style->show_title = FALSE;
}
