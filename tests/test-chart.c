/* test-chart.c: the charts' axes in round numbers, their labels legible
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ticks are multiples of a step of 1, 2 or 5 times a power of ten (sizes)
 * or of a power of two (micro-batches, sequence lengths), never "17, 34,
 * 51" or "1, 4, 7, 10", which is what the sweep chart drew before; and
 * the per-GPU chart's labels are drawn over everything else.
 */

#include <math.h>

#include "hr-chart-ticks.h"
#include "hr-compare-chart.h"
#include "hr-scenario-diff.h"
#include "hr-sweep-chart.h"
#include "hr-test-util.h"

static void
assert_ticks (double       lo,
              double       hi,
              guint        about,
              HrTickSteps  steps,
              const double *expected,
              guint        n_expected)
{
  double ticks[HR_CHART_MAX_TICKS];
  guint n = hr_chart_ticks (lo, hi, about, steps, ticks);

  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (ticks[i], ==, expected[i]);
}

static void
test_examples (void)
{
  /* The sweep's sizes before: 0.0, 17, 34, 51, 68, 85. */
  assert_ticks (0, 85, 5, HR_TICKS_DECIMAL, (double[]) { 0, 20, 40, 60, 80 }, 5);
  assert_ticks (0, 85, 8, HR_TICKS_DECIMAL, (double[]) { 0, 10, 20, 30, 40, 50, 60, 70, 80 }, 9);
  assert_ticks (0, 0.73, 5, HR_TICKS_DECIMAL,
                (double[]) { 0, 0.1, 0.2, 3 * 0.1, 0.4, 0.5, 6 * 0.1, 7 * 0.1 }, 8);
  assert_ticks (0, 1300, 6, HR_TICKS_DECIMAL, (double[]) { 0, 200, 400, 600, 800, 1000, 1200 }, 7);
  /* The micro-batches before: 1, 4, 7, 10, 13. */
  assert_ticks (1, 15, 6, HR_TICKS_POWERS_OF_TWO, (double[]) { 4, 8, 12 }, 3);
  assert_ticks (1, 15, 8, HR_TICKS_POWERS_OF_TWO, (double[]) { 2, 4, 6, 8, 10, 12, 14 }, 7);
  assert_ticks (1, 3, 6, HR_TICKS_POWERS_OF_TWO, (double[]) { 1, 2, 3 }, 3);
  assert_ticks (128, 16000, 8, HR_TICKS_POWERS_OF_TWO,
                (double[]) { 2048, 4096, 6144, 8192, 10240, 12288, 14336 }, 7);
  /* Nothing to tick. */
  assert_ticks (5, 4, 6, HR_TICKS_DECIMAL, NULL, 0);
  assert_ticks (0, INFINITY, 6, HR_TICKS_DECIMAL, NULL, 0);
}

/* Over ranges of every magnitude: the ticks are the step's multiples in
 * the range, the step is round, and there are neither too few nor more
 * than asked for (powers of two) or about as many (decimal). */
