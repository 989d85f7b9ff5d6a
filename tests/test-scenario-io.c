/* test-scenario-io.c: scenario files in and out, and every kind of bad input
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "hr-error.h"
#include "hr-frameworks.h"
#include "hr-json.h"
#include "hr-test-util.h"

static gboolean
read_text (const char  *text,
           HrScenario  *sc,
           GError     **error)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(JsonNode) root = hr_json_load_data (text, -1, "test.json", error);

  if (root == NULL)
    return FALSE;
  return hr_scenario_read_node (sc, root, "test.json", presets, error);
}

/* presets/scenarios/default.json is the compiled-in default, but for
 * parallel.deepspeed: the file says its ZeRO-3 is DeepSpeed's, while the
 * compiled default, from which every file's missing keys come, assumes
 * no engine. */
static void
test_default_file_is_default (void)
{
  HrScenario from_file, compiled;

  hr_test_load (&from_file, "default");
  hr_scenario_init_default (&compiled);
  g_assert_true (from_file.parallel.deepspeed);
  g_assert_false (compiled.parallel.deepspeed);
  compiled.parallel.deepspeed = TRUE;
  g_assert_cmpstr (from_file.name, ==, compiled.name);
  g_assert_true (memcmp (&from_file.model, &compiled.model, sizeof compiled.model) == 0);
  g_assert_true (memcmp (&from_file.training, &compiled.training, sizeof compiled.training) == 0);
  g_assert_true (memcmp (&from_file.parallel, &compiled.parallel, sizeof compiled.parallel) == 0);
  g_assert_true (memcmp (&from_file.gpu, &compiled.gpu, sizeof compiled.gpu) == 0);
  g_assert_true (memcmp (&from_file.overhead, &compiled.overhead, sizeof compiled.overhead) == 0);
}

/* Every preset reads and validates; at least the counts the issue asks. */
static void
test_all_presets_load (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  static const guint minimum[] = { 25, 20, 5 };
  g_autoptr(GPtrArray) broken = hr_presets_broken (presets);

  g_assert_cmpuint (broken->len, ==, 0);
  /* Models, GPUs and scenarios; the framework profiles are read by
   * hr-frameworks.c (test-fields checks them). */
  for (guint k = 0; k <= HR_PRESET_SCENARIO; k++)
    {
      g_autoptr(GPtrArray) list = hr_presets_list (presets, k);

      g_assert_cmpuint (list->len, >=, minimum[k]);
      for (guint i = 0; i < list->len; i++)
        {
          HrPresetInfo *info = g_ptr_array_index (list, i);
          g_autoptr(GError) error = NULL;
          g_autoptr(JsonNode) node = hr_json_load_file (info->path, NULL);
          HrScenario sc;

          hr_scenario_init_default (&sc);
          g_assert_nonnull (node);
          if (k == HR_PRESET_MODEL)
            hr_scenario_apply_model_preset (&sc, info->id, presets, &error);
          else if (k == HR_PRESET_GPU)
            hr_scenario_apply_gpu_preset (&sc, info->id, presets, &error);
          else
            hr_scenario_load_preset (&sc, info->id, presets, &error);
          g_assert_no_error (error);
          /* CONTRACT.md section 6: each preset says where it comes from. */
          if (k != HR_PRESET_SCENARIO)
            g_assert_true (json_object_has_member (json_node_get_object (node), "source"));
        }
    }
}

/* Saving and reading back gives the same scenario, for every preset and
 * for a scenario that uses every extension. */
