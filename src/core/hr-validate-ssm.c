/* hr-validate-ssm.c: what makes a state-space or hybrid model plannable
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mamba, Mamba-2 and Jamba-style layer patterns (hr-params-ssm.c,
 * hr-activations-ssm.c): their ranges, how they must agree with the rest
 * of the model, what training and parallelism the plan covers with them
 * (LoRA on the linears the model calls as modules), refused naming the field
 * otherwise.
 */

#include "hr-validate-private.h"
#include "hr-error.h"
#include "hr-optimizers.h"
#include "hr-params.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

/* A layer pattern (Jamba's period and offset) must name layers the model
 * has: an offset within its period, a period within the layers. */
static gboolean
check_pattern (const char  *period_path,
               const char  *offset_path,
               guint64      period,
               guint64      offset,
               guint64      layers,
               GError     **error)
{
  if (period > layers)
    FAIL (period_path, _("%" PRIu64 " does not fit model.layers = %" PRIu64
          "; allowed: 0 to %" PRIu64), period, layers, layers);
  if (period == 0 && offset != 0)
    FAIL (offset_path, _("%" PRIu64 " needs %s > 0; allowed: 0"),
          offset, period_path);
  if (period > 0 && offset >= period)
    FAIL (offset_path, _("%" PRIu64 " is not below %s = %" PRIu64
          "; allowed: 0 to %" PRIu64), offset, period_path, period, period - 1);
  return TRUE;
}

/* C as a message shows it, quoted, or as hex where it is not printable;
 * BUF (8 bytes) holds it. */
static const char *
show_char (char  c,
           char *buf)
{
  if (g_ascii_isgraph (c))
    g_snprintf (buf, 8, "'%c'", c);
  else
    g_snprintf (buf, 8, "0x%02x", (guint) (guchar) c);
  return buf;
}

/* Nemotron-H's pattern (configuration_nemotron_h.py, _pattern_to_list:
 * M, E, * and -, any other character a KeyError): one block per layer,
 * each naming a part the model describes, and no part described that no
 * block has; not beside Jamba's periods, which say the layout otherwise. */
static gboolean
validate_layer_pattern (const HrModelArch  *m,
                        GError            **error)
{
  const char *p = m->layer_pattern;
  gsize len = strlen (p);

  if (m->moe_latent_size != 0 && strchr (p, 'E') == NULL)
    FAIL ("model.moe_latent_size", _("%" PRIu64 " describes a latent no block of "
          "model.layer_pattern has (no E); allowed without expert blocks: 0"), m->moe_latent_size);
  if (len == 0)
    return TRUE;
  for (gsize i = 0; i < len; i++)
    if (strchr ("M*-ES", p[i]) == NULL)
      {
        char shown[8];

        FAIL ("model.layer_pattern", _("%s (character %u) names no block; "
              "allowed: M (the SSM mixer), * (attention), - (the MLP), E (the experts), "
              "S (a shared transformer block)"),
              show_char (p[i], shown), (guint) i + 1);
      }
  if (len != m->layers)
    FAIL ("model.layer_pattern", _("%u blocks do not match model.layers = %"
          PRIu64 "; allowed: one character per layer"), (guint) len, m->layers);
  if (m->attn_layer_period > 0 || m->expert_layer_period > 0)
    FAIL (m->attn_layer_period > 0 ? "model.attn_layer_period" : "model.expert_layer_period",
          _("%" PRIu64 " is Jamba's layout, which model.layer_pattern says otherwise; allowed with "
          "a layer pattern: 0"), MAX (m->attn_layer_period, m->expert_layer_period));
  if ((strchr (p, 'M') != NULL) != (m->ssm != HR_SSM_NONE))
    FAIL ("model.ssm", m->ssm == HR_SSM_NONE
          ? _("none leaves the pattern's M blocks without a mixer; allowed: mamba, mamba2")
          : _("%s describes a mixer no block of model.layer_pattern has (no M); allowed: none"),
          hr_enum_name (&hr_ssm_names, m->ssm));
  if ((strchr (p, 'E') != NULL) != (m->experts > 1))
    FAIL ("model.experts", m->experts <= 1
          ? _("%" PRIu64 " leaves the pattern's E blocks without experts; allowed: 2 or more")
          : _("%" PRIu64 " describes experts no block of model.layer_pattern has (no E); allowed: 1"),
          m->experts);
  if ((strchr (p, '-') != NULL || strchr (p, 'S') != NULL) && m->ffn == 0)
    FAIL ("model.ffn", _("0 leaves the pattern's - or S blocks without an MLP; allowed: 1 to %u"),
          HR_MAX_FFN);
  return TRUE;
}

