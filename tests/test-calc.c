/* test-calc.c: what every plan must satisfy, and the solvers' promises
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "hr-activations.h"
#include "hr-solver.h"
#include "hr-suggest.h"
#include "hr-test-util.h"

static const char * const scenario_ids[] = {
  "default", "qlora-llama-3.1-8b-rtx4090", "lora-llama-3.1-70b-8xa100",
  "pretrain-llama-3.1-70b-3d", "bert-large-finetune-t4", "mixtral-8x7b-ep8",
};

/* CONTRACT.md section 4: items add up to their category, categories to
 * total_bytes; allocated <= reserved <= total; free = capacity - total. */
static void
check_invariants (const HrScenario *sc,
                  const HrPlan     *plan)
{
  g_assert_cmpuint (plan->n_devices, ==, sc->parallel.pp);
  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];
      guint64 cats[HR_N_CATEGORIES] = { 0 };
      guint64 total = 0;

      for (guint j = 0; j < d->n_items; j++)
        if (hr_item_is_live_at_peak (d, &d->items[j]))
          cats[d->items[j].category] += d->items[j].bytes;
      for (guint c = 0; c < HR_N_CATEGORIES; c++)
        {
          g_assert_cmpuint (cats[c], ==, d->category_bytes[c]);
          total += d->category_bytes[c];
        }
      g_assert_cmpuint (total, ==, d->total_bytes);
      g_assert_cmpuint (d->allocated_bytes, <=, d->reserved_bytes);
      g_assert_cmpuint (d->reserved_bytes, <=, d->total_bytes);
      g_assert_cmpint (d->free_bytes, ==, (gint64) plan->capacity_bytes - (gint64) d->total_bytes);
      g_assert_cmpuint (d->ranks * plan->n_devices, ==, sc->parallel.gpus);
      /* the peak phase is the largest */
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        g_assert_cmpuint (d->phase_bytes[ph], <=, d->allocated_bytes);
    }
}

static void
test_scenario_presets (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();

  for (guint i = 0; i < G_N_ELEMENTS (scenario_ids); i++)
    {
      HrScenario sc;

      hr_test_load (&sc, scenario_ids[i]);
      hr_test_plan (&sc, plan);
      check_invariants (&sc, plan);
    }
}

/* The default scenario: 13B, ZeRO-3 over 8 GPUs.  Model states are the
 * ZeRO paper's 16Ψ/8 = 26.0 GB; the whole plan fits an 80 GB H100. */
static void
test_default_scenario (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;
  double states;

  hr_test_load (&sc, "default");
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (plan->params, ==, 13015864320);
  g_assert_cmpuint (plan->capacity_bytes, ==, 85520809984);   /* 81559 MiB */
  states = (double) (hr_test_item_bytes (d, "weights") + hr_test_item_bytes (d, "gradients")
                     + hr_test_item_bytes (d, "master weights")
                     + hr_test_item_bytes (d, "optimizer states"));
  hr_assert_close (states, 16.0 * 13015864320.0 / 8, 1e-9);
  g_assert_true (plan->fits);
  g_assert_cmpuint (d->ranks, ==, 8);
  g_assert_cmpstr (d->label, ==, "GPU 0-7");
}

/* Whisper large-v3 fine-tuned in full (bf16-mixed AdamW, one GPU, b = 2):
 * choosing the preset sets the lengths the model takes (1500 encoder
 * frames, at most 448 target tokens); the audio stem keeps, as
 * WhisperEncoder.forward runs it, conv1's 128 x 3000 input and its
 * 1280 x (3000 + 3000 + 1500) convolution outputs and GELU inputs per
 * sample, 2 bytes each; the frozen sinusoidal table (1500 x 1280) is in
 * the weights but gets no gradient, master copy or optimizer state. */
static void
test_whisper_plan (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrScenario sc, bad;
  const HrDevice *d;
  double P = 1543490560.0, frozen = 1500.0 * 1280;

  hr_scenario_init_default (&sc);
  sc.training.target_len = 0;
  hr_test_model (&sc, "whisper-large-v3");
  g_assert_cmpuint (sc.training.seq_len, ==, 1500);
  g_assert_cmpuint (hr_training_target_len (&sc), ==, 448);
  sc.training.micro_batch = 2;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.parallel.gpus = sc.parallel.gpus_per_node = 1;
  sc.parallel.zero = 0;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (plan->params, ==, 1543490560);
  g_assert_cmpuint (plan->trainable_params, ==, 1543490560 - 1500 * 1280);
  /* (bf16 weights: the log-mel features come in bf16, the batch itself,
   * which WhisperEncoder.forward hands to conv1 as they are) */
  g_assert_cmpuint (hr_test_item_bytes (d, "audio stem: log-mel input of the first convolution"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (d, "audio stem: convolution outputs and GELU inputs"),
                    ==, 2 * 1280 * (3000 + 3000 + 1500) * 2);
  hr_assert_close ((double) hr_test_state_bytes (d, "weights"), P * 2, 1e-12);
  hr_assert_close ((double) hr_test_state_bytes (d, "gradients"), (P - frozen) * 2, 1e-12);
  hr_assert_close ((double) hr_test_state_bytes (d, "master weights"), (P - frozen) * 4, 1e-12);
  hr_assert_close ((double) hr_test_state_bytes (d, "optimizer states"), (P - frozen) * 8, 1e-12);
  /* Its stacks as the breakdown names them: 32 encoder layers of
   * 19,676,160 and 32 decoder layers of 26,236,160 (test-params), 2 bytes
   * each; the rest (the stem, the tables, the final norms) stays
   * "weights". */
  g_assert_cmpuint (hr_test_item_bytes (d, "encoder weights"), ==, 32ull * 19676160 * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "decoder weights"), ==, 32ull * 26236160 * 2);

  /* Under autocast conv1 keeps the fp32 features' bf16 cast, and the graph
   * the two convolutions' weights' casts, 128 x 1280 x 3 and 1280 x 1280
   * x 3, beside the layers' and the head's. */
  {
    HrScenario amp = sc;
    g_autoptr(HrPlan) p2 = hr_plan_new ();
    g_autoptr(HrPlan) p3 = hr_plan_new ();

    amp.training.precision = HR_PRECISION_AMP_BF16;
    hr_training_apply_precision (&amp.training);
    hr_test_plan (&amp, p2);
    g_assert_cmpuint (hr_test_item_bytes (&p2->devices[0], "audio stem: log-mel input of the first convolution"),
                      ==, 2 * 128 * 3000 * 2);
    /* the same model without the stem's mel bins changes nothing else
     * in the item: its difference is the stem's casts */
    amp.model.audio_mel_bins = 64;
    hr_test_plan (&amp, p3);
    g_assert_cmpuint (hr_test_item_bytes (&p2->devices[0], "16-bit weight copies (autocast)")
                      - hr_test_item_bytes (&p3->devices[0], "16-bit weight copies (autocast)"),
                      ==, 3ull * 1280 * (128 - 64) * 2);
  }

  /* Lengths the model cannot take, and a half-described audio encoder,
   * are refused with the field. */
  bad = sc;
  bad.training.seq_len = 2048;
  g_assert_false (hr_calc_plan (&bad, plan, &error));
  g_assert_true (g_str_has_prefix (error->message, "training.seq_len"));
  g_clear_error (&error);
  bad = sc;
  bad.training.target_len = 449;
  g_assert_false (hr_calc_plan (&bad, plan, &error));
  g_assert_true (g_str_has_prefix (error->message, "training.target_len"));
  g_clear_error (&error);
  bad = sc;
  bad.model.audio_frames = 0;
  g_assert_false (hr_calc_plan (&bad, plan, &error));
  g_assert_true (g_str_has_prefix (error->message, "model.audio_frames"));
  g_clear_error (&error);
  bad = sc;
  bad.model.kind = HR_KIND_DECODER;
  g_assert_false (hr_calc_plan (&bad, plan, &error));
  g_assert_true (g_str_has_prefix (error->message, "model.audio_mel_bins"));
  g_clear_error (&error);
}

