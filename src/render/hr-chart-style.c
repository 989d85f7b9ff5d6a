/* hr-chart-style.c: what every chart shares: its palette, its light and
 * dark styles, the words of a verdict, and its text: the font, how the
 * numbers are written, measuring and drawing
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-GPU chart, the timeline, the sweep, the comparison and the
 * report page all draw with these, so a category has one colour and a
 * number one format in every picture.
 */

#include "hr-chart-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>

/* Okabe & Ito 2008, "Color Universal Design"; the dark variants are the
 * same hues lightened to keep contrast on a dark background. */
static const HrRgb light_palette[HR_N_CATEGORIES] = {
  { 0.000, 0.447, 0.698 },   /* parameters: blue */
  { 0.337, 0.706, 0.914 },   /* gradients: sky blue */
  { 0.000, 0.620, 0.451 },   /* optimizer: bluish green */
  { 0.902, 0.624, 0.000 },   /* activations: orange */
  { 0.550, 0.550, 0.550 },   /* overhead: grey */
};
static const HrRgb dark_palette[HR_N_CATEGORIES] = {
  { 0.290, 0.600, 0.860 },
  { 0.520, 0.800, 0.960 },
  { 0.250, 0.760, 0.600 },
  { 0.960, 0.720, 0.250 },
  { 0.620, 0.620, 0.620 },
};

HrRgb
hr_chart_category_colour (HrCategory category,
                          gboolean   dark)
{
  g_return_val_if_fail (category < HR_N_CATEGORIES, light_palette[0]);
  return dark ? dark_palette[category] : light_palette[category];
}

/* GNOME's palette: green 5 / yellow 5 / red 4 on light, lighter on dark. */
HrRgb
hr_chart_status_colour (HrStatus status,
                        gboolean dark)
{
  switch (status)
    {
    case HR_STATUS_OK:
      return dark ? (HrRgb) { 0.34, 0.82, 0.39 } : (HrRgb) { 0.15, 0.52, 0.22 };
    case HR_STATUS_TIGHT:
      return dark ? (HrRgb) { 0.96, 0.76, 0.07 } : (HrRgb) { 0.61, 0.40, 0.00 };
    case HR_STATUS_OOM:
    case HR_N_STATUSES:
    default:
      return dark ? (HrRgb) { 1.00, 0.48, 0.39 } : (HrRgb) { 0.75, 0.11, 0.16 };
    }
}

const char *
hr_category_label (HrCategory category)
{
  switch (category)
    {
    case HR_CATEGORY_PARAMETERS:
      return _("Parameters");
    case HR_CATEGORY_GRADIENTS:
      return _("Gradients");
    case HR_CATEGORY_OPTIMIZER:
      return _("Optimizer states");
    case HR_CATEGORY_ACTIVATIONS:
      return _("Activations");
    case HR_CATEGORY_OVERHEAD:
    case HR_N_CATEGORIES:
    default:
      return _("Overhead");
    }
}

void
hr_chart_style_init_light (HrChartStyle *style)
{
  *style = (HrChartStyle) {
    .dark = FALSE,
    .foreground = { 0.14, 0.14, 0.16 },
    .background = { 1.0, 1.0, 1.0 },
    .paint_background = FALSE,
    .units = HR_UNITS_BINARY,
    .font_scale = 1.0,
    .show_title = TRUE,
    .font_family = "Sans",
  };
}

void
hr_chart_style_init_dark (HrChartStyle *style)
{
  hr_chart_style_init_light (style);
  style->dark = TRUE;
  style->foreground = (HrRgb) { 0.96, 0.96, 0.96 };
  style->background = (HrRgb) { 0.14, 0.14, 0.16 };
}

