/* hr-error-bar.c: how far off plans of this kind have been
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run's kind is its method, its framework and its layout; the error bar
 * of a plan is the median and worst error of the measured runs of its kind,
 * or of the nearest kind that has runs, said so.  The bundled measured runs
 * (the calibration) are read once per process and planned only as a kind
 * needs them.
 */

#include "hr-measured-private.h"

#include <glib/gi18n-lib.h>

#include "hr-frameworks.h"
#include "hr-json.h"

#include <string.h>

/* The frameworks' names as the build's summary of the measured runs
 * gives them (id -> name; calibration_from_summary). */
static GHashTable *framework_names;

/* Which of the five layouts the error bars tell apart a plan has.  A plan
 * that OFFLOADs parameters or optimizer states is a kind of its own: what
 * the host holds, and what the GPU keeps for the transfers, is another
 * engine path (PEFT's documentation's FSDP QLoRA run with CPU offloading,
 * planned 36.8 % under where the same run without it is 12.4 %). */
HrLayout
hr_layout_of (guint64  gpus,
              guint64  tp,
              guint64  pp,
              guint64  cp,
              guint64  ep,
              guint64  zero,
              gboolean offload)
{
  if (gpus <= 1 && !offload)
    return HR_LAYOUT_SINGLE;
  if (tp > 1 || pp > 1 || cp > 1 || ep > 1)
    return HR_LAYOUT_MODEL;
  if (offload)
    return HR_LAYOUT_OFFLOAD;
  return zero >= 1 ? HR_LAYOUT_SHARDED : HR_LAYOUT_DATA;
}

void
hr_run_kind_of (const HrScenario *scenario,
                HrRunKind        *out)
{
  const HrParallel *p = &scenario->parallel;

  g_return_if_fail (scenario != NULL && out != NULL);

  memset (out, 0, sizeof *out);
  out->method = scenario->training.method;
  out->layout = hr_layout_of (p->gpus, p->tp, p->pp, p->cp, p->ep, p->zero,
                              p->offload_params || p->offload_optimizer);
  if (p->deepspeed && p->zero >= 1)
    {
      hr_copy_string (out->framework, sizeof out->framework, "deepspeed");
      return;
    }
  /* The framework the scenario names (training.framework), else the one
   * whose every value it has. */
  if (scenario->training.framework[0] != '\0')
    {
      hr_copy_string (out->framework, sizeof out->framework, scenario->training.framework);
      return;
    }
  for (guint i = 0; i < hr_frameworks_count (); i++)
    if (hr_framework_matches (hr_framework_get (i), scenario))
      {
        hr_copy_string (out->framework, sizeof out->framework, hr_framework_get (i)->id);
        return;
      }
}

gboolean
hr_run_kind_equal (const HrRunKind *a,
                   const HrRunKind *b)
{
  return a->method == b->method && a->layout == b->layout
         && strcmp (a->framework, b->framework) == 0;
}

/* The length of a framework id without its version ("hf-trainer-4.53",
 * "torchtitan-2025"): the profiles of one framework's versions differ in
 * a value or two, so their runs are the nearest kind to each other. */
static gsize
family_length (const char *id)
{
  const char *dash = strrchr (id, '-');

  if (dash == NULL || dash[1] == '\0' || strspn (dash + 1, "0123456789.") != strlen (dash + 1))
    return strlen (id);
  return dash - id;
}

static guint
framework_distance (const char *a,
                    const char *b)
{
  gsize n = family_length (a);

  if (strcmp (a, b) == 0)
    return 0;
  return n == family_length (b) && strncmp (a, b, n) == 0 ? 2 : 4;
}

/* How far apart two kinds are: the method changes most what a plan gets
 * wrong, the framework next (another version of it less than another
 * framework), the layout least. */
static guint
kind_distance (const HrRunKind *a,
               const HrRunKind *b)
{
  return (a->method != b->method ? 8 : 0) + framework_distance (a->framework, b->framework)
         + (a->layout != b->layout ? 1 : 0);
}

static const char * const layout_ids[] = { "single-gpu", "data-parallel", "sharded", "model-parallel",
                                            "offload" };
