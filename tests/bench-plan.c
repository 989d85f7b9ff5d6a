/* bench-plan.c: how fast a plan and a solve are (meson test --benchmark)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints plans per second and the time of one plan for the default
 * scenario and for Llama 3.1 405B in 3D parallelism, and the time of each
 * solver on the 405B model, and a frame of the chart and of the timeline
 * for both.  Targets: a plan well under 10 µs, any solve under 5 ms, a
 * frame far under 16 ms.  A benchmark, not a test: it reports, it does not fail.
 */

#include <stdio.h>

#include "hr-chart.h"
#include "hr-frameworks.h"
#include "hr-solver.h"
#include "hr-suggest.h"
#include "hr-sweep.h"
#include "hr-test-util.h"
#include "hr-timeline-chart.h"

static double
seconds_now (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

static void
bench_plan (const char       *what,
            const HrScenario *sc)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  double start, elapsed;
  guint n = 0;

  hr_test_plan (sc, plan);   /* warm: the device array is sized once */
  start = seconds_now ();
  do
    {
      for (guint i = 0; i < 1000; i++)
        hr_calc_plan (sc, plan, NULL);
      n += 1000;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 1.0);
  printf ("%-44s %10.0f plans/s  %7.2f µs per plan\n", what, n / elapsed, 1e6 * elapsed / n);
}

static void
bench_solve (const char       *what,
             const HrScenario *sc,
             HrSolve           solve)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  double start, elapsed;
  guint64 value = 0;
  guint n = 0;

  start = seconds_now ();
  do
    {
      hr_solve (sc, solve, work, &value, NULL);
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 0.5);
  printf ("%-44s %10.3f ms per solve (answer %" G_GUINT64_FORMAT ")\n", what,
          1e3 * elapsed / n, value);
}

static void
bench_suggest (const char       *what,
               const HrScenario *sc)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  HrSuggestion list[HR_MAX_SUGGESTIONS];
  double start = seconds_now (), elapsed;
  guint n = 0, found = 0;

  do
    {
      found = hr_suggest (sc, work, list, HR_MAX_SUGGESTIONS, NULL);
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 0.5);
  printf ("%-44s %10.3f ms per search (%u suggestions)\n", what, 1e3 * elapsed / n, found);
}

static void
bench_sweep (const char       *what,
             const HrScenario *sc)
{
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autofree HrSweep *sweep = g_new0 (HrSweep, 1);
  double start = seconds_now (), elapsed;
  guint n = 0;

  do
    {
      hr_sweep_compute (sc, HR_SWEEP_SEQ_LEN, work, sweep, NULL);
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 0.5);
  printf ("%-44s %10.3f ms per sweep (%u points)\n", what, 1e3 * elapsed / n, sweep->n_points);
}

/* What a frame of the window costs: the chart drawn on a 1200 x 700
 * surface, as the widget's snapshot does. */
static void
bench_draw (const char       *what,
            const HrScenario *sc)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 700);
  HrChartStyle style;
  HrChartHits hits;
  double start, elapsed;
  guint n = 0;

  hr_test_plan (sc, plan);
  hr_chart_style_init_light (&style);
  start = seconds_now ();
  do
    {
      cairo_t *cr = cairo_create (surface);

      hr_chart_draw (cr, 1200, 700, sc, plan, &style, &hits);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 0.5);
  cairo_surface_destroy (surface);
  printf ("%-44s %10.3f ms per frame (a 60 Hz frame is 16.7 ms)\n", what, 1e3 * elapsed / n);
}

/* The "Over time" view's frame: the binding GPU's step on 1200 x 700. */
static void
bench_timeline (const char       *what,
                const HrScenario *sc)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 700);
  HrChartStyle style;
  HrTimelineGeometry geometry;
  double start, elapsed;
  guint n = 0;

  hr_test_plan (sc, plan);
  hr_chart_style_init_light (&style);
  start = seconds_now ();
  do
    {
      cairo_t *cr = cairo_create (surface);

      hr_timeline_draw (cr, 1200, 700, sc, plan, plan->binding_device, &style, &geometry);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 0.5);
  cairo_surface_destroy (surface);
  printf ("%-44s %10.3f ms per frame (a 60 Hz frame is 16.7 ms)\n", what, 1e3 * elapsed / n);
}

/* What the form does after a change: which framework the scenario
 * matches, field by field. */
static void
bench_frameworks (const char       *what,
                  const HrScenario *sc)
{
  double start, elapsed;
  guint n = 0, found = 0;

  start = seconds_now ();
  do
    {
      for (guint i = 0; i < hr_frameworks_count (); i++)
        found += hr_framework_matches (hr_framework_get (i), sc);
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 0.5);
  printf ("%-44s %10.3f ms per check (%u matched)\n", what, 1e3 * elapsed / n, found > 0);
}