static void
test_round_trip (void)
{
  static const char * const ids[] = { "default", "qlora-llama-3.1-8b-rtx4090",
                                      "pretrain-llama-3.1-70b-3d", "bert-large-finetune-t4" };

  for (guint i = 0; i <= G_N_ELEMENTS (ids); i++)
    {
      HrScenario sc, back;
      g_autofree char *data = NULL;
      g_autoptr(GError) error = NULL;

      if (i < G_N_ELEMENTS (ids))
        hr_test_load (&sc, ids[i]);
      else
        {
          hr_scenario_init_default (&sc);
          sc.model.preset[0] = '\0';
          sc.model.qk_norm = HR_QK_NORM_HEAD;
          sc.model.norms_per_layer = 4;
          sc.training.method = HR_METHOD_LORA;
          sc.training.lora.targets = HR_LORA_Q | HR_LORA_LM_HEAD;
          sc.training.lora.dropout = 0.1;
          sc.training.dtypes_set = 1u << 1;
          sc.training.dtypes.grads = HR_DTYPE_FP32;
          sc.parallel.no_sync = TRUE;
          sc.overhead.comm_buffer_mib = 256;
        }
      data = hr_scenario_to_data (&sc, NULL);
      g_assert_true (read_text (data, &back, &error));
      g_assert_no_error (error);
      g_assert_true (memcmp (&sc, &back, sizeof sc) == 0);
    }
}

/* A model that names its preset and sets a key back to its "absent"
 * value (DeepSeek-V3 cut to 3 layers, none of them dense; 0 is
 * dense_layers' absent value) reopens as it was saved, not with the
 * preset's 3 dense layers, which 3 layers would refuse (found by
 * fuzz-plan: tests/fuzz/regressions/plan-preset-key-left-out). */
static void
test_preset_key_round_trip (void)
{
  HrScenario sc, back;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (read_text ("{\"model\": {\"preset\": \"deepseek-v3\", \"layers\": 3, "
                            "\"dense_layers\": 0}}", &sc, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sc.model.preset, ==, "deepseek-v3");
  g_assert_cmpuint (sc.model.dense_layers, ==, 0);
  data = hr_scenario_to_data (&sc, NULL);
  g_assert_true (read_text (data, &back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back.model.dense_layers, ==, 0);
  g_assert_true (memcmp (&sc, &back, sizeof sc) == 0);
}

/* Every bundled scenario has a description, and saving keeps it: the
 * window saves through the same writer. */
static void
test_description_round_trip (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) list = hr_presets_list (presets, HR_PRESET_SCENARIO);
  g_autofree char *long_text = NULL;
  g_autofree char *doc = NULL;
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  g_assert_cmpuint (list->len, >=, 6);
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autoptr(JsonNode) node = hr_json_load_file (info->path, NULL);
      HrScenario back;
      g_autofree char *data = NULL;
      g_autoptr(GError) local = NULL;
      const char *description;

      g_assert_nonnull (node);
      description = json_object_get_string_member (json_node_get_object (node), "description");
      g_assert_nonnull (description);
      g_assert_cmpstr (description, !=, "");
      hr_test_load (&sc, info->id);
      g_assert_cmpstr (sc.description, ==, description);

      data = hr_scenario_to_data (&sc, NULL);
      g_assert_true (read_text (data, &back, &local));
      g_assert_no_error (local);
      g_assert_cmpstr (back.description, ==, description);
    }

  /* None is none, and a description that does not fit is refused, not cut. */
  g_assert_true (read_text ("{\"name\": \"x\"}", &sc, &error));
  g_assert_cmpstr (sc.description, ==, "");
  long_text = g_strnfill (HR_DESCRIPTION_MAX, 'a');
  doc = g_strdup_printf ("{\"description\": \"%s\"}", long_text);
  g_assert_false (read_text (doc, &sc, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "test.json: description: a string of 1024 bytes "
                                            "is too long; allowed: up to 1023 bytes"));
}