G_STATIC_ASSERT (G_N_ELEMENTS (layout_ids) == HR_N_LAYOUTS);

const char *
hr_layout_id (HrLayout layout)
{
  return layout < HR_N_LAYOUTS ? layout_ids[layout] : "single-gpu";
}

char *
hr_run_kind_label (const HrRunKind *kind)
{
  static const char * const layouts[] = {
    N_("single GPU"), N_("data parallel"), N_("ZeRO/FSDP sharded"),
    N_("tensor, pipeline or context parallel"), N_("offloaded to the host"),
  };
  static const char * const methods[] = { N_("full fine-tuning"), "LoRA", "QLoRA" };
  const char *known = framework_names != NULL ? g_hash_table_lookup (framework_names, kind->framework) : NULL;
  const HrFramework *framework = known == NULL ? hr_framework_find (kind->framework) : NULL;
  const char *name = known != NULL ? _(known)
                     : framework != NULL ? _(framework->name)
                     : strcmp (kind->framework, "deepspeed") == 0 ? "DeepSpeed"
                     : _("no known framework");

  /* TRANSLATORS: the kind of a training run: framework, method, layout */
  return g_strdup_printf (_("%s, %s, %s"), name,
                          kind->method < G_N_ELEMENTS (methods) ? _(methods[kind->method]) : "",
                          _(layouts[kind->layout < HR_N_LAYOUTS ? kind->layout : 0]));
}

static void
kind_stats (GPtrArray       *runs,
            const HrRunKind *kind,
            HrErrorBar      *bar)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));

  bar->worst = 0;
  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);
      double e = ABS (run->error);

      if (!hr_run_kind_equal (&run->kind, kind))
        continue;
      g_array_append_val (errors, e);
      bar->worst = MAX (bar->worst, e);
    }
  bar->runs = errors->len;
  bar->median = hr_measured_median (errors);
}

gboolean
hr_measured_error_bar (GPtrArray        *runs,
                       const HrScenario *scenario,
                       HrErrorBar       *bar)
{
  const HrRunKind *best = NULL;
  guint best_distance = G_MAXUINT, best_count = 0;

  g_return_val_if_fail (scenario != NULL && bar != NULL, FALSE);

  memset (bar, 0, sizeof *bar);
  hr_run_kind_of (scenario, &bar->kind);
  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      const HrMeasuredRun *run = g_ptr_array_index (runs, i);
      guint distance = kind_distance (&run->kind, &bar->kind);
      guint count = 0;

      if (best != NULL && distance > best_distance)
        continue;
      for (guint j = 0; j < runs->len; j++)
        count += hr_run_kind_equal (&((const HrMeasuredRun *) g_ptr_array_index (runs, j))->kind,
                                    &run->kind);
      if (best == NULL || distance < best_distance || count > best_count)
        {
          best = &run->kind;
          best_distance = distance;
          best_count = count;
        }
    }
  if (best == NULL)
    return FALSE;
  bar->from = *best;
  bar->like_this = best_distance == 0;
  kind_stats (runs, best, bar);
  return TRUE;
}

static void
add_kind (JsonBuilder     *b,
          const char      *member,
          const HrRunKind *kind)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "framework");
  json_builder_add_string_value (b, *kind->framework != '\0' ? kind->framework : "none");
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, hr_enum_name (&hr_method_names, kind->method));
  json_builder_set_member_name (b, "layout");
  json_builder_add_string_value (b, hr_layout_id (kind->layout));
  json_builder_end_object (b);
}

/* {"framework", "method", "layout"}, as the error bar and --validate's
 * JSON write a kind. */
JsonNode *
hr_run_kind_json (const HrRunKind *kind)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  JsonNode *node;

  json_builder_begin_object (b);
  add_kind (b, "kind", kind);
  json_builder_end_object (b);
  node = json_node_copy (json_object_get_member (json_node_get_object (json_builder_get_root (b)),
                                                 "kind"));
  return node;
}

/* build-aux/errors-summary.py's first line, up to its first tab. */
#define SUMMARY_HEADER "# headroom measured errors 1"