/* "✓ 39.2 GiB free (49 %)", "⚠ Tight: 1.1 GiB free (1 %)", "✗ Over by 38 GiB" */
char *
hr_device_verdict (const HrPlan   *plan,
                   const HrDevice *device,
                   HrUnits         units)
{
  g_autofree char *size = hr_format_bytes ((double) ABS (device->free_bytes), units);
  int percent = (int) floor (100.0 * (double) device->free_bytes
                             / (double) MAX (plan->capacity_bytes, 1) + 0.5);

  switch (device->status)
    {
    case HR_STATUS_OK:
      /* TRANSLATORS: a GPU's verdict: free memory and its share of the GPU */
      return g_strdup_printf (_("✓ Fits, %s free (%d %%)"), size, percent);
    case HR_STATUS_TIGHT:
      return g_strdup_printf (_("⚠ Tight, %s free (%d %%)"), size, percent);
    case HR_STATUS_OOM:
    case HR_N_STATUSES:
    default:
      return g_strdup_printf (_("✗ Over by %s"), size);
    }
}

/* The style's font at SIZE pixels, bold or not, for the layout's next
 * text. */
void
hr_chart_set_font (PangoLayout        *layout,
                   const HrChartStyle *style,
                   double              size,
                   gboolean            bold)
{
  PangoFontDescription *font = pango_font_description_from_string (style->font_family);

  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
}

/* Every text a chart draws goes through here: its amounts ("36.8 GiB",
 * "46 %") and a tick's bare number ("0.5", "4096") as style->number
 * writes them; names with digits ("Llama 3.1 8B", "H100") stay. */
void
hr_chart_set_text (PangoLayout        *layout,
                   const HrChartStyle *style,
                   const char         *text)
{
  g_autofree char *local = NULL;

  if (style->number != NULL && text[0] != '\0')
    {
      gboolean bare = TRUE;

      for (const char *c = text; *c != '\0' && bare; c++)
        bare = g_ascii_isdigit (*c) || *c == '.' || *c == '-';
      local = bare ? style->number (text) : hr_format_amounts (text, style->number);
    }
  pango_layout_set_text (layout, local != NULL ? local : text, -1);
}

/* Lays text out; size in points at font_scale 1, weight bold or not. */
void
hr_chart_layout_text (Painter    *p,
                      const char *text,
                      double      size,
                      gboolean    bold)
{
  hr_chart_set_font (p->layout, p->style, size * p->fs, bold);
  hr_chart_set_text (p->layout, p->style, text);
}

/* The width of TEXT on one line.  A draw measures the same texts several
 * times (the breakdown sizes its columns, then its height, then draws;
 * 82 % of a chart's draw was measuring): unwrapped widths are kept on the
 * layout, which lives for one draw with one style, so they are the same
 * answer.  It lays TEXT out in P's layout only when it measures it. */
double
hr_chart_text_width (Painter    *p,
                     const char *text,
                     double      size,
                     gboolean    bold)
{
  GHashTable *widths = NULL;
  g_autofree char *key = NULL;
  gpointer known;
  int w, h;

  if (pango_layout_get_width (p->layout) == -1)
    {
      widths = g_object_get_data (G_OBJECT (p->layout), "hr-text-widths");
      if (widths == NULL)
        {
          widths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          g_object_set_data_full (G_OBJECT (p->layout), "hr-text-widths", widths,
                                  (GDestroyNotify) g_hash_table_unref);
        }
      key = g_strdup_printf ("%c%.4f %s", bold ? 'b' : 'r', size * p->fs, text);
      if (g_hash_table_lookup_extended (widths, key, NULL, &known))
        return GPOINTER_TO_INT (known);
    }
  hr_chart_layout_text (p, text, size, bold);
  pango_layout_get_pixel_size (p->layout, &w, &h);
  if (widths != NULL)
    g_hash_table_insert (widths, g_steal_pointer (&key), GINT_TO_POINTER (w));
  return w;
}

double
hr_chart_draw_text (cairo_t            *cr,
                    PangoLayout        *layout,
                    const HrChartStyle *style,
                    const char         *text,
                    double              x,
                    double              y,
                    double              size,
                    gboolean            bold,
                    HrRgb               colour,
                    double              align)
{
  int w, h;

  hr_chart_set_font (layout, style, size, bold);
  hr_chart_set_text (layout, style, text);
  pango_layout_get_pixel_size (layout, &w, &h);
  set_rgb (cr, colour, 1.0);
  cairo_move_to (cr, x - align * w, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
  return w;
}
