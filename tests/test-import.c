/* test-import.c: Hugging Face and DeepSpeed configs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/data/hf holds the config.json of public models as their model
 * cards publish them; each must give the exact parameter count of
 * CALC-REFERENCE.md's table (or, for the models it does not list, the
 * count computed from the same config in data/facts/models.json).
 */

#include "hr-ds-import.h"
#include "hr-hf-import.h"
#include "hr-params.h"
#include "hr-test-util.h"

static void
test_hf_configs (void)
{
  static const struct { const char *file; guint64 params; } configs[] = {
    { "gpt2.json", 124439808 },
    { "bert-base-uncased.json", 109482240 },
    { "llama-2-7b.json", 6738415616 },
    { "meta-llama-3-8b.json", 8030261248 },
    { "mistral-7b-v0.1.json", 7241732096 },
    { "mixtral-8x7b.json", 46702792704 },
    { "qwen2.5-7b.json", 7615616512 },
    { "gemma-2b.json", 2506172416 },
    { "phi-2.json", 2779683840 },
    { "falcon-7b.json", 6921720704 },
    { "tinyllama-1.1b.json", 1100048384 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", configs[i].file, NULL);
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(HrPlan) plan = hr_plan_new ();
      HrScenario sc;
      guint64 params;

      hr_scenario_init_default (&sc);
      g_assert_true (hr_hf_import_file (&sc.model, path, unmapped, &error));
      g_assert_no_error (error);
      params = hr_params_total (&sc.model);
      /* The BERT config is the masked-LM checkpoint: its task head is ours
       * to choose, the published count is BertModel's. */
      g_test_message ("%-24s %" G_GUINT64_FORMAT, configs[i].file, params);
      g_assert_cmpuint (params, ==, configs[i].params);
      hr_test_plan (&sc, plan);
    }
}

/* Mistral's sliding window is named as not mapped. */
static void
test_hf_unmapped (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "mistral-7b-v0.1.json", NULL);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc;

  hr_scenario_init_default (&sc);
  g_assert_true (hr_hf_import_file (&sc.model, path, unmapped, NULL));
  g_assert_cmpuint (unmapped->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (unmapped, 0), "sliding_window"));
}

static void
test_deepspeed_config (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "ds-zero3-offload.json", NULL);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_FP32;
  g_assert_true (hr_ds_import_file (&sc, path, unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sc.parallel.zero, ==, 3);
  g_assert_true (sc.parallel.offload_optimizer);
  g_assert_true (sc.parallel.offload_params);
  g_assert_cmpuint (sc.training.micro_batch, ==, 2);
  g_assert_cmpuint (sc.training.grad_accum, ==, 4);
  g_assert_cmpint (sc.training.precision, ==, HR_PRECISION_BF16_MIXED);
  g_assert_cmpint (sc.training.dtypes.master, ==, HR_DTYPE_FP32);
  g_assert_cmpint (sc.training.optimizer, ==, HR_OPTIMIZER_ADAMW);
  g_assert_cmpuint (unmapped->len, >=, 1);
}

static void
test_not_configs (void)
{
  g_autoptr(JsonNode) node = json_from_string ("{\"hello\": 1}", NULL);
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  g_assert_false (hr_hf_import_node (&sc.model, node, "x.json", NULL, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (hr_ds_import_node (&sc, node, "x.json", NULL, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/hf-configs", test_hf_configs);
  g_test_add_func ("/import/hf-unmapped", test_hf_unmapped);
  g_test_add_func ("/import/deepspeed", test_deepspeed_config);
  g_test_add_func ("/import/not-configs", test_not_configs);
  return g_test_run ();
}