/* --set semantics. */
static void
test_set_path (void)
{
  g_autoptr(JsonNode) root = json_from_string ("{\"model\": {\"preset\": \"llama-2-7b\", \"layers\": 3}}", NULL);
  JsonObject *obj = json_node_get_object (root);
  g_autoptr(GError) error = NULL;
  JsonObject *model;

  g_assert_true (hr_json_set_path (obj, "training.micro_batch=8", &error));
  g_assert_true (hr_json_set_path (obj, "training.precision=bf16-true", &error));
  g_assert_true (hr_json_set_path (obj, "model.preset=gpt2-small", &error));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (obj, "training"),
                                               "micro_batch"), ==, 8);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (obj, "training"),
                                                  "precision"), ==, "bf16-true");
  model = json_object_get_object_member (obj, "model");
  g_assert_false (json_object_has_member (model, "layers"));
  g_assert_false (hr_json_set_path (obj, "=3", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (hr_json_set_path (obj, "a..b=3", &error));
  g_clear_error (&error);
  g_assert_false (hr_json_set_path (obj, "novalue", &error));
}

typedef struct
{
  const char *json;
  gint code;
  const char *must_say;   /* path and value in the message */
} BadCase;

static const BadCase bad_cases[] = {
  { "{", HR_ERROR_PARSE, "not valid JSON" },
  { "", HR_ERROR_PARSE, "empty" },
  { "[1, 2]", HR_ERROR_TYPE, "array" },
  { "{\"modle\": {}}", HR_ERROR_UNKNOWN_KEY, "modle: unknown key" },
  { "{\"sourse\": \"\"}", HR_ERROR_UNKNOWN_KEY,
    "sourse: unknown key; allowed: headroom, name, description, source, model, training, parallel, gpu, "
    "overhead, cost" },
  { "{\"model\": {\"layerz\": 2}}", HR_ERROR_UNKNOWN_KEY, "model.layerz: unknown key" },
  { "{\"model\": {\"layers\": 0}}", HR_ERROR_INVALID, "model.layers: 0" },
  { "{\"model\": {\"layers\": -4}}", HR_ERROR_INVALID, "model.layers: -4" },
  { "{\"model\": {\"layers\": 2.5}}", HR_ERROR_INVALID, "model.layers: 2.5" },
  { "{\"model\": {\"layers\": \"40\"}}", HR_ERROR_TYPE, "model.layers: \"40\"" },
  { "{\"model\": {\"heads\": 48}}", HR_ERROR_INVALID, "model.heads: 48 does not divide model.hidden" },
  { "{\"model\": {\"kv_heads\": 3}}", HR_ERROR_INVALID, "model.kv_heads: 3" },
  /* A custom model's keys it does not give are the default model's: a
   * message about one says where it came from. */
  { "{\"model\": {\"hidden\": 768, \"heads\": 12}}", HR_ERROR_INVALID,
    "model.kv_heads: 40 (from the default model llama-2-13b, since model.preset is not set) "
    "is out of range; allowed: 1 to 12; set model.kv_heads" },
  { "{\"model\": {\"heads\": 48}}", HR_ERROR_INVALID,
    "model.heads: 48 does not divide model.hidden = 5120; allowed: a divisor of 5120; "
    "model.hidden came from the default model llama-2-13b, since model.preset is not set" },
  { "{\"model\": {\"hidden\": 99999999999}}", HR_ERROR_INVALID, "model.hidden: 99999999999" },
  /* A mixture of experts whose ffn is 0: the experts are what is wrong. */
  { "{\"model\": {\"preset\": \"mixtral-8x7b\", \"experts\": 0}}", HR_ERROR_INVALID,
    "model.experts: 0 is out of range; allowed: 1 to 65536" },
  { "{\"model\": {\"mlp\": \"swishy\"}}", HR_ERROR_INVALID, "model.mlp: \"swishy\" is not allowed; allowed: swiglu, geglu, gelu, relu or relu2" },
  { "{\"model\": {\"preset\": \"../../etc/passwd\"}}", HR_ERROR_TYPE, "model.preset" },
  { "{\"model\": {\"preset\": \"no-such-model\"}}", HR_ERROR_NOT_FOUND, "model.preset" },
  { "{\"model\": []}", HR_ERROR_TYPE, "model: an array" },
  { "{\"training\": {\"micro_batch\": -1}}", HR_ERROR_INVALID, "training.micro_batch: -1" },
  { "{\"training\": {\"micro_batch\": 1e300}}", HR_ERROR_INVALID, "training.micro_batch" },
  { "{\"training\": {\"precision\": \"bf17\"}}", HR_ERROR_INVALID, "training.precision: \"bf17\"" },
  { "{\"training\": {\"method\": \"lora\", \"lora\": {\"targets\": [\"qq\"]}}}", HR_ERROR_INVALID, "training.lora.targets[0]: \"qq\"" },
  { "{\"training\": {\"method\": \"lora\", \"lora\": {\"targets\": []}}}", HR_ERROR_INVALID, "training.lora.targets" },
  { "{\"training\": {\"dtypes\": {\"grads\": \"fp8\"}}}", HR_ERROR_INVALID, "training.dtypes.grads: fp8" },
  { "{\"parallel\": {\"gpus\": 12, \"tp\": 8}}", HR_ERROR_INVALID, "parallel.gpus: 12 is not a multiple of tp·pp·cp = 8" },
  { "{\"parallel\": {\"tp\": 3, \"gpus\": 3}}", HR_ERROR_INVALID, "parallel.tp: 3" },
  { "{\"parallel\": {\"zero\": 4}}", HR_ERROR_INVALID, "parallel.zero: 4" },
  { "{\"parallel\": {\"sp\": true}}", HR_ERROR_INVALID, "parallel.sp" },
  { "{\"parallel\": {\"sp\": 1}}", HR_ERROR_TYPE, "parallel.sp: 1" },
  { "{\"parallel\": {\"zero\": 2, \"offload_params\": true}}", HR_ERROR_INVALID, "parallel.offload_params" },
  { "{\"parallel\": {\"offload_optimizer_device\": \"disk\"}}", HR_ERROR_INVALID,
    "parallel.offload_optimizer_device: \"disk\" is not allowed; allowed: cpu or nvme" },
  { "{\"parallel\": {\"pp\": 41}}", HR_ERROR_INVALID, "parallel.pp: 41" },
  { "{\"gpu\": {\"memory_mib\": 0}}", HR_ERROR_INVALID, "gpu.memory_mib: 0" },
  { "{\"gpu\": {\"preset\": \"h100-sxm-81gb\"}}", HR_ERROR_NOT_FOUND, "gpu.preset" },
  { "{\"overhead\": {\"fragmentation\": -0.5}}", HR_ERROR_INVALID, "overhead.fragmentation: -0.5" },
  { "{\"overhead\": {\"headroom\": 2}}", HR_ERROR_INVALID, "overhead.headroom: 2" },
  { "{\"headroom\": 2}", HR_ERROR_INVALID, "headroom: 2" },
  { "{\"name\": 7}", HR_ERROR_TYPE, "name: 7" },
};

static void
test_bad_input (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      HrScenario sc;
      g_autoptr(GError) error = NULL;

      g_assert_false (read_text (bad_cases[i].json, &sc, &error));
      g_test_message ("%s -> %s", bad_cases[i].json, error->message);
      g_assert_error (error, HR_ERROR, bad_cases[i].code);
      g_assert_true (g_str_has_prefix (error->message, "test.json: "));
      if (strstr (error->message, bad_cases[i].must_say) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, bad_cases[i].must_say);
      g_assert_null (strchr (error->message, '\n'));
    }
}

