/* hr-form.c: the planning form, bound to the scenario model
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Groups as a user thinks: the scenario's name, Model, Training,
 * Parallelism, Hardware, Overheads, Time and cost.  Every control is bound to one property of the scenario model
 * with g_object_bind_property (bidirectional, synced at creation); rows are
 * registered by their scenario path, so a validation error about
 * "parallel.tp" is shown on the row it names (in the form's words:
 * hr-field-text.c), and fields that do not apply are made insensitive
 * rather than hidden.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-choice-row.h"
#include "hr-field-text.h"
#include "hr-form-private.h"
#include "hr-scenario-fields.h"
#include "hr-scenario-io.h"
#include "hr-solver.h"
#include "hr-text-row.h"


G_DEFINE_FINAL_TYPE (HrForm, hr_form, GTK_TYPE_WIDGET)

/* The width the form asks for beside the plan; it takes less, down to
 * what its rows need, when the window is narrow (a phone's 360 points). */
#define NATURAL_WIDTH 375

/* --- building -------------------------------------------------------------- */

/* --- solvers beside micro-batch, sequence length and GPUs ------------------ */

static void
on_solve_clicked (GtkButton *button,
                  HrForm    *self)
{
  HrSolve solve = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "solve"));
  const char *path = g_object_get_data (G_OBJECT (button), "path");
  g_autoptr(HrPlan) work = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  guint64 value = 0;

  if (!hr_solve (hr_scenario_model_get_scenario (self->model), solve, work, &value, &error))
    {
      g_autofree char *message = hr_field_text_for_error (error);

      hr_form_show_error (self, path, message);
      return;
    }
  if (value == 0)
    {
      hr_form_show_error (self, path, _("No value leaves the wanted free memory"));
      return;
    }
  g_object_set (self->model, hr_scenario_model_property_for_path (path), value, NULL);
}

