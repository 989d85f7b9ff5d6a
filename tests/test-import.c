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

#include <glib/gstdio.h>

#include "hr-ds-import.h"
#include "hr-hf-import.h"
#include "hr-import.h"
#include "hr-json.h"
#include "hr-params.h"
#include "hr-test-util.h"
#include "hr-validate.h"

/* CONFIG is refused, with a message that starts with SAYS. */
static void
assert_refused (const char *config,
                const char *says)
{
  g_autoptr(GError) err = NULL;
  g_autoptr(JsonNode) bad = hr_json_load_data (config, -1, "config.json", &err);
  HrModelArch m = { 0 };

  g_assert_no_error (err);
  g_assert_false (hr_hf_import_node (&m, bad, "config.json", NULL, &err));
  g_assert_nonnull (err);
  if (!g_str_has_prefix (err->message, says))
    g_error ("\"%s\" does not start with \"%s\"", err->message, says);
}

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
    /* Encoder-decoder models (test-params.c has the arithmetic); their
     * config.json as published on the Hub (google-t5/t5-base,
     * google/flan-t5-base, facebook/bart-large), the label maps and
     * task_specific_params left out. */
    { "t5-base.json", 222903552 },
    { "flan-t5-base.json", 247577856 },
    { "bart-large.json", 406291456 },
    /* openai/whisper-large-v3's config.json (test-params.c has the
     * arithmetic: the frozen 1500 x 1280 encoder table included, as the
     * published 1,543,490,560 counts it), its transformers_version left
     * out. */
    { "whisper-large-v3.json", 1543490560 },
    /* State-space and hybrid models (test-params.c has the arithmetic);
     * the config.json of state-spaces/mamba-130m-hf and mamba-2.8b-hf
     * (the padded vocabulary 50280 is their vocab_size),
     * mistralai/Mamba-Codestral-7B-v0.1 (Mamba-2: 128 heads of 64, 8
     * groups, state 128, untied: 64 x 109,640,064 + 2 x 32768 x 4096 +
     * 4096 = 7,285,403,648, the Hub's "7.29B"; its time_step_limit
     * [0.0, Infinity] left out, Infinity not being JSON) and
     * ai21labs/AI21-Jamba-Mini-1.5. */
    { "mamba-130m-hf.json", 129135360 },
    { "mamba-2.8b-hf.json", 2768345600 },
    { "mamba-codestral-7b.json", 7285403648 },
    { "jamba-mini-1.5.json", 51570323328 },
    /* ibm-fms/Bamba-9B's config.json at 43f21514 (presets/models/
     * bamba-9b.json has the arithmetic): the card's "9B (9.78B)" */
    { "bamba-9b.json", 9780235392 },
    /* ibm-granite/granite-4.0-h-tiny's config.json as public code quotes
     * it, its scalar multipliers left out (presets/models/
     * granite-4.0-h-tiny.json has the arithmetic): llama.cpp's 6.94 B */
    { "granite-4.0-h-tiny.json", 6939037248 },
    /* Zyphra's Zamba2 2.7B in transformers' format (presets/models/
     * zamba2-2.7b.json has the sources and the arithmetic) */
    { "zamba2-2.7b.json", 2662214560 },
    /* DeepSeek (test-params.c has the arithmetic): deepseek-ai/DeepSeek-R1's
     * config.json (DeepSeek-V3's architecture and sizes; its MTP module
     * planned: 671,026,419,200 + 11,610,068,224) and DeepSeek-V2.5's
     * (60 layers of h 5120, 128 heads, 160 experts of 1536, 6 active, 2
     * shared, one dense layer of 12288: 235,741,434,880, the paper's
     * "236B total"), as a public parameter-counting test quotes them. */
    { "deepseek-r1.json", 682636487424 },
    { "deepseek-v2.5.json", 235741434880 },
    /* Vision-language models (test-params.c has the arithmetic):
     * llava-hf/llava-1.5-7b-hf's config.json as published (its
     * text_config gives only the vocabulary, 32064: the rest is
     * LlamaConfig's defaults), and Qwen/Qwen2-VL-7B-Instruct's, written
     * from the module list transformers prints for it and
     * Qwen2VLConfig's keys (the Hub's text was not in the search corpus);
     * their published totals. */
    { "llava-1.5-7b-hf.json", 7063427072 },
    { "qwen2-vl-7b-instruct.json", 8291375616 },
    /* meta-llama/Llama-3.2-11B-Vision's config.json, written from
     * MllamaConfig's keys and the values public ports' tests quote from it
     * (text_config 40 layers of 4096, 32 heads, 8 KV heads,
     * cross_attention_layers [3, 8, ..., 38]; vision_config image_size
     * 560, patch 14, 1280 wide, 32 + 8 layers, attention_heads 16,
     * intermediate_layers_indices [3, 7, 15, 23, 30], vision_output_dim
     * 7680, 8 aspect ratios); the Hub's text was not in the search corpus.
     * Its published total (test-params.c has the arithmetic). */
    { "llama-3.2-11b-vision.json", 10670220835 },
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
      g_assert_true (hr_import_file (&sc, path, hr_importer_find ("hf"), NULL, unmapped, &error));
      g_assert_no_error (error);
      params = hr_params_total (&sc.model);
      /* The BERT config is the masked-LM checkpoint: its task head is ours
       * to choose, the published count is BertModel's. */
      g_test_message ("%-24s %" G_GUINT64_FORMAT, configs[i].file, params);
      g_assert_cmpuint (params, ==, configs[i].params);
      /* (shared blocks plan without sharded weights: hr-validate-shared.c) */
      if (sc.model.shared_blocks > 0)
        sc.parallel.zero = 1;
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
  g_assert_true (hr_import_file (&sc, path, hr_importer_find ("hf"), NULL, unmapped, NULL));
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
  g_assert_true (hr_import_file (&sc, path, hr_importer_find ("deepspeed"), NULL, unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sc.parallel.zero, ==, 3);
  g_assert_true (sc.parallel.offload_optimizer);
  g_assert_true (sc.parallel.offload_params);
  g_assert_cmpuint (sc.training.micro_batch, ==, 2);
  g_assert_cmpuint (sc.training.grad_accum, ==, 4);
  g_assert_cmpint (sc.training.precision, ==, HR_PRECISION_BF16_MIXED);
  g_assert_cmpint (sc.training.dtypes.master, ==, HR_DTYPE_FP32);
  g_assert_cmpint (sc.training.optimizer, ==, HR_OPTIMIZER_ADAMW);
  /* The engine is DeepSpeed's: its gradient partition and buckets. */
  g_assert_true (sc.parallel.deepspeed);
  g_assert_cmpuint (unmapped->len, >=, 1);
}

/* A config.json's numbers: a whole float is read as Python's json would
 * write it; anything else names the file, the key and the value. */
static void
test_hf_bad_values (void)
{
  static const char *base =
    "{\"model_type\": \"llama\", \"num_hidden_layers\": %s, \"hidden_size\": 4096,"
    " \"num_attention_heads\": 32, \"num_key_value_heads\": %s, \"intermediate_size\": 14336,"
    " \"vocab_size\": %s, \"head_dim\": %s, \"n_inner\": null, \"rms_norm_eps\": 1e-5}";
  static const struct { const char *layers, *kv, *vocab, *head_dim, *must_say; } cases[] = {
    { "32.5", "8", "128256", "128",
      "hf.json: num_hidden_layers: 32.5 is not allowed; allowed: a whole number 1 to 100000" },
    { "\"32\"", "8", "128256", "128",
      "hf.json: num_hidden_layers: \"32\" is not allowed; allowed: a whole number 1 to 100000" },
    { "0", "8", "128256", "128", "hf.json: num_hidden_layers: 0 is out of range; allowed: 1 to 100000" },
    { "32", "8", "-5", "128", "hf.json: vocab_size: -5 is out of range; allowed: 1 to 16777216" },
    { "32", "-1", "128256", "128", "hf.json: num_key_value_heads: -1 is out of range; allowed: 1 to" },
    { "32", "8", "128256", "\"128\"", "hf.json: head_dim: \"128\" is not allowed" },
  };

  for (guint i = 0; i <= G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GError) error = NULL;
      HrScenario sc;

      hr_scenario_init_default (&sc);
      if (i == G_N_ELEMENTS (cases))
        {
          /* 32.0 is 32: Llama 3 8B. */
          text = g_strdup_printf (base, "32.0", "8.0", "128256", "128");
          node = json_from_string (text, NULL);
          g_assert_true (hr_hf_import_node (&sc.model, node, "hf.json", NULL, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (sc.model.layers, ==, 32);
          g_assert_cmpuint (hr_params_total (&sc.model), ==, 8030261248);
          break;
        }
      text = g_strdup_printf (base, cases[i].layers, cases[i].kv, cases[i].vocab, cases[i].head_dim);
      node = json_from_string (text, NULL);
      g_assert_nonnull (node);
      g_assert_false (hr_hf_import_node (&sc.model, node, "hf.json", NULL, &error));
      g_assert_nonnull (error);
      g_test_message ("%s -> %s", text, error->message);
      if (strstr (error->message, cases[i].must_say) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, cases[i].must_say);
    }
}

static gboolean
import_ds_text (HrScenario  *sc,
                const char  *text,
                GPtrArray   *unmapped,
                GError     **error)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  return hr_ds_import_node (sc, node, "ds.json", unmapped, error);
}

static gboolean
has_note (GPtrArray  *unmapped,
          const char *text)
{
  for (guint i = 0; i < unmapped->len; i++)
    if (strstr (g_ptr_array_index (unmapped, i), text) != NULL)
      return TRUE;
  return FALSE;
}

/* The Hugging Face Trainer's DeepSpeed configs say "auto": the value is
 * the scenario's, and the import says so instead of planning fp32. */
