/* hr-suggest.c: ranked changes that make a plan fit
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each candidate is one change a user could make in the form; the search
 * plans every applicable change, then pairs of them when no single change
 * is enough.  A plan costs microseconds, so the whole search is a few
 * hundred plans: well under a millisecond for most scenarios.  The costs
 * quoted are the known ones: full recomputation re-runs the forward pass
 * (+33 % of forward + backward, Korthikanti et al. §5), ZeRO-3 moves 1.5x
 * the data of plain data parallelism (ZeRO paper §7).
 */

#include "hr-suggest.h"
#include "hr-optimizers.h"
#include "hr-calc.h"
#include "hr-format.h"
#include "hr-attentions.h"
#include "hr-losses.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef gboolean (*ApplyFunc) (HrScenario *sc,
                               char       *title,
                               gsize       size);

typedef struct
{
  ApplyFunc   apply;
  guint       expense;   /* rank among fitting suggestions: cheap first */
  const char *cost;
} Change;

#define TITLE(...) g_snprintf (title, size, __VA_ARGS__)

static gboolean
full_checkpointing (HrScenario *sc, char *title, gsize size)
{
  if (sc->training.checkpointing == HR_CHECKPOINTING_FULL && sc->training.checkpoint_every == 1)
    return FALSE;
  sc->training.checkpointing = HR_CHECKPOINTING_FULL;
  sc->training.checkpoint_every = 1;
  TITLE ("%s", _("Full activation checkpointing"));
  return TRUE;
}

static gboolean
selective_checkpointing (HrScenario *sc, char *title, gsize size)
{
  if (sc->training.checkpointing != HR_CHECKPOINTING_NONE
      || !hr_attentions[sc->training.attention].scores)
    return FALSE;
  sc->training.checkpointing = HR_CHECKPOINTING_SELECTIVE;
  TITLE ("%s", _("Selective recomputation of attention"));
  return TRUE;
}

static gboolean
zero_up (HrScenario *sc, char *title, gsize size)
{
  guint64 from = sc->parallel.zero;

  if (from >= 3 || hr_parallel_shard_degree (&sc->parallel) < 2)
    return FALSE;
  sc->parallel.zero = from == 0 ? 1 : 3;
  if (from == 0)
    TITLE (_("ZeRO-1 (shard the optimizer states)"));
  else
    TITLE (_("ZeRO-3 / FSDP full sharding instead of ZeRO-%u"), (guint) from);
  return TRUE;
}

static gboolean
zero_two (HrScenario *sc, char *title, gsize size)
{
  if (sc->parallel.zero >= 2 || hr_parallel_shard_degree (&sc->parallel) < 2)
    return FALSE;
  TITLE (_("ZeRO-2 instead of ZeRO-%u"), (guint) sc->parallel.zero);
  sc->parallel.zero = 2;
  return TRUE;
}

static gboolean
offload_optimizer (HrScenario *sc, char *title, gsize size)
{
  if (sc->parallel.offload_optimizer)
    return FALSE;
  sc->parallel.offload_optimizer = TRUE;
  if (sc->parallel.zero == 0)
    sc->parallel.zero = 1;
  TITLE ("%s", _("Offload the optimizer to the CPU"));
  return TRUE;
}

static gboolean
offload_params (HrScenario *sc, char *title, gsize size)
{
  if (sc->parallel.offload_params || sc->parallel.zero != 3)
    return FALSE;
  sc->parallel.offload_params = TRUE;
  TITLE ("%s", _("Offload the parameters to the CPU"));
  return TRUE;
}

static gboolean
halve_micro_batch (HrScenario *sc, char *title, gsize size)
{
  guint64 from = sc->training.micro_batch;

  if (from < 2)
    return FALSE;
  sc->training.micro_batch = (from + 1) / 2;
  sc->training.grad_accum *= 2;
  TITLE (_("Micro-batch %llu → %llu with gradient accumulation ×2"),
         (unsigned long long) from, (unsigned long long) sc->training.micro_batch);
  return TRUE;
}

/* The largest micro-batch that leaves the wanted headroom while the
 * optimizer step sees the same tokens: micro-batch x accumulation steps
 * stays b·a, so the micro-batch is a divisor of b·a (32 x 1 becomes 16 x 2
 * or 8 x 4; 12 x 3 would be 36).  Tried from the largest divisor down,
 * each planned: with pipeline parallelism the accumulation steps are the
 * schedule's micro-batches, which change what is in flight. */
