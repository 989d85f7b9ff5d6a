/* hr-measured-private.h: what the measured-run files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-measured.h"
#include "hr-frameworks.h"
#include "hr-presets.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  char        id[HR_ID_MAX];
  HrModelArch arch;
} KnownModel;

/* The model presets, read as entries need them: listing them all parses
 * every file (47 of them, 2 ms), so the preset an entry's "model" names
 * is tried first and the whole list only when that fails. */
typedef struct
{
  HrPresets *presets;
  GArray    *known;    /* KnownModel, in the order read */
  GPtrArray *order;    /* every preset's id in the list's order; NULL until listed */
  GPtrArray *gpus;     /* HrPresetInfo of the GPU presets; NULL until an entry names a GPU */
} Models;

void        hr_measured_models_init   (Models       *models,
                                       HrPresets    *presets);
void        hr_measured_models_clear  (Models       *models);

/* An entry's members, with a default when absent or of another type. */
gint64      hr_measured_member_int    (JsonObject   *obj,
                                       const char   *name,
                                       gint64        fallback);
char       *hr_measured_member_string (JsonObject   *obj,
                                       const char   *name);
char       *hr_measured_member_lower  (JsonObject   *obj,
                                       const char   *name);
double      hr_measured_member_double (JsonObject   *obj,
                                       const char   *name,
                                       double        fallback);

gboolean    hr_measured_check_numbers (JsonObject   *entry,
                                       const char   *path,
                                       const char   *id,
                                       GError      **error);
JsonNode   *hr_measured_map_entry     (JsonObject   *entry,
                                       const char   *id,
                                       GError      **error);
const HrFramework *hr_measured_framework_for (const char *id,
                                              const char *source);
gboolean    hr_measured_add_model     (JsonNode     *root,
                                       JsonObject   *entry,
                                       Models       *models,
                                       const char   *id,
                                       GError      **error);
/* hr-measured-gpu.c: the "gpu" object of an entry whose GPU is NAME (its
 * capacity from the name's "24GB"); then the GPU preset the document's
 * gpu.name names, if one does, as its gpu.preset. */
void        hr_measured_add_gpu       (JsonBuilder  *b,
                                       const char   *name);
void        hr_measured_add_gpu_preset (JsonNode    *root,
                                        Models      *models);
void        hr_measured_root_kind     (JsonNode          *root,
                                       const HrFramework *framework,
                                       HrRunKind         *kind);

/* An entry, checked, mapped to a scenario document without its model and
 * classified; planned only when its kind is asked for. */
typedef struct
{
  char           id[HR_NAME_MAX];
  JsonObject    *entry;    /* in the file's document */
  JsonNode      *root;     /* NULL: skipped, message says why */
  char          *message;
  HrRunKind      kind;
  gboolean       tried;    /* planned, or skipped while planning */
  HrMeasuredRun *run;      /* once planned; NULL when that failed */
} Entry;

void        hr_measured_entry_prepare (JsonArray    *entries,
                                       guint         i,
                                       const char   *path,
                                       Entry        *out);
gboolean    hr_measured_entry_plan    (Entry        *entry,
                                       const char   *path,
                                       Models       *models,
                                       HrPresets    *presets,
                                       HrPlan       *plan);
void        hr_measured_entry_clear   (Entry        *entry);
double      hr_measured_median        (GArray       *errors);

HrLayout    hr_layout_of              (guint64       gpus,
                                       guint64       tp,
                                       guint64       pp,
                                       guint64       cp,
                                       guint64       ep,
                                       guint64       zero,
                                       gboolean      offload);

G_END_DECLS
