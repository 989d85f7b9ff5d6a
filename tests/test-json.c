/* test-json.c: hostile input to the JSON reader, the JSON writer and the
 * file writer (issue "Hardening II", findings 1-5, 8, 9 and 11)
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr-json.h"
#include "hr-report.h"
#include "hr-scenario-fields.h"
#include "hr-test-util.h"
#include "hr-text.h"

static char *
repeat (const char *prefix,
        char        c,
        gsize       n,
        const char *suffix)
{
  GString *s = g_string_new (prefix);

  for (gsize i = 0; i < n; i++)
    g_string_append_c (s, c);
  g_string_append (s, suffix);
  return g_string_free (s, FALSE);
}

static void
assert_refused (const char *text,
                const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = hr_json_load_data (text, -1, "t.json", &error);

  g_assert_null (node);
  g_assert_error (error, HR_ERROR, HR_ERROR_PARSE);
  if (strstr (error->message, expected) == NULL)
    g_error ("message \"%s\" does not say \"%s\"", error->message, expected);
  /* One short line, whatever the input. */
  g_assert_null (strchr (error->message, '\n'));
  g_assert_cmpuint (strlen (error->message), <, 400);
}

/* Finding 1: comments and single quotes once hid 100 000 '[' from the
 * depth guard, and json-glib's recursive parser overflowed the stack. */
static void
test_depth_guard_sees_what_parser_sees (void)
{
  g_autofree char *comment = repeat ("/* \" */", '[', 100000, "");
  g_autofree char *quoted = repeat ("{'a\"': ", '[', 100000, "");
  g_autofree char *deep = repeat ("", '[', 100000, "");

  assert_refused (comment, "a comment");
  assert_refused (quoted, "single-quoted");
  assert_refused (deep, "deeper than 64 levels");
}

/* Finding 3: the old guard counted ++depth twice, so 62 sibling arrays
 * were "deeper than 64 levels".  Exactly 64 levels pass, 65 do not. */
static void
test_depth_counts_nesting_not_siblings (void)
{
  GString *siblings = g_string_new ("{\"a\": [");
  g_autofree char *d64 = NULL, *d65 = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) node64 = NULL;

  for (int i = 0; i < 200; i++)
    g_string_append (siblings, i ? ", []" : "[]");
  g_string_append (siblings, "]}");
  node = hr_json_load_data (siblings->str, -1, "t.json", &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  g_string_free (siblings, TRUE);

  {
    GString *a = g_string_new (NULL), *b = g_string_new (NULL);

    for (int i = 0; i < 64; i++)
      g_string_append_c (a, '[');
    for (int i = 0; i < 64; i++)
      g_string_append_c (a, ']');
    g_string_append_c (b, '[');
    g_string_append (b, a->str);
    g_string_append_c (b, ']');
    d64 = g_string_free (a, FALSE);
    d65 = g_string_free (b, FALSE);
  }
  node64 = hr_json_load_data (d64, -1, "t.json", &error);
  g_assert_no_error (error);
  g_assert_nonnull (node64);
  assert_refused (d65, "deeper than 64 levels");
}

