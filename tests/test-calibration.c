/* test-calibration.c: plans against measured peaks of real training runs
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * data/measured-calibration.json, the runs the app's error bars come from,
 * is the calibration set of measured peaks with, per entry, a "scenario"
 * object for what its fields cannot say (gradient accumulation from the run's config, the
 * CUDA context the same document measured), each with its source, followed
 * by runs found in public sources ("origin": "public-source": later rows of
 * LitGPT's table, the 8-bit rows of torchao's), held out: none was looked
 * at while the effects were modelled, and by this project's own runs on an
 * H200 ("measured-here", tests/reference/measure-stacks.py), compared by
 * their reserved peak.  One line per entry; the test fails when, in any
 * set, the median absolute error or the worst one exceeds its threshold.
 *
 * The same runs' allocated peaks (tests/data/measured-stacks-allocated.json)
 * test the tensor model alone: every one within 1 %.
 */

#include <math.h>
#include <string.h>

#include "hr-format.h"
#include "hr-frameworks.h"
#include "hr-measured.h"
#include "hr-test-util.h"

/* The bar: the median absolute error within 6 %, every entry
 * within 20 %. */
#define MAX_MEDIAN_ERROR 0.06
#define MAX_WORST_ERROR 0.20

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median and the worst absolute error of the runs of one origin ("":
 * the calibration set); prints one line per run. */
static void
summarise (GPtrArray  *runs,
           const char *origin,
           const char *title,
           double     *median,
           double     *worst)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));

  *worst = 0;
  printf ("# %s\n", title);
  for (guint i = 0; i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double e = fabs (run->error);

      if (strcmp (run->origin, origin) != 0)
        continue;
      g_array_append_val (errors, e);
      *worst = MAX (*worst, e);
      printf ("# %-40s predicted %7.3f GiB  measured %7.3f GiB  error %+6.1f %%\n", run->id,
              run->predicted_bytes / HR_GIB, run->measured_bytes / HR_GIB, 100 * run->error);
    }
  g_assert_cmpuint (errors->len, >, 0);
  g_array_sort (errors, compare_double);
  *median = (g_array_index (errors, double, (errors->len - 1) / 2)
             + g_array_index (errors, double, errors->len / 2)) / 2;
  printf ("# %u runs: median absolute error %.1f %%, worst %.1f %%\n", errors->len,
          100 * *median, 100 * *worst);
}

static void
test_measured_runs (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "measured-calibration.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_measured_load (path, presets, skipped, &error);
  double median, worst;

  g_assert_no_error (error);
  for (guint i = 0; i < skipped->len; i++)
    g_test_message ("skipped: %s", (char *) g_ptr_array_index (skipped, i));
  g_assert_cmpuint (skipped->len, ==, 0);
  g_assert_cmpuint (runs->len, ==, 75);

  summarise (runs, "", "the calibration set (data/measured-calibration.json)",
             &median, &worst);
  g_assert_cmpfloat (median, <=, MAX_MEDIAN_ERROR);
  g_assert_cmpfloat (worst, <=, MAX_WORST_ERROR);

  summarise (runs, "public-source", "held-out runs from public sources", &median, &worst);
  g_assert_cmpfloat (median, <=, MAX_MEDIAN_ERROR);
  g_assert_cmpfloat (worst, <=, MAX_WORST_ERROR);

  /* Their reserved peaks are 1 to 14 % over the plans (the allocator's
   * cache beyond the 8 % fragmentation a plan assumes): held to the worst
   * bar only, until that cache is planned. */
  summarise (runs, "measured-here", "this project's runs on an H200 (reserved)", &median, &worst);
  g_assert_cmpfloat (median, <=, MAX_WORST_ERROR);
  g_assert_cmpfloat (worst, <=, MAX_WORST_ERROR);
}

/* The tensor bytes alone: a plain bf16 loop, the same loop under FSDP2 on
 * one rank, and the Trainer over Hugging Face's Llama 3.2 1B on one H200,
 * eager and compiled, with and without (per-op) checkpointing, full and
 * LoRA.  Every plan within 1 %; every one but FSDP2's within 8 MiB of its
 * run (they are 1.2 to 4.4 MiB under once cuBLAS's two workspaces and
 * PEFT's fp32 adapters are planned: hr-calc.c, hr-calc-states.c), the
 * FSDP2 runs over by 0.11 GiB. */
