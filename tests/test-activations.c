/* test-activations.c: activation memory against Korthikanti et al. 2022
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CALC-REFERENCE.md section 4: the Fig. 1 values (as transcribed in
 * calculon's validation.py) for GPT models with s = 2048, in GiB per GPU
 * on the first pipeline stage, TP only and TP + SP + selective recompute.
 * The scenario's GPT shape: f = 4h, GELU, LayerNorm, dropout, eager
 * attention, 16-bit activations, weights not fp32 (no autocast).
 */

#include <math.h>

#include "hr-activations.h"
#include "hr-test-util.h"

typedef struct
{
  const char *name;
  guint64 a, h, L, t, p, b, v;
  double tp_only, sp_selective;
} Korthikanti;

static const Korthikanti fig1[] = {
  { "22B", 64, 6144, 48, 8, 1, 4, 1, 59.25, 9.5625 },
  { "175B", 96, 12288, 96, 8, 8, 1, 3, 66.84375, 12.3515625 },
  { "530B", 128, 20480, 105, 8, 35, 1, 3, 114.0234375, 23.076171875 },
  { "1T", 160, 25600, 128, 8, 64, 1, 1, 131.25, 26.5625 },
};

static void
gpt_scenario (const Korthikanti *k,
              gboolean           sp_selective,
              HrScenario        *sc)
{
  HrModelArch *m = &sc->model;

  hr_scenario_init_default (sc);
  m->preset[0] = '\0';
  m->kind = HR_KIND_DECODER;
  m->layers = k->L;
  m->hidden = k->h;
  m->heads = m->kv_heads = k->a;
  m->head_dim = 0;
  m->ffn = 4 * k->h;
  m->mlp = HR_MLP_GELU;
  m->norm = HR_NORM_LAYERNORM;
  m->bias = HR_BIAS_ALL;
  m->vocab = 51200;
  m->dropout = TRUE;
  sc->training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc->training);
  sc->training.micro_batch = k->b;
  sc->training.seq_len = 2048;
  sc->training.grad_accum = 64;   /* enough micro-batches to fill every pipeline */
  sc->training.attention = HR_ATTENTION_EAGER;
  sc->training.checkpointing = sp_selective ? HR_CHECKPOINTING_SELECTIVE : HR_CHECKPOINTING_NONE;
  sc->parallel.tp = k->t;
  sc->parallel.pp = k->p;
  sc->parallel.vpp = k->v;
  sc->parallel.sp = sp_selective;
  sc->parallel.gpus = k->t * k->p;
  sc->parallel.zero = 0;
}

/* The per-layer list times the first stage's layers in flight. */
static void
test_figure1 (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fig1); i++)
    for (guint variant = 0; variant < 2; variant++)
      {
        const Korthikanti *k = &fig1[i];
        HrScenario sc;
        HrLayerActivations la;
        double units, gib, expected = variant ? k->sp_selective : k->tp_only;

        gpt_scenario (k, variant == 1, &sc);
        hr_activations_layer (&sc, &la);
        units = hr_pipeline_layer_units (k->p, k->v, sc.training.grad_accum, 0, k->L / k->p);
        gib = la.total * units / (1024.0 * 1024 * 1024);
        g_test_message ("%-5s %-20s %.4f GiB (paper %.4f)", k->name,
                        variant ? "TP + SP + selective" : "TP only", gib, expected);
        hr_assert_close (gib, expected, 0.01);
      }
}

/* The plan itself carries the same bytes: its activation items on stage
 * 0, less the embedding's dropout mask, which the figure leaves out. */
static void
test_plan_carries_them (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();

  for (guint i = 0; i < G_N_ELEMENTS (fig1); i++)
    {
      const Korthikanti *k = &fig1[i];
      const HrDevice *d;
      HrScenario sc;
      double sum = 0;

      gpt_scenario (k, FALSE, &sc);
      hr_test_plan (&sc, plan);
      d = &plan->devices[0];
      for (guint j = 0; j < d->n_items; j++)
        if (d->items[j].category == HR_CATEGORY_ACTIVATIONS
            && !g_str_equal (d->items[j].name, "embedding dropout mask")
            && (d->items[j].live & HR_LIVE (HR_PHASE_FORWARD)) && k->p > 1)
          sum += (double) d->items[j].bytes;
      if (k->p > 1)
        hr_assert_close (sum / (1024.0 * 1024 * 1024), k->tp_only, 0.01);
    }
}

/* Table 2's closed forms for one layer: sbh(34 + 5as/h) unsplit, full
 * recompute 2sbh. */
static void
test_table2 (void)
{
  HrScenario sc;
  HrLayerActivations la;
  Korthikanti one = { "one", 16, 1024, 1, 1, 1, 2, 1, 0, 0 };
  double sbh, expected;

  gpt_scenario (&one, FALSE, &sc);
  hr_activations_layer (&sc, &la);
  sbh = 2048.0 * 2 * 1024;
  expected = sbh * (34 + 5.0 * 16 * 2048 / 1024);
  hr_assert_close (la.total, expected, 1e-12);
  hr_assert_close (la.checkpoint, 2 * sbh, 1e-12);
}

/* FlashAttention drops the s² terms; checkpointing never adds memory. */
static void
test_flash_and_checkpointing (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  HrLayerActivations eager, flash;
  guint64 act[HR_N_CHECKPOINTINGS];

  gpt_scenario (&fig1[0], FALSE, &sc);
  hr_activations_layer (&sc, &eager);
  sc.training.attention = HR_ATTENTION_FLASH;
  hr_activations_layer (&sc, &flash);
  g_assert_cmpfloat (flash.total, <, eager.total);

  hr_scenario_init_default (&sc);
  for (guint c = 0; c < HR_N_CHECKPOINTINGS; c++)
    {
      sc.training.checkpointing = c;
      hr_test_plan (&sc, plan);
      act[c] = plan->devices[0].category_bytes[HR_CATEGORY_ACTIVATIONS];
    }
  g_assert_cmpuint (act[HR_CHECKPOINTING_SELECTIVE], <=, act[HR_CHECKPOINTING_NONE]);
  g_assert_cmpuint (act[HR_CHECKPOINTING_FULL], <, act[HR_CHECKPOINTING_SELECTIVE]);
  g_assert_cmpuint (act[HR_CHECKPOINTING_FULL], <, act[HR_CHECKPOINTING_OP]);
  g_assert_cmpuint (act[HR_CHECKPOINTING_OP], <, act[HR_CHECKPOINTING_NONE]);
}

/* Per-op checkpointing (torchtitan's SelectiveAC) of the default Llama 2
 * 13B layer (h 5120, 40 heads of 128, f 13824, no biases, bf16 weights
 * and activations, flash attention), micro-batch 4 x 4096 = 16384 tokens:
 * the mms in forward order are Q, K, V, O, gate, up, down; the 1st, 3rd,
 * 5th and 7th keep their outputs (Q, V, gate, down), the attention its
 * output and fp32 log-sum-exp, the layer its input.  It runs again K, O and up:
 * (h·h + h·h + h·f) / (4·h·h + 3·h·f) of the layer's matmul FLOPs. */
static void
test_per_op_checkpointing (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  HrLayerActivations la;
  const double T = 16384, h = 5120, f = 13824;

  hr_scenario_init_default (&sc);
  sc.training.checkpointing = HR_CHECKPOINTING_OP;
  g_assert_cmpuint (sc.training.micro_batch * sc.training.seq_len, ==, (guint64) T);
  g_assert_cmpuint (sc.training.attention, ==, HR_ATTENTION_FLASH);
  hr_activations_layer (&sc, &la);
  hr_assert_close (la.op_saved,
                   T * h * 2 + T * h * 2 + T * h * 2 + T * f * 2 + T * h * 2 + T * 40 * (128 * 2 + 4),
                   1e-12);
  hr_assert_close (la.op_recomputed_flops, (h * h + h * h + h * f) / (4 * h * h + 3 * h * f), 1e-12);

  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0],
                                                "saved matmul and attention outputs (per-op checkpoints)"),
                   40 * la.op_saved, 1e-9);

  /* Compiled, the partitioner saves only what a backward reads: down's
   * output, added to the residual stream alone, goes (T·h·2 a layer). */
  {
    HrLayerActivations compiled;

    sc.training.compile = TRUE;
    hr_activations_layer (&sc, &compiled);
    hr_assert_close (compiled.op_saved, la.op_saved - T * h * 2, 1e-12);
    g_assert_cmpfloat (compiled.op_only, ==, 0);
    g_assert_cmpfloat (la.op_only, ==, T * h * 2);
  }
}

/* training.compile on the default Llama 2 13B layer (h 5120 = 40 heads of
 * 128, 40 K/V heads, f 13824, RMSNorm, bf16 weights and activations,
 * flash attention), 16384 tokens: the layer's input and two norms' rstd,
 * the inputs of Q/K/V, O and the MLP, Q, K and V, the kernel's output and
 * log-sum-exp, gate, up and down's input (what the H200 measurement of a
 * compiled Llama layer kept, measure-stacks.py saved-compile).  The
 * compiled loss keeps the bf16 logits (V 32000) and a log-sum-exp per
 * row. */
static void
test_compiled_layer (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  HrLayerActivations eager, compiled;
  const double T = 16384, h = 5120, f = 13824, V = 32000;

  hr_scenario_init_default (&sc);
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.loss = HR_LOSS_STANDARD;
  hr_activations_layer (&sc, &eager);
  sc.training.compile = TRUE;
  hr_activations_layer (&sc, &compiled);
  hr_assert_close (compiled.total,
                   T * (h * 2 + 2 * 4) + T * 3 * h * 2 + T * 3 * h * 2 + T * 40 * (128 * 2 + 4)
                   + 3 * T * f * 2,
                   1e-12);
  g_assert_cmpfloat (compiled.total, <, eager.total);

  hr_test_plan (&sc, plan);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0],
                                                "logits and log-sum-exp (kept by the compiled loss)"),
                   T * V * 2 + T * 4, 1e-12);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "log-probabilities (saved by the loss)"), ==, 0);
  hr_assert_close ((double) hr_test_item_bytes (&plan->devices[0], "loss gradients"), T * V * 2, 1e-12);

  /* Falcon 7B's parallel block (one LayerNorm, whose mean and rstd it
   * keeps, feeding Q/K/V and the MLP alike: one matmul input for both, O's
   * the other; 71 heads of 64, one K/V head) and its GELU MLP (fc1's
   * output for the GELU's backward, the GELU's output for fc2's weight:
   * two f-wide tensors, no gate), 2048 tokens. */
  {
    HrScenario falcon;
    HrLayerActivations layer;
    const double Tf = 2048, hf = 4544, ff = 18176;

    hr_scenario_init_default (&falcon);
    hr_test_model (&falcon, "falcon-7b");
    falcon.training.checkpointing = HR_CHECKPOINTING_NONE;
    falcon.training.micro_batch = 1;
    falcon.training.seq_len = 2048;
    falcon.training.compile = TRUE;
    hr_activations_layer (&falcon, &layer);
    hr_assert_close (layer.total,
                     Tf * (hf * 2 + 8) + Tf * (hf + 71 * 64) * 2 + Tf * (71 + 2) * 64 * 2
                     + Tf * 71 * (64 * 2 + 4) + 2 * Tf * ff * 2,
                     1e-12);
  }
}

/* 1F1B: stage i holds min(p - i, m) micro-batches. */
static void
test_pipeline_in_flight (void)
{
  g_assert_cmpfloat (hr_pipeline_layer_units (4, 1, 8, 0, 10), ==, 40);
  g_assert_cmpfloat (hr_pipeline_layer_units (4, 1, 8, 3, 10), ==, 10);
  g_assert_cmpfloat (hr_pipeline_layer_units (4, 1, 2, 0, 10), ==, 20);
  g_assert_cmpfloat (hr_pipeline_layer_units (1, 1, 8, 0, 10), ==, 10);
}

/* QLoRA under LitGPT's loop and Lightning's bitsandbytes plugin, Llama 2 7B
 * (h 4096, f 11008, V 32000, 32 layers), micro-batch 2 x 512 tokens:
 * - the LM head, the largest 4-bit weight, unpacks to fp16 (the type it was
 *   quantized from) and is cast to bf16: 32000·4096·(2 + 2) bytes;
 * - the previous micro-batch's 4-bit matmul inputs are still held during
 *   the next forward: per layer the attention input, the attention output
 *   (O's input), the MLP input (2·T·h bytes each) and the down projection's
 *   input (2·T·f), plus the LM head's input 2·T·h, with T = 1024 tokens.
 * Neither exists with PEFT's defaults (quantized from bf16, Trainer frees
 * the graph), nor with reentrant full checkpointing. */
