/* hr-measured-gpu.c: the GPU preset a measured run's words name
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run names its GPU as its source does ("NVIDIA A100 80GB (DGX A100)",
 * "Tesla V100-SXM2-16GB").  The name's "80GB" gives the capacity; what
 * the plan needs of it besides is what the GPU presets hold:
 * the compute capability and the BLAS workspaces it sets (hr-calc.c).  So
 * the run takes the preset whose chip its name names, and keeps its own
 * name and capacity over the preset's; a name that names none keeps the
 * default GPU's (an H100's).
 */

#include "hr-measured-private.h"

#include <string.h>

void
hr_measured_add_gpu (JsonBuilder *b,
                     const char  *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  const char *gb = strstr (lower, "gb");
  gint64 size = 80;

  /* The capacity does not change what a run allocates; it only sets the
   * status.  "24GB" in the name gives it. */
  while (gb != NULL && gb > lower && g_ascii_isdigit (gb[-1]))
    gb--;
  if (gb != NULL && g_ascii_isdigit (*gb))
    size = g_ascii_strtoll (gb, NULL, 10);
  json_builder_set_member_name (b, "gpu");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, *name != '\0' ? name : "GPU");
  json_builder_set_member_name (b, "memory_mib");
  json_builder_add_int_value (b, CLAMP (size, 1, 4096) * 1024);
  json_builder_end_object (b);
}

/* A preset id's chip: its first dash-separated part with a digit
 * ("a100" of a100-sxm4-80gb, "4090" of rtx-4090, "mi300x"). */
static gboolean
is_chip (const char *part)
{
  return strpbrk (part, "0123456789") != NULL;
}

static gboolean
has_word (char * const *words,
          const char   *word)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (strcmp (words[i], word) == 0)
      return TRUE;
  return FALSE;
}

/* 0 when the name's words do not hold the id's chip; otherwise one more
 * for each of the id's other parts they hold ("sxm4", "80gb"), so that
 * "RTX 6000 Ada" takes rtx-6000-ada and not rtx-pro-6000-blackwell. */
static guint
id_score (const char   *id,
          char * const *words)
{
  g_auto(GStrv) parts = g_strsplit (id, "-", -1);
  gboolean chip_seen = FALSE;
  guint score = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      gboolean chip = !chip_seen && is_chip (parts[i]);

      if (chip && !has_word (words, parts[i]))
        return 0;
      chip_seen |= chip;
      if (has_word (words, parts[i]))
        score++;
    }
  return chip_seen ? score : 0;
}

/* The name's words: lower case, split at what is not a letter or digit. */
static GStrv
name_words (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  for (char *p = lower; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      *p = ' ';
  return g_strsplit_set (g_strstrip (lower), " ", -1);
}

void
hr_measured_add_gpu_preset (JsonNode *root,
                            Models   *models)
{
  JsonObject *gpu = json_object_get_object_member (json_node_get_object (root), "gpu");
  const char *name = gpu != NULL ? json_object_get_string_member_with_default (gpu, "name", "") : "";
  g_auto(GStrv) words = NULL;
  const char *best = NULL;
  guint best_score = 0;

  if (*name == '\0' || json_object_has_member (gpu, "preset"))
    return;
  if (models->gpus == NULL)
    models->gpus = hr_presets_list (models->presets, HR_PRESET_GPU);
  words = name_words (name);
  for (guint i = 0; i < models->gpus->len; i++)
    {
      const HrPresetInfo *info = g_ptr_array_index (models->gpus, i);
      guint score = id_score (info->id, words);

      if (score > best_score)
        {
          best = info->id;
          best_score = score;
        }
    }
  if (best != NULL)
    json_object_set_string_member (gpu, "preset", best);
}