static void
test_measured_allocated (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "measured-stacks-allocated.json",
                                                 NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_measured_load (path, presets, skipped, &error);
  double median, worst;

  g_assert_no_error (error);
  g_assert_cmpuint (skipped->len, ==, 0);
  g_assert_cmpuint (runs->len, ==, 12);
  summarise (runs, "measured-here", "this project's runs on an H200 (allocated)", &median, &worst);
  g_assert_cmpfloat (worst, <=, 0.01);
  for (guint i = 0; i < runs->len; i++)
    {
      HrMeasuredRun *run = g_ptr_array_index (runs, i);

      g_test_message ("%s: %+.2f MiB", run->id, (run->predicted_bytes - run->measured_bytes) / HR_MIB);
      g_assert_cmpfloat (fabs (run->error), <=, 0.01);
      if (strstr (run->id, "fsdp") == NULL)
        g_assert_cmpfloat (fabs (run->predicted_bytes - run->measured_bytes), <=, 8 * HR_MIB);
    }
}

/* An entry of a run with one member replaced; section NULL: the entry's
 * own member. */
static JsonNode *
entry_with (const char *id,
            const char *section,
            const char *key,
            double      value)
{
  g_autofree char *text = g_strdup_printf (
    "{\"id\": \"%s\", \"arch\": {\"layers\": 32, \"hidden\": 4096, \"heads\": 32, "
    "\"kv_heads\": 32, \"ffn\": 11008, \"vocab\": 32000}, \"task\": \"lora\", "
    "\"lora\": {\"rank\": 8, \"targets\": [\"q\", \"v\"]}, \"precision\": \"bf16-true\", "
    "\"optimizer\": \"adamw\", \"micro_batch\": 1, \"seq_len\": 512, "
    "\"parallelism\": {\"gpus\": 1}, \"gpu\": \"A100 80GB\", \"measured_gib\": 20, "
    "\"metric\": \"max_memory_allocated\"}", id);
  JsonNode *node = json_from_string (text, NULL);
  JsonObject *obj = json_node_get_object (node);

  if (key != NULL)
    {
      JsonNode *number = json_node_new (JSON_NODE_VALUE);

      json_node_set_double (number, value);
      json_object_set_member (section != NULL ? json_object_get_object_member (obj, section)
                                              : obj, key, number);
    }
  return node;
}

/* A measured value json-glib reads as infinity (1e309), or one no run
 * has, is refused with the file, the entry and the field, never planned
 * into "inf GiB, -nan %"; a count that gint64 cannot hold (3e23) is refused
 * before it is converted. */
static void
test_absurd_numbers (void)
{
  static const struct
  {
    const char *section;
    const char *key;
    double      value;
    const char *says;
  } cases[] = {
    { NULL, "measured_gib", INFINITY, "runs.json: e0: measured_gib: a number too large to "
                                      "hold is not allowed; allowed: a number above 0, up to "
                                      "16384 (GiB)" },
    { NULL, "measured_gib", NAN, "runs.json: e1: measured_gib: " },
    { NULL, "measured_gib", 1e30, "runs.json: e2: measured_gib: 1e+30 is not allowed" },
    { NULL, "measured_gib", -1, "runs.json: e3: measured_gib: -1 is not allowed" },
    { NULL, "measured_gib", 0, "runs.json: e4: measured_gib: 0 is not allowed" },
    { NULL, "micro_batch", 3e23, "runs.json: e5: micro_batch: 3e+23 is not allowed; "
                                 "allowed: a whole number from 1 to 1048576" },
    { NULL, "seq_len", 512.5, "runs.json: e6: seq_len: 512.5 is not allowed" },
    { "arch", "layers", -1e300, "runs.json: e7: arch.layers: -1e+300 is not allowed" },
    { "parallelism", "gpus", 1e19, "runs.json: e8: parallelism.gpus: 1e+19 is not allowed" },
    { "lora", "rank", INFINITY, "runs.json: e9: lora.rank: a number too large to hold" },
    { "lora", "dropout", 7, "runs.json: e10: lora.dropout: 7 is not allowed; allowed: a "
                            "number from 0 to 0.99" },
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  JsonArray *list = json_array_new ();

  json_node_take_array (root, list);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *id = g_strdup_printf ("e%u", i);

      json_array_add_element (list, entry_with (id, cases[i].section, cases[i].key,
                                                cases[i].value));
    }
  json_array_add_element (list, entry_with ("good", NULL, NULL, 0));

  runs = hr_measured_load_node (root, "runs.json", presets, skipped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpstr (((HrMeasuredRun *) g_ptr_array_index (runs, 0))->id, ==, "good");
  g_assert_true (isfinite (((HrMeasuredRun *) g_ptr_array_index (runs, 0))->error));
  g_assert_cmpuint (skipped->len, ==, G_N_ELEMENTS (cases));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *message = g_ptr_array_index (skipped, i);

      g_test_message ("%s", message);
      g_assert_true (g_str_has_prefix (message, cases[i].says));
    }
}