static void
test_every_range (void)
{
  GRand *rand = g_rand_new_with_seed (16);

  for (guint trial = 0; trial < 2000; trial++)
    {
      double hi = exp (g_rand_double_range (rand, log (1e-3), log (1e12)));
      double lo = g_rand_boolean (rand) ? 0 : hi * g_rand_double_range (rand, 0, 0.9);
      guint about = g_rand_int_range (rand, 2, 11);
      HrTickSteps steps = g_rand_boolean (rand) ? HR_TICKS_DECIMAL : HR_TICKS_POWERS_OF_TWO;
      double ticks[HR_CHART_MAX_TICKS];
      guint n = hr_chart_ticks (lo, hi, about, steps, ticks);
      double step;

      step = n >= 2 ? ticks[1] - ticks[0] : hr_chart_tick_step (hi - lo, about, steps);

      if (steps == HR_TICKS_POWERS_OF_TWO)
        {
          g_assert_cmpfloat (step, >=, 1);
          g_assert_cmpfloat (exp2 (round (log2 (step))), ==, step);
          g_assert_cmpuint (n, <=, MAX (about + 1, 4));
        }
      else
        {
          double mantissa = step / pow (10, floor (log10 (step) + 1e-9));

          g_assert_true (fabs (mantissa - 1) < 1e-9 || fabs (mantissa - 2) < 1e-9
                         || fabs (mantissa - 5) < 1e-9);
          g_assert_cmpuint (n, >=, about / 2);
          g_assert_cmpuint (n, <=, 2 * about + 1);
        }
      if (hi - lo >= 2 && n < 2)
        g_error ("%g to %g, about %u, %s: %u ticks", lo, hi, about,
                 steps == HR_TICKS_DECIMAL ? "decimal" : "powers of two", n);
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpfloat (ticks[i], >=, lo - 1e-9 * step);
          g_assert_cmpfloat (ticks[i], <=, hi * (1 + 1e-9) + 1e-9);
          g_assert_cmpfloat (fabs (ticks[i] / step - round (ticks[i] / step)), <, 1e-6);
          if (i > 0)
            g_assert_cmpfloat (fabs (ticks[i] - ticks[i - 1] - step), <, 1e-6 * step);
        }
    }
  g_rand_free (rand);
}

/* The sweep of the seed's example (13B, ZeRO-3, 8x H100) at the size
 * headroom-cli --png draws: micro-batches 2, 4, ..., 14 and 0 to 80 GiB in
 * tens. */
static void
test_sweep_axes (void)
{
  HrScenario sc;
  HrChartStyle style;
  HrSweepTicks ticks;
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autofree HrSweep *sweep = g_new0 (HrSweep, 1);
  g_autoptr(GError) error = NULL;

  hr_test_load (&sc, "default");
  hr_chart_style_init_light (&style);
  g_assert_true (hr_sweep_compute (&sc, HR_SWEEP_MICRO_BATCH, plan, sweep, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sweep->last_fitting, ==, 12);
  hr_sweep_ticks (sweep, &style, 1600, 900, &ticks);
  g_assert_cmpfloat (ticks.xmin, ==, 1);
  g_assert_cmpfloat (ticks.xmax, ==, 15);
  g_assert_cmpuint (ticks.n_x, ==, 7);
  for (guint i = 0; i < ticks.n_x; i++)
    g_assert_cmpfloat (ticks.x[i], ==, 2.0 * (i + 1));
  g_assert_cmpuint (ticks.n_y, ==, 9);
  for (guint i = 0; i < ticks.n_y; i++)
    g_assert_cmpfloat (ticks.y[i], ==, 10.0 * i);

  /* A narrow chart: fewer, still round. */
  hr_sweep_ticks (sweep, &style, 420, 300, &ticks);
  g_assert_cmpuint (ticks.n_x, ==, 3);
  g_assert_cmpfloat (ticks.x[0], ==, 4);
  g_assert_cmpfloat (ticks.x[2], ==, 12);
  /* the plot less the markers' row above it: two rows of sizes */
  g_assert_cmpfloat (ticks.y[1], ==, 50);
}

/* Pixels in a rectangle of an ARGB32 surface near an RGB colour. */
static guint
count_colour (cairo_surface_t *surface,
              double           x,
              double           y,
              double           w,
              double           h,
              HrRgb            c)
{
  const guchar *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint n = 0;

  cairo_surface_flush (surface);
  for (int py = (int) ceil (y); py < (int) floor (y + h); py++)
    for (int px = (int) ceil (x); px < (int) floor (x + w); px++)
      {
        const guchar *p = data + (gsize) py * stride + px * 4;   /* B G R A */

        n += fabs (p[2] / 255.0 - c.r) < 0.12 && fabs (p[1] / 255.0 - c.g) < 0.12
             && fabs (p[0] / 255.0 - c.b) < 0.12;
      }
  return n;
}

/* Over capacity, the hatching and the capacity line run across the bar;
 * the labels of the segments they cross are drawn after them, on a plate
 * of their colour: not one pixel of the hatching's red inside a label. */
static void
test_labels_over_hatching (void)
{
  HrScenario sc;
  HrChartStyle style;
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autofree HrChartHits *hits = g_new0 (HrChartHits, 1);
  HrRgb red;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 900);
  cairo_t *cr = cairo_create (surface);
  guint past_capacity = 0;

  hr_test_load (&sc, "default");
  sc.training.micro_batch = 32;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  hr_test_plan (&sc, plan);
  g_assert_false (plan->fits);
  hr_chart_style_init_light (&style);
  style.paint_background = TRUE;
  red = hr_chart_status_colour (HR_STATUS_OOM, FALSE);
  hr_chart_draw (cr, 1600, 900, &sc, plan, &style, hits);
  cairo_destroy (cr);

  g_assert_cmpuint (hits->n_labels, >=, 2);
  for (guint i = 0; i < hits->n_labels; i++)
    {
      const HrChartHit *l = &hits->labels[i];
      double cx;

      if (l->kind != HR_CHART_SEGMENT)
        continue;   /* the verdict is in the warning colour itself */
      cx = hits->hits[0].x + (double) plan->capacity_bytes
                  * (hits->hits[0].width / (double) plan->devices[0].category_bytes[hits->hits[0].category]);

      past_capacity += l->x + l->width > cx;
      g_test_message ("label %u (%s) at x %.0f..%.0f, capacity at %.0f", i,
                      hr_category_label (l->category), l->x, l->x + l->width, cx);
      g_assert_cmpuint (count_colour (surface, l->x, l->y, l->width, l->height, red), ==, 0);
    }
  /* The activations' label crosses the line, the overhead's lies on the hatching. */
  g_assert_cmpuint (past_capacity, >=, 2);
  cairo_surface_destroy (surface);
}

