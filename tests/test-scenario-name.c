/* test-scenario-name.c: a scenario's name from what it plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window names a scenario after its model, method, layout and GPUs
 * until the user names it; the name must read as the bundled default's
 * does, and name every bundled example.
 */

#include "hr-scenario-name.h"
#include "hr-json.h"
#include "hr-test-util.h"

static void
check_name (const HrScenario *sc,
            const char       *expected)
{
  g_autofree char *name = hr_scenario_generate_name (sc);

  g_test_message ("%s", name);
  g_assert_cmpstr (name, ==, expected);
}

/* The default scenario's name is the generated one: it follows the plan. */
static void
test_default (void)
{
  HrScenario sc;

  hr_scenario_init_default (&sc);
  check_name (&sc, "Llama 2 13B, ZeRO-3, 8x H100");
  g_assert_true (hr_scenario_name_is_generated (&sc));
  hr_test_load (&sc, "default");
  g_assert_true (hr_scenario_name_is_generated (&sc));
}

static void
test_gpu_short_names (void)
{
  static const struct { const char *name, *expected; } cases[] = {
    { "H100 SXM 80GB", "H100" },
    { "A100 SXM4 40GB", "A100" },
    { "A100 PCIe 80GB", "A100" },
    { "H100 NVL 94GB", "H100" },
    { "RTX 4090 24GB", "RTX 4090" },
    { "RTX 6000 Ada Generation 48GB", "RTX 6000 Ada Generation" },
    { "A10G 24GB (AWS G5)", "A10G" },
    { "B200 (HGX/DGX, 180GB usable)", "B200" },
    { "MI250X 128GB (2 GCDs x 64GB)", "MI250X" },
    { "T4 16GB", "T4" },
    { "80GB", "80GB" },      /* never nothing */
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = hr_gpu_short_name (cases[i].name);

      g_assert_cmpstr (name, ==, cases[i].expected);
    }
}

/* The method when it is not full fine-tuning, then the layout. */
static void
test_method_and_layout (void)
{
  HrScenario sc;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-2-70b");
  check_name (&sc, "Llama 2 70B, ZeRO-3, 8x H100");

  sc.training.method = HR_METHOD_LORA;
  sc.parallel.tp = 2;
  check_name (&sc, "Llama 2 70B, LoRA, ZeRO-3, TP 2, 8x H100");

  sc.training.method = HR_METHOD_QLORA;
  sc.parallel.zero = 0;
  sc.parallel.tp = 1;
  check_name (&sc, "Llama 2 70B, QLoRA, DDP, 8x H100");

  sc.training.method = HR_METHOD_FULL;
  sc.parallel.gpus = 128;
  sc.parallel.zero = 1;
  sc.parallel.tp = 8;
  sc.parallel.pp = 4;
  sc.parallel.cp = 2;
  check_name (&sc, "Llama 2 70B, ZeRO-1, TP 8, PP 4, CP 2, 128x H100");

  /* Tensor and pipeline parallel over every GPU: no data parallelism. */
  sc.parallel.gpus = 8;
  sc.parallel.zero = 0;
  sc.parallel.tp = 8;
  sc.parallel.pp = 1;
  sc.parallel.cp = 1;
  check_name (&sc, "Llama 2 70B, TP 8, 8x H100");

  /* One GPU: the method says what the run is. */
  sc.parallel.gpus = 1;
  sc.parallel.tp = 1;
  check_name (&sc, "Llama 2 70B, full fine-tuning, 1x H100");
  sc.training.method = HR_METHOD_QLORA;
  check_name (&sc, "Llama 2 70B, QLoRA, 1x H100");
}

/* An edited model or GPU is not its preset any more. */
static void
test_custom (void)
{
  HrScenario sc;

  hr_scenario_init_default (&sc);
  sc.model.preset[0] = '\0';
  check_name (&sc, "Llama 2 13B (custom), ZeRO-3, 8x H100");
  sc.model.name[0] = '\0';
  check_name (&sc, "Custom model, ZeRO-3, 8x H100");

  sc.gpu.preset[0] = '\0';
  sc.gpu.memory_mib = 48 * 1024;
  check_name (&sc, "Custom model, ZeRO-3, 8x 48 GiB GPU");
}

