/* hr-compare-chart.c: a pinned scenario and the current one, on one page
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Compare view exports: both charts on one scale, each named
 * ("Pinned", "Now"), and below them the two tables a reader asks for:
 * which fields differ (from and to, in the form's words) and how much
 * each category moves on the fullest GPU, the total last.
 */

#include "hr-compare-chart.h"
#include "hr-chart-private.h"
#include "hr-scenario-diff.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#define MAX_CHANGES 10

static void
record (HrChartHits  *hits,
        double        x,
        double        y,
        double        w,
        double        h,
        HrChartLabel  kind)
{
  if (hits != NULL && hits->n_labels < HR_CHART_MAX_LABELS)
    hits->labels[hits->n_labels++] = (HrChartHit) { x, y - h / 2, w, h, 0, HR_N_CATEGORIES,
                                                    kind };
}

/* "Pinned" or "Now" above a chart of its scenario, its name and verdict
 * in the chart's own title. */
static void
draw_one (Painter          *p,
          const char       *which,
          const HrScenario *sc,
          const HrPlan     *plan,
          double            scale_bytes,
          double            width,
          double            y,
          double            height,
          HrChartHits      *hits)
{
  HrChartStyle style = *p->style;
  double fs = p->fs, w;

  w = draw_text (p, which, 16 * fs, y + 10 * fs, 12, TRUE,
                 hr_chart_status_colour (HR_STATUS_TIGHT, style.dark), FALSE);
  record (hits, 16 * fs, y + 10 * fs, w, 16 * fs, HR_CHART_COMPARE_HEADING);
  style.scale_bytes = scale_bytes;
  style.paint_background = FALSE;
  style.show_title = TRUE;
  style.hide_breakdown = TRUE;
  cairo_save (p->cr);
  cairo_translate (p->cr, 0, y + 12 * fs);
  hr_chart_draw (p->cr, width, height - 12 * fs, sc, plan, &style, NULL);
  cairo_restore (p->cr);
}

/* The fields that differ: "Micro-batch   4 → 8". */
static void
draw_changes (Painter          *p,
              const HrScenario *pinned,
              const HrScenario *now,
              double            x,
              double            y,
              double            width,
              double            bottom,
              HrChartHits      *hits)
{
  HrFieldChange changes[MAX_CHANGES];
  guint n = hr_scenario_diff (pinned, now, changes, MAX_CHANGES);
  double fs = p->fs, line = 18 * fs, w;
  HrRgb fg = p->style->foreground;

  w = draw_text (p, _("What changed"), x, y + 8 * fs, 12, TRUE, fg, FALSE);
  record (hits, x, y + 8 * fs, w, 16 * fs, HR_CHART_COMPARE_HEADING);
  y += 26 * fs;
  if (n == 0)
    {
      w = draw_text (p, _("Nothing: the same scenario"), x, y + 8 * fs, 10, FALSE, fg, FALSE);
      record (hits, x, y + 8 * fs, w, 16 * fs, HR_CHART_CHANGE);
      return;
    }
  for (guint i = 0; i < MIN (n, MAX_CHANGES); i++)
    {
      const HrFieldChange *c = &changes[i];
      g_autofree char *values = g_strdup_printf ("%s → %s", c->before, c->after);
      const char *label = c->field->label != NULL ? _(c->field->label) : c->path;

      /* The last line that fits says how many more there are. */
      if (y + 2 * line > bottom && i + 1 < n)
        {
          g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                "and %u more field",
                                                                "and %u more fields", n - i),
                                                   n - i);

          w = draw_text (p, more, x, y + 8 * fs, 10, FALSE, fg, FALSE);
          record (hits, x, y + 8 * fs, w, 16 * fs, HR_CHART_CHANGE);
          return;
        }
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_width (p->layout, (int) (width * 0.55 * PANGO_SCALE));
      draw_text (p, label, x, y + 8 * fs, 10, FALSE, fg, FALSE);
      pango_layout_set_width (p->layout, (int) (width * 0.43 * PANGO_SCALE));
      w = draw_text (p, values, x + width, y + 8 * fs, 10, TRUE, fg, TRUE);
      pango_layout_set_width (p->layout, -1);
      pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
      record (hits, x, y + 8 * fs, width, 16 * fs, HR_CHART_CHANGE);
      y += line;
    }
  if (n > MAX_CHANGES && y + line <= bottom)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more field",
                                                            "and %u more fields",
                                                            n - MAX_CHANGES), n - MAX_CHANGES);

      w = draw_text (p, more, x, y + 8 * fs, 10, FALSE, fg, FALSE);
      record (hits, x, y + 8 * fs, w, 16 * fs, HR_CHART_CHANGE);
    }
}