/* A button before the spin button of path: "the largest that fits". */
static void
add_solver_button (HrForm     *self,
                   const char *path,
                   HrSolve     solve,
                   const char *label,
                   const char *tooltip)
{
  GtkWidget *row = g_hash_table_lookup (self->rows, path);
  GtkWidget *button = gtk_button_new_with_label (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "solve", GUINT_TO_POINTER (solve));
  g_object_set_data_full (G_OBJECT (button), "path", g_strdup (path), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_solve_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  /* Keep the spin button last. */
  gtk_box_reorder_child_after (GTK_BOX (gtk_widget_get_parent (button)), button, NULL);
  {
    GtkWidget *spin = g_hash_table_lookup (self->controls, path);

    gtk_box_reorder_child_after (GTK_BOX (gtk_widget_get_parent (spin)), button,
                                 gtk_widget_get_prev_sibling (spin));
  }
  g_hash_table_insert (self->controls, g_strconcat (path, ".solve", NULL), button);
}

/* The scenario's name: the window fills it from the plan until the user
 * writes one. */
static void
build_name (HrForm    *self,
            GtkWidget *page)
{
  GtkWidget *group = hr_form_new_group (page, _("Scenario"), NULL);
  GtkWidget *row = hr_text_row_new (self->model, "name", _("Name"));

  hr_form_place_row (self, group, "name", row, row);
}

/* Every field of the architecture, in the table's order (built when
 * the expander first opens: hr-form-rows.c). */
static void
build_architecture (HrForm    *self,
                    GtkWidget *arch)
{
  for (guint i = 0; i < hr_model_fields_count; i++)
    {
      g_autofree char *path = g_strconcat ("model.", hr_model_fields[i].key, NULL);

      hr_form_field_row (self, arch, path);
    }
}

static void
build_model (HrForm    *self,
             GtkWidget *page)
{
  GtkWidget *group;

  group = hr_form_new_group (page, _("Model"), NULL);
  self->model_preset = hr_form_preset_dropdown (self, group, HR_PRESET_MODEL, "model.preset",
                                        _("Model"), _("Custom model"), &self->model_ids);
  hr_form_new_expander (self, group, "model", _("Architecture"),
                        _("Editing a field makes the model custom"), build_architecture);
}

/* The recipe's single overrides (built when the expander first opens). */
static void
build_dtypes (HrForm    *self,
              GtkWidget *dt)
{
  hr_form_field_row (self, dt, "training.dtypes.weights");
  hr_form_field_row (self, dt, "training.dtypes.grads");
  hr_form_field_row (self, dt, "training.dtypes.master");
  hr_form_field_row (self, dt, "training.dtypes.optimizer");
  hr_form_field_row (self, dt, "training.dtypes.activations");
}

static void build_training_end (HrForm *self, GtkWidget *group);

static void
build_training (HrForm    *self,
                GtkWidget *page)
{
  GtkWidget *group = hr_form_new_group (page, _("Training"), NULL);

  hr_form_add_framework_row (self, group);
  hr_form_field_row (self, group, "training.method");
  hr_form_add_adapters (self, group);
  hr_form_field_row (self, group, "training.precision");
  hr_form_field_row (self, group, "training.optimizer");
  hr_form_field_row (self, group, "training.micro_batch");
  hr_form_field_row (self, group, "training.seq_len");
  add_solver_button (self, "training.micro_batch", HR_SOLVE_MAX_MICRO_BATCH, _("Max"),
                     _("The largest micro-batch that leaves the wanted free memory"));
  add_solver_button (self, "training.seq_len", HR_SOLVE_MAX_SEQ_LEN, _("Max"),
                     _("The longest sequence that leaves the wanted free memory"));
  /* The rest is below the first screen of a window of 800 points or
   * less: built once the first frame is drawn (hr-form-lazy.c).  The
   * knobs every plan turns come first, the recipe's details after. */
  hr_form_defer_rows (self, group, "training", build_training_end);
}

/* Training's rows after the sequence length, once the first frame is
 * drawn. */
static void
build_training_end (HrForm    *self,
                    GtkWidget *group)
{
  hr_form_field_row (self, group, "training.grad_accum");
  hr_form_field_row (self, group, "training.checkpointing");
  hr_form_field_row (self, group, "training.checkpoint_every");
  hr_form_field_row (self, group, "training.fp8_recipe");
  hr_form_field_row (self, group, "training.fp8_all_gather");
  hr_form_new_expander (self, group, "training.dtypes", _("Data types"),
                        _("Override single parts of the recipe"), build_dtypes);
  hr_form_field_row (self, group, "training.optimizer_impl");
  hr_form_field_row (self, group, "training.galore_rank");
  hr_form_field_row (self, group, "training.attention");
  hr_form_field_row (self, group, "training.loss");
  hr_form_field_row (self, group, "training.loss_chunk_tokens");
  hr_form_field_row (self, group, "training.loss_chunks");
  hr_form_field_row (self, group, "training.logits_fp32");
  hr_form_field_row (self, group, "training.logits_fp32_in_model");
  hr_form_field_row (self, group, "training.compile");
  hr_form_field_row (self, group, "training.compile_loss");
  hr_form_field_row (self, group, "training.optimizer_in_backward");
  hr_form_field_row (self, group, "training.activation_offloading");
  hr_form_field_row (self, group, "training.zero_grad_to_none");
  hr_form_rest_rows (self, group, "training");
}

static void
build_parallel_rows (HrForm    *self,
                     GtkWidget *group)
{
  static const char *zero[] = { N_("0 — none (DDP, FSDP NO_SHARD)"), N_("1 — optimizer states"),
                                N_("2 — and gradients (SHARD_GRAD_OP)"),
                                N_("3 — and parameters (FSDP FULL_SHARD)"), NULL };
  const char *zero_t[5];
  GtkWidget *row;

  for (guint i = 0; i < 5; i++)
    zero_t[i] = zero[i] ? _(zero[i]) : NULL;

  hr_form_field_row (self, group, "parallel.gpus");
  add_solver_button (self, "parallel.gpus", HR_SOLVE_MIN_GPUS, _("Min"),
                     _("The fewest GPUs that leave the wanted free memory"));
  hr_form_field_row (self, group, "parallel.gpus_per_node");
  row = hr_choice_row_new (self->model, "parallel.zero", _("ZeRO stage / FSDP"), NULL, zero_t);
  hr_form_place_row (self, group, "parallel.zero", row, row);
  hr_form_field_row (self, group, "parallel.shard_group");
  hr_form_field_row (self, group, "parallel.fsdp");
  hr_form_field_row (self, group, "parallel.tp");
  hr_form_field_row (self, group, "parallel.sp");
  hr_form_field_row (self, group, "parallel.pp");
  hr_form_field_row (self, group, "parallel.vpp");
  hr_form_field_row (self, group, "parallel.schedule");
  hr_form_field_row (self, group, "parallel.pp_buffers");
  hr_form_field_row (self, group, "parallel.cp");
  hr_form_field_row (self, group, "parallel.ep");
  hr_form_field_row (self, group, "parallel.offload_optimizer");
  hr_form_field_row (self, group, "parallel.offload_params");
  hr_form_field_row (self, group, "parallel.offload_optimizer_device");
  hr_form_field_row (self, group, "parallel.offload_params_device");
  hr_form_field_row (self, group, "parallel.no_sync");
  hr_form_rest_rows (self, group, "parallel");
}

/* Below the first screen: the group's title now, its rows once the first
 * frame is drawn (hr-form-lazy.c). */
static void
build_parallel (HrForm    *self,
                GtkWidget *page)
{
  hr_form_defer_rows (self, hr_form_new_group (page, _("Parallelism"), NULL), "parallel",
                      build_parallel_rows);
}

static void
build_hardware_rows (HrForm    *self,
                     GtkWidget *group)
{
  self->gpu_preset = hr_form_preset_dropdown (self, group, HR_PRESET_GPU, "gpu.preset", _("GPU"),
                                      _("Custom GPU"), &self->gpu_ids);
  hr_form_sync_presets (self);
  hr_form_field_row (self, group, "gpu.memory_mib");
  hr_form_field_row (self, group, "gpu.bf16_tflops");
  hr_form_field_row (self, group, "gpu.fp8_tflops");
  hr_form_field_row (self, group, "gpu.compute_capability");
  hr_form_automatic_row (self, group, "gpu.blas_workspace_mib");
  hr_form_rest_rows (self, group, "gpu");
}

/* Below the first screen, with its list of every GPU preset: the group's
 * title now, its rows once the first frame is drawn (hr-form-lazy.c). */
static void
build_hardware (HrForm    *self,
                GtkWidget *page)
{
  hr_form_defer_rows (self, hr_form_new_group (page, _("Hardware"), NULL), "gpu",
                      build_hardware_rows);
}

static void
build_cost_rows (HrForm    *self,
                 GtkWidget *group)
{
  hr_form_field_row (self, group, "cost.tokens");
  hr_form_field_row (self, group, "cost.mfu");
  hr_form_field_row (self, group, "cost.price_per_gpu_hour");
  hr_form_rest_rows (self, group, "cost");
}

static void
build_cost (HrForm    *self,
            GtkWidget *page)
{
  GtkWidget *group = hr_form_new_group (page, _("Time and cost"),
                                _("6·N FLOPs per token, 8·N with full checkpointing"));

  hr_form_defer_rows (self, group, "cost", build_cost_rows);
}

static void
build_overhead_rows (HrForm    *self,
                     GtkWidget *group)
{
  hr_form_field_row (self, group, "overhead.cuda_context_mib");
  hr_form_automatic_row (self, group, "overhead.comm_buffer_mib");
  hr_form_field_row (self, group, "overhead.fragmentation");
  hr_form_field_row (self, group, "overhead.headroom");
  hr_form_rest_rows (self, group, "overhead");
}

static void
build_overheads (HrForm    *self,
                 GtkWidget *page)
{
  GtkWidget *group = hr_form_new_group (page, _("Overheads"), _("Memory outside PyTorch's tensors"));

  hr_form_defer_rows (self, group, "overhead", build_overhead_rows);
}

/* --- sensitivity and errors ------------------------------------------------ */

static void
set_row_sensitive (HrForm     *self,
                   const char *path,
                   gboolean    sensitive)
{
  GtkWidget *row = g_hash_table_lookup (self->rows, path);

  if (row != NULL)
    gtk_widget_set_sensitive (row, sensitive);
}

void
hr_form_update_sensitivity (HrForm *self)
{
  const HrScenario *sc = hr_scenario_model_get_scenario (self->model);

  g_return_if_fail (HR_IS_FORM (self));

  /* Each field's own rule, from the field table; the adapters' expander
   * and its rows of target toggles, theirs (hr-form-adapters.c). */
  for (guint t = 0; t < hr_field_sections_count; t++)
    for (guint f = 0; f < *hr_field_sections[t].n_fields; f++)
      {
        const Field *field = &hr_field_sections[t].fields[f];
        g_autofree char *path = NULL;

        if (field->applies == NULL)
          continue;
        path = g_strconcat (hr_field_sections[t].path, ".", field->key, NULL);
        set_row_sensitive (self, path, field->applies (sc));
      }
  hr_form_sync_adapters (self);
}

/* Opens the collapsed expanders row is in (the architecture's), and row
 * itself if it is an expander. */
static void
open_to_row (GtkWidget *row)
{
  for (GtkWidget *w = row; w != NULL; w = gtk_widget_get_parent (w))
    if (ADW_IS_EXPANDER_ROW (w))
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (w), TRUE);
}

