/* hr-report-page.c: the one-page report, for a slide
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The verdict in large type, the chart the window shows, then two columns:
 * the settings that decide the memory and the assumptions behind the
 * numbers, stamped with the app's version (UX-LESSONS.md point 10).
 */

#include "hr-report-page.h"
#include "hr-chart-private.h"
#include "hr-cost.h"
#include "hr-render-png.h"

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

static double
paragraph (cairo_t            *cr,
           PangoLayout        *layout,
           const HrChartStyle *style,
           const char         *markup,
           double              x,
           double              y,
           double              width,
           double              size)
{
  int w, h;

  hr_chart_set_font (layout, style, size, FALSE);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  return h;
}

void
hr_report_draw_page (cairo_t            *cr,
                     double              width,
                     double              height,
                     const HrScenario   *sc,
                     const HrPlan       *plan,
                     const HrChartStyle *style)
{
  double fs = MAX (style->font_scale, 0.25), m = 32 * fs, y = m, col = (width - 3 * m) / 2;
  PangoLayout *layout;
  HrChartStyle chart_style = *style;
  HrRgb status = hr_chart_status_colour (plan->status, style->dark);
  const HrDevice *d = hr_plan_binding (plan);
  g_autofree char *summary = hr_plan_summary (sc, plan, style->units);
  g_autofree char *title = NULL;
  g_autofree char *verdict = NULL;
  g_autofree char *params = hr_format_count ((double) plan->params);
  g_autofree char *trainable = hr_format_count ((double) plan->trainable_params);
  g_autofree char *allocated = hr_format_bytes ((double) d->allocated_bytes, style->units);
  g_autofree char *reserved = hr_format_bytes ((double) d->reserved_bytes, style->units);
  g_autofree char *total = hr_format_bytes ((double) d->total_bytes, style->units);
  g_autofree char *settings = NULL;
  g_autofree char *assumptions = NULL;
  g_autofree char *cost_line = NULL;
  g_autofree char *frag = hr_format_double (sc->overhead.fragmentation * 100, 0);
  g_autofree char *date = NULL;
  GDateTime *now = g_date_time_new_now_local ();
  double h;
  HrCostEstimate est;

  cairo_save (cr);
  if (style->paint_background)
    {
      cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
      cairo_paint (cr);
    }
  layout = pango_cairo_create_layout (cr);

  cairo_set_source_rgb (cr, style->foreground.r, style->foreground.g, style->foreground.b);
  title = g_markup_printf_escaped ("<b>%s</b>", sc->name);
  y += paragraph (cr, layout, style, title, m, y, width - 2 * m, 26 * fs) + 6 * fs;
  cairo_set_source_rgb (cr, status.r, status.g, status.b);
  verdict = g_markup_printf_escaped ("<b>%s %s</b>", plan->status == HR_STATUS_OK ? "✓"
                                     : plan->status == HR_STATUS_TIGHT ? "⚠" : "✗", summary);
  y += paragraph (cr, layout, style, verdict, m, y, width - 2 * m, 20 * fs) + 12 * fs;

  /* The chart, as the window draws it. */
  chart_style.show_title = FALSE;
  chart_style.paint_background = FALSE;
  cairo_save (cr);
  cairo_translate (cr, m - 16 * fs, y);
  hr_chart_draw (cr, width - 2 * m + 32 * fs, height * 0.5, sc, plan, &chart_style, NULL);
  cairo_restore (cr);
  y += height * 0.5 + 8 * fs;

  hr_cost_estimate (sc, plan, &est);
  if (est.known)
    cost_line = hr_cost_sentence (sc, &est);

  /* TRANSLATORS: the report's "Key settings" column, in Pango markup */
  settings = g_markup_printf_escaped (
    _("<b>Key settings</b>\n"
      "Model: %s, %s parameters, %s trainable (%s)\n"
      "Precision %s, optimizer %s\n"
      "Micro-batch %llu × %llu tokens, gradient accumulation %llu, %s checkpointing\n"
      "%llu × %s: data %llu, tensor %llu, pipeline %llu, ZeRO stage %llu\n"
      "Fullest GPU: allocated %s, reserved %s, total %s\n%s"),
    sc->model.name, params, trainable, hr_enum_name (&hr_method_names, sc->training.method),
    hr_enum_name (&hr_precision_names, sc->training.precision),
    hr_enum_name (&hr_optimizer_names, sc->training.optimizer),
    (unsigned long long) sc->training.micro_batch, (unsigned long long) sc->training.seq_len,
    (unsigned long long) sc->training.grad_accum,
    hr_enum_name (&hr_checkpointing_names, sc->training.checkpointing),
    (unsigned long long) sc->parallel.gpus, sc->gpu.name,
    (unsigned long long) hr_parallel_dp_degree (&sc->parallel), (unsigned long long) sc->parallel.tp,
    (unsigned long long) sc->parallel.pp, (unsigned long long) sc->parallel.zero,
    allocated, reserved, total,
    cost_line != NULL ? cost_line : "");
  date = g_date_time_format (now, "%Y-%m-%d");
  assumptions = g_markup_printf_escaped (
    _("<b>Assumptions</b>\n"
      "CUDA context %.0f MiB and communication buffers per GPU; allocator fragmentation %s %% "
      "of the allocated memory; wanted free memory %d %%.\n"
      "Allocated is the peak of live tensors (torch.cuda.max_memory_allocated), reserved adds "
      "the allocator's cache, total adds what nvidia-smi sees outside PyTorch.\n"
      "Planned with Headroom %s on %s."),
    sc->overhead.cuda_context_mib, frag, (int) (sc->overhead.headroom * 100 + 0.5),
    PACKAGE_VERSION, date);
  g_date_time_unref (now);

  cairo_set_source_rgb (cr, style->foreground.r, style->foreground.g, style->foreground.b);
  h = paragraph (cr, layout, style, settings, m, y, col, 13 * fs);
  h = MAX (h, paragraph (cr, layout, style, assumptions, 2 * m + col, y, col, 13 * fs));
  (void) h;

  g_object_unref (layout);
  cairo_restore (cr);
}

typedef struct
{
  const HrScenario *scenario;
  const HrPlan     *plan;
  HrChartStyle      style;
} PageData;

static void
paint_page (cairo_t  *cr,
            double    width,
            double    height,
            gpointer  data)
{
  PageData *page = data;

  hr_report_draw_page (cr, width, height, page->scenario, page->plan, &page->style);
}

gboolean
hr_report_write_png (const char        *path,
                     const HrScenario  *scenario,
                     const HrPlan      *plan,
                     HrUnits            units,
                     GError           **error)
{
  PageData page = { scenario, plan };

  hr_chart_style_init_light (&page.style);
  page.style.units = units;
  page.style.paint_background = TRUE;
  return hr_write_png_atomic (path, hr_export_settings.width, hr_export_settings.height,
                              hr_export_settings.scale, paint_page, &page, error);
}
