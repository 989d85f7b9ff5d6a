/* hr-plan.h: the per-GPU memory breakdown a scenario produces
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A plan is plain data, filled by hr_calc_plan() without allocating (once
 * its device array is large enough), so that recomputing on every change
 * of a spin button costs microseconds.  Names and formulas are static
 * strings.
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* The moments of a training step at which live memory is measured
 * (CALC-REFERENCE.md section 6: "the peak is a moment, not a sum"). */
typedef enum
{
  HR_PHASE_FORWARD,          /* end of forward: activations, logits, loss */
  HR_PHASE_LOSS_BACKWARD,    /* the loss's backward: its gradients on top */
  HR_PHASE_BACKWARD_START,   /* first layer's backward: logits freed */
  HR_PHASE_BACKWARD_END,     /* activations freed, all gradients produced */
  HR_PHASE_STEP,             /* the optimizer step and its temporaries */
  HR_N_PHASES
} HrPhase;

#define HR_LIVE(phase)        (1u << (phase))
#define HR_LIVE_ALWAYS        ((1u << HR_N_PHASES) - 1)
/* the loss's tensors: from the forward to the loss's backward */
#define HR_LIVE_LOSS          (HR_LIVE (HR_PHASE_FORWARD) | \
                               HR_LIVE (HR_PHASE_LOSS_BACKWARD))
/* saved activations: until the layers' backward consumes them */
#define HR_LIVE_SAVED         (HR_LIVE_LOSS | HR_LIVE (HR_PHASE_BACKWARD_START))
/* the layers' backward pass */
#define HR_LIVE_BACKWARD      (HR_LIVE (HR_PHASE_BACKWARD_START) | \
                               HR_LIVE (HR_PHASE_BACKWARD_END))
#define HR_LIVE_FWD_BWD       (HR_LIVE_SAVED | HR_LIVE (HR_PHASE_BACKWARD_END))

/* Where an item's memory lives, which decides which total counts it. */
typedef enum
{
  HR_POOL_ALLOCATOR,   /* PyTorch's caching allocator: allocated_bytes */
  HR_POOL_MANAGED,     /* CUDA managed memory (paged optimizers): total only */
  HR_POOL_OUTSIDE,     /* CUDA context, NCCL, fragmentation: total only */
  HR_POOL_CACHED,      /* blocks the caching allocator keeps for another CUDA
                        * stream: reserved_bytes and total, not allocated */
} HrPool;

typedef struct
{
  HrCategory  category;
  HrPool      pool;
  HrDtype     dtype;     /* shown after the name, HR_DTYPE_NONE for none */
  guint       live;      /* HR_LIVE bits of the phases it is alive in */
  const char *name;
  const char *formula;
  const char *why;       /* one plain sentence for a non-engineer */
  guint64     bytes;
} HrItem;

/* The most items one device can carry: the richest combination of options
 * (QLoRA, ZeRO-3, dropout, QK-norm, MoE, every framework effect) makes 37,
 * and the parts of weights, gradients, master weights and optimizer states
 * (hr-calc-parts.c: routed and shared experts, encoder, decoder) up to 16
 * more. */
#define HR_MAX_ITEMS 56

typedef struct
{
  char     label[48];
  guint64  ranks;            /* identical GPUs this entry stands for */
  guint64  stage;            /* pipeline stage */
  guint64  first_layer;
  guint64  n_layers;
  guint64  params;           /* parameters held (per rank, before ZeRO) */

  guint    n_items;
  HrItem   items[HR_MAX_ITEMS];

  guint64  phase_bytes[HR_N_PHASES];   /* allocator bytes live per phase */
  HrPhase  peak_phase;
  guint64  category_bytes[HR_N_CATEGORIES];  /* at the peak */
  guint64  allocated_bytes;
  guint64  reserved_bytes;
  guint64  total_bytes;
  gint64   free_bytes;
  HrStatus status;
} HrDevice;

typedef enum
{
  HR_WARNING_OOM,
  HR_WARNING_TIGHT,
  HR_WARNING_PAGED,
  HR_WARNING_HOST_RAM,
  HR_WARNING_UNEVEN_LAYERS,
  HR_N_WARNINGS
} HrWarningCode;

typedef struct
{
  HrWarningCode code;
  guint         device;      /* index into devices, where it applies */
} HrWarning;

#define HR_MAX_WARNINGS 8

typedef struct
{
  guint64   params;
  guint64   active_params;
  guint64   trainable_params;
  guint64   capacity_bytes;
  guint64   wanted_free_bytes;
  guint64   host_bytes_per_node;

  guint     n_devices;
  guint     devices_allocated;
  HrDevice *devices;

  guint     binding_device;    /* the device with the least free memory */
  gboolean  fits;              /* no device over capacity */
  HrStatus  status;            /* the worst device's */

  guint     n_warnings;
  HrWarning warnings[HR_MAX_WARNINGS];
} HrPlan;

HrPlan      *hr_plan_new              (void);
void         hr_plan_free             (HrPlan          *plan);
void         hr_plan_reserve_devices  (HrPlan          *plan,
                                       guint            n_devices);
void         hr_plan_copy_into        (HrPlan          *dest,
                                       const HrPlan    *src);
const HrDevice *hr_plan_binding       (const HrPlan    *plan);

/* Whether ITEM is alive in DEVICE's peak phase (the plan's loops ask it of
 * every item: inline, a call cost as much as the test). */
static inline gboolean
hr_item_is_live_at_peak (const HrDevice *device,
                         const HrItem   *item)
{
  return (item->live & HR_LIVE (device->peak_phase)) != 0;
}

guint64      hr_device_phase_categories (const HrDevice *device,
                                       HrPhase          phase,
                                       guint64          bytes[HR_N_CATEGORIES]);
char        *hr_item_display_name     (const HrItem    *item);
char        *hr_item_label            (const HrItem    *item);
const char  *hr_phase_label           (HrPhase          phase);
char        *hr_plan_warning_message  (const HrPlan    *plan,
                                       const HrScenario *scenario,
                                       guint            index);
const char  *hr_warning_code_name     (HrWarningCode    code);
const char  *hr_phase_name            (HrPhase          phase);
char        *hr_live_span             (guint            live,
                                       gboolean         translated);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrPlan, hr_plan_free)

G_END_DECLS
