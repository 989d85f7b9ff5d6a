/* test-states.c: model states and their sharding against the ZeRO paper,
 * DeepSpeed's estimator and the bytes-per-parameter table
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan's model-state items (weights, gradients, master weights,
 * optimizer states), summed whatever phase they live in, divided by the
 * parameter count, must give the published bytes per parameter.
 */

#include <math.h>
#include <string.h>

#include "hr-activations.h"
#include "hr-params.h"
#include "hr-test-util.h"

static double
model_state_bytes (const HrDevice *d)
{
  return (double) (hr_test_state_bytes (d, "weights") + hr_test_state_bytes (d, "gradients")
                   + hr_test_state_bytes (d, "master weights")
                   + hr_test_state_bytes (d, "optimizer states")
                   + hr_test_item_bytes (d, "optimizer states (paged)"));
}

static void
llama_7b (HrScenario *sc)
{
  hr_scenario_init_default (sc);
  hr_test_model (sc, "llama-2-7b");
  sc->training.checkpointing = HR_CHECKPOINTING_FULL;
  sc->training.micro_batch = 1;
  sc->training.seq_len = 512;
}

/* ZeRO paper §5.1, Fig. 1: Ψ = 7.5B, N_d = 64, K = 12 (mixed precision
 * Adam): 120 GB, 31.4 GB, 16.6 GB, 1.9 GB per GPU for stages 0 to 3. */
static void
test_zero_paper (void)
{
  static const double paper_gb[] = { 120.0, 31.4, 16.6, 1.9 };
  g_autoptr(HrPlan) plan = hr_plan_new ();

  for (guint stage = 0; stage <= 3; stage++)
    {
      HrScenario sc;
      double per_param, gb;

      llama_7b (&sc);
      sc.training.precision = HR_PRECISION_BF16_MIXED;
      hr_training_apply_precision (&sc.training);
      sc.parallel.gpus = 64;
      sc.parallel.zero = stage;
      /* The paper's ZeRO-3 keeps a 16-bit partition of the parameters
       * beside the fp32 one, as DeepSpeed's engine does; FSDP's mixed
       * precision keeps only the fp32 shard (below). */
      sc.parallel.deepspeed = stage == 3;
      hr_test_plan (&sc, plan);
      per_param = model_state_bytes (&plan->devices[0]) / (double) plan->params;
      gb = per_param * 7.5e9 / 1e9;
      g_test_message ("ZeRO stage %u: %.4f bytes/param -> %.2f GB for 7.5B", stage, per_param, gb);
      /* The paper rounds to 0.1 GB. */
      g_assert_cmpfloat (fabs (gb - paper_gb[stage]), <, 0.06);

      /* FSDP (1 and 2) at stage 3: (4 + 2 + 8)·Ψ / N, no 16-bit shard:
       * 1.64 GB for the paper's 7.5B on 64 GPUs. */
      if (stage == 3)
        for (guint64 fsdp = 1; fsdp <= 2; fsdp++)
          {
            sc.parallel.deepspeed = FALSE;
            sc.parallel.fsdp = fsdp;
            hr_test_plan (&sc, plan);
            per_param = model_state_bytes (&plan->devices[0]) / (double) plan->params;
            g_test_message ("FSDP%" G_GUINT64_FORMAT " stage 3: %.4f bytes/param", fsdp, per_param);
            g_assert_cmpfloat (fabs (per_param - 14.0 / 64.0), <, 1e-3);
            g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "weights"), ==, 0);
          }
    }
}

/* ZeRO paper Table 1 (derived from the same formula): Ψ = 128B, N_d = 16:
 * 2048 / 608 / 368 / 128 GB. */
static void
test_zero_table1 (void)
{
  static const double table_gb[] = { 2048, 608, 368, 128 };
  g_autoptr(HrPlan) plan = hr_plan_new ();

  for (guint stage = 0; stage <= 3; stage++)
    {
      HrScenario sc;
      double gb;

      llama_7b (&sc);
      sc.parallel.gpus = 16;
      sc.parallel.zero = stage;
      sc.parallel.deepspeed = stage == 3;   /* the paper's 16-bit partition, as above */
      hr_test_plan (&sc, plan);
      gb = model_state_bytes (&plan->devices[0]) / (double) plan->params * 128e9 / 1e9;
      hr_assert_close (gb, table_gb[stage], 1e-9);
    }
}

/* CALC-REFERENCE.md section 2. */
static void
test_bytes_per_param (void)
{
  static const struct {
    const char *regime;
    HrPrecision precision;
    HrOptimizer optimizer;
    gboolean fp32_grads;
    double bytes;
  } table[] = {
    { "fp32 + Adam", HR_PRECISION_FP32, HR_OPTIMIZER_ADAMW, FALSE, 16 },
    { "mixed + Adam", HR_PRECISION_BF16_MIXED, HR_OPTIMIZER_ADAMW, FALSE, 16 },
    { "Megatron fp32 grads", HR_PRECISION_BF16_MIXED, HR_OPTIMIZER_ADAM, TRUE, 18 },
    { "pure bf16 AdamW", HR_PRECISION_BF16_TRUE, HR_OPTIMIZER_ADAMW, FALSE, 8 },
    { "mixed + SGD momentum", HR_PRECISION_BF16_MIXED, HR_OPTIMIZER_SGD_MOMENTUM, FALSE, 12 },
    { "mixed + 8-bit Adam", HR_PRECISION_BF16_MIXED, HR_OPTIMIZER_ADAMW_8BIT, FALSE, 10 },
  };
  g_autoptr(HrPlan) plan = hr_plan_new ();

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      HrScenario sc;
      double per_param;

      llama_7b (&sc);
      sc.parallel.gpus = 1;
      sc.parallel.zero = 0;
      sc.training.precision = table[i].precision;
      sc.training.dtypes_set = table[i].fp32_grads ? 2 : 0;
      sc.training.dtypes.grads = HR_DTYPE_FP32;
      hr_training_apply_precision (&sc.training);
      sc.training.optimizer = table[i].optimizer;
      hr_test_plan (&sc, plan);
      per_param = model_state_bytes (&plan->devices[0]) / (double) plan->params;
      g_test_message ("%-22s %.4f bytes/param", table[i].regime, per_param);
      /* 8-bit states carry an fp32 absmax per 2048 values: 2 x 4/2048. */
      hr_assert_close (per_param, table[i].bytes, 0.001);
    }
}