/* A full fine-tuning run of a Llama-2-7B-sized decoder with this
 * "parallelism" object and "gpu" name, and MORE members (JSON text after a
 * comma, or ""). */
static JsonNode *
dense_entry (const char *id,
             const char *parallelism,
             const char *gpu,
             const char *more)
{
  g_autofree char *text = g_strdup_printf (
    "{\"id\": \"%s\", \"arch\": {\"layers\": 32, \"hidden\": 4096, \"heads\": 32, "
    "\"kv_heads\": 32, \"ffn\": 11008, \"vocab\": 32000}, \"task\": \"full\", "
    "\"precision\": \"bf16-mixed with fp32 master\", \"optimizer\": \"adamw\", "
    "\"micro_batch\": 1, \"seq_len\": 2048, \"parallelism\": %s, "
    "\"gpu\": \"%s\", \"measured_gib\": 20, \"metric\": \"max_memory_allocated\"%s}",
    id, parallelism, gpu, more);

  return json_from_string (text, NULL);
}

/* A run on a 4-stage pipeline whose "stage" (NULL: none) is the JSON
 * text STAGE. */
static JsonNode *
pipeline_entry (const char *id,
                const char *stage)
{
  g_autofree char *more = g_strdup_printf (", \"scenario\": {\"training\": {\"grad_accum\": 8}}%s%s",
                                           stage != NULL ? ", \"stage\": " : "",
                                           stage != NULL ? stage : "");

  return dense_entry (id, "{\"gpus\": 8, \"pp\": 4}", "A100 80GB", more);
}

/* A run takes the GPU preset whose chip its name names, the one whose
 * other parts it names too where several have that chip, and keeps its
 * own name and capacity; the preset gives the compute capability and so
 * the BLAS workspaces.  A name that names no preset's chip keeps the
 * default GPU's (9.0, an H100's); a chip is a whole word ("H200" is not
 * the H20). */
static void
test_gpu_named (void)
{
  static const struct { const char *gpu, *preset; guint64 mib; double cc; } cases[] = {
    { "Tesla V100-SXM2-16GB", "v100-sxm2-16gb", 16 * 1024, 7.0 },
    { "NVIDIA A100 80GB (DGX A100, 1 node x 8 GPUs)", "a100-", 80 * 1024, 8.0 },
    { "NVIDIA A10G 24GB", "a10g", 24 * 1024, 0 },
    { "NVIDIA H200 141GB", "h200-sxm-141gb", 141 * 1024, 9.0 },
    { "NVIDIA RTX 6000 Ada 48GB", "rtx-6000-ada", 48 * 1024, 8.9 },
    { "RTX PRO 6000 Blackwell 96GB", "rtx-pro-6000-blackwell", 96 * 1024, 12.0 },
    { "AMD Instinct MI300X 192GB", "mi300x", 192 * 1024, 0 },
    { "NVIDIA RTX 4070 Ti SUPER 16GB", "", 16 * 1024, 9.0 },
    { "80GB GPU (model not named)", "", 80 * 1024, 9.0 },
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  JsonArray *list = json_array_new ();

  json_node_take_array (root, list);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *id = g_strdup_printf ("g%u", i);

      json_array_add_element (list, dense_entry (id, "{\"gpus\": 8}", cases[i].gpu, ""));
    }
  runs = hr_measured_load_node (root, "runs.json", presets, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, G_N_ELEMENTS (cases));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const HrGpu *gpu = &((HrMeasuredRun *) g_ptr_array_index (runs, i))->scenario.gpu;

      g_test_message ("%s: %s", cases[i].gpu, gpu->preset);
      if (cases[i].preset[0] == '\0')
        g_assert_cmpstr (gpu->preset, ==, "");
      else
        g_assert_true (g_str_has_prefix (gpu->preset, cases[i].preset));
      g_assert_cmpstr (gpu->name, ==, cases[i].gpu);
      g_assert_cmpuint (gpu->memory_mib, ==, cases[i].mib);
      g_assert_cmpfloat_with_epsilon (gpu->compute_capability, cases[i].cc, 1e-9);
    }
  /* The MI300X's hipBLAS and hipBLASLt workspaces come with its preset. */
  g_assert_cmpfloat (((HrMeasuredRun *) g_ptr_array_index (runs, 6))->scenario.gpu.blas_workspace_mib,
                     ==, 204);
}

