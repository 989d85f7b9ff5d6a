/* hr-validate-shared.c: what a plan with Zamba2's shared blocks covers
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Zamba2 as Hugging Face writes it (transformers/models/zamba2/
 * modeling_zamba2.py): Mamba-2 layers, and before some of them a hybrid
 * layer's shared transformer block, one of num_mem_blocks modules whose
 * parameters every hybrid layer it serves uses (Zamba2Model.__init__:
 * blocks = cycle(...), next(blocks) per hybrid layer).  In the pattern an
 * S block stands before its layer's M block.  The plans cover what Hugging
 * Face's code trains: full fine-tuning or LoRA on one GPU or under data
 * parallelism (DDP, ZeRO-1, DeepSpeed's ZeRO-2 and 3), with or without
 * gradient checkpointing of each layer.  PEFT wraps each shared module
 * once (named_modules yields a module once, however many layers hold it),
 * so every use runs the same adapters.  FSDP's units, tensor, pipeline
 * or context parallelism, QLoRA's 4-bit shared weights, fp8, compile and
 * the optimizer step in the backward pass would all have to say how the
 * parameters shared by several layers are split or stepped; they are
 * refused rather than planned as something they are not.
 */

#include "hr-validate-private.h"

#include "hr-enums.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <string.h>

/* The pattern: S blocks each before an M block, no other block kind, as
 * many shared blocks as there are S blocks at most. */
static gboolean
validate_shared_pattern (const HrModelArch  *m,
                         GError            **error)
{
  const char *p = m->layer_pattern;
  guint64 uses = 0;

  for (gsize i = 0; p[i] != '\0'; i++)
    {
      if (p[i] != 'S' && p[i] != 'M')
        FAIL ("model.layer_pattern", _("%c (block %u) is not planned beside shared blocks (S); "
              "allowed: M and S, each S before an M (Zamba2's hybrid layer)"), p[i], (guint) i + 1);
      if (p[i] == 'S' && p[i + 1] != 'M')
        FAIL ("model.layer_pattern", _("the S at block %u is not followed by an M; allowed: each "
              "S before an M (a hybrid layer's shared block feeds its Mamba layer)"), (guint) i + 1);
      uses += p[i] == 'S';
    }
  if (m->shared_blocks == 0)
    FAIL ("model.shared_blocks", _("0 leaves the pattern's S blocks without a shared block; "
          "allowed: 1 to %" PRIu64 " (the S blocks)"), MIN (uses, (guint64) HR_MAX_SHARED_BLOCKS));
  if (m->shared_blocks > uses)
    FAIL ("model.shared_blocks", _("%" PRIu64 " is more than the %" PRIu64 " S blocks that use them; "
          "allowed: 1 to %" PRIu64), m->shared_blocks, uses, uses);
  if (m->ssm != HR_SSM_MAMBA2)
    FAIL ("model.ssm", _("%s is not Zamba2's mixer; allowed with shared blocks: mamba2"),
          hr_enum_name (&hr_ssm_names, m->ssm));
  return TRUE;
}

/* The training and layouts the plan covers (the file's comment). */
static gboolean
validate_shared_training (const HrScenario  *sc,
                          GError           **error)
{
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;

  if (t->method == HR_METHOD_QLORA)
    FAIL ("training.method", _("%s is not planned with shared blocks yet (4-bit weights of "
          "modules that several layers call); allowed: full, lora"),
          hr_enum_name (&hr_method_names, t->method));
  /* Zamba2MLP's gate and up are one linear, gate_up_proj: PEFT adapts it
   * whole or not at all. */
  if (t->method == HR_METHOD_LORA && hr_model_gated (&sc->model)
      && ((t->lora.targets & HR_LORA_GATE) != 0) != ((t->lora.targets & HR_LORA_UP) != 0))
    FAIL ("training.lora.targets", _("%s without %s: a shared block's gate and up are one "
          "linear (Zamba2's gate_up_proj), adapted whole; allowed: both gate and up, or neither"),
          (t->lora.targets & HR_LORA_GATE) ? "gate" : "up", (t->lora.targets & HR_LORA_GATE) ? "up" : "gate");
  /* DeepSpeed hooks each parameter's gradient accumulation, which the
   * autograd engine runs once all its uses have added theirs, and
   * gathers a module at each call (hr-calc-gathered.c); FSDP wraps the
   * hybrid layers, and a block several of them hold would have to sit in
   * the unit above them all. */
  if (p->zero >= 2 && !p->deepspeed)
    FAIL ("parallel.zero", _("%" PRIu64 " is not planned with shared blocks under FSDP (a block "
          "several layers hold cannot be one layer's unit); allowed: 0 or 1, or 2 and 3 with "
          "parallel.deepspeed true"), p->zero);
  if (p->tp != 1 || p->pp != 1 || p->ep != 1)
    FAIL (p->tp != 1 ? "parallel.tp" : p->pp != 1 ? "parallel.pp" : "parallel.ep",
          _("%" PRIu64 " is not planned with shared blocks (Hugging Face's Zamba2 has no tensor, "
          "pipeline or expert parallelism); allowed: 1"), p->tp != 1 ? p->tp : p->pp != 1 ? p->pp : p->ep);
  if (p->offload_params || p->offload_optimizer)
    FAIL (p->offload_params ? "parallel.offload_params" : "parallel.offload_optimizer",
          _("is not planned with shared blocks yet; allowed: false"));
  if (t->precision == HR_PRECISION_FP8_MIXED || t->optimizer_in_backward
      || t->activation_offloading || t->checkpointing == HR_CHECKPOINTING_SELECTIVE)
    FAIL (t->precision == HR_PRECISION_FP8_MIXED ? "training.precision"
          : t->optimizer_in_backward ? "training.optimizer_in_backward"
          : t->activation_offloading ? "training.activation_offloading" : "training.checkpointing",
          _("is not planned with shared blocks; allowed: precision other than fp8-mixed, "
          "optimizer_in_backward false, activation_offloading false, checkpointing none or full"));
  return TRUE;
}

gboolean
hr_validate_shared (const HrScenario  *sc,
                    GError           **error)
{
  const HrModelArch *m = &sc->model;

  if (strchr (m->layer_pattern, 'S') == NULL)
    {
      if (m->shared_blocks != 0 || m->shared_adapter_rank != 0)
        FAIL (m->shared_blocks != 0 ? "model.shared_blocks" : "model.shared_adapter_rank",
              _("%" PRIu64 " describes shared blocks no block of model.layer_pattern is (no S); "
              "allowed without S blocks: 0"), MAX (m->shared_blocks, m->shared_adapter_rank));
      if (m->shared_attention_adapters)
        FAIL ("model.shared_attention_adapters", _("true describes shared blocks no block of "
              "model.layer_pattern is (no S); allowed without S blocks: false"));
      return TRUE;
    }
  if (m->shared_attention_adapters && m->shared_adapter_rank == 0)
    FAIL ("model.shared_attention_adapters", _("true needs adapters: model.shared_adapter_rank "
          "is 0; allowed with rank 0: false"));
  return validate_shared_pattern (m, error) && validate_shared_training (sc, error);
}
