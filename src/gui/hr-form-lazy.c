/* hr-form-lazy.c: the form's rows that are not on screen at the first
 * frame, built when first needed
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form's two expanders (the architecture's 53 rows, the data types'
 * five) start collapsed, and their rows were most of the form's widgets:
 * making and measuring them cost the first frame about 40 % of the form's
 * time (tests/bench-map.c).  So they are made when the expander first
 * opens (so are the adapters', hr-form-adapters.c).  What is below the
 * first screen of an 800-point window (Training after the sequence length,
 * Parallelism, Hardware, Overheads, Time and cost)
 * has its group's title at the start and its rows once the first frame
 * is drawn; the model drop-down gets its list of every preset then too
 * (hr-form-dropdowns.c).  Measuring the rows once built cost the first
 * frame most: callgrind, main() to the first frame, 1,099 M instructions
 * before the Training split and the model list, 791 M after (a bare
 * libadwaita window: 456 M).  Either is made
 * at once when a caller asks for one of its rows by path (an error that
 * names the field, a test's lookup), so a row not built yet is found all
 * the same.
 */

#include "config.h"

#include "hr-form-private.h"

typedef struct
{
  HrForm          *form;
  GtkWidget       *parent;   /* the expander or the group the rows go in */
  GPtrArray       *prefixes; /* "model." for the rows of "model", and others */
  HrFormBuildFunc  build;    /* NULL once built */
  gboolean         deferred; /* built after the first frame, not on opening */
} HrFormLazy;

static void
lazy_free (gpointer data)
{
  HrFormLazy *lazy = data;

  g_ptr_array_unref (lazy->prefixes);
  g_free (lazy);
}

static void
lazy_build (HrFormLazy *lazy)
{
  HrFormBuildFunc build = lazy->build;

  if (build == NULL)
    return;
  lazy->build = NULL;   /* before building: a row's binding may ask again */
  build (lazy->form, lazy->parent);
  /* The new rows follow the scenario's rules like the others. */
  hr_form_update_sensitivity (lazy->form);
}

static HrFormLazy *
lazy_add (HrForm          *self,
          GtkWidget       *parent,
          const char      *prefix,
          HrFormBuildFunc  build,
          gboolean         deferred)
{
  HrFormLazy *lazy = g_new0 (HrFormLazy, 1);

  lazy->form = self;
  lazy->parent = parent;
  lazy->prefixes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (lazy->prefixes, g_strconcat (prefix, ".", NULL));
  lazy->build = build;
  lazy->deferred = deferred;
  if (self->lazy == NULL)
    self->lazy = g_ptr_array_new_with_free_func (lazy_free);
  g_ptr_array_add (self->lazy, lazy);
  return lazy;
}

static void
on_lazy_expanded (GtkWidget  *expander,
                  GParamSpec *pspec,
                  HrFormLazy *lazy)
{
  if (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (expander)))
    lazy_build (lazy);
}

/* An expander registered under path whose rows build() makes when it
 * first opens. */
GtkWidget *
hr_form_new_expander (HrForm          *self,
                      GtkWidget       *group,
                      const char      *path,
                      const char      *title,
                      const char      *subtitle,
                      HrFormBuildFunc  build)
{
  GtkWidget *row = adw_expander_row_new ();
  HrFormLazy *lazy;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  g_hash_table_insert (self->rows, g_strdup (path), row);
  lazy = lazy_add (self, row, path, build, FALSE);
  g_signal_connect (row, "notify::expanded", G_CALLBACK (on_lazy_expanded), lazy);
  return row;
}

/* The expander's rows include those of the fields whose paths start with
 * prefix ("training.quant": the expander of "training.lora" holds
 * QLoRA's base too). */
void
hr_form_expander_holds (HrForm     *self,
                        GtkWidget  *expander,
                        const char *prefix)
{
  for (guint i = 0; self->lazy != NULL && i < self->lazy->len; i++)
    {
      HrFormLazy *lazy = g_ptr_array_index (self->lazy, i);

      if (lazy->parent == expander)
        g_ptr_array_add (lazy->prefixes, g_strdup (prefix));
    }
}

