/* test-fields.c: the field table agrees with itself and with the code
 * that reads, writes and validates scenarios
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every reader, the writer, --set, the window's model and its form rows
 * come from src/core/hr-scenario-fields.c.  What the table says must hold:
 * a choice list as long as its names, a range that contains the default,
 * and every field written, read back and reachable by its path.
 */

#include <glib/gstdio.h>

#include "hr-fields-read.h"
#include "hr-frameworks.h"
#include "hr-json.h"
#include "hr-optimizers.h"
#include "hr-precisions.h"
#include "hr-quants.h"
#include "hr-scenario-fields.h"
#include "hr-test-util.h"
#include "hr-validate.h"

static void
test_table_is_consistent (void)
{
  HrScenario sc;
  guint n = 0;

  hr_scenario_init_default (&sc);
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gconstpointer base = G_STRUCT_MEMBER_P (&sc, section->offset);

      /* The reader's set of the fields a file gave has a bit per row. */
      g_assert_cmpuint (*section->n_fields, <=, HR_FIELD_MASK_BITS);
      for (guint f = 0; f < *section->n_fields; f++)
        {
          const Field *field = &section->fields[f];
          g_autofree char *path = g_strconcat (section->path, ".", field->key, NULL);
          gsize offset;

          if (field->kind == F_SKIP)
            continue;
          n++;
          /* Reachable by its path, in the section it is listed in. */
          g_assert_true (hr_field_find (path, &offset) == field);
          g_assert_cmpuint (offset, ==, section->offset);
          /* The member src/core/fields/ declares is what the row reads and
           * writes (hr-field-access.c): a guint64 for a whole number, a
           * double, a gboolean, an enum as a guint.  A FIELD line whose
           * type and row disagree would write past its member. */
          {
            gsize expected = field->kind == F_UINT ? sizeof (guint64)
                             : field->kind == F_DOUBLE ? sizeof (double)
                             : field->kind == F_BOOL ? sizeof (gboolean)
                             : field->kind == F_ENUM ? sizeof (guint) : field->size;

            if (field->size != expected)
              g_error ("%s: a member of %" G_GSIZE_FORMAT " bytes for a row that reads %"
                       G_GSIZE_FORMAT, path, field->size, expected);
          }
          /* A form row can be made of it. */
          if (field->label == NULL)
            g_error ("%s has no label", path);
          if (field->kind == F_ENUM)
            {
              guint count = 0;

              g_assert_nonnull (field->names);
              if (field->choices != NULL)
                {
                  while (field->choices[count] != NULL)
                    count++;
                  if (count != field->names->n_names)
                    g_error ("%s: %u choices for %u names", path, count, field->names->n_names);
                }
              g_assert_cmpfloat (hr_field_get_number (field, base), <, field->names->n_names);
            }
          if (field->kind == F_UINT || field->kind == F_DOUBLE)
            {
              double v = hr_field_get_number (field, base);

              g_assert_cmpfloat (field->min, <=, field->max);
              g_assert_cmpfloat (field->step, >, 0);
              /* The default scenario's value lies in the form's range. */
              if (v < field->min || v > field->max)
                g_error ("%s: default %g outside [%g, %g]", path, v, field->min, field->max);
            }
          if (field->kind == F_NAME)
            g_assert_cmpuint (field->size, >, 1);
        }
    }
  g_test_message ("%u fields", n);
  g_assert_cmpuint (n, >=, 78);
}

/* Every field the table has reaches a saved file and comes back: set each
 * to a value other than the default, one at a time, write, read, compare. */