/* A broken preset is the preset file's error, naming its own keys, not
 * the error of the scenario that chose it. */
static void
test_bad_gpu_preset (void)
{
  static const struct { const char *json; const char *must_say; } cases[] = {
    { "{\"name\": \"Absurd\", \"memory_mib\": 99999999999999}",
      "gpus/absurd.json: memory_mib: 99999999999999 is out of range; allowed: 1 to 16777216" },
    { "{\"name\": \"Absurd\", \"memory_mib\": 0}", "gpus/absurd.json: memory_mib: 0 is out of range" },
    { "{\"name\": \"Absurd\", \"memory_mib\": 1000, \"bf16_tflops\": 1e9}",
      "gpus/absurd.json: bf16_tflops: 1000000000 is out of range; allowed: 0 to 1000000" },
    { "{\"name\": \"Absurd\", \"memory_mib\": \"lots\"}",
      "gpus/absurd.json: memory_mib: \"lots\" is not allowed" },
    { "{\"name\": \"Absurd\", \"memory\": 1000}", "gpus/absurd.json: memory: unknown key" },
  };
  /* (A model preset's keys are checked before its model's.) */
  static const char model_typo[] = "{\"model\": {}, \"sorce\": \"\"}";
  g_autofree char *home = g_dir_make_tmp ("headroom-presets-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (home, "gpus", NULL);
  g_autofree char *file = g_build_filename (folder, "absurd.json", NULL);
  const char *dirs[] = { home, g_getenv ("HEADROOM_PRESETS_DIR"), NULL };
  g_autoptr(HrPresets) presets = hr_presets_new (dirs);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) root = json_from_string ("{\"gpu\": {\"preset\": \"absurd\"}}", NULL);
      g_autoptr(GError) error = NULL;
      HrScenario sc;

      g_assert_true (g_file_set_contents (file, cases[i].json, -1, NULL));
      g_assert_false (hr_scenario_read_node (&sc, root, "scenario.json", presets, &error));
      g_assert_nonnull (error);
      g_test_message ("%s -> %s", cases[i].json, error->message);
      g_assert_true (g_str_has_prefix (error->message, file));
      if (strstr (error->message, cases[i].must_say) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, cases[i].must_say);
    }
  g_assert_cmpint (g_remove (file), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);

  /* The same for a model preset's own top-level keys. */
  {
    g_autofree char *models = g_build_filename (home, "models", NULL);
    g_autofree char *model_file = g_build_filename (models, "absurd.json", NULL);
    g_autoptr(JsonNode) root = json_from_string ("{\"model\": {\"preset\": \"absurd\"}}", NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *expected = g_strdup_printf ("%s: sorce: unknown key; allowed: model, source, notes",
                                                 model_file);
    HrScenario sc;

    g_assert_cmpint (g_mkdir_with_parents (models, 0700), ==, 0);
    g_assert_true (g_file_set_contents (model_file, model_typo, -1, NULL));
    g_assert_false (hr_scenario_read_node (&sc, root, "scenario.json", presets, &error));
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, expected));
    g_assert_cmpint (g_remove (model_file), ==, 0);
    g_assert_cmpint (g_rmdir (models), ==, 0);
  }
  g_assert_cmpint (g_rmdir (home), ==, 0);
}

