/* hr-cli-list.c: headroom-cli --list
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bundled and user presets of a kind (id and name), the framework
 * profiles, or every scenario field from the field table.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "hr-cli-commands.h"
#include "hr-enums.h"
#include "hr-frameworks.h"
#include "hr-scenario-fields.h"

/* The longest field path, so the path column holds every one whole. */
static int
longest_path (void)
{
  gsize longest = 0;

  for (guint s = 0; s < hr_field_sections_count; s++)
    for (guint f = 0; f < *hr_field_sections[s].n_fields; f++)
      longest = MAX (longest, strlen (hr_field_sections[s].path) + 1
                              + strlen (hr_field_sections[s].fields[f].key));
  return (int) longest;
}

/* Every scenario field, from the field table: path, what is allowed,
 * the default scenario's value and the form's label. */
static int
list_fields (void)
{
  int width = longest_path ();
  HrScenario sc;

  hr_scenario_init_default (&sc);
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gconstpointer base = G_STRUCT_MEMBER_P (&sc, section->offset);

      for (guint f = 0; f < *section->n_fields; f++)
        {
          const Field *field = &section->fields[f];
          g_autofree char *path = g_strconcat (section->path, ".", field->key, NULL);
          g_autofree char *allowed = NULL;
          g_autofree char *value = NULL;
          char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (lo, sizeof lo, "%.15g", field->min);
          g_ascii_formatd (hi, sizeof hi, "%.15g", field->max);
          switch (field->kind)
            {
            case F_UINT:
              allowed = g_strdup_printf ("%s to %s", lo, hi);
              value = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                       *(const guint64 *) G_STRUCT_MEMBER_P (base, field->offset));
              break;
            case F_DOUBLE:
              /* A negative "absent" is "work it out" (comm_buffer_mib,
               * blas_workspace_mib): never written, and a file or --set
               * gives 0 or more. */
              if ((field->flags & HR_FIELD_OPTIONAL) && field->absent < 0)
                allowed = g_strdup_printf ("0 to %s, or left out (automatic)", hi);
              else
                allowed = g_strdup_printf ("%s to %s", lo, hi);
              value = (field->flags & HR_FIELD_OPTIONAL) && field->absent < 0
                      && hr_field_get_number (field, base) == field->absent
                      ? g_strdup ("automatic")
                      : g_strdup_printf ("%g", hr_field_get_number (field, base));
              break;
            case F_BOOL:
              allowed = g_strdup ("true, false");
              value = g_strdup (hr_field_get_number (field, base) != 0 ? "true" : "false");
              break;
            case F_ENUM:
              allowed = hr_enum_allowed (field->names);
              value = g_strdup (hr_enum_name (field->names, (guint) hr_field_get_number (field, base)));
              break;
            case F_NAME:
              allowed = g_strdup_printf ("a string, up to %" G_GSIZE_FORMAT " bytes", field->size - 1);
              value = hr_cli_shown (G_STRUCT_MEMBER_P (base, field->offset));
              break;
            case F_SKIP:
            default:
              continue;
            }
          printf ("%-*s %-44s %-14s %s\n", width, path, allowed, value, field->label);
        }
    }
  /* The two arrays, read outside the table (hr-fields-read.c). */
  {
    g_autofree char *targets = hr_enum_allowed (&hr_lora_target_names);
    g_autofree char *allowed = g_strdup_printf ("an array of %s, or \"all-linear\"", targets);

    printf ("%-*s %-44s %-14s %s\n", width, "training.lora.targets", allowed,
            sc.training.lora.targets == HR_LORA_ALL_LINEAR ? "all-linear" : "a list",
            "LoRA targets");
    printf ("%-*s %-44s %-14s %s\n", width, "parallel.stage_layers",
            "an array of layer counts, one per stage", "[] (even)", "Layers per pipeline stage");
  }
  return EXIT_PLANNED;
}

/* --list: the presets of a kind, the framework profiles or the fields. */
int
hr_cli_list (HrPresets  *presets,
             const char *what)
{
  HrPresetKind kind;
  g_autoptr(GPtrArray) list = NULL;
  int width = 24;

  if (g_strcmp0 (what, "fields") == 0)
    return list_fields ();
  if (g_strcmp0 (what, "frameworks") == 0)
    {
      for (guint i = 0; i < hr_frameworks_count (); i++)
        {
          const HrFramework *f = hr_framework_get (i);
          g_autofree char *name = hr_cli_shown (f->name);
          g_autofree char *summary = hr_cli_shown (f->summary);

          g_autofree char *versions = hr_cli_shown (f->versions);

          printf ("%-24s %s: %s\n", f->id, name, summary);
          /* TRANSLATORS: the versions of a framework a profile was read from */
          printf ("%-24s %s %s\n", "", _("holds for:"), versions);
        }
      /* A profile left out for a bad value is named, not dropped silently. */
      for (guint i = 0; i < hr_frameworks_problems ()->len; i++)
        hr_cli_note ("%s", (char *) g_ptr_array_index (hr_frameworks_problems (), i));
      return EXIT_PLANNED;
    }
  if (g_strcmp0 (what, "models") == 0)
    kind = HR_PRESET_MODEL;
  else if (g_strcmp0 (what, "gpus") == 0)
    kind = HR_PRESET_GPU;
  else if (g_strcmp0 (what, "scenarios") == 0)
    kind = HR_PRESET_SCENARIO;
  else
    {
      g_autofree char *msg = g_strdup_printf ("--list: \"%s\" is not allowed; allowed: "
                                              "models, gpus, scenarios, frameworks or fields", what);
      return hr_cli_bad_input (msg);
    }

  list = hr_presets_list (presets, kind);
  /* The names in one column, however long the longest id. */
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autofree char *id = hr_cli_shown (info->id);

      width = MAX (width, (int) MIN (strlen (id), 64));
    }
  for (guint i = 0; i < list->len; i++)
    {
      HrPresetInfo *info = g_ptr_array_index (list, i);
      g_autofree char *id = hr_cli_shown (info->id);
      g_autofree char *name = hr_cli_shown (info->name);

      printf ("%-*s %s\n", width, id, name);
    }
  return EXIT_PLANNED;
}

