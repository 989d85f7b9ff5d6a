/* fuzz-common.h: what every libFuzzer harness shares
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every harness feeds bytes to one reader, and plans what it accepts, so a
 * reader that lets something through that the calculation cannot take is
 * found as well.  GLib criticals abort (G_DEBUG=fatal-criticals is set in
 * LLVMFuzzerInitialize): a critical on hostile input is a bug too.
 */

#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hr-calc.h"
#include "hr-error.h"
#include "hr-presets.h"
#include "hr-scenario-io.h"

static HrPresets *fuzz_presets;
static HrPlan *fuzz_plan;

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  fuzz_presets = hr_presets_new_default ();
  fuzz_plan = hr_plan_new ();
  return 0;
}

/* Plans an accepted scenario; a valid scenario must always plan or be
 * refused with an error, never crash. */
static inline void
fuzz_plan_scenario (const HrScenario *sc)
{
  g_autoptr(GError) error = NULL;

  if (!hr_calc_plan (sc, fuzz_plan, &error))
    g_assert (error != NULL && error->message != NULL);
}
