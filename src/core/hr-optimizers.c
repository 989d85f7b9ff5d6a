/* hr-optimizers.c: what each optimizer keeps, one row each
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CALC-REFERENCE.md section 2: Adam keeps two states, SGD with momentum
 * and Lion one, SGD none; bitsandbytes' 8-bit states are one byte each
 * plus an fp32 absmax per 2048-element block (Dettmers et al. 2022).
 * Muon keeps one momentum buffer per hidden matrix and runs AdamW, two
 * states, for the rest (KellerJordan/Muon muon.py, MuonWithAuxAdam.step;
 * MoonshotAI/Moonlight examples/toy_train.py, Muon.step).
 */

#include "hr-optimizers.h"

#include <glib/gi18n-lib.h>

/* One byte per element plus one fp32 absmax per block of 2048. */
#define BLOCKWISE_8BIT (1.0 + 4.0 / 2048.0)

const HrOptimizerInfo hr_optimizers[HR_N_OPTIMIZERS] = {
  [HR_OPTIMIZER_ADAMW] = {
    "adamw", "AdamW", .states = 2, .step_scratch = TRUE, .smaller = HR_OPTIMIZER_ADAMW_8BIT,
    .source = "torch.optim.AdamW: exp_avg and exp_avg_sq per parameter" },
  [HR_OPTIMIZER_ADAM] = {
    "adam", "Adam", .states = 2, .step_scratch = TRUE, .smaller = HR_OPTIMIZER_ADAMW_8BIT,
    .source = "torch.optim.Adam: exp_avg and exp_avg_sq per parameter" },
  [HR_OPTIMIZER_SGD] = {
    "sgd", "SGD", .states = 0, .smaller = -1,
    .source = "torch.optim.SGD without momentum keeps no state" },
  [HR_OPTIMIZER_SGD_MOMENTUM] = {
    "sgd-momentum", N_("SGD with momentum"), .states = 1, .smaller = -1,
    /* Its step works in place, foreach or not (torch/optim/sgd.py:
     * buf.mul_(momentum).add_(grad), param.add_(buf, alpha=-lr)). */
    .source = "torch.optim.SGD: momentum_buffer per parameter, updated in place" },
  [HR_OPTIMIZER_ADAFACTOR] = {
    "adafactor", "Adafactor", .factored = TRUE, .step_scratch = TRUE, .smaller = -1,
    .source = "Shazeer & Stern 2018: row and column second moments (hr-params.c counts them)" },
  [HR_OPTIMIZER_LION] = {
    "lion", "Lion", .states = 1, .step_scratch = TRUE, .smaller = -1,
    .source = "Chen et al. 2023: one momentum per parameter" },
  [HR_OPTIMIZER_ADAMW_8BIT] = {
    "adamw-8bit", N_("8-bit AdamW"), .states = 2, .fixed_bytes = BLOCKWISE_8BIT,
    .quantized = TRUE, .smaller = -1,
    .source = "bitsandbytes AdamW8bit: two 8-bit states, blockwise (Dettmers et al. 2022)" },
  [HR_OPTIMIZER_PAGED_ADAMW] = {
    "paged-adamw", N_("Paged AdamW"), .states = 2, .fixed_bytes = 4.0, .paged = TRUE,
    .smaller = -1,
    /* bitsandbytes' 32-bit optimizers keep fp32 states whatever the
     * parameters' type (Optimizer2State.init_state, optim_bits == 32). */
    .source = "bitsandbytes PagedAdamW: fp32 states in paged (managed) memory" },
  [HR_OPTIMIZER_PAGED_ADAMW_8BIT] = {
    "paged-adamw-8bit", N_("Paged 8-bit AdamW"), .states = 2, .fixed_bytes = BLOCKWISE_8BIT,
    .quantized = TRUE, .paged = TRUE, .smaller = -1,
    .source = "bitsandbytes PagedAdamW8bit: 8-bit blockwise states in paged memory" },
  [HR_OPTIMIZER_MUON] = {
    /* KellerJordan/Muon muon.py, MuonWithAuxAdam.step: a use_muon group
     * ("hidden_matrix_params": p.ndim >= 2 and not the embedding) keeps
     * state["momentum_buffer"], the other groups (embedding, lm_head,
     * scalars) state["exp_avg"] and state["exp_avg_sq"]; Moonlight's
     * get_optimizer splits the same way (p.ndim >= 2 and not embed_tokens
     * or lm_head), its Muon.step keeping momentum_buffer, moment1 and
     * moment2.  Its step works one parameter at a time (no foreach path):
     * the Newton-Schulz scratch is hr-calc-states.c's. */
    "muon", "Muon", .states = 2, .by_shape = TRUE, .matrix_states = 1, .newton_schulz = TRUE,
    .smaller = -1,
    .source = "KellerJordan/Muon muon.py MuonWithAuxAdam: momentum_buffer per hidden matrix, "
              "AdamW's exp_avg and exp_avg_sq for embeddings, head, norms and biases" },
  [HR_OPTIMIZER_GALORE_ADAMW] = {
    /* jiaweizzhao/GaLore galore_torch/adamw.py, AdamW.step: a group with a
     * "rank" (torchrun_main.py puts the attention and MLP linears there)
     * keeps state["projector"] and exp_avg, exp_avg_sq of the projected
     * gradient; the other groups (embedding, head, norms) plain AdamW.
     * The step is HF's per-parameter loop: hr-calc-states.c's scratch. */
    "galore-adamw", N_("GaLore AdamW"), .states = 2, .projected = TRUE, .smaller = -1,
    .source = "Zhao et al. 2024 (GaLore), galore_torch GaLoreAdamW: exp_avg and exp_avg_sq "
              "of rank-r projected gradients plus one projection matrix per hidden matrix" },
};

const HrEnumNames hr_optimizer_names = {
  &hr_optimizers[0].name, HR_N_OPTIMIZERS, sizeof (HrOptimizerInfo), &hr_optimizers[0].label
};

const HrOptimizerInfo *
hr_optimizer_info (HrOptimizer optimizer)
{
  g_return_val_if_fail (optimizer < HR_N_OPTIMIZERS, &hr_optimizers[HR_OPTIMIZER_ADAMW]);
  return &hr_optimizers[optimizer];
}