static void
test_qlora_bitsandbytes (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 1024, h = 4096, f = 11008;
  HrScenario sc;
  const HrDevice *d;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-2-7b");
  sc.model.tied_embeddings = FALSE;
  sc.training.method = HR_METHOD_QLORA;
  sc.training.quant = HR_QUANT_NF4;
  sc.training.quant_lm_head = TRUE;
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.micro_batch = 2;
  sc.training.seq_len = 512;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;

  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "dequantized weight (one at a time)"), ==,
                    32000 * 4096 * 2);
  g_assert_cmpuint (hr_test_item_bytes (d, "previous micro-batch's 4-bit matmul inputs"), ==, 0);

  sc.training.dequant_dtype = HR_DTYPE_FP16;
  sc.training.previous_graph_alive = TRUE;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "dequantized weight (one at a time)"), ==,
                    32000 * 4096 * 4);
  g_assert_cmpfloat (hr_test_item_bytes (d, "previous micro-batch's 4-bit matmul inputs"), ==,
                     32 * T * (6 * h + 2 * f) + 2 * T * h);
  g_assert_cmpuint (d->peak_phase, ==, HR_PHASE_FORWARD);

  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0],
                                        "previous micro-batch's 4-bit matmul inputs"), ==, 0);
}

/* Megatron-Core's unfused attention takes baddbmm's input from
 * parallel_state.get_global_memory_buffer() (megatron/core/transformer/
 * dot_product_attention.py DotProductAttention.forward), a [b·a/t, s, s]
 * tensor megatron/core/utils.py GlobalMemoryBuffer keeps for the run: with
 * Llama 2 7B (32 heads), tp 4, pp 2, micro-batch 2 x 1024 tokens, bf16, one
 * 2·(32/4)·1024²·2-byte buffer on every stage in every phase, the optimizer
 * step's included.  Flash attention has no such buffer, and the field
 * alone changes nothing else. */
static void
test_attention_buffer (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) without = hr_plan_new ();
  const double buffer = 2.0 * (32 / 4) * 1024 * 1024 * 2;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-2-7b");
  sc.training.attention = HR_ATTENTION_EAGER;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.micro_batch = 2;
  sc.training.seq_len = 1024;
  sc.training.grad_accum = 4;
  sc.parallel.gpus = 8;
  sc.parallel.tp = 4;
  sc.parallel.pp = 2;
  sc.parallel.zero = 0;
  hr_test_plan (&sc, without);
  sc.training.attention_buffer = TRUE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->n_devices, ==, 2);
  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];

      g_assert_cmpfloat (hr_test_item_bytes (d, "attention score buffer (kept)"), ==, buffer);
      g_assert_cmpfloat ((double) d->allocated_bytes - (double) without->devices[i].allocated_bytes,
                         ==, buffer);
      for (guint ph = 0; ph < HR_N_PHASES; ph++)
        g_assert_cmpfloat ((double) d->phase_bytes[ph] - (double) without->devices[i].phase_bytes[ph],
                           ==, buffer);
    }

  sc.training.attention = HR_ATTENTION_FLASH;
  hr_test_plan (&sc, plan);
  for (guint i = 0; i < plan->n_devices; i++)
    g_assert_cmpuint (hr_test_item_bytes (&plan->devices[i], "attention score buffer (kept)"), ==, 0);
}

/* The bytes of one saved tensor of a layer, by name. */
static double
saved_bytes (const HrLayerActivations *la,
             const char               *name)
{
  for (guint i = 0; i < la->n; i++)
    if (g_str_equal (la->saved[i].name, name))
      return la->saved[i].bytes;
  return 0;
}

/* LoRA dropout copies each adapted layer's input at that layer's width.
 * Gemma 2B (h 2048, 8 heads of 256, f 16384) with adapters on every
 * linear layer, micro-batch 2 x 512 (T = 1024), bf16, dropout 0.1: one
 * layer keeps T·Σd_in·(2 + 1) bytes, Σd_in = 3h (Q, K, V) + a·d (O) +
 * 2h (gate, up) + f (down); with LitGPT's fused QKV linear the three
 * attention adapters share one input: h instead of 3h. */
static void
test_lora_dropout_widths (void)
{
  const double T = 1024, h = 2048, ad = 8 * 256, f = 16384;
  HrScenario sc;
  HrLayerActivations la;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "gemma-2b");
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.targets = HR_LORA_ALL_LINEAR;
  sc.training.lora.dropout = 0.1;
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 2;
  sc.training.seq_len = 512;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;

  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "LoRA dropout inputs and masks"),
                   T * (3 * h + ad + 2 * h + f) * 3, 1e-12);
  sc.training.lora.fused_qkv = TRUE;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "LoRA dropout inputs and masks"),
                   T * (h + ad + 2 * h + f) * 3, 1e-12);
}

/* Grouped-query attention through PyTorch's SDPA (or eagerly) saves K and V
 * repeated to every head; FlashAttention-2 keeps the grouped ones.  Llama 3
 * 8B (32 heads, 8 K/V heads of 128), one sequence of 1024 tokens, bf16:
 * Q, K, V are T·3a·d·2 bytes with SDPA, T·(a + 2k)·d·2 with FlashAttention.
 * Multi-head models are the same either way. */
static void
test_gqa_repeat (void)
{
  const double T = 1024, a = 32, k = 8, d = 128;
  HrScenario sc;
  HrLayerActivations la;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3-8b");
  sc.training.micro_batch = 1;
  sc.training.seq_len = 1024;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;

  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q, K, V"), T * (a + 2 * k) * d * 2, 1e-12);
  sc.training.attention = HR_ATTENTION_SDPA;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q, K, V (K, V repeated per head)"), T * 3 * a * d * 2, 1e-12);
  g_assert_cmpfloat (saved_bytes (&la, "Q, K, V"), ==, 0);

  hr_test_model (&sc, "llama-2-7b");
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q, K, V"), T * 3 * 32 * 128 * 2, 1e-12);

  /* Multi-query attention: repeating one K/V head is a view, which SDPA
   * keeps as it is (the reference oracle's saved-tensor hooks see K and V
   * at one head's size); eager attention's matmul copies it, but for one
   * sequence, where merging batch and heads for bmm is a view too. */
  sc.model.kv_heads = 1;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q, K, V"), T * (32 + 2) * 128 * 2, 1e-12);
  sc.training.attention = HR_ATTENTION_EAGER;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q, K, V"), T * (32 + 2) * 128 * 2, 1e-12);
  sc.training.micro_batch = 2;
  sc.training.seq_len = 512;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q, K, V (K, V repeated per head)"), T * 3 * 32 * 128 * 2, 1e-12);
}

/* A small model on one GPU, as the reference oracle (tests/reference)
 * builds it: two Llama-like layers, h 512, 4 heads of 128, f 1376,
 * V 512, fp32, 4 sequences of 64 tokens (T = 256), eager attention. */
static void
oracle_scenario (HrScenario *sc)
{
  HrModelArch *m = &sc->model;

  hr_scenario_init_default (sc);
  m->preset[0] = '\0';
  m->layers = 2;
  m->hidden = 512;
  m->heads = m->kv_heads = 4;
  m->head_dim = 128;
  m->ffn = 1376;
  m->vocab = 512;
  sc->training.precision = HR_PRECISION_FP32;
  hr_training_apply_precision (&sc->training);
  sc->training.optimizer_impl = HR_OPTIMIZER_IMPL_FOREACH;
  sc->training.micro_batch = 4;
  sc->training.seq_len = 64;
  sc->training.checkpointing = HR_CHECKPOINTING_NONE;
  sc->training.attention = HR_ATTENTION_EAGER;
  sc->parallel.gpus = sc->parallel.gpus_per_node = 1;
  sc->parallel.zero = 0;
  sc->overhead.cuda_context_mib = 0;
  sc->overhead.comm_buffer_mib = 0;
  sc->overhead.fragmentation = 0;
}

static const HrItem *
find_item (const HrDevice *d,
           const char     *name)
{
  for (guint i = 0; i < d->n_items; i++)
    if (g_str_equal (d->items[i].name, name))
      return &d->items[i];
  return NULL;
}

/* What the oracle measured after the final norm (saved-tensor hooks on the
 * reference model): the norm's fp32 input, its normalised copy (its weight
 * trains) and the LM head's input, T·h·4 bytes each; with LoRA on Q and V
 * only the fp32 input (a frozen norm and head keep nothing else).  The
 * logits are alive only until the loss is computed (the Trainer's loop
 * drops the model's output); BERT's embedding LayerNorm keeps its input. */
static void
test_head_and_final_norm (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 256, h = 512;
  HrScenario sc;
  const HrItem *logits;

  oracle_scenario (&sc);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "final norm input and output"), ==,
                    T * h * 12);
  logits = find_item (&plan->devices[0], "logits");
  g_assert_nonnull (logits);
  g_assert_cmpuint (logits->live, ==, HR_LIVE (HR_PHASE_FORWARD));

  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "final norm input and output"), ==,
                    T * h * 4);

  oracle_scenario (&sc);
  sc.model.kind = HR_KIND_ENCODER;
  sc.model.norm = HR_NORM_LAYERNORM;
  sc.model.head = HR_HEAD_CLASSIFIER;
  sc.model.classes = 3;
  sc.model.learned_positions = 64;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "embedding norm input"), ==, T * h * 4);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "head input (last layer's output)"), ==,
                    T * h * 4);
}

/* torch.autocast (amp-bf16) on the oracle's model, as the saved-tensor
 * hooks see it: the residual stream is fp32, so each RMSNorm keeps its fp32
 * input and an fp32 normalised copy (8 bytes per element), Q, K and V each
 * cast the norm's output to bf16 and keep their own cast (3·T·h·2), gate
 * and up likewise (2·T·h·2), the checkpoint of a layer is its fp32 input,
 * and the loss is fp32 even when the loop does not upcast the logits. */
static void
test_autocast_copies (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 256, h = 512, V = 512;
  HrScenario sc;
  HrLayerActivations la;

  oracle_scenario (&sc);
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  sc.training.logits_fp32 = FALSE;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "norm inputs"), 2 * T * h * 8, 1e-12);
  hr_assert_close (saved_bytes (&la, "attention input (norm output)"), 3 * T * h * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "MLP input (norm output)"), 2 * T * h * 2, 1e-12);
  hr_assert_close (la.checkpoint, T * h * 4, 1e-12);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "log-probabilities (saved by the loss)"),
                    ==, T * V * 4);
  /* Every linear weight's bf16 copy, the LM head's (h x V) among them. */
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "16-bit weight copies (autocast)"),
                    ==, (2 * (4 * h * h + 3 * h * 1376) + h * V) * 2);
  /* With full checkpointing no layer's graph keeps a cast: autocast's
   * cache holds them until the forward's autocast region ends (the oracle
   * sees that much freed when it leaves it), and each recomputed layer
   * casts its weights again for its backward. */
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  hr_test_plan (&sc, plan);
  {
    const HrItem *cache = find_item (&plan->devices[0], "16-bit weight copies (autocast cache)");

    g_assert_nonnull (cache);
    g_assert_cmpuint (cache->bytes, ==, 2 * (4 * h * h + 3 * h * 1376) * 2);
    g_assert_cmpuint (cache->live, ==, HR_LIVE (HR_PHASE_FORWARD));
    g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "16-bit weight copies (autocast)"),
                      ==, h * V * 2);
    g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "16-bit weight copies of the recomputed layer"),
                      ==, (4 * h * h + 3 * h * 1376) * 2);
  }
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;

  /* Without autocast the three projections share one tensor. */
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "attention input (norm output)"), T * h * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "norm inputs"), 2 * T * h * (4 + 2), 1e-12);

  /* A parallel block's two LayerNorms read one tensor and keep it once. */
  sc.model.parallel_block = TRUE;
  sc.model.norms_per_layer = 2;
  sc.model.norm = HR_NORM_LAYERNORM;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "norm inputs"), T * h * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "MLP input (norm output)"), T * h * 2, 1e-12);
}

/* A ReLU MLP (OPT) keeps one f-wide tensor: ReLU's backward reads its
 * result, which is fc2's input; GELU's reads its input, a second one. */
static void
test_relu_keeps_its_output (void)
{
  const double T = 256, f = 2048;
  HrScenario sc;
  HrLayerActivations relu, gelu;

  oracle_scenario (&sc);
  sc.model.ffn = 2048;
  sc.model.mlp = HR_MLP_RELU;
  hr_activations_layer (&sc, &relu);
  sc.model.mlp = HR_MLP_GELU;
  hr_activations_layer (&sc, &gelu);
  hr_assert_close (saved_bytes (&relu, "ReLU output (fc2 input)"), T * f * 4, 1e-12);
  g_assert_cmpfloat (saved_bytes (&relu, "fc1 output"), ==, 0);
  hr_assert_close (gelu.total - relu.total, T * f * 4, 1e-12);
}

