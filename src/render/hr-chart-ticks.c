/* hr-chart-ticks.c: round numbers for the charts' axes
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An axis reads at a glance when its ticks are steps a person counts in:
 * 1, 2 or 5 times a power of ten for sizes (Heckbert, "Nice numbers for
 * graph labels", Graphics Gems, 1990), and powers of two for what people
 * choose in powers of two — micro-batches of 8, 16, 32 and sequences of
 * 2048, 4096.  The ticks are the multiples of the step within the range.
 */

#include "hr-chart-ticks.h"
#include "hr-chart-private.h"

#include <math.h>

/* A tick step of 1, 2 or 5 times a power of ten, giving about n ticks. */
double
hr_chart_nice_step (double range,
                    int    n)
{
  double raw = range / MAX (n, 1);
  double mag = pow (10, floor (log10 (MAX (raw, 1e-9))));
  double f = raw / mag;

  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

/* The step for about ABOUT ticks over RANGE. */
double
hr_chart_tick_step (double      range,
                    guint       about,
                    HrTickSteps steps)
{
  double raw = range / MAX (about, 1);

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  if (steps == HR_TICKS_DECIMAL)
    return hr_chart_nice_step (range, (int) MAX (about, 1));
  /* The smallest power of two at least the raw step: never more ticks
   * than asked for, and whole numbers only. */
  return MAX (1.0, exp2 (ceil (log2 (raw))));
}

/* The next round step below STEP: 10 -> 5 -> 2 -> 1, or 8 -> 4. */
static double
smaller_step (double      step,
              HrTickSteps steps)
{
  double mag, f;

  if (steps == HR_TICKS_POWERS_OF_TWO)
    return step / 2;
  mag = pow (10, floor (log10 (step) + 1e-9));
  f = step / mag;
  return (f > 7.5 ? 5 : f > 3.5 ? 2 : f > 1.5 ? 1 : 0.5) * mag;
}

/* Fills TICKS (HR_CHART_MAX_TICKS of them at most) with the multiples of
 * the step from LO to HI, both included; returns how many. */
guint
hr_chart_ticks (double       lo,
                double       hi,
                guint        about,
                HrTickSteps  steps,
                double      *ticks)
{
  double step, first;
  guint n = 0;

  g_return_val_if_fail (ticks != NULL, 0);
  if (!isfinite (lo) || !isfinite (hi) || hi < lo)
    return 0;
  step = hr_chart_tick_step (hi - lo, about, steps);
  while ((hi - lo) / step >= HR_CHART_MAX_TICKS)
    step *= 2;
  /* Two ticks at least, where whole steps allow: an axis of one number
   * says nothing of its scale. */
  while (floor (hi / step + 1e-9) - ceil (lo / step - 1e-9) < 1
         && (steps == HR_TICKS_DECIMAL ? hi - lo > 0 : step > 1))
    step = smaller_step (step, steps);
  first = ceil (lo / step - 1e-9) * step;
  /* A step's multiples counted, not summed, so that 0.1 + 0.2 stays 0.3. */
  for (double k = round (first / step); k * step <= hi * (1 + 1e-12) + 1e-12
       && n < HR_CHART_MAX_TICKS; k++)
    ticks[n++] = k * step + 0.0;   /* (-0 * step is -0, printed "-0") */
  return n;
}
