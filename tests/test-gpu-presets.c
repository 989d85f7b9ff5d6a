/* test-gpu-presets.c: every bundled GPU preset can plan memory and time
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/presets.md: memory_mib is what nvidia-smi / rocm-smi / hl-smi
 * reports, bf16_tflops the dense peak the time estimate divides by
 * (src/core/hr-cost.c), and each number says in "source" where it comes
 * from and with what confidence.
 */

#include "hr-cost.h"
#include "hr-json.h"
#include "hr-test-util.h"
#include "hr-validate.h"

/* Issue 15, item 5: the hardware of 2026 is bundled. */
static const char * const new_ids[] = {
  "gb200", "gb300", "b300", "mi325x", "mi355x", "gaudi3", "rtx-pro-6000-blackwell",
};

static void
test_every_gpu_has_numbers_and_sources (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) list = hr_presets_list (presets, HR_PRESET_GPU);

  g_assert_cmpuint (list->len, >=, 39);
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autoptr(JsonNode) node = hr_json_load_file (info->path, NULL);
      g_autofree char *source = NULL;
      JsonObject *o;

      g_test_message ("%s", info->id);
      g_assert_nonnull (node);
      o = json_node_get_object (node);
      g_assert_true (json_object_has_member (o, "memory_mib"));
      g_assert_cmpint (json_object_get_int_member (o, "memory_mib"), >, 0);
      g_assert_true (json_object_has_member (o, "bf16_tflops"));
      g_assert_cmpfloat (json_object_get_double_member (o, "bf16_tflops"), >, 0);
      source = g_strstrip (g_strdup (json_object_get_string_member_with_default (o, "source", "")));
      g_assert_cmpuint (strlen (source), >, 0);
    }
}

/* Both numbers carry their own source and confidence. */
static void
test_sources_name_each_number (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) list = hr_presets_list (presets, HR_PRESET_GPU);

  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autoptr(JsonNode) node = hr_json_load_file (info->path, NULL);
      const char *source = json_object_get_string_member_with_default (json_node_get_object (node),
                                                                       "source", "");
      const char *bf16 = strstr (source, "; bf16_tflops: ");

      g_test_message ("%s", info->id);
      g_assert_nonnull (bf16);
      /* memory_mib's sources and confidence, then bf16_tflops' */
      g_assert_true (g_strstr_len (source, bf16 - source, "[confidence: ") != NULL);
      g_assert_nonnull (strstr (bf16, "[confidence: "));
      /* An fp8 peak says where it is from, after the bf16 one's. */
      if (json_object_has_member (json_node_get_object (node), "fp8_tflops"))
        g_assert_nonnull (strstr (bf16, "; fp8_tflops: "));
      /* So does a compute capability, from NVIDIA's tables. */
      if (json_object_has_member (json_node_get_object (node), "compute_capability"))
        g_assert_nonnull (strstr (bf16, "; compute_capability: NVIDIA "));
    }
}

/* Compute capabilities as NVIDIA's tables give them (developer.nvidia.com/
 * cuda-gpus, the legacy page, the MIG guide's supported GPUs), and what
 * follows for Transformer Engine's MXFP8, which runs on 10.x alone
 * (quantization.py check_mxfp8_support): planned on B200, GB200, B300 and
 * GB300, refused on Hopper and on the 12.0 Blackwells (RTX 5090, RTX PRO
 * 6000), planned as asked where the capability is not known (MI300X). */