/* With LoRA dropout an adapter reads its dropped-out copy of the input, so
 * a frozen layer's input is kept by nobody else: LoRA on Q and V, dropout
 * 0.1, keeps no attention input, only the copies and masks; without
 * dropout it keeps the norm's output once. */
static void
test_lora_dropout_reads_a_copy (void)
{
  const double T = 256, h = 512;
  HrScenario sc;
  HrLayerActivations la;

  oracle_scenario (&sc);
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V | HR_LORA_DOWN;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "attention input (norm output)"), T * h * 4, 1e-12);
  hr_assert_close (saved_bytes (&la, "down-projection input"), T * 1376 * 4, 1e-12);
  sc.training.lora.dropout = 0.1;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (saved_bytes (&la, "attention input (norm output)"), ==, 0);
  g_assert_cmpfloat (saved_bytes (&la, "down-projection input"), ==, 0);
  hr_assert_close (saved_bytes (&la, "LoRA dropout inputs and masks"),
                   T * (2 * h + 1376) * (4 + 1), 1e-12);
}

/* Per-head Q/K RMSNorms (Qwen3) keep, like every RMSNorm, the fp32 copy
 * of their input and, when their weights train, the normalised copy:
 * T·(a + k)·d·(4 + 2) in bf16, T·(a + k)·d·4 with LoRA. */
static void
test_qk_norm (void)
{
  const double T = 256, a = 4, k = 2, d = 128;
  HrScenario sc;
  HrLayerActivations la;

  oracle_scenario (&sc);
  sc.model.kv_heads = 2;
  sc.model.qk_norm = HR_QK_NORM_HEAD;
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q/K norm inputs (fp32)"), T * (a + k) * d * 6, 1e-12);
  sc.training.method = HR_METHOD_LORA;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q/K norm inputs (fp32)"), T * (a + k) * d * 4, 1e-12);
}

/* Mixtral's MoE block as Hugging Face writes it, on the oracle's model with
 * 4 experts of width 688, top-2, fp32 (T = 256, h = 512): per routed token
 * the gathered input, the expert's output and its weighted output (three
 * h-wide tensors, 4·T·2·h·3 bytes), the indices (torch.where's 16 bytes,
 * top-k's 8), the top-k values and the routing weight (4 + 4), per token
 * the renormalising sum (4); the norm's output is kept once, by the
 * router. */
static void
test_moe_routing (void)
{
  const double T = 256, h = 512, k = 2, E = 4;
  HrScenario sc;
  HrLayerActivations la;

  oracle_scenario (&sc);
  sc.model.experts = 4;
  sc.model.experts_active = 2;
  sc.model.expert_ffn = 688;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "expert inputs, outputs and weighted outputs"),
                   T * k * h * 4 * 3, 1e-12);
  hr_assert_close (saved_bytes (&la, "routing indices and weights"),
                   T * (k * (16 + 8 + 4 + 4) + 4), 1e-12);
  hr_assert_close (saved_bytes (&la, "router logits (fp32)"), T * E * 4, 1e-12);
  hr_assert_close (saved_bytes (&la, "MLP input (norm output)"), T * h * 4, 1e-12);
  hr_assert_close (saved_bytes (&la, "gate, up and activation outputs"), 3 * T * k * 688 * 4, 1e-12);
}

/* DeepSeek-V3's latent attention and MoE layer, one sequence of 4096
 * tokens in bf16 on one GPU (hr-activations-mla.c, from Hugging Face's
 * DeepseekV3Attention.forward): T = 4096, a = 128, Q/K 192 wide per head,
 * V 128, kv_b's output 256; each latent keeps its fp32 upcast, its
 * normalised copy and the up projection's input (4 + 2 + 2 bytes). */
static void
test_mla (void)
{
  const double T = 4096, a = 128, h = 7168;
  HrScenario sc;
  HrLayerActivations la;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "deepseek-v3");
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 1;
  sc.training.seq_len = 4096;
  sc.parallel.tp = 1;
  sc.parallel.sp = FALSE;
  sc.training.attention = HR_ATTENTION_FLASH;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "attention input (norm output)"), T * h * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "query latent (its norm's and q_b's inputs)"), T * 1536 * 8, 1e-12);
  hr_assert_close (saved_bytes (&la, "key/value latent (its norm's and kv_b's inputs)"), T * 512 * 8, 1e-12);
  /* FlashAttention-2: V padded to 192 (F.pad), the output padded too */
  hr_assert_close (saved_bytes (&la, "Q, K and V (V padded to the Q/K width)"), 3 * T * a * 192 * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "attention output + log-sum-exp"), T * a * (192 * 2 + 4), 1e-12);
  hr_assert_close (saved_bytes (&la, "attention context (O input)"), T * a * 128 * 2, 1e-12);
  g_assert_cmpfloat (saved_bytes (&la, "Q, K, V"), ==, 0);
  /* the shared expert (2048 wide) beside the 8 routed ones, and DeepSeek's
   * gate's fp32 copy of its input */
  hr_assert_close (saved_bytes (&la, "shared experts' outputs"), 4 * T * 2048 * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "router input (fp32)"), T * h * 4, 1e-12);

  /* SDPA with V narrower than Q and K: the memory-efficient kernel keeps V,
   * a view of kv_b's whole output, and an unpadded output. */
  sc.training.attention = HR_ATTENTION_SDPA;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q and K (rope joined)"), 2 * T * a * 192 * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "V (the key/value up projection's output)"), T * a * 256 * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "attention output + log-sum-exp"), T * a * (128 * 2 + 4), 1e-12);

  /* Tensor parallelism splits the heads, not the latents. */
  sc.parallel.tp = 8;
  sc.parallel.gpus = 8;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "Q and K (rope joined)"), 2 * T * (a / 8) * 192 * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "key/value latent (its norm's and kv_b's inputs)"), T * 512 * 8, 1e-12);
}

/* The same layer under LoRA on q and v, r 16, without dropout (PEFT on
 * Hugging Face's modules: q adapts q_a_proj and q_b_proj, v kv_b_proj):
 * the frozen bases keep no input, the adapters keep what they read: the
 * norm's output (q_a's adapter), the query latent's normalised output
 * (q_b's), the key/value latent's (kv_b's); each latent's norm keeps its
 * fp32 upcast while the latent needs a gradient, not the normalised copy
 * its frozen weight multiplies: 4 + 2 bytes.  O's input is kept by
 * nothing but the kernel's own output; the shared expert keeps gate, up
 * and the activation, not down's input.  In the first layer (its input
 * needing no gradient) the key/value latent needs none (no adapter on
 * kv_a_proj_with_mqa): only kv_b's adapter keeps it, 2 bytes; and the
 * frozen q_a_proj, kv_a_proj_with_mqa and kv_b_proj keep no weight cast. */
static void
test_mla_lora (void)
{
  const double T = 4096, h = 7168;
  HrScenario sc;
  HrLayerActivations la;

  hr_test_load (&sc, "default");
  hr_test_model (&sc, "deepseek-v3");
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 1;
  sc.training.seq_len = 4096;
  sc.parallel.tp = 1;
  sc.parallel.sp = FALSE;
  sc.training.attention = HR_ATTENTION_FLASH;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.dropout = 0;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V;
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "attention input (norm output)"), T * h * 2, 1e-12);
  hr_assert_close (saved_bytes (&la, "query latent (its norm's and q_b's inputs)"), T * 1536 * 6, 1e-12);
  hr_assert_close (saved_bytes (&la, "key/value latent (its norm's and kv_b's inputs)"), T * 512 * 6, 1e-12);
  g_assert_cmpfloat (saved_bytes (&la, "attention context (O input)"), ==, 0);
  hr_assert_close (saved_bytes (&la, "shared experts' outputs"), 3 * T * 2048 * 2, 1e-12);
  g_assert_cmpfloat (saved_bytes (&la, "router input (fp32)"), ==, 0);
  /* three adapters (q_a, q_b, kv_b) keep their A outputs */
  hr_assert_close (saved_bytes (&la, "LoRA A outputs"), 3 * T * 16 * 2, 1e-12);

  hr_activations_first_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "query latent (its norm's and q_b's inputs)"), T * 1536 * 6, 1e-12);
  hr_assert_close (saved_bytes (&la, "key/value latent (its norm's and kv_b's inputs)"), T * 512 * 2, 1e-12);
  hr_assert_close (la.uncast_weights, h * 1536 + h * 576 + 512.0 * 128 * 256, 1e-12);
}

/* The backward pass as the reference oracle's allocator events see it on
 * its fp32 model (h 512, f 1376, V 512, T 256, eager attention): while the
 * last layer's MLP runs its backward it holds the gradients of its
 * SwiGLU's two inputs (2·T·f·4) and of the residual stream (T·h·4), beside
 * the down projection's weight gradient (h·f·4); the LM head's gradient
 * (V·h·4) exists already; at the first layer the gradients of that layer
 * and of the embedding are still to come, so that layer's saved tensors
 * count only beyond them.  With accumulated gradients nothing is still to
 * come: each new gradient (the head's, the embedding's last) is added into
 * its own, there for a moment. */
static void
test_backward_moments (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 256, h = 512, f = 1376, V = 512;
  const double layer_params = 4 * h * h + 3 * h * f + 2 * h;
  HrScenario sc;
  HrLayerActivations la;
  const HrDevice *d;
  double work;

  oracle_scenario (&sc);
  hr_activations_layer (&sc, &la);
  hr_assert_close (la.backward_work, 2 * T * f * 4 + T * h * 4, 1e-12);
  work = la.backward_work + h * f * 4;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients in flight (one layer's backward)"), ==, work);
  g_assert_cmpuint (hr_test_item_bytes (d, "head gradient (made by the loss's backward)"), ==, V * h * 4);
  g_assert_cmpuint (hr_test_item_bytes (d, "first layer's activations (freed last)"), ==,
                    MAX (la.total + work - (layer_params + V * h) * 4, 0));

  sc.training.grad_accum = 2;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "head gradient (made by the loss's backward)"), ==, V * h * 4);
  g_assert_cmpuint (hr_test_item_bytes (d, "first layer's activations (freed last)"), ==,
                    MAX (la.total + work, V * h * 4));

  /* A chunked loss sums the head's gradients chunk by chunk, two at once;
   * a tied table's two gradients meet at the end in autograd's input
   * buffer: the head's, the embedding's and their sum. */
  sc.training.grad_accum = 1;
  sc.training.loss = HR_LOSS_CHUNKED;
  sc.model.tied_embeddings = TRUE;
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "head gradient (made by the loss's backward)"), ==,
                    2 * V * h * 4);
  g_assert_cmpuint (hr_test_item_bytes (d, "first layer's activations (freed last)"), >=,
                    2 * V * h * 4);
}

/* A one-layer model with few tokens (T 64 against h 512, the reference
 * oracle's seed 777 probe at this shape): its backward's largest moment is
 * the last of Q, K and V's weight gradients, where every weight gradient of
 * the layer but its first norm's exists and the layer holds only the
 * attention's input and the gradients flowing into it: the RMSNorm's fp32
 * input and normalised copy (8 bytes an element), the projections' input,
 * the residual stream's gradient, the projection's output gradient, its
 * input gradient and the other two's in autograd's buffer (4 bytes each).
 * What it holds beyond the gradients made is all the first layer's moment
 * adds to the end of the backward (the table's and the norm's gradients
 * still to come).  The plan missed this moment before: the oracle's
 * one-layer model without checkpointing held 4.4 % more than its plan at
 * the end of backward, 1.0 % now (a CPU matmul's scratch). */
static void
test_qkv_moment (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 64, h = 512, f = 1376, V = 128;
  const double layer_params = 4 * h * h + 3 * h * f + 2 * h;
  HrScenario sc;
  HrLayerActivations la;
  const HrDevice *d;

  oracle_scenario (&sc);
  sc.model.layers = 1;
  sc.model.vocab = (guint64) V;
  sc.training.micro_batch = 1;
  hr_activations_layer (&sc, &la);
  hr_assert_close (la.qkv_weights, 3 * h * h, 1e-12);
  hr_assert_close (la.qkv_work, T * h * (8 + 4 * 4) + T * h * 4, 1e-12);
  hr_test_plan (&sc, plan);
  d = &plan->devices[0];
  g_assert_cmpuint (hr_test_item_bytes (d, "gradients in flight (one layer's backward)"), ==,
                    (layer_params - 2 * h) * 4 - la.total + 28 * T * h);
  g_assert_cmpuint (hr_test_item_bytes (d, "first layer's activations (freed last)"), ==,
                    28 * T * h - (2 * h + V * h) * 4);

  /* LoRA leaves Q, K and V frozen: no such moment */
  sc.training.method = HR_METHOD_LORA;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.qkv_weights, ==, 0);
}

