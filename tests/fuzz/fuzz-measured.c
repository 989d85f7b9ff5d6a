/* fuzz-measured.c: measured-run files (--validate) */
#include "fuzz-common.h"
#include "hr-json.h"
#include "hr-measured.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, "runs.json", NULL);
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) runs = NULL;

  if (root == NULL)
    return 0;
  runs = hr_measured_load_node (root, "runs.json", fuzz_presets, skipped, NULL);
  return 0;
}
