/* hr-validate.c: what makes a scenario plannable
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each check names the field, its value and what is allowed, in the words
 * the scenario file uses (CONTRACT.md section 1).  The reader checks types
 * and names; this checks ranges and how fields must agree.  Each field's
 * own range is its row's in the field table (hr-scenario-fields.c), the
 * bounds the form's spin buttons offer; the checks below are the bounds
 * that depend on other fields.
 */

#include "hr-validate-private.h"
#include "hr-error.h"
#include "hr-params.h"
#include "hr-scenario-fields.h"
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

gboolean
hr_check_range (const char *path,
                guint64     value,
                guint64     min,
                guint64     max,
                GError    **error)
{
  if (value < min || value > max)
    FAIL (path, _("%" PRIu64 " is out of range; allowed: %"
          PRIu64 " to %" PRIu64), value, min, max);
  return TRUE;
}

static gboolean
check_double (const char *path,
              double      value,
              double      min,
              double      max,
              GError    **error)
{
  if (!(value >= min && value <= max))
    {
      char v[G_ASCII_DTOSTR_BUF_SIZE], lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

      FAIL (path, _("%s is out of range; allowed: %s to %s"),
            g_ascii_dtostr (v, sizeof v, value),
            g_ascii_dtostr (lo, sizeof lo, min),
            g_ascii_dtostr (hi, sizeof hi, max));
    }
  return TRUE;
}

/* One number's range from its row, or an enum's value among its names
 * (the reader checks a file's names, but --set, the window and the solver
 * write the struct directly).  SECTION.KEY is built only for the message:
 * the solver validates every trial and must not allocate. */
static gboolean
check_field (const char    *section,
             const Field   *field,
             gconstpointer  base,
             GError       **error)
{
  gconstpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);
  char path[64];

  switch (field->kind)
    {
    case F_UINT:
      {
        guint64 value = *(const guint64 *) ptr;

        if (value >= field->min && value <= field->max)
          return TRUE;
        g_snprintf (path, sizeof path, "%s%s%s", section, *section != '\0' ? "." : "", field->key);
        return hr_check_range (path, value, (guint64) field->min, (guint64) field->max, error);
      }
    case F_DOUBLE:
      {
        double value = *(const double *) ptr;

        if (value >= field->min && value <= field->max)
          return TRUE;
        g_snprintf (path, sizeof path, "%s%s%s", section, *section != '\0' ? "." : "", field->key);
        return check_double (path, value, field->min, field->max, error);
      }
    case F_ENUM:
      {
        guint value = *(const guint *) ptr;

        if (value < field->names->n_names)
          return TRUE;
        g_snprintf (path, sizeof path, "%s%s%s", section, *section != '\0' ? "." : "", field->key);
        FAIL (path, _("%u names no choice; allowed: %s to %s"), value,
              hr_enum_name (field->names, 0),
              hr_enum_name (field->names, field->names->n_names - 1));
      }
    case F_BOOL:
    case F_NAME:
    case F_SKIP:
    default:
      return TRUE;
    }
}

/* The field table's ranges as the validator reads them on every plan: a
 * flat list of each checked number's place in the scenario and its
 * bounds, built once from the table.  Walking the sections' rows and
 * asking each row whether it applies before comparing was two fifths of
 * the default plan's time (bench-plan); now a row's rule is asked only of
 * a value out of its range, which gives the same answer. */
typedef struct
{
  const HrFieldSection *section;
  const Field          *field;
  gsize                 offset;   /* in HrScenario */
  double                min, max; /* F_ENUM: 0 and the last name's index */
} RangeCheck;

typedef struct
{
  RangeCheck *checks;
  guint       n;
} RangeChecks;

