/* hr-field-access.c: reading and writing a scenario's fields through the
 * field table
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every user of the table (hr-scenario-fields.c: which fields there
 * are) does with one field: find it by its path, read its value as a
 * number, and tell or set its "not written" value.
 */

#include "hr-scenario-fields.h"

#include <string.h>

/* The field at PATH ("training.lora.rank"), and where its section's struct
 * starts in HrScenario; NULL for a path that is no field (or a skipped
 * documentation key). */
const Field *
hr_field_find (const char *path,
               gsize      *scenario_offset)
{
  const char *dot = path != NULL ? strrchr (path, '.') : NULL;

  if (dot == NULL)
    return NULL;
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gsize n = strlen (section->path);

      if ((gsize) (dot - path) != n || strncmp (path, section->path, n) != 0)
        continue;
      for (guint f = 0; f < *section->n_fields; f++)
        if (strcmp (section->fields[f].key, dot + 1) == 0 && section->fields[f].kind != F_SKIP)
          {
            if (scenario_offset != NULL)
              *scenario_offset = section->offset;
            return &section->fields[f];
          }
      return NULL;
    }
  return NULL;
}

/* A number, bool or enum field's value as a double (0 for a name). */
double
hr_field_get_number (const Field   *field,
                     gconstpointer  base)
{
  gconstpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);

  switch (field->kind)
    {
    case F_UINT:
      return (double) *(const guint64 *) ptr;
    case F_BOOL:
      return *(const gboolean *) ptr ? 1 : 0;
    case F_DOUBLE:
      return *(const double *) ptr;
    case F_ENUM:
      return *(const guint *) ptr;
    case F_NAME:
    case F_SKIP:
    default:
      return 0;
    }
}

/* FIELD's value in BASE as the writer puts it in a file. */
void
hr_field_get_text (const Field   *field,
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

/* Whether an optional field holds its "not written" value. */
gboolean
hr_field_is_absent (const Field   *field,
                    gconstpointer  base)
{
  if ((field->flags & HR_FIELD_OPTIONAL) == 0)
    return FALSE;
  if (field->kind == F_NAME)
    return *(const char *) G_STRUCT_MEMBER_P (base, field->offset) == '\0';
  return hr_field_get_number (field, base) == field->absent;
}

/* Sets an optional field to its "not written" value. */
void
hr_field_set_absent (const Field *field,
                     gpointer     base)
{
  gpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);

  g_return_if_fail (field->flags & HR_FIELD_OPTIONAL);
  switch (field->kind)
    {
    case F_UINT:
      *(guint64 *) ptr = (guint64) field->absent;
      break;
    case F_BOOL:
      *(gboolean *) ptr = field->absent != 0;
      break;
    case F_DOUBLE:
      *(double *) ptr = field->absent;
      break;
    case F_ENUM:
      *(guint *) ptr = (guint) field->absent;
      break;
    case F_NAME:
      *(char *) ptr = '\0';
      break;
    case F_SKIP:
    default:
      break;
    }
}

/* Every optional field of SCENARIO on its "not written" value: where a
 * new scenario starts, so that the table's `absent` is each optional
 * field's default and is written once. */
void
hr_fields_set_all_absent (HrScenario *scenario)
{
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gpointer base = G_STRUCT_MEMBER_P (scenario, section->offset);

      for (guint f = 0; f < *section->n_fields; f++)
        if (section->fields[f].flags & HR_FIELD_OPTIONAL)
          hr_field_set_absent (&section->fields[f], base);
    }
}
