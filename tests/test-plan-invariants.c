/* test-plan-invariants.c: random scenarios plan into plans that add up
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every field of the tables gets a random value, sometimes ordinary and
 * sometimes huge (up to 2^60), so plans near and past the 1 PiB limit are
 * drawn too: before the limit was lowered from 10^18 bytes, 9 of 323 such
 * plans had categories that did not add up to the total.
 */

#include "hr-plan-invariants.h"
#include "hr-scenario-fields.h"
#include "hr-test-util.h"

static guint64
random_uint (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      return (guint64) 1 << g_rand_int_range (rand, 0, 61);
    case 1:
      return (guint64) g_rand_int_range (rand, 0, 3);
    default:
      return (guint64) 1 << g_rand_int_range (rand, 0, 14);
    }
}

static void
randomize (HrScenario *sc,
           GRand      *rand)
{
  const struct { const Field *fields; const guint *count; gsize offset; } sections[] = {
    { hr_model_fields, &hr_model_fields_count, G_STRUCT_OFFSET (HrScenario, model) },
    { hr_training_fields, &hr_training_fields_count, G_STRUCT_OFFSET (HrScenario, training) },
    { hr_parallel_fields, &hr_parallel_fields_count, G_STRUCT_OFFSET (HrScenario, parallel) },
    { hr_overhead_fields, &hr_overhead_fields_count, G_STRUCT_OFFSET (HrScenario, overhead) },
  };

  /* One to three fields at a time, so most scenarios stay valid. */
  for (int changes = g_rand_int_range (rand, 1, 4); changes > 0; changes--)
    {
      guint s = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (sections));
      const Field *field = &sections[s].fields[g_rand_int_range (rand, 0, (gint32) *sections[s].count)];
      gpointer ptr = G_STRUCT_MEMBER_P (sc, sections[s].offset + field->offset);

      switch (field->kind)
        {
        case F_UINT:
          *(guint64 *) ptr = random_uint (rand);
          break;
        case F_BOOL:
          *(gboolean *) ptr = g_rand_boolean (rand);
          break;
        case F_ENUM:
          *(guint *) ptr = (guint) g_rand_int_range (rand, 0, (gint32) field->names->n_names);
          break;
        case F_DOUBLE:
          *(double *) ptr = g_rand_double_range (rand, 0, 0.5);
          break;
        default:
          break;
        }
    }
}

static void
test_random_plans_add_up (void)
{
  const char *bases[] = { "default", "bert-large-finetune-t4" };
  guint32 seed = (guint32) g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(HrPlan) plan = hr_plan_new ();
  guint planned = 0, refused = 0, huge = 0, too_big = 0;

  g_test_message ("seed %u (replay with --seed)", seed);
  for (int iter = 0; iter < 2000; iter++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *saved = NULL;
      g_autofree char *violation = NULL;
      g_autoptr(JsonNode) root = NULL;
      HrScenario sc;

      hr_test_load (&sc, bases[iter % G_N_ELEMENTS (bases)]);
      randomize (&sc, rand);
      /* One in four: activations near and past the limit. */
      if (g_rand_int_range (rand, 0, 4) == 0)
        {
          sc.training.micro_batch = (guint64) 1 << g_rand_int_range (rand, 4, 21);
          sc.training.seq_len = (guint64) 1 << g_rand_int_range (rand, 10, 28);
        }
      /* Through the reader, as a user's file would come: it validates. */
      saved = hr_scenario_to_data (&sc, NULL);
      root = hr_json_load_data (saved, -1, "random.json", &error);
      g_assert_no_error (error);
      if (!hr_scenario_read_node (&sc, root, "random.json", presets, &error))
        {
          g_assert_null (strchr (error->message, '\n'));
          refused++;
          continue;
        }
      if (!hr_calc_plan (&sc, plan, &error))
        {
          g_assert_nonnull (error);
          refused++;
          too_big += strstr (error->message, "more than Headroom can represent") != NULL;
          continue;
        }
      planned++;
      if (plan->devices[plan->binding_device].total_bytes > ((guint64) 1 << 40))
        huge++;
      violation = hr_plan_invariant_violation (&sc, plan, presets);
      if (violation != NULL)
        g_error ("iteration %d: %s\n%s", iter, violation, saved);
    }
  g_test_message ("%u planned (%u over 1 TiB per GPU), %u refused with a message "
                  "(%u of them too big to represent)", planned, huge, refused, too_big);
  g_assert_cmpuint (planned, >=, 300);
  g_assert_cmpuint (huge, >=, 10);
  g_assert_cmpuint (too_big, >=, 10);
}