/* Context parallelism splits the sequence, not the model: ZeRO-3 shards
 * over the data-parallel and context-parallel ranks, gpus / (tp·pp)
 * (CONTRACT.md section 1; torchtitan's dp_shard_cp mesh).  Llama 3.1 8B
 * (P = 8 030 261 248) at 32k tokens on 8 GPUs, bf16-mixed AdamW: with cp =
 * 1, 2, 4, 8 the data-parallel degree is 8, 4, 2, 1 but the shard degree
 * stays 8, so weights + gradients + master + states are always
 * 16·P / 8 = 16 060 522 496 bytes (14.96 GiB) per GPU.  Before this was
 * sharded over gpus / (tp·pp·cp) only: 16·P / dp grew to 149.6 GiB at cp 8.
 * With hybrid sharding the group's context-parallel ranks join it:
 * shard_group 2 x cp 2 shards over 4 GPUs, 16·P / 4. */
static void
test_context_parallel_shards (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const guint64 P = 8030261248;
  HrScenario sc;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "llama-3.1-8b");
  sc.training.seq_len = 32768;
  sc.training.micro_batch = 1;
  g_assert_cmpuint (sc.parallel.zero, ==, 3);

  for (guint64 cp = 1; cp <= 8; cp *= 2)
    {
      const HrDevice *d;
      guint64 states;

      sc.parallel.cp = cp;
      g_assert_cmpuint (hr_parallel_dp_degree (&sc.parallel), ==, 8 / cp);
      g_assert_cmpuint (hr_parallel_shard_degree (&sc.parallel), ==, 8);
      hr_test_plan (&sc, plan);
      g_assert_cmpuint (plan->params, ==, P);
      d = &plan->devices[0];
      states = hr_test_item_bytes (d, "weights") + hr_test_item_bytes (d, "gradients")
               + hr_test_item_bytes (d, "master weights")
               + hr_test_item_bytes (d, "optimizer states");
      /* Each item is rounded to the byte on its own. */
      g_assert_cmpuint (states, >=, 16 * P / 8 - 4);
      g_assert_cmpuint (states, <=, 16 * P / 8 + 4);
    }

  sc.parallel.cp = 2;
  sc.parallel.shard_group = 2;
  g_assert_cmpuint (hr_parallel_shard_degree (&sc.parallel), ==, 4);
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "optimizer states"),
                   8.0 * (double) P / 4, 1e-9);
}

/* Pipeline stages: embedding on the first, head and logits on the last;
 * the first holds the most micro-batches. */
static void
test_pipeline_stages (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;

  hr_test_load (&sc, "pretrain-llama-3.1-70b-3d");
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->n_devices, ==, 4);
  g_assert_cmpuint (plan->devices[0].ranks, ==, 32);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "logits"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[3], "logits"), >, 0);
  g_assert_cmpuint (plan->devices[0].params, >, plan->devices[1].params);
  g_assert_cmpuint (plan->devices[3].params, >, plan->devices[1].params);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "Q, K, V"), >,
                    hr_test_item_bytes (&plan->devices[3], "Q, K, V"));
}

/* A hybrid on pipeline stages: each stage holds its own layers' kinds.
 * Jamba Mini on 4 stages of 8 layers: each has one attention layer (i % 8
 * = 4, dense), three dense Mamba layers and four with the experts:
 * 218,112,000 + 3 x 281,477,408 + 4 x 2,923,954,464 = 12,758,362,080
 * parameters (test-params has the layers' arithmetic), the first stage
 * the token table and the last the head and final norm besides; the
 * stages add up to the whole model.  Interleaved (2 stages x 2 chunks)
 * the same. */
static void
test_hybrid_stages (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  guint64 sum = 0;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "jamba-mini");
  sc.parallel.pp = 4;
  sc.parallel.gpus = 8;
  sc.parallel.zero = 0;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.micro_batch = 1;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->n_devices, ==, 4);
  for (guint i = 0; i < plan->n_devices; i++)
    {
      sum += plan->devices[i].params;
      g_assert_cmpuint (hr_test_item_bytes (&plan->devices[i], "Q, K, V"), >, 0);
    }
  g_assert_cmpuint (sum, ==, 51570323328);
  g_assert_cmpuint (plan->devices[1].params, ==, 12758362080);
  g_assert_cmpuint (plan->devices[2].params, ==, 12758362080);
  g_assert_cmpuint (plan->devices[0].params, ==, 12758362080 + 65536ull * 4096);
  g_assert_cmpuint (plan->devices[3].params, ==, 12758362080 + 65536ull * 4096 + 4096);

  sc.parallel.pp = 2;
  sc.parallel.vpp = 2;
  sc.training.grad_accum = 4;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->devices[0].params + plan->devices[1].params, ==, 51570323328);
  g_assert_cmpuint (plan->devices[0].params, ==, 2 * 12758362080 + 65536ull * 4096);
}

/* DeepSeek-V3 over pipeline stages: the three dense first layers on the
 * first stage, the multi-token-prediction module on the last; the stages'
 * parameters add up to the model's, 682,636,487,424 with the module
 * (tests/test-params.c).  With 61 layers over 4 stages (16, 15, 15, 15),
 * stage 0 holds 3 dense and 13 MoE layers, the others 15 MoE layers, the
 * last the module besides; over 61 stages each of stages 0 to 2 holds one
 * dense layer. */
#define MTP_INPUTS "multi-token prediction inputs (norms, projection)"

static void
test_deepseek_stages (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const guint64 dense_layer = 187121664 + 396361728;       /* attention, norms, dense MLP */
  const guint64 moe_layer = 187121664 + 11320164608;
  const guint64 outside = 129280ull * 7168, head = 129280ull * 7168 + 7168;
  const guint64 mtp = moe_layer + 2 * 7168ull * 7168 + 3 * 7168;
  HrScenario sc;
  guint64 sum = 0;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "deepseek-v3");
  sc.model.mtp_modules = 1;
  sc.parallel.pp = 4;
  sc.parallel.gpus = 4;
  sc.parallel.zero = 0;
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  sc.training.micro_batch = 1;
  sc.training.grad_accum = 8;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->params, ==, 682636487424);
  for (guint i = 0; i < plan->n_devices; i++)
    sum += plan->devices[i].params;
  g_assert_cmpuint (sum, ==, 682636487424);
  g_assert_cmpuint (plan->devices[0].params, ==, outside + 3 * dense_layer + 13 * moe_layer);
  g_assert_cmpuint (plan->devices[1].params, ==, 15 * moe_layer);
  g_assert_cmpuint (plan->devices[3].params, ==, 15 * moe_layer + mtp + head);
  /* the module's second loss: twice the last stage's logits-sized tensors */
  {
    HrScenario one = sc;
    g_autoptr(HrPlan) p1 = hr_plan_new ();

    one.model.mtp_modules = 0;
    hr_test_plan (&one, p1);
    g_assert_cmpuint (hr_test_item_bytes (&plan->devices[3], "loss gradients"), ==,
                      2 * hr_test_item_bytes (&p1->devices[3], "loss gradients"));
    g_assert_cmpuint (hr_test_item_bytes (&p1->devices[3], MTP_INPUTS), ==, 0);
    g_assert_cmpuint (hr_test_item_bytes (&plan->devices[3], MTP_INPUTS), >, 0);
  }

  /* One layer per stage over 61 stages: stages 0, 1 and 2 are dense. */
  sc.model.mtp_modules = 0;
  sc.parallel.pp = 61;
  sc.parallel.gpus = 61;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->devices[2].params, ==, dense_layer);
  g_assert_cmpuint (plan->devices[3].params, ==, moe_layer);

  /* Every stage's weights and master weights are its own parameters in
   * bf16 and fp32, whether worked out or copied from the stage before
   * that holds the same (hr-calc.c, add_model_states_once): stage 2 from
   * stage 1 (dense), stage 4 from stage 3 (MoE, after the dense one). */
  for (guint i = 1; i + 1 < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];

      g_assert_cmpuint (hr_test_item_bytes (d, "weights") + hr_test_item_bytes (d, "expert weights")
                        + hr_test_item_bytes (d, "shared-expert weights"), ==, 2 * d->params);
      g_assert_cmpuint (hr_test_item_bytes (d, "master weights")
                        + hr_test_item_bytes (d, "expert master weights")
                        + hr_test_item_bytes (d, "shared-expert master weights"), ==, 4 * d->params);
    }
}

/* training.checkpoint_every: of 40 layers, N = 3 wraps the 3rd, 6th, ...
 * 39th (13 of them, torchtitan's `_count % ac_freq == 0`); the other 27
 * keep what checkpointing none keeps.  N = 1 is plain full checkpointing,
 * N above the layer count wraps none. */