/* A whole run of a program, start-up included, beside /bin/true run the
 * same way, so the spawn's own cost shows. */
static void
bench_command (const char         *what,
               const char * const *argv)
{
  double start = seconds_now (), elapsed;
  guint n = 0;

  do
    {
      int status;

      if (!g_spawn_sync (NULL, (char **) argv, NULL,
                         G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, NULL, NULL, &status, NULL))
        {
          printf ("%-44s could not run %s\n", what, argv[0]);
          return;
        }
      n++;
      elapsed = seconds_now () - start;
    }
  while (elapsed < 1.0 || n < 50);
  printf ("%-44s %10.2f ms per run (%u runs)\n", what, 1e3 * elapsed / n, n);
}

int
main (int   argc,
      char *argv[])
{
  HrScenario sc, big;

  hr_test_load (&sc, "default");
  bench_plan ("plan: default (13B, ZeRO-3, 8 GPUs)", &sc);

  hr_test_load (&big, "pretrain-llama-3.1-70b-3d");
  hr_test_model (&big, "llama-3.1-405b");
  big.parallel.pp = 16;
  big.parallel.vpp = 1;
  big.parallel.gpus = 8 * 16 * 8;
  big.training.seq_len = 4096;
  bench_plan ("plan: Llama 3.1 405B, TP 8 x PP 16 x DP 8, 4k", &big);

  {
    /* An encoder-decoder model plans two kinds of layers and averages them */
    HrScenario t5;

    hr_test_load (&t5, "default");
    hr_test_model (&t5, "t5-base");
    t5.training.attention = HR_ATTENTION_EAGER;
    t5.training.target_len = 512;
    bench_plan ("plan: T5-base, eager, 4k source, 512 target", &t5);
  }

  {
    /* A hybrid: Jamba's attention, Mamba, dense and MoE layers, each kind
     * listed and averaged */
    HrScenario jamba;

    hr_test_load (&jamba, "default");
    hr_test_model (&jamba, "jamba-mini");
    jamba.parallel.ep = 8;
    bench_plan ("plan: Jamba Mini 1.5, ZeRO-3, EP 8, 8 GPUs, 4k", &jamba);
    /* ... fine-tuned with LoRA on every linear, its first layer (a Mamba
     * layer whose input needs no gradient) its own kind */
    jamba.parallel.ep = 1;
    jamba.training.method = HR_METHOD_LORA;
    jamba.training.checkpointing = HR_CHECKPOINTING_NONE;
    jamba.training.micro_batch = 1;
    jamba.training.lora.targets = HR_LORA_ALL_LINEAR | HR_LORA_SSM;
    bench_plan ("plan: Jamba Mini 1.5, LoRA, ZeRO-3, 8 GPUs, 4k", &jamba);
  }

  {
    /* Nemotron-H's pattern: Mamba-2, attention and MLP blocks, each kind
     * listed and averaged; under LoRA on the attention and MLPs its
     * first Mamba block has no adapter and is summed with the next */
    HrScenario nh;

    hr_test_load (&nh, "default");
    hr_test_model (&nh, "nemotron-h-8b");
    bench_plan ("plan: Nemotron-H 8B, ZeRO-3, 8 GPUs, 4k", &nh);
    nh.training.method = HR_METHOD_LORA;
    nh.training.checkpointing = HR_CHECKPOINTING_NONE;
    nh.training.micro_batch = 1;
    bench_plan ("plan: Nemotron-H 8B, LoRA, ZeRO-3, 8 GPUs, 4k", &nh);
  }

  {
    /* Bamba 9B: Mamba-2 and attention layers by model.layer_mixers */
    HrScenario bb;

    hr_test_load (&bb, "default");
    hr_test_model (&bb, "bamba-9b");
    bench_plan ("plan: Bamba 9B (layer mixers), ZeRO-3, 8 GPUs, 4k", &bb);
  }

  {
    /* Granite 4.0-H Tiny: layer mixers with experts and a shared MLP in
     * every layer */
    HrScenario gr;

    hr_test_load (&gr, "default");
    hr_test_model (&gr, "granite-4.0-h-tiny");
    bench_plan ("plan: Granite 4.0-H Tiny (mixers + experts), ZeRO-3, 8 GPUs, 4k", &gr);
  }

  {
    /* A framework's profile applied: torchtitan's per-op checkpointing,
     * compiled layers and loss, FSDP2, loss_parallel under TP 2, and
     * Llama 3.1 405B on 8 pipeline stages with its buffers, float8 by
     * torchao (the paths bench_plan's other scenarios do not take). */
    HrScenario tt;
    g_autoptr(HrPresets) presets = hr_test_presets ();
    g_autoptr(GError) error = NULL;

    hr_test_load (&tt, "default");
    hr_test_model (&tt, "llama-3.1-405b");
    if (!hr_framework_apply (hr_framework_find ("torchtitan"), &tt, presets, &error))
      g_error ("torchtitan: %s", error->message);
    tt.training.compile = TRUE;
    tt.training.precision = HR_PRECISION_FP8_MIXED;
    hr_training_apply_precision (&tt.training);
    tt.parallel.tp = 2;
    tt.parallel.pp = 8;
    tt.parallel.gpus = 512;
    tt.training.micro_batch = 1;
    tt.training.grad_accum = 16;
    bench_plan ("plan: torchtitan 405B, op SAC, compile, fp8, TP 2 x PP 8", &tt);
  }

  {
    /* Zamba2 2.7B: shared blocks among Mamba-2 layers (ZeRO-1: the
     * shared weights are not sharded, hr-validate-shared.c) */
    HrScenario zb;

    hr_test_load (&zb, "default");
    hr_test_model (&zb, "zamba2-2.7b");
    zb.parallel.zero = 1;
    zb.parallel.deepspeed = FALSE;
    bench_plan ("plan: Zamba2 2.7B (shared blocks), ZeRO-1, 8 GPUs, 4k", &zb);
    zb.training.method = HR_METHOD_LORA;
    zb.training.lora.targets = HR_LORA_ALL_LINEAR | HR_LORA_IN_PROJ;
    bench_plan ("plan: Zamba2 2.7B, LoRA, ZeRO-1, 8 GPUs, 4k", &zb);
  }

  {
    /* DeepSeek-V3 with its MTP module: latent attention, dense first
     * layers and MoE layers mixed per stage */
    HrScenario ds;

    hr_test_load (&ds, "default");
    hr_test_model (&ds, "deepseek-v3");
    ds.model.mtp_modules = 1;
    ds.parallel.pp = 16;
    ds.parallel.ep = 64;
    ds.parallel.gpus = 1024;
    ds.parallel.zero = 1;
    ds.training.micro_batch = 1;
    ds.training.grad_accum = 32;
    ds.training.checkpointing = HR_CHECKPOINTING_FULL;
    bench_plan ("plan: DeepSeek-V3 + MTP, PP 16 x EP 64, 1024 GPUs", &ds);
  }

  {
    /* Llama 3.2 Vision: self- and cross-attention layers averaged, the
     * tiled tower and its projector */
    HrScenario mllama;

    hr_test_load (&mllama, "default");
    hr_test_model (&mllama, "llama-3.2-11b-vision");
    bench_plan ("plan: Llama 3.2 11B Vision, ZeRO-3, 8 GPUs", &mllama);
    mllama.training.method = HR_METHOD_LORA;
    bench_plan ("plan: Llama 3.2 11B Vision, LoRA, 8 GPUs", &mllama);
  }

  {
    /* DeepSeek-V2-Lite under LoRA: its dense first layer's adapters and
     * first-layer form beside the MoE layers' */
    HrScenario ds_lora;

    hr_test_load (&ds_lora, "default");
    hr_test_model (&ds_lora, "deepseek-v2-lite");
    ds_lora.training.method = HR_METHOD_LORA;
    ds_lora.training.checkpointing = HR_CHECKPOINTING_NONE;
    ds_lora.training.micro_batch = 1;
    bench_plan ("plan: DeepSeek-V2-Lite, LoRA, ZeRO-3, 8 GPUs", &ds_lora);
  }

  bench_solve ("solve max-micro-batch, 405B", &big, HR_SOLVE_MAX_MICRO_BATCH);
  bench_solve ("solve max-seq-len, 405B", &big, HR_SOLVE_MAX_SEQ_LEN);
  bench_solve ("solve min-gpus, 405B", &big, HR_SOLVE_MIN_GPUS);
  bench_suggest ("suggestions (singles and pairs), 405B", &big);
  bench_sweep ("sweep over sequence length, 405B", &big);
  bench_draw ("draw the chart, default scenario", &sc);
  bench_draw ("draw the chart, 405B with 16 stages", &big);
  bench_timeline ("draw the timeline, default scenario", &sc);
  bench_timeline ("draw the timeline, 405B with 16 stages", &big);
  bench_frameworks ("which framework matches, default scenario", &sc);

  /* headroom-cli from start to exit (meson passes its path). */
  if (argc > 1)
    {
      const char *empty[] = { "/bin/true", NULL };
      const char *table[] = { argv[1], NULL };
      const char *json[] = { argv[1], "--format", "json", NULL };
      const char *solve[] = { argv[1], "--solve", "max-micro-batch", NULL };

      bench_command ("run /bin/true (the spawn alone)", empty);
      bench_command ("run headroom-cli (table)", table);
      bench_command ("run headroom-cli --format json", json);
      bench_command ("run headroom-cli --solve max-micro-batch", solve);
    }
  return 0;
}