/* Shows message on the row its path names (the closest registered parent
 * path), as the row's subtitle in the error style; NULL clears. */
void
hr_form_show_error (HrForm     *self,
                    const char *path,
                    const char *message)
{
  g_autofree char *key = NULL;
  GtkWidget *row;

  g_return_if_fail (HR_IS_FORM (self));

  if (self->error_path != NULL)
    {
      row = g_hash_table_lookup (self->rows, self->error_path);
      if (row != NULL)
        {
          gtk_widget_remove_css_class (row, "error");
          if (ADW_IS_ACTION_ROW (row))
            adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                         g_hash_table_lookup (self->subtitles, self->error_path));
        }
      g_clear_pointer (&self->error_path, g_free);
    }
  if (path == NULL || message == NULL)
    return;

  /* "training.lora.targets[2]" and "model" find their nearest row. */
  key = g_strdup (path);
  g_strdelimit (key, "[", '\0');
  hr_form_ensure_rows (self, key);   /* a row not built yet is made now */
  while (!g_hash_table_contains (self->rows, key))
    {
      char *dot = strrchr (key, '.');

      if (dot == NULL)
        return;
      *dot = '\0';
    }
  row = g_hash_table_lookup (self->rows, key);
  gtk_widget_add_css_class (row, "error");
  open_to_row (row);
  if (ADW_IS_ACTION_ROW (row))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), message);
  self->error_path = g_steal_pointer (&key);
}

