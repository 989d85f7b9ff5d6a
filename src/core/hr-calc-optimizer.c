/* hr-calc-optimizer.c: what the optimizer keeps on one GPU of one stage
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fp32 master copy, the optimizer's states (one row of
 * hr-optimizers.c each: bytes per state, paged, quantized, factored; Muon's
 * and GaLore's split of the matrices from the rest) and the scratch its
 * step makes, sharded as ZeRO's stages say, or their bytes on the host when
 * they are offloaded.  Weights and gradients are hr-calc-states.c's.
 */

#include "hr-calc-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include "hr-optimizers.h"

/* The widest input or output of a LoRA adapter, whose r x that matrix is
 * the largest trainable tensor: the hidden size, the query heads' width or
 * the MLP's (an expert's). */
static double
widest_adapted_side (const HrModelArch *m)
{
  return (double) MAX (MAX (m->hidden, m->heads * hr_model_head_dim (m)),
                       m->experts > 1 ? hr_model_expert_ffn (m) : m->ffn);
}

/* The largest table outside the layers, as one rank holds it: the
 * vocabulary (split by tensor parallelism) or learned positions. */
static double
largest_table (const HrScenario *sc)
{
  const HrModelArch *m = &sc->model;

  return MAX ((double) (m->vocab * m->hidden / MAX (sc->parallel.tp, 1)),
              (double) (m->learned_positions * m->hidden));
}

/* The step's temporaries: PyTorch's foreach path materialises one
 * state-sized tensor for all parameters at once (torch.optim.adamw
 * _multi_tensor_adamw: exp_avg_sq.sqrt()); fused kernels none; the
 * per-parameter loop one parameter's worth.  With the step in the
 * backward pass every parameter has its own optimizer (torchtune's
 * recipes, _setup_optimizer: optim_dict = {p: instantiate
 * (cfg_optimizer, [p])}, stepped by training/memory.py
 * register_optim_in_bwd_hooks as its gradient is ready), so the
 * foreach path's list is one tensor: one parameter's worth, during
 * the backward pass. */
static void
add_step_scratch (Ctx                   *ctx,
                  HrDevice              *dev,
                  const HrOptimizerInfo *optimizer,
                  double                 trainable_here)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  double temp = 0;
  gboolean per_param = t->optimizer_in_backward;

  if (t->optimizer_impl == HR_OPTIMIZER_IMPL_FOREACH && !per_param)
    temp = trainable_here * ctx->state_dtype_bytes;
  else if (t->optimizer_impl == HR_OPTIMIZER_IMPL_LOOP || optimizer->factored
           || (per_param && t->optimizer_impl == HR_OPTIMIZER_IMPL_FOREACH))
    {
      /* One tensor at a time, the largest trainable one: a weight
       * matrix (a trained vision tower's and projector's among
       * them), the vocabulary table, or an adapter's matrix.
       * Adam's single-tensor step makes two at once (torch/optim/
       * adamw.py, _single_tensor_adamw: denom = (exp_avg_sq.sqrt()
       * / bias_correction2_sqrt).add_(eps)). */
      const HrModelArch *m = &sc->model;
      double largest = ctx->lora
        ? (double) t->lora.rank * widest_adapted_side (m)
        : MAX (MAX ((double) ctx->counts.largest_linear,
                    dev->stage == 0 ? (double) hr_params_vision_largest (m, !t->freeze_vision) : 0.0),
               largest_table (sc));

      /* (_multi_tensor_adamw on one tensor: exp_avg_sq_sqrt,
       * one tensor, divided and shifted in place.) */
      temp = (optimizer->states == 2 && !optimizer->factored
              && t->optimizer_impl != HR_OPTIMIZER_IMPL_FOREACH ? 2.0 : 1.0)
             * largest * ctx->state_dtype_bytes;
    }
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.optimizer,
            per_param ? HR_LIVE_BACKWARD : HR_LIVE (HR_PHASE_STEP), N_("optimizer step temporaries"),
            t->optimizer_impl == HR_OPTIMIZER_IMPL_FOREACH && !per_param
            ? "P_trainable·state bytes (foreach)" : "largest tensor·state bytes",
            N_("Scratch space the optimizer needs while it updates the weights."),
            MIN (temp, trainable_here * ctx->state_dtype_bytes));
}

/* GaLore's projection matrices (r x m for each m x n matrix, m <= n)
 * are made from the gradient the optimizer steps on, in its type
 * (get_orthogonal_matrix: B.type (original_type)): the fp32 master
 * gradients under mixed precision.  Its step, a per-parameter loop
 * (galore_torch/adamw.py), at its worst: every update_proj_gap steps
 * torch.linalg.svd (full_matrices=False) of the largest matrix, in
 * fp32 (a copy when the gradient is not), U m x m, S m, Vh m x n;
 * every step project_back's m x n result and its scaled copy; and
 * HF AdamW's denom and exp_avg / denom for the largest plain tensor,
 * the embedding or the head.  The gap sets how often the SVD runs,
 * not how much memory it takes. */
