/* hr-calc.c: scenario in, per-GPU memory plan out
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For each pipeline stage, every tensor a training step keeps on one GPU
 * becomes an item with the phases of the step it is alive in (forward,
 * the loss's backward, the end of backward, the optimizer step).  The
 * peak is the phase with the most live memory, not the sum of all items
 * (CALC-REFERENCE.md section 6); the items alive then make up the five
 * categories of the chart.
 *
 * Sources: ZeRO paper (Rajbhandari et al. 2020) §3.1 and §5 for model
 * states and their sharding; DeepSpeed's estimators for gather buffers and
 * host memory; Korthikanti et al. 2022 for activations and pipelines
 * (hr-activations.c); QLoRA (Dettmers et al. 2023) §3 for NF4.
 */

#include "hr-calc.h"

#include <glib/gi18n-lib.h>
#include "hr-activations.h"
#include "hr-error.h"
#include "hr-format.h"
#include "hr-optimizers.h"
#include "hr-params.h"
#include "hr-quants.h"
#include "hr-validate.h"

#include <string.h>

#include "hr-calc-private.h"

/* Bytes of all of one parameter's states (hr-optimizers.c has each
 * optimizer's row; Adafactor's factored states are counted elsewhere). */
double
hr_optimizer_state_bytes (HrOptimizer optimizer,
                          HrDtype     state_dtype)
{
  const HrOptimizerInfo *info = hr_optimizer_info (optimizer);

  return info->states * (info->fixed_bytes > 0 ? info->fixed_bytes : hr_dtype_bytes (state_dtype));
}

/* NCCL allocates its channel buffers outside PyTorch (PyTorch docs,
 * "Understanding CUDA memory usage").  On 8x H100 about 1.06 GB per GPU sat
 * outside PyTorch after the first all-reduce, CUDA context included
 * (NVIDIA/nccl#1685): about 512 MiB once the context is taken away. */
double
hr_comm_buffer_auto_mib (const HrScenario *scenario)
{
  if (scenario->overhead.comm_buffer_mib >= 0)
    return scenario->overhead.comm_buffer_mib;
  return scenario->parallel.gpus > 1 ? 512.0 : 0.0;
}

/* cuBLAS's default (ATen/cuda/CublasHandlePool.cpp,
 * parseChosenWorkspaceSize: ":4096:2:16:8", 32 MiB "for Hopper and
 * Blackwell", compute capability 9, 10, 11 and 12); an unknown GPU (0) is
 * taken as one before Hopper. */
double
hr_blas_workspace_mib (const HrGpu *gpu)
{
  if (gpu->blas_workspace_mib >= 0)
    return gpu->blas_workspace_mib;
  return gpu->compute_capability >= 9.0 ? 32.0 : (4096.0 * 2 + 16.0 * 8) / 1024;
}

void
hr_calc_add_item (Ctx        *ctx,
                  HrDevice   *dev,
                  HrCategory  category,
                  HrPool      pool,
                  HrDtype     dtype,
                  guint       live,
                  const char *name,
                  const char *formula,
                  const char *why,
                  double      bytes)
{
  HrItem *item;

  if (!(bytes > 0.5))
    return;
  g_assert (dev->n_items < HR_MAX_ITEMS);
  if (bytes > ctx->too_big)
    ctx->too_big = bytes;
  /* Field by field: a compound literal was built on the stack and copied,
   * twice the stores, on the plan's busiest line. */
  item = &dev->items[dev->n_items++];
  item->category = category;
  item->pool = pool;
  item->dtype = dtype;
  item->live = live;
  item->name = name;
  item->formula = formula;
  item->why = why;
  /* (Through gint64: under 2^53, one instruction, where a conversion
   * to an unsigned 64-bit integer takes a branch and several.) */
  item->bytes = bytes < MAX_DEVICE_BYTES ? (guint64) (gint64) (bytes + 0.5) : (guint64) MAX_DEVICE_BYTES;
}

