/* hr-chart-breakdown.c: "where the memory goes", under the chart
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One column per category, listing the binding device's items at its
 * peak with their sizes: the full per-GPU breakdown in the picture, for
 * the people the chart is shown to.  No line is dropped silently: when a
 * category has more items than fit, the largest are listed and one line
 * sums the rest.  The columns are as wide as their longest line needs
 * where equal ones would cut a name short, and not much wider, so a name
 * is ellipsized only when even one column cannot hold its line.
 */

#include "hr-chart-private.h"

#include <glib/gi18n-lib.h>

#include "hr-format.h"

/* The room a line takes beside its name and size: the swatch's indent
 * (17), the gap between name and size (29) and the column's gutter (18). */
#define LINE_SPACING 64.0

/* One line of the breakdown: the size right-aligned, the name in the
 * space left of it, wrapped onto more lines where WRAP says there is room
 * for them (item_extra) and else ellipsized; TRUE when the name was cut
 * short. */
static gboolean
draw_item_line (Painter    *p,
                const char *name,
                const char *bytes,
                double      cx,
                double      cy,
                double      col_w,
                double      extra)
{
  double fs = p->fs, w;

  pango_layout_set_width (p->layout, -1);
  w = draw_text (p, bytes, cx + col_w - 18 * fs, cy + 8 * fs, 11, FALSE,
                 p->style->foreground, TRUE);
  pango_layout_set_width (p->layout, (int) ((col_w - 46 * fs - w) * PANGO_SCALE));
  if (extra > 0)
    {
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
      pango_layout_set_wrap (p->layout, PANGO_WRAP_WORD_CHAR);
    }
  draw_text (p, name, cx + 17 * fs, cy + 8 * fs + extra / 2, 11, FALSE, p->style->foreground,
             FALSE);
  if (extra > 0)
    {
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
      return FALSE;
    }
  return pango_layout_is_ellipsized (p->layout);
}

/* How much taller than one line NAME is when it wraps beside BYTES in a
 * column COL_W wide: 0 where it fits on one. */