/* A pattern's prediction modules (Nemotron 3's num_nextn_predict_layers
 * and mtp_hybrid_override_pattern; Megatron-Core builds them,
 * transformers' NemotronH does not): their blocks are the pattern's
 * kinds but Zamba2's shared ones, and modules need them; a preset may
 * name them with no module trained (mtp_modules 0).  Without a pattern,
 * none. */
static gboolean
validate_mtp_pattern (const HrModelArch  *m,
                      GError            **error)
{
  const char *p = m->mtp_pattern;
  gsize len = strlen (p);

  if (len > 0 && m->layer_pattern[0] == '\0')
    FAIL ("model.mtp_pattern", _("\"%s\" needs model.layer_pattern (DeepSeek's modules are one "
          "layer each); allowed without a pattern: \"\""), p);
  if (m->layer_pattern[0] != '\0' && m->mtp_modules > 0 && len == 0)
    FAIL ("model.mtp_pattern", _("\"\" leaves model.mtp_modules' blocks unsaid; allowed: a block per "
          "character of M, *, - and E (Nemotron 3: *E)"));
  for (gsize i = 0; i < len; i++)
    {
      char shown[8];

      if (strchr ("M*-E", p[i]) == NULL)
        FAIL ("model.mtp_pattern", _("%s (character %u) names no block; "
              "allowed: M (the SSM mixer), * (attention), - (the MLP), E (the experts)"),
              show_char (p[i], shown), (guint) i + 1);
      if (strchr (m->layer_pattern, p[i]) == NULL)
        FAIL ("model.mtp_pattern", _("%s (character %u) is a block model.layer_pattern has not; "
              "allowed: the pattern's own blocks"), show_char (p[i], shown), (guint) i + 1);
    }
  return TRUE;
}

/* Bamba's mixers (configuration_bamba.py, layers_block_type from
 * attn_layer_indices: "attention" or "mamba"): one per layer, an SSM
 * mixer somewhere, and not beside the other two layouts. */
static gboolean
validate_layer_mixers (const HrModelArch  *m,
                       GError            **error)
{
  const char *p = m->layer_mixers;
  gsize len = strlen (p);

  if (len == 0)
    return TRUE;
  for (gsize i = 0; i < len; i++)
    if (p[i] != 'M' && p[i] != '*')
      {
        char shown[8];

        FAIL ("model.layer_mixers", _("%s (character %u) names no mixer; "
              "allowed: M (the SSM mixer), * (attention)"), show_char (p[i], shown), (guint) i + 1);
      }
  if (len != m->layers)
    FAIL ("model.layer_mixers", _("%u mixers do not match model.layers = %"
          PRIu64 "; allowed: one character per layer"), (guint) len, m->layers);
  if (m->layer_pattern[0] != '\0')
    FAIL ("model.layer_mixers", _("%s says the layers otherwise than model.layer_pattern; "
          "allowed with a layer pattern: none"), p);
  if (m->attn_layer_period > 0)
    FAIL ("model.attn_layer_period", _("%" PRIu64 " is Jamba's layout, which model.layer_mixers "
          "says otherwise; allowed with layer mixers: 0"), m->attn_layer_period);
  if (m->ssm == HR_SSM_NONE)
    FAIL ("model.ssm", _("none leaves the M layers of model.layer_mixers without a mixer; "
          "allowed: mamba, mamba2"));
  if (strchr (p, 'M') == NULL)
    FAIL ("model.ssm", _("%s describes a mixer no layer of model.layer_mixers has (no M); "
          "allowed: none"), hr_enum_name (&hr_ssm_names, m->ssm));
  return TRUE;
}

/* The SSM blocks' sizes: each must agree with the others, and the whole
 * count stay within what Headroom plans. */