static void
test_checkpoint_every (void)
{
  g_autoptr(HrPlan) full = hr_plan_new ();
  g_autoptr(HrPlan) none = hr_plan_new ();
  g_autoptr(HrPlan) every = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;

  hr_test_load (&sc, "default");
  g_assert_cmpuint (sc.model.layers, ==, 40);
  g_assert_cmpuint (sc.training.checkpoint_every, ==, 1);
  hr_test_plan (&sc, full);
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  hr_test_plan (&sc, none);

  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  sc.training.checkpoint_every = 3;
  hr_test_plan (&sc, every);
  d = &every->devices[0];
  hr_assert_close ((double) hr_test_item_bytes (d, "layer inputs (checkpoints)"),
                   13.0 / 40.0 * (double) hr_test_item_bytes (&full->devices[0], "layer inputs (checkpoints)"),
                   1e-9);
  hr_assert_close ((double) hr_test_item_bytes (d, "Q, K, V"),
                   27.0 / 40.0 * (double) hr_test_item_bytes (&none->devices[0], "Q, K, V"), 1e-9);
  /* 40 is not a multiple of 3: the last layer keeps its tensors, and no
   * recomputation comes before its backward. */
  g_assert_cmpuint (hr_test_item_bytes (d, "one layer recomputed for backward"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (d, "first layer recomputed (freed last)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (d, "first layer's activations (freed last)"), >, 0);
  g_assert_cmpuint (d->total_bytes, >, full->devices[0].total_bytes);
  g_assert_cmpuint (d->total_bytes, <, none->devices[0].total_bytes);

  /* N = 4 divides 40: the last layer is wrapped and recomputed first. */
  sc.training.checkpoint_every = 4;
  hr_test_plan (&sc, every);
  g_assert_cmpuint (hr_test_item_bytes (&every->devices[0], "one layer recomputed for backward"), ==,
                    hr_test_item_bytes (&full->devices[0], "one layer recomputed for backward"));

  sc.training.checkpoint_every = 41;
  hr_test_plan (&sc, every);
  g_assert_cmpuint (hr_test_item_bytes (&every->devices[0], "layer inputs (checkpoints)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&every->devices[0], "Q, K, V"), ==,
                    hr_test_item_bytes (&none->devices[0], "Q, K, V"));
}

/* parallel.fsdp on Llama 3 8B (V 128256, h 4096, untied, bf16 weights),
 * ZeRO-3 on 8 GPUs without DeepSpeed.  FSDP1's root unit keeps embeddings
 * and head gathered and joins their gradients into one flat tensor at the
 * end of the backward; FSDP2 (torchtitan's units) keeps the output layer
 * gathered (V·h + h for its norm) and gathers the embeddings (V·h) again
 * for their backward only, with no join.  Under pipelining with 8
 * micro-batches, FSDP2 keeps the whole stage gathered and its unsharded
 * gradients in fp32 until the last micro-batch. */
static void
test_fsdp_versions (void)
{
  g_autoptr(HrPlan) one = hr_plan_new ();
  g_autoptr(HrPlan) two = hr_plan_new ();
  HrScenario sc;
  const double V = 128256, h = 4096;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "llama-3-8b");
  sc.parallel.deepspeed = FALSE;
  sc.parallel.zero = 3;
  sc.parallel.gpus = 8;
  g_assert_cmpuint (sc.parallel.fsdp, ==, 2);
  g_assert_cmpuint (sc.training.dtypes.weights, ==, HR_DTYPE_BF16);
  sc.parallel.fsdp = 1;
  hr_test_plan (&sc, one);
  sc.parallel.fsdp = 2;
  hr_test_plan (&sc, two);

  g_assert_cmpuint (hr_test_item_bytes (&one->devices[0], "root unit's gradients joined (flat)"), >, 0);
  g_assert_cmpuint (hr_test_item_bytes (&two->devices[0], "root unit's gradients joined (flat)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&two->devices[0], "head gradient (waits for the root unit)"), ==, 0);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[0], "gathered output layer (kept after forward)"),
                   (V * h + h) * 2, 1e-9);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[0], "gathered embeddings (for their backward)"),
                   V * h * 2, 1e-9);
  /* FSDP2 allocates less; its reduce-scatter stream keeps what it held,
   * the sharded gradients (8.03 B / 8 in bf16) and the largest unit's
   * input (the head and final norm), in reserved but not allocated. */
  g_assert_cmpuint (two->devices[0].allocated_bytes, <, one->devices[0].allocated_bytes);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[0],
                                                "sharded gradients' memory, kept by the reduce-scatter stream"),
                   (double) two->params / 8 * 2, 1e-6);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[0], "reduce-scatter input's memory, kept by its stream"),
                   (V * h + h) * 2, 1e-9);
  /* FSDP1's post-backward stream keeps its sharded gradients too, and
   * copies a unit's gradient only to cast it to another reduce type. */
  g_assert_cmpuint (hr_test_item_bytes (&one->devices[0], "reduce-scatter input's memory, kept by its stream"), ==, 0);
  hr_assert_close ((double) hr_test_item_bytes (&one->devices[0],
                                                "sharded gradients' memory, kept by the reduce-scatter stream"),
                   (double) one->params / 8 * 2, 1e-6);
  {
    HrScenario fp32_grads = sc;
    g_autoptr(HrPlan) cast = hr_plan_new ();

    fp32_grads.parallel.fsdp = 1;
    fp32_grads.training.dtypes.grads = HR_DTYPE_FP32;
    hr_test_plan (&fp32_grads, cast);
    hr_assert_close ((double) hr_test_item_bytes (&cast->devices[0], "reduce-scatter input's memory, kept by its stream"),
                     (2 * V * h + h) * 4, 1e-9);
  }
  g_assert_cmpuint (two->devices[0].reserved_bytes, ==,
                    two->devices[0].phase_bytes[two->devices[0].peak_phase]
                    + (guint64) ((double) two->devices[0].phase_bytes[two->devices[0].peak_phase]
                                 * sc.overhead.fragmentation + 0.5)
                    + hr_test_item_bytes (&two->devices[0], "sharded gradients' memory, kept by the reduce-scatter stream")
                    + hr_test_item_bytes (&two->devices[0], "reduce-scatter input's memory, kept by its stream"));

  /* Only the blocks wrapped (fsdp_units root): the embeddings and head
   * stay gathered with the root, the head's gradient waits for the end,
   * and the root is the largest unit reduce-scattered. */
  sc.parallel.fsdp_units = HR_FSDP_UNITS_ROOT;
  hr_test_plan (&sc, two);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[0], "gathered embeddings and head (FSDP2 root unit, kept)"),
                   (2 * V * h + h) * 2, 1e-9);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[0], "reduce-scatter input's memory, kept by its stream"),
                   (2 * V * h + h) * 2, 1e-9);
  g_assert_cmpuint (hr_test_item_bytes (&two->devices[0], "gathered embeddings (for their backward)"), ==, 0);
  sc.parallel.fsdp_units = HR_FSDP_UNITS_SEPARATE;

  /* 32 layers over 4 stages of 8; stage 1 holds 8 layers and nothing else. */
  sc.parallel.gpus = 32;
  sc.parallel.pp = 4;
  sc.training.grad_accum = 8;
  hr_test_plan (&sc, two);
  g_assert_cmpuint (two->n_devices, ==, 4);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[1], "unsharded gradients (accumulated across micro-batches)"),
                   (double) two->devices[1].params * 4, 1e-9);
  hr_assert_close ((double) hr_test_item_bytes (&two->devices[1], "gathered stage weights (kept between micro-batches)"),
                   (double) two->devices[1].params * 2, 1e-9);
  g_assert_cmpuint (hr_test_item_bytes (&two->devices[1], "gathered layers (current + prefetch)"), ==, 0);
}

/* Where the logits are upcast: transformers before 4.46 did it in the
 * model, whose output is then the fp32 copy (hf-trainer-4.45); from 4.46
 * the loss does, and the 16-bit logits are what stays (hf-trainer).
 * Llama 2 13B's V 32000, 16384 tokens on one GPU, bf16 activations. */