static void
test_every_field_round_trips (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();

  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];

      for (guint f = 0; f < *section->n_fields; f++)
        {
          const Field *field = &section->fields[f];
          g_autofree char *path = g_strconcat (section->path, ".", field->key, NULL);
          g_autoptr(GError) error = NULL;
          g_autofree char *saved = NULL;
          g_autoptr(JsonNode) root = NULL;
          HrScenario sc, back;
          gpointer ptr;

          if (field->kind == F_SKIP)
            continue;
          hr_scenario_init_default (&sc);
          ptr = G_STRUCT_MEMBER_P (&sc, section->offset + field->offset);
          switch (field->kind)
            {
            case F_UINT:
              *(guint64 *) ptr = (guint64) MAX (field->min, 1) + 1 <= field->max
                                 ? (guint64) MAX (field->min, 1) + 1 : (guint64) field->min;
              break;
            case F_BOOL:
              *(gboolean *) ptr = !*(gboolean *) ptr;
              break;
            case F_DOUBLE:
              *(double *) ptr = field->min + (field->max - field->min) / 4 + 0.125;
              break;
            case F_ENUM:
              *(guint *) ptr = (*(guint *) ptr + 1) % field->names->n_names;
              break;
            case F_NAME:
              g_strlcpy (ptr, "Renamed", field->size);
              break;
            default:
              break;
            }
          if (g_str_has_prefix (path, "training.dtypes."))
            sc.training.dtypes_set |= 1u << f;
          if (g_str_has_prefix (path, "model."))
            sc.model.preset[0] = '\0';
          if (g_str_has_prefix (path, "gpu."))
            sc.gpu.preset[0] = '\0';

          saved = hr_scenario_to_data (&sc, NULL);
          root = hr_json_load_data (saved, -1, "saved.json", &error);
          g_assert_no_error (error);
          if (!hr_scenario_read_node (&back, root, "saved.json", presets, &error))
            {
              /* A value validation refuses on its own (say, ep 2 on a dense
               * model) is not the writer's fault; a parse error would be. */
              g_assert_true (error->code == HR_ERROR_INVALID);
              g_test_message ("%s: %s", path, error->message);
              continue;
            }
          if (memcmp (G_STRUCT_MEMBER_P (&back, section->offset + field->offset), ptr,
                      field->kind == F_NAME ? strlen (ptr) + 1
                      : field->kind == F_UINT ? sizeof (guint64)
                      : field->kind == F_DOUBLE ? sizeof (double) : sizeof (guint)) != 0)
            g_error ("%s does not survive a save:\n%s", path, saved);
        }
    }
}

/* A validation error carries its field beside the message, and a copy
 * keeps it: the window marks the row without parsing the message. */
static void
test_error_names_its_field (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) copy = NULL;
  HrScenario sc;

  hr_scenario_init_default (&sc);
  sc.parallel.tp = 3;
  sc.parallel.gpus = 24;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_cmpstr (hr_error_field (error), ==, "parallel.tp");
  g_assert_true (g_str_has_prefix (error->message, "parallel.tp: 3 "));
  g_assert_cmpstr (hr_error_reason (error), ==, error->message + strlen ("parallel.tp: "));
  copy = g_error_copy (error);
  g_assert_cmpstr (hr_error_field (copy), ==, "parallel.tp");

  /* An error about no one field has no path, and its reason is the message. */
  g_clear_error (&error);
  g_set_error (&error, HR_ERROR, HR_ERROR_IO, "s.json: no such file");
  g_assert_null (hr_error_field (error));
  g_assert_cmpstr (hr_error_reason (error), ==, error->message);
}

/* A file's value, refused by the reader or by the checks after it, keeps
 * its path and the file's name beside the message, so headroom-cli can
 * tell a --set value's fault from the file's without parsing the text. */
static void
test_read_error_names_its_field (void)
{
  static const struct { const char *json; const char *field; const char *message; } bad[] = {
    { "{\"training\": {\"micro_batch\": \"x\"}}", "training.micro_batch",
      "s.json: training.micro_batch: \"x\" is not allowed; allowed: a whole number" },
    { "{\"training\": {\"micro_batch\": 0}}", "training.micro_batch",
      "s.json: training.micro_batch: 0 is out of range; allowed: 1 to 1048576" },
    { "{\"parallel\": {\"tq\": 2}}", "parallel.tq", NULL },
    { "{\"trainng\": {}}", "trainng", NULL },
    { "{\"parallel\": {\"stage_layers\": [1, 0]}}", "parallel.stage_layers[1]", NULL },
  };
  g_autoptr(HrPresets) presets = hr_test_presets ();

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = hr_json_load_data (bad[i].json, -1, "s.json", &error);
      HrScenario sc;

      g_assert_no_error (error);
      g_assert_false (hr_scenario_read_node (&sc, root, "s.json", presets, &error));
      g_assert_cmpstr (hr_error_field (error), ==, bad[i].field);
      g_assert_cmpstr (hr_error_origin (error), ==, "s.json");
      g_assert_true (g_str_has_prefix (error->message, "s.json: "));
      g_assert_cmpstr (hr_error_reason (error), ==,
                       error->message + strlen ("s.json: ") + strlen (bad[i].field) + 2);
      if (bad[i].message != NULL)
        g_assert_cmpstr (error->message, ==, bad[i].message);
    }
}