static guint n_numbers;

/* A stand-in for the locale's format: "36.8" is written "36,8". */
static char *
comma_number (const char *ascii)
{
  n_numbers++;
  return g_strdelimit (g_strdup (ascii), ".", ',');
}

/* The per-GPU chart from a laptop's width down to a phone's: every name,
 * verdict and capacity label lies within the chart, one verdict per GPU;
 * below about 700 points the names and verdicts go on a line above each
 * bar.  Numbers go through the style's format when it has one. */
static void
test_narrow (void)
{
  static const int widths[] = { 360, 480, 600, 700, 900, 1600 };
  const char *dir = g_getenv ("HEADROOM_TEST_CHARTS");
  HrScenario scenarios[3];
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autofree HrChartHits *hits = g_new0 (HrChartHits, 1);
  HrChartStyle style;

  hr_test_load (&scenarios[0], "default");
  scenarios[1] = scenarios[0];
  scenarios[1].training.micro_batch = 32;
  scenarios[1].training.checkpointing = HR_CHECKPOINTING_NONE;
  scenarios[2] = scenarios[0];
  scenarios[2].parallel.gpus = 16;
  scenarios[2].parallel.pp = 2;
  hr_chart_style_init_light (&style);
  style.paint_background = TRUE;
  for (guint s = 0; s < G_N_ELEMENTS (scenarios); s++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        int width = widths[w], height = 640;
        cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
        cairo_t *cr = cairo_create (surface);
        guint verdicts = 0, names = 0;

        hr_test_plan (&scenarios[s], plan);
        hr_chart_draw (cr, width, height, &scenarios[s], plan, &style, hits);
        cairo_destroy (cr);
        if (dir != NULL)
          {
            g_autofree char *path = g_strdup_printf ("%s/chart-%u-%d.png", dir, s, width);

            cairo_surface_write_to_png (surface, path);
          }
        cairo_surface_destroy (surface);
        for (guint i = 0; i < hits->n_labels; i++)
          {
            const HrChartHit *l = &hits->labels[i];

            if (l->kind == HR_CHART_SEGMENT)
              continue;
            if (l->x < 0 || l->x + l->width > width)
              g_error ("scenario %u, %d wide: a text (kind %d) at x %.0f..%.0f", s, width, l->kind,
                       l->x, l->x + l->width);
            verdicts += l->kind == HR_CHART_VERDICT;
            names += l->kind == HR_CHART_DEVICE_NAME;
          }
        g_assert_cmpuint (verdicts, ==, plan->n_devices);
        g_assert_cmpuint (names, ==, plan->n_devices);
      }

  /* The locale's format, where the style has one; none by default. */
  n_numbers = 0;
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 600);
    cairo_t *cr = cairo_create (surface);

    hr_test_plan (&scenarios[0], plan);
    hr_chart_draw (cr, 800, 600, &scenarios[0], plan, &style, hits);
    g_assert_cmpuint (n_numbers, ==, 0);
    style.number = comma_number;
    hr_chart_draw (cr, 800, 600, &scenarios[0], plan, &style, hits);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  /* The axis' ticks, the verdict's amount and share, the capacity, the
   * segments' and the breakdown's sizes. */
  g_test_message ("%u numbers through the style's format", n_numbers);
  g_assert_cmpuint (n_numbers, >=, 20);
}

