/* hr-field-text.c: fields in messages, by the labels the form shows
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The core's messages name fields by their paths in the scenario file
 * ("training.micro_batch: 0 is out of range"), which is what headroom-cli
 * and a file's author need.  The window names them as its form does
 * ("Micro-batch: 0 is out of range"): the label from the field table,
 * translated, for the field the error is about and for every other path
 * its reason mentions.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-field-text.h"
#include "hr-error.h"
#include "hr-scenario-fields.h"

/* Paths the form shows as a row or a group, that the table does not hold. */
static const struct { const char *path; const char *label; } other_labels[] = {
  { "name", N_("Name") },
  { "model", N_("Model") },
  { "model.preset", N_("Model") },
  { "gpu.preset", N_("GPU") },
  { "training.framework", N_("Framework") },
  { "training.lora.targets", N_("LoRA targets") },
  { "training.dtypes", N_("Data types") },
  { "training", N_("Training") },
  { "parallel", N_("Parallelism") },
  { "gpu", N_("Hardware") },
  { "overhead", N_("Overheads") },
  { "cost", N_("Time and cost") },
};

/* The translated label of the field path names, or of the nearest field
 * or group it belongs to ("training.lora.targets[2]" is "LoRA targets");
 * NULL for what is no field. */
const char *
hr_field_text_label (const char *path)
{
  g_autofree char *key = NULL;

  if (path == NULL || *path == '\0')
    return NULL;
  key = g_strdup (path);
  g_strdelimit (key, "[", '\0');
  for (;;)
    {
      const Field *field = hr_field_find (key, NULL);
      char *dot;

      if (field != NULL && field->label != NULL)
        return _(field->label);
      for (guint i = 0; i < G_N_ELEMENTS (other_labels); i++)
        if (strcmp (other_labels[i].path, key) == 0)
          return _(other_labels[i].label);
      dot = strrchr (key, '.');
      if (dot == NULL)
        return NULL;
      *dot = '\0';
    }
}

static gboolean
is_path_char (char c)
{
  return g_ascii_islower (c) || g_ascii_isdigit (c) || c == '_';
}

/* text with every field path in it ("model.hidden") replaced by the
 * field's label; words that are no field's path stay as they are.
 *
 * The error's own field comes from hr_error_field, never from here.  The
 * other paths a reason mentions ("48 does not divide model.hidden = 5120")
 * are words of its translated sentence, written into the check's format
 * where the translator put them: a list of them carried beside the
 * message would still leave this to find each one in the text to put its
 * label there, and it would be a second copy, kept by hand in every
 * check, of what the sentence already says.  Naming them without the
 * text would need each check to format its reason twice (paths, labels),
 * so the words are scanned, and only for the field table's paths. */
char *
hr_field_text_labels (const char *text)
{
  GString *out;
  const char *p;

  if (text == NULL)
    return NULL;
  out = g_string_sized_new (strlen (text));
  p = text;
  while (*p != '\0')
    {
      const char *end = p;
      gboolean dotted = FALSE;

      /* A run of lowercase words joined by dots, at a word's start. */
      if (g_ascii_islower (*p) && (p == text || !is_path_char (p[-1])))
        {
          while (is_path_char (*end) || (*end == '.' && g_ascii_islower (end[1])))
            {
              dotted |= *end == '.';
              end++;
            }
        }
      if (dotted)
        {
          g_autofree char *path = g_strndup (p, end - p);
          const Field *field = hr_field_find (path, NULL);

          if (field != NULL && field->label != NULL)
            {
              g_string_append (out, _(field->label));
              p = end;
              continue;
            }
        }
      if (end > p)
        {
          g_string_append_len (out, p, end - p);
          p = end;
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* "Attention heads: 48 does not divide Hidden size = 5120": the error's
 * field by its label, then its reason in the form's words. */
char *
hr_field_text_for_error (const GError *error)
{
  const char *label;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (error != NULL, NULL);
  label = hr_field_text_label (hr_error_field (error));
  if (label == NULL)
    return hr_field_text_labels (error->message);
  reason = hr_field_text_labels (hr_error_reason (error));
  /* A value of a file (a broken preset) still names the file first. */
  if (hr_error_origin (error) != NULL)
    return g_strdup_printf ("%s: %s: %s", hr_error_origin (error), label, reason);
  /* TRANSLATORS: a field's label, then what is wrong with its value */
  return g_strdup_printf (_("%s: %s"), label, reason);
}