static void
finish_device (Ctx      *ctx,
               HrDevice *dev,
               HrPlan   *plan)
{
  const HrScenario *sc = ctx->sc;
  double total;
  double frag = sc->overhead.fragmentation;

  double cached[HR_N_PHASES] = { 0 };
  guint64 always = 0;

  /* The BLAS workspaces, which PyTorch takes from the caching allocator
   * at a handle's first matrix product, one handle for the thread that
   * runs the forward pass and one for autograd's backward thread
   * (ATen/cuda/CublasHandlePool.cpp, keyed by handle and stream).
   * cuBLAS's, when the GPU preset gives none: getChosenWorkspaceSize's
   * default, 32 MiB for compute capability 9 to 12, 4096 KiB x 2 +
   * 16 KiB x 8 before; cuBLASLt shares it.  Measured on an H200
   * (tests/reference/measure-stacks.py): every plain run's allocated
   * peak 64 to 68 MiB over its tensors.  ROCm's are the AMD presets'
   * gpu.blas_workspace_mib. */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_ALLOCATOR, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
                    N_("BLAS workspaces"),
                    sc->gpu.blas_workspace_mib >= 0 ? "2·gpu.blas_workspace_mib"
                                                    : "2·cuBLAS workspace (32 MiB from compute capability 9, 8.125 MiB before)",
                    N_("Scratch memory the matrix library keeps, one for the forward pass's thread "
                       "and one for the backward pass's."),
                    2.0 * hr_blas_workspace_mib (&sc->gpu) * HR_MIB);

  memset (dev->phase_bytes, 0, sizeof dev->phase_bytes);
  for (guint i = 0; i < dev->n_items; i++)
    {
      const HrItem *item = &dev->items[i];

      /* Only the phases it is live in: a 16-stage plan has 300 items, and
       * walking every phase of each was a quarter of its time.  The model
       * states, alive in every phase, are summed once. */
      if (item->pool == HR_POOL_ALLOCATOR && item->live == HR_LIVE_ALWAYS)
        always += item->bytes;
      else if (item->pool == HR_POOL_ALLOCATOR)
        for (guint live = item->live; live != 0; live &= live - 1)
          dev->phase_bytes[__builtin_ctz (live)] += item->bytes;
      else if (item->pool == HR_POOL_CACHED)
        for (guint live = item->live; live != 0; live &= live - 1)
          cached[__builtin_ctz (live)] += (double) item->bytes;
    }

  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    dev->phase_bytes[ph] += always;

  /* The peak is the phase that reserves the most: its live tensors, what
   * fragments around them, and the blocks other streams keep (without
   * those, the phase with the most live tensors).  The allocator never
   * gives memory back on its own, so no later phase reserves less. */
  dev->peak_phase = HR_PHASE_FORWARD;
  for (guint ph = 1; ph < HR_N_PHASES; ph++)
    if ((double) dev->phase_bytes[ph] * (1.0 + frag) + cached[ph]
        > (double) dev->phase_bytes[dev->peak_phase] * (1.0 + frag) + cached[dev->peak_phase])
      dev->peak_phase = ph;
  /* max_memory_allocated: the most live in any phase, the peak's unless
   * another stream's blocks made an earlier phase reserve more. */
  dev->allocated_bytes = 0;
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    dev->allocated_bytes = MAX (dev->allocated_bytes, dev->phase_bytes[ph]);

  /* The caching allocator reserves more than is live (CALC-REFERENCE §6):
   * how much depends on where its best fit put every earlier allocation;
   * replays of measured runs through its policy (tests/reference/
   * reserved-replay.py) find 2 to 27 % of the allocated peak, with no rule a
   * scenario could give, so the plan takes overhead.fragmentation's share
   * and the error bar says how far runs of its kind were off. */
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_OUTSIDE, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
            N_("allocator fragmentation"), "allocated·fragmentation",
            N_("Memory PyTorch has reserved but cannot use right now: 2 to 27 percent of the "
               "allocated peak in replays of real runs, depending on where earlier tensors were placed."),
            (double) dev->phase_bytes[dev->peak_phase] * frag);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_OUTSIDE, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
            N_("CUDA context"), "overhead.cuda_context_mib",
            N_("The GPU driver's own memory for kernels and bookkeeping."),
            sc->overhead.cuda_context_mib * HR_MIB);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OVERHEAD, HR_POOL_OUTSIDE, HR_DTYPE_NONE, HR_LIVE_ALWAYS,
            N_("communication buffers (NCCL)"), "overhead.comm_buffer_mib",
            N_("Buffers the GPUs use to talk to each other."),
            hr_comm_buffer_auto_mib (sc) * HR_MIB);

  memset (dev->category_bytes, 0, sizeof dev->category_bytes);
  for (guint i = 0; i < dev->n_items; i++)
    {
      const HrItem *item = &dev->items[i];

      if (!hr_item_is_live_at_peak (dev, item))
        continue;
      dev->category_bytes[item->category] += item->bytes;
    }

  dev->reserved_bytes = dev->phase_bytes[dev->peak_phase]
                        + (guint64) ((double) dev->phase_bytes[dev->peak_phase] * frag + 0.5);
  for (guint i = 0; i < dev->n_items; i++)
    if (dev->items[i].pool == HR_POOL_CACHED && hr_item_is_live_at_peak (dev, &dev->items[i]))
      dev->reserved_bytes += dev->items[i].bytes;
  dev->total_bytes = 0;
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    dev->total_bytes += dev->category_bytes[c];
  total = (double) dev->total_bytes;

  dev->free_bytes = (gint64) plan->capacity_bytes - (gint64) dev->total_bytes;
  if (dev->free_bytes < 0)
    dev->status = HR_STATUS_OOM;
  else if ((guint64) dev->free_bytes < plan->wanted_free_bytes)
    dev->status = HR_STATUS_TIGHT;
  else
    dev->status = HR_STATUS_OK;
  if (total > ctx->too_big)
    ctx->too_big = total;
}