static void
test_logits_upcast (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const double T = 16384, V = 32000;

  hr_test_load (&sc, "default");
  sc.training.loss = HR_LOSS_STANDARD;
  sc.training.logits_fp32 = TRUE;
  g_assert_cmpuint (sc.model.vocab, ==, (guint64) V);
  g_assert_false (sc.training.logits_fp32_in_model);
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "logits"), T * V * 2, 1e-12);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "shifted logits (the model's copy for its loss)"),
                    ==, 0);
  sc.training.logits_fp32_in_model = TRUE;
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "logits"), T * V * 4, 1e-12);
  /* transformers before 4.46 shifted them in the model, a copy: micro-batch
   * 4 of 4096 tokens, 4·4095 positions, in fp32. */
  g_assert_cmpuint (sc.training.micro_batch, ==, 4);
  g_assert_cmpuint (sc.training.seq_len, ==, 4096);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "shifted logits (the model's copy for its loss)"),
                   4.0 * 4095 * V * 4, 1e-12);

  /* Megatron's vocab-parallel loss: one fp32 softmax, saved; its backward
   * in place, cast to bf16 for the output layer. */
  sc.training.loss = HR_LOSS_VOCAB_PARALLEL;
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "softmax (saved by the vocab-parallel loss)"),
                   T * V * 4, 1e-12);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "loss gradients"), T * V * 2, 1e-12);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "logits"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "log-probabilities (saved by the loss)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fused loss's compiled buffer"),
                    ==, 0);

  /* Its fused form (--cross-entropy-loss-fusion, torch.compile): the same
   * items, and one more fp32 logits-sized buffer in the loss's forward
   * and backward, 16384·32000·4 bytes. */
  {
    g_autoptr(HrPlan) fused = hr_plan_new ();
    double extra = T * V * 4;

    sc.training.loss = HR_LOSS_VOCAB_PARALLEL_FUSED;
    hr_test_plan (&sc, fused);
    hr_assert_close ((double) hr_test_item_bytes (&fused->devices[0],
                                                  "fused loss's compiled buffer"),
                     extra, 1e-12);
    hr_assert_close ((double) hr_test_item_bytes (&fused->devices[0],
                                                  "softmax (saved by the vocab-parallel loss)"),
                     T * V * 4, 1e-12);
    for (guint ph = HR_PHASE_FORWARD; ph <= HR_PHASE_LOSS_BACKWARD; ph++)
      hr_assert_close ((double) (fused->devices[0].phase_bytes[ph] - plan->devices[0].phase_bytes[ph]),
                       extra, 1e-9);
    g_assert_cmpuint (fused->devices[0].phase_bytes[HR_PHASE_STEP], ==,
                      plan->devices[0].phase_bytes[HR_PHASE_STEP]);
  }
}

/* PyTorch's loss_parallel (torchtitan with tensor parallelism) runs the
 * nll_loss and log_softmax backwards as one over this rank's vocabulary
 * shard (torch/distributed/tensor/parallel/loss.py,
 * _nll_loss_and_log_softmax_backward): zeros_like, the exponential and
 * their sum beside the saved log-probabilities, three fp32 tensors of
 * T·V/t where the fused kernels hold two.  Llama 2 13B's V 32000, 16384
 * tokens, tp 8, logits upcast: 3·16384·4000·4.  Without tensor
 * parallelism it is the standard loss. */
static void
test_loss_parallel (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const double T = 16384, V = 32000;

  hr_test_load (&sc, "default");
  sc.training.logits_fp32 = TRUE;
  sc.parallel.gpus = 8;
  sc.parallel.tp = 8;
  sc.parallel.sp = TRUE;
  sc.parallel.zero = 0;
  sc.training.loss = HR_LOSS_LOSS_PARALLEL;
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "loss gradients"), 3 * T * V / 8 * 4, 1e-12);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "log-probabilities (saved by the loss)"),
                   T * V / 8 * 4, 1e-12);
  sc.training.loss = HR_LOSS_STANDARD;
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "loss gradients"), 2 * T * V / 8 * 4, 1e-12);

  sc.parallel.gpus = 1;
  sc.parallel.tp = 1;
  sc.parallel.sp = FALSE;
  sc.training.loss = HR_LOSS_LOSS_PARALLEL;
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "loss gradients"), 2 * T * V * 4, 1e-12);
}

/* QLoRA under ZeRO-3 with its parameters offloaded: the 4-bit linears leave
 * the GPU with the rest, and the host holds each rank's shard as the GPU
 * did, 4-bit linears and 16-bit others (plus the half again for pinned
 * buffers that host_bytes_per_node adds). */
static void
test_qlora_param_offload (void)
{
  g_autoptr(HrPlan) on_gpu = hr_plan_new ();
  g_autoptr(HrPlan) offloaded = hr_plan_new ();
  HrScenario sc;
  double shard;

  hr_test_load (&sc, "qlora-llama-3.1-8b-rtx4090");
  sc.parallel.zero = 3;
  sc.parallel.gpus = 2;
  sc.parallel.gpus_per_node = 2;
  hr_test_plan (&sc, on_gpu);
  sc.parallel.offload_params = TRUE;
  hr_test_plan (&sc, offloaded);

  shard = (double) hr_test_item_bytes (&on_gpu->devices[0], "frozen base, quantized linears")
          + (double) hr_test_item_bytes (&on_gpu->devices[0], "frozen base, other weights");
  g_assert_cmpfloat (shard, >, 0);
  g_assert_cmpuint (hr_test_item_bytes (&offloaded->devices[0], "frozen base, quantized linears"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&offloaded->devices[0], "frozen base, other weights"), ==, 0);
  hr_assert_close ((double) offloaded->host_bytes_per_node, shard * 2 * 1.5, 1e-6);
}

/* fp8: Transformer Engine's fp8 copies of the linear weights (one byte
 * each, sharded under ZeRO-3), torchao's none. */
static void
test_fp8_recipes (void)
{
  g_autoptr(HrPlan) te = hr_plan_new ();
  g_autoptr(HrPlan) ao = hr_plan_new ();
  HrScenario sc;

  hr_test_load (&sc, "default");
  sc.training.precision = HR_PRECISION_FP8_MIXED;
  hr_training_apply_precision (&sc.training);
  g_assert_cmpint (sc.training.fp8_recipe, ==, HR_FP8_RECIPE_TE);
  hr_test_plan (&sc, te);
  sc.training.fp8_recipe = HR_FP8_RECIPE_TORCHAO;
  hr_test_plan (&sc, ao);
  g_assert_cmpuint (hr_test_item_bytes (&te->devices[0], "fp8 weight copies"), >, 0);
  g_assert_cmpuint (hr_test_item_bytes (&ao->devices[0], "fp8 weight copies"), ==, 0);
  g_assert_cmpuint (te->devices[0].total_bytes - ao->devices[0].total_bytes, >=,
                    hr_test_item_bytes (&te->devices[0], "fp8 weight copies"));
}

/* Bytes of one M x N tensor's MXFP8 copy in one direction, as Transformer
 * Engine allocates it (v2.18, csrc/quantizer.cpp MXFP8Quantizer::
 * create_tensor and get_scale_shape; tensor/mxfp8_tensor.py the same):
 * M·N bytes of data and a scale-inverse of [roundup(M, 128),
 * roundup(N/32, 4)] rowwise or [roundup(M/32, 4), roundup(N, 128)]
 * columnwise, one byte each. */
static guint64
roundup (guint64 x,
         guint64 m)
{
  return (x + m - 1) / m * m;
}

static guint64
mxfp8_bytes (guint64  M,
             guint64  N,
             gboolean columnwise)
{
  g_assert_cmpuint (M % 32, ==, 0);
  g_assert_cmpuint (N % 32, ==, 0);
  return M * N + (columnwise ? roundup (M / 32, 4) * roundup (N, 128)
                             : roundup (M, 128) * roundup (N / 32, 4));
}