/* A name longer than the scenario holds is cut on a character boundary,
 * and still counts as generated. */
static void
test_long_name (void)
{
  HrScenario sc;
  GString *model = g_string_new (NULL);

  hr_scenario_init_default (&sc);
  while (model->len < sizeof sc.model.name - 2)
    g_string_append (model, "é");
  hr_copy_string (sc.model.name, sizeof sc.model.name, model->str);
  hr_scenario_set_generated_name (&sc);
  g_assert_true (g_utf8_validate (sc.name, -1, NULL));
  g_assert_cmpuint (strlen (sc.name), <, sizeof sc.name);
  g_assert_true (hr_scenario_name_is_generated (&sc));
  sc.training.micro_batch = 8;   /* not in the name */
  g_assert_true (hr_scenario_name_is_generated (&sc));
  sc.parallel.gpus = 16;
  g_assert_false (hr_scenario_name_is_generated (&sc));
  g_string_free (model, TRUE);
}

/* Every bundled example gets a name that names its model and GPUs. */
static void
test_examples (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) list = hr_presets_list (presets, HR_PRESET_SCENARIO);

  g_assert_cmpuint (list->len, >, 3);
  for (guint i = 0; i < list->len; i++)
    {
      const HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autofree char *name = NULL;
      g_autofree char *gpus = NULL;
      HrScenario sc;

      hr_test_load (&sc, info->id);
      name = hr_scenario_generate_name (&sc);
      g_test_message ("%s: %s", info->id, name);
      g_assert_true (g_str_has_prefix (name, sc.model.name));
      gpus = g_strdup_printf ("%" G_GUINT64_FORMAT "x ", sc.parallel.gpus);
      g_assert_nonnull (strstr (name, gpus));
    }
}

/* Contract section 1.1: a file without a name is named after its plan,
 * not after the default scenario it starts from. */
static void
test_file_without_name (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) unnamed = hr_json_load_data (
    "{\"model\": {\"preset\": \"llama-2-70b\"}}", -1, "unnamed.json", &error);
  g_autoptr(JsonNode) named = hr_json_load_data (
    "{\"name\": \"Mine\", \"model\": {\"preset\": \"llama-2-70b\"}}", -1, "named.json", &error);
  HrScenario sc;

  g_assert_no_error (error);
  g_assert_true (hr_scenario_read_node (&sc, unnamed, "unnamed.json", presets, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sc.name, ==, "Llama 2 70B, ZeRO-3, 8x H100");
  g_assert_true (hr_scenario_read_node (&sc, named, "named.json", presets, &error));
  g_assert_cmpstr (sc.name, ==, "Mine");
}

/* A preset kept parsed is handed out as a copy: changing one (as the CLI
 * does with --set) leaves the next load as the file says. */
static void
test_preset_copies_are_independent (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(JsonNode) first = hr_presets_load (presets, HR_PRESET_SCENARIO, "default", NULL, NULL);
  g_autoptr(JsonNode) second = NULL;

  g_assert_nonnull (first);
  json_object_set_string_member (json_node_get_object (first), "name", "changed");
  second = hr_presets_load (presets, HR_PRESET_SCENARIO, "default", NULL, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (second), "name"), ==,
                   "Llama 2 13B, ZeRO-3, 8x H100");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scenario-name/file-without-name", test_file_without_name);
  g_test_add_func ("/scenario-name/preset-copies-are-independent", test_preset_copies_are_independent);
  g_test_add_func ("/scenario-name/default", test_default);
  g_test_add_func ("/scenario-name/gpu-short-names", test_gpu_short_names);
  g_test_add_func ("/scenario-name/method-and-layout", test_method_and_layout);
  g_test_add_func ("/scenario-name/custom", test_custom);
  g_test_add_func ("/scenario-name/long-name", test_long_name);
  g_test_add_func ("/scenario-name/examples", test_examples);
  return g_test_run ();
}
