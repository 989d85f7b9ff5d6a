/* hr-fields-read.c: a JSON object read through a field table, strictly
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Strict on purpose: an unknown key is a typo the user must hear about,
 * and a value of the wrong type or out of range names the path, the value
 * and what is allowed.
 */

#include "hr-fields-read.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-text.h"
#include "hr-validate.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <inttypes.h>
#include <string.h>

/* A short rendering of a JSON value for messages: "4.5", "\"bf17\"", "an object"
 * (the words translated, the values as the file has them). */
char *
hr_fields_describe_node (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("an array");
  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  {
    g_autofree char *text = hr_json_to_data (node, FALSE, NULL);

    return hr_text_for_message (text, 40);
  }
}

char *
hr_fields_keys_allowed (const Field *fields,
                        guint        n_fields,
                        const char  *extra)
{
  GString *s = g_string_new (NULL);

  if (extra != NULL)
    g_string_append (s, extra);
  for (guint i = 0; i < n_fields; i++)
    {
      if (fields[i].kind == F_SKIP)
        continue;
      if (s->len > 0)
        g_string_append (s, ", ");
      g_string_append (s, fields[i].key);
    }
  return g_string_free (s, FALSE);
}

gboolean
hr_fields_read_field (const Field  *field,
                      gpointer      base,
                      JsonNode     *node,
                      const char   *origin,
                      const char   *path,
                      GError      **error)
{
  gpointer ptr = G_STRUCT_MEMBER_P (base, field->offset);
  /* How the value reads in a message, made only for one: reading a
   * preset describes nothing. */
  g_autofree char *value = NULL;
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  switch (field->kind)
    {
    case F_UINT:
      if (type == G_TYPE_INT64)
        {
          gint64 v = json_node_get_int (node);

          if (v < 0)
            FAIL_AT (HR_ERROR_INVALID, path, _("%s is not allowed; allowed: a whole "
                     "number 0 or more"), (value = hr_fields_describe_node (node)));
          *(guint64 *) ptr = (guint64) v;
          return TRUE;
        }
      if (type == G_TYPE_DOUBLE)
        {
          double v = json_node_get_double (node);

          if (v >= 0 && v <= 9007199254740992.0 && floor (v) == v)
            {
              *(guint64 *) ptr = (guint64) v;
              return TRUE;
            }
          FAIL_AT (HR_ERROR_INVALID, path, _("%s is not allowed; allowed: a whole number "
                   "0 or more, up to 2^53"), (value = hr_fields_describe_node (node)));
        }
      FAIL_AT (HR_ERROR_TYPE, path, _("%s is not allowed; allowed: a whole number"),
               (value = hr_fields_describe_node (node)));

    case F_BOOL:
      if (type != G_TYPE_BOOLEAN)
        FAIL_AT (HR_ERROR_TYPE, path, _("%s is not allowed; allowed: true or false"),
                 (value = hr_fields_describe_node (node)));
      *(gboolean *) ptr = json_node_get_boolean (node);
      return TRUE;

    case F_DOUBLE:
      if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
        FAIL_AT (HR_ERROR_TYPE, path, _("%s is not allowed; allowed: a number"),
                 (value = hr_fields_describe_node (node)));
      {
        double v = json_node_get_double (node);

        if (!isfinite (v) || v < 0)
          FAIL_AT (HR_ERROR_INVALID, path, _("%s is not allowed; allowed: a number 0 or more"),
                   (value = hr_fields_describe_node (node)));
        *(double *) ptr = v;
      }
      return TRUE;

    case F_ENUM:
      {
        guint v;
        g_autofree char *allowed = NULL;

        if (type != G_TYPE_STRING
            || !hr_enum_parse (field->names, json_node_get_string (node), &v))
          FAIL_AT (type == G_TYPE_STRING ? HR_ERROR_INVALID : HR_ERROR_TYPE, path,
                   _("%s is not allowed; allowed: %s"),
                   (value = hr_fields_describe_node (node)),
                (allowed = hr_enum_allowed (field->names)));
        *(guint *) ptr = v;
        return TRUE;
      }

    case F_NAME:
      if (type != G_TYPE_STRING)
        FAIL_AT (HR_ERROR_TYPE, path, _("%s is not allowed; allowed: a string"),
                 (value = hr_fields_describe_node (node)));
      if ((field->flags & HR_FIELD_WHOLE) && strlen (json_node_get_string (node)) >= field->size)
        FAIL_AT (HR_ERROR_INVALID, path, _("%" PRIu64 " characters is too long; allowed: up "
                 "to %" PRIu64), (guint64) strlen (json_node_get_string (node)),
                 (guint64) field->size - 1);
      hr_copy_string (ptr, field->size > 0 ? field->size : HR_NAME_MAX, json_node_get_string (node));
      return TRUE;

    case F_SKIP:
    default:
      return TRUE;
    }
}

/* Reads every member of obj through the table; "skip" names members the
 * caller handles itself.  Returns the set of the fields that were read. */
