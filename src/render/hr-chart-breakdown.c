/* hr-chart-breakdown.c: "where the memory goes", under the chart
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One column per category, listing the binding device's items at its
 * peak with their sizes: the full per-GPU breakdown in the picture, for
 * the people the chart is shown to.  No line is dropped silently: when a
 * category has more items than fit, the largest are listed and one line
 * sums the rest.
 */

#include "hr-chart-private.h"

#include <glib/gi18n-lib.h>

#include "hr-format.h"

/* One line of the breakdown: the size right-aligned, the name ellipsized
 * in the space left of it. */
static void
draw_item_line (Painter    *p,
                const char *name,
                const char *bytes,
                double      cx,
                double      cy,
                double      col_w)
{
  double fs = p->fs, w;

  pango_layout_set_width (p->layout, -1);
  w = draw_text (p, bytes, cx + col_w - 18 * fs, cy + 8 * fs, 10, FALSE,
                 p->style->foreground, TRUE);
  pango_layout_set_width (p->layout, (int) ((col_w - 46 * fs - w) * PANGO_SCALE));
  draw_text (p, name, cx + 17 * fs, cy + 8 * fs, 10, FALSE, p->style->foreground, FALSE);
}

void
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
  /* One column on a phone: two would cut every item's name short. */
  guint columns = width > 1100 * fs ? HR_N_CATEGORIES : width > 760 * fs ? 3
                  : width > 500 * fs ? 2 : 1;
  double col_w = width / columns;
  double row_y = y + 22 * fs, row_h = 0;
  g_autofree char *heading = NULL;

  if (height < 90 * fs)
    return;

  heading = g_strdup_printf (_("Where the memory goes on %s, at its peak (%s)"), d->label,
                             hr_phase_label (d->peak_phase));
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (p->layout, (int) (width * PANGO_SCALE));
  draw_text (p, heading, x, y + 8 * fs, 12, TRUE, style->foreground, FALSE);

  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      guint col = c % columns;
      double cx = x + col * col_w, cy;
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
      pango_layout_set_width (p->layout, (int) ((col_w - 36 * fs) * PANGO_SCALE));
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
        guint live[HR_MAX_ITEMS], n_live = 0, rows;
        guint64 rest = 0;
        gboolean keep[HR_MAX_ITEMS] = { FALSE };

        for (guint i = 0; i < d->n_items; i++)
          if (d->items[i].category == c && hr_item_is_live_at_peak (d, &d->items[i]))
            live[n_live++] = i;
        rows = cy + line > y + height ? 0 : (guint) ((y + height - cy) / line);
        rows = MIN (rows, 8);
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

        for (guint k = 0; k < n_live; k++)
          {
            const HrItem *item = &d->items[live[k]];
            g_autofree char *name = NULL;
            g_autofree char *bytes = NULL;

            if (!keep[live[k]])
              {
                rest += item->bytes;
                continue;
              }
            name = hr_item_label (item);
            bytes = hr_format_bytes ((double) item->bytes, style->units);
            draw_item_line (p, name, bytes, cx, cy, col_w);
            cy += line;
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
            draw_item_line (p, name, bytes, cx, cy, col_w);
            cy += line;
          }
      }
      row_h = MAX (row_h, cy - row_y);
    }
  pango_layout_set_width (p->layout, -1);
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
}