static gboolean
fitting_micro_batch (HrScenario *sc, char *title, gsize size)
{
  g_autoptr(HrPlan) plan = NULL;
  guint64 from = sc->training.micro_batch, steps = from * sc->training.grad_accum;

  if (from < 2 || steps / sc->training.grad_accum != from)
    return FALSE;
  plan = hr_plan_new ();
  for (guint64 b = from - 1; b >= 1; b--)
    {
      HrScenario trial = *sc;

      if (steps % b != 0)
        continue;
      trial.training.micro_batch = b;
      trial.training.grad_accum = steps / b;
      if (hr_calc_plan (&trial, plan, NULL) && plan->status == HR_STATUS_OK)
        {
          *sc = trial;
          /* TRANSLATORS: the micro-batch and how many of them make one
           * optimizer step */
          TITLE (_("Micro-batch %llu with %llu accumulation steps (same tokens per step)"),
                 (unsigned long long) b, (unsigned long long) trial.training.grad_accum);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
tensor_parallel_up (HrScenario *sc, char *title, gsize size)
{
  HrParallel *p = &sc->parallel;
  guint64 to = p->tp * 2;

  if (sc->model.heads % to != 0 || p->gpus % (to * p->pp * p->cp) != 0 || to > p->gpus_per_node)
    return FALSE;
  TITLE (_("Tensor parallel %llu → %llu"), (unsigned long long) p->tp, (unsigned long long) to);
  p->tp = to;
  return TRUE;
}

static gboolean
sequence_parallel (HrScenario *sc, char *title, gsize size)
{
  if (sc->parallel.sp || sc->parallel.tp < 2)
    return FALSE;
  sc->parallel.sp = TRUE;
  TITLE ("%s", _("Sequence parallelism"));
  return TRUE;
}

static gboolean
pipeline_parallel_up (HrScenario *sc, char *title, gsize size)
{
  HrParallel *p = &sc->parallel;
  guint64 to = p->pp * 2;

  if (sc->model.layers < to || p->gpus % (p->tp * to * p->cp) != 0
      || (p->vpp > 1 && sc->model.layers % (to * p->vpp) != 0))
    return FALSE;
  TITLE (_("Pipeline parallel %llu → %llu"), (unsigned long long) p->pp, (unsigned long long) to);
  p->pp = to;
  if (sc->training.grad_accum < to)
    sc->training.grad_accum = to;
  return TRUE;
}

static gboolean
bf16_mixed (HrScenario *sc, char *title, gsize size)
{
  HrTraining *t = &sc->training;

  if (t->precision != HR_PRECISION_FP32 && t->precision != HR_PRECISION_AMP_BF16
      && t->precision != HR_PRECISION_AMP_FP16)
    return FALSE;
  t->precision = HR_PRECISION_BF16_MIXED;
  t->dtypes_set = 0;
  hr_training_apply_precision (t);
  TITLE ("%s", _("bf16 mixed precision with fp32 master weights"));
  return TRUE;
}

static gboolean
bf16_true (HrScenario *sc, char *title, gsize size)
{
  HrTraining *t = &sc->training;

  if (t->precision == HR_PRECISION_BF16_TRUE || t->method != HR_METHOD_FULL)
    return FALSE;
  t->precision = HR_PRECISION_BF16_TRUE;
  t->dtypes_set = 0;
  hr_training_apply_precision (t);
  TITLE ("%s", _("Pure bf16 (no fp32 master weights)"));
  return TRUE;
}

static gboolean
adam_8bit (HrScenario *sc, char *title, gsize size)
{
  HrTraining *t = &sc->training;

  if (hr_optimizer_info (t->optimizer)->smaller < 0)
    return FALSE;
  t->optimizer = (HrOptimizer) hr_optimizer_info (t->optimizer)->smaller;
  TITLE ("%s", _("8-bit AdamW (bitsandbytes)"));
  return TRUE;
}

static gboolean
use_lora (HrScenario *sc, char *title, gsize size)
{
  HrTraining *t = &sc->training;

  if (t->method != HR_METHOD_FULL)
    return FALSE;
  t->method = HR_METHOD_LORA;
  t->lora.rank = 16;
  t->lora.targets = HR_LORA_ALL_LINEAR;
  TITLE ("%s", _("LoRA, rank 16 on every linear layer"));
  return TRUE;
}

static gboolean
use_qlora (HrScenario *sc, char *title, gsize size)
{
  HrTraining *t = &sc->training;

  if (t->method != HR_METHOD_LORA)
    return FALSE;
  t->method = HR_METHOD_QLORA;
  t->quant = HR_QUANT_NF4_DQ;
  TITLE ("%s", _("QLoRA: a 4-bit frozen base"));
  return TRUE;
}

static gboolean
halve_rank (HrScenario *sc, char *title, gsize size)
{
  HrTraining *t = &sc->training;

  if (t->method == HR_METHOD_FULL || t->lora.rank < 8)
    return FALSE;
  TITLE (_("LoRA rank %llu → %llu"), (unsigned long long) t->lora.rank,
         (unsigned long long) t->lora.rank / 2);
  t->lora.rank /= 2;
  return TRUE;
}

static gboolean
flash_attention (HrScenario *sc, char *title, gsize size)
{
  if (sc->training.attention == HR_ATTENTION_FLASH)
    return FALSE;
  sc->training.attention = HR_ATTENTION_FLASH;
  TITLE ("%s", _("FlashAttention"));
  return TRUE;
}

static gboolean
chunked_loss (HrScenario *sc, char *title, gsize size)
{
  const HrLossInfo *loss = &hr_losses[sc->training.loss];

  /* a loss over the whole logits that a chunked one can replace */
  if (!loss->logits || loss->chunked || loss->own_softmax || sc->model.head != HR_HEAD_LM)
    return FALSE;
  sc->training.loss = HR_LOSS_CHUNKED;
  TITLE ("%s", _("Chunked cross-entropy"));
  return TRUE;
}

/* A QLoRA loop that keeps the last loss holds the previous micro-batch's
 * 4-bit matmul inputs into the next forward; `del loss` before it (or
 * Hugging Face's Trainer, which returns only a detached loss) frees them. */
static gboolean
release_previous_graph (HrScenario *sc, char *title, gsize size)
{
  if (!sc->training.previous_graph_alive || sc->training.method != HR_METHOD_QLORA)
    return FALSE;
  sc->training.previous_graph_alive = FALSE;
  TITLE ("%s", _("Free the last loss and logits before the next forward"));
  return TRUE;
}

static gboolean
more_gpus (HrScenario *sc, char *title, gsize size)
{
  HrParallel *p = &sc->parallel;

  if (p->zero == 0 || p->shard_group > 0 || p->gpus * 2 > (1u << 24))
    return FALSE;
  TITLE (_("%llu GPUs instead of %llu"), (unsigned long long) p->gpus * 2,
         (unsigned long long) p->gpus);
  p->gpus *= 2;
  return TRUE;
}

/* The first change of an equal outcome names it: the micro-batch that
 * fits comes before the halving that may give the same scenario. */
static const Change changes[] = {
  { fitting_micro_batch, 1, N_("the same tokens per step in more, smaller micro-batches") },
  { flash_attention, 0, N_("none, where the GPU supports it") },
  { chunked_loss, 0, N_("none: the loss is computed chunk by chunk (LitGPT, torchtune)") },
  { release_previous_graph, 0, N_("none: `del loss, logits` after backward() frees the last graph") },
  { sequence_parallel, 0, N_("no more communication than tensor parallelism alone") },
  { selective_checkpointing, 1, N_("a few per cent more compute") },
  { halve_micro_batch, 1, N_("the same global batch in twice the steps") },
  { zero_two, 2, N_("the same communication as data parallelism") },
  { zero_up, 2, N_("more communication (ZeRO-3 moves 1.5× the data of data parallelism)") },
  { adam_8bit, 2, N_("8-bit optimizer states; quality is usually unchanged") },
  /* xgettext:no-c-format */
  { full_checkpointing, 3, N_("about +33 % compute: the forward pass runs twice") },
  { tensor_parallel_up, 3, N_("an all-reduce in every layer: keep it within a node") },
  { pipeline_parallel_up, 3, N_("a pipeline bubble; more micro-batches shrink it") },
  { bf16_mixed, 3, N_("needs a GPU with bf16") },
  { use_lora, 4, N_("trains adapters only, not the whole model") },
  { offload_optimizer, 4, N_("the optimizer step runs on the CPU: slower steps, host RAM") },
  { bf16_true, 4, N_("may hurt convergence without fp32 master weights") },
  { halve_rank, 4, N_("a smaller adapter") },
  { use_qlora, 5, N_("slower matrix multiplies (dequantization)") },
  { offload_params, 5, N_("parameters stream from the CPU: much slower steps") },
  { more_gpus, 5, N_("twice the GPUs") },
};

typedef struct
{
  HrSuggestion s;
  guint        expense;
  guint        n_changes;
} Candidate;

static guint64
fullest (const HrPlan *plan)
{
  return hr_plan_binding (plan)->total_bytes;
}

/* What the scenario itself needs, to compare each change with. */
typedef struct
{
  guint64 fullest;
  guint64 host_bytes;
} Before;

/* Plans the change; its cost names the host RAM only when the change
 * changes it (an offload), not again under every suggestion of a plan
 * that offloads already: the plan's own verdict says that once. */
static gboolean
evaluate (const HrScenario *trial,
          HrPlan           *work,
          const Before     *before,
          Candidate        *c)
{
  if (!hr_calc_plan (trial, work, NULL))
    return FALSE;
  c->s.scenario = *trial;
  c->s.total_bytes = fullest (work);
  c->s.saves_bytes = (gint64) before->fullest - (gint64) c->s.total_bytes;
  c->s.status = work->status;
  if (work->host_bytes_per_node > 0)
    {
      g_autofree char *host = hr_format_bytes ((double) work->host_bytes_per_node, HR_UNITS_BINARY);
      g_autofree char *was = hr_format_bytes ((double) before->host_bytes, HR_UNITS_BINARY);
      gsize len = strlen (c->s.cost);

      if (before->host_bytes == 0)
        g_snprintf (c->s.cost + len, sizeof c->s.cost - len,
                    _("; needs %s of host RAM per node"), host);
      else if (!g_str_equal (host, was))   /* unchanged in words: nothing to say */
        /* TRANSLATORS: the host RAM an offload needs, before and after */
        g_snprintf (c->s.cost + len, sizeof c->s.cost - len, _("; host RAM per node %s → %s"),
                    was, host);
    }
  return c->s.saves_bytes > 0;
}

/* Two changes that make the same scenario are one suggestion.  Every
 * trial is a copy of the one scenario with fields set, so its bytes,
 * padding included, compare. */
static gboolean
already_found (GArray           *found,
               const HrScenario *trial)
{
  for (guint i = 0; i < found->len; i++)
    if (memcmp (&g_array_index (found, Candidate, i).s.scenario, trial, sizeof *trial) == 0)
      return TRUE;
  return FALSE;
}

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->s.status != y->s.status)
    return x->s.status < y->s.status ? -1 : 1;
  if (x->s.status != HR_STATUS_OOM && x->n_changes != y->n_changes)
    return x->n_changes < y->n_changes ? -1 : 1;
  if (x->s.status != HR_STATUS_OOM && x->expense != y->expense)
    return x->expense < y->expense ? -1 : 1;
  if (x->s.saves_bytes != y->s.saves_bytes)
    return x->s.saves_bytes > y->s.saves_bytes ? -1 : 1;
  return 0;
}

guint
hr_suggest (const HrScenario  *scenario,
            HrPlan            *work,
            HrSuggestion      *out,
            guint              max,
            GError           **error)
{
  return hr_suggest_where (scenario, work, out, max, NULL, NULL, error);
}

guint
hr_suggest_where (const HrScenario  *scenario,
                  HrPlan            *work,
                  HrSuggestion      *out,
                  guint              max,
                  HrSuggestAllowed   allowed,
                  gpointer           data,
                  GError           **error)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Candidate));
  Before before;
  gboolean single_fits = FALSE;
  guint n = 0;

  g_return_val_if_fail (scenario != NULL && work != NULL && out != NULL, 0);

  if (!hr_calc_plan (scenario, work, error))
    return 0;
  before.fullest = fullest (work);
  before.host_bytes = work->host_bytes_per_node;

  for (guint i = 0; i < G_N_ELEMENTS (changes); i++)
    {
      HrScenario trial = *scenario;
      Candidate c = { 0 };

      if (!changes[i].apply (&trial, c.s.title, sizeof c.s.title)
          || (allowed != NULL && !allowed (&trial, data)))
        continue;
      g_strlcpy (c.s.cost, _(changes[i].cost), sizeof c.s.cost);
      c.expense = changes[i].expense;
      c.n_changes = 1;
      if (evaluate (&trial, work, &before, &c) && !already_found (found, &trial))
        {
          single_fits |= c.s.status == HR_STATUS_OK;
          g_array_append_val (found, c);
        }
    }

  /* When no single change leaves the wanted headroom, pairs may. */
  if (!single_fits)
    for (guint i = 0; i < G_N_ELEMENTS (changes); i++)
      for (guint j = i + 1; j < G_N_ELEMENTS (changes); j++)
        {
          HrScenario trial = *scenario;
          Candidate c = { 0 };
          char first[80], second[80];

          if (!changes[i].apply (&trial, first, sizeof first)
              || !changes[j].apply (&trial, second, sizeof second)
              || (allowed != NULL && !allowed (&trial, data)))
            continue;
          g_snprintf (c.s.title, sizeof c.s.title, "%s + %s", first, second);
          g_snprintf (c.s.cost, sizeof c.s.cost, "%s; %s", _(changes[i].cost), _(changes[j].cost));
          c.expense = MAX (changes[i].expense, changes[j].expense);
          c.n_changes = 2;
          if (evaluate (&trial, work, &before, &c) && c.s.status == HR_STATUS_OK
              && !already_found (found, &trial))
            g_array_append_val (found, c);
        }

  g_array_sort (found, compare_candidates);
  for (guint i = 0; i < found->len && n < max; i++)
    out[n++] = g_array_index (found, Candidate, i).s;

  /* Leave work holding the scenario's own plan. */
  hr_calc_plan (scenario, work, NULL);
  return n;
}
