/* test-calibration.c: plans against measured peaks of real training runs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/data/measured-calibration.json is ../shared/data/measured-
 * calibration.json with, per entry, a "scenario" object for what its
 * fields cannot say (gradient accumulation from the run's config, the
 * CUDA context the same document measured), each with its source, followed
 * by runs found in public sources ("origin": "public-source": later rows of
 * LitGPT's table, the 8-bit rows of torchao's), held out: none was looked
 * at while the effects were modelled.  One line per entry;
 * the test fails when, in either set, the median absolute error or the
 * worst one exceeds its threshold.
 */

#include <math.h>

#include "hr-format.h"
#include "hr-measured.h"
#include "hr-test-util.h"

/* The bar: the median absolute error within 6 %, every entry
 * within 20 %. */
#define MAX_MEDIAN_ERROR 0.06
#define MAX_WORST_ERROR 0.20

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median and the worst absolute error of the runs whose origin is
 * (or is not) empty; prints one line per run. */
static void
summarise (GPtrArray  *runs,
           gboolean    public_source,
           const char *title,
           double     *median,
           double     *worst)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));

  *worst = 0;
  printf ("# %s\n", title);
  for (guint i = 0; i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double e = fabs (run->error);

      if ((run->origin[0] != '\0') != public_source)
        continue;
      g_array_append_val (errors, e);
      *worst = MAX (*worst, e);
      printf ("# %-40s predicted %7.3f GiB  measured %7.3f GiB  error %+6.1f %%\n", run->id,
              run->predicted_bytes / HR_GIB, run->measured_bytes / HR_GIB, 100 * run->error);
    }
  g_assert_cmpuint (errors->len, >, 0);
  g_array_sort (errors, compare_double);
  *median = (g_array_index (errors, double, (errors->len - 1) / 2)
             + g_array_index (errors, double, errors->len / 2)) / 2;
  printf ("# %u runs: median absolute error %.1f %%, worst %.1f %%\n", errors->len,
          100 * *median, 100 * *worst);
}

static void
test_measured_runs (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "measured-calibration.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_measured_load (path, presets, skipped, &error);
  double median, worst;

  g_assert_no_error (error);
  for (guint i = 0; i < skipped->len; i++)
    g_test_message ("skipped: %s", (char *) g_ptr_array_index (skipped, i));
  g_assert_cmpuint (skipped->len, ==, 0);
  g_assert_cmpuint (runs->len, ==, 29);

  summarise (runs, FALSE, "the calibration set (../shared/data/measured-calibration.json)",
             &median, &worst);
  g_assert_cmpfloat (median, <=, MAX_MEDIAN_ERROR);
  g_assert_cmpfloat (worst, <=, MAX_WORST_ERROR);

  summarise (runs, TRUE, "held-out runs from public sources", &median, &worst);
  g_assert_cmpfloat (median, <=, MAX_MEDIAN_ERROR);
  g_assert_cmpfloat (worst, <=, MAX_WORST_ERROR);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calibration/measured-runs", test_measured_runs);
  return g_test_run ();
}