/* DeepSpeed's estimator (CALC-REFERENCE.md section 3) for t5-3b (2851M
 * params, 32M in the largest layer) on 8 GPUs with ZeRO-3: 4·LL + 18P/N
 * = 6.09 GB; offloading the optimizer: 4·LL + 2P/N = 0.78; both: 4·LL =
 * 0.12 (GiB, printed as "GB").  The scenario cannot describe t5's
 * encoder-decoder, so the per-parameter and per-layer-parameter factors of
 * the plan are applied to t5-3b's P and LL. */
static void
test_deepspeed_t5 (void)
{
  static const struct { gboolean opt, params; double gib; } cases[] = {
    { FALSE, FALSE, 6.09 }, { TRUE, FALSE, 0.78 }, { TRUE, TRUE, 0.12 },
  };
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double P = 2851e6, LL = 32e6;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HrScenario sc;
      const HrDevice *d;
      double per_param, per_layer_param, gib, layer;

      llama_7b (&sc);
      sc.parallel.gpus = 8;
      sc.parallel.zero = 3;
      sc.parallel.offload_optimizer = cases[i].opt;
      sc.parallel.offload_params = cases[i].params;
      sc.training.dtypes.grads = HR_DTYPE_FP32;   /* DeepSpeed's 18 = 2 + 4 + 12 */
      sc.training.dtypes_set = 2;
      hr_training_apply_precision (&sc.training);
      /* The estimator's 4·largest layer is two layers gathered in 16 bits,
       * as FSDP gathers them (DeepSpeed's own engine keeps a reuse window,
       * planned elsewhere); its 18 bytes per parameter are the engine's
       * partitions, 16-bit weights among them, which FSDP does not keep. */
      hr_test_plan (&sc, plan);
      d = &plan->devices[0];
      layer = (double) (sc.model.hidden * sc.model.hidden * 4 + 3 * sc.model.hidden * sc.model.ffn
                        + 2 * sc.model.hidden);
      per_layer_param = (double) hr_test_item_bytes (d, "gathered layers (current + prefetch)") / layer;
      sc.parallel.deepspeed = TRUE;
      hr_test_plan (&sc, plan);
      per_param = model_state_bytes (d) * 8 / (double) plan->params;
      gib = (per_layer_param * LL + per_param * P / 8) / (1024.0 * 1024 * 1024);
      g_test_message ("t5-3b, offload optimizer %d, params %d: %.3f GiB", cases[i].opt,
                      cases[i].params, gib);
      g_assert_cmpfloat (fabs (gib - cases[i].gib), <, 0.006);
    }
}

/* DeepSpeed's zero_optimization sizes as the Hugging Face Trainer's "auto"
 * fills them for the default 13B (hidden 5120): the ZeRO-3 reduce bucket
 * is 5120² elements in bf16 (52,428,800 bytes, not 5e8·2), the prefetch
 * 0.9·5120² = 23,592,960 elements beside the reuse window (1e9 / 3 with
 * full checkpointing); under ZeRO-2 overlap_comm doubles the bucket. */
static void
test_deepspeed_sizes (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;

  hr_scenario_init_default (&sc);
  sc.parallel.deepspeed = TRUE;
  g_assert_cmpuint (sc.parallel.zero, ==, 3);
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient reduce bucket"), ==, 500000000ull * 2);
  hr_assert_close ((double) hr_test_item_bytes (d, "gathered weights (reuse + prefetch)"),
                   (1e9 / 3 + 5e7) * 2, 1e-9);

  sc.parallel.reduce_bucket_size = 5120 * 5120;
  sc.parallel.stage3_prefetch_bucket_size = 23592960;
  sc.parallel.stage3_param_persistence_threshold = 51200;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient reduce bucket"), ==, 52428800);
  hr_assert_close ((double) hr_test_item_bytes (d, "gathered weights (reuse + prefetch)"),
                   (1e9 / 3 + 23592960) * 2, 1e-9);
  /* the most live parameters bound the prefetch: the window fills it */
  sc.parallel.stage3_max_live_parameters = 300000000;
  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "gathered weights (reuse + prefetch)"),
                   (1e9 / 3) * 2, 1e-9);

  /* One optimizer sub-group of the whole partition (13,015,864,320 / 8
   * elements) against DeepSpeed's 1e9: its fp32 gradients for the step */
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp32 gradients for the step"), ==, 4000000000ull);
  sc.parallel.sub_group_size = 1000000000000ull;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp32 gradients for the step"), ==,
                    13015864320ull / 8 * 4);

  sc.parallel.zero = 2;
  sc.parallel.overlap_comm = TRUE;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient reduce bucket"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient reduce buckets (two: overlap_comm)"), ==, 2 * 52428800ull);
}

/* Zamba2 2.7B's two shared blocks (2 x 170,401,280 parameters, bf16)
 * under DeepSpeed on 8 GPUs: from ZeRO-2 on, their whole gradient sums
 * over their uses through the backward pass (the AccumulateGrad node
 * DeepSpeed hooks runs once every use has added its share), and under
 * ZeRO-3 they stay gathered beside the reuse window, called again a few
 * layers later, well within stage3_max_reuse_distance (1e9): the window
 * (1e9 / 3 with full checkpointing, plus the 5e7 prefetch) is taken from
 * the other weights.  FSDP's units are refused (hr-validate-shared.c). */
static void
test_deepspeed_shared_blocks (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  const guint64 shared = 2 * 170401280ull;
  HrScenario sc;
  const HrDevice *d;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "zamba2-2.7b");
  sc.parallel.deepspeed = TRUE;
  sc.parallel.gpus = 8;
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;

  sc.parallel.zero = 1;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "shared blocks' gradients (summed over their uses)"),
                    ==, 0);

  sc.parallel.zero = 2;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "shared blocks' gradients (summed over their uses)"), ==, shared * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "shared blocks, gathered (reused within max_reuse_distance)"), ==, 0);

  sc.parallel.zero = 3;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "shared blocks' gradients (summed over their uses)"), ==, shared * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "shared blocks, gathered (reused within max_reuse_distance)"), ==,
                    shared * 2);
  hr_assert_close ((double) hr_test_item_bytes (d, "gathered weights (reuse + prefetch)"),
                   (1e9 / 3 + 5e7) * 2, 1e-9);

  /* LoRA: the adapters on the shared blocks are what their uses sum */
  sc.training.method = HR_METHOD_LORA;
  sc.parallel.zero = 2;
  hr_test_plan (&sc, plan);
  {
    HrParamCounts c;

    hr_params_count (&sc.model, &sc.training, 1, 1, &c);
    g_assert_cmpuint (c.shared_blocks_lora, >, 0);
    g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "shared blocks' gradients (summed over their uses)"),
                      ==, c.shared_blocks_lora * 2);
  }

  sc.parallel.deepspeed = FALSE;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "parallel.zero: 2 is not planned with shared blocks under FSDP"));
}