static void
test_autocast_dropout_scores (void)
{
  const double a = 4, b = 4, s = 64;
  HrScenario sc;
  HrLayerActivations la;

  oracle_scenario (&sc);
  sc.model.dropout = TRUE;
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "attention scores (softmax, dropout)"), a * b * s * s * 7, 1e-12);
  /* In 16 bits, Korthikanti's 5·a·s²·b: softmax, mask, dropout output. */
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "attention scores (softmax, dropout)"), a * b * s * s * 5, 1e-12);
}

/* LoRA on Q and V of the oracle's fp32 model (eager attention): the
 * embeddings are frozen, so the first layer's input needs no gradient, and
 * the oracle's hooks see that layer keep only what its adapters need: no
 * first norm, the norm's output once (for the adapters' A), K and V (Q·Kᵀ
 * keeps K for Q's gradient, probs·V keeps V), the probabilities, and every
 * tensor from the second norm on.  With full checkpointing the input needs
 * a gradient (enable_input_require_grads) and the first layer is whole. */
static void
test_lora_first_layer (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 256, h = 512, d = 128, a = 4, b = 4, s = 64;
  HrScenario sc;
  HrLayerActivations la, first;

  oracle_scenario (&sc);
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V;
  hr_activations_layer (&sc, &la);
  hr_activations_first_layer (&sc, &first);
  hr_assert_close (saved_bytes (&first, "norm inputs"), T * h * 4, 1e-12);
  hr_assert_close (saved_bytes (&la, "norm inputs"), 2 * T * h * 4, 1e-12);
  hr_assert_close (saved_bytes (&first, "attention input (norm output)"), T * h * 4, 1e-12);
  hr_assert_close (saved_bytes (&first, "Q, K, V"), T * 2 * a * d * 4, 1e-12);
  hr_assert_close (saved_bytes (&la, "Q, K, V"), T * 3 * a * d * 4, 1e-12);
  hr_assert_close (saved_bytes (&first, "attention scores (softmax, dropout)"), a * b * s * s * 4, 1e-12);
  hr_assert_close (saved_bytes (&first, "gate, up and activation outputs"),
                   saved_bytes (&la, "gate, up and activation outputs"), 1e-12);

  /* Two layers: the plan holds one whole layer and the first. */
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "norm inputs"), ==, 3 * T * h * 4);

  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  hr_activations_first_layer (&sc, &first);
  hr_activations_layer (&sc, &la);
  hr_assert_close (first.total, la.total, 1e-12);
}

/* More of what the oracle's hooks see: an adapter on the LM head with
 * dropout keeps its dropped-out copy of the final norm's output, the mask
 * and its A output, not the output itself; under autocast every adapter's
 * weight is cast too; Gemma 2's sandwich norms normalise the attention's
 * and the MLP's 16-bit outputs, whose normalised copies stay 16-bit. */
static void
test_lora_head_and_sandwich (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  const double T = 256, h = 512, r = 8;
  HrScenario sc;
  HrLayerActivations la;
  guint64 casts;

  oracle_scenario (&sc);
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 8;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V | HR_LORA_LM_HEAD;
  sc.training.lora.dropout = 0.1;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "final norm input and output"), ==,
                    T * h * 4 + T * h * (4 + 1) + T * r * 4);

  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  hr_test_plan (&sc, plan);
  casts = hr_test_item_bytes (&plan->devices[0], "16-bit weight copies of the recomputed layer");
  g_assert_cmpuint (casts, ==, (4 * h * h + 3 * h * 1376 + 2 * r * (h + h)) * 2);

  oracle_scenario (&sc);
  sc.model.norms_per_layer = 4;
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  hr_activations_layer (&sc, &la);
  hr_assert_close (saved_bytes (&la, "norm inputs"), T * h * (2 * (4 + 4) + 2 * (4 + 2)), 1e-12);
}

/* An encoder-decoder model (T5-base, bf16-mixed, eager attention, b = 2,
 * 512 source and 128 target tokens): a decoder layer is a layer of the
 * target's length plus its cross-attention, whose tensors are the
 * self-attention's with K and V over the source (modeling_t5.py,
 * T5LayerCrossAttention), and the layer standing for both stacks adds up
 * to them. */
static void
test_encoder_decoder_layers (void)
{
  HrScenario sc, target;
  HrLayerActivations enc, dec, plain, avg;
  double T_t = 2 * 128, T_s = 2 * 512, h = 768, a = 12, d = 64;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "t5-base");
  sc.training.attention = HR_ATTENTION_EAGER;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.micro_batch = 2;
  sc.training.seq_len = 512;
  sc.training.target_len = 128;
  target = sc;
  target.training.seq_len = 128;

  hr_activations_encoder_layer (&sc, &enc);
  hr_activations_decoder_layer (&sc, &dec);
  hr_activations_layer (&target, &plain);

  /* scores a·b·s_t·s_s, no dropout; T5Attention's softmax is fp32 in any
   * type (softmax(scores.float()).type_as(scores)): its fp32 output and
   * the bf16 copy the matmul with V keeps, 12·2·128·512·(4 + 2) */
  g_assert_cmpfloat (saved_bytes (&dec, "cross-attention scores (softmax, dropout)"), ==,
                     a * 2 * 128 * 512 * (4 + 2));
  /* Q over the target, K and V over the source: (256·12 + 2·1024·12)·64·2 */
  g_assert_cmpfloat (saved_bytes (&dec, "cross-attention Q, K, V"), ==,
                     (T_t * a + 2 * T_s * a) * d * 2);
  /* its norm (RMSNorm: fp32 input + bf16 copy), Q's input, O's input */
  g_assert_cmpfloat (dec.total - plain.total, ==,
                     (4 + 2) * T_t * h + T_t * h * 2 + (T_t * a + 2 * T_s * a) * d * 2
                     + a * 2 * 128 * 512 * (4 + 2) + T_t * a * d * 2);
  /* no autocast: K and V share the encoder's output, kept by the stack */
  g_assert_cmpfloat (saved_bytes (&dec, "cross-attention K, V inputs (casts of the encoder output)"), ==, 0);

  hr_activations_stack_average (&enc, 12, &dec, 12, &avg);
  g_assert_cmpfloat (fabs (24 * avg.total - (12 * enc.total + 12 * dec.total)), <, 1e-3);
  g_assert_cmpfloat (fabs (24 * saved_bytes (&avg, "Q, K, V")
                           - 12 * (saved_bytes (&enc, "Q, K, V") + saved_bytes (&dec, "Q, K, V"))), <, 1e-3);

  /* Under autocast each K and V linear keeps its own 16-bit cast of the
   * encoder's fp32 output. */
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  hr_activations_decoder_layer (&sc, &dec);
  g_assert_cmpfloat (saved_bytes (&dec, "cross-attention K, V inputs (casts of the encoder output)"), ==,
                     2 * T_s * h * 2);

  /* In pure bf16 too, in both attentions. */
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  hr_activations_decoder_layer (&sc, &dec);
  g_assert_cmpfloat (saved_bytes (&dec, "cross-attention scores (softmax, dropout)"), ==,
                     a * 2 * 128 * 512 * (4 + 2));
  g_assert_cmpfloat (saved_bytes (&dec, "attention scores (softmax, dropout)"), ==,
                     a * 2 * 128 * 128 * (4 + 2));
  /* BART's attention (no buckets) keeps its bf16 softmax alone. */
  sc.model.position_buckets = 0;
  hr_activations_decoder_layer (&sc, &dec);
  g_assert_cmpfloat (saved_bytes (&dec, "cross-attention scores (softmax, dropout)"), ==,
                     a * 2 * 128 * 512 * 2);
}

/* State-space layers (hr-activations-ssm.c): the save_for_backward lists
 * of mamba_ssm's fused Functions, one sequence of 2048 tokens in bf16
 * (no autocast: RMSNorm keeps its fp32 input and bf16 copy, 6 bytes).
 *   Mamba 130M (h 768, d_inner 1536, dt_rank 48, N 16), MambaInnerFn:
 *     norm 2048·768·6 = 9,437,184; in_proj's input 2048·768·2 =
 *     3,145,728; xz 2048·3072·2 = 12,582,912; out + x_dbl
 *     2048·(1536 + 48 + 32)·2 = 6,619,136; B, C 2·2048·16·2 = 131,072;
 *     scan states 1·1536·1·32·4 = 196,608; A 1536·16·4 = 98,304:
 *     32,210,944 bytes; checkpointed, the fp32 residual 2048·768·4.
 *   Mamba-2 2.7B (h 2560, in_proj 10576 wide, 1 group),
 *     MambaSplitConv1dScanCombinedFn: norm 2048·2560·6 = 31,457,280;
 *     in_proj's input 10,485,760; zxbcdt 2048·10576·2 = 43,319,296;
 *     out_x and rstd 2048·(5120·2 + 4) = 20,979,712: 106,242,048. */
static void
ssm_scenario (HrScenario *sc,
              const char *preset)
{
  hr_scenario_init_default (sc);
  hr_test_model (sc, preset);
  sc->training.micro_batch = 1;
  sc->training.seq_len = 2048;
  sc->training.checkpointing = HR_CHECKPOINTING_NONE;
  sc->training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc->training);
  sc->parallel.gpus = 1;
  sc->parallel.zero = 0;
}

/* The same Mamba 130M layer under LoRA on in_proj, r 16, bf16-true: the
 * frozen norm keeps its fp32 input alone (4 bytes, not 6), the adapter
 * keeps in_proj's input as the frozen base did, plus its A output
 * (2048·16·2); the fused kernel's list is the same.  With dropout 0.1
 * the adapter keeps its dropped-out copy and the mask (2048·768·3)
 * instead of the input; in the first layer the norm keeps nothing and the
 * dropout no mask. */
static void
test_ssm_lora_layers (void)
{
  const double T = 2048, h = 768;
  const double kernels = 12582912.0 + 6619136 + 131072 + 196608 + 98304;
  HrScenario sc;
  HrLayerActivations la;

  ssm_scenario (&sc, "mamba-130m");
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.targets = HR_LORA_IN_PROJ;
  sc.training.lora.dropout = 0;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, T * h * 4 + T * h * 2 + T * 16 * 2 + kernels);
  hr_activations_first_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, T * h * 2 + T * 16 * 2 + kernels);

  sc.training.lora.dropout = 0.1;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, T * h * 4 + T * h * 3 + T * 16 * 2 + kernels);
  hr_activations_first_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, T * h * 2 + T * 16 * 2 + kernels);
}

/* Eager attention's backward (Llama 3.2 1B: h 2048, 32 heads of 64, 8 KV
 * heads repeated to every head, bf16-true, one sequence of 1024): probs·V's
 * backward and the softmax's hold the output's gradient, V's (repeated),
 * and two a·s² gradients, 1024·64·64·2 + 2·32·1024²·2 = 142,606,336;
 * Q·Kᵀ's, later, the scores' gradient and Q's, K's and V's, 1024·96·64·2 +
 * 32·1024²·2 = 79,691,776; the larger, and the residual stream's gradient
 * 1024·2048·2 beside it: 146,800,640 (all of them at once, as planned
 * before: 155,189,248). */
static void
test_eager_attention_backward (void)
{
  HrScenario sc;
  HrLayerActivations la;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.2-1b");
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.attention = HR_ATTENTION_EAGER;
  sc.training.micro_batch = 1;
  sc.training.seq_len = 1024;
  sc.parallel.tp = 1;
  sc.parallel.sp = FALSE;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.backward_attn_work, ==, 146800640.0);
}

/* Context parallelism's ring attention backward as PyTorch runs it
 * (_templated_ring_attention_backward): Llama 3.2 1B (32 heads of 64),
 * bf16-true, flash, one sequence of 65,536 over 8 ranks: 8,192 tokens
 * here, and Q, K and V (repeated to every head) of q = 8192·32·64 =
 * 16,777,216 elements each.  Its widest moment, where a step whose K and V
 * are older than its queries copies the received K and V sums: the
 * output's gradient, q·2; every rank's K and V, 2·8·q·2, and the local
 * pair to send, 2·q·2; Q's fp32 sum, 4·q; four fp32 K and V pairs
 * (received, copied, sent, arriving), 4·8·q; the step's outputs, Q's
 * whole and half of K's and V's, 2·q·2: 78·q = 1,308,622,848, over
 * RMSNorm's fp32 backward (4·8192·2048·4 = 268,435,456), with the residual
 * stream's gradient, 8192·2048·2, beside it.  Without context
 * parallelism, on the same 8,192 tokens, the norm's is the larger. */
static void
test_ring_attention_backward (void)
{
  HrScenario sc;
  HrLayerActivations la;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.2-1b");
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.attention = HR_ATTENTION_FLASH;
  sc.training.micro_batch = 1;
  sc.training.seq_len = 65536;
  sc.parallel.tp = 1;
  sc.parallel.sp = FALSE;
  sc.parallel.cp = 8;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.backward_attn_work, ==, 78.0 * 16777216 + 8192.0 * 2048 * 2);

  sc.training.seq_len = 8192;
  sc.parallel.cp = 1;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.backward_attn_work, ==, 268435456.0 + 8192.0 * 2048 * 2);
}