static double
item_extra (Painter    *p,
            const char *name,
            const char *bytes,
            double      col_w)
{
  double fs = p->fs, w;
  int one, lines;
  PangoEllipsizeMode ellipsize = pango_layout_get_ellipsize (p->layout);

  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_width (p->layout, -1);
  w = hr_chart_text_width (p, bytes, 11, FALSE);
  hr_chart_set_font (p->layout, p->style, 11 * p->fs, FALSE);
  hr_chart_set_text (p->layout, p->style, name);
  pango_layout_get_pixel_size (p->layout, NULL, &one);
  pango_layout_set_wrap (p->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_width (p->layout, (int) (MAX (col_w - 46 * fs - w, 20 * fs) * PANGO_SCALE));
  pango_layout_get_pixel_size (p->layout, NULL, &lines);
  pango_layout_set_width (p->layout, -1);
  pango_layout_set_ellipsize (p->layout, ellipsize);
  return lines - one;
}

/* Which of category C's items live at the peak get a line of their own
 * in ROWS lines (keep, indexed by item): all where they fit, else the
 * largest ROWS - 1, a last line summing the rest.  LIVE gets their
 * indices, in the plan's order; returns how many. */
static guint
choose_items (const HrDevice *d,
              HrCategory      c,
              guint           rows,
              guint          *live,
              gboolean       *keep)
{
  guint n_live = 0;

  for (guint i = 0; i < d->n_items; i++)
    if (d->items[i].category == c && hr_item_is_live_at_peak (d, &d->items[i]))
      live[n_live++] = i;
  if (n_live <= rows)
    for (guint k = 0; k < n_live; k++)
      keep[live[k]] = TRUE;
  else if (rows > 0)
    for (guint chosen = 0; chosen + 1 < rows; chosen++)
      {
        guint best = G_MAXUINT;

        for (guint k = 0; k < n_live; k++)
          if (!keep[live[k]] && (best == G_MAXUINT
                                 || d->items[live[k]].bytes > d->items[best].bytes))
            best = live[k];
        keep[best] = TRUE;
      }
  return n_live;
}

/* The extra height each kept item's name takes wrapped (EXTRA, indexed
 * by item); returns the lines' height, the "more items" line counted. */
static double
items_height (Painter        *p,
              const HrDevice *d,
              const guint    *live,
              guint           n_live,
              const gboolean *keep,
              double          col_w,
              double         *extra)
{
  double line = 17 * p->fs, total = 0;
  gboolean rest = FALSE;

  for (guint k = 0; k < n_live; k++)
    {
      const HrItem *item = &d->items[live[k]];
      g_autofree char *name = NULL;
      g_autofree char *bytes = NULL;

      if (!keep[live[k]])
        {
          rest = TRUE;
          continue;
        }
      name = hr_item_label (item);
      bytes = hr_format_bytes ((double) item->bytes, p->style->units);
      extra[live[k]] = item_extra (p, name, bytes, col_w);
      total += line + extra[live[k]];
    }
  return total + (rest ? line : 0);
}

/* The width category C's column needs for its title and every line uncut
 * (every item live at the peak, though fewer may be listed). */
static double
category_width (Painter        *p,
                const HrDevice *d,
                HrCategory      c)
{
  double fs = p->fs, need;
  g_autofree char *size = hr_format_bytes ((double) d->category_bytes[c], p->style->units);
  g_autofree char *title = g_strdup_printf ("%s  %s", hr_category_label (c), size);

  pango_layout_set_width (p->layout, -1);
  need = 36 * fs + hr_chart_text_width (p, title, 11, TRUE);
  for (guint i = 0; i < d->n_items; i++)
    if (d->items[i].category == c && hr_item_is_live_at_peak (d, &d->items[i]))
      {
        g_autofree char *name = hr_item_label (&d->items[i]);
        g_autofree char *bytes = hr_format_bytes ((double) d->items[i].bytes, p->style->units);

        need = MAX (need, LINE_SPACING * fs + hr_chart_text_width (p, name, 11, FALSE)
                          + hr_chart_text_width (p, bytes, 11, FALSE));
      }
  return need;
}

/* What each of COLUMNS columns needs (category c goes in column
 * c % columns); returns their sum. */
static double
column_needs (const double *category_need,
              guint         columns,
              double       *need)
{
  double total = 0;

  for (guint k = 0; k < columns; k++)
    need[k] = 0;
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    need[c % columns] = MAX (need[c % columns], category_need[c]);
  for (guint k = 0; k < columns; k++)
    total += need[k];
  return total;
}

/* The columns: as many as the width allows (all five on a wide page, one
 * on a phone) and, of those, as many as hold every line uncut; equal
 * where every line fits an equal share, else each as wide as its
 * categories need with the room left shared out; none more than 60
 * points wider than the widest needs.  Where not even one column holds a
 * line, the widths are scaled down alike and the longest names cut.
 * Returns the count. */
static guint
lay_out_columns (Painter        *p,
                 const HrDevice *d,
                 double          width,
                 double         *col_x,
                 double         *col_w)
{
  static const guint counts[] = { HR_N_CATEGORIES, 3, 2, 1 };
  double fs = p->fs, category_need[HR_N_CATEGORIES], need[HR_N_CATEGORIES];
  double total = 0, widest, x = 0;
  guint columns = 1;

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    category_need[c] = category_width (p, d, c);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      /* no more than the width has room for: five above 1100 points,
       * three above 760, two above 500 */
      if (counts[i] == HR_N_CATEGORIES && width <= 1100 * fs)
        continue;
      if (counts[i] == 3 && width <= 760 * fs)
        continue;
      if (counts[i] == 2 && width <= 500 * fs)
        continue;
      columns = counts[i];
      total = column_needs (category_need, columns, need);
      if (total <= width)
        break;
    }
  widest = 0;
  for (guint k = 0; k < columns; k++)
    widest = MAX (widest, need[k]);
  for (guint k = 0; k < columns; k++)
    {
      if (widest * columns <= width)
        col_w[k] = width / columns;
      else if (total <= width)
        col_w[k] = need[k] + (width - total) / columns;
      else
        col_w[k] = need[k] * width / total;
      /* a size far from its name is hard to read across: no column much
       * wider than its lines */
      col_w[k] = MIN (col_w[k], widest + 60 * fs);
      col_x[k] = x;
      x += col_w[k];
    }
  return columns;
}

/* How much taller than one line the heading is where it wraps to WIDTH
 * (a phone's). */
static double
heading_extra (Painter    *p,
               const char *heading,
               double      width)
{
  int one_line, lines;

  pango_layout_set_width (p->layout, -1);
  hr_chart_set_font (p->layout, p->style, 12 * p->fs, TRUE);
  hr_chart_set_text (p->layout, p->style, heading);
  pango_layout_get_pixel_size (p->layout, NULL, &one_line);
  pango_layout_set_wrap (p->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_width (p->layout, (int) (width * PANGO_SCALE));
  pango_layout_get_pixel_size (p->layout, NULL, &lines);
  return lines - one_line;
}

double
hr_chart_breakdown_height (cairo_t            *cr,
                           PangoLayout        *layout,
                           const HrChartStyle *style,
                           const HrDevice     *d,
                           double              width)
{
  Painter painter = { cr, layout, style, MAX (style->font_scale, 0.25) };
  Painter *p = &painter;
  double fs = p->fs, line = 17 * fs, col_x[HR_N_CATEGORIES], col_w[HR_N_CATEGORIES];
  double row_y, row_h = 0;
  g_autofree char *heading = NULL;
  guint columns = lay_out_columns (p, d, width, col_x, col_w);

  heading = g_strdup_printf (_("Where the memory goes on %s at its peak, during the %s"), d->label,
                             hr_phase_label (d->peak_phase));
  row_y = 22 * fs + heading_extra (p, heading, width);
  pango_layout_set_width (p->layout, -1);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      if (c % columns == 0 && c > 0)
        {
          row_y += row_h + 10 * fs;
          row_h = 0;
        }
      {
        guint live[HR_MAX_ITEMS], n_live;
        gboolean keep[HR_MAX_ITEMS] = { FALSE };
        double extra[HR_MAX_ITEMS];

        n_live = choose_items (d, c, 8, live, keep);
        row_h = MAX (row_h, line + 2 * fs + items_height (p, d, live, n_live, keep,
                                                          col_w[c % columns], extra));
      }
    }
  /* a pixel's slack: the drawing counts whole lines in what is left */
  return MAX (row_y + row_h + 2, 90 * fs);
}