/* The breakdown's columns take the width their lines need: at the
 * window's chart size (about 880 points beside the form at 1280) no item
 * of the seed's example is cut short, where three equal columns cut two
 * ("gathered weights (reuse + prefetch)", "log-probabilities (saved by
 * the loss)"); on a phone's width, where one column cannot hold them,
 * the names wrap where the height has room for their lines, and are cut
 * (and counted) where it has not. */
static void
test_breakdown_names_whole (void)
{
  HrScenario sc;
  HrChartStyle style;
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autofree HrChartHits *hits = g_new0 (HrChartHits, 1);
  static const int widths[] = { 880, 1000, 1280, 1600 };

  hr_test_load (&sc, "default");
  hr_test_plan (&sc, plan);
  hr_chart_style_init_light (&style);
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, widths[i], 600);
      cairo_t *cr = cairo_create (surface);

      hr_chart_draw (cr, widths[i], 600, &sc, plan, &style, hits);
      g_test_message ("%d points wide: %u names cut", widths[i], hits->n_cut_names);
      g_assert_cmpuint (hits->n_cut_names, ==, 0);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 260, 900);
    cairo_t *cr = cairo_create (surface);
    double need = hr_chart_height (cr, 260, &sc, plan, &style);

    hr_chart_draw (cr, 260, need, &sc, plan, &style, hits);
    g_test_message ("260 points wide, %.0f high: %u names cut", need, hits->n_cut_names);
    g_assert_cmpuint (hits->n_cut_names, ==, 0);
    hr_chart_draw (cr, 260, need - 150, &sc, plan, &style, hits);
    g_test_message ("260 points wide, %.0f high: %u names cut", need - 150, hits->n_cut_names);
    g_assert_cmpuint (hits->n_cut_names, >, 0);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
}

/* The lowest point of anything drawn: the bars' segments and the texts
 * recorded. */
static double
lowest_bar (const HrChartHits *hits)
{
  double bottom = 0;

  for (guint i = 0; i < hits->n_hits; i++)
    bottom = MAX (bottom, hits->hits[i].y + hits->hits[i].height);
  return bottom;
}

/* hr_chart_height: at the window's text scale (1.33: 11-point text as
 * large as Cantarell 11 pt) and at 1, on a phone's, a half window's and
 * a wide window's width, the chart at the height it asks for shows every
 * bar, every text within it and every breakdown name whole, with or
 * without the breakdown; drawn taller, its bars grow (to half as thick
 * again), so a tall pane is not left blank below the chart (the bars
 * alone, as the Compare view shows them, keep their thickness). */