static void
add_galore_scratch (Ctx               *ctx,
                    HrDevice          *dev,
                    const StageParams *sp,
                    double             trainable,
                    double             trainable_here)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  double share = trainable > 0 ? trainable_here / trainable : 0.0;
  double grad_bytes = t->dtypes.master != HR_DTYPE_NONE ? ctx->master_bytes : ctx->grad_bytes;
  double h = (double) MAX (m->hidden, 1);
  double big = (double) ctx->counts.largest_linear;
  double lo = MIN (h, big / h), hi = big / MAX (lo, 1.0);
  double svd = (grad_bytes == 4.0 ? 0.0 : 4.0 * big) + 4.0 * (lo * lo + lo + lo * hi);
  double back = 2.0 * big * grad_bytes;
  double adam = sp->outside > 0
                ? 2.0 * MIN (largest_table (sc), trainable_here) * ctx->state_dtype_bytes
                : 0.0;

  hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR,
            t->dtypes.master != HR_DTYPE_NONE ? t->dtypes.master : t->dtypes.grads,
            HR_LIVE_ALWAYS, N_("GaLore projection matrices"), "r·m per m x n matrix (m <= n)",
            N_("GaLore keeps one small matrix per weight matrix to project its gradient."),
            sp->galore_projection * share * grad_bytes);
  hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, HR_DTYPE_FP32,
            HR_LIVE (HR_PHASE_STEP), N_("GaLore step scratch (SVD, projection back)"),
            "max(SVD of the largest matrix·4, 2·m·n·bytes, 2·embedding·state bytes)",
            N_("GaLore's step refreshes its projections by an SVD and projects updates back."),
            MAX (MAX (svd, back), adam));
}

/* Muon orthogonalises one matrix's update at a time, in bf16
 * (KellerJordan/Muon muon.py, zeropower_via_newtonschulz5; Moonlight
 * toy_train.py has the same): X = G.bfloat16() turned so that it is
 * n x m with n <= m, normalised into a new X, then five times
 * A = X @ X.mT (n x n), B = b*A + c*A@A (n x n), X = a*X + B@X.  At
 * the last line the old X, a*X, B@X and their sum (n x m each) and
 * A and B are alive: (4·n·m + 2·n²)·2 bytes for the largest matrix.
 * Every hidden matrix of these models has the hidden size on one
 * side, so n = min(h, elements / h); LoRA's adapters have the rank.
 * Its AdamW part (adam_update) steps one tensor at a time too and
 * holds buf1c, buf2c, buf2c.sqrt() + eps and their quotient at once:
 * four of the largest such tensor, the embedding or the head, on the
 * stages that hold them.  The two run one after the other. */
static void
add_muon_scratch (Ctx               *ctx,
                  HrDevice          *dev,
                  const StageParams *sp,
                  double             trainable_here)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrModelArch *m = &sc->model;
  double h = (double) MAX (m->hidden, 1);
  double big, n, other = 0;

  if (ctx->lora)
    {
      n = (double) t->lora.rank;
      big = n * widest_adapted_side (m);
    }
  else
    {
      big = (double) ctx->counts.largest_linear;
      n = MIN (h, big / h);
      if (sp->outside > 0)
        other = largest_table (sc);
    }
  double ns = (4.0 * big + 2.0 * n * n) * 2.0;
  double adam = 4.0 * MIN (other, trainable_here) * ctx->state_dtype_bytes;

  hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR,
            ns >= adam ? HR_DTYPE_BF16 : t->dtypes.optimizer,
            HR_LIVE (HR_PHASE_STEP), N_("Newton–Schulz scratch (Muon step)"),
            "max((4·n·m + 2·n²)·2 of the largest matrix, 4·embedding·state bytes)",
            N_("Muon orthogonalises each matrix's update in bf16, one matrix at a time."),
            MAX (ns, adam));
}

/* The fp32 master copy (counted here, as in the ZeRO paper), the
 * optimizer's states and what its step makes, for TRAINABLE_HERE
 * parameters, or their bytes on the host when offloaded. */
