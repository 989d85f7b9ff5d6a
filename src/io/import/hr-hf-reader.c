/* hr-hf-reader.c: reading one value of a config.json
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every family's importer (hr-hf-import*.c) reads with: a bad value
 * is kept in the reader (the first one wins) and reported with the file
 * and the key; an absent one leaves the family's default in place.
 */

#include "hr-hf-import-private.h"
#include "hr-error.h"
#include "hr-fields-read.h"
#include "hr-text.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

/* A whole number from min to max, TRUE when present.  null is absent
 * (transformers writes "n_inner": null); a whole float (32.0) counts as a
 * whole number, as in a scenario file; anything else is the file's error,
 * naming the key and echoing the value. */
gboolean
hr_hf_get_uint (HrHfReader *r,
                const char *key,
                guint64     min,
                guint64     max,
                guint64    *out)
{
  JsonNode *node = json_object_get_member (r->obj, key);
  g_autofree char *value = NULL;
  GType type;
  double d;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node) || r->error != NULL)
    return FALSE;
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  value = hr_fields_describe_node (node);
  if (type == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);

      if (v >= 0 && (guint64) v >= min && (guint64) v <= max)
        {
          *out = (guint64) v;
          return TRUE;
        }
      g_set_error (&r->error, HR_ERROR, HR_ERROR_INVALID, _("%s: %s: %s is out of range; "
                   "allowed: %" PRIu64 " to %" PRIu64),
                   r->origin, key, value, min, max);
      return FALSE;
    }
  d = type == G_TYPE_DOUBLE ? json_node_get_double (node) : -1;
  if (type == G_TYPE_DOUBLE && d >= (double) min && d <= (double) max && floor (d) == d)
    {
      *out = (guint64) d;
      return TRUE;
    }
  g_set_error (&r->error, HR_ERROR, type == G_TYPE_DOUBLE ? HR_ERROR_INVALID : HR_ERROR_TYPE,
               _("%s: %s: %s is not allowed; allowed: a whole number %" PRIu64
               " to %" PRIu64), r->origin, key, value, min, max);
  return FALSE;
}

/* The first of several names that is present (NULL-terminated keys). */
gboolean
hr_hf_get_uint_any (HrHfReader         *r,
                    const char * const *keys,
                    guint64             min,
                    guint64             max,
                    guint64            *out)
{
  for (guint i = 0; keys[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (r->obj, keys[i]);

      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        return hr_hf_get_uint (r, keys[i], min, max, out);
    }
  return FALSE;
}

/* A string, or NULL where the key is absent or holds another type. */
const char *
hr_hf_get_string (JsonObject *obj,
                  const char *key)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

void
hr_hf_init_rms_decoder (HrModelArch *out,
                        HrMlp        mlp)
{
  out->kind = HR_KIND_DECODER;
  out->head = HR_HEAD_LM;
  out->norm = HR_NORM_RMSNORM;
  out->mlp = mlp;
  out->bias = HR_BIAS_NONE;
  out->experts = out->experts_active = 1;
}

/* A boolean, or fallback where the key is absent or holds another type. */
gboolean
hr_hf_get_bool (JsonObject *obj,
                const char *key,
                gboolean    fallback)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (node);
}

gboolean
hr_hf_refuse (const char  *origin,
              const char  *key,
              const char  *value,
              const char  *architecture,
              const char  *allowed,
              GError     **error)
{
  g_autofree char *shown = hr_text_for_message (value, 40);

  /* TRANSLATORS: the fourth %s is an architecture, "Llama 3.2 Vision" or
   * "a vision-language model" (translated on its own) */
  g_set_error (error, HR_ERROR, HR_ERROR_INVALID, _("%s: %s: %s is not supported for %s; allowed: %s"),
               origin, key, shown, architecture, allowed);
  return FALSE;
}
