/* hr-scenario-model.c: the scenario as a GObject the form binds to
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every field of HrScenario is a property named after its path in the
 * scenario file ("parallel.zero" is "parallel-zero"), installed from one
 * table, so the form binds widgets with g_object_bind_property and an
 * error's path ("parallel.tp: ...") leads back to its widget.
 *
 * Two rules live here because they are about the scenario, not the form:
 * choosing a precision recipe refills the dtypes the user did not
 * override, and editing the architecture turns the model preset into a
 * custom model (UX-LESSONS.md point 8).
 */

#include "hr-scenario-model.h"
#include "hr-scenario-fields.h"

#include <string.h>

typedef enum
{
  K_UINT,      /* guint64 */
  K_ENUM,      /* guint, an index into names */
  K_BOOL,
  K_DOUBLE,
  K_STRING,    /* char[buffer_size] */
  K_BIT,       /* one bit of training.lora.targets */
  K_DTYPE,     /* one of training.dtypes; setting it marks it overridden */
} Kind;

typedef struct
{
  char              *path;      /* "model.layers" */
  Kind               kind;
  gsize              offset;    /* in HrScenario */
  gsize              buffer_size;  /* K_STRING: the buffer's size */
  guint              bit;          /* K_BIT: its bit (a mask) of training.lora.targets */
  guint              dtype_index;  /* K_DTYPE: its bit of training.dtypes_set */
  const HrEnumNames *names;
  char              *property;  /* "model-layers" */
} ModelField;

/* Built once, at class init, from the scenario's field table
 * (src/core/hr-scenario-fields.c) plus what the table does not hold as
 * scalars: the scenario's name, the presets and the LoRA target bits. */
static ModelField *fields;
static guint n_fields;

/* A property for the field at PATH, OFFSET bytes into HrScenario; what
 * else a kind needs is set by the add_*_field functions below. */
static ModelField *
add_field (GArray            *list,
           const char        *path,
           Kind               kind,
           gsize              offset,
           const HrEnumNames *names)
{
  ModelField f = { .path = g_strdup (path), .kind = kind, .offset = offset, .names = names,
                   .property = g_strdup (path) };

  g_strdelimit (f.property, "._", '-');
  g_array_append_val (list, f);
  return &g_array_index (list, ModelField, list->len - 1);
}

/* A K_STRING: a char array of buffer_size bytes. */
static void
add_string_field (GArray     *list,
                  const char *path,
                  gsize       offset,
                  gsize       buffer_size)
{
  add_field (list, path, K_STRING, offset, NULL)->buffer_size = buffer_size;
}

/* A K_DTYPE: one of training.dtypes, the dtype_index-th, whose bit of
 * training.dtypes_set setting it marks. */
static void
add_dtype_field (GArray            *list,
                 const char        *path,
                 gsize              offset,
                 guint              dtype_index,
                 const HrEnumNames *names)
{
  add_field (list, path, K_DTYPE, offset, names)->dtype_index = dtype_index;
}

/* A K_BIT: the boolean of one LoRA target, bit (a mask, 1 << target) of
 * training.lora.targets. */
static void
add_lora_target_field (GArray     *list,
                       const char *path,
                       guint       bit)
{
  add_field (list, path, K_BIT, G_STRUCT_OFFSET (HrScenario, training.lora.targets),
             NULL)->bit = bit;
}

static void
build_fields (void)
{
  GArray *list = g_array_new (FALSE, TRUE, sizeof (ModelField));

  add_string_field (list, "name", G_STRUCT_OFFSET (HrScenario, name),
                    sizeof (((HrScenario *) 0)->name));
  add_string_field (list, "model.preset", G_STRUCT_OFFSET (HrScenario, model.preset),
                    sizeof (((HrScenario *) 0)->model.preset));
  add_string_field (list, "gpu.preset", G_STRUCT_OFFSET (HrScenario, gpu.preset),
                    sizeof (((HrScenario *) 0)->gpu.preset));
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gboolean dtypes = strcmp (section->path, "training.dtypes") == 0;

      for (guint i = 0; i < *section->n_fields; i++)
        {
          const Field *f = &section->fields[i];
          g_autofree char *path = g_strconcat (section->path, ".", f->key, NULL);
          gsize offset = section->offset + f->offset;

          switch (f->kind)
            {
            case F_UINT:
              add_field (list, path, K_UINT, offset, NULL);
              break;
            case F_BOOL:
              add_field (list, path, K_BOOL, offset, NULL);
              break;
            case F_DOUBLE:
              add_field (list, path, K_DOUBLE, offset, NULL);
              break;
            case F_ENUM:
              if (dtypes)
                add_dtype_field (list, path, offset, i, f->names);
              else
                add_field (list, path, K_ENUM, offset, f->names);
              break;
            case F_NAME:
              add_string_field (list, path, offset, f->size);
              break;
            case F_SKIP:
            default:
              break;
            }
        }
    }
  for (guint i = 0; i < HR_N_LORA_TARGETS; i++)
    {
      g_autofree char *path = g_strconcat ("training.lora.targets.",
                                           hr_enum_name (&hr_lora_target_names, i), NULL);

      add_lora_target_field (list, path, 1u << i);
    }
  n_fields = list->len;
  fields = (ModelField *) (gpointer) g_array_free (list, FALSE);
}