/* Deep nesting and huge files are refused before json-glib recurses. */
static void
test_hostile_documents (void)
{
  GString *deep = g_string_new ("{\"model\":");
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_false (read_text (deep->str, &sc, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_PARSE);
  g_clear_error (&error);
  g_string_free (deep, TRUE);

  g_assert_false (read_text ("{\"name\": \"\xff\xfe\"}", &sc, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_PARSE);
}

/* A failed save leaves the previous file whole. */
static void
test_atomic_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "plan.json", NULL);
  g_autofree char *back = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_write_file_atomic (path, "old", 3, &error));
  g_assert_false (hr_write_file_atomic (missing, "new", 3, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_IO);
  g_clear_error (&error);

  /* A read-only folder: the rename cannot happen, the old file stays. */
  if (geteuid () != 0)
    {
      g_chmod (dir, 0500);
      g_assert_false (hr_write_file_atomic (path, "new", 3, &error));
      g_clear_error (&error);
      g_chmod (dir, 0700);
    }
  g_assert_true (g_file_get_contents (path, &back, NULL, NULL));
  g_assert_cmpstr (back, ==, "old");
  g_remove (path);
  g_rmdir (dir);
}

/* A full file system and a read-only one (tiny tmpfs mounts, when the
 * tests run as root, as CI does): the save fails, the old file stays. */
static gboolean
run (const char *command)
{
  int status = -1;

  return g_spawn_command_line_sync (command, NULL, NULL, &status, NULL)
         && g_spawn_check_wait_status (status, NULL);
}