/* Every number's range and every enum's names are the validator's,
 * from the table: one past a field's bound is refused, naming that field
 * and its bounds; the bound itself is in range (other checks may still
 * object: 65536 heads do not divide the hidden size). */
static void
test_ranges_come_from_the_table (void)
{
  guint checked = 0;

  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];

      for (guint f = 0; f < *section->n_fields; f++)
        {
          const Field *field = &section->fields[f];
          g_autofree char *path = g_strconcat (section->path, ".", field->key, NULL);
          g_autoptr(GError) error = NULL;
          HrScenario sc;
          gpointer ptr;

          if (field->kind != F_UINT && field->kind != F_DOUBLE && field->kind != F_ENUM)
            continue;
          hr_scenario_init_default (&sc);
          sc.training.method = HR_METHOD_LORA;   /* the LoRA rows apply */
          ptr = G_STRUCT_MEMBER_P (&sc, section->offset + field->offset);
          if (field->kind == F_UINT)
            *(guint64 *) ptr = (guint64) field->max + 1;
          else if (field->kind == F_DOUBLE)
            *(double *) ptr = field->max * 2 + 1;
          else
            *(guint *) ptr = field->names->n_names;
          g_assert_false (hr_scenario_validate (&sc, &error));
          g_assert_cmpstr (hr_error_field (error), ==, path);
          if (field->kind == F_UINT)
            {
              g_autofree char *bounds = g_strdup_printf ("allowed: %" G_GUINT64_FORMAT " to %"
                                                         G_GUINT64_FORMAT, (guint64) field->min,
                                                         (guint64) field->max);
              g_assert_nonnull (strstr (error->message, bounds));
              g_clear_error (&error);
              *(guint64 *) ptr = (guint64) field->max;
              if (!hr_scenario_validate (&sc, &error) && g_strcmp0 (hr_error_field (error), path) == 0)
                {
                  g_test_message ("at its bound: %s", error->message);
                  g_assert_null (strstr (error->message, bounds));
                }
            }
          checked++;
        }
    }
  g_test_message ("%u ranges and choices checked", checked);
  /* The model's, training's, LoRA's, dtypes', parallel's, GPU's, cost's
   * and overheads' numbers and choices: a table that lost its rows fails. */
  g_assert_cmpuint (checked, >=, 60);

  /* A LoRA row applies only to adapters: a full fine-tune's file may
   * carry any rank (HR_FIELD_RANGE_WHERE_APPLIES). */
  {
    HrScenario sc;

    hr_scenario_init_default (&sc);
    sc.training.lora.rank = 0;
    g_assert_true (hr_scenario_validate (&sc, NULL));
    sc.training.method = HR_METHOD_LORA;
    g_assert_false (hr_scenario_validate (&sc, NULL));
  }
}

/* A vision tower is planned only whole and consistent: each bad value is
 * refused naming its field (hr-validate-vision.c). */
