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

#include <string.h>

typedef enum
{
  K_UINT,      /* guint64 */
  K_ENUM,      /* guint, an index into names */
  K_BOOL,
  K_DOUBLE,
  K_STRING,    /* char[size] */
  K_BIT,       /* one bit of training.lora_targets */
  K_DTYPE,     /* one of training.dtypes; setting it marks it overridden */
} Kind;

typedef struct
{
  const char        *path;
  Kind               kind;
  gsize              offset;
  gsize              size;      /* K_STRING: buffer size; K_BIT: the bit; K_DTYPE: index */
  const HrEnumNames *names;
  char              *property;  /* "model-layers", filled at class init */
} Field;

#define OFF(member) G_STRUCT_OFFSET (HrScenario, member)
#define U(path, member)         { path, K_UINT, OFF (member), 0, NULL, NULL }
#define E(path, member, names)  { path, K_ENUM, OFF (member), 0, &names, NULL }
#define B(path, member)         { path, K_BOOL, OFF (member), 0, NULL, NULL }
#define D(path, member)         { path, K_DOUBLE, OFF (member), 0, NULL, NULL }
#define S(path, member)         { path, K_STRING, OFF (member), sizeof (((HrScenario *) 0)->member), NULL, NULL }
#define BIT(path, bit)          { path, K_BIT, OFF (training.lora_targets), bit, NULL, NULL }
#define DT(path, member, index) { path, K_DTYPE, OFF (training.dtypes.member), index, &hr_dtype_names, NULL }

static Field fields[] = {
  S ("name", name),
  S ("model.preset", model.preset),
  S ("model.name", model.name),
  E ("model.kind", model.kind, hr_kind_names),
  U ("model.layers", model.layers),
  U ("model.hidden", model.hidden),
  U ("model.heads", model.heads),
  U ("model.kv_heads", model.kv_heads),
  U ("model.head_dim", model.head_dim),
  U ("model.ffn", model.ffn),
  E ("model.mlp", model.mlp, hr_mlp_names),
  U ("model.vocab", model.vocab),
  B ("model.tied_embeddings", model.tied_embeddings),
  E ("model.norm", model.norm, hr_norm_names),
  E ("model.bias", model.bias, hr_bias_names),
  B ("model.parallel_block", model.parallel_block),
  U ("model.learned_positions", model.learned_positions),
  U ("model.experts", model.experts),
  U ("model.experts_active", model.experts_active),
  U ("model.expert_ffn", model.expert_ffn),
  B ("model.dropout", model.dropout),
  E ("model.head", model.head, hr_head_names),
  U ("model.classes", model.classes),
  U ("model.norms_per_layer", model.norms_per_layer),
  E ("model.qk_norm", model.qk_norm, hr_qk_norm_names),
  B ("model.lm_head_bias", model.lm_head_bias),
  U ("model.token_types", model.token_types),
  B ("model.pooler", model.pooler),
  U ("model.patch_dim", model.patch_dim),

  E ("training.method", training.method, hr_method_names),
  U ("training.lora.rank", training.lora_rank),
  D ("training.lora.dropout", training.lora_dropout),
  B ("training.lora.fused_qkv", training.lora_fused_qkv),
  BIT ("training.lora.targets.q", HR_LORA_Q),
  BIT ("training.lora.targets.k", HR_LORA_K),
  BIT ("training.lora.targets.v", HR_LORA_V),
  BIT ("training.lora.targets.o", HR_LORA_O),
  BIT ("training.lora.targets.gate", HR_LORA_GATE),
  BIT ("training.lora.targets.up", HR_LORA_UP),
  BIT ("training.lora.targets.down", HR_LORA_DOWN),
  BIT ("training.lora.targets.lm_head", HR_LORA_LM_HEAD),
  E ("training.quant", training.quant, hr_quant_names),
  B ("training.quant_lm_head", training.quant_lm_head),
  E ("training.dequant_dtype", training.dequant_dtype, hr_dtype_names),
  E ("training.precision", training.precision, hr_precision_names),
  DT ("training.dtypes.weights", weights, 0),
  DT ("training.dtypes.grads", grads, 1),
  DT ("training.dtypes.master", master, 2),
  DT ("training.dtypes.optimizer", optimizer, 3),
  DT ("training.dtypes.activations", activations, 4),
  E ("training.optimizer", training.optimizer, hr_optimizer_names),
  E ("training.optimizer_impl", training.optimizer_impl, hr_optimizer_impl_names),
  U ("training.micro_batch", training.micro_batch),
  U ("training.seq_len", training.seq_len),
  U ("training.grad_accum", training.grad_accum),
  E ("training.checkpointing", training.checkpointing, hr_checkpointing_names),
  E ("training.attention", training.attention, hr_attention_names),
  E ("training.loss", training.loss, hr_loss_names),
  B ("training.logits_fp32", training.logits_fp32),
  B ("training.zero_grad_to_none", training.zero_grad_to_none),
  B ("training.optimizer_in_backward", training.optimizer_in_backward),
  B ("training.activation_offloading", training.activation_offloading),
  B ("training.previous_graph_alive", training.previous_graph_alive),

  U ("parallel.gpus", parallel.gpus),
  U ("parallel.gpus_per_node", parallel.gpus_per_node),
  U ("parallel.tp", parallel.tp),
  U ("parallel.pp", parallel.pp),
  U ("parallel.vpp", parallel.vpp),
  U ("parallel.cp", parallel.cp),
  U ("parallel.ep", parallel.ep),
  B ("parallel.sp", parallel.sp),
  U ("parallel.zero", parallel.zero),
  U ("parallel.shard_group", parallel.shard_group),
  B ("parallel.offload_optimizer", parallel.offload_optimizer),
  B ("parallel.offload_params", parallel.offload_params),
  B ("parallel.no_sync", parallel.no_sync),

  S ("gpu.preset", gpu.preset),
  S ("gpu.name", gpu.name),
  U ("gpu.memory_mib", gpu.memory_mib),
  D ("gpu.bf16_tflops", gpu.bf16_tflops),

  D ("overhead.cuda_context_mib", overhead.cuda_context_mib),
  D ("overhead.comm_buffer_mib", overhead.comm_buffer_mib),
  D ("overhead.fragmentation", overhead.fragmentation),
  D ("overhead.headroom", overhead.headroom),

  D ("cost.tokens", cost.tokens),
  D ("cost.mfu", cost.mfu),
  D ("cost.price_per_gpu_hour", cost.price_per_gpu_hour),
};