static void
test_save_on_full_and_readonly_disk (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-tmpfs-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
  g_autofree char *filler = g_build_filename (dir, "filler", NULL);
  g_autofree char *mount = g_strdup_printf ("mount -t tmpfs -o size=64k tmpfs %s", dir);
  g_autofree char *remount = g_strdup_printf ("mount -o remount,ro %s", dir);
  g_autofree char *umount = g_strdup_printf ("umount %s", dir);
  g_autofree char *back = NULL;
  g_autofree char *big = g_strnfill (32 * 1024, 'x');
  g_autoptr(GError) error = NULL;
  FILE *f;

  if (geteuid () != 0 || !run (mount))
    {
      g_rmdir (dir);
      g_test_skip ("needs root to mount a small tmpfs");
      return;
    }

  g_assert_true (hr_write_file_atomic (path, "old", 3, &error));
  /* Fill the file system to the last byte. */
  f = fopen (filler, "w");
  g_assert_nonnull (f);
  while (fwrite (big, 1, 4096, f) == 4096 && fflush (f) == 0)
    ;
  fclose (f);
  g_assert_false (hr_write_file_atomic (path, big, strlen (big), &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_IO);
  g_test_message ("full: %s", error->message);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &back, NULL, NULL));
  g_assert_cmpstr (back, ==, "old");
  g_clear_pointer (&back, g_free);

  /* Read-only. */
  g_remove (filler);
  g_assert_true (run (remount));
  g_assert_false (hr_write_file_atomic (path, "new", 3, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_IO);
  g_test_message ("read-only: %s", error->message);
  g_assert_true (g_file_get_contents (path, &back, NULL, NULL));
  g_assert_cmpstr (back, ==, "old");

  g_assert_true (run (umount));
  g_rmdir (dir);
}

/* Every framework's values read back; a scenario matches the framework it
 * was given and no other (the two differ in loss, logits and head). */