static gboolean
validate_ssm_sizes (const HrScenario  *sc,
                    GError           **error)
{
  const HrModelArch *m = &sc->model;
  gboolean ssm = m->ssm != HR_SSM_NONE;

  if (m->ssm_inner > 0 && m->ssm_expand > 0 && m->ssm_expand * m->hidden != m->ssm_inner)
    FAIL ("model.ssm_expand", _("%" PRIu64 " makes the inner width %" PRIu64 ", not model.ssm_inner = %"
          PRIu64 "; allowed with model.ssm_inner: 0, or %" PRIu64 " x model.hidden"),
          m->ssm_expand, m->ssm_expand * m->hidden, m->ssm_inner, m->ssm_inner);
  if (ssm && m->ffn == 0 && m->experts > 1 && m->expert_layer_period > 1)
    FAIL ("model.ffn", _("0 leaves the layers without experts with no MLP; allowed with "
          "model.expert_layer_period > 1: 1 to %u (the dense layers' width)"), HR_MAX_FFN);
  if (m->ssm == HR_SSM_MAMBA2)
    {
      guint64 di = hr_model_ssm_inner (m), P = hr_model_ssm_head_dim (m);
      guint64 H = hr_model_ssm_heads (m), G = hr_model_ssm_groups (m);

      /* mamba2.py, Mamba2.__init__: assert self.d_ssm % self.headdim == 0;
       * ssd_combined.py: assert nheads % ngroups == 0. */
      if (di % P != 0)
        FAIL ("model.ssm_head_dim", _("%" PRIu64 " does not divide the inner width "
              "%" PRIu64 " (model.ssm_inner, or ssm_expand x hidden); allowed: a divisor of %"
              PRIu64), P, di, di);
      if (H * P != di)
        FAIL ("model.ssm_heads", _("%" PRIu64 " heads of %" PRIu64
              " are not the inner width %" PRIu64 "; allowed: %" PRIu64
              " (or 0)"), H, P, di, di / P);
      if (H % G != 0)
        FAIL ("model.ssm_groups", _("%" PRIu64 " does not divide model.ssm_heads = %"
              PRIu64 "; allowed: a divisor of %" PRIu64), G, H, H);
    }
  if (ssm && m->ssm_bc_norm && m->ssm != HR_SSM_MAMBA)
    FAIL ("model.ssm_bc_norm", _("true is Jamba's Mamba-1 layers only; allowed with "
          "model.ssm = mamba2: false"));
  {
    /* The mixers' count in double first, as validate_model does. */
    double h = m->hidden, di = (double) hr_model_ssm_inner (m);
    double N = hr_model_ssm_state (m), R = hr_model_ssm_dt_rank (m);
    double mixer = di * (3.0 * h + 2.0 * R + 3.0 * N + (double) hr_model_ssm_conv (m)
                         + 4.0 + (double) hr_model_ssm_groups (m) * N * (2.0 * h + 2.0));

    if (ssm && (double) m->layers * mixer > HR_MAX_PARAMS)
      FAIL ("model", _("about %.3g parameters is more than Headroom plans; "
            "allowed: up to 10^15"), (double) m->layers * mixer);
  }
  return TRUE;
}

/* The rest of the model: a decoder with an LM head, no biases, parallel
 * block, Q/K norm, learned positions, patches or token types, none of
 * DeepSeek's parts. */