/* MXFP8 (te-mxfp8) against Transformer Engine's per-tensor fp8 (te) and
 * bf16, Llama 3.1 8B on 8 B200s (h = a·d = 4096, k·d = 1024, f = 14336,
 * 32 layers), ZeRO-1, b = 2, s = 4096, no checkpointing, flash attention.
 *
 * Weights: a layer's linears as Megatron's TE layer spec holds them, fused
 * QKV [6144 x 4096], O [4096 x 4096], fused gate+up [28672 x 4096], down
 * [4096 x 14336]: 218,103,808 weights, 6,979,321,856 in 32 layers.  te
 * keeps data + transpose, 2 bytes each: 13,958,643,712.  te-mxfp8 keeps a
 * rowwise and a columnwise copy with their scales, each dimension a
 * multiple of 128 so no padding: 2·P + 2·P/32 = 14,394,851,328 bytes,
 * 436,207,616 (416 MiB) more than te.
 *
 * Saved inputs: te keeps the two norms' outputs (T·h each), the O
 * projection's fp8 copy of the attention output (T·a·d) and the down
 * projection's input (T·f) at 1 byte; te-mxfp8 adds their columnwise
 * scales, one byte per 32 tokens: T·(2h + a·d + f)/32 =
 * 8192·26,624/32 = 6,815,744 bytes a layer, 218,103,808 for 32.  Against
 * bf16, te saves T·(h + f) = 150,994,944 bytes a layer.
 *
 * The backward pass: TE quantizes each linear's output gradient for both
 * GEMMs at once (layernorm_linear.py _LayerNormLinear.backward:
 * grad_output_quantizer.set_usage(rowwise=True, columnwise=True)).  At
 * fc1, the fused gate and up, that is its 2f-wide 16-bit gradient, the
 * MXFP8 copy at 2 + 2/32 bytes and the T x h dgrad output:
 * 2·8192·14336·(2 + 2.0625) + 8192·4096·2 = 1,021,313,024 bytes, above
 * RMSNorm's four fp32 T x h tensors (536,870,912), with the residual's
 * gradient (67,108,864) beside: 1,088,421,888, against te's
 * 603,979,776 (the norm's moment; te's own copy is not counted). */
static void
test_fp8_mxfp8 (void)
{
  g_autoptr(HrPlan) bf16 = hr_plan_new ();
  g_autoptr(HrPlan) te = hr_plan_new ();
  g_autoptr(HrPlan) mx = hr_plan_new ();
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GError) error = NULL;
  HrLayerActivations la_bf16, la_te, la_mx;
  HrScenario sc;
  const guint64 h = 4096, kd = 1024, f = 14336, L = 32, T = 2 * 4096;
  const guint64 layer_linear = (h + 2 * kd) * h + h * h + 2 * f * h + h * f;
  guint64 te_bytes = 0, mx_bytes = 0;
  static const guint64 shapes[][2] = {
    { 4096 + 2 * 1024, 4096 }, { 4096, 4096 }, { 2 * 14336, 4096 }, { 4096, 14336 },
  };

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.1-8b");
  g_assert_true (hr_scenario_apply_gpu_preset (&sc, "b200", presets, &error));
  g_assert_no_error (error);
  sc.parallel.gpus = 8;
  sc.parallel.zero = 1;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.attention = HR_ATTENTION_FLASH;
  sc.training.micro_batch = 2;
  sc.training.seq_len = 4096;
  hr_test_plan (&sc, bf16);
  hr_activations_layer (&sc, &la_bf16);
  g_assert_true (hr_scenario_set (&sc, "training.precision=fp8-mixed", presets, "--set", &error));
  g_assert_no_error (error);
  hr_test_plan (&sc, te);
  hr_activations_layer (&sc, &la_te);
  g_assert_true (hr_scenario_set (&sc, "training.fp8_recipe=te-mxfp8", presets, "--set", &error));
  g_assert_no_error (error);
  g_assert_cmpint (sc.training.fp8_recipe, ==, HR_FP8_RECIPE_TE_MXFP8);
  hr_test_plan (&sc, mx);
  hr_activations_layer (&sc, &la_mx);

  /* The weights, matrix by matrix with TE's padding rule. */
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      te_bytes += L * 2 * shapes[i][0] * shapes[i][1];
      mx_bytes += L * (mxfp8_bytes (shapes[i][0], shapes[i][1], FALSE)
                       + mxfp8_bytes (shapes[i][0], shapes[i][1], TRUE));
    }
  g_assert_cmpuint (layer_linear, ==, 218103808);
  g_assert_cmpuint (te_bytes, ==, 2 * L * layer_linear);
  g_assert_cmpuint (te_bytes, ==, 13958643712ull);
  g_assert_cmpuint (mx_bytes, ==, 14394851328ull);
  g_assert_cmpuint (mx_bytes, ==, te_bytes + te_bytes / 32);
  g_assert_cmpuint (hr_test_item_bytes (&bf16->devices[0], "fp8 weight copies"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&te->devices[0], "fp8 weight copies"), ==, te_bytes);
  g_assert_cmpuint (hr_test_item_bytes (&mx->devices[0], "fp8 weight copies"), ==, mx_bytes);

  /* The saved inputs: the columnwise copies of the norms' outputs, the O
   * projection's input and the down projection's input, with a scale
   * byte per 32 tokens (mxfp8_bytes of the T x n input). */
  g_assert_cmpfloat (la_bf16.total - la_te.total, ==, (double) (T * (h + f)));
  g_assert_cmpfloat (la_mx.total - la_te.total, ==,
                     (double) (mxfp8_bytes (T, h, TRUE) * 2 + mxfp8_bytes (T, h, TRUE)
                               + mxfp8_bytes (T, f, TRUE) - T * (3 * h + f)));
  g_assert_cmpfloat (la_mx.total - la_te.total, ==, 6815744.0);

  /* The backward's working set, at fc1. */
  g_assert_cmpfloat (la_te.backward_work, ==, 4.0 * T * h * 4.0 + T * h * 2.0);
  g_assert_cmpfloat (la_te.backward_work, ==, 603979776.0);
  g_assert_cmpfloat (la_mx.backward_work, ==, 2.0 * T * f * (2.0 + 2.0 + 2.0 / 32) + T * h * 2.0 + T * h * 2.0);
  g_assert_cmpfloat (la_mx.backward_work, ==, 1088421888.0);
  /* The end of the backward pass, the first layer's moment: the weight
   * copies, its working set and its own saved inputs' scales. */
  g_assert_cmpuint (mx->devices[0].phase_bytes[HR_PHASE_BACKWARD_END]
                    - te->devices[0].phase_bytes[HR_PHASE_BACKWARD_END], ==,
                    436207616ull + (1088421888ull - 603979776ull) + 6815744ull);

  /* Nothing else changes: the step's peak (no checkpointing: every
   * layer's inputs are alive at the loss's backward) grows by the two. */
  g_assert_cmpuint (mx->devices[0].allocated_bytes - te->devices[0].allocated_bytes, ==,
                    436207616ull + L * 6815744ull);
  g_assert_cmpuint (hr_test_item_bytes (&mx->devices[0], "weights"), ==,
                    hr_test_item_bytes (&te->devices[0], "weights"));
  g_assert_cmpuint (hr_test_item_bytes (&mx->devices[0], "optimizer states"), ==,
                    hr_test_item_bytes (&te->devices[0], "optimizer states"));

  /* A recipe Headroom does not know is refused, naming the field. */
  g_assert_false (hr_scenario_set (&sc, "training.fp8_recipe=mxfp8", presets, "--set", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "training.fp8_recipe"));
  g_assert_nonnull (strstr (error->message, "te-mxfp8"));
}

/* LoRA never needs more than full fine-tuning, QLoRA less than LoRA. */
static void
test_lora_less_than_full (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  guint64 total[HR_N_METHODS];

  hr_test_load (&sc, "qlora-llama-3.1-8b-rtx4090");
  for (guint m = 0; m < HR_N_METHODS; m++)
    {
      sc.training.method = m;
      hr_test_plan (&sc, plan);
      total[m] = plan->devices[0].total_bytes;
    }
  g_assert_cmpuint (total[HR_METHOD_LORA], <, total[HR_METHOD_FULL]);
  g_assert_cmpuint (total[HR_METHOD_QLORA], <, total[HR_METHOD_LORA]);
}

/* Totals never shrink as the micro-batch or the sequence grows (at small
 * sizes the optimizer step, which does not depend on them, is the peak),
 * and over the whole range they grow. */
static void
test_monotonic (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  guint64 previous = 0;

  guint64 first;

  hr_test_load (&sc, "default");
  for (guint64 b = 1; b <= 64; b++)
    {
      sc.training.micro_batch = b;
      hr_test_plan (&sc, plan);
      g_assert_cmpuint (plan->devices[0].total_bytes, >=, previous);
      previous = plan->devices[0].total_bytes;
    }
  sc.training.micro_batch = 1;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (previous, >, plan->devices[0].total_bytes);

  previous = 0;
  for (guint64 s = 256; s <= 65536; s += 256)
    {
      sc.training.seq_len = s;
      hr_test_plan (&sc, plan);
      g_assert_cmpuint (plan->devices[0].total_bytes, >=, previous);
      previous = plan->devices[0].total_bytes;
    }
  sc.training.seq_len = 256;
  hr_test_plan (&sc, plan);
  first = plan->devices[0].total_bytes;
  g_assert_cmpuint (previous, >, first);
}