static gboolean
run_kind_from_strings (const char *framework,
                       const char *method,
                       const char *layout,
                       HrRunKind  *kind)
{
  guint m;

  if (framework == NULL || method == NULL || layout == NULL
      || !hr_enum_parse (&hr_method_names, method, &m))
    return FALSE;
  memset (kind, 0, sizeof *kind);
  if (strcmp (framework, "none") != 0)
    hr_copy_string (kind->framework, sizeof kind->framework, framework);
  kind->method = (HrMethod) m;
  kind->layout = HR_N_LAYOUTS;
  for (guint l = 0; l < HR_N_LAYOUTS; l++)
    if (strcmp (layout_ids[l], layout) == 0)
      kind->layout = (HrLayout) l;
  return kind->layout != HR_N_LAYOUTS;
}

JsonNode *
hr_error_bar_json (const HrErrorBar *bar)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (bar != NULL, NULL);

  json_builder_begin_object (b);
  add_kind (b, "kind", &bar->kind);
  json_builder_set_member_name (b, "like_this");
  json_builder_add_boolean_value (b, bar->like_this);
  if (bar->like_this || bar->runs == 0)
    {
      json_builder_set_member_name (b, "nearest");
      json_builder_add_null_value (b);
    }
  else
    add_kind (b, "nearest", &bar->from);
  json_builder_set_member_name (b, "runs");
  json_builder_add_int_value (b, bar->runs);
  json_builder_set_member_name (b, "median");
  if (bar->runs > 0)
    json_builder_add_double_value (b, bar->median);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "worst");
  if (bar->runs > 0)
    json_builder_add_double_value (b, bar->worst);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* NUMBER writes a number as the caller's other numbers read ("2,3" in a
 * Russian window), NULL as "2.3" (the CLI, whose table is ASCII). */
