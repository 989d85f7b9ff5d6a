/* hr-solver.c: the largest micro-batch or sequence, the fewest GPUs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Memory grows with the micro-batch and the sequence, and does not grow
 * as ZeRO/FSDP shard over more data-parallel GPUs, so each answer is the
 * edge of a monotonic predicate: found by doubling, then bisection, in
 * about 2·log2(range) plans (some tens of microseconds).
 */

#include "hr-solver.h"
#include "hr-calc.h"
#include "hr-validate.h"

static const char * const solve_list[] = { "max-micro-batch", "max-seq-len", "min-gpus" };
const HrEnumNames hr_solve_names = { solve_list, G_N_ELEMENTS (solve_list) };

typedef struct
{
  HrScenario  trial;
  HrSolve     solve;
  guint64     unit;     /* min-gpus: GPUs come in multiples of this */
  HrPlan     *plan;
} Search;

static void
set_value (Search  *s,
           guint64  v)
{
  switch (s->solve)
    {
    case HR_SOLVE_MAX_MICRO_BATCH:
      s->trial.training.micro_batch = v;
      break;
    case HR_SOLVE_MAX_SEQ_LEN:
      s->trial.training.seq_len = v;
      break;
    case HR_SOLVE_MIN_GPUS:
    case HR_N_SOLVES:
    default:
      s->trial.parallel.gpus = v * s->unit;
      break;
    }
}

/* Fits with the wanted headroom; invalid trials (a sequence shorter than
 * cp, say) do not fit. */
static gboolean
fits (Search  *s,
      guint64  v)
{
  set_value (s, v);
  if (!hr_calc_plan (&s->trial, s->plan, NULL))
    return FALSE;
  return s->plan->status == HR_STATUS_OK;
}

/* The largest v in [1, max] with fits(v), for a predicate true up to
 * some edge and false after it; 0 when fits(1) is false. */
static guint64
largest_fitting (Search  *s,
                 guint64  max)
{
  guint64 lo = 1, hi;

  if (!fits (s, 1))
    return 0;
  while (lo < max)
    {
      guint64 next = MIN (lo * 2, max);

      if (!fits (s, next))
        {
          hi = next;
          goto bisect;
        }
      lo = next;
    }
  return lo;

bisect:
  /* fits(lo), !fits(hi) */
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (fits (s, mid))
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The smallest v in [1, max] with fits(v), for a predicate false up to an
 * edge and true after it. */
static guint64
smallest_fitting (Search  *s,
                  guint64  max)
{
  guint64 lo, hi;

  /* One GPU has no communication buffers: try it on its own first. */
  if (fits (s, 1))
    return 1;
  if (max < 2)
    return 0;
  lo = 1;
  hi = 2;
  while (!fits (s, hi))
    {
      if (hi >= max)
        return 0;
      lo = hi;
      hi = MIN (hi * 2, max);
    }
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (fits (s, mid))
        hi = mid;
      else
        lo = mid;
    }
  return hi;
}

static guint64
gcd (guint64 a,
     guint64 b)
{
  while (b != 0)
    {
      guint64 t = a % b;

      a = b;
      b = t;
    }
  return a;
}

gboolean
hr_solve (const HrScenario  *scenario,
          HrSolve            solve,
          HrPlan            *work,
          guint64           *out_value,
          GError           **error)
{
  Search s = { .trial = *scenario, .solve = solve, .unit = 1, .plan = work };

  g_return_val_if_fail (scenario != NULL && work != NULL && out_value != NULL, FALSE);

  if (!hr_scenario_validate (scenario, error))
    return FALSE;

  switch (solve)
    {
    case HR_SOLVE_MAX_MICRO_BATCH:
      *out_value = largest_fitting (&s, HR_MAX_MICRO_BATCH);
      break;
    case HR_SOLVE_MAX_SEQ_LEN:
      *out_value = largest_fitting (&s, HR_MAX_SEQ_LEN);
      break;
    case HR_SOLVE_MIN_GPUS:
    case HR_N_SOLVES:
    default:
      {
        const HrParallel *p = &scenario->parallel;
        guint64 dp_unit = MAX (p->ep, 1);

        /* The data-parallel degree must stay a multiple of ep and of the
         * hybrid shard group. */
        if (p->shard_group > 0)
          dp_unit = dp_unit / gcd (dp_unit, p->shard_group) * p->shard_group;
        s.unit = p->tp * p->pp * p->cp * dp_unit;
        *out_value = smallest_fitting (&s, HR_MAX_GPUS / s.unit) * s.unit;
      }
      break;
    }

  /* Leave work holding the plan of the answer, or of the scenario. */
  if (*out_value > 0)
    {
      if (solve == HR_SOLVE_MIN_GPUS)
        set_value (&s, *out_value / s.unit);
      else
        set_value (&s, *out_value);
      return hr_calc_plan (&s.trial, work, error);
    }
  return hr_calc_plan (scenario, work, error);
}
