/* hr-measured.h: measured training runs, as scenarios to check the plan against
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-format.h"
#include "hr-plan.h"
#include "hr-presets.h"

G_BEGIN_DECLS

typedef enum
{
  HR_METRIC_ALLOCATED,   /* torch.cuda.max_memory_allocated() */
  HR_METRIC_RESERVED,    /* torch.cuda.max_memory_reserved() */
  HR_METRIC_TOTAL,       /* nvidia-smi */
} HrMetric;

/* How a run spreads over its GPUs, as far as the error of a plan goes. */
typedef enum
{
  HR_LAYOUT_SINGLE,    /* one GPU */
  HR_LAYOUT_DATA,      /* data parallel, every GPU holding all model states */
  HR_LAYOUT_SHARDED,   /* data parallel with ZeRO / FSDP sharding */
  HR_LAYOUT_MODEL,     /* tensor, pipeline, context or expert parallel */
  HR_LAYOUT_OFFLOAD,   /* data parallel or one GPU, parameters or optimizer
                        * states offloaded to the host or NVMe */
  HR_N_LAYOUTS
} HrLayout;

/* The kind of a run: the framework whose code it follows, the method and
 * the layout.  The error bar of a plan comes from measured runs of the
 * same kind. */
typedef struct
{
  char     framework[HR_ID_MAX];  /* "litgpt", "hf-trainer", "deepspeed"; "" for none known */
  HrMethod method;
  HrLayout layout;
} HrRunKind;

typedef struct
{
  char       id[HR_NAME_MAX];
  char       origin[HR_ID_MAX];  /* the entry's "origin", "" when it has none */
  HrRunKind  kind;
  HrScenario scenario;
  HrMetric   metric;
  gint64     stage;            /* the pipeline stage that logged it; -1: the largest device */
  double     measured_bytes;
  double     predicted_bytes;
  double     error;            /* (predicted - measured) / measured */
} HrMeasuredRun;

/* Reads a file in the format of measured-calibration.json (a list of
 * entries with arch, task, precision, optimizer, micro_batch, seq_len,
 * grad_checkpointing, parallelism, lora, gpu, measured_gib and metric),
 * maps each entry to a scenario and plans it.  The entry's "framework"
 * (litgpt, hf-trainer; else the one its source names) adds that
 * framework's values (hr-frameworks.h); a "scenario" object, read last,
 * says what the other fields cannot (gradient accumulation, a measured
 * CUDA context).  Entries that cannot be expressed are skipped with a line
 * in skipped. */
GPtrArray *hr_measured_load     (const char  *path,
                                 HrPresets   *presets,
                                 GPtrArray   *skipped,
                                 GError     **error);

GPtrArray *hr_measured_load_node (JsonNode    *root,
                                  const char  *origin,
                                  HrPresets   *presets,
                                  GPtrArray   *skipped,
                                  GError     **error);

/* The plan's figure for METRIC on the devices of pipeline stage STAGE,
 * or on the largest device when STAGE is -1. */
double     hr_measured_predicted (const HrPlan *plan,
                                  HrMetric      metric,
                                  gint64        stage);

/* The median absolute error of the runs of one method (-1: of all runs);
 * *out_n receives how many runs, *out_worst the largest error. */
double     hr_measured_error_stats (GPtrArray  *runs,
                                    int         method,
                                    guint      *out_n,
                                    double     *out_worst);

/* The kind of a scenario: DeepSpeed when parallel.deepspeed shards, else
 * the framework training.framework names, else the one (hr-frameworks.h)
 * whose every value it has, else none. */
void        hr_run_kind_of        (const HrScenario *scenario,
                                   HrRunKind        *out);
gboolean    hr_run_kind_equal     (const HrRunKind  *a,
                                   const HrRunKind  *b);
/* "single-gpu", "data-parallel", "sharded", "model-parallel" */
const char *hr_layout_id          (HrLayout          layout);
/* "LitGPT, full fine-tuning, ZeRO/FSDP sharded", translated */
char       *hr_run_kind_label     (const HrRunKind  *kind);

/* The honest error bar of a plan, from the measured runs of its kind. */
typedef struct
{
  HrRunKind kind;        /* the scenario's */
  gboolean  like_this;   /* some measured runs are of that kind */
  HrRunKind from;        /* the kind the figures come from: kind, or the
                          * nearest one measured */
  guint     runs;        /* how many runs of that kind; 0: no runs at all */
  double    median;      /* their median absolute error, a fraction */
  double    worst;       /* their largest */
} HrErrorBar;

/* Fills bar from runs (NULL or empty: bar->runs is 0 and FALSE is
 * returned).  The nearest kind differs in the fewest of method (which
 * counts most), framework and layout (least); of two as near, the one
 * with more runs. */
gboolean    hr_measured_error_bar (GPtrArray        *runs,
                                   const HrScenario *scenario,
                                   HrErrorBar       *bar);

/* {"kind": {"framework", "method", "layout"}, "like_this", "nearest"
 * (the kind the figures come from, null when like_this), "runs",
 * "median", "worst"}; framework "none" when none is known. */
JsonNode   *hr_error_bar_json     (const HrErrorBar *bar);
JsonNode   *hr_run_kind_json      (const HrRunKind  *kind);

/* "median ±4.6 %, worst ±13.1 %, on 3 measured runs like this (LitGPT,
 * full fine-tuning, ZeRO/FSDP sharded)", or "no measured run like this
 * (nearest: ...: median X %, worst Y %, N runs)"; translated. */
char       *hr_error_bar_sentence (const HrErrorBar *bar,
                                   HrNumberFunc      number);

/* The bundled measured runs ($HEADROOM_CALIBRATION, the installed copy,
 * or the source tree's): read once in a process, the first time they are
 * asked for, and planned only kind by kind as error bars need them.  NULL
 * when no file is found; owned by the process. */
typedef struct _HrCalibration HrCalibration;

HrCalibration *hr_calibration_bundled   (void);

/* The error bar of scenario from cal's runs (cal may be NULL: FALSE, with
 * bar->kind still set); runs_out, when given, receives the runs it comes
 * from (HrMeasuredRun, owned by cal). */
gboolean       hr_calibration_error_bar (HrCalibration    *cal,
                                         const HrScenario *scenario,
                                         HrErrorBar       *bar,
                                         GPtrArray        *runs_out);

G_END_DECLS