/* An adapter on the token table (PEFT's lora.Embedding) makes the
 * embeddings' output need a gradient: the first layer of a LoRA model
 * without full checkpointing then keeps what every other layer keeps (its
 * norms' fp32 inputs among them), where without it the first layer keeps
 * less. */
static void
test_embedding_lora_first_layer (void)
{
  HrScenario sc;
  HrLayerActivations la, first;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.2-3b");
  sc.training.method = HR_METHOD_LORA;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V;
  hr_activations_layer (&sc, &la);
  hr_activations_first_layer (&sc, &first);
  g_assert_cmpfloat (first.total, <, la.total);
  g_assert_false (hr_activations_input_grad (&sc));

  sc.training.lora.targets |= HR_LORA_EMBED;
  g_assert_true (hr_activations_input_grad (&sc));
  hr_activations_layer (&sc, &la);
  hr_activations_first_layer (&sc, &first);
  g_assert_cmpfloat (first.total, ==, la.total);
}

/* A Jamba Mamba layer with the dense MLP (layer 0, as in
 * test_ssm_layers) under LoRA on in_proj, x_proj and out_proj, r 16,
 * bf16-true, 2048 tokens (h 4096, d_inner 8192, R 256, N 16, f 14336).
 * Its input needing a gradient: the two frozen norms keep their fp32
 * inputs, 2·2048·4096·4 = 67,108,864; in_proj's adapter its input
 * 16,777,216; three A outputs 3·2048·16·2 = 196,608; xz 67,108,864, the
 * scan's out 33,554,432, B and C 131,072, its states 1,048,576, A
 * 524,288; the convolution's output, delta and out_z (out_proj's adapter
 * reads it) 100,663,296; the dt, B, C norms their fp32 inputs and
 * statistics alone (frozen weights, dt_proj's weight read directly)
 * 2048·288·4 + 3·2048·4 = 2,383,872; the frozen MLP gate, up and their
 * product's other factor 3·2048·14336·2 = 176,160,768 (no input, no
 * down input): 465,657,856.  As the model's first layer the norm before
 * the mixer keeps nothing (33,554,432 less).  Adapting out_proj alone,
 * the first layer's scan needs no gradient and keeps nothing: the MLP's
 * norm 33,554,432, out_proj's A output 65,536 and its input 33,554,432,
 * the MLP 176,160,768: 243,335,168. */
static void
test_jamba_lora_layer (void)
{
  HrScenario sc;
  HrLayerActivations la, first, last;

  ssm_scenario (&sc, "jamba-mini");
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.dropout = 0;
  sc.training.lora.targets = HR_LORA_SSM;
  hr_activations_pattern_layer (&sc, &la, &first, &last);
  g_assert_cmpfloat (first.total, ==, 465657856.0);
  hr_activations_first_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, 465657856.0 - 33554432.0);

  sc.training.lora.targets = HR_LORA_OUT_PROJ;
  hr_activations_first_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, 243335168.0);
}

static void
test_ssm_layers (void)
{
  HrScenario sc;
  HrLayerActivations la, first, last;

  ssm_scenario (&sc, "mamba-130m");
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, 32210944.0);
  g_assert_cmpfloat (la.checkpoint, ==, 2048.0 * 768 * 4);
  /* The fp32 scan states are one per 2048-token chunk. */
  sc.training.seq_len = 4096;
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, 2.0 * (32210944.0 - 196608 - 98304) + 2 * 196608 + 98304);

  ssm_scenario (&sc, "mamba2-2.7b");
  hr_activations_layer (&sc, &la);
  g_assert_cmpfloat (la.total, ==, 106242048.0);
  /* On 4 tensor-parallel ranks with sequence parallelism (Megatron's
   * MambaMixer, 8 groups so that they split): a quarter of everything. */
  {
    HrLayerActivations one, four;

    sc.model.ssm_groups = 8;
    hr_activations_layer (&sc, &one);
    sc.parallel.tp = sc.parallel.gpus = 4;
    sc.parallel.sp = TRUE;
    hr_activations_layer (&sc, &four);
    g_assert_cmpfloat (4.0 * four.total, ==, one.total);
    g_assert_cmpfloat (4.0 * four.checkpoint, ==, one.checkpoint);
  }

  /* Jamba: 4 attention layers with the dense MLP (4, 12, 20, 28), 12
   * Mamba layers with it and 16 with the experts; the layer the plan
   * multiplies is their average, the first (a dense Mamba layer) and the
   * last (a Mamba layer with experts) the backward's ends, and a Mamba
   * layer's MLP is a transformer layer's. */
  /* A Jamba Mamba layer with the dense MLP (layer 0), transformers' path
   * (h 4096, d_inner 8192, dt_rank 256, N 16, ffn 14336): two norms
   * 2·2048·4096·6 = 100,663,296; in_proj's input 16,777,216; xz
   * 67,108,864; the scan's out 33,554,432; B, C 131,072; scan states
   * 8192·32·4 = 1,048,576; A 524,288; the convolution's output, delta and
   * out_z 3·2048·8192·2 = 100,663,296; the dt, B, C norms 2048·288·6 +
   * dt_proj's input 2048·256·2 + 3·2048·4 = 4,612,096; the MLP's input
   * 16,777,216, gate, up and product 3·2048·14336·2 = 176,160,768 and
   * down's input 58,720,256: 576,741,376. */
  ssm_scenario (&sc, "jamba-mini");
  hr_activations_pattern_layer (&sc, &la, &first, &last);
  g_assert_cmpfloat (first.total, ==, 576741376.0);
  {
    HrScenario plain = sc;
    HrLayerActivations attn_dense, attn_moe;

    plain.model.ssm = HR_SSM_NONE;
    plain.model.attn_layer_period = plain.model.attn_layer_offset = 0;
    plain.model.expert_layer_period = plain.model.expert_layer_offset = 0;
    hr_activations_layer (&plain, &attn_moe);
    plain.model.experts = plain.model.experts_active = 1;
    hr_activations_layer (&plain, &attn_dense);
    g_assert_cmpfloat (fabs (32.0 * la.total - (4.0 * attn_dense.total + 12.0 * first.total
                                                + 16.0 * last.total)), <, 1.0);
    g_assert_cmpfloat (fabs ((last.total - first.total)
                             - (attn_moe.mlp_saved - attn_dense.mlp_saved)), <, 1.0);
    /* The Mamba layers' own tensors are the same in both. */
    g_assert_cmpfloat (first.total - first.mlp_saved, ==, last.total - last.mlp_saved);
  }
}

/* Nemotron-H 8B's three kinds of block (modeling_nemotron_h.py: each one
 * RMSNorm and one module), 2048 tokens, bf16-true, flash attention, no
 * recompute; h 4096, norms keep their fp32 input and bf16 copy (6 bytes):
 * - Mamba-2 (M): the norm 2048·4096·6 = 50,331,648, in_proj's input
 *   16,777,216, its output 2048·(2·8192 + 2·8·128 + 128)·2 = 76,021,760,
 *   the scan's output and the gated norm's statistics 2048·(8192·2 + 8·4)
 *   = 33,619,968: 176,750,592;
 * - attention (*): the norm, Q/K/V's input 16,777,216, Q, K, V
 *   2048·(32 + 16)·128·2 = 25,165,824, the output and log-sum-exp
 *   2048·32·(128·2 + 4) = 17,039,360: 109,314,048;
 * - MLP (-): the norm, up's input 16,777,216, the ReLU's output and its
 *   square 2·2048·21504·2 = 176,160,768: 243,269,632.
 * Under full checkpointing each keeps its input in bf16 (NemotronHBlock's
 * residual is the model's type), not mamba_ssm's fp32. */
static void
test_nemotron_h_blocks (void)
{
  HrScenario sc;
  HrPatternKinds kinds;
  HrLayerActivations la, first, last;

  ssm_scenario (&sc, "nemotron-h-8b");
  sc.training.attention = HR_ATTENTION_FLASH;
  hr_activations_pattern_kinds (&sc, &kinds);
  g_assert_true (kinds.has[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE]);
  g_assert_true (kinds.has[HR_LAYER_MIXER_ATTENTION][HR_LAYER_MLP_NONE]);
  g_assert_true (kinds.has[HR_LAYER_MIXER_NONE][HR_LAYER_MLP_DENSE]);
  g_assert_false (kinds.has[HR_LAYER_MIXER_ATTENTION][HR_LAYER_MLP_DENSE]);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE].total, ==, 176750592.0);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_ATTENTION][HR_LAYER_MLP_NONE].total, ==, 109314048.0);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_NONE][HR_LAYER_MLP_DENSE].total, ==, 243269632.0);
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
      if (kinds.has[a][x])
        g_assert_cmpfloat (kinds.kind[a][x].checkpoint, ==, 2048.0 * 4096 * 2);

  /* The stack: 24 Mamba blocks, 4 attention blocks, 24 MLP blocks; the
   * first a Mamba block, the last an MLP block. */
  hr_activations_pattern_layer (&sc, &la, &first, &last);
  g_assert_cmpfloat (fabs (52.0 * la.total - (24.0 * 176750592 + 4.0 * 109314048 + 24.0 * 243269632)),
                     <, 1.0);
  g_assert_cmpfloat (first.total, ==, 176750592.0);
  g_assert_cmpfloat (last.total, ==, 243269632.0);
}

/* Nemotron 3 Nano's expert block (E), 2048 tokens, bf16-true: h 2688, 6
 * of 128 experts per token.  NemotronHMoE routes as DeepSeek-V3 does and
 * sums its experts in fp32 (modeling_nemotron_h.py: NemotronHTopkRouter
 * is DeepseekV3TopkRouter, F.linear over hidden_states.type(float32);
 * NemotronHExperts.forward's final_hidden_states has the fp32 routing
 * weights' dtype, and each expert's output times its weight, fp32, is
 * what index_add_ keeps):
 * - the router's fp32 copy of the tokens, 2048·2688·4 = 22,020,096;
 * - per routed token the gathered input and the expert's output in bf16
 *   and the weighted output in fp32, 2048·6·2688·(2 + 2 + 4) =
 *   264,241,152 (Mixtral's sum, in bf16, would keep 2 bytes, not 4);
 * - the routing: the sigmoid's scores 2048·128·4, and per routed token
 *   the where's two indices, the gather's index, the renormalisation's
 *   operand and the fp32 weight slice, 2048·(6·(16 + 8 + 4 + 4) + 4).
 * As a latent MoE of 1024 (moe_latent_size) the three routed tensors are
 * the latent's width instead of h's, 2048·6·(2688 − 1024)·8 =
 * 163,577,856 less, and the latent projection back keeps the experts'
 * sum in bf16, 2048·1024·2 = 4,194,304; everything else (the norm, the
 * router's inputs, the f-wide tensors, the shared experts) is the same
 * block's. */
static void
test_latent_moe_block (void)
{
  const double T = 2048;
  HrScenario sc;
  HrPatternKinds kinds;
  const HrLayerActivations *e;
  double plain;

  G_STATIC_ASSERT (2048ull * 6 * (2688 - 1024) * 8 == 163577856);
  ssm_scenario (&sc, "nemotron-3-nano-30b-a3b");
  sc.training.attention = HR_ATTENTION_FLASH;
  hr_activations_pattern_kinds (&sc, &kinds);
  e = &kinds.kind[HR_LAYER_MIXER_NONE][HR_LAYER_MLP_EXPERTS];
  g_assert_cmpfloat (saved_bytes (e, "router input (fp32)"), ==, T * 2688 * 4);
  g_assert_cmpfloat (saved_bytes (e, "expert inputs, outputs and weighted outputs"), ==, T * 6 * 2688 * (2 + 2 + 4));
  g_assert_cmpfloat (saved_bytes (e, "routing indices and weights"), ==, T * (6 * (16 + 8 + 4 + 4) + 4));
  g_assert_cmpfloat (saved_bytes (e, "router logits (fp32)"), ==, T * 128 * 4);
  plain = e->total;
  g_assert_cmpfloat (plain, ==, 453386240.0);
  sc.model.moe_latent_size = 1024;
  hr_activations_pattern_kinds (&sc, &kinds);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_NONE][HR_LAYER_MLP_EXPERTS].total, ==,
                     plain - 163577856.0 + 4194304.0);
}