static void
test_vision_refusals (void)
{
  static const struct
  {
    const char *path;
    guint64     value;
    gsize       offset;     /* in HrScenario */
  } bad[] = {
    { "model.projector", HR_PROJECTOR_NONE, G_STRUCT_OFFSET (HrScenario, model.projector) },
    { "model.vision_layers", 0, G_STRUCT_OFFSET (HrScenario, model.vision_layers) },
    { "model.vision_heads", 0, G_STRUCT_OFFSET (HrScenario, model.vision_heads) },
    { "model.vision_heads", 3, G_STRUCT_OFFSET (HrScenario, model.vision_heads) },
    { "model.vision_patch", 13, G_STRUCT_OFFSET (HrScenario, model.vision_patch) },
    { "model.vision_patch", 0, G_STRUCT_OFFSET (HrScenario, model.vision_patch) },
    { "model.vision_feature_layer", 25, G_STRUCT_OFFSET (HrScenario, model.vision_feature_layer) },
    { "model.projector_merge", 2, G_STRUCT_OFFSET (HrScenario, model.projector_merge) },
    { "training.images_per_sample", 8, G_STRUCT_OFFSET (HrScenario, training.images_per_sample) },
    { "parallel.tp", 2, G_STRUCT_OFFSET (HrScenario, parallel.tp) },
    { "parallel.pp", 2, G_STRUCT_OFFSET (HrScenario, parallel.pp) },
    { "training.method", HR_METHOD_QLORA, G_STRUCT_OFFSET (HrScenario, training.method) },
  };
  HrScenario sc;

  hr_scenario_init_default (&sc);
  hr_test_model (&sc, "llava-1.5-7b");
  sc.training.seq_len = 4096;         /* 7 images of 576 tokens fit, 8 do not */
  sc.parallel.gpus = 2;
  g_assert_true (hr_scenario_validate (&sc, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      HrScenario copy = sc;
      g_autoptr(GError) error = NULL;
      gpointer ptr = G_STRUCT_MEMBER_P (&copy, bad[i].offset);

      if (bad[i].offset == G_STRUCT_OFFSET (HrScenario, model.projector))
        *(HrProjector *) ptr = (HrProjector) bad[i].value;
      else if (bad[i].offset == G_STRUCT_OFFSET (HrScenario, training.method))
        *(HrMethod *) ptr = (HrMethod) bad[i].value;
      else
        *(guint64 *) ptr = bad[i].value;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_test_message ("%s", error->message);
      g_assert_cmpstr (hr_error_field (error), ==, bad[i].path);
    }

  /* A vision field without a tower describes nothing planned. */
  {
    g_autoptr(GError) error = NULL;

    hr_scenario_init_default (&sc);
    sc.model.vision_image = 336;
    g_assert_false (hr_scenario_validate (&sc, &error));
    g_assert_cmpstr (hr_error_field (error), ==, "model.vision_image");
  }
  /* Llama 3.2 Vision: each bad value refused naming its field, with the
   * allowed values in the message. */
  {
    static const struct
    {
      const char *path;
      guint64     value;
      gsize       offset;
      const char *says;
    } mllama_bad[] = {
      { "model.vision_tiles", 0, G_STRUCT_OFFSET (HrScenario, model.vision_tiles),
        "0 is out of range; allowed: 1 to 64" },
      { "model.vision_aspect_ratios", 0, G_STRUCT_OFFSET (HrScenario, model.vision_aspect_ratios),
        "allowed: 1 to 4096" },
      { "model.vision_intermediate_layers", 33,
        G_STRUCT_OFFSET (HrScenario, model.vision_intermediate_layers), "allowed: 0 to 32" },
      { "model.cross_attn_layer_period", 0, G_STRUCT_OFFSET (HrScenario, model.cross_attn_layer_period),
        "allowed: 1 to 40" },
      { "model.cross_attn_layer_period", 41, G_STRUCT_OFFSET (HrScenario, model.cross_attn_layer_period),
        "allowed: 1 to 40" },
      { "model.cross_attn_layer_offset", 0, G_STRUCT_OFFSET (HrScenario, model.cross_attn_layer_offset),
        "allowed: 1 to 4" },
      { "model.cross_attn_layer_offset", 5, G_STRUCT_OFFSET (HrScenario, model.cross_attn_layer_offset),
        "allowed: 1 to 4" },
      { "model.vision_feature_layer", 23, G_STRUCT_OFFSET (HrScenario, model.vision_feature_layer),
        "allowed with model.vision = mllama: 0" },
      { "training.images_per_sample", 0, G_STRUCT_OFFSET (HrScenario, training.images_per_sample),
        "allowed: 1 to 65536" },
      { "training.checkpoint_every", 2, G_STRUCT_OFFSET (HrScenario, training.checkpoint_every),
        "allowed: 1" },
      { "parallel.tp", 2, G_STRUCT_OFFSET (HrScenario, parallel.tp), "allowed: 1" },
    };

    hr_scenario_init_default (&sc);
    hr_test_model (&sc, "llama-3.2-11b-vision");
    sc.parallel.gpus = 2;
    g_assert_true (hr_scenario_validate (&sc, NULL));
    for (guint i = 0; i < G_N_ELEMENTS (mllama_bad); i++)
      {
        HrScenario copy = sc;
        g_autoptr(GError) error = NULL;

        *(guint64 *) G_STRUCT_MEMBER_P (&copy, mllama_bad[i].offset) = mllama_bad[i].value;
        g_assert_false (hr_scenario_validate (&copy, &error));
        g_test_message ("%s", error->message);
        g_assert_cmpstr (hr_error_field (error), ==, mllama_bad[i].path);
        g_assert_nonnull (strstr (error->message, mllama_bad[i].says));
      }
    /* the choices that are not planned with it, and its fields elsewhere */
    {
      HrScenario copy = sc;
      g_autoptr(GError) error = NULL;

      copy.model.projector = HR_PROJECTOR_MLP2X_GELU;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "model.projector");
      g_assert_nonnull (strstr (error->message, "allowed: linear"));
      g_clear_error (&error);

      copy = sc;
      copy.training.attention = HR_ATTENTION_EAGER;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "training.attention");
      g_clear_error (&error);

      copy = sc;
      copy.training.precision = HR_PRECISION_AMP_BF16;
      hr_training_apply_precision (&copy.training);
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "training.precision");
      g_clear_error (&error);

      copy = sc;
      copy.training.method = HR_METHOD_LORA;
      copy.training.lora.dora = TRUE;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "training.lora.dora");
      g_clear_error (&error);

      hr_scenario_init_default (&copy);
      hr_test_model (&copy, "llava-1.5-7b");
      copy.model.cross_attn_layer_period = 5;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "model.cross_attn_layer_period");
      g_assert_nonnull (strstr (error->message, "allowed with model.vision = clip: 0"));
      g_clear_error (&error);

      copy.model.cross_attn_layer_period = 0;
      copy.model.projector = HR_PROJECTOR_LINEAR;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "model.projector");
      g_clear_error (&error);

      hr_scenario_init_default (&copy);
      copy.model.vision_tiles = 4;
      g_assert_false (hr_scenario_validate (&copy, &error));
      g_assert_cmpstr (hr_error_field (error), ==, "model.vision_tiles");
    }
  }
  /* Qwen2-VL's merger must divide the patches of a side: 448 / 14 = 32. */
  {
    g_autoptr(GError) error = NULL;

    hr_scenario_init_default (&sc);
    hr_test_model (&sc, "qwen2-vl-7b");
    g_assert_true (hr_scenario_validate (&sc, NULL));
    sc.model.projector_merge = 3;
    g_assert_false (hr_scenario_validate (&sc, &error));
    g_assert_cmpstr (hr_error_field (error), ==, "model.projector_merge");
  }
}