void
hr_calc_add_optimizer (Ctx               *ctx,
                       HrDevice          *dev,
                       const StageParams *sp,
                       double             trainable,
                       double             trainable_here)
{
  const HrScenario *sc = ctx->sc;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean zero3 = p->zero == 3;
  gboolean ds = hr_calc_deepspeed_engine (p);
  const HrOptimizerInfo *optimizer = hr_optimizer_info (t->optimizer);
  gboolean paged = optimizer->paged;
  double state_bytes;

  if (optimizer->factored)
    state_bytes = (ctx->lora ? trainable : sp->adafactor) / MAX (trainable, 1.0)
                  * ctx->state_dtype_bytes;
  else if (optimizer->by_shape)
    {
      /* Muon: the hidden matrices' share of the parameters keeps one
       * state, the rest AdamW's two; LoRA's trainables are all adapter
       * matrices (2-D, so Muon's by its ndim >= 2 rule). */
      double all = sp->dense + sp->experts;
      double matrices = ctx->lora ? 1.0 : (all > 0 ? sp->matrices / all : 0.0);

      state_bytes = (matrices * optimizer->matrix_states + (1.0 - matrices) * optimizer->states)
                    * ctx->state_dtype_bytes;
    }
  else if (optimizer->projected)
    {
      /* GaLore: the matrices' exp_avg and exp_avg_sq at rank r, AdamW's
       * two states for the rest (galore_torch/adamw.py, AdamW.step). */
      double all = sp->dense + sp->experts;

      state_bytes = all > 0 ? (sp->galore_states + 2.0 * (all - sp->matrices)) / all
                              * ctx->state_dtype_bytes
                            : 0.0;
    }
  else
    state_bytes = hr_optimizer_state_bytes (t->optimizer, t->dtypes.optimizer);

  if (p->offload_optimizer)
    {
      /* On NVMe (ZeRO-Infinity) the master weights and states take no
       * host RAM; the fp32 gradient partition the CPU steps on stays in
       * pinned host memory (DeepSpeed stage3.py grad_partitions_flat_buffer). */
      ctx->host_bytes += trainable_here
                         * (p->offload_optimizer_device == HR_OFFLOAD_DEVICE_NVME
                            ? 4.0 : ctx->master_bytes + state_bytes + 4.0);
    }
  else
    {
      /* (Split into parts where every parameter has its own states:
       * factored, Muon's and GaLore's states are not a parameter's.) */
      gboolean states_per_param = !optimizer->factored && !optimizer->by_shape
                                  && !optimizer->projected;

      hr_calc_add_state_item (ctx, dev, sp, HR_STATE_MASTER, p->zero >= 1, ctx->master_bytes,
                HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.master,
                HR_LIVE_ALWAYS, N_("master weights"),
                p->zero >= 1 ? "P_trainable·bytes / N (ZeRO-1+)" : "P_trainable·bytes",
                N_("A full-precision copy of the weights that the optimizer updates."),
                trainable_here * ctx->master_bytes);
      hr_calc_add_state_item (ctx, dev, sp, states_per_param ? HR_STATE_OPTIMIZER : HR_N_STATES,
                p->zero >= 1, state_bytes,
                HR_CATEGORY_OPTIMIZER, paged ? HR_POOL_MANAGED : HR_POOL_ALLOCATOR,
                optimizer->quantized ? HR_DTYPE_NONE
                  : optimizer->fixed_bytes == 4.0 ? HR_DTYPE_FP32 : t->dtypes.optimizer,
                HR_LIVE_ALWAYS,
                paged ? N_("optimizer states (paged)") : N_("optimizer states"),
                optimizer->by_shape ? "(P_matrices·1 + P_rest·2)·state bytes (Muon)"
                : optimizer->projected ? "(Σ 2·r·n per m x n matrix, m <= n, + P_rest·2)·state bytes (GaLore)"
                : p->zero >= 1 ? "P_trainable·state bytes / N (ZeRO-1+)" : "P_trainable·state bytes",
                N_("The optimizer's running statistics, e.g. Adam's two averages per weight."),
                trainable_here * state_bytes);

      if (optimizer->step_scratch && !paged)
        add_step_scratch (ctx, dev, optimizer, trainable_here);

      if (optimizer->projected)
        add_galore_scratch (ctx, dev, sp, trainable, trainable_here);

      if (optimizer->newton_schulz)
        add_muon_scratch (ctx, dev, sp, trainable_here);

      /* Mixed precision steps on fp32 gradients: DeepSpeed converts its
       * 16-bit gradient partition to fp32 for the step.  It first
       * flattens the partition's gradients into a new tensor and converts
       * that: ZeRO-1/2 the whole partition at once (stage_1_and_2.py,
       * DeepSpeedZeroOptimizer.step: flatten (averaged_gradients), .to ()),
       * ZeRO-3 one sub-group of at most sub_group_size elements at a time,
       * freeing its fp32 gradients after its step (stage3.py,
       * _prepare_fp32_grad_for_sub_group, _release_sub_group). */
      double converted = ds && zero3 ? MIN (trainable_here, (double) sc->parallel.sub_group_size) : trainable_here;

      if (ds)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.grads,
                  HR_LIVE (HR_PHASE_STEP), N_("flattened gradient partition (step)"),
                  zero3 ? "min(P_trainable / N, sub_group_size)·bytes" : "P_trainable·bytes / N",
                  N_("DeepSpeed copies the gradient partition into one flat tensor before converting it."),
                  converted * ctx->grad_bytes);
      if (t->dtypes.master != HR_DTYPE_NONE && t->dtypes.grads != t->dtypes.master)
        hr_calc_add_item (ctx, dev, HR_CATEGORY_OPTIMIZER, HR_POOL_ALLOCATOR, t->dtypes.master,
                  HR_LIVE (HR_PHASE_STEP), N_("fp32 gradients for the step"),
                  ds && zero3 ? "min(P_trainable / N, sub_group_size)·4" : "P_trainable·4 / N",
                  N_("Gradients converted to full precision for the update."),
                  converted * ctx->master_bytes);
    }

}