/* A solver's answer fits with the headroom; one more does not. */
static void
test_solvers (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) work = hr_plan_new ();

  for (guint i = 0; i < G_N_ELEMENTS (scenario_ids); i++)
    {
      HrScenario sc, trial;
      guint64 v;
      g_autoptr(GError) error = NULL;

      hr_test_load (&sc, scenario_ids[i]);

      g_assert_true (hr_solve (&sc, HR_SOLVE_MAX_MICRO_BATCH, work, &v, &error));
      g_test_message ("%s: max micro-batch %" G_GUINT64_FORMAT, scenario_ids[i], v);
      if (v > 0)
        {
          trial = sc;
          trial.training.micro_batch = v;
          hr_test_plan (&trial, plan);
          g_assert_cmpint (plan->status, ==, HR_STATUS_OK);
          trial.training.micro_batch = v + 1;
          hr_test_plan (&trial, plan);
          g_assert_cmpint (plan->status, !=, HR_STATUS_OK);
        }

      g_assert_true (hr_solve (&sc, HR_SOLVE_MAX_SEQ_LEN, work, &v, &error));
      if (v > 0)
        {
          trial = sc;
          trial.training.seq_len = v;
          hr_test_plan (&trial, plan);
          g_assert_cmpint (plan->status, ==, HR_STATUS_OK);
          trial.training.seq_len = v + 1;
          g_assert_true (!hr_calc_plan (&trial, plan, NULL) || plan->status != HR_STATUS_OK);
        }

      g_assert_true (hr_solve (&sc, HR_SOLVE_MIN_GPUS, work, &v, &error));
      g_test_message ("%s: min GPUs %" G_GUINT64_FORMAT, scenario_ids[i], v);
      if (v > 0)
        {
          guint64 unit = sc.parallel.tp * sc.parallel.pp * sc.parallel.cp * MAX (sc.parallel.ep, 1);

          trial = sc;
          trial.parallel.gpus = v;
          hr_test_plan (&trial, plan);
          g_assert_cmpint (plan->status, ==, HR_STATUS_OK);
          if (v > unit)
            {
              trial.parallel.gpus = v - unit;
              g_assert_true (!hr_calc_plan (&trial, plan, NULL) || plan->status != HR_STATUS_OK);
            }
        }
    }
}

/* Each suggestion, applied, makes the plan what it says and saves what it
 * says; the over-capacity default scenario gets at least one that fits. */
static void
test_suggestions (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) work = hr_plan_new ();
  HrSuggestion list[HR_MAX_SUGGESTIONS];

  for (guint i = 0; i < G_N_ELEMENTS (scenario_ids); i++)
    for (guint variant = 0; variant < 3; variant++)
      {
        HrScenario sc;
        guint64 before;
        guint n;
        g_autoptr(GError) error = NULL;

        hr_test_load (&sc, scenario_ids[i]);
        /* Push it over: a bigger micro-batch, or no checkpointing. */
        if (variant == 1)
          sc.training.micro_batch *= 4;
        if (variant == 2)
          sc.training.checkpointing = HR_CHECKPOINTING_NONE;
        hr_test_plan (&sc, plan);
        before = hr_plan_binding (plan)->total_bytes;
        n = hr_suggest (&sc, work, list, HR_MAX_SUGGESTIONS, &error);
        g_assert_no_error (error);
        for (guint k = 0; k < n; k++)
          {
            hr_test_plan (&list[k].scenario, plan);
            g_assert_cmpint (plan->status, ==, list[k].status);
            g_assert_cmpuint (hr_plan_binding (plan)->total_bytes, ==, list[k].total_bytes);
            g_assert_cmpint (list[k].saves_bytes, ==, (gint64) before - (gint64) list[k].total_bytes);
            g_assert_cmpint (list[k].saves_bytes, >, 0);
            /* Ranked: what fits before what does not. */
            if (k > 0)
              g_assert_cmpint (list[k - 1].status, <=, list[k].status);
          }
        if (g_str_equal (scenario_ids[i], "default") && variant == 2)
          {
            g_assert_cmpuint (n, >, 0);
            g_assert_cmpint (list[0].status, ==, HR_STATUS_OK);
          }
      }
}

/* The largest sizes users type compute or are refused, never overflow. */
static void
test_huge_numbers (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  /* A 10-trillion-parameter model on 100,000 GPUs: planned. */
  hr_test_load (&sc, "default");
  sc.model.layers = 400;
  sc.model.hidden = 45056;
  sc.model.heads = sc.model.kv_heads = 352;
  sc.model.head_dim = 0;
  sc.model.ffn = 4 * 45056;
  sc.model.vocab = 1000000;
  sc.parallel.gpus = 102400;
  sc.parallel.tp = 8;
  sc.parallel.pp = 8;
  sc.training.seq_len = 10000000;
  sc.training.micro_batch = 1;
  sc.parallel.cp = 1600;
  g_assert_true (hr_calc_plan (&sc, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat ((double) plan->params, >, 9e12);
  check_invariants (&sc, plan);

  /* An absurd activation size: refused with a message, not wrapped. */
  hr_test_load (&sc, "default");
  sc.training.micro_batch = 1 << 20;
  sc.training.seq_len = 1 << 27;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "training"));
}

