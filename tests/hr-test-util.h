/* hr-test-util.h: what the core's tests share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-calc.h"
#include "hr-error.h"
#include "hr-presets.h"
#include "hr-scenario-io.h"

/* The presets of the source tree (meson sets HEADROOM_PRESETS_DIR), not
 * the user's: XDG_DATA_HOME points into the build tree. */
static inline HrPresets *
hr_test_presets (void)
{
  return hr_presets_new_default ();
}

/* A scenario preset, planned; aborts the test with the error otherwise. */
static inline void
hr_test_load (HrScenario *sc,
              const char *id)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GError) error = NULL;

  hr_scenario_load_preset (sc, id, presets, &error);
  g_assert_no_error (error);
}

static inline void
hr_test_model (HrScenario *sc,
               const char *id)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GError) error = NULL;

  hr_scenario_apply_model_preset (sc, id, presets, &error);
  g_assert_no_error (error);
}

static inline void
hr_test_plan (const HrScenario *sc,
              HrPlan           *plan)
{
  g_autoptr(GError) error = NULL;

  hr_calc_plan (sc, plan, &error);
  g_assert_no_error (error);
}

/* Sum of a device's items with this name, whatever phase they live in. */
static inline guint64
hr_test_item_bytes (const HrDevice *d,
                    const char     *name)
{
  guint64 sum = 0;

  for (guint i = 0; i < d->n_items; i++)
    if (g_str_equal (d->items[i].name, name))
      sum += d->items[i].bytes;
  return sum;
}

/* A model state's bytes, its parts included: "weights" sums "weights",
 * "expert weights", "shared-expert weights", "encoder weights" and
 * "decoder weights" (hr-calc-parts.c). */
static inline guint64
hr_test_state_bytes (const HrDevice *d,
                     const char     *state)
{
  static const char * const parts[] = { "", "expert ", "shared-expert ", "encoder ", "decoder " };
  guint64 sum = 0;

  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      g_autofree char *name = g_strconcat (parts[p], state, NULL);

      sum += hr_test_item_bytes (d, name);
    }
  return sum;
}

#define hr_assert_close(a, b, rel) \
  G_STMT_START { \
    double _a = (a), _b = (b); \
    if (!(fabs (_a - _b) <= (rel) * fabs (_b))) \
      g_error ("%s = %.6g is not within %.3g %% of %s = %.6g", #a, _a, 100.0 * (rel), #b, _b); \
  } G_STMT_END