static void
add_warning (HrPlan        *plan,
             HrWarningCode  code,
             guint          device)
{
  if (plan->n_warnings < HR_MAX_WARNINGS)
    plan->warnings[plan->n_warnings++] = (HrWarning) { code, device };
}

/* PREFIX then N in decimal: g_snprintf's format parsing was a tenth of a
 * 16-stage plan (bench-plan), and every plan labels its devices. */
static void
label_with_number (char       *label,
                   gsize       size,
                   const char *prefix,
                   guint64     n)
{
  char digits[24];
  guint i = sizeof digits;
  gsize prefix_len = strlen (prefix);

  digits[--i] = '\0';
  do
    digits[--i] = (char) ('0' + n % 10);
  while ((n /= 10) > 0);
  g_assert (prefix_len + sizeof digits - i <= size);
  memcpy (label, prefix, prefix_len);
  memcpy (label + prefix_len, digits + i, sizeof digits - i);
}

static void
label_device (const HrScenario *sc,
              HrDevice         *dev)
{
  if (sc->parallel.pp > 1)
    label_with_number (dev->label, sizeof dev->label, "Stage ", dev->stage);
  else if (sc->parallel.gpus == 1)
    g_strlcpy (dev->label, "GPU 0", sizeof dev->label);
  else
    label_with_number (dev->label, sizeof dev->label, "GPU 0-", sc->parallel.gpus - 1);
}

/* parallel.stage_layers: the layers device STAGE holds, its chunks
 * STAGE, STAGE + pp, ... of the pp·vpp virtual stages (Megatron's and
 * torchtitan's interleaved assignment), and where its first chunk starts. */
static void
stage_layers_of (const HrParallel *p,
                 guint64           stage,
                 guint64          *first_layer,
                 guint64          *n_layers)
{
  guint64 start = 0;

  *first_layer = 0;
  *n_layers = 0;
  for (guint64 v = 0; v < p->n_stage_layers; v++)
    {
      if (v == stage)
        *first_layer = start;
      if (v % p->pp == stage)
        *n_layers += p->stage_layers[v];
      start += p->stage_layers[v];
    }
}

/* A hybrid's stage: its own layers' kinds averaged, its backward from
 * its last layer to its first. */