/* A run logged on one rank ("stage": Megatron-LM logs on the last) is
 * compared with that stage's devices, not the largest; the largest is what
 * an entry without it gets.  A stage the pipeline does not have is refused
 * with the field and the stages allowed. */
static void
test_logged_stage (void)
{
  static const char *refused[][2] = {
    { "4", "runs.json: bad-4: stage: 4 is not allowed; allowed: \"last\" or a whole number "
           "from 0 to 3 (parallel.pp - 1)" },
    { "-1", "runs.json: bad-neg: stage: -1 is not allowed" },
    { "\"first\"", "runs.json: bad-first: stage: \"first\" is not allowed" },
    { "1.5", "runs.json: bad-half: stage: 1.5 is not allowed" },
    { "[3]", "runs.json: bad-list: stage: an array or object is not allowed" },
    { "true", "runs.json: bad-bool: stage: a boolean is not allowed" },
  };
  static const char *refused_ids[] = { "bad-4", "bad-neg", "bad-first", "bad-half", "bad-list",
                                       "bad-bool" };
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) skipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  JsonArray *list = json_array_new ();
  HrMeasuredRun *largest, *first, *last, *three;

  json_node_take_array (root, list);
  json_array_add_element (list, pipeline_entry ("largest", NULL));
  json_array_add_element (list, pipeline_entry ("first", "0"));
  json_array_add_element (list, pipeline_entry ("last", "\"last\""));
  json_array_add_element (list, pipeline_entry ("three", "3"));
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    json_array_add_element (list, pipeline_entry (refused_ids[i], refused[i][0]));

  runs = hr_measured_load_node (root, "runs.json", presets, skipped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 4);
  largest = g_ptr_array_index (runs, 0);
  first = g_ptr_array_index (runs, 1);
  last = g_ptr_array_index (runs, 2);
  three = g_ptr_array_index (runs, 3);
  g_assert_cmpint (largest->stage, ==, -1);
  g_assert_cmpint (first->stage, ==, 0);
  g_assert_cmpint (last->stage, ==, 3);
  /* 1F1B: the first stage holds pp micro-batches in flight, the last one;
   * the stages differ, and the largest device is the larger of them. */
  g_assert_cmpfloat (first->predicted_bytes, !=, last->predicted_bytes);
  g_assert_cmpfloat (largest->predicted_bytes, >=, first->predicted_bytes);
  g_assert_cmpfloat (largest->predicted_bytes, >=, last->predicted_bytes);
  g_assert_cmpfloat (three->predicted_bytes, ==, last->predicted_bytes);

  g_assert_cmpuint (skipped->len, ==, G_N_ELEMENTS (refused));
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *message = g_ptr_array_index (skipped, i);

      g_test_message ("%s", message);
      g_assert_true (g_str_has_prefix (message, refused[i][1]));
    }
}

/* The error bar comes from the measured runs of the plan's kind
 * (framework, method, layout), with their count; with none of that kind,
 * from the nearest kind, saying so.  The bundled runs, read lazily and
 * planned kind by kind, give the same bars as all of them planned. */

/* A number format with a decimal comma, as a Russian window writes it. */
static char *
decimal_comma (const char *ascii)
{
  char *out = g_strdup (ascii);

  g_strdelimit (out, ".", ',');
  return out;
}