static char *
percent (double       fraction,
         HrNumberFunc number)
{
  char ascii[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (ascii, sizeof ascii, "%.1f", 100 * fraction);
  return number != NULL ? number (ascii) : g_strdup (ascii);
}

char *
hr_error_bar_sentence (const HrErrorBar *bar,
                       HrNumberFunc      number)
{
  g_autofree char *from = NULL;
  g_autofree char *median = NULL;
  g_autofree char *worst = NULL;

  g_return_val_if_fail (bar != NULL, NULL);

  if (bar->runs == 0)
    return g_strdup (_("no measured runs to compare with"));
  from = hr_run_kind_label (&bar->from);
  median = percent (bar->median, number);
  worst = percent (bar->worst, number);
  if (bar->like_this)
    /* TRANSLATORS: median and worst error in per cent, how many runs, their kind */
    return g_strdup_printf (ngettext ("median ±%s %%, worst ±%s %%, on %u measured run like this (%s)",
                                      "median ±%s %%, worst ±%s %%, on %u measured runs like this (%s)",
                                      bar->runs),
                            median, worst, bar->runs, from);
  /* TRANSLATORS: the nearest kind of run measured, its median and worst error in per cent, how many */
  return g_strdup_printf (ngettext ("no measured run like this (nearest: %s: median %s %%, worst %s %%, %u run)",
                                    "no measured run like this (nearest: %s: median %s %%, worst %s %%, %u runs)",
                                    bar->runs),
                          from, median, worst, bar->runs);
}

/* The bundled file, read once in a process; its entries are planned
 * kind by kind as error bars ask for them. */
struct _HrCalibration
{
  char      *path;
  HrPresets *presets;
  Models     models;
  HrPlan    *plan;
  JsonNode  *file;
  GArray    *entries;   /* Entry */
  GPtrArray *runs;      /* the entries planned so far (HrMeasuredRun, owned by them) */
};

static HrCalibration *
calibration_new (const char *path)
{
  g_autoptr(JsonNode) file = hr_json_load_file (path, NULL);
  HrCalibration *cal;
  JsonArray *list;

  if (file == NULL || !JSON_NODE_HOLDS_ARRAY (file))
    return NULL;
  cal = g_new0 (HrCalibration, 1);
  cal->path = g_strdup (path);
  cal->presets = hr_presets_new_default ();
  hr_measured_models_init (&cal->models, cal->presets);
  cal->plan = hr_plan_new ();
  cal->file = g_steal_pointer (&file);
  cal->runs = g_ptr_array_new ();
  list = json_node_get_array (cal->file);
  cal->entries = g_array_sized_new (FALSE, TRUE, sizeof (Entry), json_array_get_length (list));
  g_array_set_size (cal->entries, json_array_get_length (list));
  for (guint i = 0; i < cal->entries->len; i++)
    hr_measured_entry_prepare (list, i, path, &g_array_index (cal->entries, Entry, i));
  return cal;
}

/* Plans the entries of one kind not planned yet; how many of that kind
 * there are in the file. */
static guint
calibration_plan_kind (HrCalibration   *cal,
                       const HrRunKind *kind)
{
  guint n = 0;

  for (guint i = 0; i < cal->entries->len; i++)
    {
      Entry *entry = &g_array_index (cal->entries, Entry, i);

      if (entry->root == NULL || !hr_run_kind_equal (&entry->kind, kind))
        continue;
      n++;
      if (!entry->tried && hr_measured_entry_plan (entry, cal->path, &cal->models, cal->presets, cal->plan))
        g_ptr_array_add (cal->runs, entry->run);
    }
  return n;
}

static void
calibration_free (HrCalibration *cal)
{
  for (guint i = 0; i < cal->entries->len; i++)
    hr_measured_entry_clear (&g_array_index (cal->entries, Entry, i));
  g_array_unref (cal->entries);
  g_ptr_array_unref (cal->runs);
  hr_measured_models_clear (&cal->models);
  hr_plan_free (cal->plan);
  g_clear_pointer (&cal->file, json_node_unref);
  hr_presets_free (cal->presets);
  g_free (cal->path);
  g_free (cal);
}

/* The errors of the bundled runs as the build computed them, planning
 * every run with this very build (`headroom-cli --validate --format json`,
 * then build-aux/errors-summary.py: one tab-separated line per run, with
 * its framework's name so that naming it reads no profile): reading them
 * takes a few thousand instructions where parsing and planning the runs
 * took two milliseconds, and parsing the same as JSON 3.4 million
 * instructions, on every table and JSON output. */
static HrCalibration *
calibration_from_summary (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  HrCalibration *cal;

  if (!g_file_get_contents (path, &text, NULL, NULL)
      || !g_str_has_prefix (text, SUMMARY_HEADER "\t"))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  cal = g_new0 (HrCalibration, 1);
  cal->path = g_strdup (path);
  cal->presets = hr_presets_new_default ();
  hr_measured_models_init (&cal->models, cal->presets);
  cal->plan = hr_plan_new ();
  cal->runs = g_ptr_array_new ();
  cal->entries = g_array_sized_new (FALSE, TRUE, sizeof (Entry), g_strv_length (lines));
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      Entry entry = { 0 };
      HrMeasuredRun *run;
      char *end[3];

      if (lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", 9);
      if (g_strv_length (f) != 8
          || !run_kind_from_strings (f[2], f[1], f[4], &entry.kind))
        {
          /* A summary this build did not write: plan the runs instead. */
          calibration_free (cal);
          return NULL;
        }
      run = g_new0 (HrMeasuredRun, 1);
      hr_copy_string (run->id, sizeof run->id, f[0]);
      hr_copy_string (entry.id, sizeof entry.id, run->id);
      run->kind = entry.kind;
      run->scenario.training.method = entry.kind.method;
      run->measured_bytes = g_ascii_strtod (f[5], &end[0]);
      run->predicted_bytes = g_ascii_strtod (f[6], &end[1]);
      run->error = g_ascii_strtod (f[7], &end[2]);
      if (*end[0] != '\0' || *end[1] != '\0' || *end[2] != '\0')
        {
          g_free (run);
          calibration_free (cal);
          return NULL;
        }
      if (f[3][0] != '\0' && entry.kind.framework[0] != '\0')
        {
          if (framework_names == NULL)
            framework_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_hash_table_replace (framework_names, g_strdup (entry.kind.framework), g_strdup (f[3]));
        }
      /* Planned already: a root that marks it usable, a run. */
      entry.root = json_node_new (JSON_NODE_NULL);
      entry.tried = TRUE;
      entry.run = run;
      g_array_append_val (cal->entries, entry);
      g_ptr_array_add (cal->runs, run);
    }
  return cal;
}

HrCalibration *
hr_calibration_bundled (void)
{
  static HrCalibration *bundled;
  static gboolean looked;
  const char *env = g_getenv ("HEADROOM_CALIBRATION");
  const char *candidates[] = {
    env,
#ifdef HR_CALIBRATION_FILE
    HR_CALIBRATION_FILE,
#endif
#ifdef HR_SOURCE_CALIBRATION_FILE
    HR_SOURCE_CALIBRATION_FILE,
#endif
  };

  const char *summaries[] = {
    g_getenv ("HEADROOM_ERRORS"),
#ifdef HR_ERRORS_FILE
    HR_ERRORS_FILE,
#endif
#ifdef HR_BUILD_ERRORS_FILE
    HR_BUILD_ERRORS_FILE,
#endif
  };

  if (looked)
    return bundled;
  looked = TRUE;
  /* The build's summary, unless a calibration file is asked for by name. */
  for (guint i = 0; env == NULL && i < G_N_ELEMENTS (summaries); i++)
    if (summaries[i] != NULL && g_file_test (summaries[i], G_FILE_TEST_IS_REGULAR)
        && (bundled = calibration_from_summary (summaries[i])) != NULL)
      return bundled;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL && g_file_test (candidates[i], G_FILE_TEST_IS_REGULAR))
      return bundled = calibration_new (candidates[i]);
  return NULL;
}