static void
hybrid_stage_layers (Ctx            *ctx,
                     const HrDevice *dev)
{
  HrStageKinds k;
  const HrLayerActivations *first, *last;

  hr_calc_stage_kinds (ctx->sc, dev, &k);
  hr_activations_pattern_average (ctx->pattern, k.count, k.last_mixer, k.last_mlp,
                                  &ctx->layer_act);
  first = &ctx->pattern->kind[k.first_mixer][k.first_mlp];
  last = &ctx->pattern->kind[k.last_mixer][k.last_mlp];
  ctx->first_total = first->total;
  /* Full checkpointing recomputes the stage's layers from its last, each
   * beside nearly the same checkpoints: the largest recomputation of the
   * stage's kinds stands for all (an expert block after attention blocks,
   * the reference oracle's patterns), as for Llama 3.2 Vision's two kinds. */
  ctx->last_recompute = last->total - last->checkpoint;
  for (guint a = 0; a < HR_N_LAYER_MIXERS; a++)
    for (guint x = 0; x < HR_N_LAYER_MLPS; x++)
      if (k.count[a][x] > 0)
        ctx->last_recompute = MAX (ctx->last_recompute,
                                   ctx->pattern->kind[a][x].total - ctx->pattern->kind[a][x].checkpoint);
  /* Zamba2's hybrid layer is one checkpointed layer (Zamba2HybridLayer,
   * a GradientCheckpointingLayer): its shared block and its Mamba layer
   * are recomputed together, both their tensors at once. */
  if (k.count[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE] > 0)
    {
      const HrLayerActivations *s = &ctx->pattern->kind[HR_LAYER_MIXER_SHARED][HR_LAYER_MLP_DENSE];
      const HrLayerActivations *m = &ctx->pattern->kind[HR_LAYER_MIXER_SSM][HR_LAYER_MLP_NONE];

      ctx->last_recompute = MAX (ctx->last_recompute, s->total + m->total - m->checkpoint);
    }
}

static void
add_mirror_stage (const Ctx   *ctx,
                  HrDevice    *dev,
                  guint64      base_layers,
                  guint64      extra_layers,
                  StageParams *sp)
{
  const HrParallel *p = &ctx->sc->parallel;
  HrDevice mirror = { 0 };
  StageParams m;

  mirror.stage = p->pp - 1 - dev->stage;
  if (p->n_stage_layers > 0)
    stage_layers_of (p, mirror.stage, &mirror.first_layer, &mirror.n_layers);
  else
    {
      mirror.n_layers = base_layers + (mirror.stage < extra_layers ? 1 : 0);
      mirror.first_layer = mirror.stage * base_layers + MIN (mirror.stage, extra_layers);
    }
  hr_calc_stage_params (ctx, &mirror, &m);
  sp->dense += m.dense;
  sp->experts += m.experts;
  sp->layer = MAX (sp->layer, m.layer);
  sp->outside += m.outside;
  sp->head_weight += m.head_weight;
  sp->linear += m.linear;
  sp->small += m.small;
  sp->lora += m.lora;
  sp->shared += m.shared;
  sp->adafactor += m.adafactor;
  sp->matrices += m.matrices;
  sp->galore_states += m.galore_states;
  sp->galore_projection += m.galore_projection;
}

/* What every stage's plan reads: the scenario's counts per rank, one
 * layer's activations (or, for a hybrid, each kind's in PATTERN), the
 * sizes of its data types, GaLore's projected states. */
