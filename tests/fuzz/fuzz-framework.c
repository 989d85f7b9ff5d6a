/* fuzz-framework.c: framework profile files (presets/frameworks/ID.json
 * and the user's): read, applied to the default scenario, matched and
 * planned */
#include "fuzz-common.h"
#include "hr-frameworks.h"
#include "hr-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, "fuzz.json", NULL);
  g_autoptr(HrFramework) framework = NULL;
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  if (root == NULL)
    return 0;
  framework = hr_framework_new_from_node (root, "fuzz", "fuzz.json", fuzz_presets, &error);
  if (framework == NULL)
    {
      /* refused with a message that names the file */
      g_assert (error != NULL && g_str_has_prefix (error->message, "fuzz.json"));
      return 0;
    }
  hr_scenario_init_default (&sc);
  (void) hr_framework_matches (framework, &sc);
  if (hr_framework_apply (framework, &sc, fuzz_presets, NULL))
    {
      (void) hr_framework_matches (framework, &sc);
      fuzz_plan_scenario (&sc);
    }
  return 0;
}