gboolean
hr_fields_read_section (JsonObject   *obj,
                        const Field  *fields,
                        guint         n_fields,
                        gpointer      base,
                        const char   *origin,
                        const char   *section,
                        const char  **skip,
                        HrFieldMask  *out_read,
                        GError      **error)
{
  g_autoptr(GList) members = json_object_get_members (obj);
  HrFieldMask read = { { 0 } };

  g_return_val_if_fail (n_fields <= HR_FIELD_MASK_BITS, FALSE);

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      const Field *field = NULL;
      char path[128];

      if (skip != NULL && g_strv_contains (skip, key))
        continue;
      for (guint i = 0; i < n_fields && field == NULL; i++)
        if (strcmp (fields[i].key, key) == 0)
          field = &fields[i];
      if (field == NULL)
        {
          /* Escaped, so a key with a line break still makes a one-line
           * message. */
          g_autofree char *shown = hr_text_for_message (key, 40);
          g_autofree char *where = *section != '\0' ? g_strdup_printf ("%s.%s", section, shown)
                                                     : g_strdup (shown);
          g_autofree char *skipped = skip != NULL ? g_strjoinv (", ", (char **) skip) : NULL;
          g_autofree char *allowed = hr_fields_keys_allowed (fields, n_fields, skipped);

          FAIL_AT (HR_ERROR_UNKNOWN_KEY, where, _("unknown key; allowed: %s"), allowed);
        }
      /* The path for a message, from the table's own key: built on the
       * stack, since every file read passes here for every key. */
      g_strlcpy (path, section, sizeof path);
      if (*section != '\0')
        g_strlcat (path, ".", sizeof path);
      g_strlcat (path, field->key, sizeof path);
      if (!hr_fields_read_field (field, base, json_object_get_member (obj, key), origin, path,
                                 error))
        return FALSE;
      hr_field_mask_add (&read, (guint) (field - fields));
    }
  if (out_read != NULL)
    *out_read = read;
  return TRUE;
}

JsonObject *
hr_fields_member_object (JsonObject   *obj,
                         const char   *key,
                         const char   *origin,
                         const char   *path,
                         GError      **error)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *value = hr_fields_describe_node (node);

      hr_error_set_field_in (error, HR_ERROR_TYPE, origin, path, _("%s is not allowed; "
                             "allowed: an object"), value);
      return NULL;
    }
  return json_node_get_object (node);
}

/* training.lora.targets: an array of layer names, or "all-linear". */
gboolean
hr_fields_read_lora_targets (HrTraining  *t,
                             JsonNode    *node,
                             const char  *origin,
                             GError     **error)
{
  g_autofree char *allowed = hr_enum_allowed (&hr_lora_target_names);
  guint targets = 0;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
      && strcmp (json_node_get_string (node), "all-linear") == 0)
    {
      t->lora.targets = HR_LORA_ALL_LINEAR;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *value = hr_fields_describe_node (node);

      FAIL_AT (HR_ERROR_TYPE, "training.lora.targets", _("%s is not allowed; allowed: an "
               "array of %s, or \"all-linear\""), value, allowed);
    }

  {
    JsonArray *array = json_node_get_array (node);

    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonNode *item = json_array_get_element (array, i);
        guint v;

        if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING
            || !hr_enum_parse (&hr_lora_target_names, json_node_get_string (item), &v))
          {
            g_autofree char *value = hr_fields_describe_node (item);
            g_autofree char *path = g_strdup_printf ("training.lora.targets[%u]", i);

            FAIL_AT (HR_ERROR_INVALID, path, _("%s is not allowed; allowed: %s"), value, allowed);
          }
        targets |= 1u << v;
      }
  }
  t->lora.targets = targets;
  return TRUE;
}

/* parallel.stage_layers: an array of whole numbers, one per (virtual)
 * pipeline stage; [] is an even split.  The sum and the count are checked
 * against the model and the layout by hr_scenario_validate. */
gboolean
hr_fields_read_stage_layers (HrParallel  *p,
                             JsonNode    *node,
                             const char  *origin,
                             GError     **error)
{
  JsonArray *array;
  guint n;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *value = hr_fields_describe_node (node);

      FAIL_AT (HR_ERROR_TYPE, "parallel.stage_layers", _("%s is not allowed; allowed: an "
               "array of whole numbers, the layers of each pipeline stage"), value);
    }
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > HR_MAX_STAGE_LAYERS)
    FAIL_AT (HR_ERROR_INVALID, "parallel.stage_layers", _("%u stages is too many; allowed: "
             "up to %d"), n, HR_MAX_STAGE_LAYERS);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      gint64 v = JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_INT64
                 ? json_node_get_int (item) : -1;

      if (v < 1 || v > HR_MAX_LAYERS)
        {
          g_autofree char *value = hr_fields_describe_node (item);
          g_autofree char *path = g_strdup_printf ("parallel.stage_layers[%u]", i);

          FAIL_AT (HR_ERROR_INVALID, path, _("%s is not allowed; allowed: a whole number "
                   "1 to %d"), value, HR_MAX_LAYERS);
        }
      p->stage_layers[i] = (guint32) v;
    }
  p->n_stage_layers = n;
  return TRUE;
}