/* Scrolls the form so that row is in the middle of what shows (as near
 * as the form's ends allow).  libadwaita 1.2's page does not scroll to
 * the focus by itself. */
static void
scroll_to_row (GtkWidget *row)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *v;
  graphene_point_t at;

  if (scroller == NULL
      || !gtk_widget_compute_point (row, scroller, &GRAPHENE_POINT_INIT (0, 0), &at))
    return;
  v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  gtk_adjustment_set_value (v, gtk_adjustment_get_value (v) + at.y
                               - (gtk_widget_get_height (scroller) - gtk_widget_get_height (row)) / 2.0);
}

static void
focus_marked_row (gpointer data)
{
  HrForm *self = data;
  GtkWidget *control, *row;

  row = self->error_path != NULL ? g_hash_table_lookup (self->rows, self->error_path) : NULL;
  if (row == NULL)
    return;
  /* An expander opened on a busy frame may show its rows a frame later:
   * a few frames are waited for, not more (a row that never shows). */
  if (!gtk_widget_get_mapped (row))
    {
      if (++self->focus_frames < 10)
        hr_after_paint_queue (&self->focus_paint, GTK_WIDGET (self), focus_marked_row, self);
      return;
    }
  /* The focus first (a spin button passes it to its entry), then the
   * scrolling: placing the focus starts the viewport's own. */
  control = g_hash_table_lookup (self->controls, self->error_path);
  if (control == NULL || !gtk_widget_grab_focus (control))
    gtk_widget_grab_focus (row);
  scroll_to_row (row);
}