/* Granite 4.0-H Tiny's layer, 2048 tokens, bf16-true: a Mamba-2 mixer,
 * then 6 of 64 experts of 512 and a shared MLP of 1024 (h 1536).
 * GraniteMoeMoE routes with JetMoe's top-k gating, a linear in the
 * tokens' type whose logits are cast to fp32 after it, so no fp32 copy of
 * the tokens is kept (DeepSeek's router keeps one: test_mla_moe_layer),
 * and sums its experts in the tokens' type:
 * - per routed token the gathered input, the expert's output and the
 *   weighted output in bf16, 2048·6·1536·(2 + 2 + 2) = 113,246,208;
 * - the shared MLP's gate and up outputs, the activation and the down
 *   projection's input, 4·2048·1024·2 = 16,777,216. */
static void
test_granite_moe_layer (void)
{
  const double T = 2048;
  HrScenario sc;
  HrPatternKinds kinds;
  const HrLayerActivations *e;

  G_STATIC_ASSERT (2048ull * 6 * 1536 * 6 == 113246208);
  ssm_scenario (&sc, "granite-4.0-h-tiny");
  sc.training.attention = HR_ATTENTION_FLASH;
  hr_activations_pattern_kinds (&sc, &kinds);
  e = &kinds.kind[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_EXPERTS];
  g_assert_cmpfloat (saved_bytes (e, "router input (fp32)"), ==, 0);
  g_assert_cmpfloat (saved_bytes (e, "expert inputs, outputs and weighted outputs"), ==, 113246208.0);
  g_assert_cmpfloat (saved_bytes (e, "shared experts' outputs"), ==, 4 * T * 1024 * 2);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_ATTENTION][HR_LAYER_MLP_EXPERTS].total, >, 0);
}


/* DeepSeek's prediction modules under autocast (amp-bf16, fp32 weights),
 * as the reference oracle's MTP runs measure them: each module's enorm
 * keeps the fp32 embeddings and their fp32 normalised copy (8 bytes a
 * token and unit of h), its hnorm only its copy (4: its input is the fp32
 * hidden state the head's norm keeps already), eh_proj its 16-bit 2h
 * input (4); the losses run one after another, so one set of logits' fp32
 * copy exists at a time while every set's log-probabilities are kept. */
static void
test_mtp_inputs (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  double T = 2.0 * 1024, h, V;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "deepseek-v2-lite");
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 2;
  sc.training.seq_len = 1024;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.model.mtp_modules = 2;
  h = (double) sc.model.hidden;
  V = (double) sc.model.vocab;
  hr_test_plan (&sc, plan);
  g_assert_cmpfloat (hr_test_item_bytes (&plan->devices[0], "multi-token prediction inputs (norms, projection)"),
                     ==, 2 * T * h * (8 + 4 + 4));
  g_assert_cmpfloat (hr_test_item_bytes (&plan->devices[0], "logits' fp32 copy (while the loss runs)"),
                     ==, T * V * 4);
  g_assert_cmpfloat (hr_test_item_bytes (&plan->devices[0], "log-probabilities (saved by the loss)"),
                     ==, 3 * T * V * 4);
}

/* PyTorch's pipelining (parallel.pp_buffers, hr-calc-pipeline.c) on four
 * 1F1B stages of 8 micro-batches of 2 x 1024 tokens of Llama 2 7B under
 * bf16-true with full checkpointing: each stage-boundary tensor is
 * b·s·h·2 = 2·1024·4096·2 bytes, stage i holds min(4 - i, 8) micro-batches
 * in flight.  Every stage but the first keeps a receive buffer for the
 * 8 - in-flight micro-batches not in flight (the others are layer inputs),
 * every stage but the last 8 gradient buffers and its in-flight outputs,
 * the last this micro-batch's logits (b·s·V·2) through its backward; with
 * "torch-outputs" also 7 earlier micro-batches' logits, all 8 through the
 * optimizer step. */
static void
test_pipeline_buffers (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(HrPlan) without = hr_plan_new ();
  const double X = 2.0 * 1024 * 4096 * 2;
  const double L = 2.0 * 1024 * 32000 * 2;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-2-7b");
  sc.training.precision = HR_PRECISION_BF16_TRUE;
  hr_training_apply_precision (&sc.training);
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  sc.training.micro_batch = 2;
  sc.training.seq_len = 1024;
  sc.training.grad_accum = 8;
  sc.parallel.gpus = 4;
  sc.parallel.tp = 1;
  sc.parallel.pp = 4;
  sc.parallel.zero = 0;
  hr_test_plan (&sc, without);
  sc.parallel.pp_buffers = HR_PP_BUFFERS_TORCH;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (plan->n_devices, ==, 4);
  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];
      double in_flight = (double) (4 - d->stage);
      double receive = d->stage > 0 ? (8 - in_flight) * X : 0;
      double grads = d->stage < 3 ? 8 * X : 0;
      double outputs = d->stage < 3 ? in_flight * X : 0;

      g_assert_cmpfloat (hr_test_item_bytes (d, "pipeline receive buffers (micro-batches not in flight)"),
                         ==, receive);
      g_assert_cmpfloat (hr_test_item_bytes (d, "pipeline gradient buffers (one per micro-batch)"), ==, grads);
      g_assert_cmpfloat (hr_test_item_bytes (d, "stage outputs (micro-batches in flight)"), ==, outputs);
      /* The buffers stay all step, the outputs until the backward. */
      g_assert_cmpfloat ((double) d->phase_bytes[HR_PHASE_STEP]
                         - (double) without->devices[i].phase_bytes[HR_PHASE_STEP], ==, receive + grads);
      g_assert_cmpfloat ((double) d->phase_bytes[HR_PHASE_FORWARD]
                         - (double) without->devices[i].phase_bytes[HR_PHASE_FORWARD],
                         ==, receive + grads + outputs);
      g_assert_cmpfloat (hr_test_item_bytes (d, "earlier micro-batches' logits (kept for step() to return)"), ==, 0);
      /* the last stage's logits, held by fwd_cache until the backward returns */
      g_assert_cmpfloat (hr_test_item_bytes (d, "this micro-batch's logits (kept by the pipeline)"),
                         ==, d->stage == 3 ? L : 0);
    }

  sc.parallel.pp_buffers = HR_PP_BUFFERS_TORCH_OUTPUTS;
  hr_test_plan (&sc, plan);
  for (guint i = 0; i < plan->n_devices; i++)
    {
      const HrDevice *d = &plan->devices[i];

      g_assert_cmpfloat (hr_test_item_bytes (d, "earlier micro-batches' logits (kept for step() to return)"),
                         ==, d->stage == 3 ? 7 * L : 0);
      g_assert_cmpfloat (hr_test_item_bytes (d, "this micro-batch's logits (kept by the pipeline)"),
                         ==, d->stage == 3 ? L : 0);
      /* ... all of them through the optimizer step, until the next step() */
      if (d->stage == 3)
        g_assert_cmpfloat ((double) d->phase_bytes[HR_PHASE_STEP]
                           - (double) without->devices[i].phase_bytes[HR_PHASE_STEP], ==, 8 * L + 7 * X);
    }

  /* Without a pipeline the field plans nothing. */
  sc.parallel.pp = 1;
  sc.parallel.gpus = 1;
  hr_test_plan (&sc, plan);
  sc.parallel.pp_buffers = HR_PP_BUFFERS_NONE;
  hr_test_plan (&sc, without);
  g_assert_cmpuint (plan->devices[0].allocated_bytes, ==, without->devices[0].allocated_bytes);
}

/* Jamba's experts are Mixtral's (JambaSparseMoeBlock: the router in the
 * tokens' type, the weights cast back to it, the sum in bf16): per
 * routed token the weighted output keeps 2 bytes an element under
 * bf16-true, and no router copy is kept. */
static void
test_jamba_moe_sum (void)
{
  const double T = 2048;
  HrScenario sc;
  HrPatternKinds kinds;
  const HrLayerActivations *e = NULL;

  ssm_scenario (&sc, "jamba-mini");
  hr_activations_pattern_kinds (&sc, &kinds);
  for (guint a = 0; a < HR_N_LAYER_MIXERS && e == NULL; a++)
    if (kinds.has[a][HR_LAYER_MLP_EXPERTS])
      e = &kinds.kind[a][HR_LAYER_MLP_EXPERTS];
  g_assert_nonnull (e);
  g_assert_cmpfloat (saved_bytes (e, "router input (fp32)"), ==, 0);
  g_assert_cmpfloat (saved_bytes (e, "expert inputs, outputs and weighted outputs"), ==, T * 2 * 4096 * (2 + 2 + 2));
}

/* Zamba2 2.7B's shared block, one use (modeling_zamba2.py,
 * Zamba2AttentionDecoderLayer and Zamba2HybridLayer.linear), 2048 tokens,
 * bf16-true, flash attention, no recompute; h 2560, 32 heads of 160 (2h
 * wide), f 10240, adapters of 128 on the MLP; norms keep their fp32 input
 * and bf16 copy (6 bytes):
 * - input_layernorm over the 2h joined state, 2048·5120·6 = 62,914,560;
 * - Q/K/V's input, the 2h norm output, 2048·5120·2 = 20,971,520;
 * - Q, K, V 2048·96·160·2 = 62,914,560;
 * - the output and log-sum-exp 2048·32·(160·2 + 4) = 21,233,664 (O's input);
 * - pre_ff_layernorm 2048·2560·6 = 31,457,280; gate_up's input
 *   2048·2560·2 = 10,485,760; GELU's input (gate, in the 2f sum), up and
 *   the product 3·2048·10240·2 = 125,829,120; down's input 41,943,040;
 * - the adapter's middle 2048·128·2 = 524,288; the linear's input, the
 *   MLP's output, 10,485,760.
 * 388,759,552 in all; under full checkpointing nothing of its own (the
 * hybrid layer is one checkpointed layer: its M block keeps the input). */
static void
test_zamba2_shared_block (void)
{
  HrScenario sc;
  HrPatternKinds kinds;
  const HrLayerActivations *s;

  ssm_scenario (&sc, "zamba2-2.7b");
  sc.training.attention = HR_ATTENTION_FLASH;
  hr_activations_pattern_kinds (&sc, &kinds);
  g_assert_true (kinds.has[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE]);
  g_assert_true (kinds.has[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE]);
  s = &kinds.kind[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE];
  g_assert_cmpfloat (s->total, ==, 62914560.0 + 20971520 + 62914560 + 21233664 + 31457280 + 10485760
                                   + 125829120 + 41943040 + 524288 + 10485760);
  g_assert_cmpfloat (s->checkpoint, ==, 0);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE].checkpoint, ==, 2048.0 * 2560 * 2);

  /* Under full checkpointing the hybrid layer (Zamba2HybridLayer) is
   * recomputed as one: the shared block's tensors and its Mamba layer's
   * beside each other, where a Mamba layer alone is less. */
  {
    g_autoptr(HrPlan) plan = hr_plan_new ();
    const HrLayerActivations *m = &kinds.kind[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE];

    sc.training.checkpointing = HR_CHECKPOINTING_FULL;
    hr_test_plan (&sc, plan);
    g_assert_cmpfloat (fabs ((double) hr_test_item_bytes (&plan->devices[0], "one layer recomputed for backward")
                             - (s->total + m->total - m->checkpoint)), <=, 1.0);
  }
}

/* The same use under LoRA, r 16 on every linear and in_proj (a middle
 * use: its input needs a gradient), no dropout: the frozen norms keep
 * their fp32 inputs alone, 2048·(5120 + 2560)·4 = 62,914,560; the 2h
 * norm output, which q's, k's and v's adapters read, 20,971,520; Q, K, V
 * and the output with its log-sum-exp (o's adapter reads it) as before;
 * six A outputs (q, k, v, o, the one gate_up_proj adapter, down)
 * 6·2048·16·2 = 393,216; gate_up's input 10,485,760, gate, up and the
 * product 125,829,120, down's input 41,943,040: 346,685,440.  The frozen
 * adapters of the use and its frozen h x h linear keep nothing.  With
 * dropout 0.1 every adapter keeps its own dropped-out copy and mask (3
 * bytes an element) instead of the inputs only they read: q, k, v
 * 3·2048·5120·3, o 2048·5120·3, gate_up 2048·2560·3, down 2048·10240·3 =
 * 204,472,320, less the 2h norm output, gate_up's and down's inputs
 * (73,400,320): 477,757,440. */
static void
test_zamba2_shared_block_lora (void)
{
  HrScenario sc;
  HrPatternKinds kinds;

  G_STATIC_ASSERT (2048ull * 7680 * 4 + 2048ull * 5120 * 2 + 62914560 + 21233664 + 6 * 2048 * 16 * 2
                   + 2048 * 2560 * 2 + 125829120 + 2048 * 10240 * 2 == 346685440);
  G_STATIC_ASSERT (4 * 2048ull * 5120 * 3 + 2048 * 2560 * 3 + 2048 * 10240 * 3 == 204472320);
  ssm_scenario (&sc, "zamba2-2.7b");
  sc.training.attention = HR_ATTENTION_FLASH;
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.targets = HR_LORA_ALL_LINEAR | HR_LORA_IN_PROJ;
  sc.training.lora.dropout = 0;
  hr_activations_pattern_kinds (&sc, &kinds);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE].total, ==, 346685440.0);
  sc.training.lora.dropout = 0.1;
  hr_activations_pattern_kinds (&sc, &kinds);
  g_assert_cmpfloat (kinds.kind[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE].total, ==,
                     346685440.0 - 2048.0 * (5120 + 2560 + 10240) * 2 + 204472320);
}

