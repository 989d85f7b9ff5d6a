/* hr-form-private.h: what the form's files share
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-after-paint.h"
#include "hr-form.h"

G_BEGIN_DECLS

struct _HrForm
{
  GtkWidget        parent_instance;

  GtkWidget       *page;        /* the AdwPreferencesPage: it scrolls */
  HrScenarioModel *model;
  HrPresets       *presets;
  GHashTable      *rows;        /* path -> AdwPreferencesRow */
  GHashTable      *controls;    /* path -> the bound widget */
  GHashTable      *subtitles;   /* path -> the row's own subtitle */
  char            *error_path;
  GPtrArray       *lazy;        /* rows built when needed (hr-form-lazy.c) */
  HrAfterPaint     deferred_paint;  /* until the first frame is drawn */
  guint            deferred_idle;   /* then, building the deferred rows */

  GtkDropDown     *model_preset;
  GPtrArray       *model_ids;   /* index in the drop-down -> id; [0] = custom */
  gboolean         model_list_partial;  /* only the scenario's preset, until drawn */
  GtkDropDown     *gpu_preset;
  GPtrArray       *gpu_ids;
  gboolean         syncing;     /* a preset drop-down is following the model */
  GtkDropDown     *framework;   /* [0] = custom, then hr_framework_get (i - 1) */
  guint            framework_idle;  /* a pending check of which framework matches */
  double           pointer_x;       /* where the pointer is, for the wheel */
  double           pointer_y;
  GtkWidget       *adapters;        /* the adapters' expander (hr-form-adapters.c) */
  HrMethod         adapters_method; /* the method it last followed */
  HrAfterPaint     focus_paint;     /* Show Field, once its row is laid out */
  guint            focus_frames;    /* frames waited for it */
};

/* Builds the rows of a collapsed expander or of a group below the first
 * screen: they are made when first needed (hr-form-lazy.c). */
typedef void (*HrFormBuildFunc) (HrForm *self, GtkWidget *parent);

/* Rows bound to one property of the scenario model each (hr-form-rows.c);
 * path is the field's path in the scenario file. */
void       hr_form_register_row   (HrForm *self, const char *path, GtkWidget *row, GtkWidget *control);
void       hr_form_add_row         (GtkWidget *parent, GtkWidget *row);
void       hr_form_place_row       (HrForm *self, GtkWidget *parent, const char *path, GtkWidget *row,
                                    GtkWidget *control);
GtkWidget *hr_form_action_row     (const char *title, const char *subtitle);
GtkWidget *hr_form_field_row      (HrForm *self, GtkWidget *parent, const char *path);
void        hr_form_rest_rows      (HrForm *self, GtkWidget *group, const char *section);
/* A field's row whose -1 means "work it out" (the communication buffers,
 * the BLAS workspace): its spin shows and takes "Automatic" (HrSpinRow). */
void        hr_form_automatic_row  (HrForm *self, GtkWidget *parent, const char *path);
GtkWidget *hr_form_new_group      (GtkWidget *page, const char *title, const char *description);
void       hr_form_wrap_drop_down (GtkDropDown *dropdown);
/* The list of a drop-down whose items may start a section: an item with
 * the data HR_FORM_SECTION (a string) shows it as a heading above it. */
#define HR_FORM_SECTION "hr-form-section"
GtkListItemFactory *hr_form_section_factory (void);
GtkWidget *hr_form_new_expander   (HrForm *self, GtkWidget *group, const char *path, const char *title,
                           const char *subtitle, HrFormBuildFunc build);
void       hr_form_expander_holds (HrForm *self, GtkWidget *expander, const char *prefix);
void       hr_form_defer_rows     (HrForm *self, GtkWidget *group, const char *prefix,
                           HrFormBuildFunc build);
gboolean   hr_form_expander_will_hold (HrForm *self, const char *path);
void       hr_form_ensure_rows    (HrForm *self, const char *path);
void       hr_form_ensure_all_rows (HrForm *self);
void       hr_form_build_deferred_when_drawn (HrForm *self);
void       hr_form_lazy_dispose   (HrForm *self);

/* hr-form-dropdowns.c: the Model and GPU preset drop-downs and the
 * Framework one, each applying what is chosen, and what they show
 * following the scenario. */
GtkDropDown *hr_form_preset_dropdown   (HrForm       *self,
                                        GtkWidget    *group,
                                        HrPresetKind  kind,
                                        const char   *path,
                                        const char   *title,
                                        const char   *custom,
                                        GPtrArray   **out_ids);
void         hr_form_sync_presets      (HrForm       *self);
void         hr_form_fill_model_presets (HrForm      *self);
void         hr_form_add_framework_row (HrForm       *self,
                                        GtkWidget    *group);
gboolean     hr_form_sync_framework    (gpointer      user_data);

/* hr-form-adapters.c: LoRA's, DoRA's and QLoRA's rows in one expander
 * under the method, made when it first opens. */
void         hr_form_add_adapters      (HrForm       *self,
                                        GtkWidget    *group);
void         hr_form_sync_adapters     (HrForm       *self);

G_END_DECLS