static void
test_frameworks (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  const HrFramework *litgpt = hr_framework_find ("litgpt");
  const HrFramework *hf = hr_framework_find ("hf-trainer");
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  g_assert_nonnull (litgpt);
  g_assert_nonnull (hf);
  g_assert_null (hr_framework_find ("keras"));
  hr_scenario_init_default (&sc);
  g_assert_true (hr_scenario_has_value (&sc, "training.loss=standard"));
  g_assert_false (hr_scenario_has_value (&sc, "training.loss=chunked"));
  g_assert_true (hr_scenario_has_value (&sc, "training.lora.fused_qkv=false"));
  g_assert_true (hr_scenario_has_value (&sc, "parallel.gpus=8"));
  g_assert_false (hr_scenario_has_value (&sc, "training.nonsense=1"));
  g_assert_false (hr_scenario_has_value (&sc, "training.loss=bf17"));
  g_assert_false (hr_scenario_has_value (&sc, "training.loss"));
  g_assert_false (hr_framework_matches (litgpt, &sc));

  g_assert_true (hr_framework_apply (litgpt, &sc, presets, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sc.training.loss, ==, HR_LOSS_CHUNKED);
  g_assert_false (sc.training.logits_fp32);
  g_assert_cmpint (sc.training.dequant_dtype, ==, HR_DTYPE_FP16);
  g_assert_true (hr_framework_matches (litgpt, &sc));
  g_assert_false (hr_framework_matches (hf, &sc));

  g_assert_true (hr_framework_apply (hf, &sc, presets, &error));
  g_assert_true (hr_framework_matches (hf, &sc));
  g_assert_false (hr_framework_matches (litgpt, &sc));
  g_assert_cmpint (sc.training.dequant_dtype, ==, HR_DTYPE_NONE);
  g_assert_cmpint (sc.training.precision, ==, HR_PRECISION_BF16_MIXED);   /* left as chosen */
}

/* A value the plan does not read neither rules a framework out nor in:
 * torchtitan's pipeline buffers and fp8 recipe on one stage in bf16, and
 * accelerate FSDP's sharding values on one GPU. */
static void
test_framework_matches_what_applies (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  const HrFramework *torchtitan = hr_framework_find ("torchtitan");
  const HrFramework *accelerate = hr_framework_find ("accelerate-fsdp");
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  g_assert_nonnull (torchtitan);
  g_assert_nonnull (accelerate);
  hr_scenario_init_default (&sc);
  sc.parallel.deepspeed = FALSE;
  g_assert_true (hr_framework_apply (torchtitan, &sc, presets, &error));
  g_assert_no_error (error);
  sc.training.framework[0] = '\0';
  g_assert_cmpint (sc.parallel.pp, ==, 1);
  g_assert_true (hr_framework_matches (torchtitan, &sc));
  sc.parallel.pp_buffers = HR_PP_BUFFERS_NONE;       /* applies to pp > 1 only */
  sc.training.fp8_recipe = HR_FP8_RECIPE_TE;         /* fp8 runs only */
  g_assert_true (hr_scenario_has_value (&sc, "training.fp8_recipe=te"));
  g_assert_false (hr_scenario_assignment_applies (&sc, "training.fp8_recipe=torchao"));
  g_assert_true (hr_framework_matches (torchtitan, &sc));
  sc.training.attention = HR_ATTENTION_EAGER;        /* one that applies */
  g_assert_false (hr_framework_matches (torchtitan, &sc));
  sc.training.attention = HR_ATTENTION_FLASH;
  sc.parallel.pp = 2;
  sc.parallel.gpus = 8;
  g_assert_true (hr_scenario_assignment_applies (&sc, "parallel.pp_buffers=torch"));
  g_assert_false (hr_framework_matches (torchtitan, &sc));

  /* The default scenario without its framework's name is DeepSpeed's:
   * its engine is on, a value no file has unless it says so. */
  g_assert_true (hr_scenario_load_preset (&sc, "default", presets, &error));
  g_assert_no_error (error);
  sc.training.framework[0] = '\0';
  g_assert_true (sc.parallel.deepspeed);
  g_assert_true (hr_framework_matches (hr_framework_find ("deepspeed"), &sc));
  g_assert_true (hr_scenario_assignment_is_absent ("training.zero_grad_to_none=true"));
  g_assert_true (hr_scenario_assignment_is_absent ("parallel.pp_buffers=none"));
  g_assert_false (hr_scenario_assignment_is_absent ("parallel.pp_buffers=torch"));
  g_assert_false (hr_scenario_assignment_is_absent ("training.loss=standard"));   /* not optional */
  g_assert_false (hr_scenario_assignment_is_absent ("training.nonsense=1"));

  /* One GPU: no value of accelerate FSDP applies but zero_grad_to_none,
   * which a file leaves out. */
  hr_scenario_init_default (&sc);
  sc.parallel.deepspeed = FALSE;
  sc.parallel.zero = 0;
  sc.parallel.gpus = 1;
  g_assert_false (hr_scenario_assignment_applies (&sc, "parallel.fsdp=1"));
  g_assert_false (hr_framework_matches (accelerate, &sc));
  sc.parallel.zero = 3;
  sc.parallel.gpus = 8;
  sc.parallel.fsdp = 1;
  g_assert_true (hr_framework_matches (accelerate, &sc));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scenario/default-file", test_default_file_is_default);
  g_test_add_func ("/scenario/presets", test_all_presets_load);
  g_test_add_func ("/scenario/round-trip", test_round_trip);
  g_test_add_func ("/scenario/preset-key-round-trip", test_preset_key_round_trip);
  g_test_add_func ("/scenario/description-round-trip", test_description_round_trip);
  g_test_add_func ("/scenario/set-path", test_set_path);
  g_test_add_func ("/scenario/frameworks", test_frameworks);
  g_test_add_func ("/scenario/framework-matches-what-applies", test_framework_matches_what_applies);
  g_test_add_func ("/scenario/bad-input", test_bad_input);
  g_test_add_func ("/scenario/bad-gpu-preset", test_bad_gpu_preset);
  g_test_add_func ("/scenario/hostile", test_hostile_documents);
  g_test_add_func ("/scenario/atomic-save", test_atomic_save);
  g_test_add_func ("/scenario/full-and-readonly-disk", test_save_on_full_and_readonly_disk);
  return g_test_run ();
}
