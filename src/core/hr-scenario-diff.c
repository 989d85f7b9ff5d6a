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
          hr_field_get_text (field, a, x, sizeof x);
          hr_field_get_text (field, b, y, sizeof y);
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