/* The default scenario's optional fields start on the table's `absent`
 * values, where a file that leaves them out starts: the one place those
 * defaults are written.  Four optional fields have other defaults, said in
 * hr-scenario.c: Llama 2 13B's head_dim and the H100's bf16 and fp8 TFLOPS
 * and compute capability. */
static void
test_optional_defaults (void)
{
  HrScenario sc;
  guint other = 0;

  hr_scenario_init_default (&sc);
  for (guint s = 0; s < hr_field_sections_count; s++)
    {
      const HrFieldSection *section = &hr_field_sections[s];
      gconstpointer base = G_STRUCT_MEMBER_P (&sc, section->offset);

      for (guint f = 0; f < *section->n_fields; f++)
        if ((section->fields[f].flags & HR_FIELD_OPTIONAL)
            && !hr_field_is_absent (&section->fields[f], base))
          {
            g_test_message ("%s.%s is not on its absent value", section->path,
                            section->fields[f].key);
            other++;
          }
    }
  g_assert_cmpuint (other, ==, 4);
  g_assert_cmpuint (sc.training.checkpoint_every, ==, 1);
  g_assert_cmpuint (sc.training.loss_chunk_tokens, ==, 128);
  g_assert_cmpuint (sc.parallel.fsdp, ==, 2);
  g_assert_cmpfloat (sc.overhead.comm_buffer_mib, ==, -1);
  g_assert_true (sc.training.zero_grad_to_none);
}

