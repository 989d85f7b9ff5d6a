/* hr-frameworks.h: what a training framework does that changes memory
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-presets.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

/* A framework is a list of scenario field values ("training.loss=chunked"),
 * each a behaviour of its code with a source, not a user's choice: the
 * precision, optimizer and batch stay as they are.  Profiles are data:
 * presets/frameworks/ID.json, bundled and in the user's data folder. */
/* A field whose values the framework cannot run with: its code has no
 * such path (torchtitan has no DeepSpeed engine).  A file may set any
 * value the list allows; hr_framework_check names the others. */
typedef struct
{
  char  *field;        /* "parallel.deepspeed" */
  char **allowed;      /* its values as --set writes them ("false"), NULL-terminated */
  char  *why;          /* one line for the message: "it shards with FSDP2 only" */
  char  *source;       /* where the framework's code shows it */
} HrFrameworkLimit;

typedef struct
{
  char  *id;           /* "litgpt", for files and the CLI: the file's name */
  char  *name;         /* "LitGPT" */
  char  *summary;      /* one line on what it sets */
  char  *versions;     /* the versions of the framework the values hold for */
  char  *path;         /* the profile file */
  char **assignments;  /* PATH=VALUE, NULL-terminated */
  char **sources;      /* where each value was read, in the framework's code */
  HrFrameworkLimit *limits;
  guint  n_limits;
} HrFramework;

/* One profile's content, read and checked (every value as --set checks
 * it); ID and PATH name it in the messages.  NULL, with an error naming
 * the file and the value, for a bad one. */
HrFramework       *hr_framework_new_from_node (JsonNode    *root,
                                               const char  *id,
                                               const char  *path,
                                               HrPresets   *presets,
                                               GError     **error);
void               hr_framework_free       (HrFramework       *framework);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrFramework, hr_framework_free)

/* Reads the profiles from PRESETS' folders (the default ones when the
 * frameworks are first asked for without it).  A profile with a bad value
 * is left out and named by hr_frameworks_problems. */
void               hr_frameworks_load      (HrPresets         *presets);
GPtrArray         *hr_frameworks_problems  (void);

char              *hr_framework_problem    (const char        *id);
char              *hr_framework_skipped    (const char        *id);

guint              hr_frameworks_count     (void);
const HrFramework *hr_framework_get        (guint              index);
const HrFramework *hr_framework_find       (const char        *id);
char              *hr_frameworks_allowed   (void);

/* Sets the framework's fields in a scenario document (before it is read,
 * as --set does). */
gboolean           hr_framework_apply_json (const HrFramework *framework,
                                            JsonObject        *root,
                                            GError           **error);

/* The same on a scenario, field by field, and checked; a field outside
 * the framework's limits takes the first value they allow (choosing
 * torchtitan turns DeepSpeed off). */
gboolean           hr_framework_apply      (const HrFramework *framework,
                                            HrScenario        *scenario,
                                            HrPresets         *presets,
                                            GError           **error);

/* Whether SCENARIO keeps within the limits of the framework it names
 * (training.framework; TRUE when it names none or one not installed,
 * which the reader reports).  The error names the field (hr_error_field),
 * the framework and the values it allows. */
gboolean           hr_framework_check      (const HrScenario  *scenario,
                                            GError           **error);

/* hr_framework_check as an HrSuggestAllowed: a suggestion the named
 * framework cannot run is not made. */
gboolean           hr_framework_allows     (const HrScenario  *trial,
                                            gpointer           data);

/* Whether the scenario already has every value the framework sets. */
gboolean           hr_framework_matches    (const HrFramework *framework,
                                            const HrScenario  *scenario);

G_END_DECLS