/* Llama 3.2 11B Vision (hr-activations-mllama.c, hr-calc-mllama.c), one
 * sample of 4096 text tokens and one image, bf16-mixed, no recompute,
 * against the tensors transformers' modeling_mllama.py keeps.  T = 4096
 * text tokens, N = 4 tiles x 1601 = 6404 image tokens, h 4096, 32 heads
 * of 128 (8 KV heads), f 14336; the tower's layers run over 4 x 1608 =
 * 6432 tokens (each tile padded to a multiple of 8) of 1280, 16 heads of
 * 80, f 5120. */
static void
test_mllama (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  HrLayerActivations self, cross;
  const double T = 4096, N = 6404, h = 4096, P = 6432, hv = 1280;
  /* the self-attention block (flash, GQA): its input, Q, K, V and the
   * output with its log-sum-exp */
  const double self_attn = T * h * 2 + T * (32 + 2 * 8) * 128 * 2 + T * 32 * (128 * 2 + 4);
  /* the cross-attention block: the normed text (q_proj's input); q_norm's
   * and k_norm's fp32 copies and normalised copies over Q and the
   * repeated K; the kernel's Q and repeated K and V; its output and
   * log-sum-exp; the two gates' other factors */
  const double cross_attn = T * h * 2 + (T + N) * 32 * 128 * (4 + 2) + (T + 2 * N) * 32 * 128 * 2
                            + T * 32 * (128 * 2 + 4) + 2 * T * h * 2;
  /* one tower layer: two LayerNorms' inputs, the attention's input, Q, K,
   * V, output + log-sum-exp, the MLP's input, fc1's output (GELU's input)
   * and GELU's output (fc2's input) */
  const double tower_layer = P * (2 * hv * 2 + hv * 2 + 3 * hv * 2 + 16 * (80 * 2 + 4) + hv * 2
                                  + 2 * 5120 * 2);
  const double gates = 2 * P * hv * 2;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llama-3.2-11b-vision");
  sc.parallel.gpus = 8;
  sc.parallel.zero = 3;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 1;
  sc.training.seq_len = 4096;
  sc.training.images_per_sample = 1;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;

  hr_activations_layer (&sc, &self);
  hr_activations_cross_layer (&sc, &cross);
  g_assert_cmpfloat (cross.total - self.total, ==, cross_attn - self_attn);
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "Q/K norm inputs (fp32)"), ==,
                     (T + N) * 32 * 128 * 6);
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "gated outputs (for the gates' gradients)"), ==,
                     2 * T * h * 2);
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "Q, K, V"), ==, 0);
  /* k_norm's backward over the repeated K: four fp32 copies and V's
   * gradient, over the MLP's and the text norms' */
  g_assert_cmpfloat (cross.backward_attn_work, ==, 4 * N * 32 * 128 * 4 + N * 32 * 128 * 2 + T * h * 2);

  hr_test_plan (&sc, plan);
  /* 32 self-attention and 8 cross-attention layers' saved tensors */
  {
    double layers = 0;
    HrDevice *d = &plan->devices[0];

    for (guint i = 0; i < self.n; i++)
      layers += (double) hr_test_item_bytes (d, self.saved[i].name);
    for (guint i = 0; i < cross.n; i++)
      if (hr_layer_saved_bytes (&self, cross.saved[i].name) == 0)
        layers += (double) hr_test_item_bytes (d, cross.saved[i].name);
    g_assert_cmpfloat (fabs (layers - (32 * self.total + 8 * cross.total)), <=, 64);
  }
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0],
                                        "image features (keys and values of every cross-attention)"),
                    ==, 6404 * 4096 * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "cross-attention masks"), ==,
                    4096 * (6404 + 1) * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "projector activations"), ==,
                    6404ull * 7680 * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision tower attention mask"), ==,
                    6432ull * 6432 * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0],
                                        "vision tower stem (pixels, tile embeddings, outer norms)"),
                    ==, 4 * (3 * 560 * 560 + (2 * 1601 + 2) * 1280ull) * 2 + 6432 * 1280 * 2);
  g_assert_cmpfloat (hr_activations_vision_tower (&sc, NULL), ==, 40 * tower_layer + 8 * gates);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision tower activations"), ==,
                    (guint64) (40 * tower_layer + 8 * gates));

  /* Full checkpointing: every layer keeps its input; the features and
   * the mask are inputs of every checkpoint, kept once. */
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  g_assert_cmpfloat (hr_activations_vision_tower (&sc, NULL), ==, 40 * P * hv * 2);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "layer inputs (checkpoints)"), ==,
                    40 * 4096 * 4096 * 2ull);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0],
                                        "image features (keys and values of every cross-attention)"),
                    ==, 6404 * 4096 * 2);

  /* LoRA on q, v with dropout: the tower and projector frozen, keeping
   * nothing; each cross-attention layer's V adapter reads the image
   * tokens: its A output N·r and its dropped-out input N·h (and mask). */
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.method = HR_METHOD_LORA;
  sc.training.lora.rank = 16;
  sc.training.lora.targets = HR_LORA_Q | HR_LORA_V;
  sc.training.lora.dropout = 0.05;
  hr_activations_layer (&sc, &self);
  hr_activations_cross_layer (&sc, &cross);
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "LoRA A outputs"), ==, (T + N) * 16 * 2);
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "LoRA dropout inputs and masks"), ==,
                     (T + N) * h * 3);
  g_assert_cmpfloat (hr_layer_saved_bytes (&self, "LoRA dropout inputs and masks"), ==, 2 * T * h * 3);
  /* (K needs no gradient: k_norm keeps nothing; frozen gates nothing) */
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "Q/K norm inputs (fp32)"), ==, T * 32 * 128 * 4);
  g_assert_cmpfloat (hr_layer_saved_bytes (&cross, "gated outputs (for the gates' gradients)"), ==, 0);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision tower activations"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "projector activations"), ==, 0);
  /* The first layer (a self-attention one) keeps less, its input needing
   * no gradient: 31 self-attention layers, it, 8 cross-attention ones. */
  {
    HrLayerActivations first;
    double layers = 0;
    HrDevice *d = &plan->devices[0];

    hr_activations_first_layer (&sc, &first);
    g_assert_cmpfloat (first.total, <, self.total);
    for (guint i = 0; i < self.n; i++)
      layers += (double) hr_test_item_bytes (d, self.saved[i].name);
    for (guint i = 0; i < cross.n; i++)
      if (hr_layer_saved_bytes (&self, cross.saved[i].name) == 0)
        layers += (double) hr_test_item_bytes (d, cross.saved[i].name);
    g_assert_cmpfloat (fabs (layers - (31 * self.total + first.total + 8 * cross.total)), <=, 64);
  }
  g_assert_cmpuint (plan->trainable_params, ==,
                    40 * 16 * ((4096 + 4096) + (4096 + 1024)) * 1ull);
}

/* A vision tower's and projector's saved tensors (hr-activations-vision.c)
 * as their own items, against the tensors Hugging Face's modules keep. */