/* The optimizers' names and labels are their rows' (hr-optimizers.c),
 * read through a strided name table. */
static void
test_optimizer_rows (void)
{
  guint v;

  g_assert_cmpuint (hr_optimizer_names.n_names, ==, HR_N_OPTIMIZERS);
  for (guint i = 0; i < HR_N_OPTIMIZERS; i++)
    {
      g_assert_cmpstr (hr_enum_name (&hr_optimizer_names, i), ==, hr_optimizers[i].name);
      g_assert_cmpstr (hr_enum_label (&hr_optimizer_names, i), ==, hr_optimizers[i].label);
      g_assert_true (hr_enum_parse (&hr_optimizer_names, hr_optimizers[i].name, &v));
      g_assert_cmpuint (v, ==, i);
      g_assert_nonnull (hr_optimizers[i].source);
    }
  g_assert_cmpstr (hr_enum_name (&hr_optimizer_names, HR_OPTIMIZER_PAGED_ADAMW_8BIT), ==,
                   "paged-adamw-8bit");
  /* "adamw, adam, sgd, ..., Y or Z": every row's name in row order, the
   * last after "or"; built from the rows, so a new optimizer's row is the
   * only change it asks for. */
  {
    g_autofree char *allowed = hr_enum_allowed (&hr_optimizer_names);
    g_autoptr(GString) expected = g_string_new (NULL);

    for (guint i = 0; i < HR_N_OPTIMIZERS; i++)
      g_string_append_printf (expected, "%s%s",
                              i == 0 ? "" : i + 1 == HR_N_OPTIMIZERS ? " or " : ", ",
                              hr_optimizers[i].name);
    g_assert_cmpstr (allowed, ==, expected->str);
    g_assert_true (g_str_has_prefix (allowed, "adamw, adam, sgd, "));
  }
  /* Bytes per parameter of the states, CALC-REFERENCE.md section 2. */
  g_assert_cmpfloat (hr_optimizer_state_bytes (HR_OPTIMIZER_ADAMW, HR_DTYPE_FP32), ==, 8.0);
  g_assert_cmpfloat (hr_optimizer_state_bytes (HR_OPTIMIZER_SGD_MOMENTUM, HR_DTYPE_BF16), ==, 2.0);
  g_assert_cmpfloat (hr_optimizer_state_bytes (HR_OPTIMIZER_SGD, HR_DTYPE_FP32), ==, 0.0);
  g_assert_cmpfloat (hr_optimizer_state_bytes (HR_OPTIMIZER_PAGED_ADAMW, HR_DTYPE_BF16), ==, 8.0);
  g_assert_cmpfloat (hr_optimizer_state_bytes (HR_OPTIMIZER_ADAMW_8BIT, HR_DTYPE_FP32), ==,
                     2.0 * (1.0 + 4.0 / 2048.0));
}

/* The precision recipes' and quantized formats' rows: their names are
 * the scenario files' (CONTRACT.md section 2), in enum order, parsed back
 * to their value; each row has its label and source; the data types are
 * the contract's table (bf16-mixed: bf16 weights and gradients, an fp32
 * master copy and states) and QLoRA's bytes a weight (§3). */