#define N_FIELDS G_N_ELEMENTS (fields)

struct _HrScenarioModel
{
  GObject    parent_instance;
  HrScenario scenario;
};

G_DEFINE_FINAL_TYPE (HrScenarioModel, hr_scenario_model, G_TYPE_OBJECT)

static GParamSpec *properties[N_FIELDS + 1];

static gpointer
field_ptr (HrScenarioModel *self,
           const Field     *f)
{
  return G_STRUCT_MEMBER_P (&self->scenario, f->offset);
}

static void
read_field (HrScenarioModel *self,
            const Field     *f,
            GValue          *value)
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
      g_value_set_boolean (value, (*(guint *) ptr & f->size) != 0);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Writes a value; returns whether the field changed. */
static gboolean
write_field (HrScenarioModel *self,
             const Field     *f,
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
      self->scenario.training.dtypes_set |= 1u << f->size;
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
      hr_copy_string (ptr, f->size, g_value_get_string (value));
      return TRUE;
    case K_BIT:
      {
        guint old = *(guint *) ptr;

        if (g_value_get_boolean (value))
          *(guint *) ptr |= f->size;
        else
          *(guint *) ptr &= ~f->size;
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
  GValue before[N_FIELDS];

  g_return_if_fail (HR_IS_SCENARIO_MODEL (self));
  g_return_if_fail (scenario != NULL);

  for (guint i = 0; i < N_FIELDS; i++)
    {
      before[i] = (GValue) G_VALUE_INIT;
      g_value_init (&before[i], properties[i + 1]->value_type);
      read_field (self, &fields[i], &before[i]);
    }

  self->scenario = *scenario;

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < N_FIELDS; i++)
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
  for (guint i = 0; i < N_FIELDS; i++)
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
  const Field *f;

  if (prop_id == 0 || prop_id > N_FIELDS)
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

  if (prop_id == 0 || prop_id > N_FIELDS)
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

  for (guint i = 0; i < N_FIELDS; i++)
    {
      Field *f = &fields[i];
      char *name = g_strdup (f->path);

      g_strdelimit (name, "._", '-');
      f->property = name;   /* lives as long as the class: never freed */
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
  g_object_class_install_properties (object_class, N_FIELDS + 1, properties);
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
  for (guint i = 0; i < N_FIELDS; i++)
    if (g_strcmp0 (fields[i].path, path) == 0)
      return fields[i].property;
  return NULL;
}

const char *
hr_scenario_model_path_for_property (const char *property)
{
  g_type_class_unref (g_type_class_ref (HR_TYPE_SCENARIO_MODEL));
  for (guint i = 0; i < N_FIELDS; i++)
    if (g_strcmp0 (fields[i].property, property) == 0)
      return fields[i].path;
  return NULL;
}
