/* hr-export.c: the size and style of every PNG the window exports
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chart, the sweep and the comparison are exported at the size and
 * type of every PNG Headroom writes (hr_export_settings, in the render
 * layer, as `headroom-cli --png` draws), in the light style.
 */

#include "config.h"

#include "hr-locale.h"
#include "hr-export.h"

void
hr_export_style_init (HrChartStyle *style,
                      HrUnits       units)
{
  hr_chart_style_init_light (style);
  style->units = units;
  style->font_scale = hr_export_settings.font_scale;
  style->paint_background = TRUE;
  /* The file is what the user saw: numbers in the locale's format, as
   * the window shows them (headroom-cli's PNGs keep "39.2"). */
  style->number = hr_locale_number;
}

/* Paints with paint at the export size, beside path, renamed over it. */
gboolean
hr_export_write_png (const char   *path,
                     HrPaintFunc   paint,
                     gpointer      data,
                     GError      **error)
{
  return hr_write_png_atomic (path, hr_export_settings.width, hr_export_settings.height,
                              hr_export_settings.scale, paint, data, error);
}