static void
test_precision_and_quant_rows (void)
{
  static const char * const precisions[] = { "fp32", "amp-bf16", "amp-fp16", "bf16-mixed",
                                             "fp16-mixed", "bf16-true", "fp8-mixed" };
  static const char * const quants[] = { "nf4", "nf4-dq", "int8", "int4" };
  HrDtypes d;
  guint v;

  g_assert_cmpuint (hr_precision_names.n_names, ==, G_N_ELEMENTS (precisions));
  for (guint i = 0; i < HR_N_PRECISIONS; i++)
    {
      g_assert_cmpstr (hr_enum_name (&hr_precision_names, i), ==, precisions[i]);
      g_assert_cmpstr (hr_enum_label (&hr_precision_names, i), ==, hr_precisions[i].label);
      g_assert_true (hr_enum_parse (&hr_precision_names, precisions[i], &v));
      g_assert_cmpuint (v, ==, i);
      g_assert_nonnull (hr_precisions[i].source);
    }
  hr_dtypes_for_precision (HR_PRECISION_BF16_MIXED, &d);
  g_assert_true (d.weights == HR_DTYPE_BF16 && d.grads == HR_DTYPE_BF16 && d.master == HR_DTYPE_FP32
                 && d.optimizer == HR_DTYPE_FP32 && d.activations == HR_DTYPE_BF16);
  hr_dtypes_for_precision (HR_PRECISION_AMP_FP16, &d);
  g_assert_true (d.weights == HR_DTYPE_FP32 && d.master == HR_DTYPE_NONE && d.activations == HR_DTYPE_FP16);
  hr_dtypes_for_precision (HR_PRECISION_BF16_TRUE, &d);
  g_assert_true (d.master == HR_DTYPE_NONE && d.optimizer == HR_DTYPE_BF16);

  g_assert_cmpuint (hr_quant_names.n_names, ==, G_N_ELEMENTS (quants));
  for (guint i = 0; i < HR_N_QUANTS; i++)
    {
      g_assert_cmpstr (hr_enum_name (&hr_quant_names, i), ==, quants[i]);
      g_assert_true (hr_enum_parse (&hr_quant_names, quants[i], &v));
      g_assert_cmpuint (v, ==, i);
      g_assert_nonnull (hr_quants[i].label);
      g_assert_nonnull (hr_quants[i].source);
    }
  g_assert_cmpfloat (hr_quants[HR_QUANT_NF4].bytes_per_param, ==, 0.5625);
  g_assert_cmpfloat (hr_quants[HR_QUANT_NF4_DQ].bytes_per_param, ==, 0.515875);
}

/* Framework profiles are data: each value with its source; a profile
 * with a bad value is named, with its file and field, and left out. */
/* hr_framework_find reads only the profile it is asked for until the
 * list is needed (the CLI's start-up); the list then holds that same
 * copy, so a pointer found early stays valid.  In a fresh process: the
 * other tests load the list. */
static void
test_framework_found_early (void)
{
  if (g_test_subprocess ())
    {
      const HrFramework *early = hr_framework_find ("torchtitan");
      gboolean listed = FALSE;

      g_assert_nonnull (early);
      g_assert_cmpstr (early->name, ==, "torchtitan");
      g_assert_null (hr_framework_find ("no-such-framework"));
      g_assert_true (hr_framework_find ("torchtitan") == early);
      g_assert_cmpuint (hr_frameworks_count (), >=, 8);
      for (guint i = 0; i < hr_frameworks_count (); i++)
        listed |= hr_framework_get (i) == early;
      g_assert_true (listed);
      g_assert_true (hr_framework_find ("torchtitan") == early);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_framework_profiles (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hr-fw-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (dir, "frameworks", NULL);
  g_autofree char *bad = g_build_filename (folder, "bad.json", NULL);
  g_autofree char *good = g_build_filename (folder, "mine.json", NULL);
  g_autofree char *unversioned = g_build_filename (folder, "whenever.json", NULL);
  const char *dirs[] = { dir, NULL };
  g_autoptr(HrPresets) presets = hr_presets_new (dirs);
  GPtrArray *problems;

  g_assert_cmpuint (hr_frameworks_count (), >=, 2);
  for (guint i = 0; i < hr_frameworks_count (); i++)
    {
      const HrFramework *f = hr_framework_get (i);

      g_assert_true (f->versions[0] != '\0');
      for (guint j = 0; f->assignments[j] != NULL; j++)
        g_assert_true (f->sources[j] != NULL && f->sources[j][0] != '\0');
    }

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (bad, "{\"name\": \"Bad\", \"values\": [{\"set\": "
                                      "\"training.loss=sideways\", \"source\": \"nowhere\"}]}",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (good, "{\"name\": \"Mine\", \"versions\": \"my loop, "
                                      "2026\", \"values\": [{\"set\": "
                                      "\"training.loss=chunked\", \"source\": \"my loop\"}]}",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (unversioned, "{\"name\": \"Whenever\", \"values\": []}",
                                      -1, NULL));
  hr_frameworks_load (presets);
  g_assert_cmpuint (hr_frameworks_count (), ==, 1);
  g_assert_cmpstr (hr_framework_get (0)->id, ==, "mine");
  problems = hr_frameworks_problems ();
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "bad.json: values[0]"));
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "training.loss"));
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 1), "whenever.json: versions: allowed:"));

  /* Back to the bundled ones for the other tests. */
  {
    g_autoptr(HrPresets) bundled = hr_test_presets ();

    hr_frameworks_load (bundled);
  }
  g_unlink (bad);
  g_unlink (good);
  g_unlink (unversioned);
  g_rmdir (folder);
  g_rmdir (dir);
}

