/* test-suggest.c: what the suggestions offer, and what they say
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-calc checks that every suggestion plans as it says; this file
 * checks the ones a user looks for: the micro-batch that fits with the
 * same tokens per step, one suggestion per outcome, and the host RAM said
 * where it changes, not under every line.
 */

#include <string.h>

#include "hr-format.h"
#include "hr-suggest.h"
#include "hr-test-util.h"

static HrStatus
status_of (const HrScenario *sc)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();

  hr_test_plan (sc, plan);
  return plan->status;
}

static guint64
host_of (const HrScenario *sc)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();

  hr_test_plan (sc, plan);
  return plan->host_bytes_per_node;
}

static guint
suggest (const HrScenario *sc,
         HrSuggestion     *list)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  guint n = hr_suggest (sc, work, list, HR_MAX_SUGGESTIONS, &error);

  g_assert_no_error (error);
  return n;
}

/* The seed's example at micro-batch 32 does not fit; the suggestions
 * offer the largest micro-batch that does with the same tokens per step
 * (micro-batch x accumulation = 32): no larger divisor of 32 fits. */
static void
test_accumulation (void)
{
  HrSuggestion list[HR_MAX_SUGGESTIONS];
  const HrSuggestion *found = NULL;
  HrScenario sc;
  guint n;

  hr_test_load (&sc, "default");
  sc.training.micro_batch = 32;
  g_assert_cmpint (status_of (&sc), ==, HR_STATUS_OOM);
  n = suggest (&sc, list);
  for (guint i = 0; i < n && found == NULL; i++)
    if (strstr (list[i].title, "accumulation steps (same tokens per step)") != NULL)
      found = &list[i];
  g_assert_nonnull (found);
  g_test_message ("%s", found->title);
  g_assert_cmpint (found->status, ==, HR_STATUS_OK);
  g_assert_cmpuint (found->scenario.training.micro_batch * found->scenario.training.grad_accum,
                    ==, 32);
  g_assert_cmpuint (found->scenario.training.micro_batch, <, 32);
  for (guint64 b = found->scenario.training.micro_batch + 1; b < 32; b++)
    if (32 % b == 0)
      {
        HrScenario larger = sc;

        larger.training.micro_batch = b;
        larger.training.grad_accum = 32 / b;
        g_assert_cmpint (status_of (&larger), !=, HR_STATUS_OK);
      }
  {
    g_autofree char *title = g_strdup_printf ("Micro-batch %llu with %llu accumulation steps "
                                              "(same tokens per step)",
                                              (unsigned long long) found->scenario.training.micro_batch,
                                              (unsigned long long) found->scenario.training.grad_accum);

    g_assert_cmpstr (found->title, ==, title);
  }
  /* The cheapest fix that fits: nothing that fits is ranked before it. */
  g_assert_true (found == &list[0]);

  /* Two accumulation steps already: still the same tokens, 2 x 32. */
  sc.training.grad_accum = 2;
  n = suggest (&sc, list);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (list[0].scenario.training.micro_batch * list[0].scenario.training.grad_accum,
                    ==, 64);
}

/* No two suggestions make the same scenario (halving 32 to 16 with two
 * steps is the fitting micro-batch when 16 fits). */
static void
test_no_duplicates (void)
{
  static const guint64 batches[] = { 8, 16, 32, 64 };

  for (guint k = 0; k < G_N_ELEMENTS (batches); k++)
    {
      HrSuggestion list[HR_MAX_SUGGESTIONS];
      HrScenario sc;
      guint n;

      hr_test_load (&sc, "default");
      sc.training.micro_batch = batches[k];
      sc.training.checkpointing = HR_CHECKPOINTING_NONE;
      n = suggest (&sc, list);
      for (guint i = 0; i < n; i++)
        for (guint j = i + 1; j < n; j++)
          g_assert_false (memcmp (&list[i].scenario, &list[j].scenario, sizeof sc) == 0);
    }
}

/* The host RAM is named where a change changes it: under an offload when
 * nothing was offloaded, and not under every suggestion of a plan that
 * offloads already (its verdict says it once). */
static void
test_host_ram_once (void)
{
  HrSuggestion list[HR_MAX_SUGGESTIONS];
  HrScenario sc;
  guint n, named = 0;

  hr_test_load (&sc, "default");
  sc.training.micro_batch = 32;
  n = suggest (&sc, list);
  for (guint i = 0; i < n; i++)
    {
      gboolean says = strstr (list[i].cost, "host RAM per node") != NULL;

      g_assert_cmpint (says, ==, host_of (&list[i].scenario) > 0);
      named += says;
    }
  g_assert_cmpuint (named, >=, 1);   /* the optimizer's offload */
  g_assert_cmpuint (named, <, n);

  sc.parallel.offload_optimizer = TRUE;
  g_assert_cmpuint (host_of (&sc), >, 0);
  n = suggest (&sc, list);
  g_assert_cmpuint (n, >, 2);
  named = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *was = hr_format_bytes ((double) host_of (&sc), HR_UNITS_BINARY);
      g_autofree char *now = hr_format_bytes ((double) host_of (&list[i].scenario),
                                              HR_UNITS_BINARY);
      gboolean says = strstr (list[i].cost, "host RAM") != NULL;

      g_test_message ("%s: %s", list[i].title, list[i].cost);
      g_assert_cmpint (says, ==, !g_str_equal (was, now));
      named += says;
    }
  g_assert_cmpuint (named, <, n);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/suggest/accumulation", test_accumulation);
  g_test_add_func ("/suggest/no-duplicates", test_no_duplicates);
  g_test_add_func ("/suggest/host-ram-once", test_host_ram_once);
  return g_test_run ();
}