gboolean
hr_calibration_error_bar (HrCalibration    *cal,
                          const HrScenario *scenario,
                          HrErrorBar       *bar,
                          GPtrArray        *runs_out)
{
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();

  g_return_val_if_fail (scenario != NULL && bar != NULL, FALSE);

  memset (bar, 0, sizeof *bar);
  hr_run_kind_of (scenario, &bar->kind);
  if (cal == NULL)
    return FALSE;

  /* The entries' kinds, nearest first (of two as near, the one with more
   * entries), planned one kind at a time until one has runs. */
  for (guint i = 0; i < cal->entries->len; i++)
    {
      Entry *entry = &g_array_index (cal->entries, Entry, i);
      gboolean seen = FALSE;

      for (guint k = 0; entry->root != NULL && k < kinds->len && !seen; k++)
        seen = hr_run_kind_equal (g_ptr_array_index (kinds, k), &entry->kind);
      if (entry->root != NULL && !seen)
        g_ptr_array_add (kinds, &entry->kind);
    }
  while (kinds->len > 0)
    {
      guint best = 0, best_distance = G_MAXUINT, best_count = 0;

      for (guint k = 0; k < kinds->len; k++)
        {
          const HrRunKind *kind = g_ptr_array_index (kinds, k);
          guint distance = kind_distance (kind, &bar->kind);
          guint count = 0;

          for (guint i = 0; i < cal->entries->len; i++)
            count += g_array_index (cal->entries, Entry, i).root != NULL
                     && hr_run_kind_equal (&g_array_index (cal->entries, Entry, i).kind, kind);
          if (distance < best_distance || (distance == best_distance && count > best_count))
            {
              best = k;
              best_distance = distance;
              best_count = count;
            }
        }
      bar->from = *(const HrRunKind *) g_ptr_array_index (kinds, best);
      calibration_plan_kind (cal, &bar->from);
      kind_stats (cal->runs, &bar->from, bar);
      if (bar->runs > 0)
        {
          bar->like_this = best_distance == 0;
          for (guint i = 0; runs_out != NULL && i < cal->runs->len; i++)
            if (hr_run_kind_equal (&((HrMeasuredRun *) g_ptr_array_index (cal->runs, i))->kind,
                                   &bar->from))
              g_ptr_array_add (runs_out, g_ptr_array_index (cal->runs, i));
          return TRUE;
        }
      g_ptr_array_remove_index (kinds, best);
    }
  memset (&bar->from, 0, sizeof bar->from);
  return FALSE;
}