/* More data-parallel GPUs with ZeRO-3 never increase model states. */
static void
test_more_gpus_never_more_states (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  double previous = G_MAXDOUBLE;

  for (guint gpus = 1; gpus <= 1024; gpus *= 2)
    {
      HrScenario sc;
      double now;

      llama_7b (&sc);
      sc.parallel.gpus = gpus;
      sc.parallel.zero = 3;
      hr_test_plan (&sc, plan);
      now = model_state_bytes (&plan->devices[0]);
      g_assert_cmpfloat (now, <=, previous);
      previous = now;
    }
}

/* Paged optimizer states live in managed memory: in total_bytes, not in
 * allocated_bytes (bitsandbytes; CALC-REFERENCE.md section 2). */
static void
test_paged_outside_allocator (void)
{
  g_autoptr(HrPlan) paged = hr_plan_new ();
  g_autoptr(HrPlan) plain = hr_plan_new ();
  HrScenario sc;
  guint64 states;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.optimizer = HR_OPTIMIZER_ADAMW;
  sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_FUSED;
  hr_test_plan (&sc, plain);
  sc.training.optimizer = HR_OPTIMIZER_PAGED_ADAMW;
  hr_test_plan (&sc, paged);
  states = hr_test_item_bytes (&paged->devices[0], "optimizer states (paged)");
  g_assert_cmpuint (states, ==, hr_test_item_bytes (&plain->devices[0], "optimizer states"));
  g_assert_cmpuint (paged->devices[0].allocated_bytes + states, ==,
                    plain->devices[0].allocated_bytes);
}

/* bitsandbytes' 32-bit paged AdamW keeps two fp32 states per trainable
 * weight even when the weights are bf16 (Optimizer2State.init_state):
 * 8 bytes, where torch.optim.AdamW under pure bf16 keeps 4. */
static void
test_paged_states_fp32 (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.optimizer = HR_OPTIMIZER_ADAMW;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "optimizer states"), ==,
                    plan->params * 4);
  sc.training.optimizer = HR_OPTIMIZER_PAGED_ADAMW;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "optimizer states (paged)"), ==,
                    plan->params * 8);
}

/* FSDP1's root unit (embeddings, head, final norm) assembles its flat
 * gradient only when the embedding's gradient arrives at the end of the
 * backward pass.  Gemma 2B as LitGPT trains it (FSDP1) (untied: V·h embedding and
 * V·h head, h final norm; V 256000, h 2048), bf16 gradients: the head's
 * gradient V·h·2 waits through the backward, and at its end 2·P_outside·2
 * bytes exist in all.  LoRA trains neither, so neither item exists. */
static void
test_fsdp_root_gradients (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double V = 256000, h = 2048, outside = 2 * V * h + h;
  HrScenario sc;
  const HrDevice *d;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "gemma-2b");
  sc.model.tied_embeddings = FALSE;
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.parallel.gpus = 4;
  sc.parallel.zero = 3;
  sc.parallel.fsdp = 1;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpfloat (hr_test_item_bytes (d, "head gradient (waits for the root unit)"), ==,
                     V * h * 2);
  g_assert_cmpfloat (hr_test_item_bytes (d, "head gradient (waits for the root unit)")
                     + hr_test_item_bytes (d, "root unit's gradients joined (flat)"), ==,
                     2 * outside * 2);

  sc.training.method = HR_METHOD_LORA;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "root unit's gradients joined (flat)"),
                    ==, 0);
}

static guint
item_live (const HrDevice *d,
           const char     *name)
{
  for (guint i = 0; i < d->n_items; i++)
    if (g_str_equal (d->items[i].name, name))
      return d->items[i].live;
  return 0;
}

/* DeepSpeed ZeRO-3 (stage3.py, DeepSpeedZeroOptimizer_Stage3.__init__)
 * on the default scenario: Llama 2 13B (P = 13 015 864 320, 40 layers,
 * h 5120, RMSNorm), 8 GPUs, bf16-mixed, full checkpointing.  DeepSpeed's
 * defaults (deepspeed/runtime/zero/config.py): reduce_bucket_size 5e8,
 * stage3_prefetch_bucket_size 5e7, stage3_max_live_parameters 1e9,
 * stage3_max_reuse_distance 1e9, stage3_param_persistence_threshold 1e5,
 * sub_group_size 1e9.
 *   grad_partitions_flat_buffer: P/8·2 = 3 253 966 080 B, the whole step
 *   ipg bucket: 5e8·2 = 1e9 B, the whole step
 *   gathered: 1e9/3 (full recompute) + 5e7 elements, ·2 = 766 666 667 B
 *   norms kept whole: (40·2 + 1)·5120 = 414 720 elements, ·2·7/8 = 725 760 B
 *   step: one sub-group of 1e9 of the P/8 = 1.63e9 elements at a time,
 *         fp32 4e9 B and its flattened bf16 copy 2e9 B
 * Before, without the engine, the default plan had no gradients at its
 * peak (loss backward): FSDP's are produced at the end of the backward. */