static void
ctx_init (const HrScenario *sc,
          Ctx              *ctx,
          HrPatternKinds   *pattern)
{
  const HrParallel *p = &sc->parallel;
  const HrTraining *t = &sc->training;

  ctx->sc = sc;
  hr_params_count (&sc->model, t, p->tp, p->ep, &ctx->counts);
  /* A state-space or hybrid model: the layer the plan multiplies stands
   * for its kinds' average, each stage's own (hybrid_stage_layers); the
   * backward starts at the last layer and ends at the first. */
  if (sc->model.ssm != HR_SSM_NONE || hr_model_mixed_layers (&sc->model))
    {
      /* (each stage's layer: hybrid_stage_layers, below) */
      hr_activations_pattern_kinds (sc, pattern);
      ctx->pattern = pattern;
    }
  else
    {
      hr_activations_layer (sc, &ctx->layer_act);
      ctx->first_total = ctx->layer_act.total;
      ctx->last_recompute = ctx->layer_act.total - ctx->layer_act.checkpoint;
    }
  ctx->shard = (double) hr_parallel_shard_degree (p);
  ctx->shard_expert = MAX (ctx->shard / (double) p->ep, 1.0);
  ctx->weight_bytes = hr_dtype_bytes (t->dtypes.weights);
  ctx->grad_bytes = hr_dtype_bytes (t->dtypes.grads);
  ctx->master_bytes = hr_dtype_bytes (t->dtypes.master);
  ctx->state_dtype_bytes = hr_dtype_bytes (t->dtypes.optimizer);
  ctx->act_bytes = hr_dtype_bytes (t->dtypes.activations);
  ctx->quant_bytes = t->quant < HR_N_QUANTS ? hr_quants[t->quant].bytes_per_param : 2.0;
  ctx->tokens = (double) t->micro_batch * (double) t->seq_len / (double) p->cp;
  if (sc->model.kind == HR_KIND_ENCODER_DECODER)
    hr_calc_seq2seq_layers (ctx);
  if (sc->model.vision == HR_VISION_MLLAMA)
    hr_calc_mllama_layers (ctx);
  ctx->lora = t->method != HR_METHOD_FULL;
  if (hr_optimizer_info (t->optimizer)->projected)
    {
      guint64 states, projection;

      hr_params_galore_layer (&sc->model, p->tp, p->ep, t->galore_rank, &states, &projection);
      ctx->galore_states = (double) states;
      ctx->galore_projection = (double) projection;
      hr_params_galore_dense (&sc->model, p->tp, t->galore_rank, &states, &projection);
      ctx->galore_dense_states = (double) states;
      ctx->galore_dense_projection = (double) projection;
      hr_params_galore_cross (&sc->model, p->tp, t->galore_rank, &states, &projection);
      ctx->galore_cross_states = (double) states;
      ctx->galore_cross_projection = (double) projection;
    }
  ctx->accumulating = t->grad_accum > 1;
}

/* What a stage's model states (weights, gradients, optimizer states:
 * hr_calc_add_model_states) depend on beyond the scenario: its
 * parameters, its layer count, whether it holds the embeddings or the
 * head or is the first stage, and DeepSeek's dense first layers on it.
 * Consecutive middle stages of a deep pipeline hold the same (DeepSeek-V3
 * on 16 stages: 12 of them), and their items are copied rather than
 * worked out again: a third of such a plan's time.  A hybrid's stages
 * differ by the kind of their last layer too, which this does not hold:
 * they are always worked out. */
typedef struct
{
  StageParams sp;
  guint64     n_layers;
  guint64     dense_first;
  gboolean    first;
  gboolean    last;
  gboolean    stage0;
} StatesKey;

typedef struct
{
  gboolean  valid;
  StatesKey key;
  guint64   stage;        /* whose first n_items items are the states */
  guint     n_items;
  double    host_bytes;   /* what they add to ctx->host_bytes */
} StatesMemo;

