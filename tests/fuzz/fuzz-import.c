/* fuzz-import.c: one importer's apply on any document
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built once for each importer of src/meson.build's list, with
 * FUZZ_IMPORTER its HrImporter (hr_deepspeed_importer, ...), and run on
 * the seeds of tests/fuzz/corpus/<id>: whatever the document, the import
 * either fails with a message or yields a scenario that plans.  The
 * document's folder does not exist, so that an importer that looks beside
 * it (the Hugging Face one reads a safetensors index there) finds the same
 * nothing wherever the fuzzer runs.
 */

#include "fuzz-common.h"
#include "hr-import.h"
#include "hr-json.h"

extern const HrImporter FUZZ_IMPORTER;

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char origin[] = "/nonexistent-headroom-fuzz/config.json";
  g_autoptr(JsonNode) root = hr_json_load_data ((const char *) data, size, origin, NULL);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc;

  if (root == NULL)
    return 0;
  hr_scenario_init_default (&sc);
  if (FUZZ_IMPORTER.apply (&sc, root, origin, unmapped, NULL))
    fuzz_plan_scenario (&sc);
  return 0;
}