/* Finding 6: 6e21 bytes of offloaded states once came out as a host-RAM
 * figure of 0 (an out-of-range double to guint64 conversion), and the
 * warning vanished.  Now it is refused with a message, and a large but
 * representable figure keeps its warning. */
static void
test_host_ram_never_wraps (void)
{
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  HrScenario sc;

  hr_test_load (&sc, "default");
  /* 1.8e14 parameters, unsharded, on 1024 GPUs of one node: 4.4e18 bytes
   * of host memory per node, past what a guint64 of bytes holds exactly. */
  sc.parallel.offload_optimizer = TRUE;
  sc.parallel.zero = 0;
  sc.model.layers = 100000;
  sc.model.hidden = 12288;
  sc.model.heads = 96;
  sc.model.kv_heads = 96;
  sc.model.ffn = 33024;
  sc.parallel.gpus = 1024;
  sc.parallel.gpus_per_node = 1024;
  sc.training.micro_batch = 1;
  sc.training.seq_len = 16;
  g_assert_false (hr_calc_plan (&sc, plan, &error));
  g_assert_nonnull (strstr (error->message, "of host memory per node, more than Headroom can represent"));
  g_clear_error (&error);

  /* A thousand times fewer layers: planned, with its host-RAM warning. */
  sc.model.layers = 100;
  g_assert_true (hr_calc_plan (&sc, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (plan->host_bytes_per_node, >, (guint64) 1e15);
  {
    gboolean warned = FALSE;

    for (guint i = 0; i < plan->n_warnings; i++)
      warned |= plan->warnings[i].code == HR_WARNING_HOST_RAM;
    g_assert_true (warned);
  }
}

/* Every bundled model, under plans that split its states into parts
 * (hr-calc-parts.c) or not: the default scenario (DeepSpeed's ZeRO-3 on
 * 8 GPUs), FSDP's ZeRO-3 (no 16-bit shard), ZeRO-1 on 8, two pipeline
 * stages on 16.  Each plan the validator accepts holds together: items
 * add up to their categories, categories to the totals, and so on
 * (hr_plan_invariant_violation); the models whose refusals are by design
 * (an encoder-decoder on two stages) are skipped, not planned. */
static void
test_every_model_adds_up (void)
{
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GPtrArray) models = hr_presets_list (presets, HR_PRESET_MODEL);
  g_autoptr(HrPlan) plan = hr_plan_new ();
  guint planned = 0;

  for (guint i = 0; i < models->len; i++)
    for (guint variant = 0; variant < 4; variant++)
      {
        const HrPresetInfo *info = g_ptr_array_index (models, i);
        g_autofree char *violation = NULL;
        HrScenario sc;

        hr_test_load (&sc, "default");
        hr_test_model (&sc, info->id);
        sc.training.attention = HR_ATTENTION_EAGER;   /* T5's relative bias needs it */
        if (variant == 1)
          sc.parallel.deepspeed = FALSE;
        else if (variant == 2)
          sc.parallel.zero = 1;
        else if (variant == 3)
          {
            sc.parallel.pp = 2;
            sc.parallel.gpus = 16;
          }
        if (!hr_calc_plan (&sc, plan, NULL))
          continue;
        planned++;
        violation = hr_plan_invariant_violation (&sc, plan, presets);
        if (violation != NULL)
          g_error ("%s, variant %u: %s", info->id, variant, violation);
      }
  g_test_message ("%u plans of %u models", planned, models->len);
  g_assert_cmpuint (planned, >=, 3 * models->len);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan/random-plans-add-up", test_random_plans_add_up);
  g_test_add_func ("/plan/host-ram-never-wraps", test_host_ram_never_wraps);
  g_test_add_func ("/plan/every-model-adds-up", test_every_model_adds_up);
  return g_test_run ();
}
