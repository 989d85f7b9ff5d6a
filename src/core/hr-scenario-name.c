/* hr-scenario-name.c: a scenario's name from what it plans
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Llama 2 70B, ZeRO-3, 8x H100": the model, the method when it is not
 * full fine-tuning, the layout (ZeRO stage or data parallelism, then the
 * tensor, pipeline, context and expert degrees) and the GPUs.  The window
 * names a scenario this way until the user gives it a name of their own,
 * and follows the plan while it does; headroom-cli can print it for a
 * scenario that has none.  Names are data (they are saved in files), so
 * they are not translated.
 */

#include "hr-scenario-name.h"

#include <string.h>

/* "H100 SXM 80GB" -> "H100", "RTX 4090 24GB" -> "RTX 4090",
 * "A10G 24GB (AWS G5)" -> "A10G": the name up to its form factor, its
 * memory or a remark in parentheses. */
char *
hr_gpu_short_name (const char *name)
{
  static const char * const form_factors[] = { "SXM", "SXM2", "SXM4", "SXM5", "PCIe", "NVL",
                                               "HGX", "OAM" };
  g_auto(GStrv) words = g_strsplit (name != NULL ? name : "", " ", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *w = words[i];
      gboolean stop = w[0] == '(';
      gsize n = strlen (w);

      for (guint f = 0; f < G_N_ELEMENTS (form_factors) && !stop; f++)
        stop = g_ascii_strcasecmp (w, form_factors[f]) == 0;
      /* "80GB", "141GB", "16GB" */
      if (!stop && n > 2 && g_ascii_isdigit (w[0])
          && (g_str_has_suffix (w, "GB") || g_str_has_suffix (w, "GiB")))
        stop = TRUE;
      if (stop && out->len > 0)
        break;
      if (w[0] == '\0')
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, w);
    }
  return g_string_free (out, FALSE);
}

static void
append_part (GString    *name,
             const char *part)
{
  if (name->len > 0)
    g_string_append (name, ", ");
  g_string_append (name, part);
}

/* "ZeRO-3, TP 8, PP 4": how the GPUs share the work; "" on one GPU. */
static void
append_layout (GString          *name,
               const HrScenario *sc)
{
  const HrParallel *p = &sc->parallel;
  guint64 dp = hr_parallel_dp_degree (p);

  if (p->gpus <= 1)
    return;
  if (p->zero > 0)
    {
      g_autofree char *zero = g_strdup_printf ("ZeRO-%" G_GUINT64_FORMAT, p->zero);

      append_part (name, zero);
    }
  else if (dp > 1)
    append_part (name, "DDP");
  if (p->tp > 1)
    {
      g_autofree char *tp = g_strdup_printf ("TP %" G_GUINT64_FORMAT, p->tp);

      append_part (name, tp);
    }
  if (p->pp > 1)
    {
      g_autofree char *pp = g_strdup_printf ("PP %" G_GUINT64_FORMAT, p->pp);

      append_part (name, pp);
    }
  if (p->cp > 1)
    {
      g_autofree char *cp = g_strdup_printf ("CP %" G_GUINT64_FORMAT, p->cp);

      append_part (name, cp);
    }
  if (p->ep > 1)
    {
      g_autofree char *ep = g_strdup_printf ("EP %" G_GUINT64_FORMAT, p->ep);

      append_part (name, ep);
    }
}

char *
hr_scenario_generate_name (const HrScenario *sc)
{
  GString *name = g_string_new (NULL);
  gsize before_layout;
  g_autofree char *gpu = NULL;
  g_autofree char *gpus = NULL;

  g_return_val_if_fail (sc != NULL, NULL);

  /* The model: its preset's name, or what it was called before it was
   * edited into a custom one. */
  if (sc->model.name[0] == '\0')
    g_string_append (name, "Custom model");
  else if (sc->model.preset[0] == '\0')
    g_string_append_printf (name, "%s (custom)", sc->model.name);
  else
    g_string_append (name, sc->model.name);

  if (sc->training.method == HR_METHOD_LORA)
    append_part (name, "LoRA");
  else if (sc->training.method == HR_METHOD_QLORA)
    append_part (name, "QLoRA");

  before_layout = name->len;
  append_layout (name, sc);
  /* Full fine-tuning goes without saying beside a layout. */
  if (name->len == before_layout && sc->training.method == HR_METHOD_FULL)
    append_part (name, "full fine-tuning");

  if (sc->gpu.preset[0] != '\0' && sc->gpu.name[0] != '\0')
    gpu = hr_gpu_short_name (sc->gpu.name);
  else
    gpu = g_strdup_printf ("%.0f GiB GPU", (double) sc->gpu.memory_mib / 1024.0);
  gpus = g_strdup_printf ("%" G_GUINT64_FORMAT "x %s", MAX (sc->parallel.gpus, 1), gpu);
  append_part (name, gpus);
  return g_string_free (name, FALSE);
}

/* Whether the scenario's name is the one it would be given. */
gboolean
hr_scenario_name_is_generated (const HrScenario *sc)
{
  char stored[sizeof sc->name];
  g_autofree char *generated = NULL;

  g_return_val_if_fail (sc != NULL, FALSE);
  /* Compared as it would be stored: a long name is cut to the buffer. */
  generated = hr_scenario_generate_name (sc);
  hr_copy_string (stored, sizeof stored, generated);
  return strcmp (stored, sc->name) == 0;
}

void
hr_scenario_set_generated_name (HrScenario *sc)
{
  g_autofree char *generated = NULL;

  g_return_if_fail (sc != NULL);
  generated = hr_scenario_generate_name (sc);
  hr_copy_string (sc->name, sizeof sc->name, generated);
}
