/* hr-scenario-writer.c: scenario files out (CONTRACT.md section 1)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A saved scenario spells out the whole architecture, so it plans the same
 * on a machine whose presets differ.  Every field comes from the field
 * table (src/core/hr-scenario-fields.c), so a new field is saved without a
 * line here; optional (extension) keys are written only when they hold
 * something else than their "absent" value, to keep files short, but in a
 * model section that names its preset, where a key left out would be the
 * preset's.
 */

#include "hr-scenario-io.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-scenario-fields.h"

#include <string.h>

/* One field as its JSON member. */
static void
add_field (JsonBuilder   *b,
           const Field   *field,
           gconstpointer  base)
{
  gconstpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);

  json_builder_set_member_name (b, field->key);
  switch (field->kind)
    {
    case F_UINT:
      json_builder_add_int_value (b, (gint64) *(const guint64 *) ptr);
      break;
    case F_BOOL:
      json_builder_add_boolean_value (b, *(const gboolean *) ptr);
      break;
    case F_DOUBLE:
      json_builder_add_double_value (b, *(const double *) ptr);
      break;
    case F_ENUM:
      json_builder_add_string_value (b, hr_enum_name (field->names, *(const guint *) ptr));
      break;
    case F_NAME:
      json_builder_add_string_value (b, ptr);
      break;
    case F_SKIP:
    default:
      g_assert_not_reached ();
    }
}

/* What a section writes besides its table's fields: the preset it starts
 * from, LoRA's targets, and only the dtypes the recipe was overridden on. */
static void
add_section_extras (JsonBuilder      *b,
                    const char       *path,
                    const HrScenario *sc)
{
  const char *preset = strcmp (path, "model") == 0 ? sc->model.preset
                       : strcmp (path, "gpu") == 0 ? sc->gpu.preset : NULL;

  if (preset != NULL && preset[0] != '\0')
    {
      json_builder_set_member_name (b, "preset");
      json_builder_add_string_value (b, preset);
    }
  if (strcmp (path, "parallel") == 0 && sc->parallel.n_stage_layers > 0)
    {
      json_builder_set_member_name (b, "stage_layers");
      json_builder_begin_array (b);
      for (guint i = 0; i < sc->parallel.n_stage_layers; i++)
        json_builder_add_int_value (b, sc->parallel.stage_layers[i]);
      json_builder_end_array (b);
    }
  if (strcmp (path, "training.lora") == 0)
    {
      json_builder_set_member_name (b, "targets");
      json_builder_begin_array (b);
      for (guint i = 0; i < HR_N_LORA_TARGETS; i++)
        if (sc->training.lora.targets & (1u << i))
          json_builder_add_string_value (b, hr_enum_name (&hr_lora_target_names, i));
      json_builder_end_array (b);
    }
}

static gboolean
field_written (const HrFieldSection *section,
               guint                 index,
               const HrScenario     *sc)
{
  const Field *field = &section->fields[index];
  gconstpointer base = G_STRUCT_MEMBER_P (sc, section->offset);

  if (field->kind == F_SKIP)
    return FALSE;
  /* Under a named preset the reader lays the file's keys over the
   * preset's: an optional key left out would take the preset's value, not
   * its "absent" one (a DeepSeek-V3 file with dense_layers 0 reopened with
   * V3's 3), so a model that names its preset writes every key. */
  if (hr_field_is_absent (field, base)
      && !(strcmp (section->path, "model") == 0 && sc->model.preset[0] != '\0'))
    return FALSE;
  if (strcmp (section->path, "training.dtypes") == 0)
    return (sc->training.dtypes_set & (1u << index)) != 0;
  return TRUE;
}

/* The section at S and, nested in it, the sections under its path. */
static void
add_section (JsonBuilder      *b,
             guint             s,
             const HrScenario *sc)
{
  const HrFieldSection *section = &hr_field_sections[s];
  const char *dot = strrchr (section->path, '.');
  gsize n = strlen (section->path);

  json_builder_set_member_name (b, dot != NULL ? dot + 1 : section->path);
  json_builder_begin_object (b);
  add_section_extras (b, section->path, sc);
  for (guint f = 0; f < *section->n_fields; f++)
    if (field_written (section, f, sc))
      add_field (b, &section->fields[f], G_STRUCT_MEMBER_P (sc, section->offset));
  for (guint t = s + 1; t < hr_field_sections_count; t++)
    {
      const char *path = hr_field_sections[t].path;

      if (strncmp (path, section->path, n) != 0 || path[n] != '.' || strchr (path + n + 1, '.'))
        continue;
      if (strcmp (path, "training.dtypes") == 0 && sc->training.dtypes_set == 0)
        continue;
      add_section (b, t, sc);
    }
  json_builder_end_object (b);
}

JsonNode *
hr_scenario_to_json (const HrScenario *scenario)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

  g_return_val_if_fail (scenario != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "headroom");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, scenario->name);
  if (scenario->description[0] != '\0')
    {
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, scenario->description);
    }
  for (guint s = 0; s < hr_field_sections_count; s++)
    if (strchr (hr_field_sections[s].path, '.') == NULL)
      add_section (b, s, scenario);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
hr_scenario_to_data (const HrScenario *scenario,
                     gsize            *length)
{
  g_autoptr(JsonNode) root = hr_scenario_to_json (scenario);
  g_autofree char *text = hr_json_to_data (root, TRUE, length);

  /* End with a newline, as text files do. */
  if (length != NULL)
    *length += 1;
  return g_strconcat (text, "\n", NULL);
}