static void
test_vision_tower (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc;
  double layer, with_all, embed;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llava-1.5-7b");
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 2;
  sc.training.seq_len = 2048;
  sc.training.images_per_sample = 1;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;

  /* LlavaMultiModalProjector: linear_1's input is the feature layer's 576
   * patch rows of 1024 (of 2 images the [:, 1:] view is not contiguous:
   * F.linear's matmul copies it whole), GELU's and linear_2's inputs are
   * 576 x 4096; 2 samples of one image, bf16. */
  g_assert_cmpfloat (hr_activations_projector (&sc), ==,
                     2.0 * (576 * 1024 + 2 * 576 * 4096) * 2);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "projector activations"), ==,
                    2 * (576 * 1024 + 2 * 576 * 4096) * 2);
  /* One image: the view is contiguous, and at::linear keeps it, with its
   * base's 577 rows; under autocast its 16-bit cast, a copy of 576. */
  sc.training.micro_batch = 1;
  g_assert_cmpfloat (hr_activations_projector (&sc), ==, (577 * 1024 + 2 * 576 * 4096) * 2.0);
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  g_assert_cmpfloat (hr_activations_projector (&sc), ==, (576 * 1024 + 2 * 576 * 4096) * 2.0);
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 2;
  /* LLaVA's output keeps the 2 x 576 image features it put in the image
   * tokens' rows, in the embeddings' type, bf16, until the loss. */
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "image features (in the model's output)"), ==,
                    2 * 576 * 4096 * 2);
  /* The weights: the tower's and the projector's their own items, bf16. */
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision tower weights"), ==,
                    303507456ull * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "projector weights"), ==,
                    20979712ull * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "weights"), ==,
                    (7063427072ull - 303507456 - 20979712) * 2);

  /* The tower: 23 of its 24 layers reach the loss (vision_feature_layer
   * -2), each one encoder layer of width 1024 over 2 x 577 tokens plus
   * quick-GELU's sigmoid, 2 x 577 x 4096 bf16 values; before them the
   * patch convolution's input, the fp32 pixels' bf16 copy (2 images of 3
   * x 336 x 336), and pre_layrnorm's input, 2 x 577 x 1024 bf16. */
  embed = 2.0 * (3 * 336 * 336 + 577 * 1024) * 2;
  with_all = hr_activations_vision_tower (&sc, &layer);
  g_assert_cmpfloat (with_all, ==, 23 * layer + embed);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision tower activations"), ==,
                    (guint64) (23 * layer + embed));
  {
    HrScenario vit = sc;
    HrLayerActivations la;

    /* the same layer as an encoder model of the tower's shape */
    hr_model_arch_init_default (&vit.model);
    vit.model.kind = HR_KIND_ENCODER;
    vit.model.layers = 24;
    vit.model.hidden = 1024;
    vit.model.heads = vit.model.kv_heads = 16;
    vit.model.head_dim = 0;
    vit.model.ffn = 4096;
    vit.model.mlp = HR_MLP_GELU;
    vit.model.norm = HR_NORM_LAYERNORM;
    vit.model.bias = HR_BIAS_ALL;
    vit.model.head = HR_HEAD_CLASSIFIER;
    vit.model.classes = 1;
    vit.model.vocab = 0;
    vit.training.seq_len = 577;
    hr_activations_layer (&vit, &la);
    g_assert_cmpfloat (layer, ==, la.total + 2.0 * 577 * 4096 * 2);
    /* Eager: CLIP's eager_attention_forward runs the softmax in fp32 in
     * every precision, softmax(dtype=float32).to(query.dtype): its fp32
     * output (16 heads x 577² per image, 2 images) beside the bf16 copy
     * the encoder layer has. */
    {
      HrAttention was = sc.training.attention;

      sc.training.attention = vit.training.attention = HR_ATTENTION_EAGER;
      hr_activations_vision_tower (&sc, &layer);
      hr_activations_layer (&vit, &la);
      g_assert_cmpfloat (layer, ==, la.total + 2.0 * 577 * 4096 * 2 + 2.0 * 16 * 577 * 577 * 4);
      sc.training.attention = was;
      hr_activations_vision_tower (&sc, &layer);
    }
  }
  sc.model.vision_feature_layer = 0;
  g_assert_cmpfloat (hr_activations_vision_tower (&sc, NULL), ==, 24 * layer + embed);
  sc.model.vision_feature_layer = 23;

  /* Full checkpointing: each layer keeps its input, 2 x 577 x 1024 bf16,
   * and one layer is recomputed at the end of the backward pass. */
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  g_assert_cmpfloat (hr_activations_vision_tower (&sc, NULL), ==, 23.0 * 2 * 577 * 1024 * 2 + embed);
  hr_test_plan (&sc, plan);
  /* The tower's layers are recomputed after the language model's first
   * layer has done its backward; when that layer runs, the tower's and
   * projector's gradients (2 bytes each of 303,507,456 - 12,598,272 no
   * loss reaches + 20,979,712) are still to come, more than its working
   * set: the backward's end is the tower's moment, one layer recomputed
   * beside every gradient. */
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "first layer recomputed (freed last)"), ==, 0);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "one vision layer recomputed for backward"),
                    ==, (guint64) layer);
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;

  /* Under autocast the graph keeps the 16-bit casts of the projector's two
   * matrices (1024 x 4096 + 4096 x 4096), of the patch convolution (588 x
   * 1024) and of the 23 layers' linears (4 x 1024² + 2 x 1024 x 4096 =
   * 12,582,912 each) up to the feature layer; autocast's cache the 24th's.
   * Checkpointed, every layer's casts are in the cache, one layer's cast
   * again when it is recomputed. */
  sc.training.precision = HR_PRECISION_AMP_BF16;
  hr_training_apply_precision (&sc.training);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision 16-bit weight copies (autocast)"), ==,
                    (20971520ull + 602112 + 23 * 12582912ull) * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision 16-bit weight copies (autocast cache)"), ==,
                    12582912ull * 2);
  sc.training.checkpointing = HR_CHECKPOINTING_FULL;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision 16-bit weight copies (autocast)"), ==,
                    (20971520ull + 602112) * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision 16-bit weight copies (autocast cache)"), ==,
                    24 * 12582912ull * 2);
  /* No loss reaches the tower's 24th layer (12,596,224 parameters) nor
   * its post_layernorm (2 x 1024): one GPU's torch optimizer gives them no
   * gradient and no state; DeepSpeed's flat partitions hold them. */
  {
    double gb = hr_dtype_bytes (sc.training.dtypes.grads);

    g_assert_cmpuint (plan->trainable_params, ==, 7063427072ull);
    g_assert_cmpfloat ((double) hr_test_item_bytes (&plan->devices[0], "gradients"), ==,
                       (7063427072.0 - 12596224 - 2048) * gb);
    sc.parallel.deepspeed = TRUE;
    sc.parallel.zero = 1;
    hr_test_plan (&sc, plan);
    g_assert_cmpfloat ((double) hr_test_item_bytes (&plan->devices[0], "gradients"), ==, 7063427072.0 * gb);
    sc.parallel.deepspeed = FALSE;
    sc.parallel.zero = 0;
    hr_test_plan (&sc, plan);
  }
  /* A frozen tower's casts are neither cached nor kept; behind it
   * linear_1's input needs no gradient, so linear_1's cast is in the cache
   * only, linear_2's in the graph. */
  sc.training.freeze_vision = TRUE;
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision 16-bit weight copies (autocast)"), ==,
                    4096ull * 4096 * 2);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision 16-bit weight copies (autocast cache)"), ==,
                    1024ull * 4096 * 2);
  sc.training.freeze_vision = FALSE;
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);

  /* Frozen (LLaVA's fine-tuning): the tower keeps nothing, the projector
   * as before; under LoRA neither keeps anything. */
  sc.training.freeze_vision = TRUE;
  g_assert_cmpfloat (hr_activations_vision_tower (&sc, NULL), ==, 0);
  hr_test_plan (&sc, plan);
  g_assert_cmpuint (hr_test_item_bytes (&plan->devices[0], "vision tower activations"), ==, 0);
  g_assert_cmpuint (plan->trainable_params, ==, 7063427072ull - 303507456);
  sc.training.method = HR_METHOD_LORA;
  g_assert_cmpfloat (hr_activations_projector (&sc), ==, 0);

  /* Qwen2-VL's patch merger over 448 x 448 images: 1024 patches of 1280;
   * ln_q's input (bf16 without autocast) and its mean and rstd (fp32),
   * mlp[0]'s, GELU's and mlp[2]'s inputs, 1024 x 1280 values each. */
  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "qwen2-vl-7b");
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.micro_batch = 1;
  sc.training.images_per_sample = 2;
  g_assert_cmpfloat (hr_activations_projector (&sc), ==,
                     2.0 * 1024 * (1280 * 2 + 2 * 4 + 3 * 1280 * 2));
  /* Its patch embedding keeps the pixels' bf16 copy, two frames deep: 2
   * images of 2 x 3 x 448 x 448; no class token, no outer norm; the
   * blocks keep the rotary's cos and sin, fp32, 2 x 1024 patches x one
   * head's 80 each. */
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  with_all = hr_activations_vision_tower (&sc, &layer);
  g_assert_cmpfloat (with_all - 32 * layer, ==, 2.0 * 2 * 3 * 448 * 448 * 2 + 2.0 * 2 * 1024 * 80 * 4);
  {
    HrScenario vit = sc;
    HrLayerActivations la;

    /* Each block: an encoder layer of width 1280 over 2 x 1024 patches
     * whose Q, K and V come from one linear (LitGPT's fused QKV reads its
     * input once too), quick-GELU's sigmoid (2 x 1024 x 5120), and the
     * rest of qkv's output, which V's view keeps (2 x 2 x 1024 x 1280),
     * bf16. */
    hr_model_arch_init_default (&vit.model);
    vit.model.kind = HR_KIND_ENCODER;
    vit.model.layers = 32;
    vit.model.hidden = 1280;
    vit.model.heads = vit.model.kv_heads = 16;
    vit.model.head_dim = 0;
    vit.model.ffn = 5120;
    vit.model.mlp = HR_MLP_GELU;
    vit.model.norm = HR_NORM_LAYERNORM;
    vit.model.bias = HR_BIAS_ALL;
    vit.model.head = HR_HEAD_CLASSIFIER;
    vit.model.classes = 1;
    vit.model.vocab = 0;
    vit.training.seq_len = 1024;
    vit.training.micro_batch = 2;
    vit.training.lora.fused_qkv = TRUE;
    hr_activations_layer (&vit, &la);
    g_assert_cmpfloat (layer, ==, la.total + 2.0 * 1024 * 5120 * 2 + 2.0 * 2 * 1024 * 1280 * 2);
  }
  /* AdamW's per-tensor loop makes two temporaries of the largest trainable
   * matrix: with a small language model (vocabulary 1000, MLP 1024), the
   * patch merger's first linear, 5120 x 5120. */
  sc.model.vocab = 1000;
  sc.model.ffn = 1024;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.parallel.deepspeed = FALSE;
  sc.training.optimizer = HR_OPTIMIZER_ADAMW;
  sc.training.optimizer_impl = HR_OPTIMIZER_IMPL_LOOP;
  hr_test_plan (&sc, plan);
  g_assert_cmpfloat ((double) hr_test_item_bytes (&plan->devices[0], "optimizer step temporaries"), ==,
                     2.0 * 5120 * 5120 * hr_dtype_bytes (sc.training.dtypes.optimizer));
}

/* fp8 linears.  Transformer Engine keeps each linear input it quantizes as
 * fp8 alone (linear.py _Linear.forward: the rowwise data dropped after the
 * GEMM, the columnwise copy saved; layernorm_linear.py ln_out;
 * layernorm_mlp.py act_out), torchao's Float8Linear the 16-bit input
 * (float8_linear.py, matmul_with_hp_or_float8_args.forward:
 * save_for_backward(input_hp, weight_hp_t)).  Llama 2 13B (h = a·d = 5120,
 * f = 13824), T = 16384 tokens, flash attention, no checkpointing: TE saves
 * the attention's and the MLP's normalised inputs and the down
 * projection's input in 1 byte instead of 2, T·(2h + f) bytes fewer, and
 * the O projection's own fp8 copy of the attention output, T·a·d more:
 * T·(h + f) = 16384·18944 = 310,378,496 bytes fewer a layer. */
static void
test_fp8_linear_inputs (void)
{
  HrScenario sc;
  HrLayerActivations bf16, torchao, te, mx, lora_bf16, lora_te;
  const double T = 16384, h = 5120, f = 13824;

  hr_scenario_init_default (&sc);
  sc.training.checkpointing = HR_CHECKPOINTING_NONE;
  sc.training.attention = HR_ATTENTION_FLASH;
  g_assert_cmpfloat (sc.training.micro_batch * sc.training.seq_len, ==, T);
  hr_activations_layer (&sc, &bf16);
  sc.training.precision = HR_PRECISION_FP8_MIXED;
  hr_training_apply_precision (&sc.training);
  sc.training.fp8_recipe = HR_FP8_RECIPE_TORCHAO;
  hr_activations_layer (&sc, &torchao);
  sc.training.fp8_recipe = HR_FP8_RECIPE_TE;
  hr_activations_layer (&sc, &te);
  g_assert_cmpfloat (torchao.total, ==, bf16.total);
  hr_assert_close (bf16.total - te.total, T * (2 * h + f) - T * h, 1e-12);
  g_assert_cmpfloat (bf16.total - te.total, ==, 310378496.0);

  /* MXFP8 keeps the same columnwise copies with one scale byte per 32
   * tokens (mxfp8_tensor.py get_scale_shape: [roundup(T/32, 4),
   * roundup(n, 128)], no padding here): T·(2h + a·d + f)/32 =
   * 16384·29,184/32 = 14,942,208 bytes a layer more than te. */
  sc.training.fp8_recipe = HR_FP8_RECIPE_TE_MXFP8;
  hr_activations_layer (&sc, &mx);
  g_assert_cmpfloat (mx.total - te.total, ==, T * (2 * h + h + f) / 32);
  g_assert_cmpfloat (mx.total - te.total, ==, 14942208.0);
  sc.training.fp8_recipe = HR_FP8_RECIPE_TE;

  /* LoRA's frozen bases keep nothing and its adapters keep 16-bit inputs:
   * no change. */
  sc.training.method = HR_METHOD_LORA;
  hr_activations_layer (&sc, &lora_te);
  sc.training.precision = HR_PRECISION_BF16_MIXED;
  hr_training_apply_precision (&sc.training);
  hr_activations_layer (&sc, &lora_bf16);
  g_assert_cmpfloat (lora_te.total, ==, lora_bf16.total);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/activations/korthikanti-figure1", test_figure1);
  g_test_add_func ("/activations/plan", test_plan_carries_them);
  g_test_add_func ("/activations/table2", test_table2);
  g_test_add_func ("/activations/mla", test_mla);
  g_test_add_func ("/activations/mla-lora", test_mla_lora);
  g_test_add_func ("/activations/per-op-checkpointing", test_per_op_checkpointing);
  g_test_add_func ("/activations/compiled", test_compiled_layer);
  g_test_add_func ("/activations/fp8-linear-inputs", test_fp8_linear_inputs);
  g_test_add_func ("/activations/flash-and-checkpointing", test_flash_and_checkpointing);
  g_test_add_func ("/activations/pipeline", test_pipeline_in_flight);
  g_test_add_func ("/activations/qlora-bitsandbytes", test_qlora_bitsandbytes);
  g_test_add_func ("/activations/lora-dropout-widths", test_lora_dropout_widths);
  g_test_add_func ("/activations/gqa-repeat", test_gqa_repeat);
  g_test_add_func ("/activations/head-and-final-norm", test_head_and_final_norm);
  g_test_add_func ("/activations/autocast-copies", test_autocast_copies);
  g_test_add_func ("/activations/relu", test_relu_keeps_its_output);
  g_test_add_func ("/activations/lora-dropout-copy", test_lora_dropout_reads_a_copy);
  g_test_add_func ("/activations/qk-norm", test_qk_norm);
  g_test_add_func ("/activations/moe-routing", test_moe_routing);
  g_test_add_func ("/activations/backward-moments", test_backward_moments);
  g_test_add_func ("/activations/autocast-dropout-scores", test_autocast_dropout_scores);
  g_test_add_func ("/activations/lora-first-layer", test_lora_first_layer);
  g_test_add_func ("/activations/lora-head-and-sandwich", test_lora_head_and_sandwich);
  g_test_add_func ("/activations/encoder-decoder", test_encoder_decoder_layers);
  g_test_add_func ("/activations/state-space", test_ssm_layers);
  g_test_add_func ("/activations/state-space-lora", test_ssm_lora_layers);
  g_test_add_func ("/activations/jamba-lora", test_jamba_lora_layer);
  g_test_add_func ("/activations/nemotron-h-blocks", test_nemotron_h_blocks);
  g_test_add_func ("/activations/latent-moe-block", test_latent_moe_block);
  g_test_add_func ("/activations/granite-moe-layer", test_granite_moe_layer);
  g_test_add_func ("/activations/zamba2-shared-block", test_zamba2_shared_block);
  g_test_add_func ("/activations/zamba2-shared-block-lora", test_zamba2_shared_block_lora);
  g_test_add_func ("/activations/embedding-lora", test_embedding_lora_first_layer);
  g_test_add_func ("/activations/eager-attention-backward", test_eager_attention_backward);
  g_test_add_func ("/activations/ring-attention-backward", test_ring_attention_backward);
  g_test_add_func ("/activations/qkv-moment", test_qkv_moment);
  g_test_add_func ("/activations/attention-buffer", test_attention_buffer);
  g_test_add_func ("/activations/vision-tower", test_vision_tower);
  g_test_add_func ("/activations/llama-3.2-vision", test_mllama);
  g_test_add_func ("/activations/jamba-moe-sum", test_jamba_moe_sum);
  g_test_add_func ("/activations/pipeline-buffers", test_pipeline_buffers);
  g_test_add_func ("/activations/mtp-inputs", test_mtp_inputs);
  return g_test_run ();
}