guint
hr_chart_draw_breakdown (cairo_t            *cr,
                         PangoLayout        *layout,
                         const HrChartStyle *style,
                         const HrDevice     *d,
                         double              x,
                         double              y,
                         double              width,
                         double              height)
{
  Painter painter = { cr, layout, style, MAX (style->font_scale, 0.25) };
  Painter *p = &painter;
  double fs = p->fs, line = 17 * fs;
  guint columns;
  double col_x[HR_N_CATEGORIES], col_w[HR_N_CATEGORIES];
  double row_y = y + 22 * fs, row_h = 0;
  g_autofree char *heading = NULL;
  guint cut = 0;

  if (height < 90 * fs)
    return 0;
  columns = lay_out_columns (p, d, width, col_x, col_w);

  heading = g_strdup_printf (_("Where the memory goes on %s at its peak, during the %s"), d->label,
                             hr_phase_label (d->peak_phase));
  /* The heading wraps where it is wider than the page (a phone's), and
   * the columns move down by the lines it adds. */
  {
    double extra = heading_extra (p, heading, width);

    draw_text (p, heading, x, y + 8 * fs + extra / 2.0, 12, TRUE, style->foreground, FALSE);
    row_y += extra;
  }
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      guint col = c % columns;
      double cx = x + col_x[col], cy;
      g_autofree char *size = hr_format_bytes ((double) d->category_bytes[c], style->units);

      if (col == 0 && c > 0)
        {
          row_y += row_h + 10 * fs;
          row_h = 0;
        }
      cy = row_y;
      if (cy + line > y + height)
        break;

      set_rgb (p->cr, hr_chart_category_colour (c, style->dark), 1.0);
      cairo_rectangle (p->cr, cx, cy + 2 * fs, 12 * fs, 12 * fs);
      cairo_fill (p->cr);
      pango_layout_set_width (p->layout, (int) ((col_w[col] - 36 * fs) * PANGO_SCALE));
      {
        g_autofree char *title = g_strdup_printf ("%s  %s", hr_category_label (c), size);

        draw_text (p, title, cx + 17 * fs, cy + 8 * fs, 11, TRUE, style->foreground, FALSE);
      }
      cy += line + 2 * fs;

      /* At most eight lines per category, fewer when the height runs out;
       * when some items do not fit, the largest are listed (in the plan's
       * order) and one last line sums the rest, so the lines always add up
       * to the category's total. */
      {
        guint live[HR_MAX_ITEMS], n_live, rows;
        guint64 rest = 0;
        gboolean keep[HR_MAX_ITEMS] = { FALSE };
        double extra[HR_MAX_ITEMS] = { 0 };
        gboolean wrap;

        rows = cy + line > y + height ? 0 : (guint) ((y + height - cy) / line);
        rows = MIN (rows, 8);
        n_live = choose_items (d, c, rows, live, keep);
        /* names wrap where the box has room for their lines, as the
         * window's chart (as tall as hr_chart_height says) has */
        wrap = cy + items_height (p, d, live, n_live, keep, col_w[col], extra) <= y + height + 0.5;

        for (guint k = 0; k < n_live; k++)
          {
            const HrItem *item = &d->items[live[k]];
            g_autofree char *name = NULL;
            g_autofree char *bytes = NULL;
            double e = wrap ? extra[live[k]] : 0;

            if (!keep[live[k]])
              {
                rest += item->bytes;
                continue;
              }
            name = hr_item_label (item);
            bytes = hr_format_bytes ((double) item->bytes, style->units);
            cut += draw_item_line (p, name, bytes, cx, cy, col_w[col], e);
            cy += line + e;
          }
        if (rest > 0 && rows > 0)
          {
            guint others = 0;
            g_autofree char *name = NULL;
            g_autofree char *bytes = hr_format_bytes ((double) rest, style->units);

            for (guint k = 0; k < n_live; k++)
              others += keep[live[k]] ? 0 : 1;
            name = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more item", "%u more items",
                                                 others), others);
            cut += draw_item_line (p, name, bytes, cx, cy, col_w[col], 0);
            cy += line;
          }
      }
      row_h = MAX (row_h, cy - row_y);
    }
  pango_layout_set_width (p->layout, -1);
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
  return cut;
}