static void
test_deepspeed_zero3 (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double P = 13015864320.0;
  HrScenario sc;
  const HrDevice *d;

  hr_test_load (&sc, "default");
  g_assert_true (sc.parallel.deepspeed);
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (plan->params, ==, (guint64) P);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients"), ==, (guint64) (P / 8 * 2));
  g_assert_cmpuint (item_live (d, "gradients"), ==, HR_LIVE_ALWAYS);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient reduce bucket"), ==, 1000000000);
  g_assert_cmpuint (item_live (d, "gradient reduce bucket"), ==, HR_LIVE_ALWAYS);
  g_assert_cmpuint (d->category_bytes[HR_CATEGORY_GRADIENTS], ==,
                    (guint64) (P / 8 * 2) + 1000000000);
  g_assert_cmpuint (hr_test_item_bytes (d, "gathered weights (reuse + prefetch)"), ==,
                    766666667);
  g_assert_cmpuint (hr_test_item_bytes (d, "small weights kept whole"), ==,
                    725760);
  g_assert_cmpuint (hr_test_item_bytes (d, "fp32 gradients for the step"), ==, 4000000000);
  g_assert_cmpuint (hr_test_item_bytes (d, "flattened gradient partition (step)"), ==, 2000000000);
  g_assert_cmpuint (hr_test_item_bytes (d, "gathered layers (current + prefetch)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (d, "root unit's gradients joined (flat)"), ==, 0);
  /* The token table (32000 x 5120), gathered again for its backward and
   * kept to the step: its module's input needs no gradient, so DeepSpeed's
   * post-backward hook never releases it. */
  g_assert_cmpuint (hr_test_item_bytes (d, "token embedding, gathered again for its backward"), ==,
                    32000ull * 5120 * 2);
  g_assert_cmpuint (item_live (d, "token embedding, gathered again for its backward"), ==,
                    HR_LIVE (HR_PHASE_BACKWARD_END));
  /* The ZeRO paper's 16 bytes per parameter over 8 GPUs still hold. */
  hr_assert_close (model_state_bytes (d), 16.0 * P / 8, 1e-9);
  /* A reuse window that holds the whole model holds the table too. */
  sc.parallel.stage3_max_reuse_distance = 100000000000ull;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "token embedding, gathered again for its backward"),
                    ==, 0);
  sc.parallel.stage3_max_reuse_distance = 1000000000;

  sc.parallel.deepspeed = FALSE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->devices[0].category_bytes[HR_CATEGORY_GRADIENTS], ==, 0);
}

/* DeepSpeed's copies on the gradients' way, on the default Llama 2 13B
 * (largest linear 13824 x 5120 = 70,778,880; embedding and head 32000 x
 * 5120 = 163,840,000 each).  ZeRO-3's reduce_scatter_coalesced copies a
 * bucket of several weights (torch.cat): 5e8·2 bytes through the
 * backward pass.  With the optimizer on the CPU, partition_grads copies
 * each partition back to the GPU (2 bytes an element), takes its norm in
 * float64 pieces of 2.5e8 (8 bytes) and then makes its fp32 copy (4
 * bytes): on one GPU the embedding's 163,840,000·10 bytes; past a 2.5e8
 * piece the fp16 copy grows alone, past 5e8 elements the fp32 copy is the
 * larger; a tensor larger than the bucket is reduced alone, without the
 * bucket's copy.  ZeRO-2 keeps a staging buffer of the largest weight and
 * checks each whole gradient for overflow (its fp32 copy, three bool
 * tensors and their fp32 copy: 11 bytes an element in bf16) before a
 * share's norm in float64 (stage_1_and_2.py). */
static void
test_deepspeed_offload_copies (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;

  hr_test_load (&sc, "default");
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "reduce-scatter's copy of the bucket"), ==, 1000000000);
  g_assert_cmpuint (item_live (d, "reduce-scatter's copy of the bucket"), ==, HR_LIVE_BACKWARD);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient's GPU copy and fp64 norm (offload)"), ==, 0);

  sc.parallel.offload_optimizer = TRUE;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  /* 8 GPUs: the embedding's partition, 20,480,000 elements */
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient's GPU copy and fp64 norm (offload)"), ==, 204800000);
  g_assert_cmpuint (item_live (d, "gradient's GPU copy and fp64 norm (offload)"), ==, HR_LIVE_BACKWARD);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients"), ==, 0);

  sc.parallel.gpus = 1;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "gradient's GPU copy and fp64 norm (offload)"), ==,
                    1638400000);
  sc.parallel.reduce_bucket_size = 100000000;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "reduce-scatter's copy of the bucket"), ==, 200000000);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "gradient's GPU copy and fp64 norm (offload)"), ==,
                    1638400000 - 200000000);
  sc.parallel.reduce_bucket_size = 500000000;
  sc.model.vocab = 65536;     /* 335,544,320 elements: one 2.5e8 piece at a time */
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "gradient's GPU copy and fp64 norm (offload)"), ==,
                    2 * 335544320ull + 8 * 250000000ull);
  /* 656,670,720 elements: the fp32 copy is the larger; past the 5e8
   * bucket, reduced alone, without the bucket's copy */
  sc.model.vocab = 128256;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "gradient's GPU copy and fp64 norm (offload)"), ==,
                    (2 + 4) * 656670720ull - 500000000ull * 2);

  sc.model.vocab = 32000;
  sc.parallel.gpus = 8;
  sc.parallel.zero = 2;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "reduce-scatter's copy of the bucket"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (d, "offload staging buffer (largest weight)"), ==, 163840000 * 2);
  g_assert_cmpuint (item_live (d, "offload staging buffer (largest weight)"), ==, HR_LIVE_ALWAYS);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient's overflow check and fp64 norm (offload)"), ==,
                    163840000ull * 11);
  g_assert_cmpuint (item_live (d, "gradient's overflow check and fp64 norm (offload)"), ==, HR_LIVE_BACKWARD);
  /* ZeRO-1 reduces once the backward pass is over. */
  sc.parallel.zero = 1;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (item_live (&plan->devices[0], "gradient's overflow check and fp64 norm (offload)"), ==,
                    HR_LIVE (HR_PHASE_BACKWARD_END));
}

/* DeepSpeed ZeRO-1/2 (stage_1_and_2.py): the bucket (one, overlap_comm
 * being off below stage 3) lives from the first gradient to the end of
 * the backward pass (setup_buckets, _release_ipg_buffers); ZeRO-2 keeps
 * this rank's partition, P/8·2 bytes, to the step; ZeRO-1 keeps the whole
 * gradients, P·2, until they are reduced after the backward pass, and
 * only the partition for the step (_clear_param_grad_only). */
static void
test_deepspeed_zero12 (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;
  guint64 P;

  hr_test_load (&sc, "default");
  sc.parallel.zero = 2;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  P = plan->params;
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient reduce bucket"), ==, 1000000000);
  g_assert_cmpuint (item_live (d, "gradient reduce bucket"), ==, HR_LIVE_BACKWARD);
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients"), ==, P / 8 * 2);
  g_assert_true (item_live (d, "gradients") & HR_LIVE (HR_PHASE_STEP));
  g_assert_cmpuint (hr_test_item_bytes (d, "unsharded gradients of one layer (reduce-scatter)"), ==, 0);

  sc.parallel.zero = 1;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients"), ==, P * 2);
  g_assert_false (item_live (d, "gradients") & HR_LIVE (HR_PHASE_STEP));
  g_assert_cmpuint (hr_test_item_bytes (d, "gradient partition"), ==, P / 8 * 2);
  g_assert_true (item_live (d, "gradient partition") & HR_LIVE (HR_PHASE_STEP));
}