static void
test_height (void)
{
  static const int widths[] = { 300, 360, 600, 880, 1280 };
  static const double scales[] = { 1.0, 14.667 / 11 };
  HrScenario scenarios[2];
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autofree HrChartHits *hits = g_new0 (HrChartHits, 1);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);

  hr_test_load (&scenarios[0], "default");
  scenarios[1] = scenarios[0];
  scenarios[1].parallel.gpus = 16;
  scenarios[1].parallel.pp = 4;
  for (guint s = 0; s < G_N_ELEMENTS (scenarios); s++)
    for (guint f = 0; f < G_N_ELEMENTS (scales); f++)
      for (guint b = 0; b < 2; b++)
        for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
          {
            HrChartStyle style;
            double width = widths[w], height, thick, thicker;

            hr_test_plan (&scenarios[s], plan);
            hr_chart_style_init_light (&style);
            style.show_title = FALSE;
            style.font_scale = scales[f];
            style.hide_breakdown = b;
            height = hr_chart_height (cr, width, &scenarios[s], plan, &style);
            hr_chart_draw (cr, width, height, &scenarios[s], plan, &style, hits);
            g_test_message ("scenario %u, scale %.2f, breakdown %d, %.0f wide: %.0f high", s,
                            scales[f], !b, width, height);
            g_assert_cmpuint (hits->n_cut_names, ==, 0);
            g_assert_cmpuint (hits->n_hits, >=, plan->n_devices);
            for (guint i = 0; i < hits->n_labels; i++)
              {
                const HrChartHit *l = &hits->labels[i];

                if (l->x < -0.5 || l->x + l->width > width + 0.5 || l->y < -0.5
                    || l->y + l->height > height + 0.5)
                  g_error ("a text (kind %d) at %.0f,%.0f %.0fx%.0f, outside %.0fx%.0f", l->kind,
                           l->x, l->y, l->width, l->height, width, height);
              }
            thick = hits->hits[0].height;
            g_assert_cmpfloat (lowest_bar (hits), <=, height);
            hr_chart_draw (cr, width, height + 300, &scenarios[s], plan, &style, hits);
            thicker = hits->hits[0].height;
            if (b)
              g_assert_cmpfloat (thicker, ==, thick);
            else
              {
                g_assert_cmpfloat (thicker, >, thick * 1.2);
                g_assert_cmpfloat (thicker, <=, thick * 1.5 + 2);
              }
          }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* Which fields differ, as a file writes them, in the form's order. */
static void
test_scenario_diff (void)
{
  HrScenario a, b;
  HrFieldChange changes[8];

  hr_test_load (&a, "default");
  b = a;
  g_assert_cmpuint (hr_scenario_diff (&a, &b, changes, G_N_ELEMENTS (changes)), ==, 0);
  b.training.micro_batch = 8;
  b.parallel.gpus = 16;
  b.training.dtypes.master = HR_DTYPE_NONE;
  b.overhead.headroom = 0.15;
  g_assert_cmpuint (hr_scenario_diff (&a, &b, changes, G_N_ELEMENTS (changes)), ==, 4);
  g_assert_cmpstr (changes[0].path, ==, "training.micro_batch");
  g_assert_cmpstr (changes[0].before, ==, "4");
  g_assert_cmpstr (changes[0].after, ==, "8");
  g_assert_cmpstr (changes[0].field->label, ==, "Micro-batch");
  g_assert_cmpstr (changes[1].path, ==, "training.dtypes.master");
  g_assert_cmpstr (changes[1].before, ==, "fp32");
  g_assert_cmpstr (changes[1].after, ==, "none");
  g_assert_cmpstr (changes[2].path, ==, "parallel.gpus");
  g_assert_cmpstr (changes[3].path, ==, "overhead.headroom");
  g_assert_cmpstr (changes[3].before, ==, "0.1");
  g_assert_cmpstr (changes[3].after, ==, "0.15");
  /* More than asked for: counted, not written. */
  g_assert_cmpuint (hr_scenario_diff (&a, &b, changes, 1), ==, 4);
  g_assert_cmpstr (changes[0].path, ==, "training.micro_batch");

  /* Another model: its name and every size that differs. */
  hr_test_model (&b, "llama-2-70b");
  g_assert_cmpuint (hr_scenario_diff (&a, &b, changes, G_N_ELEMENTS (changes)), >=, 4);
  g_assert_cmpstr (changes[0].path, ==, "model.name");
  g_assert_cmpstr (changes[0].after, ==, "Llama 2 70B");
}