static gboolean
validate_ssm_model (const HrScenario  *sc,
                    GError           **error)
{
  const HrModelArch *m = &sc->model;

  if (m->kind != HR_KIND_DECODER)
    FAIL ("model.kind", _("%s is not planned with SSM layers or a layer pattern; allowed: decoder"),
          hr_enum_name (&hr_kind_names, m->kind));
  if (m->head != HR_HEAD_LM)
    FAIL ("model.head", _("classifier is not planned with SSM layers or a layer pattern; "
          "allowed: lm"));
  if (m->parallel_block || m->norms_per_layer != 0 || m->qk_norm != HR_QK_NORM_NONE
      || m->bias != HR_BIAS_NONE)
    FAIL (m->parallel_block ? "model.parallel_block" : m->norms_per_layer != 0
          ? "model.norms_per_layer" : m->qk_norm != HR_QK_NORM_NONE ? "model.qk_norm"
          : "model.bias", _("is not planned with SSM layers or a layer pattern; allowed: "
          "parallel_block false, norms_per_layer 0, qk_norm none, bias none"));
  if (m->patch_dim != 0 || m->token_types != 0 || m->pooler || m->learned_positions != 0
      || m->lm_head_bias)
    FAIL (m->patch_dim != 0 ? "model.patch_dim" : m->token_types != 0 ? "model.token_types"
          : m->pooler ? "model.pooler" : m->learned_positions != 0 ? "model.learned_positions"
          : "model.lm_head_bias", _("is not planned with SSM layers or a layer pattern; "
          "allowed: patch_dim 0, token_types 0, pooler false, learned_positions 0, "
          "lm_head_bias false"));
  /* (a pattern's expert blocks may have shared experts: Nemotron-H's
   * NemotronHMoE, hr-params-kinds.c; so may the experts of layers whose
   * mixers are listed: Granite 4.0-H's GraniteMoeHybridDecoderLayer adds
   * its shared_mlp to every layer's block_sparse_moe) */
  gboolean shared_ok = strchr (m->layer_pattern, 'E') != NULL
                       || (m->layer_mixers[0] != '\0' && m->experts > 1);

  /* (a pattern's prediction modules are its mtp_pattern's blocks:
   * validate_mtp_pattern) */
  gboolean mtp_ok = m->layer_pattern[0] != '\0';

  if (m->attention_kind != HR_ATTN_KIND_STANDARD || (m->shared_experts != 0 && !shared_ok)
      || m->dense_layers != 0 || m->router_bias || (m->mtp_modules != 0 && !mtp_ok))
    FAIL (m->attention_kind != HR_ATTN_KIND_STANDARD ? "model.attention_kind"
          : m->shared_experts != 0 && !shared_ok ? "model.shared_experts" : m->dense_layers != 0
          ? "model.dense_layers" : m->router_bias ? "model.router_bias" : "model.mtp_modules",
          _("is DeepSeek's and not planned with SSM layers or a layer pattern; allowed: "
          "attention_kind standard, shared_experts 0 (with expert blocks in a layer pattern, or "
          "experts beside layer mixers: any), dense_layers 0 (say it with expert_layer_period), "
          "router_bias false, mtp_modules 0 (with a layer pattern: say its modules' blocks in "
          "mtp_pattern)"));
  return TRUE;
}

/* LoRA and QLoRA.  PEFT wraps modules, so an adapter trains only where the model
 * calls its linear as a module.  In training Hugging Face's MambaMixer
 * and Mamba2Mixer hand x_proj's, dt_proj's and out_proj's weights
 * straight to the fused kernels (mamba_inner_fn,
 * mamba_split_conv1d_scan_combined): adapters there get no gradient
 * (huggingface/peft#2274, state-spaces/mamba#279); in_proj is called as
 * a module.  Jamba's JambaMambaMixer cannot use mamba_inner_fn (its dt,
 * B and C norms, model.ssm_bc_norm) and calls in_proj, x_proj and
 * out_proj as modules (modeling_jamba.py, cuda_kernels_forward), reading
 * dt_proj's weight alone directly; AI21's model card fine-tunes those
 * three and embed_tokens.  A pattern's attention layers and every MLP take q, k, v, o,
 * gate, up and down as a transformer's do.  QLoRA's 4-bit weights cannot
 * go to the kernels: transformers' Jamba documentation quantizes with
 * llm_int8_skip_modules=["mamba"], which keeps Jamba's mixers (modules
 * named mamba) in 16 bits and quantizes the attention, the MLPs, the
 * experts and their routers (hr-params-kinds.c); other mixers' names
 * differ, so QLoRA is planned on a Jamba-style hybrid alone. */