static void
test_compute_capability (void)
{
  static const struct { const char *id; double cc; gboolean mxfp8; } known[] = {
    { "b200", 10.0, TRUE }, { "gb200", 10.0, TRUE }, { "b300", 10.3, TRUE }, { "gb300", 10.3, TRUE },
    { "h100-sxm-80gb", 9.0, FALSE }, { "h200-sxm-141gb", 9.0, FALSE }, { "h20", 9.0, FALSE },
    { "rtx-5090", 12.0, FALSE }, { "rtx-pro-6000-blackwell", 12.0, FALSE },
    { "l40s", 8.9, FALSE }, { "a100-sxm4-80gb", 8.0, FALSE }, { "v100-sxm2-32gb", 7.0, FALSE },
    { "mi300x", 0, TRUE }, { "t4", 0, TRUE },
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autoptr(GError) error = NULL;
      HrScenario sc;

      g_test_message ("%s", known[i].id);
      hr_scenario_init_default (&sc);
      g_assert_true (hr_scenario_apply_gpu_preset (&sc, known[i].id, presets, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (sc.gpu.compute_capability, known[i].cc, 1e-9);
      sc.training.precision = HR_PRECISION_FP8_MIXED;
      hr_training_apply_precision (&sc.training);
      sc.training.fp8_recipe = HR_FP8_RECIPE_TE_MXFP8;
      g_assert_cmpint (hr_scenario_validate (&sc, &error), ==, known[i].mxfp8);
      if (!known[i].mxfp8)
        {
          g_assert_cmpstr (hr_error_field (error), ==, "training.fp8_recipe");
          g_assert_nonnull (strstr (error->message, "allowed here: te or torchao"));
          g_clear_error (&error);
          /* te and torchao are planned there as before. */
          sc.training.fp8_recipe = HR_FP8_RECIPE_TE;
          g_assert_true (hr_scenario_validate (&sc, NULL));
        }
    }
}

/* The BLAS workspaces, two (the forward's thread and autograd's
 * backward one) in every phase: cuBLAS's default from the compute
 * capability (32 MiB for 9.x to 12.x, 4096 KiB x 2 + 16 KiB x 8
 * before: ATen/cuda/CublasHandlePool.cpp, parseChosenWorkspaceSize), ROCm's
 * hipBLAS (128 MiB on gfx94x/gfx95x, 32 MiB before) plus hipBLASLt's 76
 * MiB from the AMD presets, and a preset's value given way to when the
 * next preset leaves it out. */
static void
test_blas_workspaces (void)
{
  static const struct { const char *id; double mib; } known[] = {
    { "h100-sxm-80gb", 2 * 32.0 }, { "b200", 2 * 32.0 }, { "rtx-5090", 2 * 32.0 },
    { "a100-sxm4-80gb", 2 * 8.125 }, { "l40s", 2 * 8.125 }, { "t4", 2 * 8.125 },
    { "mi300x", 2 * (128.0 + 76) }, { "mi325x", 2 * (128.0 + 76) }, { "mi355x", 2 * (128.0 + 76) },
    { "mi250x", 2 * (32.0 + 76) }, { "mi210", 2 * (32.0 + 76) }, { "gaudi3", 0 },
    { "h200-sxm-141gb", 2 * 32.0 },   /* after an MI355X: its 204 MiB are not kept */
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;

  hr_scenario_init_default (&sc);
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autoptr(GError) error = NULL;
      const HrDevice *d;

      g_test_message ("%s", known[i].id);
      g_assert_true (hr_scenario_apply_gpu_preset (&sc, known[i].id, presets, &error));
      g_assert_no_error (error);
      hr_test_plan (&sc, plan);
      d = &plan->devices[0];
      g_assert_cmpuint (hr_test_item_bytes (d, "BLAS workspaces"), ==,
                        (guint64) (known[i].mib * 1024 * 1024));
      /* In every phase: the peak's phase holds them too. */
      for (guint k = 0; k < d->n_items; k++)
        if (strcmp (d->items[k].name, "BLAS workspaces") == 0)
          g_assert_cmpuint (d->items[k].live, ==, HR_LIVE_ALWAYS);
    }

  /* A scenario's own value wins over the rule. */
  sc.gpu.blas_workspace_mib = 100;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "BLAS workspaces"), ==, 200 * 1024 * 1024);
}

/* The dense fp8 peaks the sources give (half the with-sparsity figures
 * of the vendors' sheets), and none for GPUs without fp8 tensor cores. */