/* The optimizer step's scratch, as the reference oracle measures it on
 * Llama 2 7B's shape (h 4096, f 11008, V 32000) in fp32: SGD with momentum
 * works in place, foreach or not; Adam's single-tensor step holds the
 * square root of exp_avg_sq and its quotient by the bias correction at
 * once, two of the largest tensor (the vocabulary table, 32000 x 4096). */
static void
test_step_temporaries (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_FP32;
  hr_training_apply_precision (&sc.training);
  sc.training.optimizer = HR_OPTIMIZER_SGD_MOMENTUM;
  sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_FOREACH;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "optimizer step temporaries"), ==, 0);

  sc.training.optimizer = HR_OPTIMIZER_ADAMW;
  sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_LOOP;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "optimizer step temporaries"), ==,
                    2.0 * 32000 * 4096 * 4);
  sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_FOREACH;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "optimizer step temporaries"), ==,
                    plan->params * 4);
}

/* fp8 training's weight copies.  Transformer Engine keeps each linear
 * weight's fp8 data and, on Hopper, its fp8 transpose between steps
 * (linear.py _Linear.forward: weight quantizer rowwise and columnwise,
 * cached in _fp8_workspaces["weight"]; float8_tensor.py Float8Quantizer):
 * 2 bytes per linear weight.  Llama 2 7B's 32 layers hold
 * 4·4096² + 3·4096·11008 = 202,375,168 linear weights each, 6,476,005,376
 * in all: 12,952,010,752 bytes.  torchao's Float8Linear keeps none. */
static void
test_fp8_weight_copies (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_FP8_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.fp8_recipe = HR_FP8_RECIPE_TE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp8 weight copies"), ==,
                    2 * 32 * (4 * 4096ull * 4096 + 3 * 4096ull * 11008));
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp8 weight copies"), ==, 12952010752ull);
  /* MXFP8 (mxfp8_tensor.py MXFP8Quantizer): a rowwise and a columnwise
   * copy, each with a scale byte per 32 (4096, 11008 and 11008/32 = 344
   * are multiples of 128, 128 and 4: get_scale_shape pads nothing):
   * 6,476,005,376·(2 + 2/32) = 13,356,761,088 bytes; under ZeRO-3 on 8
   * GPUs each holds an eighth, 1,669,595,136. */
  sc.training.fp8_recipe = HR_FP8_RECIPE_TE_MXFP8;
  sc.gpu.compute_capability = 10.0;  /* a B200's (presets/gpus/b200.json): MXFP8 runs there */
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp8 weight copies"), ==,
                    6476005376ull * 2 + 6476005376ull * 2 / 32);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp8 weight copies"), ==, 13356761088ull);
  sc.parallel.gpus = 8;
  sc.parallel.zero = 3;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp8 weight copies"), ==, 1669595136ull);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.gpu.compute_capability = 9.0;
  sc.training.fp8_recipe = HR_FP8_RECIPE_TORCHAO;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "fp8 weight copies"), ==, 0);

  /* torchao's fp8 all-gather under FSDP2 (fsdp_utils.py,
   * WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather): a block's
   * 202,375,168 linear weights gathered at 1 byte, its two RMSNorms'
   * 8,192 at 2, for the current and the prefetched block:
   * 2·(202,375,168 + 16,384) = 404,783,104 bytes, against
   * 2·202,383,360·2 = 809,533,440 in bf16. */
  sc.parallel.gpus = 8;
  sc.parallel.zero = 3;
  sc.parallel.deepspeed = FALSE;
  sc.parallel.fsdp = 2;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "gathered layers (current + prefetch)"), ==,
                    809533440ull);
  sc.training.fp8_all_gather = TRUE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "gathered layers (current + prefetch)"), ==,
                    404783104ull);
}

/* Muon as KellerJordan/Muon muon.py's MuonWithAuxAdam and Moonlight's
 * toy_train.py split it: one momentum buffer per hidden matrix, AdamW's
 * two states for the embedding, the head and the norms.  Llama 2 7B
 * (h 4096, f 11008, V 32000, 32 layers), bf16-mixed (fp32 states), 1 GPU:
 *   matrices = 32·(4·4096² + 3·4096·11008) = 32·202,375,168 = 6,476,005,376
 *   the rest = 2·32000·4096 + 65·4096        = 262,410,240
 *   (6,738,415,616 in all, CALC-REFERENCE.md section 1)
 *   states   = 6,476,005,376·4 + 262,410,240·8 = 28,003,303,424 bytes,
 * against AdamW's 6,738,415,616·8 = 53,907,324,928.  The step's scratch:
 * Newton-Schulz on the largest matrix, 4096 x 11008 (n = 4096):
 * (4·45,088,768 + 2·4096²)·2 = 427,819,008 bytes; AdamW's part on the
 * embedding, 4·131,072,000·4 = 2,097,152,000 bytes, the larger. */
static void
test_muon (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) adamw = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  hr_test_plan (&sc, adamw);
  g_assert_cmpuint (hr_test_item_bytes (&adamw->devices[0], "optimizer states"), ==, 53907324928);

  sc.training.optimizer = HR_OPTIMIZER_MUON;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (plan->params, ==, 6738415616);
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer states"), ==, 28003303424);
  g_assert_cmpuint (hr_test_item_bytes (d, "Newton–Schulz scratch (Muon step)"), ==, 2097152000);
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer step temporaries"), ==, 0);
  /* Master weights and gradients are AdamW's. */
  g_assert_cmpuint (hr_test_item_bytes (d, "master weights"), ==,
                    hr_test_item_bytes (&adamw->devices[0], "master weights"));

  /* A middle pipeline stage holds no embedding or head: its AdamW part
   * steps norms only, and the Newton-Schulz scratch is the larger,
   * 427,819,008 bytes; its states are 8 layers' matrices at 4 bytes and
   * 8·2·4096 norm weights at 8: 8·202,375,168·4 + 65,536·8. */
  sc.parallel.gpus = 4;
  sc.parallel.pp = 4;
  hr_test_plan (&sc, plan);
  d = &plan->devices[1];
  g_assert_cmpuint (hr_test_item_bytes (d, "Newton–Schulz scratch (Muon step)"), ==, 427819008);
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer states"), ==,
                    8ull * 202375168 * 4 + 8 * 2 * 4096 * 8);
}

