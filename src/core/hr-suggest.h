/* hr-suggest.h: ranked changes that make a plan fit
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-plan.h"

G_BEGIN_DECLS

#define HR_MAX_SUGGESTIONS 12

typedef struct
{
  char       title[160];     /* "Full checkpointing + ZeRO-3" */
  char       cost[200];      /* what it costs, in words */
  HrScenario scenario;       /* the scenario with the change applied */
  gint64     saves_bytes;    /* on the fullest GPU: before - after */
  guint64    total_bytes;    /* the fullest GPU after the change */
  HrStatus   status;         /* of the plan after the change */
} HrSuggestion;

/* Searches single changes and pairs of them (checkpointing, ZeRO stage,
 * offload, micro-batch with accumulation, TP, PP, sequence parallelism,
 * precision, 8-bit optimizer, LoRA, QLoRA, LoRA rank, attention, loss,
 * more GPUs) and returns those that lower the fullest GPU's memory,
 * ranked: those that leave the wanted headroom first, then the tight
 * ones, then by what they save.  work is a plan the search may reuse. */
guint  hr_suggest (const HrScenario  *scenario,
                   HrPlan            *work,
                   HrSuggestion      *out,
                   guint              max,
                   GError           **error);

/* Whether a changed scenario may be suggested at all: the framework it
 * names can run it (hr_framework_check, which the core cannot call). */
typedef gboolean (*HrSuggestAllowed) (const HrScenario *trial,
                                      gpointer          data);

/* hr_suggest, leaving out every change ALLOWED refuses. */
guint  hr_suggest_where (const HrScenario  *scenario,
                         HrPlan            *work,
                         HrSuggestion      *out,
                         guint              max,
                         HrSuggestAllowed   allowed,
                         gpointer           data,
                         GError           **error);

G_END_DECLS