/* Shows the row hr_form_show_error marked and puts the keyboard focus on
 * it (its control, or the row itself), once the frame that opens its
 * expanders has laid it out; FALSE when no row is marked. */
gboolean
hr_form_focus_error (HrForm *self)
{
  GtkWidget *row;

  g_return_val_if_fail (HR_IS_FORM (self), FALSE);
  if (self->error_path == NULL)
    return FALSE;
  row = g_hash_table_lookup (self->rows, self->error_path);
  if (row == NULL)
    return FALSE;
  open_to_row (row);
  self->focus_frames = 0;
  hr_after_paint_queue (&self->focus_paint, GTK_WIDGET (self), focus_marked_row, self);
  return TRUE;
}

/* Whether a row is marked with an error. */
gboolean
hr_form_has_error (HrForm *self)
{
  g_return_val_if_fail (HR_IS_FORM (self), FALSE);
  return self->error_path != NULL;
}

GtkWidget *
hr_form_get_control (HrForm     *self,
                     const char *path)
{
  g_return_val_if_fail (HR_IS_FORM (self), NULL);
  hr_form_ensure_rows (self, path);
  return g_hash_table_lookup (self->controls, path);
}

GtkWidget *
hr_form_get_row (HrForm     *self,
                 const char *path)
{
  g_return_val_if_fail (HR_IS_FORM (self), NULL);
  hr_form_ensure_rows (self, path);
  return g_hash_table_lookup (self->rows, path);
}

/* The paths of every bound control, sorted (for tests that visit them all). */
GPtrArray *
hr_form_list_controls (HrForm *self)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (HR_IS_FORM (self), paths);
  hr_form_ensure_all_rows (self);
  g_hash_table_iter_init (&iter, self->controls);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (paths, g_strdup (key));
  g_ptr_array_sort (paths, (GCompareFunc) g_strcmp0);
  return paths;
}

static void
on_model_notify (HrForm     *self,
                 GParamSpec *pspec)
{
  if (g_str_equal (pspec->name, "model-preset") || g_str_equal (pspec->name, "gpu-preset"))
    hr_form_sync_presets (self);
  /* Once per main-loop turn however many fields changed. */
  if (self->framework_idle == 0)
    self->framework_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, hr_form_sync_framework, self, NULL);
}