/* parallel.stage_layers (contract 1.1): 126 layers over pp 8 x vpp 2 = 16
 * virtual stages, refused before as 16 does not divide 126, split 7, 8 x 14,
 * 7: GPU 0 holds chunks 0 and 8 (7 + 8), GPU 7 chunks 7 and 15 (8 + 7), the
 * others 16.  Saved and read back; wrong counts and sums refused. */
static void
test_stage_layers (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(JsonNode) root = NULL;
  HrScenario sc, back;
  guint64 sum = 0;

  hr_scenario_init_default (&sc);
  sc.model.layers = 126;
  sc.parallel.gpus = 64;
  sc.parallel.pp = 8;
  sc.parallel.vpp = 2;
  sc.training.grad_accum = 16;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_cmpstr (hr_error_field (error), ==, "parallel.vpp");
  g_clear_error (&error);

  sc.parallel.n_stage_layers = 16;
  for (guint i = 0; i < 16; i++)
    sc.parallel.stage_layers[i] = i == 0 || i == 15 ? 7 : 8;
  g_assert_true (hr_calc_plan (&sc, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (plan->n_devices, ==, 8);
  g_assert_cmpuint (plan->devices[0].n_layers, ==, 15);
  g_assert_cmpuint (plan->devices[1].n_layers, ==, 16);
  g_assert_cmpuint (plan->devices[7].n_layers, ==, 15);
  g_assert_cmpuint (plan->devices[1].first_layer, ==, 7);
  for (guint d = 0; d < plan->n_devices; d++)
    sum += plan->devices[d].n_layers;
  g_assert_cmpuint (sum, ==, 126);

  saved = hr_scenario_to_data (&sc, NULL);
  g_assert_nonnull (strstr (saved, "\"stage_layers\" : ["));
  root = hr_json_load_data (saved, -1, "saved.json", &error);
  g_assert_true (hr_scenario_read_node (&back, root, "saved.json", presets, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back.parallel.n_stage_layers, ==, 16);
  g_assert_true (memcmp (back.parallel.stage_layers, sc.parallel.stage_layers,
                         sizeof sc.parallel.stage_layers) == 0);

  sc.parallel.stage_layers[3] = 9;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "the stages hold 127 layers"));
  g_clear_error (&error);
  sc.parallel.n_stage_layers = 8;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "8 entries for pp 8 x vpp 2"));
  g_clear_error (&error);

  g_assert_false (hr_scenario_set (&sc, "parallel.stage_layers=[1, 0]", presets, "--set", &error));
  g_assert_nonnull (strstr (error->message, "parallel.stage_layers[1]: 0 is not allowed"));
  g_clear_error (&error);
  g_assert_false (hr_scenario_set (&sc, "parallel.stage_layers=4", presets, "--set", &error));
  g_assert_nonnull (strstr (error->message, "allowed: an array of whole numbers"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fields/table-is-consistent", test_table_is_consistent);
  g_test_add_func ("/fields/every-field-round-trips", test_every_field_round_trips);
  g_test_add_func ("/fields/error-names-its-field", test_error_names_its_field);
  g_test_add_func ("/fields/read-error-names-its-field", test_read_error_names_its_field);
  g_test_add_func ("/fields/ranges-come-from-the-table", test_ranges_come_from_the_table);
  g_test_add_func ("/fields/optional-defaults", test_optional_defaults);
  g_test_add_func ("/fields/vision-refusals", test_vision_refusals);
  g_test_add_func ("/fields/optimizer-rows", test_optimizer_rows);
  g_test_add_func ("/fields/precision-and-quant-rows", test_precision_and_quant_rows);
  g_test_add_func ("/fields/framework-found-early", test_framework_found_early);
  g_test_add_func ("/fields/framework-profiles", test_framework_profiles);
  g_test_add_func ("/fields/stage-layers", test_stage_layers);
  return g_test_run ();
}