static void
test_fp8_peaks (void)
{
  static const struct { const char *id; double fp8; } known[] = {
    { "h100-sxm-80gb", 1979 }, { "h100-pcie-80gb", 1513 }, { "h200-sxm-141gb", 1979 },
    { "h800", 1979 }, { "l4", 242 }, { "l40s", 733 }, { "rtx-6000-ada", 728.5 },
    { "rtx-5090", 419 }, { "b200", 4500 }, { "b300", 4500 }, { "gb200", 5000 },
    { "gb300", 5000 }, { "mi300x", 2614 }, { "mi325x", 2614.9 }, { "mi355x", 5000 },
    { "gaudi3", 1835 }, { "rtx-pro-6000-blackwell", 1007.6 },
    /* Ampere, Volta and Turing have no fp8 */
    { "a100-sxm4-80gb", 0 }, { "v100-sxm2-32gb", 0 }, { "t4", 0 }, { "rtx-3090", 0 },
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autoptr(GError) error = NULL;
      HrScenario sc;

      g_test_message ("%s", known[i].id);
      hr_scenario_init_default (&sc);
      g_assert_true (hr_scenario_apply_gpu_preset (&sc, known[i].id, presets, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (sc.gpu.fp8_tflops, known[i].fp8, 1e-9);
    }
}

/* fp8 training's time divides by the fp8 peak where the GPU has one:
 * Llama 2 13B (13,015,864,320 parameters), full checkpointing (8·N),
 * 1e12 tokens on 8 H100 at 40 % MFU:
 *   bf16: 8 · 13,015,864,320 · 1e12 / (8 · 989e12 · 0.4)  = 32,901,578.2 s
 *   fp8:  the same FLOPs / (8 · 1979e12 · 0.4)             = 16,442,476.4 s
 * and on an A100, which has no fp8, at the bf16 peak. */
static void
test_fp8_time (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrCostEstimate est;
  HrScenario sc;

  hr_test_load (&sc, "default");
  sc.cost.tokens = 1e12;
  sc.cost.mfu = 0.4;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->active_params, ==, 13015864320);
  hr_cost_estimate (&sc, plan, &est);
  g_assert_false (est.fp8_peak);
  g_assert_cmpfloat_with_epsilon (est.seconds, 8.0 * 13015864320.0 * 1e12 / (8 * 989e12 * 0.4), 1e-6);
  g_assert_cmpfloat_with_epsilon (est.seconds, 32901578.2, 0.1);

  sc.training.precision = HR_PRECISION_FP8_MIXED;
  hr_training_apply_precision (&sc.training);
  hr_test_plan (&sc, plan);
  hr_cost_estimate (&sc, plan, &est);
  g_assert_true (est.fp8_peak);
  g_assert_cmpfloat (est.peak_tflops, ==, 1979);
  g_assert_cmpfloat_with_epsilon (est.seconds, 16442476.4, 0.1);

  g_assert_true (hr_scenario_apply_gpu_preset (&sc, "a100-sxm4-80gb", presets, &error));
  g_assert_no_error (error);
  hr_cost_estimate (&sc, plan, &est);
  g_assert_false (est.fp8_peak);
  g_assert_cmpfloat (est.peak_tflops, ==, 312);
}

/* Applied to a scenario, each preset gives a time and a cost. */
static void
test_every_gpu_estimates_time (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) list = hr_presets_list (presets, HR_PRESET_GPU);
  g_autoptr(HrPlan) plan = hr_plan_new ();

  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autoptr(GError) error = NULL;
      HrCostEstimate est;
      HrScenario sc;

      g_test_message ("%s", info->id);
      hr_test_load (&sc, "default");
      g_assert_true (hr_scenario_apply_gpu_preset (&sc, info->id, presets, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (sc.gpu.memory_mib, >, 0);
      g_assert_cmpfloat (sc.gpu.bf16_tflops, >, 0);
      sc.cost.tokens = 1e12;
      sc.cost.price_per_gpu_hour = 2.0;
      hr_test_plan (&sc, plan);
      g_assert_cmpuint (plan->capacity_bytes, ==, (guint64) sc.gpu.memory_mib << 20);
      hr_cost_estimate (&sc, plan, &est);
      g_assert_true (est.known);
      g_assert_cmpfloat (est.seconds, >, 0);
      g_assert_cmpfloat (est.cost, >, 0);
    }
}

static void
test_new_gpus_are_bundled (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();

  for (guint i = 0; i < G_N_ELEMENTS (new_ids); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = hr_presets_find (presets, HR_PRESET_GPU, new_ids[i], &error);

      g_test_message ("%s", new_ids[i]);
      g_assert_no_error (error);
      g_assert_nonnull (path);
    }
}

/* Spot checks against the driver-reported totals the sources quote. */
static void
test_driver_totals (void)
{
  static const struct { const char *id; guint memory_mib; double bf16; } known[] = {
    { "gb200", 189471, 2500 },
    { "b300", 275040, 2250 },
    { "gb300", 284208, 2500 },
    { "mi355x", 294896, 2500 },          /* 309220868096 B */
    { "rtx-pro-6000-blackwell", 97887, 503.8 },
    { "gaudi3", 131072, 1835 },
    { "t4", 15360, 65 },                 /* dense fp16: T4 has no bf16 */
    { "v100-sxm2-16gb", 16384, 125 },    /* dense fp16: V100 has no bf16 */
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autoptr(GError) error = NULL;
      HrScenario sc;

      hr_scenario_init_default (&sc);
      g_assert_true (hr_scenario_apply_gpu_preset (&sc, known[i].id, presets, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (sc.gpu.memory_mib, ==, known[i].memory_mib);
      g_assert_cmpfloat_with_epsilon (sc.gpu.bf16_tflops, known[i].bf16, 1e-9);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu-presets/numbers-and-sources", test_every_gpu_has_numbers_and_sources);
  g_test_add_func ("/gpu-presets/sources-name-each-number", test_sources_name_each_number);
  g_test_add_func ("/gpu-presets/time-estimate", test_every_gpu_estimates_time);
  g_test_add_func ("/gpu-presets/new-gpus", test_new_gpus_are_bundled);
  g_test_add_func ("/gpu-presets/driver-totals", test_driver_totals);
  g_test_add_func ("/gpu-presets/fp8-peaks", test_fp8_peaks);
  g_test_add_func ("/gpu-presets/fp8-time", test_fp8_time);
  g_test_add_func ("/gpu-presets/compute-capability", test_compute_capability);
  g_test_add_func ("/gpu-presets/blas-workspaces", test_blas_workspaces);
  return g_test_run ();
}