static gboolean
validate_ssm_adapters (const HrScenario  *sc,
                       GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  gboolean adapters = t->method != HR_METHOD_FULL;

  if ((t->method == HR_METHOD_QLORA
       && !(hr_model_mixed_layers (m) && m->ssm_bc_norm && m->layer_pattern[0] == '\0'))
      || (t->method == HR_METHOD_LORA && !hr_model_mixed_layers (m) && m->ffn > 0))
    FAIL ("training.method", _("%s is not planned with these SSM layers yet; allowed: full; "
          "lora with a layer pattern, or on a Mamba or Mamba-2 model without an MLP; qlora "
          "on a Jamba-style hybrid (model.attn_layer_period and model.ssm_bc_norm), its Mamba "
          "mixers left in 16 bits"), hr_enum_name (&hr_method_names, t->method));
  if (adapters)
    {
      guint ssm_targets = m->ssm == HR_SSM_MAMBA && m->ssm_bc_norm ? HR_LORA_SSM : HR_LORA_IN_PROJ;
      guint layer_targets = hr_model_mixed_layers (m) ? HR_LORA_ALL_LINEAR | HR_LORA_LM_HEAD : 0;

      if ((t->lora.targets & ~(layer_targets | HR_LORA_SSM | HR_LORA_EMBED)) != 0)
        FAIL ("training.lora.targets", _("a Mamba or Mamba-2 model without a layer pattern has "
              "no q, k, v, o, MLP or adapted head; allowed: in_proj, embed_tokens (and x_proj, "
              "out_proj with model.ssm_bc_norm)"));
      if ((t->lora.targets & HR_LORA_SSM & ~ssm_targets) != 0)
        FAIL ("training.lora.targets", _("x_proj and out_proj are adapted in Jamba's Mamba "
              "layers only (model.ssm_bc_norm true); elsewhere the fused kernels read their "
              "weights directly, so adapters there get no gradient; allowed: in_proj"));
      /* Granite 4.0-H's experts (GraniteMoeParallelExperts; experts with a
       * shared MLP beside listed mixers) hold each projection of every
       * expert as one 3-D parameter, and their shared MLP's linears share
       * the experts' names (input_linear, output_linear): PEFT wraps no
       * 3-D parameter, so the MLP targets would be adapters that cannot
       * exist.  Experts without a shared MLP there are Jamba's, linears
       * PEFT wraps. */
      if (m->layer_mixers[0] != '\0' && m->experts > 1 && m->shared_experts > 0
          && (t->lora.targets & (HR_LORA_GATE | HR_LORA_UP | HR_LORA_DOWN)) != 0)
        FAIL ("training.lora.targets", _("gate, up and down are not planned on Granite 4.0-H's "
              "experts (each projection of every expert is one 3-D parameter, which PEFT does "
              "not wrap); allowed: q, k, v, o, in_proj, embed_tokens"));
    }
  if (adapters && (t->lora.dora || t->lora.fused_qkv))
    FAIL (t->lora.dora ? "training.lora.dora" : "training.lora.fused_qkv",
          _("is not planned with SSM layers; allowed: false"));
  if (adapters && p->tp > 1)
    FAIL ("parallel.tp", _("%" PRIu64 " is not planned with LoRA on SSM layers (PEFT's "
          "adapters on Hugging Face's Mamba); allowed: 1"), p->tp);
  return TRUE;
}

/* A latent MoE (NemotronHMoE with moe_latent_size, modeling_nemotron_h.py):
 * planned as Hugging Face trains it, every weight trained, without the
 * parallel splits and the optimizers whose plans would have to say how
 * the latent projections and the narrower experts are cut: no tensor
 * parallelism (Megatron's latent projections are not planned), no LoRA
 * or QLoRA (HF's experts are 3-D parameters PEFT does not wrap), no
 * GaLore, no fp8. */
static gboolean
validate_latent_training (const HrScenario  *sc,
                          GError           **error)
{
  const HrTraining *t = &sc->training;

  if (sc->model.moe_latent_size == 0)
    return TRUE;
  if (t->method != HR_METHOD_FULL)
    FAIL ("training.method", _("%s is not planned with a latent MoE (model.moe_latent_size) yet; "
          "allowed: full"), hr_enum_name (&hr_method_names, t->method));
  if (sc->parallel.tp > 1)
    FAIL ("parallel.tp", _("%" PRIu64 " is not planned with a latent MoE (model.moe_latent_size) "
          "yet; allowed: 1"), sc->parallel.tp);
  if (hr_optimizer_info (t->optimizer)->projected || t->precision == HR_PRECISION_FP8_MIXED)
    FAIL (t->precision == HR_PRECISION_FP8_MIXED ? "training.precision" : "training.optimizer",
          _("is not planned with a latent MoE (model.moe_latent_size) yet; allowed: precision "
          "other than fp8-mixed, an optimizer other than GaLore's"));
  return TRUE;
}