struct _HrScenarioModel
{
  GObject    parent_instance;
  HrScenario scenario;
};

G_DEFINE_FINAL_TYPE (HrScenarioModel, hr_scenario_model, G_TYPE_OBJECT)

static GParamSpec **properties;   /* [0] unused, then one per field */

static gpointer
field_ptr (HrScenarioModel *self,
           const ModelField *f)
{
  return G_STRUCT_MEMBER_P (&self->scenario, f->offset);
}

static void
read_field (HrScenarioModel *self,
            const ModelField *f,
            GValue           *value)
{
  gpointer ptr = field_ptr (self, f);

  switch (f->kind)
    {
    case K_UINT:
      g_value_set_uint64 (value, *(guint64 *) ptr);
      break;
    case K_ENUM:
    case K_DTYPE:
      g_value_set_uint (value, *(guint *) ptr);
      break;
    case K_BOOL:
      g_value_set_boolean (value, *(gboolean *) ptr);
      break;
    case K_DOUBLE:
      g_value_set_double (value, *(double *) ptr);
      break;
    case K_STRING:
      g_value_set_string (value, ptr);
      break;
    case K_BIT:
      g_value_set_boolean (value, (*(guint *) ptr & f->bit) != 0);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Writes a value; returns whether the field changed. */
static gboolean
write_field (HrScenarioModel *self,
             const ModelField *f,
             const GValue    *value)
{
  gpointer ptr = field_ptr (self, f);

  switch (f->kind)
    {
    case K_UINT:
      if (*(guint64 *) ptr == g_value_get_uint64 (value))
        return FALSE;
      *(guint64 *) ptr = g_value_get_uint64 (value);
      return TRUE;
    case K_ENUM:
      if (*(guint *) ptr == g_value_get_uint (value))
        return FALSE;
      *(guint *) ptr = g_value_get_uint (value);
      return TRUE;
    case K_DTYPE:
      if (*(guint *) ptr == g_value_get_uint (value))
        return FALSE;
      *(guint *) ptr = g_value_get_uint (value);
      self->scenario.training.dtypes_set |= 1u << f->dtype_index;
      return TRUE;
    case K_BOOL:
      if (*(gboolean *) ptr == g_value_get_boolean (value))
        return FALSE;
      *(gboolean *) ptr = g_value_get_boolean (value);
      return TRUE;
    case K_DOUBLE:
      if (*(double *) ptr == g_value_get_double (value))
        return FALSE;
      *(double *) ptr = g_value_get_double (value);
      return TRUE;
    case K_STRING:
      if (g_strcmp0 (ptr, g_value_get_string (value)) == 0)
        return FALSE;
      hr_copy_string (ptr, f->buffer_size, g_value_get_string (value));
      return TRUE;
    case K_BIT:
      {
        guint old = *(guint *) ptr;

        if (g_value_get_boolean (value))
          *(guint *) ptr |= f->bit;
        else
          *(guint *) ptr &= ~f->bit;
        return *(guint *) ptr != old;
      }
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

static gboolean
values_equal (const GValue *a,
              const GValue *b)
{
  switch (G_VALUE_TYPE (a))
    {
    case G_TYPE_UINT64:
      return g_value_get_uint64 (a) == g_value_get_uint64 (b);
    case G_TYPE_UINT:
      return g_value_get_uint (a) == g_value_get_uint (b);
    case G_TYPE_BOOLEAN:
      return g_value_get_boolean (a) == g_value_get_boolean (b);
    case G_TYPE_DOUBLE:
      return g_value_get_double (a) == g_value_get_double (b);
    case G_TYPE_STRING:
      return g_strcmp0 (g_value_get_string (a), g_value_get_string (b)) == 0;
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

/* Replaces the whole scenario and notifies every property whose value
 * changed, once, inside one freeze. */
void
hr_scenario_model_set_scenario (HrScenarioModel  *self,
                                const HrScenario *scenario)
{
  g_autofree GValue *before = g_new0 (GValue, n_fields);

  g_return_if_fail (HR_IS_SCENARIO_MODEL (self));
  g_return_if_fail (scenario != NULL);

  for (guint i = 0; i < n_fields; i++)
    {
      g_value_init (&before[i], properties[i + 1]->value_type);
      read_field (self, &fields[i], &before[i]);
    }

  self->scenario = *scenario;

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < n_fields; i++)
    {
      GValue after = G_VALUE_INIT;

      g_value_init (&after, properties[i + 1]->value_type);
      read_field (self, &fields[i], &after);
      if (!values_equal (&before[i], &after))
        g_object_notify_by_pspec (G_OBJECT (self), properties[i + 1]);
      g_value_unset (&after);
      g_value_unset (&before[i]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

static void
notify_path (HrScenarioModel *self,
             const char      *path)
{
  for (guint i = 0; i < n_fields; i++)
    if (strcmp (fields[i].path, path) == 0)
      {
        g_object_notify_by_pspec (G_OBJECT (self), properties[i + 1]);
        return;
      }
}

static void
hr_scenario_model_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  HrScenarioModel *self = HR_SCENARIO_MODEL (object);
  const ModelField *f;

  if (prop_id == 0 || prop_id > n_fields)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  f = &fields[prop_id - 1];
  if (!write_field (self, f, value))
    return;

  g_object_freeze_notify (object);
  g_object_notify_by_pspec (object, pspec);

  if (strcmp (f->path, "training.precision") == 0)
    {
      HrDtypes old = self->scenario.training.dtypes;

      hr_training_apply_precision (&self->scenario.training);
      if (memcmp (&old, &self->scenario.training.dtypes, sizeof old) != 0)
        {
          notify_path (self, "training.dtypes.weights");
          notify_path (self, "training.dtypes.grads");
          notify_path (self, "training.dtypes.master");
          notify_path (self, "training.dtypes.optimizer");
          notify_path (self, "training.dtypes.activations");
        }
    }
  else if (g_str_has_prefix (f->path, "model.") && strcmp (f->path, "model.preset") != 0
           && strcmp (f->path, "model.name") != 0 && self->scenario.model.preset[0] != '\0')
    {
      self->scenario.model.preset[0] = '\0';
      notify_path (self, "model.preset");
    }
  else if (strcmp (f->path, "gpu.memory_mib") == 0 && self->scenario.gpu.preset[0] != '\0')
    {
      self->scenario.gpu.preset[0] = '\0';
      notify_path (self, "gpu.preset");
    }
  g_object_thaw_notify (object);
}

static void
hr_scenario_model_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  HrScenarioModel *self = HR_SCENARIO_MODEL (object);

  if (prop_id == 0 || prop_id > n_fields)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  read_field (self, &fields[prop_id - 1], value);
}

static void
hr_scenario_model_class_init (HrScenarioModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_NICK
                      | G_PARAM_STATIC_BLURB;

  object_class->get_property = hr_scenario_model_get_property;
  object_class->set_property = hr_scenario_model_set_property;

  build_fields ();
  properties = g_new0 (GParamSpec *, n_fields + 1);
  for (guint i = 0; i < n_fields; i++)
    {
      const ModelField *f = &fields[i];
      const char *name = f->property;   /* lives as long as the class: never freed */

      switch (f->kind)
        {
        case K_UINT:
          properties[i + 1] = g_param_spec_uint64 (name, NULL, NULL, 0, G_MAXUINT64, 0, flags);
          break;
        case K_ENUM:
        case K_DTYPE:
          properties[i + 1] = g_param_spec_uint (name, NULL, NULL, 0, f->names->n_names - 1, 0,
                                                 flags);
          break;
        case K_BOOL:
        case K_BIT:
          properties[i + 1] = g_param_spec_boolean (name, NULL, NULL, FALSE, flags);
          break;
        case K_DOUBLE:
          properties[i + 1] = g_param_spec_double (name, NULL, NULL, -1.0, G_MAXDOUBLE, 0, flags);
          break;
        case K_STRING:
          properties[i + 1] = g_param_spec_string (name, NULL, NULL, "", flags);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_object_class_install_properties (object_class, n_fields + 1, properties);
}

static void
hr_scenario_model_init (HrScenarioModel *self)
{
  hr_scenario_init_default (&self->scenario);
}

HrScenarioModel *
hr_scenario_model_new (void)
{
  return g_object_new (HR_TYPE_SCENARIO_MODEL, NULL);
}

const HrScenario *
hr_scenario_model_get_scenario (HrScenarioModel *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO_MODEL (self), NULL);
  return &self->scenario;
}

/* "parallel.tp" -> "parallel-tp", for the form to find a field's widget. */
const char *
hr_scenario_model_property_for_path (const char *path)
{
  g_type_class_unref (g_type_class_ref (HR_TYPE_SCENARIO_MODEL));
  for (guint i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].path, path) == 0)
      return fields[i].property;
  return NULL;
}

const char *
hr_scenario_model_path_for_property (const char *property)
{
  g_type_class_unref (g_type_class_ref (HR_TYPE_SCENARIO_MODEL));
  for (guint i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].property, property) == 0)
      return fields[i].path;
  return NULL;
}