static void
test_deepspeed_auto (void)
{
  static const char *hf =
    "{\"bf16\": {\"enabled\": \"auto\"}, \"fp16\": {\"enabled\": \"auto\"},"
    " \"zero_optimization\": {\"stage\": 3},"
    " \"train_micro_batch_size_per_gpu\": \"auto\", \"gradient_accumulation_steps\": \"auto\","
    " \"train_batch_size\": \"auto\"}";
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  sc.parallel.zero = 1;
  sc.training.micro_batch = 3;
  sc.training.grad_accum = 5;
  g_assert_true (import_ds_text (&sc, hf, unmapped, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < unmapped->len; i++)
    g_test_message ("not mapped: %s", (char *) g_ptr_array_index (unmapped, i));
  g_assert_cmpint (sc.training.precision, ==, HR_PRECISION_BF16_MIXED);
  g_assert_cmpuint (sc.parallel.zero, ==, 3);
  g_assert_cmpuint (sc.training.micro_batch, ==, 3);
  g_assert_cmpuint (sc.training.grad_accum, ==, 5);
  g_assert_true (has_note (unmapped, "bf16.enabled: \"auto\" (set by the Hugging Face Trainer "
                                     "at run time; precision left as the scenario's bf16-mixed)"));
  g_assert_true (has_note (unmapped, "fp16.enabled: \"auto\""));
  g_assert_true (has_note (unmapped, "train_micro_batch_size_per_gpu: \"auto\" (set by the "
                                     "Hugging Face Trainer at run time; micro-batch left as "
                                     "the scenario's 3)"));
  g_assert_true (has_note (unmapped, "gradient_accumulation_steps: \"auto\""));

  /* bf16 wins over an "auto" fp16, and DeepSpeed's "enabled" defaults to false. */
  g_ptr_array_set_size (unmapped, 0);
  g_assert_true (import_ds_text (&sc, "{\"bf16\": {\"enabled\": true}, \"fp16\": {\"enabled\": "
                                      "\"auto\"}, \"train_micro_batch_size_per_gpu\": 2}",
                                 unmapped, &error));
  g_assert_cmpint (sc.training.precision, ==, HR_PRECISION_BF16_MIXED);
  g_assert_cmpuint (unmapped->len, ==, 0);
  g_assert_true (import_ds_text (&sc, "{\"bf16\": {\"loss_scale\": 0}, \"train_micro_batch_size_per_gpu\": 2}",
                                 unmapped, &error));
  g_assert_cmpint (sc.training.precision, ==, HR_PRECISION_FP32);

  /* Parameters are offloaded only under ZeRO-3: said, not dropped silently. */
  g_assert_true (import_ds_text (&sc, "{\"zero_optimization\": {\"stage\": 2, \"offload_param\": "
                                      "{\"device\": \"cpu\"}}}", unmapped, &error));
  g_assert_false (sc.parallel.offload_params);
  g_assert_true (has_note (unmapped, "zero_optimization.offload_param: only ZeRO-3"));
}

/* zero_optimization's sizes: the file's, DeepSpeed's defaults where it
 * leaves them out, and "auto" as the Hugging Face Trainer fills it in for
 * the scenario's model (the default 13B: hidden 5120, so 5120² =
 * 26,214,400, 0.9·5120² = 23,592,960 and 10·5120 = 51,200; under ZeRO-2
 * the stage-3 ones are not filled, and DeepSpeed's defaults stay). */
static void
test_deepspeed_sizes (void)
{
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  g_assert_cmpuint (sc.model.hidden, ==, 5120);
  g_assert_true (import_ds_text (&sc, "{\"zero_optimization\": {\"stage\": 3, \"overlap_comm\": true,"
                                      " \"reduce_bucket_size\": \"auto\", \"stage3_prefetch_bucket_size\":"
                                      " \"auto\", \"stage3_param_persistence_threshold\": \"auto\","
                                      " \"stage3_max_live_parameters\": 2e9, \"sub_group_size\": 1e12}}",
                                 unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sc.parallel.reduce_bucket_size, ==, 26214400);
  g_assert_cmpuint (sc.parallel.stage3_prefetch_bucket_size, ==, 23592960);
  g_assert_cmpuint (sc.parallel.stage3_param_persistence_threshold, ==, 51200);
  g_assert_cmpuint (sc.parallel.stage3_max_live_parameters, ==, 2000000000);
  g_assert_cmpuint (sc.parallel.stage3_max_reuse_distance, ==, 1000000000);
  g_assert_cmpuint (sc.parallel.sub_group_size, ==, 1000000000000ull);
  g_assert_true (sc.parallel.overlap_comm);
  g_assert_true (has_note (unmapped, "zero_optimization.reduce_bucket_size: \"auto\" is what the "
                                     "Hugging Face Trainer fills in for a hidden size of 5120: 26214400"));

  g_ptr_array_set_size (unmapped, 0);
  g_assert_true (import_ds_text (&sc, "{\"zero_optimization\": {\"stage\": 2, \"reduce_bucket_size\": 2e8,"
                                      " \"stage3_prefetch_bucket_size\": \"auto\"}}", unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sc.parallel.reduce_bucket_size, ==, 200000000);
  g_assert_cmpuint (sc.parallel.stage3_prefetch_bucket_size, ==, 50000000);
  g_assert_cmpuint (sc.parallel.stage3_param_persistence_threshold, ==, 100000);
  g_assert_cmpuint (sc.parallel.stage3_max_live_parameters, ==, 1000000000);
  g_assert_false (sc.parallel.overlap_comm);
  g_assert_true (has_note (unmapped, "zero_optimization.stage3_prefetch_bucket_size: \"auto\" is not one "
                                     "the Hugging Face Trainer fills in here; DeepSpeed's default, 50000000"));
}

/* Values DeepSpeed would refuse are the file's error, naming the key and
 * what is allowed; none is skipped without a word. */
static void
test_deepspeed_bad_values (void)
{
  static const struct { const char *json; const char *must_say; } cases[] = {
    { "{\"zero_optimization\": {\"stage\": 4}}",
      "ds.json: zero_optimization.stage: 4 is not allowed; allowed: 0, 1, 2 or 3" },
    { "{\"zero_optimization\": {\"stage\": \"3\"}}",
      "ds.json: zero_optimization.stage: \"3\" is not allowed; allowed: 0, 1, 2 or 3" },
    { "{\"zero_optimization\": {\"stage\": -1}}", "zero_optimization.stage: -1 is not allowed" },
    { "{\"zero_optimization\": {\"stage\": 2.5}}", "zero_optimization.stage: 2.5 is not allowed" },
    { "{\"zero_optimization\": 3}", "ds.json: zero_optimization: 3 is not allowed; allowed: an object" },
    { "{\"train_micro_batch_size_per_gpu\": 0}",
      "ds.json: train_micro_batch_size_per_gpu: 0 is not allowed; allowed: a whole number 1 to" },
    { "{\"train_micro_batch_size_per_gpu\": -8}", "train_micro_batch_size_per_gpu: -8 is not allowed" },
    { "{\"train_micro_batch_size_per_gpu\": 1.5}", "train_micro_batch_size_per_gpu: 1.5 is not allowed" },
    { "{\"train_micro_batch_size_per_gpu\": \"8\"}", "train_micro_batch_size_per_gpu: \"8\" is not allowed" },
    { "{\"train_micro_batch_size_per_gpu\": 1, \"gradient_accumulation_steps\": 0}",
      "gradient_accumulation_steps: 0 is not allowed" },
    { "{\"zero_optimization\": {\"stage\": 2, \"offload_optimizer\": {\"device\": \"gpu\"}}}",
      "zero_optimization.offload_optimizer.device: \"gpu\" is not allowed; allowed: none, cpu or nvme" },
    { "{\"zero_optimization\": {\"stage\": 2}, \"bf16\": {\"enabled\": \"yes\"}}",
      "ds.json: bf16.enabled: \"yes\" is not allowed; allowed: true, false or \"auto\"" },
    { "{\"zero_optimization\": {\"stage\": 2}, \"fp16\": true}", "fp16: true is not allowed" },
    { "{\"zero_optimization\": {}, \"bf16\": {\"enabled\": true}, \"fp16\": {\"enabled\": true}}",
      "bf16.enabled: true with fp16.enabled: true" },
    { "{\"zero_optimization\": {\"stage\": 2, \"reduce_bucket_size\": 0}}",
      "ds.json: zero_optimization.reduce_bucket_size: 0 is not allowed; allowed: a whole number 1 to "
      "1000000000000, or \"auto\"" },
    { "{\"zero_optimization\": {\"stage\": 3, \"stage3_max_live_parameters\": 1e13}}",
      "zero_optimization.stage3_max_live_parameters: 10000000000000.0 is not allowed; allowed: a whole "
      "number 0 to 1000000000000" },
    { "{\"zero_optimization\": {\"stage\": 2, \"overlap_comm\": \"yes\"}}",
      "ds.json: zero_optimization.overlap_comm: \"yes\" is not allowed; allowed: true or false" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      HrScenario sc, before;

      hr_scenario_init_default (&sc);
      before = sc;
      g_assert_false (import_ds_text (&sc, cases[i].json, unmapped, &error));
      g_assert_nonnull (error);
      g_test_message ("%s -> %s", cases[i].json, error->message);
      if (strstr (error->message, cases[i].must_say) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, cases[i].must_say);
      g_assert_true (memcmp (&sc, &before, sizeof sc) == 0);
    }
}

/* ZeRO-Infinity: what goes to NVMe takes neither GPU memory nor host RAM;
 * only the fp32 gradient partition the CPU steps on stays in host RAM. */
static void
test_deepspeed_nvme (void)
{
  static const char *cpu =
    "{\"bf16\": {\"enabled\": true}, \"zero_optimization\": {\"stage\": 3,"
    " \"offload_optimizer\": {\"device\": \"cpu\"}, \"offload_param\": {\"device\": \"cpu\"}}}";
  static const char *nvme =
    "{\"bf16\": {\"enabled\": true}, \"zero_optimization\": {\"stage\": 3,"
    " \"offload_optimizer\": {\"device\": \"nvme\", \"nvme_path\": \"/local_nvme\"},"
    " \"offload_param\": {\"device\": \"nvme\", \"nvme_path\": \"/local_nvme\"}}}";
  g_autoptr(HrPlan) on_cpu = hr_plan_new ();
  g_autoptr(HrPlan) on_nvme = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrScenario a, b;

  hr_scenario_init_default (&a);
  g_assert_true (import_ds_text (&a, cpu, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (a.parallel.offload_optimizer_device, ==, HR_OFFLOAD_DEVICE_CPU);
  hr_scenario_init_default (&b);
  g_assert_true (import_ds_text (&b, nvme, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (b.parallel.offload_optimizer && b.parallel.offload_params);
  g_assert_cmpint (b.parallel.offload_optimizer_device, ==, HR_OFFLOAD_DEVICE_NVME);
  g_assert_cmpint (b.parallel.offload_params_device, ==, HR_OFFLOAD_DEVICE_NVME);

  hr_test_plan (&a, on_cpu);
  hr_test_plan (&b, on_nvme);
  g_assert_cmpuint (on_nvme->devices[0].total_bytes, ==, on_cpu->devices[0].total_bytes);
  /* bf16-mixed AdamW: CPU holds 4 (master) + 8 (states) + 4 (fp32 gradient)
   * bytes per trainable weight and 2 per weight; NVMe leaves the 4. */
  g_assert_cmpuint (on_cpu->host_bytes_per_node, >, 0);
  hr_assert_close ((double) on_nvme->host_bytes_per_node,
                   (double) on_cpu->host_bytes_per_node * 4.0 / 18.0, 1e-6);

  /* DeepSpeed puts nothing on NVMe below ZeRO-3. */
  hr_scenario_init_default (&b);
  g_assert_false (import_ds_text (&b, "{\"zero_optimization\": {\"stage\": 2, \"offload_optimizer\":"
                                      " {\"device\": \"nvme\"}}}", NULL, &error));
  g_assert_nonnull (strstr (error->message, "ds.json: zero_optimization.offload_optimizer.device: "
                                            "\"nvme\" needs zero_optimization.stage 3"));
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

/* A config the importer cannot map exactly is refused with what it is,
 * never planned as something else (T5-base was planned as a 109.6 M
 * decoder, DeepSeek-V3 at 702.2 B instead of 671.0 B). */
static void
test_hf_unsupported_refused (void)
{
  static const struct { const char *config; const char *says; } cases[] = {
    { "{\"model_type\": \"umt5\", \"d_model\": 768, \"num_layers\": 12, \"num_decoder_layers\": 12,"
      " \"num_heads\": 12, \"d_ff\": 2048, \"vocab_size\": 256384}",
      "model_type \"umt5\": this architecture (an encoder-decoder model with a relative bias in "
      "every layer) is not supported yet" },
    { "{\"model_type\": \"llava_next\", \"text_config\": {\"model_type\": \"llama\","
      " \"hidden_size\": 4096, \"num_hidden_layers\": 32, \"num_attention_heads\": 32}}",
      "(a vision-language model with tiled high-resolution images)" },
    { "{\"model_type\": \"zamba\", \"hidden_size\": 3712, \"num_hidden_layers\": 76}",
      "(a hybrid of state-space and attention layers)" },
    { "{\"model_type\": \"falcon_mamba\", \"hidden_size\": 4096, \"num_hidden_layers\": 64}",
      "(a state-space model with unweighted norms on B, C and dt)" },
    { "{\"model_type\": \"xyz\", \"hidden_size\": 768, \"num_hidden_layers\": 12,"
      " \"num_attention_heads\": 12}",
      "model_type \"xyz\": this architecture is not supported; supported: bamba, bart, bert, " },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = hr_json_load_data (cases[i].config, -1, "config.json", &error);
      HrScenario sc;

      g_assert_no_error (error);
      hr_scenario_init_default (&sc);
      g_assert_false (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
      g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, cases[i].says);
      g_assert_true (g_str_has_prefix (error->message, "config.json: model_type "));
    }
}

/* LLaVA and Qwen2-VL: the nested configs mapped field by field, and what
 * they can say and the plan does not cover refused, naming the key. */
static void
test_hf_vision (void)
{
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"llava\", \"vision_config\": {\"model_type\": \"siglip_vision_model\"}}",
      "vision_config.model_type: siglip_vision_model is not supported" },
    { "{\"model_type\": \"llava\", \"vision_feature_select_strategy\": \"full\"}",
      "vision_feature_select_strategy: full is not supported" },
    { "{\"model_type\": \"llava\", \"vision_feature_layer\": [-2, -5, -8]}",
      "vision_feature_layer: (not one layer) is not supported" },
    { "{\"model_type\": \"llava\", \"vision_feature_layer\": 0}",
      "vision_feature_layer: it names no layer of the 24-layer tower's output" },
    { "{\"model_type\": \"llava\", \"vision_config\": {\"hidden_act\": \"gelu\"}}",
      "vision_config.hidden_act: gelu is not supported" },
    { "{\"model_type\": \"llava\", \"projector_hidden_act\": \"relu\"}",
      "projector_hidden_act: relu is not supported" },
    { "{\"model_type\": \"llava\", \"text_config\": {\"model_type\": \"mistral\","
      " \"hidden_size\": 4096, \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
      " \"vocab_size\": 32064}}",
      "text_config: intermediate_size is required for a text model of type \"mistral\"" },
    { "{\"model_type\": \"llava\", \"vision_config\": {\"image_size\": 330, \"patch_size\": 14}}",
      "model.vision_patch: 14 does not divide model.vision_image = 330" },
    { "{\"model_type\": \"llava\", \"text_config\": []}",
      "text_config: not an object" },
    { "{\"model_type\": \"qwen2_vl\", \"hidden_size\": 3584, \"num_hidden_layers\": 28,"
      " \"num_attention_heads\": 28, \"num_key_value_heads\": 4, \"intermediate_size\": 18944,"
      " \"vision_config\": {\"temporal_patch_size\": 1}}",
      "vision_config.temporal_patch_size: 1 is not supported" },
    { "{\"model_type\": \"qwen2_vl\", \"hidden_size\": 2048, \"num_hidden_layers\": 28,"
      " \"num_attention_heads\": 16, \"num_key_value_heads\": 2, \"intermediate_size\": 8960}",
      "vision_config.hidden_size: 3584 is not the language model's hidden_size 2048" },
  };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "llava-1.5-7b-hf.json", NULL);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  g_assert_true (hr_import_file (&sc, path, hr_importer_find ("hf"), NULL, unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (unmapped->len, ==, 0);
  g_assert_cmpint (sc.model.vision, ==, HR_VISION_CLIP);
  g_assert_cmpint (sc.model.projector, ==, HR_PROJECTOR_MLP2X_GELU);
  g_assert_cmpuint (sc.model.layers, ==, 32);              /* LlamaConfig's default */
  g_assert_cmpuint (sc.model.vocab, ==, 32064);
  g_assert_false (sc.model.tied_embeddings);
  g_assert_cmpuint (sc.model.vision_layers, ==, 24);
  g_assert_cmpuint (sc.model.vision_image, ==, 336);
  g_assert_cmpuint (sc.model.vision_feature_layer, ==, 23);   /* -2 of 24 */
  g_assert_cmpuint (hr_model_image_tokens (&sc.model), ==, 576);

  /* Without a vision_config, LlavaConfig's own: LLaVA-1.5's tower. */
  {
    g_autoptr(JsonNode) node = hr_json_load_data ("{\"model_type\": \"llava\"}", -1, "config.json", &error);
    HrModelArch m;

    g_assert_true (hr_hf_import_node (&m, node, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (hr_params_total (&m), ==, 7063427072ull - 2 * 64 * 4096);
  }

  g_clear_pointer (&path, g_free);
  path = g_test_build_filename (G_TEST_DIST, "data", "hf", "qwen2-vl-7b-instruct.json", NULL);
  g_ptr_array_set_size (unmapped, 0);
  hr_scenario_init_default (&sc);
  g_assert_true (hr_import_file (&sc, path, hr_importer_find ("hf"), NULL, unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sc.model.vision, ==, HR_VISION_QWEN2_VL);
  g_assert_cmpuint (sc.model.vision_ffn, ==, 5120);           /* 1280 x mlp_ratio 4 */
  g_assert_cmpuint (sc.model.projector_merge, ==, 2);
  g_assert_cmpint (sc.model.bias, ==, HR_BIAS_QKV);
  /* (the image size is the processor's: said, and planned at 448) */
  g_assert_cmpuint (unmapped->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (unmapped, 1), "planned at 448 x 448 pixels, 256"));

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(JsonNode) node = hr_json_load_data (refused[i].config, -1, "config.json", &error);
      HrModelArch m;

      g_assert_no_error (error);
      g_assert_false (hr_hf_import_node (&m, node, "config.json", NULL, &error));
      g_assert_nonnull (error);
      if (strstr (error->message, refused[i].says) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, refused[i].says);
      g_clear_error (&error);
    }
}

/* Llama 3.2 Vision: the nested configs mapped field by field, the
 * cross-attention layers as a period and an offset, and what the configs
 * can say and the plan does not cover refused, naming the key. */
static void
test_hf_mllama (void)
{
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"mllama\", \"text_config\": {\"cross_attention_layers\": [3, 8, 14]}}",
      "text_config.cross_attention_layers: (this list) is not supported for Llama 3.2 Vision; "
      "allowed: every N-th layer" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"cross_attention_layers\": [3, 8, 13]}}",
      "text_config.cross_attention_layers: (this list) is not supported" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"cross_attention_layers\": [0, 5, 10, 15,"
      " 20, 25, 30, 35]}}",
      "text_config.cross_attention_layers: (from layer 0) is not supported" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"cross_attention_layers\": []}}",
      "text_config.cross_attention_layers: [] is not supported" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"cross_attention_layers\": [3, 40]}}",
      "text_config: cross_attention_layers: not a list of whole numbers from 0 to 39" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"hidden_act\": \"gelu\"}}",
      "text_config.hidden_act: gelu is not supported for Llama 3.2 Vision; allowed: silu" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"dropout\": 0.1}}",
      "text_config.dropout: (not 0) is not supported" },
    { "{\"model_type\": \"mllama\", \"text_config\": {\"model_type\": \"llama\"}}",
      "text_config.model_type: llama is not supported" },
    { "{\"model_type\": \"mllama\", \"vision_config\": {\"hidden_act\": \"quick_gelu\"}}",
      "vision_config.hidden_act: quick_gelu is not supported for Llama 3.2 Vision; allowed: gelu" },
    { "{\"model_type\": \"mllama\", \"vision_config\": {\"vision_output_dim\": 6400}}",
      "vision_config.vision_output_dim: 6400 is not hidden_size × (1 + 5 intermediate layers) = 7680" },
    { "{\"model_type\": \"mllama\", \"vision_config\": {\"intermediate_layers_indices\": [3, 40]}}",
      "vision_config: config.json: intermediate_layers_indices: not a list of whole numbers from -33 to 32" },
    { "{\"model_type\": \"mllama\", \"vision_config\": {\"max_num_tiles\": 6}}",
      "vision_config.supported_aspect_ratios: (none) is not supported" },
    { "{\"model_type\": \"mllama\", \"vision_config\": {\"image_size\": 500}}",
      "model.vision_patch: 14 does not divide model.vision_image = 500" },
    { "{\"model_type\": \"mllama\", \"vision_config\": []}",
      "vision_config: not an object" },
  };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "llama-3.2-11b-vision.json", NULL);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  HrScenario sc, preset;

  hr_scenario_init_default (&sc);
  g_assert_true (hr_import_file (&sc, path, hr_importer_find ("hf"), NULL, unmapped, &error));
  g_assert_no_error (error);
  /* (the tiles are said: every image planned as 4) */
  g_assert_cmpuint (unmapped->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (unmapped, 0), "planned as 4 tiles"));
  /* the same architecture as the bundled preset, field by field */
  hr_scenario_init_default (&preset);
  hr_test_model (&preset, "llama-3.2-11b-vision");
  {
    const HrModelArch *a = &sc.model, *b = &preset.model;
    const guint64 fa[] = { a->layers, a->hidden, a->heads, a->kv_heads, hr_model_head_dim (a),
                           a->ffn, a->mlp, a->vocab, a->tied_embeddings, a->norm, a->bias,
                           a->vision, a->vision_layers, a->vision_global_layers, a->vision_hidden,
                           a->vision_heads, a->vision_ffn, a->vision_patch, a->vision_image,
                           hr_model_vision_channels (a), a->vision_tiles, a->vision_aspect_ratios,
                           a->vision_intermediate_layers, a->vision_feature_layer, a->projector,
                           a->cross_attn_layer_period, a->cross_attn_layer_offset };
    const guint64 fb[] = { b->layers, b->hidden, b->heads, b->kv_heads, hr_model_head_dim (b),
                           b->ffn, b->mlp, b->vocab, b->tied_embeddings, b->norm, b->bias,
                           b->vision, b->vision_layers, b->vision_global_layers, b->vision_hidden,
                           b->vision_heads, b->vision_ffn, b->vision_patch, b->vision_image,
                           hr_model_vision_channels (b), b->vision_tiles, b->vision_aspect_ratios,
                           b->vision_intermediate_layers, b->vision_feature_layer, b->projector,
                           b->cross_attn_layer_period, b->cross_attn_layer_offset };

    for (guint i = 0; i < G_N_ELEMENTS (fa); i++)
      g_assert_cmpuint (fa[i], ==, fb[i]);
    g_assert_cmpuint (hr_params_total (a), ==, hr_params_total (b));
  }

  /* Without nested configs, MllamaConfig's defaults: the 11B's sizes but
   * 448-pixel tiles, 32² + 1 = 1025 tokens each instead of 1601: the
   * position table (1601 - 1025)·1280 and the tile table 9·4·576·1280
   * smaller. */
  {
    g_autoptr(JsonNode) node = hr_json_load_data ("{\"model_type\": \"mllama\"}", -1,
                                                  "config.json", &error);
    HrModelArch m;

    g_assert_true (hr_hf_import_node (&m, node, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (m.vision_image, ==, 448);
    g_assert_cmpuint (m.cross_attn_layer_period, ==, 5);
    g_assert_cmpuint (m.cross_attn_layer_offset, ==, 3);
    g_assert_cmpuint (hr_params_total (&m), ==,
                      10670220835ull - 576 * 1280 - 9 * 4 * 576 * 1280ull);
  }
  /* One cross-attention layer: a period of all the layers. */
  {
    g_autoptr(JsonNode) node = hr_json_load_data ("{\"model_type\": \"mllama\", \"text_config\":"
                                                  " {\"cross_attention_layers\": [20]}}", -1,
                                                  "config.json", &error);
    HrModelArch m;

    g_assert_true (hr_hf_import_node (&m, node, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (m.cross_attn_layer_period, ==, 40);
    g_assert_cmpuint (m.cross_attn_layer_offset, ==, 20);
    g_assert_cmpuint (hr_model_cross_layers (&m, 0, 40), ==, 1);
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(JsonNode) node = hr_json_load_data (refused[i].config, -1, "config.json", &error);
      HrModelArch m;

      g_assert_no_error (error);
      g_assert_false (hr_hf_import_node (&m, node, "config.json", NULL, &error));
      g_assert_nonnull (error);
      if (strstr (error->message, refused[i].says) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, refused[i].says);
      g_clear_error (&error);
    }
}

/* T5 and BART map exactly or not at all: what their configs can say and
 * the plan does not cover is refused, naming the key. */
static void
test_hf_seq2seq_refused (void)
{
  static const struct { const char *config; const char *says; } cases[] = {
    { "{\"model_type\": \"bart\", \"normalize_before\": true}",
      "config.json: normalize_before: true describes mBART's pre-norm layers" },
    { "{\"model_type\": \"bart\", \"decoder_ffn_dim\": 2048}",
      "config.json: decoder_attention_heads 16 and decoder_ffn_dim 2048 differ from the encoder's" },
    { "{\"model_type\": \"bart\", \"activation_function\": \"tanh\"}",
      "config.json: activation_function: \"tanh\" is not supported for BART; allowed: gelu, relu" },
    { "{\"model_type\": \"t5\", \"feed_forward_proj\": \"gated-tanh\"}",
      "config.json: feed_forward_proj: \"gated-tanh\" is not supported" },
    { "{\"model_type\": \"t5\", \"num_decoder_layers\": 0}",
      "config.json: model.decoder_layers: 0 is out of range; allowed: 1 to 100000" },
    { "{\"model_type\": \"t5\", \"num_layers\": 0, \"num_decoder_layers\": 6}",
      "config.json: model.layers: 0 is out of range; allowed: 1 to 100000" },
    { "{\"model_type\": \"whisper\", \"decoder_attention_heads\": 8}",
      "config.json: decoder_attention_heads 8 and decoder_ffn_dim 1536 differ from the encoder's" },
    { "{\"model_type\": \"whisper\", \"activation_function\": \"silu\"}",
      "config.json: activation_function: \"silu\" is not supported for Whisper; allowed: gelu, relu" },
    { "{\"model_type\": \"whisper\", \"num_mel_bins\": 0}",
      "config.json: num_mel_bins: 0 is out of range" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = hr_json_load_data (cases[i].config, -1, "config.json", &error);
      HrScenario sc;

      g_assert_no_error (error);
      hr_scenario_init_default (&sc);
      g_assert_false (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
      g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("\"%s\" does not say \"%s\"", error->message, cases[i].says);
    }

  /* google/mt5-base's config.json: T5 v1.1's layout over a 250112-token
   * vocabulary, untied: 2·250112·768 + the layers of Flan-T5-base
   * (84,953,088 + 113,273,856) + norms 1,536 + biases 768 = 582,401,280,
   * the count a public parameter script records for models/mt5-base. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = hr_json_load_data (
      "{\"model_type\": \"mt5\", \"d_ff\": 2048, \"d_kv\": 64, \"d_model\": 768,"
      " \"feed_forward_proj\": \"gated-gelu\", \"num_decoder_layers\": 12, \"num_heads\": 12,"
      " \"num_layers\": 12, \"relative_attention_num_buckets\": 32,"
      " \"tie_word_embeddings\": false, \"vocab_size\": 250112}", -1, "config.json", &error);
    HrScenario sc;

    hr_scenario_init_default (&sc);
    g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
    g_assert_cmpuint (hr_params_total (&sc.model), ==, 582401280);
  }

  /* T5Config's defaults (t5-small's shape): 6 + 6 layers of 8 heads,
   * d_model 512, d_ff 2048 relu, vocab 32128, tied: 60,506,624. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = hr_json_load_data ("{\"model_type\": \"t5\"}", -1, "config.json", &error);
    HrScenario sc;

    hr_scenario_init_default (&sc);
    g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
    g_assert_cmpuint (sc.model.kind, ==, HR_KIND_ENCODER_DECODER);
    g_assert_cmpuint (sc.model.decoder_layers, ==, 6);
    g_assert_cmpuint (hr_params_total (&sc.model), ==, 60506624);
  }
}

/* DeepSeek's configs map exactly: deepseek-ai/DeepSeek-V3's config.json
 * (and DeepSeek-V2-Lite's, mlc-ai/mlc-llm model_preset.py's copy of it),
 * their keys that shape the model, to the counts of tests/test-params.c:
 * 671,026,419,200 + the MTP module's 11,610,068,224 = 682,636,487,424
 * (num_nextn_predict_layers 1), and 15,706,484,224. */
static void
test_hf_deepseek (void)
{
  static const struct { const char *config; guint64 params, mtp; } cases[] = {
    { "{\"architectures\": [\"DeepseekV3ForCausalLM\"], \"model_type\": \"deepseek_v3\","
      " \"first_k_dense_replace\": 3, \"hidden_act\": \"silu\", \"hidden_size\": 7168,"
      " \"intermediate_size\": 18432, \"kv_lora_rank\": 512, \"moe_intermediate_size\": 2048,"
      " \"moe_layer_freq\": 1, \"n_group\": 8, \"n_routed_experts\": 256, \"n_shared_experts\": 1,"
      " \"norm_topk_prob\": true, \"num_attention_heads\": 128, \"num_experts_per_tok\": 8,"
      " \"num_hidden_layers\": 61, \"num_key_value_heads\": 128, \"num_nextn_predict_layers\": 1,"
      " \"q_lora_rank\": 1536, \"qk_nope_head_dim\": 128, \"qk_rope_head_dim\": 64,"
      " \"rms_norm_eps\": 1e-06, \"routed_scaling_factor\": 2.5, \"scoring_func\": \"sigmoid\","
      " \"tie_word_embeddings\": false, \"topk_group\": 4, \"topk_method\": \"noaux_tc\","
      " \"v_head_dim\": 128, \"vocab_size\": 129280}", 682636487424, 1 },
    { "{\"architectures\": [\"DeepseekV2ForCausalLM\"], \"model_type\": \"deepseek_v2\","
      " \"first_k_dense_replace\": 1, \"hidden_act\": \"silu\", \"hidden_size\": 2048,"
      " \"intermediate_size\": 10944, \"kv_lora_rank\": 512, \"moe_intermediate_size\": 1408,"
      " \"moe_layer_freq\": 1, \"n_group\": 1, \"n_routed_experts\": 64, \"n_shared_experts\": 2,"
      " \"num_attention_heads\": 16, \"num_experts_per_tok\": 6, \"num_hidden_layers\": 27,"
      " \"num_key_value_heads\": 16, \"q_lora_rank\": null, \"qk_nope_head_dim\": 128,"
      " \"qk_rope_head_dim\": 64, \"rms_norm_eps\": 1e-06, \"topk_group\": 1,"
      " \"topk_method\": \"greedy\", \"v_head_dim\": 128, \"vocab_size\": 102400}", 15706484224, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = hr_json_load_data (cases[i].config, -1, "config.json", &error);
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
      HrScenario sc;

      g_assert_no_error (error);
      hr_scenario_init_default (&sc);
      g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", unmapped, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (sc.model.attention_kind, ==, HR_ATTN_KIND_MLA);
      g_assert_cmpuint (sc.model.mtp_modules, ==, cases[i].mtp);
      g_assert_cmpuint (hr_params_total (&sc.model), ==, cases[i].params);
      /* nothing of the latent attention or the MoE is left unmapped */
      for (guint j = 0; j < unmapped->len; j++)
        {
          const char *said = g_ptr_array_index (unmapped, j);

          g_assert_null (strstr (said, "lora"));
          g_assert_null (strstr (said, "expert"));
          g_assert_null (strstr (said, "dense"));
        }
      g_assert_true (hr_scenario_validate (&sc, &error));
    }

  /* A latent attention without its ranks is refused, naming them. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = hr_json_load_data ("{\"model_type\": \"deepseek_v3\", \"hidden_size\": 7168,"
                                                  " \"num_hidden_layers\": 61, \"num_attention_heads\": 128}",
                                                  -1, "config.json", &error);
    HrScenario sc;

    hr_scenario_init_default (&sc);
    g_assert_false (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
    g_assert_nonnull (strstr (error->message, "needs kv_lora_rank"));
  }
}

/* A checkpoint's index beside the config checks the count: Llama 2 7B's
 * model.safetensors.index.json says 13476839424 bytes (fp16), the
 * 6738415616 parameters plus 8 KiB of rotary buffers; a total that does
 * not match is reported. */
static void
test_hf_safetensors_index (void)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", "hf", "llama-2-7b.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("hr-hf-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (dir, "config.json", NULL);
  g_autofree char *index = g_build_filename (dir, "model.safetensors.index.json", NULL);
  g_autofree char *text = NULL;
  const char *totals[] = { "13476839424", "14000000000" };

  g_assert_true (g_file_get_contents (source, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (config, text, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (totals); i++)
    {
      g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_autofree char *json = g_strdup_printf ("{\"metadata\": {\"total_size\": %s}, "
                                               "\"weight_map\": {}}", totals[i]);
      gboolean reported = FALSE;
      HrScenario sc;

      g_assert_true (g_file_set_contents (index, json, -1, NULL));
      hr_scenario_init_default (&sc);
      g_assert_true (hr_import_file (&sc, config, hr_importer_find ("hf"), NULL, unmapped, &error));
      g_assert_no_error (error);
      for (guint j = 0; j < unmapped->len; j++)
        reported |= strstr (g_ptr_array_index (unmapped, j), "the checkpoint holds 7000000000 "
                            "parameters (float16), Headroom counts 6738415616 (-3.74 %)") != NULL;
      g_assert_cmpint (reported, ==, i == 1);
    }

  /* DeepSeek-R1's checkpoint is fp8 with fp32 block scales, not
   * torch_dtype's bfloat16: a quantized checkpoint's total is not compared
   * (here a made-up index of one byte for each of the 684,489,845,504
   * parameters the checkpoint stores, the scales left out). */
  {
    g_autofree char *r1 = g_test_build_filename (G_TEST_DIST, "data", "hf", "deepseek-r1.json", NULL);
    g_autofree char *r1_text = NULL;
    g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GError) error = NULL;
    HrScenario sc;

    g_assert_true (g_file_get_contents (r1, &r1_text, NULL, NULL));
    g_assert_true (g_file_set_contents (config, r1_text, -1, NULL));
    g_assert_true (g_file_set_contents (index, "{\"metadata\": {\"total_size\": 684489845504}, "
                                        "\"weight_map\": {}}", -1, NULL));
    hr_scenario_init_default (&sc);
    g_assert_true (hr_import_file (&sc, config, hr_importer_find ("hf"), NULL, unmapped, &error));
    g_assert_no_error (error);
    for (guint j = 0; j < unmapped->len; j++)
      g_assert_null (strstr (g_ptr_array_index (unmapped, j), "model.safetensors.index.json"));
  }
  g_unlink (index);
  g_unlink (config);
  g_rmdir (dir);
}

/* Each format is recognised by its own importer; a scenario file by none. */
static void
test_importer_detects_its_format (void)
{
  g_autofree char *hf = g_test_build_filename (G_TEST_DIST, "data", "hf", "gpt2.json", NULL);
  g_autofree char *ds = g_test_build_filename (G_TEST_DIST, "data", "hf", "ds-zero3-offload.json", NULL);
  g_autofree char *scenario = g_test_build_filename (G_TEST_DIST, "..", "presets", "scenarios",
                                                     "default.json", NULL);
  const char *paths[] = { hf, ds, scenario };
  const HrImporter *expected[] = { hr_importer_find ("hf"), hr_importer_find ("deepspeed"), NULL };

  g_assert_nonnull (expected[0]);
  g_assert_nonnull (expected[1]);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = hr_json_load_file (paths[i], &error);
      const HrImporter *used = NULL;
      HrScenario sc;

      g_assert_no_error (error);
      g_assert_true (hr_importer_detect (root) == expected[i]);
      hr_scenario_init_default (&sc);
      if (expected[i] != NULL)
        {
          g_assert_true (hr_import_file (&sc, paths[i], NULL, &used, NULL, &error));
          g_assert_no_error (error);
          g_assert_true (used == expected[i]);
        }
      else
        {
          g_assert_false (hr_import_file (&sc, paths[i], NULL, &used, NULL, &error));
          g_assert_nonnull (strstr (error->message, "not a config Headroom can import; allowed: "
                                    "a DeepSpeed config or a Hugging Face config.json"));
        }
    }
  g_assert_null (hr_importer_find ("yaml"));
}

/* A Nemotron-H config (NemotronHConfig's keys, the 8B's values: the
 * class's defaults) maps to the bundled preset's fields and count; the
 * newer layers_block_type list says the same pattern; the MoE block,
 * another activation, MTP layers and a character no block has are
 * refused with their key. */
static void
test_hf_nemotron_h (void)
{
  static const char *config =
    "{\"model_type\": \"nemotron_h\", \"vocab_size\": 131072, \"hidden_size\": 4096,"
    " \"intermediate_size\": 21504, \"num_hidden_layers\": 52,"
    " \"hybrid_override_pattern\": \"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-\","
    " \"num_attention_heads\": 32, \"head_dim\": 128, \"num_key_value_heads\": 8,"
    " \"mlp_hidden_act\": \"relu2\", \"ssm_state_size\": 128, \"mamba_num_heads\": 128,"
    " \"n_groups\": 8, \"mamba_head_dim\": 64, \"conv_kernel\": 4, \"use_conv_bias\": true,"
    " \"tie_word_embeddings\": false}";
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"nemotron_h\", \"hybrid_override_pattern\": \"ME*E\", \"moe_latent_size\": 0}",
      "config.json: moe_latent_size: 0 is out of range; allowed: 1 to 1048576" },
    { "{\"model_type\": \"nemotron_h\", \"hybrid_override_pattern\": \"ME*E\", \"moe_intermediate_size\": 1000,"
      " \"moe_shared_expert_intermediate_size\": 1500}",
      "config.json: moe_shared_expert_intermediate_size: 1500 is not supported for Nemotron-H; allowed: a "
      "multiple of moe_intermediate_size = 1000" },
    { "{\"model_type\": \"nemotron_h\", \"mlp_hidden_act\": \"silu\"}",
      "config.json: mlp_hidden_act: silu is not supported for Nemotron-H; allowed: relu2" },
    { "{\"model_type\": \"nemotron_h\", \"hybrid_override_pattern\": \"M-X\"}",
      "config.json: hybrid_override_pattern: not a pattern Headroom reads; allowed: 1 to 511 of the "
      "characters M, *, - and E" },
    { "{\"model_type\": \"nemotron_h\", \"layers_block_type\": [\"mamba\", \"conv\"]}",
      "config.json: layers_block_type[1]: not a block type; allowed: mamba, linear_attention, attention, "
      "full_attention, mlp, moe" },
    { "{\"model_type\": \"nemotron_h\", \"mamba_num_heads\": 100}",
      "config.json: model.ssm_groups: 8 does not divide model.ssm_heads = 100" },
    { "{\"model_type\": \"nemotron_h\", \"use_bias\": true}",
      "config.json: use_bias: true is not supported for Nemotron-H; allowed: false" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = hr_json_load_data (config, -1, "config.json", &error);
  HrScenario sc, preset;

  hr_scenario_init_default (&sc);
  hr_scenario_init_default (&preset);
  hr_test_model (&preset, "nemotron-h-8b");
  g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sc.model.layer_pattern, ==, preset.model.layer_pattern);
  g_assert_cmpint (sc.model.mlp, ==, HR_MLP_RELU2);
  g_assert_cmpint (sc.model.ssm, ==, HR_SSM_MAMBA2);
  g_assert_cmpuint (sc.model.ssm_inner, ==, 8192);
  g_assert_cmpuint (sc.model.layers, ==, 52);
  g_assert_cmpuint (hr_params_total (&sc.model), ==, 8100852736ull);

  /* The same in the newer spelling, every block named. */
  {
    GString *list = g_string_new ("{\"model_type\": \"nemotron_h\", \"layers_block_type\": [");
    g_autoptr(JsonNode) listed = NULL;
    HrModelArch m = { 0 };

    for (const char *c = preset.model.layer_pattern; *c != '\0'; c++)
      g_string_append_printf (list, "%s\"%s\"", c == preset.model.layer_pattern ? "" : ", ",
                              *c == 'M' ? "linear_attention" : *c == '*' ? "full_attention" : "mlp");
    g_string_append (list, "]}");
    listed = hr_json_load_data (list->str, -1, "config.json", &error);
    g_string_free (list, TRUE);
    g_assert_true (hr_hf_import_node (&m, listed, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (m.layer_pattern, ==, preset.model.layer_pattern);
    g_assert_cmpuint (hr_params_total (&m), ==, 8100852736ull);
  }

  /* MoE blocks (NemotronHMoE), every part by hand: 4 experts of 128 (up
   * and down, squared ReLU), a router 4 x 256, a shared MLP of 256 (two
   * experts' widths); a Mamba-2 mixer of 8 heads x 64 (in_proj 256 x
   * (2·512 + 2·2·16 + 8), conv1d 576 x 4 + 576, 3 x 8, norm 512, out_proj
   * 512 x 256), attention 2·256² + 2·256·128, an MLP 2·256·512; a norm of
   * 256 per block, the token table and head 2·1000·256, the final norm. */
  {
    g_autoptr(JsonNode) moe = hr_json_load_data (
      "{\"model_type\": \"nemotron_h\", \"vocab_size\": 1000, \"hidden_size\": 256,"
      " \"intermediate_size\": 512, \"hybrid_override_pattern\": \"ME*E-\", \"num_attention_heads\": 4,"
      " \"num_key_value_heads\": 2, \"head_dim\": 64, \"mamba_num_heads\": 8, \"mamba_head_dim\": 64,"
      " \"n_groups\": 2, \"ssm_state_size\": 16, \"n_routed_experts\": 4, \"num_experts_per_tok\": 2,"
      " \"moe_intermediate_size\": 128, \"moe_shared_expert_intermediate_size\": 256,"
      " \"moe_latent_size\": null}", -1, "config.json", &error);
    HrModelArch m = { 0 };
    const guint64 mixer = 256 * 1096 + 576 * 4 + 576 + 3 * 8 + 512 + 512 * 256;
    const guint64 expert_block = 4 * 256 + 4 * 2 * 256 * 128 + 2 * 256 * 256;

    g_assert_true (hr_hf_import_node (&m, moe, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (m.experts, ==, 4);
    g_assert_cmpuint (m.shared_experts, ==, 2);
    g_assert_cmpuint (m.expert_ffn, ==, 128);
    g_assert_cmpuint (hr_params_total (&m), ==, 2 * 1000 * 256 + 256 + (mixer + 256) + 2 * (expert_block + 256)
                                                + (2 * 256 * 256 + 2 * 256 * 128 + 256) + (2 * 256 * 512 + 256));
    g_assert_cmpuint (hr_params_total (&m), ==, 2175832);
  }

  /* ... with a latent MoE of 64 (Nemotron 3's moe_latent_size): each
   * expert block has fc1_latent_proj and fc2_latent_proj (2·256·64) and
   * experts over 64 (4 x 2·64·128) instead of 4 x 2·256·128: 163,840
   * less a block, two blocks. */
  {
    g_autoptr(JsonNode) latent = hr_json_load_data (
      "{\"model_type\": \"nemotron_h\", \"vocab_size\": 1000, \"hidden_size\": 256,"
      " \"intermediate_size\": 512, \"hybrid_override_pattern\": \"ME*E-\", \"num_attention_heads\": 4,"
      " \"num_key_value_heads\": 2, \"head_dim\": 64, \"mamba_num_heads\": 8, \"mamba_head_dim\": 64,"
      " \"n_groups\": 2, \"ssm_state_size\": 16, \"n_routed_experts\": 4, \"num_experts_per_tok\": 2,"
      " \"moe_intermediate_size\": 128, \"moe_shared_expert_intermediate_size\": 256,"
      " \"moe_latent_size\": 64}", -1, "config.json", &error);
    HrModelArch m = { 0 };

    G_STATIC_ASSERT (4 * 2 * 256 * 128 - (4 * 2 * 64 * 128 + 2 * 256 * 64) == 163840);
    g_assert_true (hr_hf_import_node (&m, latent, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (m.moe_latent_size, ==, 64);
    g_assert_cmpuint (hr_params_total (&m), ==, 2175832 - 2 * 163840);
  }

  /* Multi-token-prediction layers: transformers' NemotronH loads none
   * (_keys_to_ignore_on_load_unexpected, mtp.*): planned without them, and
   * said so. */
  {
    g_autoptr(JsonNode) mtp = hr_json_load_data (
      "{\"model_type\": \"nemotron_h\", \"num_nextn_predict_layers\": 1}", -1, "config.json", &error);
    g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
    HrModelArch m = { 0 };

    g_assert_true (hr_hf_import_node (&m, mtp, "config.json", unmapped, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (m.mtp_modules, ==, 0);
    g_assert_cmpuint (hr_params_total (&m), ==, 8100852736ull);
    g_assert_cmpuint (unmapped->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (unmapped, 0), "num_nextn_predict_layers: 1"));
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i].config, refused[i].says);
}

/* A Bamba config (BambaConfig's keys) maps to the bundled preset: the
 * attention at attn_layer_indices, every other layer a Mamba-2 mixer,
 * each followed by the MLP; a mixer Headroom does not plan and a list
 * that names no layer are refused with their key.  A small config by
 * hand: 4 layers of h 64, attention at 1 (heads 4 of 16, K/V 2), a
 * Mamba-2 mixer of 8 heads of 16 (in_proj 64 x (128 + 160 + 8), conv1d
 * 160 x 4 + 160, 3 x 8, norm 128, out_proj 128 x 64), an MLP 3 x 64 x
 * 128 and two norms of 64 per layer, untied 2 x 100 x 64, a final norm. */
static void
test_hf_bamba (void)
{
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"bamba\", \"mamba_proj_bias\": true}",
      "config.json: mamba_proj_bias: true is not supported for Bamba; allowed: false" },
    { "{\"model_type\": \"bamba\", \"mamba_conv_bias\": false}",
      "config.json: mamba_conv_bias: false is not supported for Bamba; allowed: true" },
    { "{\"model_type\": \"bamba\", \"num_hidden_layers\": 4, \"attn_layer_indices\": [1, 4]}",
      "config.json: attn_layer_indices[1]: not a layer number is not supported for Bamba; allowed: null "
      "or a list of layer numbers, 0 to 3" },
    { "{\"model_type\": \"bamba\", \"attn_layer_indices\": \"9\"}",
      "config.json: attn_layer_indices: not a list is not supported for Bamba" },
    { "{\"model_type\": \"bamba\", \"mamba_d_head\": 32}",
      "config.json: mamba_d_head: 32 is not supported for Bamba; allowed: mamba_expand x hidden_size / "
      "mamba_n_heads = 64" },
    { "{\"model_type\": \"bamba\", \"hidden_act\": \"gelu\"}",
      "config.json: hidden_act: gelu is not supported for Bamba; allowed: silu" },
    { "{\"model_type\": \"bamba\", \"num_hidden_layers\": 2, \"attn_layer_indices\": [0, 1]}",
      "config.json: model.ssm: mamba2 describes a mixer no layer of model.layer_mixers has (no M)" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "bamba-9b.json", NULL);
  g_autoptr(JsonNode) node = hr_json_load_file (path, &error);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc, preset;

  g_assert_no_error (error);
  hr_scenario_init_default (&sc);
  hr_scenario_init_default (&preset);
  hr_test_model (&preset, "bamba-9b");
  g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sc.model.layer_mixers, ==, preset.model.layer_mixers);
  g_assert_cmpstr (sc.model.layer_mixers, ==, "MMMMMMMMM*MMMMMMMM*MMMMMMMM*MMMM");
  g_assert_cmpint (sc.model.ssm, ==, HR_SSM_MAMBA2);
  g_assert_cmpuint (sc.model.ssm_heads, ==, 128);
  g_assert_cmpuint (sc.model.ssm_head_dim, ==, 64);
  g_assert_cmpuint (sc.model.ssm_state, ==, 128);
  g_assert_cmpuint (hr_params_total (&sc.model), ==, hr_params_total (&preset.model));
  g_assert_cmpuint (hr_params_total (&sc.model), ==, 9780235392ull);
  g_assert_cmpuint (unmapped->len, ==, 1);

  {
    g_autoptr(JsonNode) small = hr_json_load_data (
      "{\"model_type\": \"bamba\", \"vocab_size\": 100, \"hidden_size\": 64, \"intermediate_size\": 128,"
      " \"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
      " \"attn_layer_indices\": [1], \"mamba_n_heads\": 8, \"mamba_d_state\": 16,"
      " \"mamba_n_groups\": 1}", -1, "config.json", &error);
    HrModelArch m = { 0 };
    const guint64 mixer = 64 * (128 + 160 + 8) + 160 * 4 + 160 + 3 * 8 + 128 + 128 * 64;
    const guint64 attention = 64 * 64 + 2 * 64 * 32 + 64 * 64;
    const guint64 mlp_norms = 3 * 64 * 128 + 2 * 64;

    g_assert_no_error (error);
    g_assert_true (hr_hf_import_node (&m, small, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (m.layer_mixers, ==, "M*MM");
    g_assert_cmpuint (m.ssm_head_dim, ==, 16);
    g_assert_cmpuint (hr_params_total (&m), ==, 3 * (mixer + mlp_norms) + (attention + mlp_norms)
                                                + 2 * 100 * 64 + 64);
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i].config, refused[i].says);
}

/* Granite 4.0-H (hr-hf-import-granite.c): the tiny model's config maps
 * to the preset (its layers' mixers, the experts and the shared MLP as
 * two experts' width); the dense models' layers carry the shared MLP
 * alone, and one whose every layer attends is a plain decoder.  Small
 * configs by hand, h 64: a Mamba-2 mixer of 8 heads of 16 (64 x (128 +
 * 160 + 8), conv1d 160 x 4 + 160, 3 x 8, norm 128, out_proj 128 x 64),
 * attention 4 heads of 16 with 2 K/V heads, two norms per layer, a tied
 * table of 100 x 64 and the final norm; with 4 experts of 32 and a
 * shared MLP of 64, a router 64 x 4, 4 x 3 x 64 x 32 and 3 x 64 x 64; the
 * dense ones a gated MLP of 3 x 64 x 96. */
static void
test_hf_granite (void)
{
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"granitemoehybrid\", \"num_hidden_layers\": 2, \"layer_types\": [\"mamba\"]}",
      "config.json: layer_types: 1 layers is not supported for Granite 4.0-H; allowed: null or a list of "
      "2 of \"mamba\" and \"attention\" (num_hidden_layers)" },
    { "{\"model_type\": \"granitemoehybrid\", \"num_hidden_layers\": 2,"
      " \"layer_types\": [\"mamba\", \"mlp\"]}",
      "config.json: layer_types[1]: mlp is not supported for Granite 4.0-H; allowed: \"mamba\", \"attention\"" },
    { "{\"model_type\": \"granitemoehybrid\", \"layer_types\": \"mamba\"}",
      "config.json: layer_types: not a list is not supported for Granite 4.0-H" },
    { "{\"model_type\": \"granitemoehybrid\", \"intermediate_size\": 512,"
      " \"shared_intermediate_size\": 768}",
      "config.json: shared_intermediate_size: 768 is not supported for Granite 4.0-H; allowed: a multiple "
      "of intermediate_size = 512, one or more" },
    { "{\"model_type\": \"granitemoehybrid\", \"intermediate_size\": 512, \"shared_intermediate_size\": 0}",
      "config.json: shared_intermediate_size: 0 is not supported for Granite 4.0-H" },
    { "{\"model_type\": \"granitemoehybrid\", \"num_local_experts\": 1}",
      "config.json: num_local_experts: 1 is not supported for Granite 4.0-H; allowed: 0 (the shared MLP "
      "alone), or 2 or more" },
    { "{\"model_type\": \"granitemoehybrid\", \"attention_bias\": true}",
      "config.json: attention_bias: true is not supported for Granite 4.0-H; allowed: false" },
    { "{\"model_type\": \"granitemoehybrid\", \"num_local_experts\": 0, \"mamba_proj_bias\": true}",
      "config.json: mamba_proj_bias: true is not supported for Granite 4.0-H; allowed: false" },
    { "{\"model_type\": \"granitemoehybrid\", \"num_local_experts\": 0, \"hidden_act\": \"gelu\"}",
      "config.json: hidden_act: gelu is not supported for Granite 4.0-H; allowed: silu" },
    { "{\"model_type\": \"granitemoehybrid\", \"num_hidden_layers\": 1, \"layer_types\": [\"attention\"],"
      " \"intermediate_size\": 512}",
      "config.json: layer_types: attention in every layer is not supported for Granite 4.0-H; allowed: "
      "at least one \"mamba\" layer where num_local_experts > 0" },
    { "{\"model_type\": \"granitemoehybrid\", \"num_experts_per_tok\": 9}",
      "config.json: num_experts_per_tok: " },
  };
  static const char small[] =
    "{\"model_type\": \"granitemoehybrid\", \"vocab_size\": 100, \"hidden_size\": 64,"
    " \"num_hidden_layers\": 3, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
    " \"layer_types\": [\"mamba\", \"attention\", \"mamba\"], \"mamba_n_heads\": 8,"
    " \"mamba_d_state\": 16, \"tie_word_embeddings\": true, %s}";
  const guint64 mixer = 64 * (128 + 160 + 8) + 160 * 4 + 160 + 3 * 8 + 128 + 128 * 64;
  const guint64 attention = 64 * 64 + 2 * 64 * 32 + 64 * 64;
  const guint64 outside = 100 * 64 + 64 + 3 * 2 * 64;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "granite-4.0-h-tiny.json", NULL);
  g_autoptr(JsonNode) node = hr_json_load_file (path, &error);
  g_autoptr(GPtrArray) unmapped = g_ptr_array_new_with_free_func (g_free);
  HrScenario sc, preset;

  g_assert_no_error (error);
  hr_scenario_init_default (&sc);
  hr_scenario_init_default (&preset);
  hr_test_model (&preset, "granite-4.0-h-tiny");
  g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", unmapped, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sc.model.layer_mixers, ==, preset.model.layer_mixers);
  g_assert_cmpuint (sc.model.experts, ==, 64);
  g_assert_cmpuint (sc.model.experts_active, ==, 6);
  g_assert_cmpuint (sc.model.shared_experts, ==, 2);
  g_assert_cmpuint (sc.model.ssm_heads, ==, 48);
  g_assert_cmpuint (hr_params_total (&sc.model), ==, hr_params_total (&preset.model));
  {
    HrParamCounts imported, bundled;

    hr_params_count (&sc.model, NULL, 1, 1, &imported);
    hr_params_count (&preset.model, NULL, 1, 1, &bundled);
    g_assert_cmpuint (imported.active, ==, bundled.active);
  }
  g_assert_cmpuint (unmapped->len, ==, 0);

  {
    g_autofree char *json = g_strdup_printf (small, "\"num_local_experts\": 4, \"num_experts_per_tok\": 2,"
                                                    " \"intermediate_size\": 32, \"shared_intermediate_size\": 64");
    g_autoptr(JsonNode) moe = hr_json_load_data (json, -1, "config.json", &error);
    HrModelArch m = { 0 };
    const guint64 mlp = 64 * 4 + 4 * 3 * 64 * 32 + 3 * 64 * 64;

    g_assert_no_error (error);
    g_assert_true (hr_hf_import_node (&m, moe, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (m.layer_mixers, ==, "M*M");
    g_assert_cmpuint (hr_params_total (&m), ==, 2 * (mixer + mlp) + attention + mlp + outside);
  }
  {
    g_autofree char *json = g_strdup_printf (small, "\"num_local_experts\": 0, \"num_experts_per_tok\": 0,"
                                                    " \"intermediate_size\": 1000, \"shared_intermediate_size\": 96");
    g_autoptr(JsonNode) dense = hr_json_load_data (json, -1, "config.json", &error);
    HrModelArch m = { 0 };

    g_assert_no_error (error);
    g_assert_true (hr_hf_import_node (&m, dense, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (m.experts, ==, 1);
    g_assert_cmpuint (m.ffn, ==, 96);
    g_assert_cmpuint (hr_params_total (&m), ==, 2 * (mixer + 3 * 64 * 96) + attention + 3 * 64 * 96 + outside);
  }
  {
    g_autoptr(JsonNode) attends = hr_json_load_data (
      "{\"model_type\": \"granitemoehybrid\", \"vocab_size\": 100, \"hidden_size\": 64,"
      " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
      " \"layer_types\": [\"attention\", \"attention\"], \"num_local_experts\": 0,"
      " \"shared_intermediate_size\": 96, \"tie_word_embeddings\": true}", -1, "config.json", &error);
    HrModelArch m = { 0 };

    g_assert_no_error (error);
    g_assert_true (hr_hf_import_node (&m, attends, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (m.ssm, ==, HR_SSM_NONE);
    g_assert_cmpstr (m.layer_mixers, ==, "");
    g_assert_cmpuint (hr_params_total (&m), ==, 2 * (attention + 3 * 64 * 96 + 2 * 64) + 100 * 64 + 64);
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i].config, refused[i].says);
}

/* Zamba2 (hr-hf-import-zamba2.c): tests/data/hf/zamba2-2.7b.json, written
 * from Zamba2Config's keys and the values of Zyphra's Hugging Face-format
 * 2.7B config (presets/models/zamba2-2.7b.json has the sources and the
 * arithmetic), maps to the preset's pattern, shared blocks and count;
 * without layers_block_type 54 layers take Zamba2Config's list; a small
 * config by hand: 3 Mamba-2 layers of 64 (expand 2: 128 inner, 8 heads of
 * 16, state 16, one group), one hybrid, one shared block with adapters
 * of 4 on the MLP and on Q, K and V. */
static void
test_hf_zamba2 (void)
{
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"zamba2\", \"ffn_hidden_size\": 8192}",
      "config.json: ffn_hidden_size: (present) is not supported for Zamba2; allowed: a config in "
      "transformers' format" },
    { "{\"model_type\": \"zamba2\", \"add_bias_linear\": true}",
      "config.json: add_bias_linear: true is not supported for Zamba2; allowed: false" },
    { "{\"model_type\": \"zamba2\", \"hidden_act\": \"relu\"}",
      "config.json: hidden_act: relu is not supported for Zamba2; allowed: gelu, silu" },
    { "{\"model_type\": \"zamba2\", \"num_hidden_layers\": 2, \"layers_block_type\": [\"mamba\", \"attention\"]}",
      "config.json: layers_block_type[1]: attention is not supported for Zamba2; allowed: mamba, hybrid" },
    { "{\"model_type\": \"zamba2\", \"num_hidden_layers\": 3, \"layers_block_type\": [\"mamba\"]}",
      "config.json: layers_block_type: 1 entries is not supported for Zamba2; allowed: one entry per layer, 3" },
    { "{\"model_type\": \"zamba2\", \"num_hidden_layers\": 12}",
      "config.json: layers_block_type: (missing) is not supported for Zamba2" },
    { "{\"model_type\": \"zamba2\", \"num_attention_heads\": 3}",
      "config.json: num_attention_heads: 3 is not supported for Zamba2; allowed: a divisor of 2 x "
      "hidden_size = 5120" },
    { "{\"model_type\": \"zamba2\", \"num_hidden_layers\": 2, \"layers_block_type\": [\"mamba\", \"hybrid\"],"
      " \"num_mem_blocks\": 2}",
      "config.json: model.shared_blocks: 2 is more than the 1 S blocks that use them" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "zamba2-2.7b.json", NULL);
  g_autoptr(JsonNode) node = hr_json_load_file (path, &error);
  HrScenario sc, preset;
  HrModelArch defaults = { 0 };

  g_assert_no_error (error);
  hr_scenario_init_default (&sc);
  hr_scenario_init_default (&preset);
  hr_test_model (&preset, "zamba2-2.7b");
  g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sc.model.layer_pattern, ==, preset.model.layer_pattern);
  g_assert_cmpuint (sc.model.shared_blocks, ==, 2);
  g_assert_cmpuint (sc.model.shared_adapter_rank, ==, 128);
  g_assert_false (sc.model.shared_attention_adapters);
  g_assert_cmpuint (sc.model.head_dim, ==, 160);
  g_assert_cmpuint (sc.model.ssm_heads, ==, 80);
  g_assert_cmpuint (sc.model.ssm_head_dim, ==, 64);
  g_assert_cmpint (sc.model.mlp, ==, HR_MLP_GEGLU);
  g_assert_cmpuint (hr_params_total (&sc.model), ==, hr_params_total (&preset.model));
  g_assert_cmpuint (hr_params_total (&sc.model), ==, 2662214560ull);

  {
    g_autoptr(JsonNode) bare = hr_json_load_data ("{\"model_type\": \"zamba2\"}", -1, "config.json", &error);

    g_assert_no_error (error);
    g_assert_true (hr_hf_import_node (&defaults, bare, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (defaults.layer_pattern, ==, preset.model.layer_pattern);
  }
  {
    g_autoptr(JsonNode) small = hr_json_load_data (
      "{\"model_type\": \"zamba2\", \"vocab_size\": 100, \"hidden_size\": 64, \"intermediate_size\": 128,"
      " \"num_hidden_layers\": 3, \"layers_block_type\": [\"mamba\", \"hybrid\", \"mamba\"],"
      " \"num_attention_heads\": 4, \"n_mamba_heads\": 8, \"mamba_d_state\": 16, \"adapter_rank\": 4,"
      " \"use_shared_attention_adapter\": true}", -1, "config.json", &error);
    HrModelArch m = { 0 };
    /* in_proj 64 x (2 x 128 + 2 x 16 + 8), conv1d (128 + 32) x 5, 3 x 8, norm 128, out_proj 128 x 64, and the layer's norm */
    const guint64 mamba = 64 * 296 + 160 * 5 + 24 + 128 + 128 * 64 + 64;
    /* norms 128 + 64, Q, K, V 3 x 128 x 128, O 128 x 64, gate_up and down 3 x 64 x 128 */
    const guint64 block = 192 + 3 * 128 * 128 + 128 * 64 + 3 * 64 * 128;
    /* the linear 64 x 64, the MLP adapter 4 x (64 + 256), Q, K, V adapters 3 x 4 x (128 + 128) */
    const guint64 use = 64 * 64 + 4 * (64 + 256) + 3 * 4 * 256;

    g_assert_no_error (error);
    g_assert_true (hr_hf_import_node (&m, small, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (m.layer_pattern, ==, "MSMM");
    g_assert_cmpuint (m.layers, ==, 4);
    g_assert_cmpuint (m.head_dim, ==, 32);
    g_assert_cmpuint (m.ssm_head_dim, ==, 16);
    g_assert_cmpuint (hr_params_total (&m), ==, 3 * mamba + block + use + 100 * 64 + 64);
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i].config, refused[i].says);
}

/* An SSM config maps to the fields the presets write: Mamba's sizes, and
 * Jamba's pattern, experts and dt/B/C norms; what the plan does not count
 * is refused with its key. */
static void
test_hf_ssm (void)
{
  static const struct { const char *config; const char *says; } refused[] = {
    { "{\"model_type\": \"mamba\", \"hidden_size\": 768, \"num_hidden_layers\": 24, \"use_bias\": true}",
      "config.json: use_bias: true (biases on the SSM projections) is not supported; allowed: false" },
    { "{\"model_type\": \"mamba\", \"hidden_size\": 768, \"num_hidden_layers\": 24,"
      " \"use_conv_bias\": false}",
      "config.json: use_conv_bias: false (a convolution without a bias) is not supported; allowed: true" },
    { "{\"model_type\": \"mamba\", \"hidden_size\": 768, \"intermediate_size\": 2048}",
      "config.json: intermediate_size: 2048 is not expand x hidden_size = 1536; allowed: 1536" },
    { "{\"model_type\": \"mamba2\", \"hidden_size\": 4096, \"num_heads\": 100}",
      "config.json: model.ssm_heads: 100 heads of 64 are not the inner width 8192; allowed: 128 (or 0)" },
    { "{\"model_type\": \"jamba\", \"hidden_size\": 4096, \"num_hidden_layers\": 4,"
      " \"num_attention_heads\": 32, \"num_experts\": 16}",
      "config.json: model.attn_layer_period: 8 does not fit model.layers = 4; allowed: 0 to 4" },
    { "{\"model_type\": \"mamba\", \"state_size\": 0}",
      "config.json: state_size: 0 is out of range; allowed: 1 to 65536" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", "jamba-mini-1.5.json", NULL);
  HrScenario sc;

  hr_scenario_init_default (&sc);
  g_assert_true (hr_import_file (&sc, path, hr_importer_find ("hf"), NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sc.model.ssm, ==, HR_SSM_MAMBA);
  g_assert_true (sc.model.ssm_bc_norm);
  g_assert_cmpuint (sc.model.attn_layer_period, ==, 8);
  g_assert_cmpuint (sc.model.attn_layer_offset, ==, 4);
  g_assert_cmpuint (sc.model.expert_layer_period, ==, 2);
  g_assert_cmpuint (sc.model.expert_layer_offset, ==, 1);
  g_assert_cmpuint (sc.model.ssm_dt_rank, ==, 256);
  g_assert_false (sc.model.tied_embeddings);
  {
    HrParamCounts c;

    hr_params_count (&sc.model, NULL, 1, 1, &c);
    g_assert_cmpuint (c.active, ==, 12110311296);
  }

  /* MambaConfig's defaults: 32 layers of 768, dt_rank "auto". */
  {
    g_autoptr(JsonNode) node = hr_json_load_data ("{\"model_type\": \"mamba\", \"time_step_rank\": \"auto\"}",
                                                  -1, "config.json", &error);

    g_assert_true (hr_hf_import_node (&sc.model, node, "config.json", NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (sc.model.layers, ==, 32);
    g_assert_cmpuint (hr_model_ssm_dt_rank (&sc.model), ==, 48);
    /* 32 x 3,771,648 + 50280 x 768 + 768 */
    g_assert_cmpuint (hr_params_total (&sc.model), ==, 32ull * 3771648 + 38615040 + 768);
  }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) err = NULL;
      g_autoptr(JsonNode) node = hr_json_load_data (refused[i].config, -1, "config.json", &err);

      g_assert_no_error (err);
      g_assert_false (hr_hf_import_node (&sc.model, node, "config.json", NULL, &err));
      g_assert_nonnull (err);
      if (strcmp (err->message, refused[i].says) != 0)
        g_error ("\"%s\" is not \"%s\"", err->message, refused[i].says);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/hf-deepseek", test_hf_deepseek);
  g_test_add_func ("/import/hf-vision", test_hf_vision);
  g_test_add_func ("/import/importer-detects-its-format", test_importer_detects_its_format);
  g_test_add_func ("/import/hf-unsupported-refused", test_hf_unsupported_refused);
  g_test_add_func ("/import/hf-llama-3.2-vision", test_hf_mllama);
  g_test_add_func ("/import/hf-seq2seq-refused", test_hf_seq2seq_refused);
  g_test_add_func ("/import/hf-safetensors-index", test_hf_safetensors_index);
  g_test_add_func ("/import/hf-configs", test_hf_configs);
  g_test_add_func ("/import/hf-ssm", test_hf_ssm);
  g_test_add_func ("/import/hf-nemotron-h", test_hf_nemotron_h);
  g_test_add_func ("/import/hf-bamba", test_hf_bamba);
  g_test_add_func ("/import/hf-granite", test_hf_granite);
  g_test_add_func ("/import/hf-zamba2", test_hf_zamba2);
  g_test_add_func ("/import/hf-unmapped", test_hf_unmapped);
  g_test_add_func ("/import/hf-bad-values", test_hf_bad_values);
  g_test_add_func ("/import/deepspeed", test_deepspeed_config);
  g_test_add_func ("/import/deepspeed-auto", test_deepspeed_auto);
  g_test_add_func ("/import/deepspeed-sizes", test_deepspeed_sizes);
  g_test_add_func ("/import/deepspeed-bad-values", test_deepspeed_bad_values);
  g_test_add_func ("/import/deepspeed-nvme", test_deepspeed_nvme);
  g_test_add_func ("/import/not-configs", test_not_configs);
  return g_test_run ();
}