/* Invariants over many random valid scenarios. */
static void
test_random_scenarios (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) more = hr_plan_new ();
  GRand *rand = g_rand_new_with_seed (20261202);
  guint planned = 0;

  for (guint i = 0; i < 3000; i++)
    {
      HrScenario sc;
      static const guint64 heads[] = { 8, 16, 32, 64 };

      hr_scenario_init_default (&sc);
      sc.model.heads = heads[g_rand_int_range (rand, 0, 4)];
      sc.model.kv_heads = sc.model.heads / (1u << g_rand_int_range (rand, 0, 3));
      sc.model.hidden = sc.model.heads * 64 * (guint64) g_rand_int_range (rand, 1, 5);
      sc.model.head_dim = 0;
      sc.model.layers = g_rand_int_range (rand, 1, 97);
      sc.model.ffn = sc.model.hidden * (guint64) g_rand_int_range (rand, 2, 5);
      sc.model.mlp = g_rand_int_range (rand, 0, HR_N_MLPS);
      sc.model.experts = g_rand_boolean (rand) ? 1 : 8;
      sc.model.experts_active = sc.model.experts > 1 ? 2 : 1;
      sc.model.dropout = g_rand_boolean (rand);
      sc.training.method = g_rand_int_range (rand, 0, HR_N_METHODS);
      sc.training.precision = g_rand_int_range (rand, 0, HR_N_PRECISIONS);
      hr_training_apply_precision (&sc.training);
      sc.training.optimizer = g_rand_int_range (rand, 0, HR_N_OPTIMIZERS);
      sc.training.checkpointing = g_rand_int_range (rand, 0, HR_N_CHECKPOINTINGS);
      sc.training.attention = g_rand_int_range (rand, 0, HR_N_ATTENTIONS);
      sc.training.micro_batch = g_rand_int_range (rand, 1, 17);
      sc.training.seq_len = 128 * (guint64) g_rand_int_range (rand, 1, 65);
      sc.training.grad_accum = g_rand_int_range (rand, 1, 9);
      sc.parallel.tp = 1u << g_rand_int_range (rand, 0, 3);
      sc.parallel.pp = MIN (sc.model.layers, 1u << g_rand_int_range (rand, 0, 3));
      sc.parallel.gpus = sc.parallel.tp * sc.parallel.pp * (1u << g_rand_int_range (rand, 0, 5));
      sc.parallel.zero = g_rand_int_range (rand, 0, 4);
      if (!hr_calc_plan (&sc, plan, NULL))
        continue;   /* e.g. tp not dividing kv heads: the validator's job */
      planned++;
      check_invariants (&sc, plan);

      /* Checkpointing never increases activations. */
      if (sc.training.checkpointing != HR_CHECKPOINTING_FULL)
        {
          HrScenario ck = sc;

          HrLayerActivations la, first;
          double allowance = 0;

          ck.training.checkpointing = HR_CHECKPOINTING_FULL;
          hr_test_plan (&ck, more);
          /* ... but for LoRA's first layer: without checkpointing its input
           * needs no gradient and it keeps less; checkpointing's reentrant
           * recompute needs one (enable_input_require_grads), so the
           * recomputed first layer, and the embedding's dropout mask, are
           * whole. */
          hr_activations_layer (&ck, &la);
          hr_activations_first_layer (&sc, &first);
          if (sc.training.method != HR_METHOD_FULL)
            allowance = la.total - first.total
                        + first.uncast_weights * hr_dtype_bytes (sc.training.dtypes.activations)
                        + (double) hr_test_item_bytes (&more->devices[0], "embedding dropout mask");
          for (guint d = 0; d < plan->n_devices; d++)
            if ((double) more->devices[d].allocated_bytes
                > (double) plan->devices[d].allocated_bytes + (d == 0 ? allowance : 0.0))
              {
                g_autofree char *data = hr_scenario_to_data (&sc, NULL);

                g_error ("full checkpointing needs more on device %u of:\n%s", d, data);
              }
        }
      /* A larger micro-batch or a longer sequence never needs less. */
      {
        HrScenario big = sc;

        big.training.micro_batch++;
        hr_test_plan (&big, more);
        for (guint d = 0; d < plan->n_devices; d++)
          g_assert_cmpuint (more->devices[d].total_bytes, >=, plan->devices[d].total_bytes);
        big = sc;
        big.training.seq_len += 128;
        hr_test_plan (&big, more);
        for (guint d = 0; d < plan->n_devices; d++)
          g_assert_cmpuint (more->devices[d].total_bytes, >=, plan->devices[d].total_bytes);
      }
      /* LoRA never needs more than full fine-tuning of the same run, but
       * for its own adapter weights (with SGD and checkpointing nothing
       * else differs at the peak).  QLoRA under autocast can: each 4-bit
       * base and each adapter keep their own 16-bit cast of an input that
       * full fine-tuning keeps once per linear.  So can LoRA under
       * Transformer Engine's fp8: full fine-tuning's fp8 linears keep
       * their inputs in fp8, one byte an element, where the adapters keep
       * 16-bit ones. */
      if (sc.training.method != HR_METHOD_FULL
          && !(sc.training.method == HR_METHOD_QLORA
               && sc.training.dtypes.weights == HR_DTYPE_FP32
               && sc.training.dtypes.activations != HR_DTYPE_FP32)
          && !(sc.training.precision == HR_PRECISION_FP8_MIXED
               && (sc.training.fp8_recipe == HR_FP8_RECIPE_TE
                   || sc.training.fp8_recipe == HR_FP8_RECIPE_TE_MXFP8)))
        {
          HrScenario full = sc;

          full.training.method = HR_METHOD_FULL;
          hr_test_plan (&full, more);
          for (guint d = 0; d < plan->n_devices; d++)
            if ((double) plan->devices[d].total_bytes
                > (double) more->devices[d].total_bytes
                  + (double) hr_test_item_bytes (&plan->devices[d], "LoRA adapters")
                    * (1 + sc.overhead.fragmentation) + 1)
              {
                g_autofree char *data = hr_scenario_to_data (&sc, NULL);

                g_error ("LoRA needs more than full fine-tuning on device %u of:\n%s", d, data);
              }
        }
      /* Twice the data-parallel GPUs under ZeRO-3 never add model states. */
      if (sc.parallel.zero == 3)
        {
          HrScenario wide = sc;
          static const char * const states[] = { "weights", "gradients", "master weights",
                                                  "optimizer states", "optimizer states (paged)",
                                                  "LoRA adapters" };

          wide.parallel.gpus *= 2;
          hr_test_plan (&wide, more);
          for (guint d = 0; d < plan->n_devices; d++)
            for (guint k = 0; k < G_N_ELEMENTS (states); k++)
              g_assert_cmpuint (hr_test_item_bytes (&more->devices[d], states[k]), <=,
                                hr_test_item_bytes (&plan->devices[d], states[k]));
        }
    }
  g_rand_free (rand);
  g_test_message ("%u random scenarios planned", planned);
  g_assert_cmpuint (planned, >, 1500);
}

/* Every combination of the options that add items fits a device's fixed
 * item array (hr_calc_add_item asserts it): methods, ZeRO stages,
 * checkpointing, precisions, optimizers, attention, and per model dropout,
 * QK-norm, experts, LoRA dropout, the kept graph and a quantized head. */
static void
test_item_capacity (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  guint most = 0;

  for (guint method = 0; method < HR_N_METHODS; method++)
    for (guint zero = 0; zero <= 3; zero++)
      for (guint ck = 0; ck < HR_N_CHECKPOINTINGS; ck++)
        for (guint prec = 0; prec < HR_N_PRECISIONS; prec++)
          for (guint opt = 0; opt < HR_N_OPTIMIZERS; opt++)
            for (guint bits = 0; bits < 128; bits++)
              {
                g_autoptr(GError) error = NULL;
                HrScenario sc;

                hr_scenario_init_default (&sc);
                sc.training.method = method;
                sc.parallel.zero = zero;
                sc.training.checkpointing = ck;
                sc.training.precision = prec;
                hr_training_apply_precision (&sc.training);
                sc.training.optimizer = opt;
                sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_FOREACH;
                sc.training.zero_grad_to_none = FALSE;
                sc.training.grad_accum = 4;
                sc.parallel.no_sync = TRUE;
                sc.model.bias = HR_BIAS_ALL;
                sc.training.attention = (bits & 1) ? HR_ATTENTION_EAGER : HR_ATTENTION_FLASH;
                sc.model.dropout = (bits & 2) != 0;
                sc.model.qk_norm = (bits & 4) ? HR_QK_NORM_HEAD : HR_QK_NORM_NONE;
                if (bits & 8)
                  {
                    sc.model.experts = 8;
                    sc.model.experts_active = 2;
                  }
                sc.training.lora.dropout = (bits & 16) ? 0.1 : 0.0;
                sc.training.previous_graph_alive = (bits & 32) != 0;
                sc.training.dequant_dtype = HR_DTYPE_FP16;
                sc.training.quant_lm_head = (bits & 64) != 0;
                if (!hr_calc_plan (&sc, plan, &error))
                  continue;
                for (guint d = 0; d < plan->n_devices; d++)
                  most = MAX (most, plan->devices[d].n_items);
              }
  g_test_message ("at most %u items on one device (room for %u)", most, HR_MAX_ITEMS);
  g_assert_cmpuint (most, <, HR_MAX_ITEMS);
}

/* A one-GPU Llama 3.2 3B step as torchtune's README table runs it: micro-batch
 * 2 of 4096 tokens, bf16 activations, no ZeRO. */
static void
load_torchtune_3b (HrScenario *sc)
{
  hr_test_load (sc, "default");
  hr_test_model (sc, "llama-3.2-3b");
  sc->parallel.deepspeed = FALSE;
  sc->parallel.zero = 0;
  sc->parallel.gpus = 1;
  sc->training.micro_batch = 2;
  sc->training.seq_len = 4096;
  sc->training.grad_accum = 1;
}

/* torchtune compiles a chunked loss chunk by chunk (training/_compile.py
 * compile_loss: CEWithChunkedOutputLoss.compute_cross_entropy): the 8
 * chunks keep their bf16 logits and one fp32 log-sum-exp per row, no fp32
 * log-probabilities, and the backward makes one chunk's bf16 gradient:
 * 2 x 4096 x (128256 x 2 + 4) = 2,101,379,072 B kept, 2 x 512 x 128256 x 2
 * = 262,668,288 B at the loss's backward. */
static void
test_compiled_chunked_loss (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;

  load_torchtune_3b (&sc);
  sc.training.loss = HR_LOSS_CHUNKED;
  sc.training.loss_chunks = 8;
  sc.training.logits_fp32 = TRUE;
  sc.training.compile = TRUE;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "logits and log-sum-exp (kept by the compiled loss)"), ==,
                    G_GUINT64_CONSTANT (2101379072));
  g_assert_cmpuint (hr_test_item_bytes (d, "loss gradients"), ==, G_GUINT64_CONSTANT (262668288));
  g_assert_cmpuint (hr_test_item_bytes (d, "log-probabilities (saved by the loss)"), ==, 0);

  /* Not compiled: every chunk's fp32 log-probabilities stay (4 x 2 x 4096
   * x 128256). */
  sc.training.compile = FALSE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "log-probabilities (saved by the loss)"), ==,
                    G_GUINT64_CONSTANT (4202692608));
}