/* Finding 8: what json-glib would accept but read as something else. */
static void
test_lax_json_refused (void)
{
  assert_refused ("{\"a\": 1} {\"b\": 2}", "a second value");
  assert_refused ("{\"a\": 1}\n[]", "a second value");
  assert_refused ("{\"parallel\": {\"gpus\": 8}, \"parallel\": {\"tp\": 2}}",
                  "the key \"parallel\" a second time");
  assert_refused ("{\"a\": 1, \"\\u0061\": 2}", "the key \"a\" a second time");
  assert_refused ("{\"a\": 010}", "leading zero");
  assert_refused ("{\"a\": 0x10}", "leading zero");
  assert_refused ("{\"a\": 1} // note", "a comment");
  assert_refused ("{\"a\": 'x'}", "single-quoted");
  assert_refused ("{\"a\": 1,}", "expected a key");
  assert_refused ("[1, 2,]", "not a value");
  assert_refused ("{\"a\": .5}", "not a value");
  assert_refused ("{\"a\": 1.}", "decimal point");
  assert_refused ("{\"a\": 1e}", "exponent");
  assert_refused ("{\"a\": NaN}", "not a value");
  assert_refused ("{\"a\": \"tab\there\"}", "control character");
  assert_refused ("{\"a\": \"\\x41\"}", "unknown escape");
  assert_refused ("{\"a\": 1", "ends inside");
  assert_refused ("   ", "empty");

  /* The same keys in different objects are fine, and so is every escape. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = hr_json_load_data (
      "{\"a\": {\"x\": 1}, \"b\": {\"x\": -0.5e+3}, \"c\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}",
      -1, "t.json", &error);

    g_assert_no_error (error);
    g_assert_nonnull (node);
  }
}

/* Finding 9: a 1 MB key in a scenario is named in a short message. */
static void
test_long_key_cut_in_message (void)
{
  g_autofree char *key = repeat ("{\"model\": {\"", 'k', 1 << 20, "\": 1}}");
  g_autofree char *top = repeat ("{\"", 'k', 1 << 20, "\": 1}");
  const char *texts[] = { key, top };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(HrPresets) presets = hr_test_presets ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = hr_json_load_data (texts[i], -1, "t.json", &error);
      HrScenario sc;

      g_assert_no_error (error);
      g_assert_false (hr_scenario_read_node (&sc, root, "t.json", presets, &error));
      g_assert_error (error, HR_ERROR, HR_ERROR_UNKNOWN_KEY);
      /* (the key cut to a few dozen characters; the list of allowed model
       * keys after it is itself about 1000) */
      g_assert_cmpuint (strlen (error->message), <, 2000);
      g_assert_nonnull (strstr (error->message, "…"));
    }
}

/* Finding 2: only regular files are read, and the size cap holds while
 * reading: a FIFO once hung every start, /dev/zero read until memory ran
 * out. */
static void
test_only_regular_files_read (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hr-json-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autofree char *zero = g_build_filename (dir, "zero.json", NULL);
  g_autofree char *big = g_build_filename (dir, "big.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *data = NULL;
  gint64 start;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  start = g_get_monotonic_time ();
  node = hr_json_load_file (fifo, &error);
  g_assert_null (node);
  g_assert_error (error, HR_ERROR, HR_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "a named pipe"));
  g_clear_error (&error);

  node = hr_json_load_file (zero, &error);
  g_assert_null (node);
  g_assert_nonnull (strstr (error->message, "a device"));
  g_clear_error (&error);
  /* Both answer at once, without waiting for a writer or reading. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);

  data = repeat ("[", ' ', 5 * 1024 * 1024, "]");
  g_assert_true (g_file_set_contents (big, data, -1, NULL));
  node = hr_json_load_file (big, &error);
  g_assert_null (node);
  g_assert_nonnull (strstr (error->message, "allowed: up to 4194304 bytes"));
  g_clear_error (&error);

  /* A preset folder with a FIFO among its files still lists the others. */
  {
    g_autofree char *models = g_build_filename (dir, "models", NULL);
    g_autofree char *pipe = g_build_filename (models, "pipe.json", NULL);
    const char *dirs[] = { dir, NULL };
    g_autoptr(HrPresets) presets = NULL;
    g_autoptr(GPtrArray) list = NULL;
    g_autoptr(GPtrArray) broken = NULL;

    g_assert_cmpint (g_mkdir (models, 0700), ==, 0);
    g_assert_cmpint (mkfifo (pipe, 0600), ==, 0);
    presets = hr_presets_new (dirs);
    list = hr_presets_list (presets, HR_PRESET_MODEL);
    g_assert_cmpuint (list->len, ==, 0);
    broken = hr_presets_broken (presets);
    g_assert_cmpuint (broken->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (broken, 0), "a named pipe"));
    g_unlink (pipe);
    g_rmdir (models);
  }
  g_unlink (fifo);
  g_unlink (zero);
  g_unlink (big);
  g_rmdir (dir);
}