/* GaLore (Zhao et al. 2024, Table 1: for each m x n matrix, m <= n, Adam's
 * states are mr + 2nr, the projection r x m and the projected moments
 * r x n each; galore_torch/adamw.py AdamW.step, galore_projector.py).
 * Llama 2 7B at rank 128 (the README's), bf16-mixed, 1 GPU:
 *   Q, K, V, O (4096 x 4096):  states 2·128·4096 = 1,048,576 each,
 *                              projection 128·4096 = 524,288 each
 *   gate, up, down (4096 x 11008): states 2·128·11008 = 2,818,048 each,
 *                              projection 524,288 each
 *   a layer: states 4·1,048,576 + 3·2,818,048 = 12,648,448,
 *            projection 7·524,288 = 3,670,016; 32 layers: 404,750,336 and
 *            117,440,512
 *   the rest, full AdamW: 2·262,410,240 = 524,820,480
 *   states = (404,750,336 + 524,820,480)·4 = 3,718,283,264 bytes (fp32),
 *   projections 117,440,512·4 = 469,762,048 bytes (the fp32 master
 *   gradient's type).
 * AdamW keeps 53,907,324,928.  The step's scratch is the embedding's HF
 * AdamW step, 2·131,072,000·4 = 1,048,576,000, above the SVD of 4096 x
 * 11008 in fp32, 4·(4096² + 4096 + 4096·11008) = 247,480,320, and
 * project_back's two 4096 x 11008 fp32 tensors, 360,710,144.
 * At the README's 7B rank, 1024, Table 1's formula gives the matrices
 * 32·(4·3·4096·1024 + 3·(4096 + 2·11008)·1024) = 4,177,526,784 elements
 * against Adam's 12,952,010,752: with the rest, 65.1 % fewer optimizer
 * state elements (the abstract: "up to 65.5 %"). */
static void
test_galore (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrScenario sc;
  const HrDevice *d;
  double ratio;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  g_assert_cmpuint (sc.training.galore_rank, ==, 128);
  sc.training.optimizer = HR_OPTIMIZER_GALORE_ADAMW;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer states"), ==, 3718283264);
  g_assert_cmpuint (hr_test_item_bytes (d, "GaLore projection matrices"), ==, 469762048);
  g_assert_cmpuint (hr_test_item_bytes (d, "GaLore step scratch (SVD, projection back)"), ==,
                    1048576000);
  /* Gradients stay full: GaLore projects them in the step. */
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients"), ==, 6738415616ull * 2);

  /* Rank 1024: states plus projections, against AdamW's. */
  sc.training.galore_rank = 1024;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  ratio = (double) (hr_test_item_bytes (d, "optimizer states")
                    + hr_test_item_bytes (d, "GaLore projection matrices")) / 53907324928.0;
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer states")
                    + hr_test_item_bytes (d, "GaLore projection matrices"), ==,
                    (4177526784ull + 524820480) * 4);
  g_test_message ("GaLore rank 1024: %.1f %% fewer optimizer state bytes", 100.0 * (1.0 - ratio));

  /* A rank at the hidden size projects nothing away: AdamW's states, and
   * a 4096 x 4096 projection per matrix on top. */
  sc.training.galore_rank = 4096;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer states"), ==, 53907324928);
  g_assert_cmpuint (hr_test_item_bytes (d, "GaLore projection matrices"), ==, 32ull * 7 * 4096 * 4096 * 4);

  /* Elsewhere it is refused, never planned as something else. */
  sc.training.galore_rank = 128;
  sc.training.method = HR_METHOD_LORA;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "training.optimizer: galore-adamw is planned for full training"));
  g_clear_error (&error);

  /* An encoder-decoder: T5-base at rank 128, bf16-mixed, one GPU.  An
   * encoder layer's matrices, Q, K, V, O 768 x 768 and wi 768 x 3072, wo
   * 3072 x 768: states 4·2·128·768 + 2·2·128·3072 = 2,359,296, projection
   * 6·128·768 = 589,824; a decoder layer's cross-attention four 768 x 768
   * more: 786,432 and 393,216.  24 layers and 12 cross-attentions: states
   * 66,060,288, projection 18,874,368 elements.  The rest (the shared table
   * 24,674,304, the norms 46,080 and final norms 1,536, the relative biases
   * 768: 24,722,688) keeps AdamW's two: states (66,060,288 + 2·24,722,688)·4
   * = 462,022,656 bytes, projections 18,874,368·4 = 75,497,472. */
  /* A hybrid's expert layers: Granite 4.0-H Tiny's 40 shared MLPs of
   * 3 x 1536 x 1024 (its layers' kinds, hr-calc-stage.c), and 40 x 64
   * experts of 3 x 1536 x 512, on one GPU. */
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "granite-4.0-h-tiny");
  sc.parallel.gpus = sc.parallel.gpus_per_node = 1;
  sc.parallel.zero = 0;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "shared-expert weights"), ==, 40ull * 3 * 1536 * 1024 * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "expert weights"), ==, 40ull * 64 * 3 * 1536 * 512 * 2);
  g_assert_cmpuint (hr_test_state_bytes (d, "weights"), ==, plan->params * 2);

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "t5-base");
  sc.training.attention = HR_ATTENTION_EAGER;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.parallel.gpus = sc.parallel.gpus_per_node = 1;
  sc.parallel.zero = 0;
  sc.training.optimizer = HR_OPTIMIZER_GALORE_ADAMW;
  sc.training.galore_rank = 128;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (plan->params, ==, 222903552);
  g_assert_cmpuint (hr_test_item_bytes (d, "optimizer states"), ==, (66060288ull + 2 * 24722688) * 4);
  g_assert_cmpuint (hr_test_item_bytes (d, "GaLore projection matrices"), ==, 18874368ull * 4);
}