static gpointer
build_range_checks (gpointer unused)
{
  RangeChecks *list = g_new0 (RangeChecks, 1);
  guint n = 0;

  for (guint s = 0; s < hr_field_sections_count; s++)
    n += *hr_field_sections[s].n_fields;
  list->checks = g_new0 (RangeCheck, n);
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];

      /* The GPU's are hr_gpu_validate's, which GPU preset files share. */
      if (section->fields == hr_gpu_fields)
        continue;
      for (guint f = 0; f < *section->n_fields; f++)
        {
          const Field *field = &section->fields[f];
          gboolean choice = field->kind == F_ENUM;

          if (field->kind != F_UINT && field->kind != F_DOUBLE && !choice)
            continue;
          list->checks[list->n++] = (RangeCheck) {
            section, field, section->offset + field->offset,
            choice ? 0 : field->min, choice ? (double) field->names->n_names - 1 : field->max,
          };
        }
    }
  return list;
}

/* Every field's own range, from the field table (hr-scenario-fields.c). */
static gboolean
validate_field_ranges (const HrScenario  *sc,
                       GError           **error)
{
  static GOnce once = G_ONCE_INIT;
  const RangeChecks *list = g_once (&once, build_range_checks, NULL);

  for (guint i = 0; i < list->n; i++)
    {
      const RangeCheck *check = &list->checks[i];
      const Field *field = check->field;
      gconstpointer ptr = G_STRUCT_MEMBER_P (sc, check->offset);
      double value;

      if (field->kind == F_UINT)
        value = (double) *(const guint64 *) ptr;
      else if (field->kind == F_ENUM)
        value = *(const guint *) ptr;
      else
        value = *(const double *) ptr;
      if (value >= check->min && value <= check->max)
        continue;
      if ((field->flags & HR_FIELD_RANGE_WHERE_APPLIES) && field->applies != NULL
          && !field->applies (sc))
        continue;
      if (!check_field (check->section->path, field,
                        G_STRUCT_MEMBER_P (sc, check->section->offset), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
validate_model (const HrModelArch  *m,
                GError            **error)
{
  double params;

  /* The bounds that depend on other fields; the experts before the
   * widths, since whether ffn may be 0 depends on them. */
  if (!hr_check_range ("model.kv_heads", m->kv_heads, 1, m->heads, error)
      || !hr_check_range ("model.experts_active", m->experts_active, 1, m->experts, error)
      || !hr_check_range ("model.ffn", m->ffn,
                          (m->experts > 1 && m->expert_ffn > 0) || m->ssm != HR_SSM_NONE ? 0 : 1,
                          HR_MAX_FFN, error)
      || !hr_check_range ("model.decoder_layers", m->decoder_layers,
                          m->kind == HR_KIND_ENCODER_DECODER ? 1 : 0, HR_MAX_LAYERS, error))
    return FALSE;

  if (m->hidden % m->heads != 0)
    FAIL ("model.heads", _("%" PRIu64 " does not divide model.hidden = %"
          PRIu64 "; allowed: a divisor of %" PRIu64),
          m->heads, m->hidden, m->hidden);
  if (m->heads % m->kv_heads != 0)
    FAIL ("model.kv_heads", _("%" PRIu64 " does not divide model.heads = %"
          PRIu64 "; allowed: a divisor of %" PRIu64
          " (%" PRIu64 " for multi-head, 1 for multi-query attention)"),
          m->kv_heads, m->heads, m->heads, m->heads);
  if (m->head == HR_HEAD_LM && m->vocab == 0)
    FAIL ("model.vocab", _("0 is not allowed with model.head = lm; allowed: 1 to %u"),
          HR_MAX_VOCAB);
  if (m->head == HR_HEAD_CLASSIFIER && m->classes == 0)
    FAIL ("model.classes", _("0 is not allowed with model.head = classifier; "
          "allowed: 1 to %u"), HR_MAX_VOCAB);
  if (m->head == HR_HEAD_LM && m->kind == HR_KIND_ENCODER && m->tied_embeddings == FALSE
      && m->vocab == 0)
    FAIL ("model.vocab", _("an encoder with an LM head needs a vocabulary"));

  /* The count in double first: the exact count in guint64 is safe below
   * HR_MAX_PARAMS, far under 2^63. */
  {
    double h = m->hidden, f = MAX (m->ffn, m->expert_ffn), E = m->experts;
    double d = m->head_dim > 0 ? m->head_dim : (double) m->hidden / m->heads;

    /* (a decoder layer's cross-attention is a fifth and sixth 2·h·a·d) */
    params = (double) m->layers * (4.0 * h * m->heads * d + 3.0 * h * f * E + h * E)
             + (double) m->decoder_layers * (8.0 * h * m->heads * d + 3.0 * h * f)
             + 2.0 * (double) m->vocab * h + (double) m->learned_positions * h
             + (double) m->patch_dim * h + (double) m->classes * h;
  }
  if (params > HR_MAX_PARAMS)
    FAIL ("model", _("about %.3g parameters is more than Headroom plans; "
          "allowed: up to 10^15"), params);
  return TRUE;
}

static gboolean
validate_training (const HrScenario  *sc,
                   GError           **error)
{
  const HrTraining *t = &sc->training;

  if (t->method != HR_METHOD_FULL && t->checkpointing == HR_CHECKPOINTING_OP)
    FAIL ("training.checkpointing", _("\"op\" (torchtitan's per-op checkpointing) is for full training: "
          "adapters change which products it keeps; allowed with LoRA and QLoRA: none, selective, full"));
  if (t->method != HR_METHOD_FULL)
    {
      if ((t->lora.targets & (HR_LORA_ALL_LINEAR | HR_LORA_LM_HEAD | HR_LORA_SSM | HR_LORA_EMBED)) == 0)
        FAIL ("training.lora.targets", _("[] names no layer; allowed: any of q, k, v, o, gate, "
              "up, down, lm_head, in_proj, x_proj, out_proj, embed_tokens, or \"all-linear\""));
      if ((t->lora.targets & HR_LORA_SSM) && sc->model.ssm == HR_SSM_NONE)
        FAIL ("training.lora.targets", _("in_proj, x_proj and out_proj are a Mamba block's; "
              "allowed without model.ssm: any of q, k, v, o, gate, up, down, lm_head"));
      if (sc->model.head != HR_HEAD_LM && (t->lora.targets & HR_LORA_LM_HEAD))
        FAIL ("training.lora.targets", _("lm_head needs model.head = lm"));
      /* PEFT's lora.Embedding on the token table: one table on one rank
       * (a vocabulary split over tensor-parallel ranks is Megatron's, not
       * PEFT's), without DoRA's magnitude (planned for linears only), and
       * not yet beside a vision tower, whose image tokens the table's rows
       * do not hold. */
      if ((t->lora.targets & HR_LORA_EMBED)
          && (sc->model.vocab == 0 || sc->parallel.tp > 1 || t->lora.dora
              || sc->model.vision != HR_VISION_NONE))
        FAIL ("training.lora.targets", _("embed_tokens is planned for a token table on one rank "
              "without DoRA or a vision tower; allowed here: any of q, k, v, o, gate, up, down, "
              "lm_head"));
      /* DoRA on the head would save two more logits-sized outputs, which
       * the loss's plan does not hold. */
      if (t->lora.dora && (t->lora.targets & HR_LORA_LM_HEAD))
        FAIL ("training.lora.targets", _("lm_head is not planned with training.lora.dora; "
              "allowed with DoRA: any of q, k, v, o, gate, up, down, or \"all-linear\""));
    }

  /* GaLore's states are counted matrix by matrix for standard or latent
   * attention and a dense or MoE MLP, DeepSeek's dense first layers, and an
   * encoder-decoder's cross-attention (hr_params_galore_layer, _dense,
   * _cross).  Not for SSM layers or a layer pattern (GaLore's reference
   * picks the nn.Linear modules named attn or mlp, which Mamba's mixers
   * are not), nor DeepSeek's multi-token prediction (Megatron's; GaLore
   * runs Hugging Face models, which build none). */
  if (t->optimizer == HR_OPTIMIZER_GALORE_ADAMW
      && (t->method != HR_METHOD_FULL || sc->model.ssm != HR_SSM_NONE
          || sc->model.mtp_modules > 0 || hr_model_mixed_layers (&sc->model)))
    FAIL ("training.optimizer", _("galore-adamw is planned for full training of a decoder, "
          "encoder or encoder-decoder without SSM layers, a layer pattern or multi-token "
          "prediction; allowed here: any other optimizer"));

  if (t->optimizer_in_backward && t->grad_accum > 1)
    FAIL ("training.optimizer_in_backward", _("true steps each parameter as soon as its gradient "
          "exists, so it cannot accumulate; allowed: training.grad_accum = 1"));

  if (t->dtypes.weights == HR_DTYPE_NONE)
    FAIL ("training.dtypes.weights", _("none is not allowed; allowed: fp32, bf16, fp16 or fp8"));
  if (t->dtypes.grads == HR_DTYPE_NONE || t->dtypes.grads == HR_DTYPE_FP8)
    FAIL ("training.dtypes.grads", _("%s is not allowed; allowed: fp32, bf16 or fp16"),
          hr_enum_name (&hr_dtype_names, t->dtypes.grads));
  if (t->dtypes.optimizer == HR_DTYPE_NONE || t->dtypes.optimizer == HR_DTYPE_FP8)
    FAIL ("training.dtypes.optimizer", _("%s is not allowed; allowed: fp32, bf16 or fp16"),
          hr_enum_name (&hr_dtype_names, t->dtypes.optimizer));
  if (t->dtypes.activations == HR_DTYPE_NONE)
    FAIL ("training.dtypes.activations", _("none is not allowed; "
          "allowed: fp32, bf16, fp16 or fp8"));
  if (t->dtypes.master == HR_DTYPE_FP8)
    FAIL ("training.dtypes.master", _("fp8 is not allowed; allowed: fp32, bf16, fp16 or none"));

  /* Transformer Engine runs MXFP8 on compute capability 10.x alone
   * (v2.18 quantization.py, _compute_mxfp8_support: "Device compute
   * capability 10.0 or higher required", and not yet on 12.0 and above).
   * A GPU whose capability is not known (0) is planned as asked. */
  {
    double cc = sc->gpu.compute_capability;

    if (t->precision == HR_PRECISION_FP8_MIXED && t->fp8_recipe == HR_FP8_RECIPE_TE_MXFP8
        && cc > 0 && (cc < 10.0 || cc >= 12.0))
      FAIL ("training.fp8_recipe", _("te-mxfp8 runs on compute capability 10.x (B200, GB200, B300, "
            "GB300), and gpu.compute_capability is %.1f; allowed here: te or torchao"), cc);
  }
  return TRUE;
}

static gboolean
validate_parallel (const HrScenario  *sc,
                   GError           **error)
{
  const HrParallel *p = &sc->parallel;
  const HrModelArch *m = &sc->model;
  guint64 mp, dp;

  if (!hr_check_range ("parallel.pp", p->pp, 1, MIN (HR_MAX_PP, m->layers), error)
      || !hr_check_range ("parallel.ep", p->ep, 1, m->experts, error))
    return FALSE;

  mp = p->tp * p->pp * p->cp;
  if (mp > p->gpus || p->gpus % mp != 0)
    FAIL ("parallel.gpus", _("%" PRIu64 " is not a multiple of tp·pp·cp = %"
          PRIu64 "; allowed: %" PRIu64 ", %" PRIu64
          ", %" PRIu64 ", ..."), p->gpus, mp, mp, 2 * mp, 3 * mp);
  /* (A pure SSM model has no attention heads to split: validate_ssm
   * checks its own.) */
  if (!(m->ssm != HR_SSM_NONE && m->attn_layer_period == 0) && m->heads % p->tp != 0)
    FAIL ("parallel.tp", _("%" PRIu64 " does not divide model.heads = %"
          PRIu64 "; allowed: a divisor of %" PRIu64),
          p->tp, m->heads, m->heads);
  if (!(m->ssm != HR_SSM_NONE && m->attn_layer_period == 0)
      && p->tp > m->kv_heads && p->tp % m->kv_heads != 0)
    FAIL ("parallel.tp", _("%" PRIu64 " and model.kv_heads = %" PRIu64
          " do not divide one another; allowed: a divisor or a multiple of %"
          PRIu64), p->tp, m->kv_heads, m->kv_heads);
  if (p->sp && p->tp == 1)
    FAIL ("parallel.sp", _("true needs parallel.tp > 1 (sequence parallelism splits "
          "what tensor parallelism replicates); allowed: false with tp = 1"));
  /* Interleaving is vpp > 1; the others run one chunk per stage (DualPipe
   * two, its own way).  DualPipe's step (deepseek-ai/DualPipe
   * dualpipe/dualpipe.py, DualPipe.step) asserts num_ranks % 2 == 0 and
   * num_chunks % 2 == 0 and num_chunks >= num_ranks * 2. */
  if (p->schedule == HR_SCHEDULE_INTERLEAVED && p->vpp < 2)
    FAIL ("parallel.schedule", _("interleaved needs parallel.vpp > 1; allowed with vpp 1: "
          "1f1b, zb-h1, zb-h2, dualpipe"));
  if (p->schedule >= HR_SCHEDULE_ZB_H1 && p->vpp > 1)
    FAIL ("parallel.schedule", _("%s runs one chunk per stage; allowed with parallel.vpp > 1: "
          "1f1b or interleaved"), hr_enum_name (&hr_schedule_names, p->schedule));
  if (p->schedule == HR_SCHEDULE_DUALPIPE && p->pp > 1
      && (p->pp % 2 != 0 || sc->training.grad_accum % 2 != 0
          || sc->training.grad_accum < 2 * p->pp))
    FAIL ("parallel.schedule", _("dualpipe needs an even parallel.pp and an even "
          "training.grad_accum of at least 2·pp; allowed here: 1f1b, zb-h1, zb-h2"));
  /* PyTorch's pipelining has no DualPipe (its V-shaped schedules place
   * the stages otherwise): its buffers are planned for the others. */
  if (p->schedule == HR_SCHEDULE_DUALPIPE && p->pp > 1 && p->pp_buffers != HR_PP_BUFFERS_NONE)
    FAIL ("parallel.pp_buffers", _("%s is PyTorch's pipelining, which does not run DualPipe; "
          "allowed with parallel.schedule dualpipe: none"), hr_enum_name (&hr_pp_buffers_names, p->pp_buffers));
  if (p->vpp > 1 && p->pp == 1)
    FAIL ("parallel.vpp", _("%" PRIu64 " needs parallel.pp > 1; allowed: 1 "
          "without pipeline parallelism"), p->vpp);
  if (p->n_stage_layers > 0)
    {
      guint64 sum = 0;

      if (p->n_stage_layers != p->pp * p->vpp)
        FAIL ("parallel.stage_layers", _("%u entries for pp %" PRIu64 " x vpp %"
              PRIu64 "; allowed: one per pipeline stage (pp·vpp of them)"),
              p->n_stage_layers, p->pp, p->vpp);
      for (guint i = 0; i < p->n_stage_layers; i++)
        {
          if (p->stage_layers[i] == 0)
            FAIL ("parallel.stage_layers", _("stage %u has 0 layers; allowed: 1 or more each"), i);
          sum += p->stage_layers[i];
        }
      if (sum != m->layers)
        FAIL ("parallel.stage_layers", _("the stages hold %" PRIu64 " layers; allowed: "
              "entries that add up to model.layers = %" PRIu64), sum, m->layers);
    }
  else if (p->vpp > 1 && m->layers % (p->pp * p->vpp) != 0)
    FAIL ("parallel.vpp", _("%" PRIu64 " x pp %" PRIu64
          " does not divide model.layers = %" PRIu64
          "; allowed: a value that makes pp·vpp divide the layers"),
          p->vpp, p->pp, m->layers);
  if (p->cp > sc->training.seq_len)
    FAIL ("parallel.cp", _("%" PRIu64 " is larger than training.seq_len = %"
          PRIu64 "; allowed: 1 to %" PRIu64),
          p->cp, sc->training.seq_len, sc->training.seq_len);

  dp = hr_parallel_dp_degree (p);
  if (p->ep > 1 && (m->experts % p->ep != 0 || dp % p->ep != 0))
    FAIL ("parallel.ep", _("%" PRIu64 " must divide model.experts = %"
          PRIu64 " and the data-parallel degree %" PRIu64
          "; allowed: a common divisor of both"), p->ep, m->experts, dp);
  if (p->shard_group > 0 && dp % p->shard_group != 0)
    FAIL ("parallel.shard_group", _("%" PRIu64 " does not divide the "
          "data-parallel degree %" PRIu64 "; allowed: 0 (all ranks) or a "
          "divisor of %" PRIu64), p->shard_group, dp, dp);
  if (p->offload_params && p->zero != 3)
    FAIL ("parallel.offload_params", _("true needs parallel.zero = 3 (only sharded "
          "parameters can be offloaded); allowed: false with zero %" PRIu64), p->zero);
  return TRUE;
}

/* Whisper's audio encoder: the stem turns 2F mel frames into F, and
 * WhisperEncoder.forward refuses any other length (expected_seq_length =
 * max_source_positions x conv1.stride x conv2.stride: every clip is padded
 * to 30 s); the decoder's positions come from its learned table of
 * max_target_positions rows (WhisperPositionalEmbedding), which a longer
 * target would index past. */
static gboolean
validate_audio (const HrScenario  *sc,
                GError           **error)
{
  const HrModelArch *m = &sc->model;
  guint64 target = hr_training_target_len (sc);

  if (m->audio_mel_bins == 0 && m->audio_frames == 0)
    return TRUE;
  if (m->audio_mel_bins == 0 || m->audio_frames == 0)
    FAIL (m->audio_mel_bins == 0 ? "model.audio_mel_bins" : "model.audio_frames",
          _("0 leaves the audio encoder half described; allowed: both model.audio_mel_bins "
          "and model.audio_frames at least 1, or both 0 (a text encoder)"));
  if (m->post_norm || m->position_buckets != 0)
    FAIL (m->post_norm ? "model.post_norm" : "model.position_buckets",
          _("is not planned with an audio encoder (Whisper's layers are pre-norm, its "
          "positions absolute); allowed with model.audio_mel_bins > 0: post_norm false, "
          "position_buckets 0"));
  if (sc->training.seq_len != m->audio_frames)
    FAIL ("training.seq_len", _("%" PRIu64 " is not the audio encoder's length: every "
          "clip is padded to model.audio_frames = %" PRIu64 " frames (Whisper: 30 s); "
          "allowed: %" PRIu64), sc->training.seq_len, m->audio_frames, m->audio_frames);
  if (m->learned_positions > 0 && target > m->learned_positions)
    FAIL ("training.target_len", _("%" PRIu64 " is longer than the decoder's position "
          "table (model.learned_positions = %" PRIu64 "); allowed: 1 to %" PRIu64),
          target, m->learned_positions, m->learned_positions);
  return TRUE;
}

/* What an encoder-decoder plan covers: T5, Flan-T5 and BART as Hugging
 * Face writes them (full multi-head attention in both stacks, a dense MLP,
 * an LM head), trained in full on one pipeline stage.  The rest is refused
 * rather than planned as something it is not. */
static gboolean
validate_encoder_decoder (const HrScenario  *sc,
                          GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;

  if (m->kind != HR_KIND_ENCODER_DECODER)
    {
      if (m->audio_mel_bins != 0 || m->audio_frames != 0)
        FAIL (m->audio_mel_bins != 0 ? "model.audio_mel_bins" : "model.audio_frames",
              _("an audio encoder needs model.kind = encoder-decoder; allowed with "
              "model.kind = %s: 0"), hr_enum_name (&hr_kind_names, m->kind));
      return TRUE;
    }
  if (!validate_audio (sc, error))
    return FALSE;
  if (m->head != HR_HEAD_LM)
    FAIL ("model.head", _("classifier is not planned for an encoder-decoder model; "
          "allowed with model.kind = encoder-decoder: lm"));
  if (m->kv_heads != m->heads)
    FAIL ("model.kv_heads", _("%" PRIu64 " (grouped K/V) is not planned for an "
          "encoder-decoder model; allowed: %" PRIu64 " (model.heads)"),
          m->kv_heads, m->heads);
  if (m->experts > 1)
    FAIL ("model.experts", _("%" PRIu64 " is not planned for an encoder-decoder "
          "model; allowed with model.kind = encoder-decoder: 1"), m->experts);
  if (m->parallel_block || m->norms_per_layer != 0 || m->qk_norm != HR_QK_NORM_NONE)
    FAIL (m->parallel_block ? "model.parallel_block" : m->norms_per_layer != 0
          ? "model.norms_per_layer" : "model.qk_norm",
          _("is not planned for an encoder-decoder model; allowed with model.kind = "
          "encoder-decoder: parallel_block false, norms_per_layer 0, qk_norm none"));
  if (m->patch_dim != 0 || m->token_types != 0 || m->pooler)
    FAIL (m->patch_dim != 0 ? "model.patch_dim" : m->token_types != 0 ? "model.token_types"
          : "model.pooler", _("is not planned for an encoder-decoder model; allowed with "
          "model.kind = encoder-decoder: patch_dim 0, token_types 0, pooler false"));
  if (t->method != HR_METHOD_FULL)
    FAIL ("training.method", _("%s is not planned for an encoder-decoder model yet; "
          "allowed with model.kind = encoder-decoder: full"),
          hr_enum_name (&hr_method_names, t->method));
  if (t->checkpointing != HR_CHECKPOINTING_NONE && t->checkpointing != HR_CHECKPOINTING_SELECTIVE
      && t->checkpointing != HR_CHECKPOINTING_FULL)
    FAIL ("training.checkpointing", _("%s is not planned for an encoder-decoder model; "
          "allowed with model.kind = encoder-decoder: none, selective, full"),
          hr_enum_name (&hr_checkpointing_names, t->checkpointing));
  if (t->checkpointing == HR_CHECKPOINTING_FULL && t->checkpoint_every != 1)
    FAIL ("training.checkpoint_every", _("%" PRIu64 " is not planned for an "
          "encoder-decoder model; allowed with model.kind = encoder-decoder: 1"),
          t->checkpoint_every);
  /* T5Attention adds its bias to eager scores (modeling_t5.py,
   * T5Attention.forward: matmul, + position_bias, softmax): FlashAttention
   * takes no additive bias, and SDPA's kernels with a bias that trains
   * keep more than Headroom plans. */
  if (m->position_buckets > 0 && !hr_attentions[t->attention].scores)
    FAIL ("training.attention", _("%s cannot add T5's relative position bias "
          "(model.position_buckets > 0); allowed: eager"),
          hr_enum_name (&hr_attention_names, t->attention));
  if (p->pp != 1 || p->cp != 1)
    FAIL (p->pp != 1 ? "parallel.pp" : "parallel.cp", _("%" PRIu64 " is not planned "
          "for an encoder-decoder model yet; allowed with model.kind = encoder-decoder: 1"),
          p->pp != 1 ? p->pp : p->cp);
  return TRUE;
}

/* section is "gpu" in a scenario, "" in a GPU preset file, whose keys
 * are at the top. */
gboolean
hr_gpu_validate (const HrGpu  *gpu,
                 const char   *section,
                 GError      **error)
{
  g_return_val_if_fail (gpu != NULL && section != NULL && strlen (section) < 16, FALSE);

  for (guint f = 0; f < hr_gpu_fields_count; f++)
    if (!check_field (section, &hr_gpu_fields[f], gpu, error))
      return FALSE;
  return TRUE;
}

gboolean
hr_scenario_validate (const HrScenario  *scenario,
                      GError           **error)
{
  g_return_val_if_fail (scenario != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return validate_field_ranges (scenario, error)
         && hr_gpu_validate (&scenario->gpu, "gpu", error)
         && validate_model (&scenario->model, error)
         && hr_validate_deepseek (scenario, error)
         && validate_training (scenario, error)
         && validate_encoder_decoder (scenario, error)
         && hr_validate_ssm (scenario, error)
         && hr_validate_vision (scenario, error)
         && validate_parallel (scenario, error);
}