static void
check_bar (GPtrArray        *runs,
           const HrScenario *sc,
           const char       *framework,
           HrMethod          method,
           HrLayout          layout,
           gboolean          like_this)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) from = g_ptr_array_new ();
  HrErrorBar bar, lazy;
  double worst = 0;

  g_assert_true (hr_measured_error_bar (runs, sc, &bar));
  g_assert_cmpint (bar.like_this, ==, like_this);
  g_assert_cmpstr (bar.from.framework, ==, framework);
  g_assert_cmpint (bar.from.method, ==, method);
  g_assert_cmpint (bar.from.layout, ==, layout);
  if (like_this)
    g_assert_true (hr_run_kind_equal (&bar.kind, &bar.from));
  else
    g_assert_false (hr_run_kind_equal (&bar.kind, &bar.from));

  /* The median and the worst of exactly the runs of that kind. */
  for (guint i = 0; i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double e = fabs (run->error);

      if (!hr_run_kind_equal (&run->kind, &bar.from))
        continue;
      g_array_append_val (errors, e);
      worst = MAX (worst, e);
    }
  g_array_sort (errors, compare_double);
  g_assert_cmpuint (bar.runs, ==, errors->len);
  g_assert_cmpfloat (bar.worst, ==, worst);
  g_assert_cmpfloat (bar.median, ==, (g_array_index (errors, double, (errors->len - 1) / 2)
                                      + g_array_index (errors, double, errors->len / 2)) / 2);

  g_assert_true (hr_calibration_error_bar (hr_calibration_bundled (), sc, &lazy, from));
  g_assert_true (hr_run_kind_equal (&lazy.kind, &bar.kind));
  g_assert_true (hr_run_kind_equal (&lazy.from, &bar.from));
  g_assert_cmpint (lazy.like_this, ==, bar.like_this);
  g_assert_cmpuint (lazy.runs, ==, bar.runs);
  g_assert_cmpuint (from->len, ==, bar.runs);
  g_assert_cmpfloat (lazy.median, ==, bar.median);
  g_assert_cmpfloat (lazy.worst, ==, bar.worst);
  {
    g_autofree char *sentence = hr_error_bar_sentence (&bar, NULL);
    g_autofree char *comma = hr_error_bar_sentence (&bar, decimal_comma);
    char median[G_ASCII_DTOSTR_BUF_SIZE];
    g_autofree char *median_comma = NULL;

    g_test_message ("%s", sentence);
    g_assert_nonnull (strstr (sentence, like_this ? "like this (" : "no measured run like this"));
    /* Its numbers as the caller writes its others: ASCII by default, the
     * window's locale when it passes hr_locale_number. */
    g_ascii_formatd (median, sizeof median, "%.1f", 100 * bar.median);
    median_comma = decimal_comma (median);
    g_assert_nonnull (strstr (sentence, median));
    g_assert_nonnull (strstr (comma, median_comma));
    g_assert_null (strchr (median_comma, '.'));
  }
}

