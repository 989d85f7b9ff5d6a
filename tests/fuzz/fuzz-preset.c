/* fuzz-preset.c: model and GPU preset files */
#include "fuzz-common.h"
#include "hr-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, "fuzz.json", NULL);
  HrScenario sc;

  if (root == NULL)
    return 0;
  hr_scenario_init_default (&sc);
  if (hr_scenario_apply_model_preset_node (&sc, root, "fuzz.json", "fuzz", NULL))
    fuzz_plan_scenario (&sc);
  hr_scenario_init_default (&sc);
  if (hr_scenario_apply_gpu_preset_node (&sc, root, "fuzz.json", "fuzz", NULL))
    fuzz_plan_scenario (&sc);
  return 0;
}