/* DoRA (Liu et al. 2024; peft/tuners/lora/dora.py, DoraLinearLayer) on
 * Llama 2 7B, r = 16 on every linear of its layers, bf16, b = 1, s = 512:
 *   LoRA:        32·(4·16·8192 + 3·16·15104) = 39,976,960 trainable
 *   magnitudes:  32·(q 4096 + k 4096 + v 4096 + o 4096 + gate 11008
 *                    + up 11008 + down 4096) = 32·42,496 = 1,359,872
 *   trainable:   41,336,832
 *   saved, a layer: base and adapter outputs, 2·512·42,496·2 = 87,031,808 B
 *   the norm's temporaries, largest at down (d_in 11008, d_out 4096):
 *     (11008² + 11008·16 + 3·11008·4096)·2 = 256,618,496·2 = 513,236,992 B
 * A magnitude on the head is refused (two more logits-sized outputs). */
static void
test_dora (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) lora = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrLayerActivations la, la_lora;
  HrScenario sc;

  llama_7b (&sc);
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.targets = HR_LORA_ALL_LINEAR;
  hr_test_plan (&sc, lora);
  hr_activations_layer (&sc, &la_lora);
  g_assert_cmpuint (lora->trainable_params, ==, 39976960);
  g_assert_cmpuint (hr_test_item_bytes (&lora->devices[0],
                                        "DoRA weight norm temporaries (one layer at a time)"), ==, 0);

  sc.training.lora.dora = TRUE;
  hr_test_plan (&sc, plan);
  hr_activations_layer (&sc, &la);
  g_assert_cmpuint (plan->trainable_params, ==, 41336832);
  g_assert_cmpfloat (hr_layer_saved_bytes (&la, "DoRA base and adapter outputs"), ==, 87031808.0);
  g_assert_cmpfloat (la.total - la_lora.total, ==, 87031808.0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0],
                                        "DoRA weight norm temporaries (one layer at a time)"), ==,
                    513236992);
  /* The magnitudes train: weights, gradients and AdamW states of 1,359,872
   * more parameters (bf16-true: 2 + 2 + 4 bytes each). */
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "LoRA adapters")
                    - hr_test_item_bytes (&lora->devices[0], "LoRA adapters"), ==, 1359872ull * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "optimizer states")
                    - hr_test_item_bytes (&lora->devices[0], "optimizer states"), ==, 1359872ull * 4);

  sc.training.lora.targets |= HR_LORA_LM_HEAD;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "training.lora.targets: lm_head is not planned with "
                                            "training.lora.dora"));
}

/* Pipeline schedules.  In flight on stage i of p with m micro-batches:
 * 1F1B and ZB-H1 min(p - i, m), ZB-H2 min(2·(p - i), m) (zero-bubble
 * README: activation memory 1x and 2x 1F1B's), DualPipe min(p + 1, m)
 * on every GPU (DeepSeek-V3 report Table 2: PP + 1 against PP).  p = 4,
 * m = 8, 8 layers a stage: */
static void
test_pipeline_schedules (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) one = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrScenario sc;
  guint64 layer = 202375168 + 2 * 4096;   /* Llama 2 7B: matrices and two norms */
  double ck;

  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_1F1B, 4, 1, 8, 0, 8), ==, 32);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_ZB_H1, 4, 1, 8, 0, 8), ==, 32);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_ZB_H1, 4, 1, 8, 3, 8), ==, 8);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_ZB_H2, 4, 1, 8, 0, 8), ==, 64);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_ZB_H2, 4, 1, 8, 1, 8), ==, 48);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_ZB_H2, 4, 1, 8, 3, 8), ==, 16);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_ZB_H2, 4, 1, 4, 0, 8), ==, 32);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_DUALPIPE, 4, 1, 8, 0, 8), ==, 40);
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_DUALPIPE, 4, 1, 8, 3, 8), ==, 40);
  /* interleaved stays Megatron's count */
  g_assert_cmpfloat (hr_pipeline_schedule_units (HR_SCHEDULE_INTERLEAVED, 4, 2, 8, 0, 8),
                     ==, hr_pipeline_layer_units (4, 2, 8, 0, 8));

  llama_7b (&sc);
  sc.parallel.gpus = 4;
  sc.parallel.pp = 4;
  sc.parallel.zero = 0;
  sc.training.grad_accum = 8;
  hr_test_plan (&sc, one);
  g_assert_cmpuint (one->devices[0].params, ==, 8 * layer + 131072000);

  /* DualPipe: GPU 0 holds stages 0 and 3 (embedding, 16 layers, final
   * norm, head), GPU 1 stages 1 and 2: twice the model over the four;
   * 5 micro-batches' checkpoints of 8 layers on each, where 1F1B keeps
   * 4 on stage 0 and 1 on stage 3, and the loss on GPU 0 as on GPU 3. */
  sc.parallel.schedule = HR_SCHEDULE_DUALPIPE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->devices[0].params, ==, 16 * layer + 2ull * 131072000 + 4096);
  g_assert_cmpuint (plan->devices[1].params, ==, 16 * layer);
  g_assert_cmpuint (plan->devices[0].params + plan->devices[1].params + plan->devices[2].params
                    + plan->devices[3].params, ==, 2ull * 6738415616);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[1], "optimizer states"), ==, 16 * layer * 8);
  ck = (double) hr_test_item_bytes (&one->devices[0], "layer inputs (checkpoints)") / 32.0;
  g_assert_cmpfloat (ck, >, 0);
  g_assert_cmpfloat ((double) hr_test_item_bytes (&plan->devices[0], "layer inputs (checkpoints)"), ==, 40 * ck);
  g_assert_cmpfloat ((double) hr_test_item_bytes (&plan->devices[3], "layer inputs (checkpoints)"), ==, 40 * ck);
  {
    /* every item only the last stage has under 1F1B (its head, logits and
     * loss) is on GPU 0 too */
    guint n_last = 0;

    for (guint i = 0; i < one->devices[3].n_items; i++)
      {
        const HrItem *item = &one->devices[3].items[i];

        if (item->category != HR_CATEGORY_ACTIVATIONS
            || hr_test_item_bytes (&one->devices[2], item->name) > 0)
          continue;
        g_test_message ("last stage's %s", item->name);
        g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], item->name), ==,
                          hr_test_item_bytes (&one->devices[3], item->name));
        n_last++;
      }
    g_assert_cmpuint (n_last, >, 0);
  }

  /* ZB-H2 on stage 0: 8 micro-batches (2·4, capped by m = 8) */
  sc.parallel.schedule = HR_SCHEDULE_ZB_H2;
  hr_test_plan (&sc, plan);
  g_assert_cmpfloat ((double) hr_test_item_bytes (&plan->devices[0], "layer inputs (checkpoints)"), ==, 64 * ck);
  g_assert_cmpuint (plan->devices[0].params, ==, one->devices[0].params);

  /* What each schedule cannot run is refused, naming the field. */
  sc.parallel.schedule = HR_SCHEDULE_DUALPIPE;
  sc.training.grad_accum = 6;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "parallel.schedule: dualpipe needs an even parallel.pp"));
  g_clear_error (&error);
  sc.training.grad_accum = 8;
  sc.parallel.schedule = HR_SCHEDULE_INTERLEAVED;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "parallel.schedule: interleaved needs parallel.vpp > 1"));
  g_clear_error (&error);
  sc.parallel.schedule = HR_SCHEDULE_ZB_H1;
  sc.parallel.vpp = 2;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "parallel.schedule: zb-h1 runs one chunk per stage"));
}

