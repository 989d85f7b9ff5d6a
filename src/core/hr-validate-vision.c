/* hr-validate-vision.c: what makes a vision-language model plannable
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A vision tower and its projector (hr-params-vision.c): the tower's
 * sizes, how they agree with each other and with the language model, and
 * what the plan does not cover with them (tensor, pipeline and context
 * parallelism: Hugging Face's LLaVA and Qwen2-VL run the tower whole on
 * the first GPU of the model), refused naming the field rather than
 * planned as something else.
 */

#include "hr-validate-private.h"
#include "hr-error.h"
#include "hr-optimizers.h"
#include "hr-params.h"
#include "hr-attentions.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

/* The first vision field that is set (its value in *VALUE), of all of
 * them or of Llama 3.2 Vision's only; NULL where none is. */
static const char *
first_vision_field_set (const HrModelArch *m,
                        gboolean           mllama_only,
                        guint64           *value)
{
  const struct { const char *path; guint64 value; gboolean mllama; } f[] = {
    { "model.vision_layers", m->vision_layers, FALSE },
    { "model.vision_hidden", m->vision_hidden, FALSE },
    { "model.vision_heads", m->vision_heads, FALSE },
    { "model.vision_ffn", m->vision_ffn, FALSE },
    { "model.vision_patch", m->vision_patch, FALSE },
    { "model.vision_image", m->vision_image, FALSE },
    { "model.vision_channels", m->vision_channels, FALSE },
    { "model.vision_feature_layer", m->vision_feature_layer, FALSE },
    { "model.projector", m->projector, FALSE },
    { "model.projector_merge", m->projector_merge, FALSE },
    /* Llama 3.2 Vision's tiled tower and cross-attention layers */
    { "model.vision_global_layers", m->vision_global_layers, TRUE },
    { "model.vision_tiles", m->vision_tiles, TRUE },
    { "model.vision_aspect_ratios", m->vision_aspect_ratios, TRUE },
    { "model.vision_intermediate_layers", m->vision_intermediate_layers, TRUE },
    { "model.cross_attn_layer_period", m->cross_attn_layer_period, TRUE },
    { "model.cross_attn_layer_offset", m->cross_attn_layer_offset, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    if ((f[i].mllama || !mllama_only) && f[i].value != 0)
      {
        *value = f[i].value;
        return f[i].path;
      }
  return NULL;
}

/* Without a vision tower every vision field is 0 (none): a value there
 * would describe a tower that is not planned. */
static gboolean
validate_no_vision (const HrModelArch  *m,
                    GError            **error)
{
  guint64 value;
  const char *path = first_vision_field_set (m, FALSE, &value);

  if (path != NULL)
    FAIL (path, _("is set without a vision tower; allowed with "
          "model.vision = none: 0 (none)"));
  return TRUE;
}

/* Llama 3.2 Vision's fields describe its tiled tower and the language
 * model's cross-attention layers: with another tower they are 0. */
static gboolean
validate_no_mllama (const HrModelArch  *m,
                    GError            **error)
{
  guint64 value;
  const char *path = first_vision_field_set (m, TRUE, &value);

  if (path != NULL)
    FAIL (path, _("%" PRIu64 " is Llama 3.2 Vision's (model.vision = mllama); "
          "allowed with model.vision = %s: 0"), value,
          hr_enum_name (&hr_vision_names, m->vision));
  return TRUE;
}

/* Llama 3.2 Vision (modeling_mllama.py): its tiled tower, one linear
 * projector, and the language model's gated cross-attention layers; what
 * its activations (hr-activations-mllama.c) are written for. */
static gboolean
validate_mllama (const HrScenario  *sc,
                 GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;

  if (m->projector != HR_PROJECTOR_LINEAR)
    FAIL ("model.projector", _("%s is not planned with a Llama 3.2 Vision tower; allowed: "
          "linear"), hr_enum_name (&hr_projector_names, m->projector));
  if (m->vision_feature_layer != 0)
    FAIL ("model.vision_feature_layer", _("%" PRIu64 " is not Llama 3.2 Vision's (its features "
          "are the last layer's and model.vision_intermediate_layers others'); allowed with "
          "model.vision = mllama: 0"), m->vision_feature_layer);
  if (!hr_check_range ("model.vision_tiles", m->vision_tiles, 1, HR_MAX_TILES, error)
      || !hr_check_range ("model.vision_aspect_ratios", m->vision_aspect_ratios, 1,
                          HR_MAX_TILES * HR_MAX_TILES, error)
      || !hr_check_range ("model.vision_intermediate_layers", m->vision_intermediate_layers, 0,
                          m->vision_layers, error))
    return FALSE;
  /* Layer i attends to the images when i % period = offset: at least
   * one layer does, and the first is a self-attention layer (as in
   * every Llama 3.2 Vision: cross_attention_layers start at 3). */
  if (!hr_check_range ("model.cross_attn_layer_period", m->cross_attn_layer_period, 1,
                       m->layers, error))
    return FALSE;
  if (m->cross_attn_layer_offset == 0 || m->cross_attn_layer_offset >= m->cross_attn_layer_period)
    FAIL ("model.cross_attn_layer_offset", _("%" PRIu64 " is not planned with "
          "model.cross_attn_layer_period = %" PRIu64 " (the first layer attends to the text, "
          "the offset is within the period); allowed: 1 to %" PRIu64),
          m->cross_attn_layer_offset, m->cross_attn_layer_period,
          m->cross_attn_layer_period - 1);
  if (m->cross_attn_layer_offset >= m->layers)
    FAIL ("model.cross_attn_layer_offset", _("%" PRIu64 " names none of the %" PRIu64
          " layers; allowed: 1 to %" PRIu64), m->cross_attn_layer_offset, m->layers, m->layers - 1);

  /* Without images MllamaTextModel.forward skips the cross-attention
   * layers (cross_attention_states None: continue): a text model. */
  if (t->images_per_sample == 0)
    FAIL ("training.images_per_sample", _("0 skips Llama 3.2 Vision's cross-attention layers, "
          "which is not planned; allowed: 1 to %d"), HR_MAX_IMAGES);
  /* What the cross-attention layer's and the tiled tower's saved tensors
   * are written for: SDPA's memory-efficient kernel (the masks are
   * tensors), the weights in the compute type, every layer checkpointed
   * or none, one adapter per adapted linear. */
  if (hr_attentions[t->attention].scores)
    FAIL ("training.attention", _("eager is not planned with Llama 3.2 Vision; allowed: "
          "flash (Hugging Face's sdpa)"));
  if ((t->dtypes.weights == HR_DTYPE_FP32 && t->dtypes.activations != HR_DTYPE_FP32)
      || t->precision == HR_PRECISION_FP8_MIXED)
    FAIL ("training.precision", _("%s is not planned with Llama 3.2 Vision (autocast's casts and "
          "fp8 copies of its cross-attention are not); allowed: fp32, bf16-mixed, "
          "fp16-mixed, bf16-true"), hr_enum_name (&hr_precision_names, t->precision));
  if (t->compile)
    FAIL ("training.compile", _("is not planned yet with Llama 3.2 Vision; allowed: false"));
  if (t->checkpointing == HR_CHECKPOINTING_FULL && t->checkpoint_every != 1)
    FAIL ("training.checkpoint_every", _("%" PRIu64 " is not planned with Llama 3.2 Vision's "
          "two kinds of layer; allowed: 1"), t->checkpoint_every);
  if (t->method != HR_METHOD_FULL && (t->lora.dora || t->lora.fused_qkv))
    FAIL (t->lora.dora ? "training.lora.dora" : "training.lora.fused_qkv",
          _("is not planned yet with Llama 3.2 Vision (its cross-attention's K and V adapters "
          "read the image tokens); allowed: false"));
  return TRUE;
}

gboolean
hr_validate_vision (const HrScenario  *sc,
                    GError           **error)
{
  const HrModelArch *m = &sc->model;
  const HrTraining *t = &sc->training;
  const HrParallel *p = &sc->parallel;
  guint64 side, merge, tokens;

  /* (One test for the text models every plan but these is.) */
  if (m->vision == HR_VISION_NONE)
    return ((m->vision_layers | m->vision_hidden | m->vision_heads | m->vision_ffn
             | m->vision_patch | m->vision_image | m->vision_channels
             | m->vision_feature_layer | m->projector_merge | m->vision_global_layers
             | m->vision_tiles | m->vision_aspect_ratios | m->vision_intermediate_layers
             | m->cross_attn_layer_period | m->cross_attn_layer_offset) == 0
            && m->projector == HR_PROJECTOR_NONE)
           || validate_no_vision (m, error);

  if (m->projector == HR_PROJECTOR_NONE)
    FAIL ("model.projector", _("none leaves the vision tower unconnected; allowed with a "
          "vision tower: mlp2x_gelu (LLaVA), patch_merger (Qwen2-VL) or linear (Llama 3.2 "
          "Vision)"));
  if (m->vision != HR_VISION_MLLAMA && !validate_no_mllama (m, error))
    return FALSE;
  if (m->vision != HR_VISION_MLLAMA && m->projector == HR_PROJECTOR_LINEAR)
    FAIL ("model.projector", _("linear is Llama 3.2 Vision's; allowed with model.vision = %s: %s"),
          hr_enum_name (&hr_vision_names, m->vision),
          m->vision == HR_VISION_CLIP ? "mlp2x_gelu" : "patch_merger");
  if (!hr_check_range ("model.vision_layers", m->vision_layers, 1, HR_MAX_LAYERS, error)
      || !hr_check_range ("model.vision_hidden", m->vision_hidden, 1, HR_MAX_HIDDEN, error)
      || !hr_check_range ("model.vision_heads", m->vision_heads, 1, HR_MAX_HEADS, error)
      || !hr_check_range ("model.vision_ffn", m->vision_ffn, 1, HR_MAX_FFN, error)
      || !hr_check_range ("model.vision_patch", m->vision_patch, 1, HR_MAX_IMAGE, error)
      || !hr_check_range ("model.vision_image", m->vision_image, 1, HR_MAX_IMAGE, error)
      || !hr_check_range ("model.vision_feature_layer", m->vision_feature_layer, 0,
                          m->vision_layers, error))
    return FALSE;
  if (m->vision_hidden % m->vision_heads != 0)
    FAIL ("model.vision_heads", _("%" PRIu64 " does not divide model.vision_hidden = %"
          PRIu64 "; allowed: a divisor of it"), m->vision_heads, m->vision_hidden);
  if (m->vision_image % m->vision_patch != 0)
    FAIL ("model.vision_patch", _("%" PRIu64 " does not divide model.vision_image = %"
          PRIu64 "; allowed: a divisor of it"), m->vision_patch, m->vision_image);

  /* The towers' own projectors: LLaVA's MLP reads CLIP's features, the
   * patch merger Qwen2-VL's (their activations and token counts are
   * those of these pairs). */
  if (m->vision == HR_VISION_CLIP && m->projector != HR_PROJECTOR_MLP2X_GELU)
    FAIL ("model.projector", _("%s is not planned with a CLIP vision tower; allowed: mlp2x_gelu"),
          hr_enum_name (&hr_projector_names, m->projector));
  if (m->vision == HR_VISION_QWEN2_VL && m->projector != HR_PROJECTOR_PATCH_MERGER)
    FAIL ("model.projector", _("%s is not planned with a Qwen2-VL vision tower; allowed: "
          "patch_merger"), hr_enum_name (&hr_projector_names, m->projector));
  if (m->vision == HR_VISION_MLLAMA && !validate_mllama (sc, error))
    return FALSE;
  side = m->vision_image / m->vision_patch;
  merge = hr_model_projector_merge (m);
  if (m->projector != HR_PROJECTOR_PATCH_MERGER && m->projector_merge > 1)
    FAIL ("model.projector_merge", _("%" PRIu64 " is the patch merger's; allowed with "
          "model.projector = mlp2x_gelu: 0 or 1"), m->projector_merge);
  if (side % merge != 0)
    FAIL ("model.projector_merge", _("%" PRIu64 " does not divide the %" PRIu64
          " patches on each side of the image (vision_image / vision_patch); allowed: a "
          "divisor of %" PRIu64), merge, side, side);

  {
    /* The tower's count in double first, as validate_model does. */
    double h = m->vision_hidden, f = m->vision_ffn, H = m->hidden;
    double w = h * (double) merge * (double) merge;
    double n = (double) (m->vision_layers + m->vision_global_layers) * (4.0 * h * h + 2.0 * h * f)
               + (double) side * (double) side * h + w * w + w * H + h * H + H * H
               /* Llama 3.2 Vision's tile position table and features */
               + ((double) m->vision_aspect_ratios + 1.0) * (double) m->vision_tiles
                 * ((double) side * (double) side + 1.0) * h
               + h * (double) m->vision_intermediate_layers * H;

    if (n > HR_MAX_PARAMS)
      FAIL ("model", _("about %.3g parameters is more than Headroom plans; "
            "allowed: up to 10^15"), n);
  }

  tokens = hr_model_image_tokens (m);
  if ((double) t->images_per_sample * (double) tokens > (double) t->seq_len)
    FAIL ("training.images_per_sample", _("%" PRIu64 " images of %" PRIu64 " tokens each "
          "do not fit in training.seq_len = %" PRIu64 ", which counts them; allowed: 0 to %"
          PRIu64), t->images_per_sample, tokens, t->seq_len, t->seq_len / MAX (tokens, 1));

  if (m->kind != HR_KIND_DECODER || m->head != HR_HEAD_LM)
    FAIL ("model.kind", _("%s is not planned with a vision tower; allowed: decoder with "
          "head lm"), hr_enum_name (&hr_kind_names, m->kind));
  if (m->ssm != HR_SSM_NONE || m->attention_kind != HR_ATTN_KIND_STANDARD
      || m->mtp_modules != 0)
    FAIL (m->ssm != HR_SSM_NONE ? "model.ssm" : m->attention_kind != HR_ATTN_KIND_STANDARD
          ? "model.attention_kind" : "model.mtp_modules", _("is not planned with a vision "
          "tower; allowed: ssm none, attention_kind standard, mtp_modules 0"));
  /* (Adafactor's factored states of the tower's 4-D patch convolution,
   * and per-op checkpointing of its layers, are not planned.) */
  if (hr_optimizer_info (t->optimizer)->factored)
    FAIL ("training.optimizer", _("%s is not planned with a vision tower; allowed: an "
          "optimizer without factored states"), hr_enum_name (&hr_optimizer_names, t->optimizer));
  /* Which linears bitsandbytes quantizes differs between LLaVA's own
   * train.py (the tower loaded apart, in 16 bits; llm_int8_skip_modules
   * mm_projector) and transformers' loader (every nn.Linear but the LM
   * head): not planned rather than planned as one of them. */
  if (t->method == HR_METHOD_QLORA)
    FAIL ("training.method", _("qlora is not planned with a vision tower (whether its "
          "linears are quantized depends on the loader); allowed: full, lora"));
  if (t->checkpointing == HR_CHECKPOINTING_OP)
    FAIL ("training.checkpointing", _("\"op\" is not planned with a vision tower; allowed: "
          "none, selective, full"));
  if (p->tp > 1 || p->pp > 1 || p->cp > 1)
    FAIL (p->tp > 1 ? "parallel.tp" : p->pp > 1 ? "parallel.pp" : "parallel.cp",
          _("is not planned with a vision tower (Hugging Face runs it whole, beside the "
          "language model's first layer); allowed: 1"));
  return TRUE;
}