static void
add_model_states_once (Ctx         *ctx,
                       HrPlan      *plan,
                       HrDevice    *dev,
                       StageParams *sp,
                       StatesMemo  *memo)
{
  const HrScenario *sc = ctx->sc;
  double host_before = ctx->host_bytes;
  StatesKey key;

  if (ctx->counts.mixed || dev->n_items != 0)
    {
      hr_calc_add_model_states (ctx, dev, sp);
      return;
    }
  memset (&key, 0, sizeof key);
  key.sp = *sp;
  key.n_layers = dev->n_layers;
  key.dense_first = hr_calc_dense_first_on_stage (sc, dev->stage, dev->first_layer, dev->n_layers);
  key.first = hr_calc_holds_first (sc, dev->stage);
  key.last = hr_calc_holds_last (sc, dev->stage);
  key.stage0 = dev->stage == 0;
  if (memo->valid && memcmp (&memo->key, &key, sizeof key) == 0)
    {
      memcpy (dev->items, plan->devices[memo->stage].items, memo->n_items * sizeof dev->items[0]);
      dev->n_items = memo->n_items;
      ctx->host_bytes += memo->host_bytes;
      return;
    }
  hr_calc_add_model_states (ctx, dev, sp);
  memo->valid = TRUE;
  /* (bytes, padding too, as memcmp reads them) */
  memcpy (&memo->key, &key, sizeof key);
  memo->stage = dev->stage;
  memo->n_items = dev->n_items;
  memo->host_bytes = ctx->host_bytes - host_before;
}

/* Pipeline stage STAGE on its device: its layers (BASE_LAYERS each, one
 * more for the first EXTRA_LAYERS stages, or parallel.stage_layers), its
 * model states, activations and overheads. */
static void
plan_stage (Ctx        *ctx,
            HrPlan     *plan,
            guint64     stage,
            guint64     base_layers,
            guint64     extra_layers,
            StatesMemo *memo)
{
  const HrScenario *sc = ctx->sc;
  const HrParallel *p = &sc->parallel;
  HrDevice *dev = &plan->devices[stage];
  StageParams sp;

  dev->n_items = 0;
  dev->stage = stage;
  dev->ranks = p->gpus / p->pp;
  if (p->n_stage_layers > 0)
    stage_layers_of (p, stage, &dev->first_layer, &dev->n_layers);
  else
    {
      dev->n_layers = base_layers + (stage < extra_layers ? 1 : 0);
      dev->first_layer = stage * base_layers + MIN (stage, extra_layers);
    }
  label_device (sc, dev);

  /* (every byte set: add_model_states_once compares them) */
  memset (&sp, 0, sizeof sp);
  hr_calc_stage_params (ctx, dev, &sp);
  /* DualPipe: GPU i also holds stage pp - 1 - i, the reverse
   * direction's ("Parameter 2x", DeepSeek-V3 report Table 2;
   * deepseek-ai/DualPipe example_dualpipe.py builds each rank's
   * modules from full_modules[rank] and full_modules[num_ranks - 1 -
   * rank]), and steps both: two stages' weights, gradients and states. */
  if (p->schedule == HR_SCHEDULE_DUALPIPE && p->pp > 1)
    add_mirror_stage (ctx, dev, base_layers, extra_layers, &sp);
  dev->params = (guint64) (sp.dense + sp.experts);
  add_model_states_once (ctx, plan, dev, &sp, memo);
  if (ctx->pattern != NULL)
    hybrid_stage_layers (ctx, dev);
  /* (DeepSeek: the stage's own mix of dense and MoE layers; a pattern's
   * prediction modules are blocks of its kinds, averaged above) */
  else if (sc->model.dense_layers > 0 || sc->model.mtp_modules > 0)
    hr_calc_deepseek_layers (ctx, dev);
  hr_calc_add_activations (ctx, dev, stage);
  if (sc->model.kind == HR_KIND_ENCODER_DECODER)
    hr_calc_add_seq2seq (ctx, dev);
  hr_calc_add_mtp (ctx, dev);
  finish_device (ctx, dev, plan);
}

/* After the stages: a plan too large to hold exactly is refused; the
 * verdict's warnings and the host memory per node of what is offloaded
 * (EXTRA_LAYERS: the stages hold uneven layers). */