/* The breakdown's parts (hr-calc-parts.c), each the part's parameters
 * on the GPU times the item's bytes, and the rest under the item's own
 * name; the category's bytes are the same as without parts.
 *   Mixtral 8x7B (32 layers, 8 experts of 3·4096·14336): the experts are
 *   32·8·3·4096·14336 = 45,097,156,608 parameters; ZeRO-3 over 8 GPUs,
 *   bf16 weights: 45,097,156,608·2 / 8 = 11,274,289,152 bytes, the fp32
 *   master weights twice that, Adam's two fp32 states four times.
 *   DeepSeek-V2-Lite (27 layers, the first dense; 2 shared experts of
 *   3·2048·1408 each on the 26 MoE layers): 26·2·8,650,752 = 449,839,104
 *   shared parameters, 64 routed experts 26·64·8,650,752 =
 *   14,394,851,328; ZeRO-1 on 8 GPUs keeps the bf16 weights whole.
 *   T5-base (12 + 12 layers; test-params): an encoder layer 4·768² +
 *   2·768·3072 + 2·768 = 7,079,424, a decoder layer with its
 *   cross-attention and norm 9,439,488; the rest the shared 32128 x 768
 *   table, two relative-bias tables 32·12 and two final norms 768:
 *   24,676,608.  One GPU, bf16 weights. */
static void
test_parts (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) dense = hr_plan_new ();
  HrScenario sc;
  const HrDevice *d;
  guint64 experts = 32ull * 8 * 3 * 4096 * 14336;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "mixtral-8x7b");
  sc.parallel.deepspeed = TRUE;   /* its engine keeps a 16-bit partition */
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (sc.parallel.zero, ==, 3);
  g_assert_cmpuint (sc.parallel.gpus, ==, 8);
  g_assert_cmpuint (experts, ==, 45097156608);
  g_assert_cmpuint (hr_test_item_bytes (d, "expert weights"), ==, experts * 2 / 8);
  g_assert_cmpuint (hr_test_item_bytes (d, "expert master weights"), ==, experts * 4 / 8);
  g_assert_cmpuint (hr_test_item_bytes (d, "expert optimizer states"), ==, experts * 8 / 8);
  /* With the rest (attention, norms, routers, embeddings and head), the
   * whole model: 46,702,792,704·2 / 8. */
  g_assert_cmpuint (hr_test_state_bytes (d, "weights"), ==, plan->params * 2 / 8);
  g_assert_cmpuint (hr_test_item_bytes (d, "shared-expert weights"), ==, 0);

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "deepseek-v2-lite");
  sc.parallel.zero = 1;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "shared-expert weights"), ==, 449839104ull * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "expert weights"), ==, 14394851328ull * 2);
  g_assert_cmpuint (hr_test_state_bytes (d, "weights"), ==, plan->params * 2);
  /* ZeRO-1 shards the optimizer's share: the shared experts' master
   * weights over the 8 GPUs. */
  g_assert_cmpuint (hr_test_item_bytes (d, "shared-expert master weights"), ==, 449839104ull * 4 / 8);

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "t5-base");
  sc.training.attention = HR_ATTENTION_EAGER;
  sc.parallel.gpus = sc.parallel.gpus_per_node = 1;
  sc.parallel.zero = 0;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (plan->params, ==, 12ull * 7079424 + 12ull * 9439488 + 24676608);
  g_assert_cmpuint (hr_test_item_bytes (d, "encoder weights"), ==, 12ull * 7079424 * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "decoder weights"), ==, 12ull * 9439488 * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "weights"), ==, 24676608ull * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "decoder optimizer states"), ==, 12ull * 9439488 * 8);

  /* A dense model keeps one item per state; LoRA's states are its
   * adapters', not split. */
  hr_scenario_init_default (&sc);
  hr_test_plan (&sc, dense);
  for (guint i = 0; i < dense->devices[0].n_items; i++)
    g_assert_null (strstr (dense->devices[0].items[i].name, "expert"));
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "mixtral-8x7b");
  sc.training.method = HR_METHOD_LORA;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "expert weights"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "expert optimizer states"), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/states/zero-paper", test_zero_paper);
  g_test_add_func ("/states/zero-table1", test_zero_table1);
  g_test_add_func ("/states/bytes-per-param", test_bytes_per_param);
  g_test_add_func ("/states/deepspeed-t5", test_deepspeed_t5);
  g_test_add_func ("/states/deepspeed-shared-blocks", test_deepspeed_shared_blocks);
  g_test_add_func ("/states/deepspeed-sizes", test_deepspeed_sizes);
  g_test_add_func ("/states/more-gpus", test_more_gpus_never_more_states);
  g_test_add_func ("/states/paged", test_paged_outside_allocator);
  g_test_add_func ("/states/paged-fp32", test_paged_states_fp32);
  g_test_add_func ("/states/fsdp-root-gradients", test_fsdp_root_gradients);
  g_test_add_func ("/states/step-temporaries", test_step_temporaries);
  g_test_add_func ("/states/deepspeed-zero3", test_deepspeed_zero3);
  g_test_add_func ("/states/deepspeed-zero1-2", test_deepspeed_zero12);
  g_test_add_func ("/states/deepspeed-offload-copies", test_deepspeed_offload_copies);
  g_test_add_func ("/states/fp8-weight-copies", test_fp8_weight_copies);
  g_test_add_func ("/states/muon", test_muon);
  g_test_add_func ("/states/galore", test_galore);
  g_test_add_func ("/states/dora", test_dora);
  g_test_add_func ("/states/pipeline-schedules", test_pipeline_schedules);
  g_test_add_func ("/states/parts", test_parts);
  return g_test_run ();
}
