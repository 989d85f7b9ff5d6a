/* hr-sweep.c: memory of the fullest GPU against micro-batch or sequence
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plans the scenario at up to 64 values of one axis, from 1 (or one block
 * of 128 tokens) to beyond where it stops fitting; src/render/hr-sweep-chart.c
 * draws it.
 */

#include "hr-sweep.h"
#include "hr-calc.h"
#include "hr-solver.h"

#include <math.h>

static void
set_axis (HrScenario  *sc,
          HrSweepAxis  axis,
          guint64      value)
{
  if (axis == HR_SWEEP_MICRO_BATCH)
    sc->training.micro_batch = value;
  else
    sc->training.seq_len = value;
}

gboolean
hr_sweep_compute (const HrScenario  *scenario,
                  HrSweepAxis        axis,
                  HrPlan            *work,
                  HrSweep           *out,
                  GError           **error)
{
  HrScenario trial = *scenario;
  guint64 current = axis == HR_SWEEP_MICRO_BATCH ? scenario->training.micro_batch
                                                 : scenario->training.seq_len;
  guint64 step = axis == HR_SWEEP_MICRO_BATCH ? 1 : 128;
  guint64 fit = 0, end, stride;

  if (!hr_solve (scenario, axis == HR_SWEEP_MICRO_BATCH ? HR_SOLVE_MAX_MICRO_BATCH
                                                        : HR_SOLVE_MAX_SEQ_LEN,
                 work, &fit, error))
    return FALSE;

  out->axis = axis;
  out->current = current;
  out->last_fitting = fit;
  out->capacity_bytes = work->capacity_bytes;
  out->headroom = scenario->overhead.headroom;
  out->n_points = 0;

  /* Up to past both the scenario's value and the edge of fitting. */
  end = MAX (MAX (current * 3 / 2, fit + fit / 4), step * 8);
  end = (end + step - 1) / step * step;
  stride = MAX (step, (end / (HR_SWEEP_MAX_POINTS - 1) + step - 1) / step * step);
  for (guint64 v = step; v <= end && out->n_points < HR_SWEEP_MAX_POINTS; v += stride)
    {
      HrSweepPoint *p = &out->points[out->n_points];
      const HrDevice *d;

      set_axis (&trial, axis, v);
      if (!hr_calc_plan (&trial, work, NULL))
        break;
      d = hr_plan_binding (work);
      p->value = v;
      memcpy (p->category_bytes, d->category_bytes, sizeof p->category_bytes);
      p->total_bytes = d->total_bytes;
      p->status = work->status;
      out->n_points++;
    }
  hr_calc_plan (scenario, work, NULL);
  return out->n_points > 0;
}

char *
hr_sweep_csv (const HrSweep *sweep)
{
  GString *out = g_string_new (NULL);

  g_string_append (out, sweep->axis == HR_SWEEP_MICRO_BATCH ? "micro_batch" : "seq_len");
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    g_string_append_printf (out, ",%s", hr_enum_name (&hr_category_names, c));
  g_string_append (out, ",total,status\r\n");
  for (guint i = 0; i < sweep->n_points; i++)
    {
      const HrSweepPoint *p = &sweep->points[i];

      g_string_append_printf (out, "%" G_GUINT64_FORMAT, p->value);
      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, p->category_bytes[c]);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%s\r\n", p->total_bytes,
                              hr_enum_name (&hr_status_names, p->status));
    }
  return g_string_free (out, FALSE);
}