static void
hr_form_dispose (GObject *object)
{
  HrForm *self = HR_FORM (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  g_clear_handle_id (&self->framework_idle, g_source_remove);
  hr_form_lazy_dispose (self);
  hr_after_paint_cancel (&self->focus_paint);
  g_clear_pointer (&self->page, gtk_widget_unparent);
  G_OBJECT_CLASS (hr_form_parent_class)->dispose (object);
}

static void
hr_form_finalize (GObject *object)
{
  HrForm *self = HR_FORM (object);

  g_hash_table_unref (self->rows);
  g_hash_table_unref (self->controls);
  g_hash_table_unref (self->subtitles);
  g_clear_pointer (&self->lazy, g_ptr_array_unref);
  g_clear_pointer (&self->model_ids, g_ptr_array_unref);
  g_clear_pointer (&self->gpu_ids, g_ptr_array_unref);
  g_free (self->error_path);
  G_OBJECT_CLASS (hr_form_parent_class)->finalize (object);
}

/* --- the wheel scrolls the form, not the spin button under the pointer -- */

static void
on_pointer_motion (GtkEventControllerMotion *motion,
                   double                    x,
                   double                    y,
                   HrForm                   *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

/* Seen before any widget of the form (the capture phase): a wheel turned
 * over a spin button scrolls the form past it, unless the spin button has
 * the focus (a click in it, or Tab), as GNOME Settings does; a value is
 * never changed by scrolling through the form. */
static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           HrForm                   *self)
{
  GtkWidget *target = gtk_widget_pick (GTK_WIDGET (self), self->pointer_x, self->pointer_y,
                                       GTK_PICK_DEFAULT);
  GtkWidget *spin, *focus, *scroller;
  GtkAdjustment *adj;
  double step;

  if (target == NULL)
    return FALSE;
  spin = GTK_IS_SPIN_BUTTON (target) ? target : gtk_widget_get_ancestor (target,
                                                                        GTK_TYPE_SPIN_BUTTON);
  if (spin == NULL)
    return FALSE;
  focus = gtk_root_get_focus (gtk_widget_get_root (spin));
  if (focus != NULL && (focus == spin || gtk_widget_is_ancestor (focus, spin)))
    return FALSE;   /* it was clicked or tabbed into: the wheel is its own */

  scroller = gtk_widget_get_ancestor (spin, GTK_TYPE_SCROLLED_WINDOW);
  if (scroller == NULL)
    return TRUE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  /* As far as GtkScrolledWindow goes for a wheel's notch, or the pixels
   * of a touchpad's smooth scroll. */
  step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
         ? pow (gtk_adjustment_get_page_size (adj), 2.0 / 3.0) : 1.0;
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + dy * step);
  return TRUE;
}

static void
hr_form_measure (GtkWidget      *widget,
                 GtkOrientation  orientation,
                 int             for_size,
                 int            *minimum,
                 int            *natural,
                 int            *minimum_baseline,
                 int            *natural_baseline)
{
  HrForm *self = HR_FORM (widget);

  gtk_widget_measure (self->page, orientation, for_size, minimum, natural, minimum_baseline,
                      natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *natural = MAX (*natural, MAX (*minimum, NATURAL_WIDTH));
}

static void
hr_form_size_allocate (GtkWidget *widget,
                       int        width,
                       int        height,
                       int        baseline)
{
  gtk_widget_allocate (HR_FORM (widget)->page, width, height, baseline, NULL);
}

static void
hr_form_class_init (HrFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_form_dispose;
  widget_class->measure = hr_form_measure;
  widget_class->size_allocate = hr_form_size_allocate;
  object_class->finalize = hr_form_finalize;
}

static void
hr_form_init (HrForm *self)
{
  GtkEventController *scroll, *motion;

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (scroll, "hr-form-wheel");
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  motion = gtk_event_controller_motion_new ();
  gtk_event_controller_set_propagation_phase (motion, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (motion, "hr-form-pointer");
  g_signal_connect (motion, "enter", G_CALLBACK (on_pointer_motion), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_pointer_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->controls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->subtitles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

GtkWidget *
hr_form_new (HrScenarioModel *model,
             HrPresets       *presets)
{
  HrForm *self = g_object_new (HR_TYPE_FORM, NULL);
  GtkWidget *page = adw_preferences_page_new ();

  self->page = page;
  gtk_widget_set_parent (page, GTK_WIDGET (self));
  self->model = g_object_ref (model);
  self->presets = presets;
  build_name (self, page);
  build_model (self, page);
  build_training (self, page);
  build_parallel (self, page);
  build_hardware (self, page);
  build_overheads (self, page);
  build_cost (self, page);

  hr_form_sync_presets (self);
  g_signal_connect_swapped (model, "notify", G_CALLBACK (on_model_notify), self);
  hr_form_update_sensitivity (self);
  hr_form_build_deferred_when_drawn (self);
  return GTK_WIDGET (self);
}
