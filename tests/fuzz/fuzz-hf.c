/* fuzz-hf.c: Hugging Face config.json import */
#include "fuzz-common.h"
#include "hr-hf-import.h"
#include "hr-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, "config.json", NULL);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc;

  if (root == NULL)
    return 0;
  hr_scenario_init_default (&sc);
  if (hr_hf_import_node (&sc.model, root, "config.json", unmapped, NULL))
    fuzz_plan_scenario (&sc);
  return 0;
}
