/* hr-scenario-diff.c: which fields two scenarios set differently
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Compare view's page lists beside the memory that moved: every
 * field of the field table whose value differs, in the table's order (the
 * form's), with both values written as a scenario file writes them.
 */

#include "hr-scenario-diff.h"

#include <string.h>

/* FIELD's value in BASE as the writer puts it in a file. */
static void
field_text (const Field   *field,
            gconstpointer  base,
            char          *out,
            gsize          size)
{
  gconstpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);

  switch (field->kind)
    {
    case F_UINT:
      g_snprintf (out, size, "%" G_GUINT64_FORMAT, *(const guint64 *) ptr);
      break;
    case F_DOUBLE:
      g_ascii_formatd (out, size, "%.6g", *(const double *) ptr);
      break;
    case F_BOOL:
      g_strlcpy (out, *(const gboolean *) ptr ? "true" : "false", size);
      break;
    case F_ENUM:
      g_strlcpy (out, hr_enum_name (field->names, *(const guint *) ptr), size);
      break;
    case F_NAME:
      g_strlcpy (out, (const char *) ptr, size);
      break;
    case F_SKIP:
    default:
      *out = '\0';
      break;
    }
}

/* Fills CHANGES with up to MAX_CHANGES fields that differ; returns how
 * many differ in all (which may be more). */
guint
hr_scenario_diff (const HrScenario *before,
                  const HrScenario *after,
                  HrFieldChange    *changes,
                  guint             max_changes)
{
  guint n = 0;

  g_return_val_if_fail (before != NULL && after != NULL, 0);
  g_return_val_if_fail (changes != NULL || max_changes == 0, 0);

  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gconstpointer a = G_STRUCT_MEMBER_P (before, section->offset);
      gconstpointer b = G_STRUCT_MEMBER_P (after, section->offset);

      for (guint i = 0; i < *section->n_fields; i++)
        {
          const Field *field = &section->fields[i];
          char x[48], y[48];

          if (field->kind == F_SKIP)
            continue;
          field_text (field, a, x, sizeof x);
          field_text (field, b, y, sizeof y);
          if (strcmp (x, y) == 0)
            continue;
          if (n < max_changes)
            {
              HrFieldChange *c = &changes[n];

              c->field = field;
              g_snprintf (c->path, sizeof c->path, "%s.%s", section->path, field->key);
              g_strlcpy (c->before, x, sizeof c->before);
              g_strlcpy (c->after, y, sizeof c->after);
            }
          n++;
        }
    }
  return n;
}
