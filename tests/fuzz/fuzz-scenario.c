/* fuzz-scenario.c: scenario files */
#include "fuzz-common.h"
#include "hr-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, "fuzz.json", NULL);
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  if (root == NULL)
    return 0;
  if (hr_scenario_read_node (&sc, root, "fuzz.json", fuzz_presets, &error))
    {
      g_autofree char *saved = hr_scenario_to_data (&sc, NULL);
      g_autoptr(JsonNode) again = hr_json_load_data (saved, -1, "saved.json", NULL);
      HrScenario back;

      fuzz_plan_scenario (&sc);
      /* What is saved reads back the same. */
      g_assert (again != NULL);
      g_assert (hr_scenario_read_node (&back, again, "saved.json", fuzz_presets, NULL));
      g_assert (memcmp (&sc, &back, sizeof sc) == 0);
    }
  else
    g_assert (error != NULL && strchr (error->message, '\n') == NULL);
  return 0;
}
