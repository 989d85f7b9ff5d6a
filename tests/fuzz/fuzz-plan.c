/* fuzz-plan.c: every scenario that plans gives a plan that holds together
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The other harnesses look for crashes; this one for silently wrong
 * charts: categories that do not add up to the total, free memory that is
 * not capacity minus total, JSON output that is not JSON or a saved
 * scenario that does not reopen (tests/hr-plan-invariants.h).
 */
#include "fuzz-common.h"
#include "hr-json.h"
#include "hr-plan-invariants.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, "fuzz.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *violation = NULL;
  HrScenario sc;

  if (root == NULL || !hr_scenario_read_node (&sc, root, "fuzz.json", fuzz_presets, NULL))
    return 0;
  if (!hr_calc_plan (&sc, fuzz_plan, &error))
    {
      g_assert (error != NULL && strchr (error->message, '\n') == NULL);
      return 0;
    }
  violation = hr_plan_invariant_violation (&sc, fuzz_plan, fuzz_presets);
  if (violation != NULL)
    {
      fprintf (stderr, "plan invariant broken: %s\n", violation);
      abort ();
    }
  return 0;
}