/* How each category moves on the fullest GPU: pinned, now, difference. */
static void
draw_differences (Painter        *p,
                  const HrDevice *a,
                  const HrDevice *b,
                  double          x,
                  double          y,
                  double          width,
                  HrChartHits    *hits)
{
  const char *heads[] = { _("Fullest GPU"), _("Pinned"), _("Now"), _("Difference") };
  double fs = p->fs, line = 18 * fs, col[4], w;
  HrRgb fg = p->style->foreground;
  HrUnits units = p->style->units;

  /* The category's name, then three columns of sizes, right-aligned. */
  col[0] = x;
  col[1] = x + width * 0.58;
  col[2] = x + width * 0.79;
  col[3] = x + width;
  for (guint k = 0; k < 4; k++)
    {
      w = draw_text (p, heads[k], col[k], y + 8 * fs, k == 0 ? 12 : 10, TRUE, fg, k > 0);
      record (hits, k > 0 ? col[k] - w : col[k], y + 8 * fs, w, 16 * fs,
              HR_CHART_COMPARE_HEADING);
    }
  y += 26 * fs;
  for (guint c = 0; c <= HR_N_CATEGORIES; c++)
    {
      gboolean total = c == HR_N_CATEGORIES;
      double before = total ? (double) a->total_bytes : (double) a->category_bytes[c];
      double after = total ? (double) b->total_bytes : (double) b->category_bytes[c];
      g_autofree char *sa = hr_format_bytes (before, units);
      g_autofree char *sb = hr_format_bytes (after, units);
      g_autofree char *sd = hr_format_bytes (after - before, units);
      g_autofree char *signed_d = g_strdup_printf ("%s%s", after > before ? "+" : "", sd);
      /* More memory in the warning colour, less in the fitting one. */
      HrRgb dcol = after > before ? hr_chart_status_colour (HR_STATUS_OOM, p->style->dark)
                   : after < before ? hr_chart_status_colour (HR_STATUS_OK, p->style->dark) : fg;

      if (!total)
        {
          set_rgb (p->cr, hr_chart_category_colour (c, p->style->dark), 1.0);
          cairo_rectangle (p->cr, x, y + 2 * fs, 12 * fs, 12 * fs);
          cairo_fill (p->cr);
        }
      else
        {
          set_rgb (p->cr, fg, 0.4);
          cairo_rectangle (p->cr, x, y - 1 * fs, width, 1);
          cairo_fill (p->cr);
        }
      draw_text (p, total ? _("Total") : hr_category_label (c), x + (total ? 0 : 17 * fs),
                 y + 8 * fs, 10, total, fg, FALSE);
      draw_text (p, sa, col[1], y + 8 * fs, 10, total, fg, TRUE);
      draw_text (p, sb, col[2], y + 8 * fs, 10, total, fg, TRUE);
      draw_text (p, signed_d, col[3], y + 8 * fs, 10, TRUE, dcol, TRUE);
      record (hits, x, y + 8 * fs, width, 16 * fs, HR_CHART_DIFFERENCE);
      y += line;
    }
}

void
hr_compare_draw (cairo_t            *cr,
                 double              width,
                 double              height,
                 const HrScenario   *pinned,
                 const HrPlan       *pinned_plan,
                 const HrScenario   *now,
                 const HrPlan       *now_plan,
                 const HrChartStyle *style,
                 HrChartHits        *hits)
{
  Painter p = { cr, NULL, style, MAX (style->font_scale, 0.25) };
  const HrDevice *a, *b;
  double fs = p.fs, m = 16 * fs, scale, table_h, chart_h, y, col_w;

  g_return_if_fail (cr != NULL && pinned != NULL && pinned_plan != NULL && now != NULL
                    && now_plan != NULL && style != NULL);
  if (hits != NULL)
    hits->n_hits = hits->n_labels = 0;
  if (width < 200 || height < 200 || pinned_plan->n_devices == 0 || now_plan->n_devices == 0)
    return;

  a = hr_plan_binding (pinned_plan);
  b = hr_plan_binding (now_plan);
  /* One scale for both: the larger of the totals and the capacities. */
  scale = MAX (MAX ((double) a->total_bytes, (double) b->total_bytes),
               MAX ((double) pinned_plan->capacity_bytes, (double) now_plan->capacity_bytes))
          * 1.04;

  cairo_save (cr);
  p.layout = pango_cairo_create_layout (cr);
  if (style->paint_background)
    {
      set_rgb (cr, style->background, 1.0);
      cairo_paint (cr);
    }
  /* The tables' rows: a heading and six categories, or up to ten fields. */
  table_h = 26 * fs + (HR_N_CATEGORIES + 1) * 18 * fs + 2 * m;
  chart_h = (height - table_h) / 2;
  y = 0;
  draw_one (&p, _("Pinned"), pinned, pinned_plan, scale, width, y, chart_h, hits);
  y += chart_h;
  draw_one (&p, _("Now"), now, now_plan, scale, width, y, chart_h, hits);
  y += chart_h + m / 2;

  /* Side by side where there is room, else the categories alone. */
  if (width >= 720 * fs)
    {
      col_w = (width - 3 * m) / 2;
      draw_changes (&p, pinned, now, m, y, col_w, height - m, hits);
      draw_differences (&p, a, b, 2 * m + col_w, y, col_w, hits);
    }
  else
    draw_differences (&p, a, b, m, y, width - 2 * m, hits);

  g_object_unref (p.layout);
  cairo_restore (cr);
}