/* Finding 4: a name cut to fit is cut between characters. */
static void
test_names_cut_on_characters (void)
{
  g_autofree char *name = repeat ("{\"name\": \"", 'a', HR_NAME_MAX * 2 - 2, "éééé\"}");
  g_autoptr(HrPresets) presets = hr_test_presets ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = hr_json_load_data (name, -1, "t.json", &error);
  g_autofree char *saved = NULL;
  g_autofree char *json = NULL;
  g_autoptr(HrPlan) plan = hr_plan_new ();
  HrScenario sc, again;
  gsize length;

  g_assert_no_error (error);
  g_assert_true (hr_scenario_read_node (&sc, root, "t.json", presets, &error));
  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (sc.name, -1, NULL));
  g_assert_cmpuint (strlen (sc.name), ==, HR_NAME_MAX * 2 - 2);

  saved = hr_scenario_to_data (&sc, &length);
  g_assert_true (g_utf8_validate (saved, -1, NULL));
  {
    g_autoptr(JsonNode) back = hr_json_load_data (saved, (gssize) length, "saved.json", &error);

    g_assert_no_error (error);
    g_assert_true (hr_scenario_read_node (&again, back, "saved.json", presets, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (again.name, ==, sc.name);
  }
  hr_test_plan (&sc, plan);
  json = hr_report_json_text (&sc, plan);
  g_assert_true (g_utf8_validate (json, -1, NULL));

  /* The helper itself: never half a character, never past the cap. */
  g_assert_cmpuint (hr_text_utf8_prefix ("aé", 2), ==, 1);
  g_assert_cmpuint (hr_text_utf8_prefix ("aé", 3), ==, 3);
  g_assert_cmpuint (hr_text_utf8_prefix ("a\xff" "b", 10), ==, 1);
}

/* Finding 5: numbers json-glib's generator wrote as "inf.0" and
 * "2e+17.0"; a saved scenario must reopen. */
static void
test_numbers_written_as_json (void)
{
  struct { double v; const char *text; } cases[] = {
    { 2e17, "2e+17" }, { 0.1, "0.1" }, { 3.0, "3.0" }, { 1e-300, "1e-300" },
    { -0.5, "-0.5" }, { 1.0 / 3.0, "0.3333333333333333" }, { INFINITY, "null" },
    { NAN, "null" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
      g_autofree char *text = NULL;

      json_node_set_double (node, cases[i].v);
      text = hr_json_to_data (node, FALSE, NULL);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  {
    g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
    g_autofree char *text = NULL;

    json_node_set_string (node, "q\"\\\n\x1b\x7f é");
    text = hr_json_to_data (node, FALSE, NULL);
    g_assert_cmpstr (text, ==, "\"q\\\"\\\\\\n\\u001b\x7f é\"");
  }

  /* The scenario of the finding, saved and opened again, and its report. */
  {
    g_autoptr(HrPresets) presets = hr_test_presets ();
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) root = hr_json_load_data (
      "{\"cost\": {\"mfu\": 1e-300, \"tokens\": 2e17, \"price_per_gpu_hour\": 2}}",
      -1, "t.json", &error);
    g_autofree char *saved = NULL;
    g_autofree char *report = NULL;
    g_autoptr(HrPlan) plan = hr_plan_new ();
    HrScenario sc, again;

    g_assert_no_error (error);
    g_assert_true (hr_scenario_read_node (&sc, root, "t.json", presets, &error));
    g_assert_no_error (error);
    saved = hr_scenario_to_data (&sc, NULL);
    {
      g_autoptr(JsonNode) back = hr_json_load_data (saved, -1, "saved.json", &error);

      g_assert_no_error (error);
      g_assert_true (hr_scenario_read_node (&again, back, "saved.json", presets, &error));
      g_assert_no_error (error);
    }
    g_assert_cmpfloat (again.cost.tokens, ==, 2e17);
    g_assert_cmpfloat (again.cost.mfu, ==, 1e-300);
    hr_test_plan (&sc, plan);
    report = hr_report_json_text (&sc, plan);
    g_assert_true (hr_json_check_strict (report, strlen (report), "report", &error));
    g_assert_no_error (error);
    g_assert_null (strstr (report, "inf"));
  }
}

/* A value drawn from everything a double field may meet: small and huge
 * magnitudes, whole numbers, fractions. */
static double
random_double (GRand      *rand,
               const char *key)
{
  const char *fractions[] = { "fragmentation", "headroom", "mfu", "dropout", NULL };

  /* Shares are checked to lie in [0, 1): draw most of them there, so
   * most scenarios pass validation and reach the second write. */
  if (g_strv_contains (fractions, key) && g_rand_int_range (rand, 0, 8) > 0)
    return g_rand_double_range (rand, 0, 0.9);
  switch (g_rand_int_range (rand, 0, 5))
    {
    case 0:
      return (double) g_rand_int_range (rand, 0, 100000);
    case 1:
      return g_rand_double (rand);
    case 2:
      return pow (10.0, g_rand_double_range (rand, -300, 300));
    case 3:
      return ldexp (1.0, g_rand_int_range (rand, 40, 70));
    default:
      return g_rand_double_range (rand, 0, 1e6);
    }
}

/* Finding 5's property: any scenario written reads back and writes the
 * same text again.  Random double fields and random names, 400 times. */
static void
test_round_trip_random_scenarios (void)
{
  const struct { const Field *fields; const guint *count; gsize offset; } sections[] = {
    { hr_cost_fields, &hr_cost_fields_count, G_STRUCT_OFFSET (HrScenario, cost) },
    { hr_overhead_fields, &hr_overhead_fields_count, G_STRUCT_OFFSET (HrScenario, overhead) },
    { hr_lora_fields, &hr_lora_fields_count, G_STRUCT_OFFSET (HrScenario, training.lora) },
  };
  const char *pieces[] = { "a", "é", "€", "𝄞", " ", "\"", "\\", "\n", "\x1b", "x" };
  guint32 seed = (guint32) g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(HrPresets) presets = hr_test_presets ();
  guint read_back = 0;

  g_test_message ("seed %u", seed);
  for (int iter = 0; iter < 400; iter++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) name = g_string_new (NULL);
      g_autofree char *first = NULL;
      HrScenario sc;

      hr_scenario_init_default (&sc);
      for (guint s = 0; s < G_N_ELEMENTS (sections); s++)
        for (guint f = 0; f < *sections[s].count; f++)
          if (sections[s].fields[f].kind == F_DOUBLE && g_rand_boolean (rand))
            *(double *) G_STRUCT_MEMBER_P (&sc, sections[s].offset + sections[s].fields[f].offset)
              = random_double (rand, sections[s].fields[f].key);
      for (int n = g_rand_int_range (rand, 0, 200); n > 0; n--)
        g_string_append (name, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
      hr_copy_string (sc.name, sizeof sc.name, name->str);

      first = hr_scenario_to_data (&sc, NULL);
      g_assert_true (g_utf8_validate (first, -1, NULL));
      g_assert_true (hr_json_check_strict (first, strlen (first), "first", &error));
      g_assert_no_error (error);
      {
        g_autoptr(JsonNode) back = hr_json_load_data (first, -1, "first.json", &error);
        g_autofree char *second = NULL;
        HrScenario again;

        g_assert_no_error (error);
        if (!hr_scenario_read_node (&again, back, "first.json", presets, &error))
          {
            g_test_message ("refused: %s", error->message);
            continue;
          }
        read_back++;
        second = hr_scenario_to_data (&again, NULL);
        g_assert_cmpstr (second, ==, first);
      }
    }
  g_test_message ("%u of 400 random scenarios passed validation and round-tripped", read_back);
  g_assert_cmpuint (read_back, >=, 120);
}

/* Finding 11: writing keeps what a rename would break. */
static void
test_write_keeps_the_target (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hr-write-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "s.json", NULL);
  g_autofree char *symlinked = g_build_filename (dir, "link.json", NULL);
  g_autofree char *hard = g_build_filename (dir, "hard.json", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_true (g_file_set_contents (file, "old", -1, NULL));
  g_assert_cmpint (g_chmod (file, 0600), ==, 0);

  /* The mode stays 0600. */
  g_assert_true (hr_write_file_atomic (file, "new", 3, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* A symbolic link stays a link, and its target gets the data. */
  g_assert_cmpint (symlink ("s.json", symlinked), ==, 0);
  g_assert_true (hr_write_file_atomic (symlinked, "via link", 8, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_lstat (symlinked, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "via link");
  g_clear_pointer (&text, g_free);

  /* A hard link keeps seeing the file. */
  g_assert_cmpint (link (file, hard), ==, 0);
  g_assert_true (hr_write_file_atomic (file, "both names", 10, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (hard, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "both names");
  g_assert_true (hr_file_same (file, hard));
  g_clear_pointer (&text, g_free);

  /* A FIFO and a device are refused and stay what they are. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (hr_write_file_atomic (fifo, "x", 1, &error));
  g_assert_nonnull (strstr (error->message, "a named pipe, not a regular file"));
  g_clear_error (&error);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_false (hr_write_file_atomic ("/dev/null", "x", 1, &error));
  g_assert_nonnull (strstr (error->message, "a device"));
  g_clear_error (&error);
  g_assert_cmpint (g_lstat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));

  /* A failed save leaves the old file. */
  g_assert_false (hr_write_file_atomic ("/nonexistent-dir/s.json", "x", 1, &error));
  g_assert_nonnull (strstr (error->message, "unchanged"));
  g_clear_error (&error);

  /* No temporary file is left behind. */
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    guint n = 0;

    while (g_dir_read_name (d) != NULL)
      n++;
    g_assert_cmpuint (n, ==, 4);
  }
  g_unlink (symlinked);
  g_unlink (hard);
  g_unlink (file);
  g_unlink (fifo);
  g_rmdir (dir);
}

/* Finding 1 and 9 for --set: 60 000 path segments and a value of 120 000
 * '[' once overflowed the stack. */
static void
test_set_paths_and_values_bounded (void)
{
  g_autoptr(GString) path = g_string_new (NULL);
  g_autofree char *value = repeat ("name=", '[', 120000, "");
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < 60000; i++)
    g_string_append (path, i ? ".a" : "a");
  g_string_append (path, "=1");
  g_assert_false (hr_json_set_path (root, path->str, &error));
  g_assert_nonnull (strstr (error->message, "more than 8 keys"));
  g_assert_cmpuint (strlen (error->message), <, 300);
  g_clear_error (&error);

  /* Not JSON within the limits: the text is taken as a string. */
  g_assert_true (hr_json_set_path (root, value, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (json_object_get_string_member (root, "name")), ==, 120000);

  g_assert_true (hr_json_set_path (root, "training.micro_batch=8", &error));
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "training"),
                                               "micro_batch"), ==, 8);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/depth-guard-sees-what-parser-sees", test_depth_guard_sees_what_parser_sees);
  g_test_add_func ("/json/depth-counts-nesting", test_depth_counts_nesting_not_siblings);
  g_test_add_func ("/json/lax-json-refused", test_lax_json_refused);
  g_test_add_func ("/json/long-key-cut", test_long_key_cut_in_message);
  g_test_add_func ("/json/only-regular-files", test_only_regular_files_read);
  g_test_add_func ("/json/names-cut-on-characters", test_names_cut_on_characters);
  g_test_add_func ("/json/numbers-written-as-json", test_numbers_written_as_json);
  g_test_add_func ("/json/round-trip-random", test_round_trip_random_scenarios);
  g_test_add_func ("/json/write-keeps-target", test_write_keeps_the_target);
  g_test_add_func ("/json/set-bounded", test_set_paths_and_values_bounded);
  return g_test_run ();
}