static void
test_error_bar (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "measured-calibration.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = hr_measured_load (path, presets, NULL, &error);
  HrScenario sc;
  HrErrorBar bar;
  guint litgpt_lora = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);

      litgpt_lora += g_str_equal (run->kind.framework, "litgpt")
                     && run->kind.method == HR_METHOD_LORA && run->kind.layout == HR_LAYOUT_SINGLE;
    }
  /* falcon-7b, gemma-2b, llama-2-7b, llama-3-8b, mistral-7b, tinyllama,
   * stablelm-3b and phi-2: LoRA with LitGPT on one A10G. */
  g_assert_cmpuint (litgpt_lora, ==, 8);

  /* LoRA as LitGPT runs it, on one GPU: 8 runs like this. */
  hr_test_load (&sc, "default");
  sc.parallel.deepspeed = FALSE;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.method = HR_METHOD_LORA;
  g_assert_true (hr_framework_apply (hr_framework_find ("litgpt"), &sc, presets, &error));
  g_assert_no_error (error);
  check_bar (runs, &sc, "litgpt", HR_METHOD_LORA, HR_LAYOUT_SINGLE, TRUE);

  /* The default scenario, DeepSpeed ZeRO-3 on 8 GPUs: two runs of its kind,
   * ColossalAI's Lightning benchmark under DeepSpeed's ZeRO-3 (GPT-2 XL's
   * shape on 4 A100s, -0.8 %; a 12B GPT-2 on 8, +9.7 %).  Without them
   * the nearest, the framework being the only difference, were
   * torchtitan's five FSDP2 runs of Llama 3.1 8B. */
  hr_test_load (&sc, "default");
  check_bar (runs, &sc, "deepspeed", HR_METHOD_FULL, HR_LAYOUT_SHARDED, TRUE);
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_cmpuint (bar.runs, ==, 2);
  g_assert_cmpfloat (bar.worst, >, 0.09);
  g_assert_cmpfloat (bar.worst, <, 0.10);
  hr_run_kind_of (&sc, &bar.kind);
  g_assert_cmpstr (bar.kind.framework, ==, "deepspeed");
  g_assert_cmpint (bar.kind.layout, ==, HR_LAYOUT_SHARDED);

  /* A framework the scenario names is its kind's, even where a value of
   * the file differs from the profile's: torchtitan's five published FSDP
   * runs of Llama 3.1 8B (bf16 on 8 and 128 GPUs: -0.7 % and -0.0 %;
   * Float8 with the blocks compiled and the loss eager: +0.9 % and +1.4 %,
   * 77.52 and 62.66 GiB planned for 76.8 and 61.8; full checkpointing at
   * 32k tokens: -1.3 %, 82.84 GiB planned for 83.9). */
  hr_test_load (&sc, "default");
  sc.parallel.deepspeed = FALSE;
  hr_copy_string (sc.training.framework, sizeof sc.training.framework, "torchtitan");
  hr_run_kind_of (&sc, &bar.kind);
  g_assert_cmpstr (bar.kind.framework, ==, "torchtitan");
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_true (bar.like_this);
  g_assert_cmpuint (bar.runs, ==, 5);
  g_assert_cmpint (bar.from.method, ==, HR_METHOD_FULL);
  g_assert_cmpint (bar.from.layout, ==, HR_LAYOUT_SHARDED);
  g_assert_cmpfloat (bar.worst, >, 0.010);
  g_assert_cmpfloat (bar.worst, <, 0.020);

  /* ... and with LoRA, no torchtitan run: the nearest kind's, saying so. */
  sc.training.method = HR_METHOD_LORA;
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_false (bar.like_this);

  /* torchtune's README tables: Llama 3.2 3B on one A100 (LoRA, QLoRA and
   * two full fine-tunings with optimizer_in_bwd) and Llama 3.1 8B on one
   * RTX 4090 (LoRA, QLoRA, a full one with optimizer_in_bwd), each
   * method its own kind; Llama 3.1 70B on 8 A100s, LoRA sharded by FSDP2
   * and a full fine-tuning with FSDP's CPU offload, a layout of its own. */
  {
    guint single[HR_N_METHODS] = { 0 }, sharded[HR_N_METHODS] = { 0 }, offload[HR_N_METHODS] = { 0 };

    for (guint i = 0; i < runs->len; i++)
      {
        const HrMeasuredRun *run = g_ptr_array_index (runs, i);

        if (!g_str_equal (run->kind.framework, "torchtune"))
          continue;
        if (run->kind.layout == HR_LAYOUT_SINGLE)
          single[run->kind.method]++;
        else if (run->kind.layout == HR_LAYOUT_SHARDED)
          sharded[run->kind.method]++;
        else
          {
            g_assert_cmpint (run->kind.layout, ==, HR_LAYOUT_OFFLOAD);
            offload[run->kind.method]++;
          }
      }
    g_assert_cmpuint (single[HR_METHOD_LORA], ==, 2);
    g_assert_cmpuint (single[HR_METHOD_QLORA], ==, 2);
    g_assert_cmpuint (single[HR_METHOD_FULL], ==, 3);
    g_assert_cmpuint (sharded[HR_METHOD_LORA], ==, 1);
    g_assert_cmpuint (offload[HR_METHOD_FULL], ==, 1);
  }
  hr_test_load (&sc, "default");
  sc.parallel.deepspeed = FALSE;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.method = HR_METHOD_FULL;
  hr_copy_string (sc.training.framework, sizeof sc.training.framework, "torchtune");
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_true (bar.like_this);
  g_assert_cmpstr (bar.from.framework, ==, "torchtune");
  g_assert_cmpuint (bar.runs, ==, 3);
  /* -3.0 %, -2.8 % and -3.8 %. */
  g_assert_cmpfloat (bar.worst, <, 0.05);
  sc.training.method = HR_METHOD_LORA;
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_true (bar.like_this);
  g_assert_cmpuint (bar.runs, ==, 2);
  /* The 70B full fine-tuning with FSDP's CPU offload (-4.3 %): the
   * offload layout's one torchtune run. */
  hr_test_load (&sc, "default");
  sc.parallel.deepspeed = FALSE;
  sc.parallel.offload_params = TRUE;
  sc.parallel.offload_optimizer = TRUE;
  hr_copy_string (sc.training.framework, sizeof sc.training.framework, "torchtune");
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_true (bar.like_this);
  g_assert_cmpint (bar.from.layout, ==, HR_LAYOUT_OFFLOAD);
  g_assert_cmpuint (bar.runs, ==, 1);
  g_assert_cmpfloat (bar.worst, >, 0.04);
  g_assert_cmpfloat (bar.worst, <, 0.05);

  /* Tensor and pipeline parallelism: nothing measured of that layout. */
  hr_test_load (&sc, "pretrain-llama-3.1-70b-3d");
  hr_run_kind_of (&sc, &bar.kind);
  g_assert_cmpint (bar.kind.layout, ==, HR_LAYOUT_MODEL);
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_false (bar.like_this);

  /* PEFT's documentation's FSDP QLoRA of Llama 2 70B on 2 GPUs without
   * CPU offloading (-12.4 %) is its kind's one run; offloading the
   * parameters is a kind of its own, with no run (the same document's
   * run with it was planned -36.8 %, and its caveats call its memory
   * untested): the nearest kind's bar, saying so. */
  hr_test_load (&sc, "default");
  sc.parallel.deepspeed = FALSE;
  sc.parallel.gpus = 2;
  sc.training.method = HR_METHOD_QLORA;
  hr_copy_string (sc.training.framework, sizeof sc.training.framework, "accelerate-fsdp");
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_true (bar.like_this);
  g_assert_cmpuint (bar.runs, ==, 1);
  g_assert_cmpfloat (bar.worst, >, 0.12);
  g_assert_cmpfloat (bar.worst, <, 0.13);
  sc.parallel.offload_params = TRUE;
  hr_run_kind_of (&sc, &bar.kind);
  g_assert_cmpint (bar.kind.layout, ==, HR_LAYOUT_OFFLOAD);
  g_assert_cmpstr (hr_layout_id (bar.kind.layout), ==, "offload");
  g_assert_true (hr_measured_error_bar (runs, &sc, &bar));
  g_assert_false (bar.like_this);
  g_assert_cmpint (bar.from.layout, ==, HR_LAYOUT_SHARDED);

  /* Another version of the same framework is nearer than another
   * framework: a Trainer run on transformers 4.46-4.53, of which there is
   * none, takes the bar of the 4.45 Trainer's single-GPU runs (distance 2
   * for the version), not of the LitGPT or unnamed runs with more entries
   * (distance 4 for another framework). */
  hr_test_load (&sc, "default");
  sc.parallel.deepspeed = FALSE;
  sc.parallel.zero = 0;
  sc.parallel.gpus = 1;
  hr_copy_string (sc.training.framework, sizeof sc.training.framework, "hf-trainer-4.53");
  check_bar (runs, &sc, "hf-trainer-4.45", HR_METHOD_FULL, HR_LAYOUT_SINGLE, FALSE);

  /* No runs at all: no bar, never a borrowed one. */
  g_assert_false (hr_measured_error_bar (NULL, &sc, &bar));
  g_assert_cmpuint (bar.runs, ==, 0);
  g_assert_false (hr_calibration_error_bar (NULL, &sc, &bar, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calibration/measured-runs", test_measured_runs);
  g_test_add_func ("/calibration/measured-allocated", test_measured_allocated);
  g_test_add_func ("/calibration/absurd-numbers", test_absurd_numbers);
  g_test_add_func ("/calibration/logged-stage", test_logged_stage);
  g_test_add_func ("/calibration/gpu-named", test_gpu_named);
  g_test_add_func ("/calibration/error-bar", test_error_bar);
  return g_test_run ();
}