/* The Compare page: "Pinned" and "Now" over their charts, what changed
 * and how each category moves, all within the page. */
static void
test_compare_page (void)
{
  HrScenario a, b;
  g_autoptr(HrPlan) pa = hr_plan_new ();
  g_autoptr(HrPlan) pb = hr_plan_new ();
  g_autofree HrChartHits *hits = g_new0 (HrChartHits, 1);
  HrChartStyle style;
  const char *dir = g_getenv ("HEADROOM_TEST_CHARTS");
  static const struct { int width, height; double fs; guint changes; } sizes[] = {
    { 1600, 900, 1.25, 1 },   /* the window's export */
    { 640, 900, 1.0, 0 },     /* narrow: the categories alone */
  };

  hr_test_load (&a, "default");
  b = a;
  b.training.micro_batch = 8;
  hr_test_plan (&a, pa);
  hr_test_plan (&b, pb);
  hr_chart_style_init_light (&style);
  style.paint_background = TRUE;
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, sizes[s].width,
                                                             sizes[s].height);
      cairo_t *cr = cairo_create (surface);
      guint headings = 0, changes = 0, rows = 0;

      style.font_scale = sizes[s].fs;
      hr_compare_draw (cr, sizes[s].width, sizes[s].height, &a, pa, &b, pb, &style, hits);
      cairo_destroy (cr);
      if (dir != NULL)
        {
          g_autofree char *path = g_strdup_printf ("%s/compare-%d.png", dir, sizes[s].width);

          cairo_surface_write_to_png (surface, path);
        }
      cairo_surface_destroy (surface);
      for (guint i = 0; i < hits->n_labels; i++)
        {
          const HrChartHit *l = &hits->labels[i];

          g_assert_cmpfloat (l->x, >=, 0);
          g_assert_cmpfloat (l->x + l->width, <=, sizes[s].width);
          g_assert_cmpfloat (l->y + l->height, <=, sizes[s].height);
          headings += l->kind == HR_CHART_COMPARE_HEADING;
          changes += l->kind == HR_CHART_CHANGE;
          rows += l->kind == HR_CHART_DIFFERENCE;
        }
      /* Pinned, Now, the four columns' headings, and "What changed" */
      g_assert_cmpuint (headings, ==, 2 + 4 + sizes[s].changes);
      g_assert_cmpuint (changes, ==, sizes[s].changes);
      g_assert_cmpuint (rows, ==, HR_N_CATEGORIES + 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chart/ticks/examples", test_examples);
  g_test_add_func ("/chart/ticks/every-range", test_every_range);
  g_test_add_func ("/chart/ticks/sweep-axes", test_sweep_axes);
  g_test_add_func ("/chart/labels-over-hatching", test_labels_over_hatching);
  g_test_add_func ("/chart/narrow", test_narrow);
  g_test_add_func ("/chart/breakdown-names-whole", test_breakdown_names_whole);
  g_test_add_func ("/chart/height", test_height);
  g_test_add_func ("/chart/scenario-diff", test_scenario_diff);
  g_test_add_func ("/chart/compare-page", test_compare_page);
  return g_test_run ();
}