static gboolean
lazy_holds (HrFormLazy *lazy,
            const char *path)
{
  for (guint i = 0; i < lazy->prefixes->len; i++)
    if (g_str_has_prefix (path, g_ptr_array_index (lazy->prefixes, i)))
      return TRUE;
  return FALSE;
}

/* Whether an expander not opened yet will make path's row: a group's
 * rest of rows (hr_form_rest_rows) leaves it to the expander. */
gboolean
hr_form_expander_will_hold (HrForm     *self,
                            const char *path)
{
  for (guint i = 0; self->lazy != NULL && i < self->lazy->len; i++)
    {
      HrFormLazy *lazy = g_ptr_array_index (self->lazy, i);

      if (lazy->build != NULL && !lazy->deferred && lazy_holds (lazy, path))
        return TRUE;
    }
  return FALSE;
}

/* Rows of the fields under prefix ("parallel") that build() adds to group
 * once the first frame is drawn. */
void
hr_form_defer_rows (HrForm          *self,
                    GtkWidget       *group,
                    const char      *prefix,
                    HrFormBuildFunc  build)
{
  lazy_add (self, group, prefix, build, TRUE);
}

/* Builds the rows not built yet that would hold path: every lookup by
 * path goes through here. */
void
hr_form_ensure_rows (HrForm     *self,
                     const char *path)
{
  /* Whoever looks the model drop-down up may read its list. */
  if (g_strcmp0 (path, "model.preset") == 0)
    hr_form_fill_model_presets (self);
  if (self->lazy == NULL || path == NULL
      || g_hash_table_contains (self->rows, path) || g_hash_table_contains (self->controls, path))
    return;
  for (guint i = 0; i < self->lazy->len; i++)
    {
      HrFormLazy *lazy = g_ptr_array_index (self->lazy, i);

      if (lazy->build != NULL && lazy_holds (lazy, path))
        lazy_build (lazy);
    }
}

/* Builds every row not built yet (for a caller that visits them all). */
void
hr_form_ensure_all_rows (HrForm *self)
{
  hr_form_fill_model_presets (self);
  for (guint i = 0; self->lazy != NULL && i < self->lazy->len; i++)
    lazy_build (g_ptr_array_index (self->lazy, i));
}

/* --- the deferred rows, once the first frame is drawn ---------------------- */

static gboolean
build_deferred (gpointer user_data)
{
  HrForm *self = user_data;

  self->deferred_idle = 0;
  for (guint i = 0; self->lazy != NULL && i < self->lazy->len; i++)
    {
      HrFormLazy *lazy = g_ptr_array_index (self->lazy, i);

      if (lazy->deferred)
        lazy_build (lazy);
    }
  hr_form_fill_model_presets (self);
  return G_SOURCE_REMOVE;
}

/* Not in the paint itself: the rows queue a new layout, for the next
 * frame. */
static void
queue_build_deferred (gpointer data)
{
  HrForm *self = data;

  if (self->deferred_idle == 0)
    self->deferred_idle = g_idle_add (build_deferred, self);
}

static void
on_map (GtkWidget *widget,
        HrForm    *self)
{
  g_signal_handlers_disconnect_by_func (widget, on_map, self);
  hr_after_paint_queue (&self->deferred_paint, widget, queue_build_deferred, self);
}

/* Arranges for the deferred rows to be built after the form's first
 * frame (hr_form_new calls it once). */
void
hr_form_build_deferred_when_drawn (HrForm *self)
{
  g_signal_connect (self, "map", G_CALLBACK (on_map), self);
}

/* Stops what is pending (the form's dispose calls it). */
void
hr_form_lazy_dispose (HrForm *self)
{
  g_clear_handle_id (&self->deferred_idle, g_source_remove);
  hr_after_paint_cancel (&self->deferred_paint);
}