static gboolean
plan_finish (Ctx      *ctx,
             HrPlan   *plan,
             guint64   extra_layers,
             GError  **error)
{
  const HrParallel *p = &ctx->sc->parallel;
  const HrTraining *t = &ctx->sc->training;
  double host;

  if (ctx->too_big >= MAX_DEVICE_BYTES)
    {
      hr_error_set_field (error, HR_ERROR_INVALID, "training",
                          _("this plan needs about %.3g bytes on one GPU, more than Headroom "
                            "can represent exactly; allowed: plans under 1 PiB per GPU (lower "
                            "training.micro_batch or training.seq_len)"), ctx->too_big);
      return FALSE;
    }

  plan->fits = plan->status != HR_STATUS_OOM;
  if (plan->status == HR_STATUS_OOM)
    add_warning (plan, HR_WARNING_OOM, plan->binding_device);
  else if (plan->status == HR_STATUS_TIGHT)
    add_warning (plan, HR_WARNING_TIGHT, plan->binding_device);
  if (hr_optimizer_info (t->optimizer)->paged)
    add_warning (plan, HR_WARNING_PAGED, 0);

  /* Offloaded bytes per rank, averaged over the stages, times the ranks
   * of a node; DeepSpeed's estimators add a 1.5x buffer factor
   * (estimate_zero3_model_states_mem_needs, additional_buffer_factor). */
  host = ctx->host_bytes / (double) p->pp * (double) MIN (p->gpus_per_node, p->gpus) * 1.5;
  if (!(host < MAX_DEVICE_BYTES * 64))
    {
      /* Converting a larger double to guint64 is undefined behaviour, and
       * 6e21 once came out as 0, hiding the host-RAM warning. */
      hr_error_set_field (error, HR_ERROR_INVALID, "parallel.offload_optimizer",
                          _("the offloaded states need about %.3g bytes of host memory per "
                            "node, more than Headroom can represent exactly; allowed: under "
                            "64 PiB per node (use more nodes, or offload less)"), host);
      return FALSE;
    }
  plan->host_bytes_per_node = (guint64) host;
  if (plan->host_bytes_per_node > 0)
    add_warning (plan, HR_WARNING_HOST_RAM, 0);
  if (extra_layers != 0)
    add_warning (plan, HR_WARNING_UNEVEN_LAYERS, 0);
  return TRUE;
}

gboolean
hr_calc_plan (const HrScenario  *sc,
              HrPlan            *plan,
              GError           **error)
{
  const HrParallel *p = &sc->parallel;
  Ctx ctx = { 0 };
  StatesMemo memo = { 0 };
  HrPatternKinds pattern;
  guint64 base_layers, extra_layers;
  gint64 least_free = G_MAXINT64;

  g_return_val_if_fail (sc != NULL, FALSE);
  g_return_val_if_fail (plan != NULL, FALSE);

  if (!hr_scenario_validate (sc, error))
    return FALSE;

  ctx_init (sc, &ctx, &pattern);
  plan->params = ctx.counts.total;
  plan->active_params = ctx.counts.active;
  /* (A frozen vision tower and Whisper's sinusoidal encoder positions are
   * weights that do not train.) */
  plan->trainable_params = ctx.lora ? ctx.counts.lora_total
                         : ctx.counts.total - ctx.counts.frozen
                           - (sc->training.freeze_vision ? ctx.counts.vision : 0);
  plan->capacity_bytes = sc->gpu.memory_mib * 1024 * 1024;
  plan->wanted_free_bytes = (guint64) (sc->overhead.headroom * (double) plan->capacity_bytes);
  plan->n_warnings = 0;
  plan->fits = TRUE;
  plan->status = HR_STATUS_OK;

  hr_plan_reserve_devices (plan, (guint) p->pp);
  plan->n_devices = (guint) p->pp;
  base_layers = hr_model_stack_layers (&sc->model) / p->pp;
  extra_layers = p->n_stage_layers > 0 ? 0 : hr_model_stack_layers (&sc->model) % p->pp;

  for (guint64 stage = 0; stage < p->pp; stage++)
    {
      const HrDevice *dev = &plan->devices[stage];

      plan_stage (&ctx, plan, stage, base_layers, extra_layers, &memo);
      if (dev->free_bytes < least_free)
        {
          least_free = dev->free_bytes;
          plan->binding_device = (guint) stage;
        }
      if (dev->status > plan->status)
        plan->status = dev->status;
    }

  return plan_finish (&ctx, plan, extra_layers, error);
}