/* torchtitan's December 2024 benchmark run (Llama 3.1 8B: 32 layers, h 4096,
 * V 128256; 8 GPUs, FSDP2 with the root unit, local batch 2 x 8192 = 16384
 * tokens, per-op checkpointing, fp32 gradients) with --training.compile at
 * 9dec370: each TransformerBlock compiled (parallelize_llama.py
 * apply_compile), the loss eager (train.py: its compile commented out).
 * Its plan is the eager plan's loss and the compiled plan's blocks:
 * - loss, as eager: fp32 log-probabilities T·V·4 = 16384·128256·4 =
 *   8,405,385,216 B, two fp32 gradients 2·T·V·4 = 16,810,770,432 B, the
 *   fp32 copy the forward's loss makes (T·V·4), and nothing of the
 *   compiled loss's (T·(V·2 + 4) = 4,202,758,144 B);
 * - blocks, as compiled: per-op checkpoints less the down projection's
 *   output, which no backward reads, 32·T·h·2 = 32·16384·4096·2 =
 *   4,294,967,296 B under the eager per-op set;
 * and so the peak (the loss's backward) is the eager one less those
 * 4,294,967,296 B. */
static void
load_torchtitan_8b (HrScenario *sc)
{
  hr_test_load (sc, "default");
  hr_test_model (sc, "llama-3.1-8b");
  sc->parallel.deepspeed = FALSE;
  sc->parallel.zero = 3;
  sc->parallel.fsdp = 2;
  sc->parallel.fsdp_units = HR_FSDP_UNITS_ROOT;
  sc->parallel.gpus = 8;
  sc->training.micro_batch = 2;
  sc->training.seq_len = 8192;
  sc->training.grad_accum = 1;
  sc->training.checkpointing = HR_CHECKPOINTING_OP;
  sc->training.attention = HR_ATTENTION_FLASH;
  sc->training.loss = HR_LOSS_STANDARD;
  sc->training.logits_fp32 = TRUE;
  sc->training.previous_graph_alive = FALSE;
}

static void
test_compiled_blocks_eager_loss (void)
{
  g_autoptr(HrPlan) eager = hr_plan_new ();
  g_autoptr(HrPlan) compiled = hr_plan_new ();
  g_autoptr(HrPlan) blocks = hr_plan_new ();
  static const char * const loss_items[] = {
    "logits", "log-probabilities (saved by the loss)", "loss gradients",
    "logits and log-sum-exp (kept by the compiled loss)", "final norm input and output",
    "logits' fp32 copy (while the loss runs)",
  };
  const char *per_op = "saved matmul and attention outputs (per-op checkpoints)";
  const HrDevice *e, *c, *b;
  HrScenario sc;

  load_torchtitan_8b (&sc);
  g_assert_true (sc.training.compile_loss);   /* the field's default */
  hr_test_plan (&sc, eager);
  sc.training.compile = TRUE;
  hr_test_plan (&sc, compiled);
  sc.training.compile_loss = FALSE;
  hr_test_plan (&sc, blocks);
  e = &eager->devices[0];
  c = &compiled->devices[0];
  b = &blocks->devices[0];

  /* The loss: the eager plan's, item by item. */
  for (guint i = 0; i < G_N_ELEMENTS (loss_items); i++)
    g_assert_cmpuint (hr_test_item_bytes (b, loss_items[i]), ==, hr_test_item_bytes (e, loss_items[i]));
  g_assert_cmpuint (hr_test_item_bytes (b, "log-probabilities (saved by the loss)"), ==,
                    G_GUINT64_CONSTANT (8405385216));
  g_assert_cmpuint (hr_test_item_bytes (b, "loss gradients"), ==, G_GUINT64_CONSTANT (16810770432));
  g_assert_cmpuint (hr_test_item_bytes (b, "logits and log-sum-exp (kept by the compiled loss)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (c, "logits' fp32 copy (while the loss runs)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (c, "logits and log-sum-exp (kept by the compiled loss)"), ==,
                    G_GUINT64_CONSTANT (4202758144));

  /* The blocks: every other item the compiled plan's. */
  for (guint i = 0; i < b->n_items; i++)
    {
      gboolean loss = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (loss_items); j++)
        loss |= g_str_equal (b->items[i].name, loss_items[j]);
      if (!loss && b->items[i].category == HR_CATEGORY_ACTIVATIONS)
        g_assert_cmpuint (hr_test_item_bytes (b, b->items[i].name), ==,
                          hr_test_item_bytes (c, b->items[i].name));
    }
  g_assert_cmpuint (hr_test_item_bytes (e, per_op) - hr_test_item_bytes (b, per_op), ==,
                    G_GUINT64_CONSTANT (4294967296));

  /* The peak, the loss's backward in all three. */
  g_assert_cmpint (e->peak_phase, ==, HR_PHASE_LOSS_BACKWARD);
  g_assert_cmpint (b->peak_phase, ==, HR_PHASE_LOSS_BACKWARD);
  g_assert_cmpuint (e->allocated_bytes - b->allocated_bytes, ==, G_GUINT64_CONSTANT (4294967296));

  /* Without compile, compile_loss changes nothing. */
  sc.training.compile = FALSE;
  hr_test_plan (&sc, blocks);
  g_assert_cmpuint (blocks->devices[0].allocated_bytes, ==, e->allocated_bytes);
}

/* torchtune's optimizer_in_bwd gives every parameter its own optimizer
 * (recipes' _setup_optimizer: {p: instantiate (cfg_optimizer, [p])}): the
 * foreach step's scratch is one tensor, the largest, the 128256 x 3072
 * embedding, in the optimizer states' type (fp32 under bf16-mixed), while
 * the backward pass runs; nothing is left for a step after it. */
static void
test_optimizer_in_backward_scratch (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;

  load_torchtune_3b (&sc);
  sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_FOREACH;
  sc.training.optimizer_in_backward = TRUE;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer step temporaries"), ==,
                    G_GUINT64_CONSTANT (128256) * 3072 * 4);
  for (guint i = 0; i < d->n_items; i++)
    if (g_str_equal (d->items[i].name, "optimizer step temporaries"))
      {
        g_assert_false (d->items[i].live & HR_LIVE (HR_PHASE_STEP));
        g_assert_true (d->items[i].live & HR_LIVE (HR_PHASE_BACKWARD_END));
      }
  /* Llama 3.2 3B ties its output to the embedding: the output-sized
   * gradient (128256 x 3072, in the gradients' bf16) waits from the loss's
   * backward to the embedding's. */
  g_assert_true (sc.model.tied_embeddings);
  g_assert_cmpuint (hr_test_item_bytes (d, "output layer's gradient (tied: until the embedding's backward)"), ==,
                    G_GUINT64_CONSTANT (128256) * 3072 * 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calc/scenario-presets", test_scenario_presets);
  g_test_add_func ("/calc/default", test_default_scenario);
  g_test_add_func ("/calc/hybrid-stages", test_hybrid_stages);
  g_test_add_func ("/calc/deepseek-stages", test_deepseek_stages);
  g_test_add_func ("/calc/context-parallel-shards", test_context_parallel_shards);
  g_test_add_func ("/calc/pipeline", test_pipeline_stages);
  g_test_add_func ("/calc/checkpoint-every", test_checkpoint_every);
  g_test_add_func ("/calc/fsdp-versions", test_fsdp_versions);
  g_test_add_func ("/calc/logits-upcast", test_logits_upcast);
  g_test_add_func ("/calc/qlora-param-offload", test_qlora_param_offload);
  g_test_add_func ("/calc/fp8-recipes", test_fp8_recipes);
  g_test_add_func ("/calc/fp8-mxfp8", test_fp8_mxfp8);
  g_test_add_func ("/calc/lora-less-than-full", test_lora_less_than_full);
  g_test_add_func ("/calc/monotonic", test_monotonic);
  g_test_add_func ("/calc/solvers", test_solvers);
  g_test_add_func ("/calc/suggestions", test_suggestions);
  g_test_add_func ("/calc/huge-numbers", test_huge_numbers);
  g_test_add_func ("/calc/random", test_random_scenarios);
  g_test_add_func ("/calc/item-capacity", test_item_capacity);
  g_test_add_func ("/calc/whisper", test_whisper_plan);
  g_test_add_func ("/calc/compiled-chunked-loss", test_compiled_chunked_loss);
  g_test_add_func ("/calc/loss-parallel", test_loss_parallel);
  g_test_add_func ("/calc/compiled-blocks-eager-loss", test_compiled_blocks_eager_loss);
  g_test_add_func ("/calc/optimizer-in-backward-scratch", test_optimizer_in_backward_scratch);
  return g_test_run ();
}
