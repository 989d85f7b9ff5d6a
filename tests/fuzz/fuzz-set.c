/* fuzz-set.c: --set PATH=VALUE; the first line is the assignment, the
 * rest the scenario it applies to */
#include "fuzz-common.h"
#include "hr-json.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *newline = memchr (data, '\n', size);
  g_autofree char *assignment = NULL;
  g_autoptr(JsonNode) root = NULL;
  HrScenario sc;

  if (newline == NULL)
    return 0;
  assignment = g_strndup (text, newline - text);
  root = hr_json_load_data (newline + 1, size - (newline + 1 - text), "fuzz.json", NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  if (!hr_json_set_path (json_node_get_object (root), assignment, NULL))
    return 0;
  if (hr_scenario_read_node (&sc, root, "fuzz.json", fuzz_presets, NULL))
    fuzz_plan_scenario (&sc);
  return 0;
}