/* Checkpointing, compile and the parallel layouts the scan kernels have. */
static gboolean
validate_ssm_layout (const HrScenario  *sc,
                     GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;

  if (t->checkpointing == HR_CHECKPOINTING_OP || t->compile)
    FAIL (t->compile ? "training.compile" : "training.checkpointing",
          _("is not planned with SSM layers or a layer pattern (the fused scan kernels are "
          "opaque to torch.compile and torchtitan's op policy); allowed: checkpointing "
          "none, selective or full, compile false"));
  if (t->checkpointing == HR_CHECKPOINTING_FULL && t->checkpoint_every != 1)
    FAIL ("training.checkpoint_every", _("%" PRIu64 " is not planned with SSM "
          "layers or a layer pattern; allowed: 1"), t->checkpoint_every);
  if (p->cp != 1)
    FAIL ("parallel.cp", _("%" PRIu64 " is not planned "
          "with SSM layers or a layer pattern yet; allowed: 1"), p->cp);
  /* Tensor parallelism: Megatron's MambaMixer splits Mamba-2 blocks by
   * heads and groups (mamba_mixer.py: "nheads must be evenly divisble by
   * tp_size", "ngroups must be evenly divisible by tp_size"); mamba_ssm's
   * Mamba and transformers' MambaMixer and JambaMambaMixer have none. */
  if (p->tp > 1 && m->ssm == HR_SSM_MAMBA)
    FAIL ("parallel.tp", _("%" PRIu64 " is not planned with Mamba layers (mamba_ssm's and "
          "transformers' Mamba blocks have no tensor parallelism); allowed with model.ssm = "
          "mamba: 1"), p->tp);
  if (p->tp > 1 && m->ssm == HR_SSM_MAMBA2)
    {
      guint64 H = hr_model_ssm_heads (m), G = hr_model_ssm_groups (m);

      if (H % p->tp != 0 || G % p->tp != 0)
        FAIL (H % p->tp != 0 ? "model.ssm_heads" : "model.ssm_groups",
              _("%" PRIu64 " is not divisible by parallel.tp = %" PRIu64 " (Megatron's "
              "MambaMixer splits the heads and the groups); allowed: a multiple of %" PRIu64),
              H % p->tp != 0 ? H : G, p->tp, p->tp);
    }
  return TRUE;
}

/* What a state-space or hybrid plan covers: Mamba, Mamba-2 and Jamba as
 * mamba_ssm and Hugging Face write them (a decoder with an LM head, no
 * biases, every layer's mixer followed by the MLP, its experts or
 * nothing), trained in full, with LoRA where the model calls its linears
 * as modules or with QLoRA on a Jamba-style hybrid, without context
 * parallelism, and with tensor parallelism only where Megatron splits the
 * block (Mamba-2).  The rest is refused rather than planned as something
 * it is not. */
gboolean
hr_validate_ssm (const HrScenario  *sc,
                 GError           **error)
{
  const HrModelArch *m = &sc->model;
  gboolean ssm = m->ssm != HR_SSM_NONE;

  /* (The sizes' own ranges are their rows'.) */
  if (!validate_layer_pattern (m, error) || !validate_mtp_pattern (m, error)
      || !validate_layer_mixers (m, error)
      || !hr_validate_shared (sc, error))
    return FALSE;
  if (!check_pattern ("model.attn_layer_period", "model.attn_layer_offset",
                         m->attn_layer_period, m->attn_layer_offset, m->layers, error)
      || !check_pattern ("model.expert_layer_period", "model.expert_layer_offset",
                         m->expert_layer_period, m->expert_layer_offset, m->layers, error))
    return FALSE;
  if (!ssm && m->attn_layer_period > 0)
    FAIL ("model.attn_layer_period", _("%" PRIu64 " needs SSM layers between the "
          "attention layers; allowed with model.ssm = none: 0"), m->attn_layer_period);
  if (m->experts <= 1 && m->expert_layer_period > 0)
    FAIL ("model.expert_layer_period", _("%" PRIu64 " needs model.experts > 1; "
          "allowed with model.experts = 1: 0"), m->expert_layer_period);
  if (!ssm && !hr_model_mixed_layers (m))
    return TRUE;

  return validate_ssm_sizes (sc, error) && validate_ssm_model (sc, error)
         && validate_ssm_adapters (sc, error) && validate_ssm_layout (sc, error)
         && validate_latent_training (sc, error);
}
