/* hr-model-group.c: what kind of model an architecture is, and its family
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model picker groups the presets by what their architecture is
 * (decoder, mixture of experts, encoder-decoder, encoder, vision,
 * state-space) and, within a group, by family.  The group comes from the
 * description itself, so a user's own preset lands where it belongs.
 */

#include "hr-model-group.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const struct
{
  HrModelGroup group;
  const char  *label;
} groups[] = {
  { HR_MODEL_GROUP_DECODER, N_("Decoder") },
  { HR_MODEL_GROUP_MOE, N_("Mixture of experts") },
  { HR_MODEL_GROUP_ENCODER_DECODER, N_("Encoder-decoder") },
  { HR_MODEL_GROUP_VISION_LANGUAGE, N_("Vision-language") },
  { HR_MODEL_GROUP_ENCODER, N_("Encoder") },
  { HR_MODEL_GROUP_VISION, N_("Vision") },
  { HR_MODEL_GROUP_STATE_SPACE, N_("State-space and hybrid") },
};
G_STATIC_ASSERT (G_N_ELEMENTS (groups) == HR_N_MODEL_GROUPS);

/* The first rule that holds: a model with SSM layers is a state-space
 * model even when it has experts (Jamba); experts make an MoE whatever
 * their attention (DeepSeek's latent attention too); then the stacks,
 * and a decoder with a vision tower is a vision-language model. */
HrModelGroup
hr_model_group (const HrModelArch *model)
{
  g_return_val_if_fail (model != NULL, HR_MODEL_GROUP_DECODER);

  if (model->ssm != HR_SSM_NONE)
    return HR_MODEL_GROUP_STATE_SPACE;
  if (model->experts > 1)
    return HR_MODEL_GROUP_MOE;
  if (model->kind == HR_KIND_ENCODER_DECODER)
    return HR_MODEL_GROUP_ENCODER_DECODER;
  if (model->vision != HR_VISION_NONE)
    return HR_MODEL_GROUP_VISION_LANGUAGE;
  if (model->kind == HR_KIND_ENCODER)
    return model->patch_dim > 0 ? HR_MODEL_GROUP_VISION : HR_MODEL_GROUP_ENCODER;
  return HR_MODEL_GROUP_DECODER;
}

const char *
hr_model_group_label (HrModelGroup group)
{
  g_return_val_if_fail (group < HR_N_MODEL_GROUPS, "");

  return groups[group].label;
}

/* The id's leading letters ("qwen" of qwen2.5-7b, "mamba" of mamba2-2.7b),
 * or with fewer than three its leading letters and digits ("t5" of
 * t5-base); written as the name writes it when the name starts with it
 * ("Qwen", "GPT", "DeepSeek", "T5"), else with a capital. */
char *
hr_model_family (const char *id,
                 const char *name)
{
  gsize n = 0;

  g_return_val_if_fail (id != NULL, NULL);

  while (g_ascii_isalpha (id[n]))
    n++;
  if (n < 3)
    while (g_ascii_isalnum (id[n]))
      n++;
  if (n == 0)
    return g_strdup (id);
  if (name != NULL && strlen (name) >= n && g_ascii_strncasecmp (name, id, n) == 0)
    return g_strndup (name, n);
  {
    char *family = g_strndup (id, n);

    family[0] = g_ascii_toupper (family[0]);
    return family;
  }
}
