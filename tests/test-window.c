/* test-window.c: the real window, driven as a user would, under Xvfb
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test opens a window, changes its widgets, spins the main loop and
 * checks the model, the plan and the pixels the chart draws.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hr-calc.h"
#include "hr-scenario-fields.h"
#include "hr-error.h"
#include "hr-export.h"
#include "hr-locale.h"
#include "hr-present.h"
#include "hr-scenario-io.h"
#include "hr-scenario-name.h"
#include "hr-suggestions.h"
#include "hr-timeline-view.h"
#include "hr-form-private.h"
#include "hr-frameworks.h"
#include "hr-model-group.h"
#include "hr-verdict.h"
#include "hr-window.h"

/* Whether what a test waits for has come. */
typedef gboolean (*Condition) (GtkWidget *widget);

/* Runs the main loop until done (widget) holds, for at most ms
 * milliseconds (without done, for ms); whether it holds.  (Waiting for
 * "nothing pending" never ends while GTK's frame clock ticks.) */
static gboolean
run_until (Condition  done,
           GtkWidget *widget,
           guint      ms)
{
  gint64 end = g_get_monotonic_time () + ms * (gint64) 1000;

  while ((done == NULL || !done (widget)) && g_get_monotonic_time () < end)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
  return done == NULL || done (widget);
}

/* Runs the main loop for ms milliseconds. */
static void
run_for (guint ms)
{
  run_until (NULL, NULL, ms);
}

/* Runs the main loop for a while: the recompute scheduled for the next
 * turn, then the frames that draw it. */
static void
settle (void)
{
  run_for (250);
}

/* The waits below give up after five seconds: an expander that opens
 * maps its rows a frame or more later, and a frame under the sanitizers
 * on a loaded machine can take a second, more than settle()'s 250 ms. */
#define WAIT_MS 5000

static gboolean
focus_is_in (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static gboolean
is_hidden (GtkWidget *widget)
{
  return !gtk_widget_get_visible (widget);
}

/* Whether widget lies inside what its scrolled window shows. */
static gboolean
in_sight (GtkWidget *widget)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_point_t at;

  return scroller != NULL
         && gtk_widget_compute_point (widget, scroller, &GRAPHENE_POINT_INIT (0, 0), &at)
         && at.y >= 0 && at.y + gtk_widget_get_height (widget) <= gtk_widget_get_height (scroller);
}

/* Runs the main loop until widget is mapped; whether it is. */
static gboolean
settle_until_mapped (GtkWidget *widget)
{
  return run_until (gtk_widget_get_mapped, widget, WAIT_MS);
}

/* ... until the focus is in widget. */
static gboolean
wait_for_focus_in (GtkWidget *widget)
{
  return run_until (focus_is_in, widget, WAIT_MS);
}

/* ... until widget is shown (or hidden). */
static gboolean
wait_for_visible (GtkWidget *widget,
                  gboolean   visible)
{
  return run_until (visible ? gtk_widget_get_visible : is_hidden, widget, WAIT_MS);
}

static HrWindow *
open_window (void)
{
  HrWindow *window = hr_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  return window;
}

static void
close_window (HrWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* What WIDGET drew in its last frame, as a render node.  A widget between
 * a resize and its next frame has drawn nothing yet (the paintable's
 * snapshot is empty, and rendering it fails GSK's assertion): wait for the
 * frame, up to two seconds, rather than render nothing.  Under load, as on
 * a 2-core CI machine, that moment is reached now and then. */
static GskRenderNode *
drawn_node (GtkWidget *widget,
            int        width,
            int        height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GskRenderNode *node = NULL;

  for (guint tries = 0; node == NULL && tries < 8; tries++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        {
          gtk_widget_queue_draw (widget);
          settle ();
        }
    }
  g_assert_nonnull (node);
  return node;
}

/* A widget as rendered: its pixels, B G R A premultiplied, WIDTH x HEIGHT
 * with a stride of WIDTH * 4. */
static guchar *
render_widget (GtkWidget *widget,
               int       *width,
               int       *height)
{
  GskRenderNode *node;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  GdkTexture *texture;
  guchar *pixels;

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  g_assert_cmpint (*width, >, 100);
  node = drawn_node (widget, *width, *height);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  pixels = g_malloc ((gsize) *width * 4 * *height);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  g_object_unref (texture);
  gsk_render_node_unref (node);
  return pixels;
}

/* Whether a rendered pixel is opaque and near an RGB colour. */
static gboolean
pixel_is (const guchar *p,
          double        r,
          double        g,
          double        b)
{
  return p[3] > 200 && fabs (p[2] / 255.0 - r) < 0.06 && fabs (p[1] / 255.0 - g) < 0.06
         && fabs (p[0] / 255.0 - b) < 0.06;
}

static guint
count_widget_pixels (GtkWidget *widget,
                     double     r,
                     double     g,
                     double     b)
{
  int width, height;
  guchar *pixels = render_widget (widget, &width, &height);
  guint count = 0;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      count += pixel_is (pixels + ((gsize) y * width + x) * 4, r, g, b);
  g_free (pixels);
  return count;
}

/* Pixels of the chart as rendered, counted near an RGB colour. */
static guint
count_pixels (HrWindow *window,
              double    r,
              double    g,
              double    b)
{
  return count_widget_pixels (GTK_WIDGET (hr_window_get_chart (window)), r, g, b);
}

/* Saves the window as DIR/NAME.png, as it is drawn now. */
static char *
save_screenshot (gpointer    window,
                 const char *dir,
                 const char *name)
{
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  char *path;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  node = drawn_node (widget, width, height);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  path = g_strdup_printf ("%s/%s.png", dir, name);
  gdk_texture_save_to_png (texture, path);
  return path;
}

/* With HEADROOM_TEST_SCREENSHOTS=DIR, saves the window as DIR/NAME.png
 * (the moments other tests check; the README's come from /window/walk). */
static void
maybe_screenshot (gpointer    window,
                  const char *name)
{
  const char *dir = g_getenv ("HEADROOM_TEST_SCREENSHOTS");

  if (dir != NULL)
    g_free (save_screenshot (window, dir, name));
}

static GtkWidget *
control (HrWindow   *window,
         const char *path)
{
  GtkWidget *w = hr_form_get_control (hr_window_get_form (window), path);

  g_assert_nonnull (w);
  return w;
}

/* A window whose content is width x height: the default size counts the
 * client-side shadow too, which a maximized window (a phone's) has not. */
static HrWindow *
open_window_sized (int width,
                   int height)
{
  HrWindow *window = hr_window_new (NULL);
  int shadow_w, shadow_h;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  shadow_w = width - gtk_widget_get_width (GTK_WIDGET (window));
  shadow_h = height - gtk_widget_get_height (GTK_WIDGET (window));
  if (shadow_w != 0 || shadow_h != 0)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), width + shadow_w, height + shadow_h);
      settle ();
    }
  g_assert_true (hr_window_get_plan_valid (window));
  return window;
}

/* widget's bounds in the window, or FALSE when it is not mapped. */
static gboolean
bounds_in_window (GtkWidget       *widget,
                  HrWindow        *window,
                  graphene_rect_t *rect)
{
  return gtk_widget_get_mapped (widget)
         && gtk_widget_compute_bounds (widget, GTK_WIDGET (window), rect);
}

/* A drop-down's label shows whole: inside its row, and inside every
 * ancestor up to the row that clips what overflows it (AdwComboRow shows
 * its choice in a list view one line high, which cut a second line). */
static void
check_label_shown_whole (GtkWidget *label,
                         int        width)
{
  GtkWidget *row = gtk_widget_get_ancestor (label, ADW_TYPE_PREFERENCES_ROW);
  const char *text = gtk_label_get_text (GTK_LABEL (label));

  for (GtkWidget *a = gtk_widget_get_parent (label); a != NULL; a = gtk_widget_get_parent (a))
    {
      graphene_rect_t r;

      if (a != row && gtk_widget_get_overflow (a) != GTK_OVERFLOW_HIDDEN)
        continue;
      g_assert_true (gtk_widget_compute_bounds (label, a, &r));
      if (r.origin.x < -0.5 || r.origin.y < -0.5
          || r.origin.x + r.size.width > gtk_widget_get_width (a) + 0.5
          || r.origin.y + r.size.height > gtk_widget_get_height (a) + 0.5)
        g_error ("“%s” (%.0f×%.0f at %.0f,%.0f) is cut by its %s (%d×%d) at a window %d wide",
                 text, r.size.width, r.size.height, r.origin.x, r.origin.y,
                 G_OBJECT_TYPE_NAME (a), gtk_widget_get_width (a), gtk_widget_get_height (a),
                 width);
      if (a == row)
        break;
    }
}

/* Every mapped label, spin button and drop-down under root lies within the
 * window's width (the form's page scrolls vertically, so only the
 * horizontal extent is the window's business), and no drop-down's label
 * is cut short, with an ellipsis or by its row. */
static guint
check_within (GtkWidget *root,
              HrWindow  *window,
              int        width)
{
  guint checked = 0;

  for (GtkWidget *w = gtk_widget_get_first_child (root); w != NULL; w = gtk_widget_get_next_sibling (w))
    {
      graphene_rect_t r;

      if (!gtk_widget_get_mapped (w))
        continue;
      if ((GTK_IS_LABEL (w) || GTK_IS_SPIN_BUTTON (w) || GTK_IS_DROP_DOWN (w) || GTK_IS_SWITCH (w)
           || GTK_IS_BUTTON (w))
          && bounds_in_window (w, window, &r) && r.size.width > 0)
        {
          if (r.origin.x < -0.5 || r.origin.x + r.size.width > width + 0.5)
            g_error ("%s at x %.0f..%.0f, outside a window %d wide", G_OBJECT_TYPE_NAME (w),
                     r.origin.x, r.origin.x + r.size.width, width);
          checked++;
        }
      if (GTK_IS_LABEL (w)
          && (gtk_widget_get_ancestor (w, GTK_TYPE_DROP_DOWN) != NULL
              || gtk_widget_get_ancestor (w, ADW_TYPE_COMBO_ROW) != NULL)
          && gtk_widget_get_ancestor (w, GTK_TYPE_POPOVER) == NULL
          && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (w))))
        g_error ("“%s” is cut short at a window %d wide", gtk_label_get_text (GTK_LABEL (w)), width);
      if (GTK_IS_LABEL (w) && gtk_widget_get_width (w) > 0
          && (gtk_widget_get_ancestor (w, GTK_TYPE_DROP_DOWN) != NULL
              || gtk_widget_get_ancestor (w, ADW_TYPE_COMBO_ROW) != NULL)
          && gtk_widget_get_ancestor (w, GTK_TYPE_POPOVER) == NULL)
        check_label_shown_whole (w, width);
      checked += check_within (w, window, width);
    }
  return checked;
}

/* The window at a laptop's, a small window's and a phone's size: it takes
 * the size, folds below about 735 points into the plan or the form, and
 * shows every control within its width, no drop-down truncated. */
static void
test_fits_the_screen (void)
{
  static const struct { int width, height; gboolean folded; const char *name; } sizes[] = {
    { 1280, 800, FALSE, "size-1280x800" },
    { 1024, 700, FALSE, "size-1024x700" },
    { 800, 600, FALSE, "size-800x600" },
    { 360, 640, TRUE, "size-360x640" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      HrWindow *window = open_window_sized (sizes[i].width, sizes[i].height);
      GtkWidget *chart = GTK_WIDGET (hr_window_get_chart (window));
      GtkWidget *form = GTK_WIDGET (hr_window_get_form (window));
      graphene_rect_t r;
      guint n;

      g_test_message ("%dx%d: %dx%d, folded %d", sizes[i].width, sizes[i].height,
                      gtk_widget_get_width (GTK_WIDGET (window)),
                      gtk_widget_get_height (GTK_WIDGET (window)),
                      hr_window_get_folded (window));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, sizes[i].width);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), ==, sizes[i].height);
      g_assert_cmpint (hr_window_get_folded (window), ==, sizes[i].folded);

      /* The plan: its chart within the window, at least 300 points wide. */
      g_assert_true (bounds_in_window (chart, window, &r));
      g_assert_cmpfloat (r.origin.x, >=, 0);
      g_assert_cmpfloat (r.origin.x + r.size.width, <=, sizes[i].width);
      g_assert_cmpfloat (r.size.width, >=, 300);
      n = check_within (GTK_WIDGET (window), window, sizes[i].width);
      g_assert_cmpuint (n, >, 10);
      maybe_screenshot (window, sizes[i].name);

      if (sizes[i].folded)
        {
          GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (
            GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (chart, GTK_TYPE_SCROLLED_WINDOW)));

          /* The results pane scrolls: more than a phone's screen of it. */
          g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));

          /* Folded: the plan first, the header's toggle shows the form. */
          g_assert_false (gtk_widget_get_mapped (form));
          hr_window_show_form (window, TRUE);
          settle ();
          settle ();
          g_assert_true (settle_until_mapped (form));
          g_assert_false (gtk_widget_get_mapped (chart));
          g_assert_true (bounds_in_window (form, window, &r));
          g_assert_cmpfloat (r.origin.x, >=, 0);
          g_assert_cmpfloat (r.origin.x + r.size.width, <=, sizes[i].width);
          n = check_within (form, window, sizes[i].width);
          g_assert_cmpuint (n, >, 10);
          maybe_screenshot (window, "size-360x640-form");
        }
      else
        {
          /* Side by side: the form beside the plan. */
          g_assert_true (bounds_in_window (form, window, &r));
          g_assert_cmpfloat (r.size.width, >=, 340);
          g_assert_cmpfloat (r.size.width, <=, 380);
        }
      close_window (window);
    }
}

/* The pixels the window's body text is high: its font's size (Cantarell
 * 11 pt, at 96 dpi 14.7 pixels). */
static double
body_text_pixels (GtkWidget *widget)
{
  PangoContext *context = gtk_widget_get_pango_context (widget);
  const PangoFontDescription *font = pango_context_get_font_description (context);
  double size = pango_font_description_get_size (font) / (double) PANGO_SCALE;
  double dpi = pango_cairo_context_get_resolution (context);

  if (!pango_font_description_get_size_is_absolute (font))
    size *= (dpi > 0 ? dpi : 96) / 72;
  return size;
}

/* The plan's chart at a laptop's and a small window's size: its text (11
 * of its points) as large as the window's body text, not 10 or 11 pixels
 * beside the form's 15; and it fills the results pane, where the bars
 * and breakdown once ended halfway down a 1280 x 800 window: less than a
 * fifth of the pane is left blank below what it draws. */
static void
test_chart_fills_the_pane (void)
{
  static const int sizes[][2] = { { 1280, 800 }, { 1024, 700 } };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      HrWindow *window = open_window_sized (sizes[i][0], sizes[i][1]);
      GtkWidget *chart = GTK_WIDGET (hr_window_get_chart (window));
      GtkWidget *pane = gtk_widget_get_ancestor (chart, GTK_TYPE_SCROLLED_WINDOW);
      HrChartStyle style;
      graphene_rect_t chart_r, pane_r;
      int width, height, last = 0;
      guchar *pixels;
      double body = body_text_pixels (chart), blank;

      hr_chart_widget_get_style (HR_CHART_WIDGET (chart), &style);
      g_test_message ("%dx%d: body text %.1f px, the chart's %.1f px", sizes[i][0], sizes[i][1],
                      body, 11 * style.font_scale);
      g_assert_cmpfloat (body, >=, 12);
      g_assert_cmpfloat (fabs (11 * style.font_scale - body), <, 0.5);

      pixels = render_widget (chart, &width, &height);
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
          if (pixels[((gsize) y * width + x) * 4 + 3] > 0)
            last = y;
      g_free (pixels);
      g_assert_true (bounds_in_window (chart, window, &chart_r));
      g_assert_true (bounds_in_window (pane, window, &pane_r));
      blank = pane_r.origin.y + pane_r.size.height - (chart_r.origin.y + last);
      g_test_message ("pane %.0f high, %.0f blank below the chart", pane_r.size.height, blank);
      g_assert_cmpfloat (blank, <, pane_r.size.height / 5);
      close_window (window);
    }
}

static guint64
micro_batch (HrWindow *window)
{
  return hr_scenario_model_get_scenario (hr_window_get_model (window))->training.micro_batch;
}

static GtkEventController *
find_controller (GtkWidget  *widget,
                 const char *name)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (g_strcmp0 (gtk_event_controller_get_name (c), name) == 0)
        return c;
    }
  g_assert_not_reached ();
  return NULL;
}

/* The wheel turned over a spin button the user has not clicked scrolls the
 * form past it and leaves its value alone; once it has the focus, the
 * wheel is the spin button's. */
static void
test_wheel_scrolls_the_form (void)
{
  HrWindow *window = open_window_sized (1280, 800);
  GtkWidget *form = GTK_WIDGET (hr_window_get_form (window));
  GtkWidget *spin = control (window, "training.micro_batch");
  GtkEventController *wheel = find_controller (form, "hr-form-wheel");
  GtkEventController *pointer = find_controller (form, "hr-form-pointer");
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (
    GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (spin, GTK_TYPE_SCROLLED_WINDOW)));
  double x, y, before;
  gboolean handled = FALSE;

  /* Into view (the form follows the focus), then no focus. */
  gtk_widget_grab_focus (spin);
  settle ();
  gtk_root_set_focus (GTK_ROOT (window), NULL);
  settle ();
  g_assert_true (gtk_widget_translate_coordinates (spin, form, gtk_widget_get_width (spin) / 2.0,
                                                   gtk_widget_get_height (spin) / 2.0, &x, &y));
  g_assert_true (gtk_widget_pick (form, x, y, GTK_PICK_DEFAULT) != NULL);
  before = gtk_adjustment_get_value (adj);
  g_signal_emit_by_name (pointer, "motion", x, y);
  g_signal_emit_by_name (wheel, "scroll", 0.0, 2.0, &handled);
  settle ();
  g_assert_true (handled);
  g_assert_cmpuint (micro_batch (window), ==, 4);
  g_test_message ("the form scrolled from %.0f to %.0f", before, gtk_adjustment_get_value (adj));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, before);

  /* Clicked into, it takes the wheel. */
  gtk_widget_grab_focus (spin);
  g_assert_true (gtk_widget_translate_coordinates (spin, form, gtk_widget_get_width (spin) / 2.0,
                                                   gtk_widget_get_height (spin) / 2.0, &x, &y));
  g_signal_emit_by_name (pointer, "motion", x, y);
  g_signal_emit_by_name (wheel, "scroll", 0.0, 1.0, &handled);
  g_assert_false (handled);

  /* Over a row's title the wheel scrolls as it always does. */
  gtk_root_set_focus (GTK_ROOT (window), NULL);
  g_signal_emit_by_name (pointer, "motion", 30.0, y);
  g_signal_emit_by_name (wheel, "scroll", 0.0, 1.0, &handled);
  g_assert_false (handled);
  close_window (window);
}

/* The default scenario opens, planned, with a verdict in words. */
static void
test_opens (void)
{
  HrWindow *window = open_window ();
  const HrPlan *plan = hr_window_get_plan (window);

  g_assert_true (plan->fits);
  g_assert_cmpuint (plan->params, ==, 13015864320);
  g_assert_true (g_str_has_prefix (hr_window_get_summary (window), "✓ Fits on 8x H100"));
  g_assert_false (hr_window_get_dirty (window));
  g_assert_cmpuint (hr_chart_widget_get_draw_count (hr_window_get_chart (window)), >, 0);
  maybe_screenshot (window, "opens");
  close_window (window);
}

/* Raising the micro-batch far enough makes it not fit: the model, the plan
 * and the chart (the over-capacity hatching in the warning colour) say so. */
static void
test_micro_batch_overflow (void)
{
  HrWindow *window = open_window ();
  HrRgb red = hr_chart_status_colour (HR_STATUS_OOM, FALSE);
  guint before = count_pixels (window, red.r, red.g, red.b);

  g_assert_cmpuint (before, <, 50);
  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "training.checkpointing")),
                              HR_CHECKPOINTING_NONE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 32);
  settle ();
  g_assert_cmpuint (hr_scenario_model_get_scenario (hr_window_get_model (window))->training.micro_batch,
                    ==, 32);
  g_assert_false (hr_window_get_plan (window)->fits);
  g_assert_true (g_str_has_prefix (hr_window_get_summary (window), "✗ Does not fit"));
  g_assert_true (hr_window_get_dirty (window));
  g_assert_cmpuint (count_pixels (window, red.r, red.g, red.b), >, 500);
  maybe_screenshot (window, "overflow");
  close_window (window);
}

/* ZeRO stage 3 -> 0: optimizer states are no longer sharded. */
static void
test_zero_stage (void)
{
  HrWindow *window = open_window ();
  guint64 sharded = hr_window_get_plan (window)->devices[0].category_bytes[HR_CATEGORY_OPTIMIZER];

  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "parallel.zero")), 0);
  settle ();
  g_assert_cmpuint (hr_scenario_model_get_scenario (hr_window_get_model (window))->parallel.zero, ==, 0);
  g_assert_cmpuint (hr_window_get_plan (window)->devices[0].category_bytes[HR_CATEGORY_OPTIMIZER],
                    >, 7 * sharded);
  close_window (window);
}

/* Every field of the table with a label has its row in the form, the
 * ones no group places itself after the placed ones (hr_form_rest_rows),
 * bound to the scenario like the others: DeepSpeed's engine, which only
 * a framework set before, is a switch under Parallelism. */
static void
test_every_field_has_a_row (void)
{
  HrWindow *window = open_window ();
  HrForm *form = hr_window_get_form (window);
  guint n = 0;

  g_ptr_array_unref (hr_form_list_controls (form));   /* builds them all */
  for (guint t = 0; t < hr_field_sections_count; t++)
    for (guint f = 0; f < *hr_field_sections[t].n_fields; f++)
      {
        const Field *field = &hr_field_sections[t].fields[f];
        g_autofree char *path = NULL;

        if (field->kind == F_SKIP || field->label == NULL)
          continue;
        path = g_strconcat (hr_field_sections[t].path, ".", field->key, NULL);
        if (hr_form_get_row (form, path) == NULL && hr_form_get_control (form, path) == NULL)
          g_error ("%s has no row in the form", path);
        n++;
      }
  g_test_message ("%u fields, each with its row", n);
  g_assert_cmpuint (n, >, 150);

  /* The Parallelism group's last rows in view, for a look at them. */
  {
    GtkWidget *row = hr_form_get_row (form, "parallel.fsdp_units");
    GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW));
    GtkWidget *content = gtk_viewport_get_child (GTK_VIEWPORT (gtk_scrolled_window_get_child (scroller)));
    graphene_point_t at;

    settle ();
    g_assert_true (gtk_widget_compute_point (row, content, &GRAPHENE_POINT_INIT (0, 0), &at));
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (scroller), at.y - 500);
    settle ();
    maybe_screenshot (window, "form-parallelism");
  }

  /* (the example is DeepSpeed's: the switch turns the engine off) */
  g_assert_true (hr_scenario_model_get_scenario (hr_window_get_model (window))->parallel.deepspeed);
  gtk_switch_set_active (GTK_SWITCH (control (window, "parallel.deepspeed")), FALSE);
  settle ();
  g_assert_false (hr_scenario_model_get_scenario (hr_window_get_model (window))->parallel.deepspeed);
  close_window (window);
}

/* Choosing a framework sets what its code does; changing one of those
 * fields turns the drop-down back to "Custom".  The example, which names
 * no framework, shows the profile it matches: DeepSpeed's engine. */
static void
test_framework (void)
{
  HrWindow *window = open_window ();
  GtkDropDown *dropdown = GTK_DROP_DOWN (control (window, "training.framework"));
  const HrScenario *sc;
  guint litgpt = 0, deepspeed = 0;

  /* The drop-down lists "Custom", then the profiles in id order. */
  for (guint i = 0; i < hr_frameworks_count (); i++)
    {
      if (g_strcmp0 (hr_framework_get (i)->id, "litgpt") == 0)
        litgpt = i + 1;
      if (g_strcmp0 (hr_framework_get (i)->id, "deepspeed") == 0)
        deepspeed = i + 1;
    }
  g_assert_cmpuint (litgpt, >, 0);
  g_assert_cmpuint (deepspeed, >, 0);
  settle ();
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, deepspeed);
  gtk_drop_down_set_selected (dropdown, litgpt);
  settle ();
  sc = hr_scenario_model_get_scenario (hr_window_get_model (window));
  g_assert_cmpint (sc->training.loss, ==, HR_LOSS_CHUNKED);
  g_assert_cmpint (sc->training.attention, ==, HR_ATTENTION_SDPA);
  g_assert_true (sc->training.previous_graph_alive);
  /* LitGPT has no DeepSpeed engine: choosing it turned the default's off,
   * and its FSDP is Fabric's FSDP1. */
  g_assert_false (sc->parallel.deepspeed);
  g_assert_cmpuint (sc->parallel.fsdp, ==, 1);
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, litgpt);

  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "training.loss")), HR_LOSS_STANDARD);
  settle ();
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);

  /* Turning DeepSpeed back on under LitGPT is refused with the reason, in
   * place of a plan LitGPT cannot run; the drop-down keeps LitGPT shown,
   * and "Custom" leaves the framework, which plans it. */
  gtk_drop_down_set_selected (dropdown, litgpt);
  settle ();
  gtk_switch_set_active (GTK_SWITCH (control (window, "parallel.deepspeed")), TRUE);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  g_assert_nonnull (strstr (hr_window_get_message (window), "LitGPT"));
  g_assert_null (strstr (hr_window_get_message (window), "parallel.deepspeed"));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, litgpt);
  gtk_drop_down_set_selected (dropdown, 0);
  settle ();
  sc = hr_scenario_model_get_scenario (hr_window_get_model (window));
  g_assert_cmpstr (sc->training.framework, ==, "");
  g_assert_true (sc->parallel.deepspeed);
  g_assert_true (hr_window_get_plan_valid (window));
  close_window (window);
}

/* Choosing a GPU preset changes the capacity. */
static void
test_gpu_preset (void)
{
  HrWindow *window = open_window ();
  GtkDropDown *dropdown = GTK_DROP_DOWN (control (window, "gpu.preset"));
  GListModel *names = gtk_drop_down_get_model (dropdown);
  guint index = G_MAXUINT;

  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    {
      g_autoptr(GtkStringObject) s = g_list_model_get_item (names, i);

      if (g_str_equal (gtk_string_object_get_string (s), "A100 SXM4 80GB"))
        index = i;
    }
  g_assert_cmpuint (index, !=, G_MAXUINT);
  gtk_drop_down_set_selected (dropdown, index);
  settle ();
  g_assert_cmpstr (hr_scenario_model_get_scenario (hr_window_get_model (window))->gpu.preset, ==,
                   "a100-sxm4-80gb");
  g_assert_cmpuint (hr_window_get_plan (window)->capacity_bytes, ==, 81920ull * 1024 * 1024);
  close_window (window);
}

/* What the window showed in its first frame, read at that frame's
 * after-paint. */
typedef struct
{
  gboolean painted;
  guint    recomputes;
  char    *summary;
} FirstFrame;

static void
on_first_after_paint (GdkFrameClock *clock,
                      HrWindow      *window)
{
  FirstFrame *first = g_object_get_data (G_OBJECT (window), "first-frame");

  if (first->painted || !gtk_widget_get_mapped (GTK_WIDGET (window)))
    return;
  first->painted = TRUE;
  first->recomputes = hr_window_get_recompute_count (window);
  first->summary = g_strdup (hr_window_get_summary (window));
}

static void
on_realize_watch_first_frame (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_first_after_paint), window);
}

/* The first frame shows the plan, not an empty verdict and chart for a
 * frame or two: GTK may draw before a high-priority idle has run. */
static void
test_first_frame_shows_the_plan (void)
{
  HrWindow *window = hr_window_new (NULL);
  FirstFrame first = { 0 };
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_object_set_data (G_OBJECT (window), "first-frame", &first);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize_watch_first_frame), NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  while (!first.painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (first.painted);
  g_signal_handlers_disconnect_by_func (gtk_widget_get_frame_clock (GTK_WIDGET (window)),
                                        on_first_after_paint, window);
  g_test_message ("first frame: %u recomputes, verdict \"%s\"", first.recomputes, first.summary);
  g_assert_cmpuint (first.recomputes, >=, 1);
  g_assert_nonnull (strstr (first.summary, "Fits on 8x H100"));
  g_free (first.summary);
  close_window (window);
}

/* A preset that changes twenty properties recomputes once. */
static void
test_one_recompute_per_turn (void)
{
  HrWindow *window = open_window ();
  guint before = hr_window_get_recompute_count (window);
  HrScenario sc;

  hr_scenario_init_default (&sc);
  sc.training.micro_batch = 2;
  sc.training.seq_len = 8192;
  sc.parallel.zero = 2;
  sc.model.layers = 20;
  sc.training.method = HR_METHOD_LORA;
  hr_scenario_model_set_scenario (hr_window_get_model (window), &sc);
  settle ();
  g_assert_cmpuint (hr_window_get_recompute_count (window), ==, before + 1);
  close_window (window);
}

static gboolean
action_enabled (HrWindow   *window,
                const char *name)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (window), name);
}

/* An invalid value is named next to its field, by the field's label; the
 * chart shows no plan, greyed, with the reason over it; nothing that
 * needs a plan can be done until the value is valid again. */
static void
test_invalid_value (void)
{
  static const char * const need_plan[] = { "export-png", "export-csv", "export-report", "pin",
                                            "apply-suggestion" };
  HrWindow *window = open_window ();
  HrChartWidget *chart = hr_window_get_chart (window);
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/plan.png");
  g_autoptr(GError) error = NULL;
  const char *message, *subtitle;
  GtkWidget *row;

  for (guint i = 0; i < G_N_ELEMENTS (need_plan); i++)
    g_assert_true (action_enabled (window, need_plan[i]));
  g_assert_null (hr_window_get_message (window));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 48);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  row = hr_form_get_row (hr_window_get_form (window), "model.heads");
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  g_assert_true (settle_until_mapped (row));   /* its expander opened */
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
  g_test_message ("row: %s", subtitle);
  g_assert_nonnull (strstr (subtitle, "does not divide Hidden size = 5120"));
  message = hr_window_get_message (window);
  g_assert_nonnull (message);
  g_test_message ("over the chart: %s", message);
  g_assert_true (g_str_has_prefix (message, "Attention heads: 48 does not divide Hidden size"));
  g_assert_null (strstr (message, "model."));
  g_assert_cmpstr (hr_window_get_summary (window), ==, "Cannot plan this scenario");
  g_assert_null (hr_chart_widget_get_plan (chart));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (chart), "stale"));
  for (guint i = 0; i < G_N_ELEMENTS (need_plan); i++)
    g_assert_false (action_enabled (window, need_plan[i]));
  g_assert_false (hr_window_export_png (window, file, &error));
  g_assert_error (error, HR_ERROR, HR_ERROR_INVALID);
  maybe_screenshot (window, "invalid-value");

  /* The other views show nothing of the last plan either. */
  adw_view_stack_set_visible_child_name (hr_window_get_views (window), "sweep");
  settle ();
  g_assert_nonnull (hr_window_get_message (window));
  adw_view_stack_set_visible_child_name (hr_window_get_views (window), "plan");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 40);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_false (gtk_widget_has_css_class (row, "error"));
  g_assert_null (hr_window_get_message (window));
  g_assert_nonnull (hr_chart_widget_get_plan (chart));
  for (guint i = 0; i < G_N_ELEMENTS (need_plan); i++)
    g_assert_true (action_enabled (window, need_plan[i]));
  close_window (window);

  /* A file's value marks a row below the form's first screen: the
   * reason's Show Field takes the focus there, scrolled into sight; on a
   * phone by way of the form. */
  for (guint phone = 0; phone < 2; phone++)
    {
      HrScenario sc;
      GtkWidget *button, *gpus, *scroller;
      graphene_point_t at;

      window = phone ? open_window_sized (360, 640) : open_window ();
      sc = *hr_scenario_model_get_scenario (hr_window_get_model (window));
      sc.parallel.tp = 2;
      sc.parallel.gpus = 7;
      hr_scenario_model_set_scenario (hr_window_get_model (window), &sc);
      settle ();
      g_assert_false (hr_window_get_plan_valid (window));
      g_test_message ("over the chart: %s", hr_window_get_message (window));
      g_assert_true (g_str_has_prefix (hr_window_get_message (window), "GPUs: 7 is not a multiple"));
      button = gtk_widget_get_last_child (gtk_widget_get_parent (GTK_WIDGET (hr_window_get_views (window))));
      while (button != NULL && !GTK_IS_BUTTON (button))
        button = gtk_widget_get_last_child (button);
      g_assert_nonnull (button);
      g_assert_true (gtk_widget_is_visible (button));
      g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Show Field");
      gtk_widget_activate (button);
      gpus = control (window, "parallel.gpus");
      g_assert_true (wait_for_focus_in (gpus));
      /* (the scrolling shows at the next frame) */
      g_assert_true (run_until (in_sight, gpus, WAIT_MS));
      scroller = gtk_widget_get_ancestor (gpus, GTK_TYPE_SCROLLED_WINDOW);
      g_assert_true (gtk_widget_compute_point (gpus, scroller, &GRAPHENE_POINT_INIT (0, 0), &at));
      g_test_message ("the GPUs' spin button at y = %.0f of %d", at.y, gtk_widget_get_height (scroller));
      g_assert_cmpfloat (at.y, >=, 0);
      g_assert_cmpfloat (at.y + gtk_widget_get_height (gpus), <=, gtk_widget_get_height (scroller));
      maybe_screenshot (window, phone ? "show-field-phone" : "show-field");
      close_window (window);
    }

  /* ... and to a row whose expander the user folded after the error
   * opened it: opened again, the row laid out, then the focus. */
  window = open_window ();
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 48);
  settle ();
  row = hr_form_get_row (hr_window_get_form (window), "model");
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row)));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), FALSE);
  settle ();
  g_assert_false (gtk_widget_get_mapped (control (window, "model.heads")));
  g_assert_true (hr_form_focus_error (hr_window_get_form (window)));
  g_assert_true (wait_for_focus_in (control (window, "model.heads")));
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row)));
  g_assert_true (gtk_widget_get_mapped (control (window, "model.heads")));
  close_window (window);
}

/* The rows under w that are action rows (spin, switch and combo rows),
 * and among them the one marked in error, if any. */
static guint
count_action_rows (GtkWidget  *w,
                   GtkWidget **error_row)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      if (ADW_IS_ACTION_ROW (c))
        {
          n++;
          if (error_row != NULL && gtk_widget_has_css_class (c, "error"))
            *error_row = c;
        }
      n += count_action_rows (c, error_row);
    }
  return n;
}

/* The preferences group under w titled title. */
static GtkWidget *
find_group (GtkWidget  *w,
            const char *title)
{
  if (ADW_IS_PREFERENCES_GROUP (w)
      && g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (w)), title) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_group (c, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The first drop-down under w, found without the form's lookup by path
 * (which would fill its list). */
static GtkDropDown *
find_drop_down (GtkWidget *w)
{
  if (GTK_IS_DROP_DOWN (w))
    return GTK_DROP_DOWN (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkDropDown *found = find_drop_down (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* How many model presets are bundled: the model drop-down's list less
 * its "Custom model". */
static guint
count_model_presets (void)
{
  g_autofree char *folder = g_build_filename (g_getenv ("HEADROOM_PRESETS_DIR"), "models", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *entry;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    n += g_str_has_suffix (entry, ".json");
  return n;
}

/* The groups below the first screen get their rows once the first frame
 * is drawn, with no lookup asking for them, and the model drop-down its
 * list of every preset (the scenario's own alone before); a form never
 * drawn finds them by path all the same, and goes without a warning. */
static void
test_rows_after_first_frame (void)
{
  HrWindow *window = open_window ();
  HrWindow *hidden;
  GtkWidget *form, *scroller;
  GtkDropDown *models;
  int min_before, nat_before, min_after, nat_after;
  GtkWidget *group = find_group (GTK_WIDGET (hr_window_get_form (window)), "Parallelism");
  guint n_models = count_model_presets ();

  g_assert_nonnull (group);
  g_assert_cmpuint (count_action_rows (group, NULL), >=, 16);
  group = find_group (GTK_WIDGET (hr_window_get_form (window)), "Time and cost");
  g_assert_cmpuint (count_action_rows (group, NULL), >=, 3);
  models = find_drop_down (find_group (GTK_WIDGET (hr_window_get_form (window)), "Model"));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (models)), ==, 1 + n_models);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (models)), ==,
                   "Llama 2 13B");
  close_window (window);

  hidden = hr_window_new (NULL);
  form = GTK_WIDGET (hr_window_get_form (hidden));
  group = find_group (form, "Parallelism");
  g_assert_cmpuint (count_action_rows (group, NULL), ==, 0);   /* not drawn yet */
  models = find_drop_down (find_group (form, "Model"));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (models)), ==, 2);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (models)), ==,
                   "Llama 2 13B");
  /* The rows that come later do not widen the form's column after the
   * first frame: the leaflet folds by its minimum (at least 360 points,
   * hr-window.ui), and its natural width is the form's 375. */
  scroller = gtk_widget_get_ancestor (form, GTK_TYPE_SCROLLED_WINDOW);
  gtk_widget_measure (scroller, GTK_ORIENTATION_HORIZONTAL, -1, &min_before, &nat_before, NULL, NULL);
  g_ptr_array_unref (hr_form_list_controls (HR_FORM (form)));   /* builds them all */
  gtk_widget_measure (scroller, GTK_ORIENTATION_HORIZONTAL, -1, &min_after, &nat_after, NULL, NULL);
  g_test_message ("form column width: %d (%d) before the later rows, %d (%d) with them",
                  min_before, nat_before, min_after, nat_after);
  g_assert_cmpint (min_after, ==, min_before);
  g_assert_cmpint (nat_after, ==, nat_before);
  g_assert_true (GTK_IS_SPIN_BUTTON (control (hidden, "parallel.tp")));
  g_assert_true (GTK_IS_SPIN_BUTTON (control (hidden, "overhead.comm_buffer_mib")));
  g_assert_true (GTK_IS_SWITCH (control (hidden, "training.zero_grad_to_none")));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (models)), ==, 1 + n_models);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (models)), ==,
                   "Llama 2 13B");
  gtk_window_destroy (GTK_WINDOW (hidden));
  settle ();
}

/* A collapsed expander's rows are made when first needed (hr-form-lazy.c):
 * none at the start; an error naming one of them, with no lookup before,
 * makes them, marks its row and opens the expander; opening one makes its
 * rows, which follow the scenario's rules like the others. */
static void
test_rows_built_when_needed (void)
{
  HrWindow *window = open_window ();
  HrForm *form = hr_window_get_form (window);
  GtkWidget *arch = hr_form_get_row (form, "model");
  GtkWidget *dtypes = hr_form_get_row (form, "training.dtypes");
  GtkWidget *error_row = NULL;
  /* An expander's own header is an action row inside it: at most that. */
  guint arch_rows = count_action_rows (arch, NULL), dtype_rows = count_action_rows (dtypes, NULL);

  g_assert_true (ADW_IS_EXPANDER_ROW (arch));
  g_assert_cmpuint (arch_rows, <=, 1);
  g_assert_cmpuint (dtype_rows, <=, 1);

  g_object_set (hr_window_get_model (window), hr_scenario_model_property_for_path ("model.heads"),
                (guint64) 48, NULL);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  g_assert_cmpuint (count_action_rows (arch, &error_row), >, arch_rows + 40);
  g_assert_nonnull (error_row);
  g_assert_true (error_row == hr_form_get_row (form, "model.heads"));
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (arch)));
  g_assert_true (settle_until_mapped (error_row));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (control (window, "model.heads"))),
                     ==, 48);

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (dtypes), TRUE);
  settle ();
  g_assert_cmpuint (count_action_rows (dtypes, NULL), ==, dtype_rows + 5);
  g_assert_true (settle_until_mapped (hr_form_get_row (form, "training.dtypes.master")));
  close_window (window);
}

/* LoRA's, DoRA's and QLoRA's rows: one greyed expander under full
 * fine-tuning, its rows not made; choosing LoRA opens it, its subtitle
 * says what the adapters are; an error in one of its rows opens it. */
static void
test_adapters_expander (void)
{
  HrWindow *window = open_window ();
  HrForm *form = hr_window_get_form (window);
  GtkWidget *adapters = hr_form_get_row (form, "training.lora");
  GtkWidget *method = control (window, "training.method");
  guint header_rows = count_action_rows (adapters, NULL);

  g_assert_true (ADW_IS_EXPANDER_ROW (adapters));
  g_assert_cmpuint (header_rows, ==, 1);   /* its own header: no rows made */
  g_assert_false (gtk_widget_is_sensitive (adapters));
  g_assert_false (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (adapters)));
  g_assert_cmpstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (adapters)), ==,
                   "None: full fine-tuning trains every weight");

  adw_combo_row_set_selected (ADW_COMBO_ROW (method), HR_METHOD_LORA);
  settle ();
  g_assert_true (gtk_widget_is_sensitive (adapters));
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (adapters)));
  /* rank, the four rows of targets, dropout, fused QKV, DoRA, and QLoRA's
   * base: format, LM head, dequantized type, the loop's last graph */
  g_assert_cmpuint (count_action_rows (adapters, NULL), ==, header_rows + 12);
  g_assert_true (settle_until_mapped (hr_form_get_row (form, "training.lora.rank")));
  /* Llama 2 has no Mamba blocks: no row of SSM targets */
  g_assert_false (gtk_widget_get_visible (hr_form_get_row (form, "training.lora.targets.ssm")));
  g_assert_true (gtk_widget_get_visible (hr_form_get_row (form, "training.lora.targets.mlp")));
  g_assert_cmpstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (adapters)), ==,
                   "Rank 16 on all linear layers");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (control (window, "training.lora.targets.k")), FALSE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (control (window, "training.lora.targets.gate")), FALSE);
  settle ();
  g_assert_cmpstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (adapters)), ==,
                   "Rank 16 on q, v, o, up, down");
  g_assert_false (gtk_widget_is_sensitive (control (window, "training.quant")));

  adw_combo_row_set_selected (ADW_COMBO_ROW (method), HR_METHOD_QLORA);
  gtk_switch_set_active (GTK_SWITCH (control (window, "training.lora.dora")), TRUE);
  settle ();
  g_assert_true (gtk_widget_is_sensitive (control (window, "training.quant")));
  g_assert_cmpstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (adapters)), ==,
                   "DoRA, rank 16 on q, v, o, up, down; base in nf4-dq");
  maybe_screenshot (window, "adapters");

  /* Folded by the user, it stays folded from QLoRA to LoRA (it opens
   * only when the adapters start to apply); its rows hide. */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (adapters), FALSE);
  adw_combo_row_set_selected (ADW_COMBO_ROW (method), HR_METHOD_LORA);
  settle ();
  g_assert_false (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (adapters)));
  g_assert_false (gtk_widget_get_visible (hr_form_get_row (form, "training.lora.targets.mlp")));

  /* Back to full fine-tuning (an undo, another file) it folds, greyed;
   * LoRA again opens it. */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (adapters), TRUE);
  adw_combo_row_set_selected (ADW_COMBO_ROW (method), HR_METHOD_FULL);
  settle ();
  g_assert_false (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (adapters)));
  g_assert_false (gtk_widget_is_sensitive (adapters));
  g_assert_false (gtk_widget_get_mapped (hr_form_get_row (form, "training.lora.rank")));
  adw_combo_row_set_selected (ADW_COMBO_ROW (method), HR_METHOD_LORA);
  settle ();
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (adapters)));

  /* Folded under LoRA, an invalid rank opens it to the marked row. */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (adapters), FALSE);
  settle ();
  {
    HrScenario sc = *hr_scenario_model_get_scenario (hr_window_get_model (window));

    sc.training.lora.rank = 0;
    hr_scenario_model_set_scenario (hr_window_get_model (window), &sc);
  }
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  g_test_message ("over the chart: %s", hr_window_get_message (window));
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (adapters)));
  g_assert_true (gtk_widget_has_css_class (hr_form_get_row (form, "training.lora.rank"), "error"));
  g_assert_true (settle_until_mapped (hr_form_get_row (form, "training.lora.rank")));
  close_window (window);
}

static const char *
scenario_name (HrWindow *window)
{
  return hr_scenario_model_get_scenario (hr_window_get_model (window))->name;
}

static guint
dropdown_index (GtkWidget  *dropdown,
                const char *name)
{
  GListModel *names = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));

  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    {
      g_autoptr(GtkStringObject) s = g_list_model_get_item (names, i);

      if (g_str_equal (gtk_string_object_get_string (s), name))
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

/* The name follows the plan until the user writes one; an example's own
 * name stays until a change would rename it. */
static void
test_name_follows (void)
{
  HrWindow *window = open_window ();
  GtkEditable *entry = GTK_EDITABLE (control (window, "name"));

  g_assert_cmpstr (scenario_name (window), ==, "Llama 2 13B, ZeRO-3, 8x H100");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "Llama 2 13B, ZeRO-3, 8x H100");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "parallel.gpus")), 16);
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "Llama 2 13B, ZeRO-3, 16x H100");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "Llama 2 13B, ZeRO-3, 16x H100");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Llama 2 13B, ZeRO-3, 16x H100");

  /* A name of one's own stays. */
  gtk_editable_set_text (entry, "Our fine-tune");
  settle ();
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "parallel.gpus")), 32);
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "Our fine-tune");

  /* Cleared, it follows again from the next change. */
  gtk_editable_set_text (entry, "");
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "parallel.gpus")), 8);
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "Llama 2 13B, ZeRO-3, 8x H100");

  /* An example's name stays through a change the name does not mention,
   * and follows one it does. */
  g_assert_true (hr_window_load_example (window, "qlora-llama-3.1-8b-rtx4090", NULL));
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "QLoRA of Llama 3.1 8B on one RTX 4090");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 2);
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "QLoRA of Llama 3.1 8B on one RTX 4090");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (control (window, "gpu.preset")),
                              dropdown_index (control (window, "gpu.preset"), "A100 SXM4 80GB"));
  settle ();
  g_assert_cmpstr (scenario_name (window), ==, "Llama 3.1 8B, QLoRA, 1x A100");
  close_window (window);
}

/* The message dialog open now, or NULL. */
static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  AdwMessageDialog *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && found == NULL; i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        found = ADW_MESSAGE_DIALOG (w);
    }
  return found;
}

/* Answers the open "Save changes?" dialog. */
static void
respond (const char *response)
{
  AdwMessageDialog *dialog = find_dialog ();

  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Save changes?");
  adw_message_dialog_response (dialog, response);
  settle ();
  if ((dialog = find_dialog ()) != NULL)
    gtk_window_destroy (GTK_WINDOW (dialog));
}

/* New, Open and the examples ask before they discard unsaved changes;
 * Cancel keeps them, Discard drops them, Save writes them first. */
static void
test_discard_asks (void)
{
  HrWindow *window = open_window ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-discard-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *text = NULL;

  /* Nothing to lose: no question. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.example", "s", "bert-large-finetune-t4");
  settle ();
  g_assert_null (find_dialog ());
  g_assert_cmpstr (scenario_name (window), ==, "BERT large fine-tuning on a T4");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 3);
  settle ();
  g_assert_true (hr_window_get_dirty (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new", NULL);
  settle ();
  respond ("cancel");
  g_assert_cmpuint (micro_batch (window), ==, 3);
  g_assert_true (hr_window_get_dirty (window));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.example", "s", "default");
  settle ();
  respond ("discard");
  g_assert_cmpuint (micro_batch (window), ==, 4);
  g_assert_false (hr_window_get_dirty (window));

  /* Save writes the file the scenario came from, then goes on. */
  g_assert_true (hr_window_save_to (window, file, NULL));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 6);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.example", "s", "bert-large-finetune-t4");
  settle ();
  respond ("save");
  g_assert_cmpstr (scenario_name (window), ==, "BERT large fine-tuning on a T4");
  g_assert_false (hr_window_get_dirty (window));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (strstr (text, "\"micro_batch\" : 6,") != NULL
                 || strstr (text, "\"micro_batch\": 6,") != NULL);

  g_remove (path);
  g_rmdir (dir);
  close_window (window);
}

/* Undo and redo: rapid changes of one field are one step; an applied
 * suggestion is one, and its toast says what changed and offers Undo. */
static void
test_undo (void)
{
  HrWindow *window = open_window ();
  GtkSpinButton *mb = GTK_SPIN_BUTTON (control (window, "training.micro_batch"));
  GtkSpinButton *seq = GTK_SPIN_BUTTON (control (window, "training.seq_len"));
  const HrScenario *sc = hr_scenario_model_get_scenario (hr_window_get_model (window));
  HrScenario before;

  g_assert_false (action_enabled (window, "undo"));
  g_assert_false (action_enabled (window, "redo"));

  /* A drag: one value per main-loop turn, well within a second. */
  for (guint v = 5; v <= 9; v++)
    {
      gtk_spin_button_set_value (mb, v);
      for (guint i = 0; i < 3; i++)
        g_main_context_iteration (NULL, FALSE);
    }
  settle ();
  g_assert_cmpuint (micro_batch (window), ==, 9);
  g_assert_true (action_enabled (window, "undo"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  settle ();
  g_assert_cmpuint (micro_batch (window), ==, 4);
  g_assert_cmpfloat (gtk_spin_button_get_value (mb), ==, 4);
  g_assert_false (hr_window_get_dirty (window));   /* back where it was loaded */
  g_assert_false (action_enabled (window, "undo"));
  g_assert_true (action_enabled (window, "redo"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  settle ();
  g_assert_cmpuint (micro_batch (window), ==, 9);
  g_assert_true (hr_window_get_dirty (window));

  /* Two fields, two steps; the name follows both ways. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "parallel.gpus")), 16);
  settle ();
  gtk_spin_button_set_value (seq, 2048);
  settle ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  settle ();
  g_assert_cmpuint (sc->training.seq_len, ==, 4096);
  g_assert_cmpuint (sc->parallel.gpus, ==, 16);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  settle ();
  g_assert_cmpuint (sc->parallel.gpus, ==, 8);
  g_assert_cmpstr (scenario_name (window), ==, "Llama 2 13B, ZeRO-3, 8x H100");
  g_assert_cmpuint (micro_batch (window), ==, 9);
  /* An edit after undoing forgets the steps ahead. */
  gtk_spin_button_set_value (seq, 1024);
  settle ();
  g_assert_false (action_enabled (window, "redo"));

  /* Apply a suggestion, then its toast's Undo. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "training.checkpointing")),
                              HR_CHECKPOINTING_NONE);
  gtk_spin_button_set_value (mb, 32);
  gtk_spin_button_set_value (seq, 4096);
  settle ();
  g_assert_false (hr_window_get_plan (window)->fits);
  before = *sc;
  g_assert_true (action_enabled (window, "apply-suggestion"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-suggestion", "u", 0);
  settle ();
  g_test_message ("toast: %s", hr_window_get_last_toast (window));
  maybe_screenshot (window, "undo-applied");
  g_assert_true (g_str_has_prefix (hr_window_get_last_toast (window), "Applied “"));
  g_assert_nonnull (strstr (hr_window_get_last_toast (window), "per GPU"));
  g_assert_true (sc->training.checkpointing != before.training.checkpointing
                 || sc->training.micro_batch != before.training.micro_batch
                 || sc->parallel.tp != before.parallel.tp);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  settle ();
  g_assert_cmpuint (sc->training.checkpointing, ==, before.training.checkpointing);
  g_assert_cmpuint (sc->training.micro_batch, ==, 32);
  g_assert_cmpuint (sc->parallel.tp, ==, before.parallel.tp);
  g_assert_false (hr_window_get_plan (window)->fits);

  /* New starts a history of its own. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new", NULL);
  settle ();
  respond ("discard");
  g_assert_false (action_enabled (window, "undo"));
  close_window (window);
}

/* The communication buffers say "Automatic" while they follow the plan
 * (-1), take a number, and "auto" typed back. */
static void
test_comm_buffers_automatic (void)
{
  HrWindow *window = open_window ();
  GtkSpinButton *spin = GTK_SPIN_BUTTON (control (window, "overhead.comm_buffer_mib"));
  const HrScenario *sc = hr_scenario_model_get_scenario (hr_window_get_model (window));

  g_assert_cmpfloat (sc->overhead.comm_buffer_mib, ==, -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "Automatic");
  gtk_editable_set_text (GTK_EDITABLE (spin), "256");
  gtk_spin_button_update (spin);
  settle ();
  g_assert_cmpfloat (sc->overhead.comm_buffer_mib, ==, 256);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "256");
  gtk_editable_set_text (GTK_EDITABLE (spin), "auto");
  gtk_spin_button_update (spin);
  settle ();
  g_assert_cmpfloat (sc->overhead.comm_buffer_mib, ==, -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "Automatic");
  close_window (window);
}

/* The BLAS workspace row says "Automatic" while cuBLAS's default for the
 * compute capability applies (-1), shows an AMD preset's own value
 * (hipBLAS's and hipBLASLt's, 204 MiB on an MI300X), and goes back to
 * "Automatic" with the next preset that gives none. */
static void
test_blas_workspace_row (void)
{
  HrWindow *window = open_window ();
  GtkSpinButton *spin = GTK_SPIN_BUTTON (control (window, "gpu.blas_workspace_mib"));
  GtkWidget *gpus = control (window, "gpu.preset");
  const HrScenario *sc = hr_scenario_model_get_scenario (hr_window_get_model (window));

  g_assert_cmpfloat (sc->gpu.blas_workspace_mib, ==, -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "Automatic");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gpus), dropdown_index (gpus, "MI300X 192GB"));
  settle ();
  g_assert_cmpfloat (sc->gpu.blas_workspace_mib, ==, 204);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "204");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gpus), dropdown_index (gpus, "A100 SXM4 80GB"));
  settle ();
  g_assert_cmpfloat (sc->gpu.blas_workspace_mib, ==, -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "Automatic");
  close_window (window);
}

/* The shortcuts window names import (Ctrl+I), the report (Ctrl+R), the
 * presentation (F5), undo and redo, and every window action it names
 * exists. */
static void
test_shortcuts_window (void)
{
  static const char * const wanted[] = { "win.import", "win.export-report", "win.present",
                                         "win.undo", "win.redo", "win.pin", "win.new" };
  HrWindow *window = open_window ();
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/headroom/Headroom/gtk/help-overlay.ui");
  g_autoptr(GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);
  GSList *objects = gtk_builder_get_objects (builder);

  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        char *name = NULL;

        g_object_get (l->data, "action-name", &name, NULL);
        if (name != NULL)
          g_ptr_array_add (actions, name);
      }
  g_slist_free (objects);
  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    g_assert_true (g_ptr_array_find_with_equal_func (actions, wanted[i], g_str_equal, NULL));
  for (guint i = 0; i < actions->len; i++)
    {
      const char *name = g_ptr_array_index (actions, i);

      /* (show-help-overlay is the application window's own.) */
      if (g_str_has_prefix (name, "win.") && !g_str_equal (name, "win.show-help-overlay"))
        g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), name + 4));
    }
  gtk_window_destroy (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  close_window (window);
}

static GtkWidget *
find_menu_button (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = GTK_IS_MENU_BUTTON (c) ? c : find_menu_button (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The main menu, made when it first opens (not for the first frame),
 * opens with its items: the examples among them. */
static void
test_main_menu (void)
{
  HrWindow *window = open_window ();
  GtkWidget *button = find_menu_button (GTK_WIDGET (window));
  GMenuModel *menu;
  GtkWidget *popover;
  gboolean examples = FALSE;

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  settle ();
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_nonnull (popover);
  g_assert_true (settle_until_mapped (popover));
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));
  g_assert_nonnull (menu);
  /* (its first section: New, Open, Import, the examples' submenu, ...) */
  for (int i = 0; i < g_menu_model_get_n_items (menu) && !examples; i++)
    {
      GMenuModel *section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      for (int j = 0; section != NULL && j < g_menu_model_get_n_items (section); j++)
        {
          g_autoptr(GMenuModel) submenu = g_menu_model_get_item_link (section, j,
                                                                      G_MENU_LINK_SUBMENU);

          examples = examples || (submenu != NULL && g_menu_model_get_n_items (submenu) > 0);
        }
      g_clear_object (&section);
    }
  g_assert_true (examples);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  settle ();
  close_window (window);
}

/* Removes a directory and all under it (a locale localedef built). */
static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_remove (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

/* Builds LANG.CHARSET with localedef into a new temporary directory and
 * points glibc's LOCPATH at it (setlocale reads it at each call); returns
 * the directory, or NULL where localedef or the locale's source is
 * missing. */
static char *
build_locale (const char *lang,
              const char *charset)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-locale-XXXXXX", NULL);
  g_autofree char *name = g_strdup_printf ("%s.%s", lang, charset);
  g_autofree char *target = NULL;
  int status = -1;

  if (dir == NULL)
    return NULL;
  target = g_build_filename (dir, name, NULL);
  {
    const char *argv[] = { "localedef", "-i", lang, "-f", charset, target, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL,
                       G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                       NULL, NULL, NULL, NULL, &status, NULL)
        || !g_spawn_check_wait_status (status, NULL))
      {
        g_test_message ("localedef could not build %s", name);
        remove_tree (dir);
        return NULL;
      }
  }
  g_setenv ("LOCPATH", dir, TRUE);
  return g_steal_pointer (&dir);
}

/* The window's numbers in the locale's format: the decimal mark and the
 * grouping of a Russian (or German) locale, ASCII in C.  Skipped where no
 * such locale is installed. */
static void
test_locale_numbers (void)
{
  static const char * const locales[] = { "ru_RU.UTF-8", "de_DE.UTF-8" };
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *c_bytes = hr_locale_bytes (39.2 * HR_GIB, HR_UNITS_BINARY);
  g_autofree char *c_whole = hr_locale_whole (4096);
  const char *found = NULL;
  g_autofree char *locpath = NULL;

  g_assert_cmpstr (c_bytes, ==, "39.2 GiB");
  g_assert_cmpstr (c_whole, ==, "4096");
  /* The charts write their numbers as the labels do; the exported PNG
   * too, since it is what the user saw (headroom-cli's keep "39.2"). */
  {
    HrWindow *window = open_window ();
    HrChartStyle style;

    hr_chart_widget_get_style (hr_window_get_chart (window), &style);
    g_assert_true (style.number == hr_locale_number);
    hr_export_style_init (&style, HR_UNITS_BINARY);
    g_assert_true (style.number == hr_locale_number);
    close_window (window);
  }
  {
    g_autofree char *c_text = hr_locale_text ("with 39.2 GiB (49 %), Llama 3.1 8B");

    g_assert_cmpstr (c_text, ==, "with 39.2 GiB (49 %), Llama 3.1 8B");
  }
  for (guint i = 0; i < G_N_ELEMENTS (locales) && found == NULL; i++)
    if (setlocale (LC_NUMERIC, locales[i]) != NULL)
      found = locales[i];
  /* None installed (a bare CI machine): ru_RU.UTF-8 built from glibc's
   * sources into a temporary LOCPATH, as test-cli.sh does. */
  if (found == NULL)
    {
      locpath = build_locale ("ru_RU", "UTF-8");
      if (locpath != NULL && setlocale (LC_NUMERIC, "ru_RU.UTF-8") != NULL)
        found = "ru_RU.UTF-8 (built with localedef)";
    }
  if (found == NULL)
    {
      g_test_skip ("no ru_RU.UTF-8 or de_DE.UTF-8 locale installed, and localedef built none");
      return;
    }
  {
    g_autofree char *bytes = hr_locale_bytes (39.2 * HR_GIB, HR_UNITS_BINARY);
    g_autofree char *minus = hr_locale_number ("−1.15 TiB");
    g_autofree char *count = hr_locale_count (13015864320.0);
    g_autofree char *whole = hr_locale_whole (4096);
    g_autofree char *word = hr_locale_number ("GPU 0");
    g_autofree char *text = hr_locale_text ("Fits on 8x H100 SXM 80GB with 39.2 GiB (49 %) to spare; "
                                            "Llama 3.1 8B, 13.02 B parameters");

    g_test_message ("%s: %s, %s, %s, %s", found, bytes, minus, count, whole);
    g_assert_cmpstr (bytes, ==, "39,2 GiB");
    g_assert_cmpstr (minus, ==, "−1,15 TiB");
    g_assert_cmpstr (count, ==, "13,02 B");
    g_assert_cmpstr (whole, !=, "4096");   /* grouped: "4 096", "4.096" */
    g_assert_cmpstr (word, ==, "GPU 0");
    g_assert_cmpstr (text, ==, "Fits on 8x H100 SXM 80GB with 39,2 GiB (49 %) to spare; "
                               "Llama 3.1 8B, 13,02 B parameters");
  }
  setlocale (LC_NUMERIC, saved);
  if (locpath != NULL)
    {
      g_unsetenv ("LOCPATH");
      remove_tree (locpath);
    }
}

/* Editing the architecture turns the preset into a custom model. */
static void
test_custom_model (void)
{
  HrWindow *window = open_window ();

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.layers")), 20);
  settle ();
  g_assert_cmpstr (hr_scenario_model_get_scenario (hr_window_get_model (window))->model.preset, ==, "");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (control (window, "model.preset"))), ==, 0);
  close_window (window);
}

/* An encoder-decoder preset loads and plans: BART as it is, T5 once its
 * relative bias has the eager attention it needs (the form says why until
 * then); the decoder's rows appear with it. */
static void
test_encoder_decoder_preset (void)
{
  HrWindow *window = open_window ();
  GtkWidget *models = control (window, "model.preset");
  GtkWidget *attention = control (window, "training.attention");

  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "BART large"));
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 406291456);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (control (window, "model.decoder_layers")))
                 || gtk_widget_get_visible (control (window, "model.decoder_layers")));

  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "T5 base"));
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  /* attention's choices: flash, eager, sdpa (hr_attention_names) */
  adw_combo_row_set_selected (ADW_COMBO_ROW (attention), HR_ATTENTION_EAGER);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 222903552);
  close_window (window);
}

/* The section a model picker's item falls under: the heading its first
 * item carries (HR_FORM_SECTION), as the list shows it. */
static const char *
picker_section (GListModel *names,
                guint       index)
{
  for (guint i = index + 1; i-- > 0;)
    {
      g_autoptr(GObject) item = g_list_model_get_item (names, i);
      const char *section = g_object_get_data (item, HR_FORM_SECTION);

      if (section != NULL)
        return section;
    }
  return NULL;
}

static GtkWidget *
find_heading (GtkWidget  *widget,
              const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (c) && gtk_widget_has_css_class (c, "heading")
          && gtk_widget_get_visible (c) && g_str_equal (gtk_label_get_text (GTK_LABEL (c)), text))
        return c;
      if ((found = find_heading (c, text)) != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_scrolled (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = GTK_IS_SCROLLED_WINDOW (c) ? c : find_scrolled (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The model picker groups the presets by kind, each kind once and in the
 * picker's order, headed by its name, and within a kind by family; a
 * model chosen from it plans (Whisper with the lengths it takes). */
static void
test_model_picker_groups (void)
{
  static const struct { const char *name; const char *section; } placed[] = {
    { "Llama 2 13B", "Decoder" }, { "Qwen2.5 7B", "Decoder" }, { "Phi-2", "Decoder" },
    { "Mixtral 8x7B v0.1", "Mixture of experts" }, { "DeepSeek-V3 (MLA + MoE)", "Mixture of experts" },
    { "Qwen3 30B-A3B (MoE)", "Mixture of experts" }, { "T5 base", "Encoder-decoder" },
    { "BART large", "Encoder-decoder" }, { "Whisper large-v3", "Encoder-decoder" },
    { "BERT base uncased", "Encoder" }, { "ViT-H/14 (224, in21k)", "Vision" },
    { "Mamba 130M", "State-space and hybrid" }, { "Jamba Mini 1.5", "State-space and hybrid" },
    { "Llama 3.2 11B Vision", "Vision-language" },
  };
  HrWindow *window = open_window ();
  GtkWidget *models = control (window, "model.preset");
  GListModel *names = gtk_drop_down_get_model (GTK_DROP_DOWN (models));
  guint n = g_list_model_get_n_items (names), seen = 0, first_llama = 0, last_llama = 0;
  HrModelGroup last = 0;
  GtkWidget *popover = NULL;

  /* "Custom model" first, under no heading; then the groups in order,
   * each heading once. */
  g_assert_null (picker_section (names, 0));
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (names, i);
      const char *section = g_object_get_data (G_OBJECT (item), HR_FORM_SECTION);

      if (section != NULL)
        {
          HrModelGroup g = 0;

          while (g < HR_N_MODEL_GROUPS && !g_str_equal (section, hr_model_group_label (g)))
            g++;
          g_assert_cmpuint (g, <, HR_N_MODEL_GROUPS);
          g_assert_true (seen == 0 || g > last);
          last = g;
          seen++;
        }
      /* (Llama 3.2 Vision is a Llama of the vision-language group) */
      if (g_str_has_prefix (gtk_string_object_get_string (item), "Llama ")
          && seen == 1)
        {
          first_llama = first_llama ? first_llama : i;
          last_llama = i;
        }
    }
  g_assert_cmpuint (seen, ==, HR_N_MODEL_GROUPS);
  g_assert_nonnull (picker_section (names, 1));
  /* one family, one run: the 11 Llama decoders side by side */
  g_assert_cmpuint (last_llama - first_llama, ==, 10);
  for (guint i = 0; i < G_N_ELEMENTS (placed); i++)
    g_assert_cmpstr (picker_section (names, dropdown_index (models, placed[i].name)), ==,
                     placed[i].section);

  /* The list shows the headings (the first, Decoder, at its top). */
  for (GtkWidget *c = gtk_widget_get_first_child (models); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER (c))
      popover = c;
  g_assert_nonnull (popover);
  gtk_popover_popup (GTK_POPOVER (popover));
  settle ();
  g_assert_true (settle_until_mapped (popover));
  g_assert_nonnull (find_heading (popover, "Decoder"));
  maybe_screenshot (popover, "model-picker");
  if (g_getenv ("HEADROOM_TEST_SCREENSHOTS") != NULL)
    {
      GtkWidget *scrolled = find_scrolled (popover);
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      /* further down: the MoE and encoder-decoder headings */
      gtk_adjustment_set_value (adj, 0.66 * gtk_adjustment_get_upper (adj));
      settle ();
      maybe_screenshot (popover, "model-picker-2");
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
  settle ();

  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "Whisper large-v3"));
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 1543490560);
  g_assert_cmpuint (hr_scenario_model_get_scenario (hr_window_get_model (window))->training.seq_len,
                    ==, 1500);
  close_window (window);
}

/* State-space presets load and plan: Jamba's hybrid with its pattern's
 * rows, a pure Mamba model without attention rows to edit; a pattern
 * beyond the layers greys the plan with the reason. */
static void
test_state_space_preset (void)
{
  HrWindow *window = open_window ();
  GtkWidget *models = control (window, "model.preset");
  GtkWidget *ssm_targets = hr_form_get_row (hr_window_get_form (window), "training.lora.targets.ssm");

  /* The SSM linears' LoRA row only where the model has Mamba blocks (or a
   * file set one of them, to be cleared there). */
  g_assert_false (gtk_widget_get_visible (ssm_targets));
  {
    HrScenario sc = *hr_scenario_model_get_scenario (hr_window_get_model (window));
    HrScenario with_in_proj = sc;

    with_in_proj.training.method = HR_METHOD_LORA;
    with_in_proj.training.lora.targets |= HR_LORA_IN_PROJ;
    hr_scenario_model_set_scenario (hr_window_get_model (window), &with_in_proj);
    settle ();
    g_assert_false (hr_window_get_plan_valid (window));
    g_assert_true (gtk_widget_get_visible (ssm_targets));
    hr_scenario_model_set_scenario (hr_window_get_model (window), &sc);
    settle ();
    g_assert_false (gtk_widget_get_visible (ssm_targets));
  }
  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "Jamba Mini 1.5"));
  settle ();
  /* (the adapters' expander, folded under full fine-tuning, opens with
   * LoRA: the row shows) */
  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "training.method")), HR_METHOD_LORA);
  settle ();
  g_assert_true (gtk_widget_get_visible (ssm_targets));
  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "training.method")), HR_METHOD_FULL);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 51570323328);
  g_assert_cmpuint (hr_window_get_plan (window)->active_params, ==, 12110311296);
  g_assert_true (gtk_widget_is_sensitive (control (window, "model.attn_layer_period")));
  g_assert_true (gtk_widget_is_sensitive (control (window, "model.heads")));

  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "Mamba 130M"));
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 129135360);
  /* no attention layer: its heads are not the model's */
  g_assert_false (gtk_widget_is_sensitive (control (window, "model.heads")));
  g_assert_false (gtk_widget_is_sensitive (control (window, "model.ssm_heads")));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.attn_layer_period")), 30);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));

  /* Nemotron-H: its layer pattern in an entry row, the attention rows
   * editable (the pattern has attention blocks); a pattern that does not
   * match the layers is named by its label beside the row. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "Nemotron-H 8B"));
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 8100852736);
  g_assert_true (gtk_widget_is_sensitive (control (window, "model.heads")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (control (window, "model.layer_pattern"))), ==,
                   "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-");
  gtk_editable_set_text (GTK_EDITABLE (control (window, "model.layer_pattern")), "M-M*");
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  g_test_message ("over the chart: %s", hr_window_get_message (window));
  g_assert_true (g_str_has_prefix (hr_window_get_message (window), "Layer pattern: 4 blocks do not match"));
  g_assert_true (gtk_widget_has_css_class (hr_form_get_row (hr_window_get_form (window), "model.layer_pattern"),
                                           "error"));
  g_assert_false (gtk_widget_is_sensitive (control (window, "model.shared_blocks")));
  /* (no expert blocks: no latent to set) */
  g_assert_false (gtk_widget_is_sensitive (control (window, "model.moe_latent_size")));

  /* Nemotron 3 Nano: its expert blocks take a latent (Nemotron 3's latent
   * MoE), fewer parameters (test-params has the arithmetic) */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "Nemotron 3 Nano 30B-A3B"));
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_true (gtk_widget_is_sensitive (control (window, "model.moe_latent_size")));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.moe_latent_size")), 1024);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 31577937344 - 23 * 785121280ull);

  /* Zamba2: the shared blocks' rows editable (the pattern has S blocks);
   * the default plan's DeepSpeed ZeRO-3 plans, FSDP's is refused with the
   * field, ZeRO-1 plans, full fine-tuning or LoRA. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (models), dropdown_index (models, "Zamba2 2.7B"));
  settle ();
  g_assert_true (gtk_widget_is_sensitive (control (window, "model.shared_blocks")));
  g_assert_true (gtk_widget_is_sensitive (control (window, "model.shared_adapter_rank")));
  g_assert_true (hr_window_get_plan_valid (window));
  gtk_switch_set_active (GTK_SWITCH (control (window, "parallel.deepspeed")), FALSE);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  g_test_message ("over the chart: %s", hr_window_get_message (window));
  g_assert_nonnull (strstr (hr_window_get_message (window), "not planned with shared blocks under FSDP"));
  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "parallel.zero")), 1);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 2662214560);

  /* ... and under LoRA: gate without up is refused (one gate_up_proj),
   * both plan with the shared blocks' adapters once (test-params) */
  {
    HrScenario sc = *hr_scenario_model_get_scenario (hr_window_get_model (window));

    sc.training.method = HR_METHOD_LORA;
    sc.training.lora.rank = 16;
    sc.training.lora.targets = HR_LORA_Q | HR_LORA_GATE;
    hr_scenario_model_set_scenario (hr_window_get_model (window), &sc);
    settle ();
    g_assert_false (hr_window_get_plan_valid (window));
    g_test_message ("over the chart: %s", hr_window_get_message (window));
    g_assert_nonnull (strstr (hr_window_get_message (window), "gate without up"));
    sc.training.lora.targets = HR_LORA_ALL_LINEAR | HR_LORA_IN_PROJ;
    hr_scenario_model_set_scenario (hr_window_get_model (window), &sc);
    settle ();
    g_assert_true (hr_window_get_plan_valid (window));
    g_assert_cmpuint (hr_window_get_plan (window)->trainable_params, ==, 2375680 + 11238912);
  }
  close_window (window);
}

/* Save, change, open: the saved scenario comes back; exports write files
 * with the right content. */
static void
test_files (void)
{
  HrWindow *window = open_window ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-test-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "plan.json", NULL);
  g_autofree char *png = g_build_filename (dir, "plan.png", NULL);
  g_autofree char *csv = g_build_filename (dir, "plan.csv", NULL);
  g_autoptr(GFile) json_file = g_file_new_for_path (json);
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv);
  g_autoptr(GError) error = NULL;
  g_autofree char *csv_text = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 2);
  settle ();
  g_assert_true (hr_window_save_to (window, json_file, &error));
  g_assert_no_error (error);
  g_assert_false (hr_window_get_dirty (window));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 7);
  settle ();
  g_assert_true (hr_window_open_file (window, json_file, &error));
  g_assert_no_error (error);
  settle ();
  g_assert_cmpuint (hr_scenario_model_get_scenario (hr_window_get_model (window))->training.micro_batch,
                    ==, 2);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch"))),
                     ==, 2);
  g_assert_false (hr_window_get_dirty (window));

  g_assert_true (hr_window_export_png (window, png_file, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_file (png_file, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 3200);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, 1800);

  g_assert_true (hr_window_export_csv (window, csv_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv_text, "device,ranks,stage,category,item,bytes,gib\r\n"));
  g_assert_nonnull (strstr (csv_text, "\r\nGPU 0-7,8,0,total,total,"));

  g_remove (json);
  g_remove (png);
  g_remove (csv);
  g_rmdir (dir);
  close_window (window);
}

/* A file the chooser can give that has no local path (sftp:// without a
 * mount, resource://): every export, Save and Open refuse it with an
 * error, the one the window's dialog shows, and pass no NULL path on. */
static void
test_non_local_files (void)
{
  static const char * const uris[] = { "resource:///nonexistent.png",
                                       "sftp://example.invalid/plan.png" };
  HrWindow *window = open_window ();

  g_assert_true (hr_window_get_plan_valid (window));
  for (guint i = 0; i < G_N_ELEMENTS (uris); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      g_autofree char *path = g_file_get_path (file);
      gboolean (*exports[]) (HrWindow *, GFile *, GError **) = {
        hr_window_export_png, hr_window_export_report, hr_window_export_csv,
      };

      g_assert_null (path);
      for (guint e = 0; e < G_N_ELEMENTS (exports); e++)
        {
          g_autoptr(GError) error = NULL;

          g_assert_false (exports[e] (window, file, &error));
          g_assert_nonnull (error);
          g_test_message ("%s: %s", uris[i], error->message);
          g_assert_nonnull (strstr (error->message, "Only local files can be exported"));
        }
      {
        g_autoptr(GError) error = NULL;

        g_assert_false (hr_window_save_to (window, file, &error));
        g_assert_nonnull (error);
        g_clear_error (&error);
        g_assert_false (hr_window_open_file (window, file, &error));
        g_assert_nonnull (error);
      }
    }

  /* The error reaches the user as a dialog, as the chooser's callback
   * shows it for an export or a save. */
  {
    g_autoptr(GFile) file = g_file_new_for_uri (uris[1]);
    GListModel *toplevels;
    gboolean dialog = FALSE;

    hr_window_open_file_or_warn (window, file);
    settle ();
    toplevels = gtk_window_get_toplevels ();
    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

        if (ADW_IS_MESSAGE_DIALOG (w))
          {
            dialog = TRUE;
            g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (w)),
                                      "Only local files"));
            gtk_window_destroy (w);
          }
      }
    g_assert_true (dialog);
  }
  g_assert_true (hr_window_get_plan_valid (window));
  close_window (window);
}

/* A broken file gives an error dialog and leaves the window as it was. */
static void
test_invalid_file (void)
{
  HrWindow *window = open_window ();
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  int fd = g_file_open_tmp ("headroom-bad-XXXXXX.json", &path, NULL);
  gboolean dialog = FALSE;
  GListModel *toplevels;

  g_assert_cmpint (fd, >=, 0);
  const char *text = "{\"model\": {\"layers\": 0}}";

  g_assert_cmpint (write (fd, text, strlen (text)), ==, (gssize) strlen (text));
  close (fd);
  file = g_file_new_for_path (path);
  hr_window_open_file_or_warn (window, file);
  settle ();

  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w))
        {
          dialog = TRUE;
          g_test_message ("dialog: %s", adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (w)));
          /* The form's name for the field, and its key in the file */
          g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (w)),
                                    ": Layers (model.layers in the file): 0"));
          gtk_window_destroy (w);
        }
    }
  g_assert_true (dialog);
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_scenario_model_get_scenario (hr_window_get_model (window))->model.layers, ==, 40);
  g_remove (path);
  close_window (window);
}

/* The sweep view: exported as the view shown, CSV with one row a value. */
static void
test_sweep_view (void)
{
  HrWindow *window = open_window ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-sweep-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "sweep.csv", NULL);
  g_autofree char *png = g_build_filename (dir, "sweep.png", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv);
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  adw_view_stack_set_visible_child_name (hr_window_get_views (window), "sweep");
  settle ();
  maybe_screenshot (window, "sweep-view");
  g_assert_true (hr_window_export_csv (window, csv_file, &error));
  g_assert_no_error (error);
  g_assert_true (hr_window_export_png (window, png_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "micro_batch,parameters,gradients,optimizer,activations,overhead,total,status\r\n"));
  lines = g_strsplit (text, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 8);
  g_assert_true (g_str_has_prefix (lines[1], "1,"));
  g_remove (csv);
  g_remove (png);
  g_rmdir (dir);
  close_window (window);
}

/* The topmost pixel of any category's colour in column X, or -1. */
static int
band_top (const guchar *pixels,
          int           width,
          int           height,
          int           x)
{
  for (int y = 0; y < height; y++)
    for (guint c = 0; c < HR_N_CATEGORIES; c++)
      {
        HrRgb rgb = hr_chart_category_colour (c, FALSE);

        if (pixel_is (pixels + ((gsize) y * width + x) * 4, rgb.r, rgb.g, rgb.b))
          return y;
      }
  return -1;
}

/* The "Over time" view of the seed's example (Llama 2 13B, ZeRO-3, full
 * checkpointing, bf16, micro-batch 4, 8 GPUs): the peak is the phase with
 * the most live allocator memory, its column is the tallest on screen and
 * holds the bar's total; each band is drawn in its category's colour
 * where the chart says; the CSV has a row per phase.  An invalid input
 * greys it and draws no band, as on the plan's chart; a pipeline offers
 * its stages. */
static void
test_timeline_view (void)
{
  HrWindow *window = open_window ();
  AdwViewStack *views = hr_window_get_views (window);
  const HrScenario *sc = hr_scenario_model_get_scenario (hr_window_get_model (window));
  const HrDevice *d = hr_plan_binding (hr_window_get_plan (window));
  g_autofree char *dir = g_dir_make_tmp ("headroom-timeline-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "timeline.csv", NULL);
  g_autofree char *png = g_build_filename (dir, "timeline.png", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv);
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  HrTimelineView *view;
  GtkWidget *timeline;
  const HrTimelineGeometry *g;
  HrRgb orange = hr_chart_category_colour (HR_CATEGORY_ACTIVATIONS, FALSE);
  guint peak = 0;
  int width, height, tops[HR_N_PHASES];
  guchar *pixels;

  g_assert_cmpstr (sc->name, ==, "Llama 2 13B, ZeRO-3, 8x H100");
  g_assert_cmpuint (sc->parallel.zero, ==, 3);
  g_assert_cmpuint (sc->training.micro_batch, ==, 4);
  g_assert_cmpuint (sc->parallel.gpus, ==, 8);
  for (guint ph = 1; ph < HR_N_PHASES; ph++)
    if (d->phase_bytes[ph] > d->phase_bytes[peak])
      peak = ph;

  adw_view_stack_set_visible_child_name (views, "timeline");
  settle ();
  view = HR_TIMELINE_VIEW (adw_view_stack_get_visible_child (views));
  timeline = GTK_WIDGET (hr_timeline_view_get_widget (view));
  g_assert_true (settle_until_mapped (timeline));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (
    GTK_WIDGET (hr_timeline_view_get_device_choice (view)))));   /* one kind of GPU */
  maybe_screenshot (window, "timeline-view");
  g = hr_timeline_widget_get_geometry (HR_TIMELINE_WIDGET (timeline));
  g_assert_true (g->drawn);
  g_assert_cmpuint (g->peak_phase, ==, peak);
  g_assert_cmpuint (g->columns[peak].total, ==, d->total_bytes);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    g_assert_cmpuint (g->columns[peak].bytes[c], ==, d->category_bytes[c]);

  /* On screen: the peak's column rises highest, each column's top is
   * where the chart put it, and each band at the peak has its colour. */
  pixels = render_widget (timeline, &width, &height);
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    {
      int x = (int) (g->columns[ph].x + g->columns[ph].width * 0.8);

      tops[ph] = band_top (pixels, width, height, x);
      g_test_message ("%s: top at y = %d, drawn at %.1f", hr_phase_name (ph), tops[ph],
                      g->columns[ph].top);
      g_assert_cmpint (tops[ph], >=, 0);
      g_assert_cmpfloat (fabs (tops[ph] - g->columns[ph].top), <=, 2.0);
    }
  for (guint ph = 0; ph < HR_N_PHASES; ph++)
    if (ph != peak)
      g_assert_cmpint (tops[peak], <, tops[ph]);
  for (guint c = 0; c < HR_N_CATEGORIES; c++)
    {
      const HrTimelineColumn *col = &g->columns[peak];
      HrRgb rgb = hr_chart_category_colour (c, FALSE);
      int x = (int) (col->x + col->width * 0.8), y = (int) (col->segment_y[c] + col->segment_h[c] / 2);

      if (col->segment_h[c] < 4)
        continue;
      g_assert_true (pixel_is (pixels + ((gsize) y * width + x) * 4, rgb.r, rgb.g, rgb.b));
    }
  g_free (pixels);
  g_assert_cmpuint (count_widget_pixels (timeline, orange.r, orange.g, orange.b), >, 2000);

  g_assert_true (hr_window_export_csv (window, csv_file, &error));
  g_assert_no_error (error);
  g_assert_true (hr_window_export_png (window, png_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  lines = g_strsplit (text, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + HR_N_PHASES + 1);
  g_assert_cmpstr (lines[0], ==, "device,phase,parameters,gradients,optimizer,activations,"
                                 "overhead,total,peak");
  {
    g_autofree char *row = g_strdup_printf (",%" G_GUINT64_FORMAT ",true", d->total_bytes);

    g_assert_true (g_str_has_suffix (lines[1 + peak], row));
    g_assert_true (g_str_has_prefix (lines[1 + peak], "GPU 0-7,"));
  }

  /* Invalid: no plan, greyed, no band drawn; valid again: drawn again. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 48);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  g_assert_nonnull (hr_window_get_message (window));
  g_assert_null (hr_timeline_widget_get_plan (HR_TIMELINE_WIDGET (timeline)));
  g_assert_true (gtk_widget_has_css_class (timeline, "stale"));
  g_assert_cmpuint (count_widget_pixels (timeline, orange.r, orange.g, orange.b), ==, 0);
  maybe_screenshot (window, "timeline-invalid");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 40);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_false (gtk_widget_has_css_class (timeline, "stale"));
  g_assert_cmpuint (count_widget_pixels (timeline, orange.r, orange.g, orange.b), >, 2000);

  /* Two pipeline stages hold different memory: both can be shown. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "parallel.pp")), 2);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (hr_window_get_plan (window)->n_devices, ==, 2);
  {
    GtkDropDown *choice = hr_timeline_view_get_device_choice (view);
    const HrPlan *plan = hr_window_get_plan (window);
    guint other = plan->binding_device == 0 ? 1 : 0;

    g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (choice))));
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (choice)), ==, 2);
    g_assert_cmpuint (gtk_drop_down_get_selected (choice), ==, plan->binding_device);
    gtk_drop_down_set_selected (choice, other);
    settle ();
    g_assert_cmpuint (g->device, ==, other);
    g_assert_cmpuint (g->columns[g->peak_phase].total, ==, plan->devices[other].total_bytes);
    maybe_screenshot (window, "timeline-stages");
  }

  g_remove (csv);
  g_remove (png);
  g_rmdir (dir);
  close_window (window);
}

/* On a phone's 360 points the timeline is drawn within its width, and in
 * the dark style its bands take the dark palette. */
static void
test_timeline_phone_dark (void)
{
  HrWindow *window = open_window_sized (360, 640);
  AdwStyleManager *style = adw_style_manager_get_default ();
  HrTimelineView *view;
  GtkWidget *timeline;
  const HrTimelineGeometry *g;
  HrRgb light = hr_chart_category_colour (HR_CATEGORY_ACTIVATIONS, FALSE);
  HrRgb dark = hr_chart_category_colour (HR_CATEGORY_ACTIVATIONS, TRUE);
  graphene_rect_t r;

  adw_view_stack_set_visible_child_name (hr_window_get_views (window), "timeline");
  settle ();
  view = HR_TIMELINE_VIEW (adw_view_stack_get_visible_child (hr_window_get_views (window)));
  timeline = GTK_WIDGET (hr_timeline_view_get_widget (view));
  g = hr_timeline_widget_get_geometry (HR_TIMELINE_WIDGET (timeline));
  g_assert_true (bounds_in_window (timeline, window, &r));
  g_assert_cmpfloat (r.origin.x + r.size.width, <=, 360);
  g_assert_true (g->drawn);
  g_assert_cmpfloat (g->left, >, 0);
  g_assert_cmpfloat (g->right, <=, gtk_widget_get_width (timeline));
  g_assert_cmpfloat (g->columns[HR_N_PHASES - 1].x + g->columns[HR_N_PHASES - 1].width, <=,
                     g->right);
  maybe_screenshot (window, "timeline-phone");

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_cmpuint (count_widget_pixels (timeline, dark.r, dark.g, dark.b), >, 500);
  g_assert_cmpuint (count_widget_pixels (timeline, light.r, light.g, light.b), <, 100);
  maybe_screenshot (window, "timeline-dark");
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  settle ();
  close_window (window);
}

/* In Russian, with this build's catalogues (HEADROOM_LOCALEDIR): the
 * verdict, the views' names and the timeline's words are translated in a
 * window opened after the language is chosen.  In a process of its own,
 * since gettext keeps what it has looked up for the other tests. */
static void
test_russian (void)
{
  HrWindow *window;
  AdwViewStack *views;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, 0);
      g_test_trap_assert_passed ();
      return;
    }

  /* glibc reads LANGUAGE unless the locale is C; a new setlocale makes
   * gettext read its catalogues again. */
  g_setenv ("LANGUAGE", "ru", TRUE);
  setlocale (LC_MESSAGES, "");
  g_assert_cmpstr (_("Over Time"), ==, "Во времени");

  window = open_window ();
  views = hr_window_get_views (window);
  g_test_message ("verdict: %s", hr_window_get_summary (window));
  g_assert_true (g_str_has_prefix (hr_window_get_summary (window),
                                   "✓ Помещается на 8x H100 SXM 80GB"));
  g_assert_cmpstr (adw_view_stack_page_get_title (
                     adw_view_stack_get_page (views, adw_view_stack_get_child_by_name (views,
                                                                                    "timeline"))),
                   ==, "Во времени");
  maybe_screenshot (window, "russian");
  adw_view_stack_set_visible_child_name (views, "timeline");
  settle ();
  {
    HrTimelineView *view = HR_TIMELINE_VIEW (adw_view_stack_get_visible_child (views));
    const HrDevice *d = hr_plan_binding (hr_window_get_plan (window));
    g_autofree char *peak = hr_timeline_peak_label (d, HR_UNITS_BINARY);

    g_assert_true (hr_timeline_widget_get_geometry (hr_timeline_view_get_widget (view))->drawn);
    g_assert_true (g_str_has_prefix (peak, "пик: 42.9 GiB"));
  }
  maybe_screenshot (window, "russian-timeline");

  /* The validator's reasons in Russian too, by the form's labels. */
  adw_view_stack_set_visible_child_name (views, "plan");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 48);
  settle ();
  g_test_message ("over the chart: %s", hr_window_get_message (window));
  g_assert_cmpstr (hr_window_get_message (window), ==,
                   "Головы внимания: 48 не делит Скрытый размер = 5120; допустимо: делитель 5120");
  close_window (window);
}

/* A screenshot of the walk: into HEADROOM_TEST_SCREENSHOTS when set (how
 * the README's are made: build-aux/screenshots), else into the test log's
 * folder (HEADROOM_TEST_LOG_DIR/walk, which meson sets), and checked to
 * be there. */
static void
walk_screenshot (gpointer    window,
                 const char *name)
{
  const char *dir = g_getenv ("HEADROOM_TEST_SCREENSHOTS");
  g_autofree char *log_dir = NULL;
  g_autofree char *path = NULL;
  GStatBuf st;

  if (dir == NULL && g_getenv ("HEADROOM_TEST_LOG_DIR") != NULL)
    dir = log_dir = g_build_filename (g_getenv ("HEADROOM_TEST_LOG_DIR"), "walk", NULL);
  if (dir == NULL)
    {
      g_test_message ("no HEADROOM_TEST_LOG_DIR: no screenshot of %s", name);
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  path = save_screenshot (window, dir, name);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 1000);
  g_test_message ("screenshot: %s", path);
}

/* The window's content made width x height, as open_window_sized does. */
static void
resize_window (HrWindow *window,
               int       width,
               int       height)
{
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  settle ();
  gtk_window_set_default_size (GTK_WINDOW (window),
                               2 * width - gtk_widget_get_width (GTK_WIDGET (window)),
                               2 * height - gtk_widget_get_height (GTK_WIDGET (window)));
  settle ();
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, width);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), ==, height);
}

/* The presentation window open now, or NULL. */
static HrPresent *
find_present (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (HR_IS_PRESENT (w))
        return HR_PRESENT (w);
    }
  return NULL;
}

/* The issue's walk, as a user would take it, a screenshot at each stop:
 * the seed's example (13B, ZeRO-3, full checkpointing, bf16, micro-batch
 * 4, 8 GPUs) with its timeline and sweep; a phone's width; an invalid
 * input; a plan that does not fit, a suggestion applied, undone and
 * redone; the presentation; and the window in Russian.  The README's
 * screenshots are these (build-aux/screenshots). */
static void
test_walk (void)
{
  HrWindow *window;
  AdwViewStack *views;
  const HrScenario *sc;
  HrPresent *present;
  GtkWidget *row, *jump, *results, *focus;

  if (!g_test_subprocess ())
    {
      /* Its own process: it ends in another language. */
      g_test_trap_subprocess (NULL, 240 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      return;
    }

  /* 1. The example. */
  window = open_window ();
  views = hr_window_get_views (window);
  sc = hr_scenario_model_get_scenario (hr_window_get_model (window));
  g_assert_cmpstr (sc->name, ==, "Llama 2 13B, ZeRO-3, 8x H100");
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 13015864320);
  g_assert_cmpuint (sc->parallel.zero, ==, 3);
  g_assert_cmpint (sc->training.checkpointing, ==, HR_CHECKPOINTING_FULL);
  g_assert_cmpint (sc->training.precision, ==, HR_PRECISION_BF16_MIXED);
  g_assert_cmpuint (sc->training.micro_batch, ==, 4);
  g_assert_cmpuint (sc->parallel.gpus, ==, 8);
  g_assert_true (g_str_has_prefix (hr_window_get_summary (window), "✓ Fits on 8x H100"));
  g_assert_false (hr_window_get_dirty (window));
  walk_screenshot (window, "window");
  adw_view_stack_set_visible_child_name (views, "timeline");
  settle ();
  walk_screenshot (window, "timeline");
  adw_view_stack_set_visible_child_name (views, "sweep");
  settle ();
  walk_screenshot (window, "sweep");
  adw_view_stack_set_visible_child_name (views, "plan");
  settle ();

  /* 2. A phone's width: the plan, then the form. */
  resize_window (window, 360, 640);
  g_assert_true (hr_window_get_folded (window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (hr_window_get_chart (window))));
  g_assert_false (hr_window_get_dirty (window));
  walk_screenshot (window, "phone");
  hr_window_show_form (window, TRUE);
  settle ();
  g_assert_true (settle_until_mapped (GTK_WIDGET (hr_window_get_form (window))));
  walk_screenshot (window, "phone-form");
  hr_window_show_form (window, FALSE);
  resize_window (window, 1280, 800);
  g_assert_false (hr_window_get_folded (window));


  /* 3. An invalid input: the reason in place of the plan, the row marked;
   * undone, it is the example again. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "model.heads")), 48);
  settle ();
  g_assert_false (hr_window_get_plan_valid (window));
  row = hr_form_get_row (hr_window_get_form (window), "model.heads");
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  g_assert_true (g_str_has_prefix (hr_window_get_message (window), "Attention heads: 48 does not divide"));
  walk_screenshot (window, "invalid");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  settle ();
  g_assert_true (hr_window_get_plan_valid (window));
  g_assert_cmpuint (sc->model.heads, ==, 40);
  g_assert_cmpstr (sc->name, ==, "Llama 2 13B, ZeRO-3, 8x H100");

  /* 4. It does not fit; the first suggestion makes it fit, and its toast
   * offers Undo until Ctrl+Z takes the step back another way. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (control (window, "training.checkpointing")),
                              HR_CHECKPOINTING_NONE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 32);
  settle ();
  g_assert_false (hr_window_get_plan (window)->fits);
  g_assert_true (g_str_has_prefix (hr_window_get_summary (window), "✗ Does not fit"));
  /* The changes are below the pane's edge: the pill says so, and takes
   * the user there (the focus on the first Apply); it goes once they show. */
  jump = hr_window_get_jump_button (window);
  g_assert_true (wait_for_visible (jump, TRUE));
  walk_screenshot (window, "suggestions");
  gtk_widget_activate (jump);
  g_assert_true (wait_for_visible (jump, FALSE));
  run_for (400);   /* the scrolling's 250 ms animation */
  results = gtk_overlay_get_child (GTK_OVERLAY (gtk_widget_get_parent (jump)));
  {
    /* One step to the top (Home, a scrollbar click) brings it back, one to
     * the end takes it away: it follows the scrolling, not the last frame. */
    GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (results));
    double end = gtk_adjustment_get_value (v);

    gtk_adjustment_set_value (v, 0);
    g_assert_true (wait_for_visible (jump, TRUE));
    gtk_adjustment_set_value (v, end);
    g_assert_true (wait_for_visible (jump, FALSE));
  }
  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (results))),
                     >, 0);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (GTK_IS_BUTTON (focus));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focus)), ==, "_Apply");
  g_assert_nonnull (gtk_widget_get_ancestor (focus, HR_TYPE_SUGGESTIONS));
  walk_screenshot (window, "fixes");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-suggestion", "u", 0);
  settle ();
  g_test_message ("applied: %s", hr_window_get_last_toast (window));
  g_assert_true (g_str_has_prefix (hr_window_get_last_toast (window), "Applied “"));
  g_assert_true (hr_window_get_plan (window)->fits);
  g_assert_true (hr_window_has_undo_toast (window));
  walk_screenshot (window, "applied");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  settle ();
  g_assert_false (hr_window_has_undo_toast (window));
  g_assert_false (hr_window_get_plan (window)->fits);
  g_assert_cmpuint (sc->training.micro_batch, ==, 32);
  g_assert_cmpint (sc->training.checkpointing, ==, HR_CHECKPOINTING_NONE);
  walk_screenshot (window, "undone");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  settle ();
  g_assert_true (hr_window_get_plan (window)->fits);

  /* 5. The presentation, for a room of people who do not train models. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.present", NULL);
  settle ();
  present = find_present ();
  g_assert_nonnull (present);
  g_test_message ("present: %s / %s", hr_present_get_verdict (present),
                  hr_present_get_sentence (present));
  g_assert_true (g_str_has_prefix (hr_present_get_verdict (present), "✓ Fits, "));
  walk_screenshot (present, "present");
  gtk_window_destroy (GTK_WINDOW (present));
  settle ();
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();

  /* 6. In Russian (glibc reads LANGUAGE unless the locale is C). */
  g_setenv ("LANGUAGE", "ru", TRUE);
  setlocale (LC_MESSAGES, "");
  window = open_window ();
  views = hr_window_get_views (window);
  g_test_message ("ru: %s", hr_window_get_summary (window));
  g_assert_true (g_str_has_prefix (hr_window_get_summary (window), "✓ Помещается на 8x H100"));
  walk_screenshot (window, "ru");
  adw_view_stack_set_visible_child_name (views, "timeline");
  settle ();
  walk_screenshot (window, "ru-timeline");
  close_window (window);
}

/* The first mapped label under root whose text contains text. */
static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  for (GtkWidget *w = gtk_widget_get_first_child (root); w != NULL; w = gtk_widget_get_next_sibling (w))
    {
      GtkWidget *found;

      if (!gtk_widget_get_mapped (w))
        continue;
      if (GTK_IS_LABEL (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), text) != NULL)
        return w;
      if ((found = find_label (w, text)) != NULL)
        return found;
    }
  return NULL;
}

/* The mapped charts under root, in order; returns how many (at most 2). */
static guint
find_charts (GtkWidget  *root,
             GtkWidget **charts,
             guint       n)
{
  for (GtkWidget *w = gtk_widget_get_first_child (root); w != NULL && n < 2; w = gtk_widget_get_next_sibling (w))
    {
      if (!gtk_widget_get_mapped (w))
        continue;
      if (HR_IS_CHART_WIDGET (w))
        charts[n++] = w;
      else
        n = find_charts (w, charts, n);
    }
  return n;
}

/* Pin, change the micro-batch: the comparison says what changed in the
 * form's words ("Micro-batch 4 → 8"), heads its charts "Pinned" and
 * "Now" though both scenarios have the same name, shows both on one
 * scale with no gap under either, and the differences add up. */
static void
test_compare_view (void)
{
  HrWindow *window = open_window ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-compare-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "compare.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint64 before = hr_window_get_plan (window)->devices[0].total_bytes, after;
  g_autofree char *expected = NULL;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.pin", NULL);
  settle ();
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (hr_window_get_views (window)), ==, "compare");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (control (window, "training.micro_batch")), 8);
  settle ();
  after = hr_window_get_plan (window)->devices[0].total_bytes;
  g_assert_cmpuint (after, >, before);
  maybe_screenshot (window, "compare");
  {
    GtkWidget *page = adw_view_stack_get_child_by_name (hr_window_get_views (window), "compare");
    GtkWidget *charts[2], *now, *label;
    graphene_rect_t chart_r, now_r, a, b;

    g_assert_nonnull (find_label (page, "What changed"));
    label = find_label (page, "Micro-batch");
    g_assert_nonnull (label);
    g_assert_nonnull (find_label (page, "4 → 8"));
    g_assert_nonnull (find_label (page, "Pinned"));
    now = find_label (page, "Now");
    g_assert_nonnull (now);
    g_assert_cmpuint (find_charts (page, charts, 0), ==, 2);
    /* the second heading right under the first chart, the table right
     * under the second */
    g_assert_true (bounds_in_window (charts[0], window, &chart_r));
    g_assert_true (bounds_in_window (now, window, &now_r));
    g_assert_cmpfloat (now_r.origin.y - (chart_r.origin.y + chart_r.size.height), <, 24);
    g_assert_true (bounds_in_window (charts[1], window, &a));
    g_assert_true (bounds_in_window (find_label (page, "Fullest GPU"), window, &b));
    g_assert_cmpfloat (b.origin.y - (a.origin.y + a.size.height), <, 24);
  }
  g_assert_true (hr_window_export_csv (window, csv_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "category,pinned_bytes,now_bytes,difference_bytes\r\n"));
  expected = g_strdup_printf ("total,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT "\r\n",
                              before, after, (gint64) after - (gint64) before);
  g_assert_nonnull (strstr (text, expected));

  /* The PNG: both charts, named, and the tables below them (what each
   * holds is test-chart's /chart/compare-page). */
  {
    g_autofree char *png = g_build_filename (dir, "compare.png", NULL);
    g_autoptr(GFile) png_file = g_file_new_for_path (png);
    g_autoptr(GdkTexture) texture = NULL;

    g_assert_true (hr_window_export_png (window, png_file, &error));
    g_assert_no_error (error);
    texture = gdk_texture_new_from_file (png_file, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (texture), ==, 3200);
    g_assert_cmpint (gdk_texture_get_height (texture), ==, 1800);
    g_remove (png);
  }
  g_remove (csv);
  g_rmdir (dir);
  close_window (window);
}

/* A Hugging Face config becomes the model; a DeepSpeed config sets ZeRO;
 * a report is written; the presentation opens full screen. */
static void
test_import_report_present (void)
{
  HrWindow *window = open_window ();
  g_autofree char *hf = g_test_build_filename (G_TEST_DIST, "data", "hf", "mistral-7b-v0.1.json", NULL);
  g_autofree char *ds = g_test_build_filename (G_TEST_DIST, "data", "hf", "ds-zero3-offload.json", NULL);
  g_autoptr(GFile) hf_file = g_file_new_for_path (hf);
  g_autoptr(GFile) ds_file = g_file_new_for_path (ds);
  g_autofree char *dir = g_dir_make_tmp ("headroom-report-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "report.png", NULL);
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GListModel *toplevels;
  gboolean presented = FALSE;

  g_assert_true (hr_window_import_file (window, hf_file, &error));
  g_assert_no_error (error);
  settle ();
  g_assert_cmpuint (hr_window_get_plan (window)->params, ==, 7241732096);
  g_assert_true (hr_window_import_file (window, ds_file, &error));
  g_assert_no_error (error);
  settle ();
  g_assert_cmpuint (hr_scenario_model_get_scenario (hr_window_get_model (window))->parallel.zero, ==, 3);
  g_assert_true (hr_window_get_dirty (window));

  g_assert_true (hr_window_export_report (window, png_file, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_file (png_file, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 3200);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.present", NULL);
  settle ();
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w))
        gtk_window_destroy (w);   /* the "not imported" notes */
      else if (g_strcmp0 (gtk_window_get_title (w), "Presentation") == 0)
        {
          presented = TRUE;
          gtk_window_destroy (w);
        }
    }
  g_assert_true (presented);
  g_remove (png);
  g_rmdir (dir);
  close_window (window);
}

static gboolean
has_descendant_of_type (GtkWidget *widget,
                        GType      type)
{
  for (GtkWidget *w = gtk_widget_get_first_child (widget); w != NULL; w = gtk_widget_get_next_sibling (w))
    if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) || has_descendant_of_type (w, type))
      return TRUE;
  return FALSE;
}

/* The presentation speaks to people who do not train models: the verdict
 * in plain words, the scenario in a sentence, a bar per distinct GPU, and
 * none of the engineering chart (items, formulas). */
static void
test_present_for_a_meeting (void)
{
  HrScenario scenarios[3];
  HrPresent *present;
  const char *verdict;

  hr_scenario_init_default (&scenarios[0]);
  scenarios[1] = scenarios[0];
  scenarios[1].training.micro_batch = 32;
  scenarios[1].training.checkpointing = HR_CHECKPOINTING_NONE;
  hr_scenario_init_default (&scenarios[2]);
  scenarios[2].parallel.gpus = 16;
  scenarios[2].parallel.pp = 2;
  scenarios[2].parallel.zero = 1;
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    hr_scenario_set_generated_name (&scenarios[i]);

  present = HR_PRESENT (hr_present_new (NULL, scenarios, 3, 0, HR_UNITS_BINARY));
  gtk_window_present (GTK_WINDOW (present));
  settle ();
  verdict = hr_present_get_verdict (present);
  g_test_message ("%s / %s", verdict, hr_present_get_sentence (present));
  g_assert_true (g_str_has_prefix (verdict, "✓ Fits, "));
  g_assert_true (g_str_has_suffix (verdict, " to spare on every GPU"));
  g_assert_cmpstr (hr_present_get_sentence (present), ==,
                   "Full fine-tuning of Llama 2 13B on 8 H100 SXM 80GB GPUs, 4 sequences of 4096 "
                   "tokens at a time on each GPU.");
  g_assert_cmpuint (hr_present_chart_get_n_bars (hr_present_get_chart (present)), ==, 1);
  g_assert_false (has_descendant_of_type (GTK_WIDGET (present), HR_TYPE_CHART_WIDGET));
  maybe_screenshot (present, "present-meeting");

  hr_present_step (present, 1);
  settle ();
  verdict = hr_present_get_verdict (present);
  g_test_message ("%s", verdict);
  g_assert_true (g_str_has_prefix (verdict, "✗ Does not fit: "));
  g_assert_true (g_str_has_suffix (verdict, " over on GPU 0-7"));
  g_assert_nonnull (strstr (hr_present_get_sentence (present), "32 sequences of 4096 tokens"));
  maybe_screenshot (present, "present-over");
  /* What does not fit is framed in red, not tinted: the activations past
   * the capacity line keep the legend's orange (a red layer over them
   * once made them a colour the legend does not have). */
  {
    GtkWidget *chart = GTK_WIDGET (hr_present_get_chart (present));
    guint orange = count_widget_pixels (chart, 0.902, 0.624, 0.0);
    guint tinted = count_widget_pixels (chart, 0.834, 0.393, 0.072);
    guint red = count_widget_pixels (chart, 0.75, 0.11, 0.16);

    g_test_message ("over capacity: %u orange, %u tinted, %u red pixels", orange, tinted, red);
    g_assert_cmpuint (tinted, ==, 0);
    g_assert_cmpuint (orange, >, 10000);
    g_assert_cmpuint (red, >, 1000);
  }

  /* Two pipeline stages: two distinct GPUs, two bars. */
  hr_present_step (present, 1);
  settle ();
  g_assert_cmpuint (hr_present_chart_get_n_bars (hr_present_get_chart (present)), ==, 2);
  g_assert_nonnull (strstr (hr_present_get_sentence (present), "on 16 H100 SXM 80GB GPUs"));
  maybe_screenshot (present, "present-stages");

  /* Round the list, both ways. */
  hr_present_step (present, 1);
  g_assert_true (g_str_has_prefix (hr_present_get_verdict (present), "✓ Fits, "));
  hr_present_step (present, -1);
  g_assert_cmpuint (hr_present_chart_get_n_bars (hr_present_get_chart (present)), ==, 2);
  gtk_window_destroy (GTK_WINDOW (present));
  settle ();
}

/* A preset folder with a broken file: the app still starts, the file is
 * named in a dialog, the other presets are there. */
static void
test_broken_presets (void)
{
  g_autofree char *folder = g_build_filename (g_get_user_data_dir (), "headroom", "presets",
                                              "models", NULL);
  g_autofree char *path = g_build_filename (folder, "broken.json", NULL);
  HrWindow *window;
  GListModel *toplevels;
  gboolean named = FALSE;

  g_autofree char *profiles = g_build_filename (g_get_user_data_dir (), "headroom", "presets",
                                                "frameworks", NULL);
  g_autofree char *profile = g_build_filename (profiles, "bad-value.json", NULL);
  g_autoptr(HrPresets) presets = hr_presets_new_default ();
  gboolean profile_named = FALSE;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "{\"model\": {\"layers\": ", -1, NULL));
  /* a profile that parses, with a value no field takes */
  g_assert_cmpint (g_mkdir_with_parents (profiles, 0700), ==, 0);
  g_assert_true (g_file_set_contents (profile, "{\"name\": \"Bad\", \"values\": [{\"set\": "
                                      "\"training.loss=bogus\", \"source\": \"s\"}]}", -1, NULL));
  hr_frameworks_load (presets);   /* as at a start with these files */
  window = open_window ();
  g_assert_true (hr_window_warn_broken_presets (window));
  settle ();
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w))
        {
          const char *body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (w));

          g_test_message ("%s", body);
          named = strstr (body, "broken.json") != NULL;
          profile_named = strstr (body, "bad-value.json: values[0]: training.loss") != NULL;
          gtk_window_destroy (w);
        }
    }
  g_assert_true (named);
  g_assert_true (profile_named);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (
                      GTK_DROP_DOWN (control (window, "model.preset")))), >, 25);
  g_remove (path);
  g_remove (profile);
  close_window (window);
  hr_frameworks_load (presets);   /* the later tests', without it */
}

static gsize
resident_kib (void)
{
  g_autofree char *statm = NULL;
  g_auto(GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    return 0;
  fields = g_strsplit (statm, " ", -1);
  return (gsize) g_ascii_strtoull (fields[1], NULL, 10) * (sysconf (_SC_PAGESIZE) / 1024);
}

/* Garbage typed into every field, huge numbers pasted, presets switched
 * as fast as the main loop turns, for HEADROOM_STRESS_SECONDS (60 by
 * default): no crash, no warning (they are fatal here), memory flat. */
static void
test_stress (void)
{
  static const char * const garbage[] = { "abc", "-1", "1e309", "99999999999999999999999999",
                                          "", "NaN", "4k", "0", "3.5", "18446744073709551617" };
  HrWindow *window = open_window ();
  HrForm *form = hr_window_get_form (window);
  g_autoptr(GPtrArray) paths = hr_form_list_controls (form);
  GtkDropDown *models = GTK_DROP_DOWN (control (window, "model.preset"));
  GtkDropDown *gpus = GTK_DROP_DOWN (control (window, "gpu.preset"));
  guint n_models = g_list_model_get_n_items (gtk_drop_down_get_model (models));
  guint n_gpus = g_list_model_get_n_items (gtk_drop_down_get_model (gpus));
  const char *env = g_getenv ("HEADROOM_STRESS_SECONDS");
  double seconds = env != NULL ? g_ascii_strtod (env, NULL) : 60;
  GRand *rand = g_rand_new_with_seed (42);
  gint64 start = g_get_monotonic_time (), warm = start + 0.2 * seconds * G_USEC_PER_SEC;
  gint64 end = start + seconds * G_USEC_PER_SEC;
  gsize rss_warm = 0, rss_end;
  guint rounds = 0;
  g_autofree char *huge = g_strnfill (100000, 'x');

  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  while (g_get_monotonic_time () < end)
    {
      const char *path = g_ptr_array_index (paths, g_rand_int_range (rand, 0, paths->len));
      GtkWidget *w = hr_form_get_control (form, path);

      if (GTK_IS_SPIN_BUTTON (w))
        {
          gtk_editable_set_text (GTK_EDITABLE (w), garbage[g_rand_int_range (rand, 0, G_N_ELEMENTS (garbage))]);
          gtk_spin_button_update (GTK_SPIN_BUTTON (w));
        }
      else if (ADW_IS_ENTRY_ROW (w))
        gtk_editable_set_text (GTK_EDITABLE (w), g_rand_boolean (rand) ? huge : "\n\t\"{}");
      else if (GTK_IS_SWITCH (w))
        gtk_switch_set_active (GTK_SWITCH (w), g_rand_boolean (rand));
      else if (GTK_IS_TOGGLE_BUTTON (w))
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (w), g_rand_boolean (rand));
      else if (ADW_IS_COMBO_ROW (w))
        adw_combo_row_set_selected (ADW_COMBO_ROW (w), g_rand_int_range (rand, 0, 12));
      else if (GTK_IS_DROP_DOWN (w) && g_str_equal (path, "training.framework"))
        gtk_drop_down_set_selected (GTK_DROP_DOWN (w), g_rand_int_range (rand, 0, 4));

      if (rounds % 3 == 0)
        gtk_drop_down_set_selected (models, g_rand_int_range (rand, 1, n_models));
      if (rounds % 5 == 0)
        gtk_drop_down_set_selected (gpus, g_rand_int_range (rand, 1, n_gpus));
      while (g_main_context_iteration (NULL, FALSE))
        ;
      rounds++;
      if (rss_warm == 0 && g_get_monotonic_time () > warm)
        rss_warm = resident_kib ();
    }
  settle ();
  rss_end = resident_kib ();
  g_test_message ("%u changes in %.0f s; resident memory %zu KiB after warm-up, %zu KiB at the end",
                  rounds, seconds, rss_warm, rss_end);
  g_assert_cmpuint (rounds, >, 0);
  /* Flat: less than 32 MiB of growth after the warm-up. */
  g_assert_cmpuint (rss_end, <, rss_warm + 32 * 1024);
  g_rand_free (rand);
  close_window (window);
}

/* The error bar under the verdict comes from the measured runs of the
 * plan's kind, and the tooltip lists exactly those runs: the default
 * scenario (DeepSpeed ZeRO-3) has two, ColossalAI's Lightning benchmark
 * under DeepSpeed; accelerate's FSDP of it has none, and says so, naming
 * the nearest kind (torchtitan's five FSDP2 runs); LoRA with LitGPT on one
 * GPU has eight runs like it. */
static void
test_error_bar (void)
{
  HrPresets *presets = hr_presets_new_default ();
  GtkWidget *verdict = g_object_ref_sink (hr_verdict_new ());
  g_autoptr(HrPlan) plan = hr_plan_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *tooltip;
  HrScenario sc;

  g_assert_true (hr_scenario_load_preset (&sc, "default", presets, &error));
  g_assert_true (hr_calc_plan (&sc, plan, &error));
  hr_verdict_show_plan (HR_VERDICT (verdict), &sc, plan, HR_UNITS_BINARY);
  g_assert_nonnull (strstr (hr_verdict_get_details (HR_VERDICT (verdict)),
                            "on 2 measured runs like this (DeepSpeed, full fine-tuning, ZeRO/FSDP sharded))"));
  tooltip = hr_verdict_get_details_tooltip (HR_VERDICT (verdict));
  g_assert_true (g_str_has_prefix (tooltip, "Headroom against the measured runs like this (DeepSpeed, full "
                                            "fine-tuning, ZeRO/FSDP sharded)"));
  lines = g_strsplit (tooltip, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 2);
  g_assert_nonnull (strstr (tooltip, "colossalai-pl-gpt2-12b-deepspeed-zero3-8xa100"));
  g_clear_pointer (&lines, g_strfreev);

  sc.parallel.deepspeed = FALSE;
  g_assert_true (hr_framework_apply (hr_framework_find ("accelerate-fsdp"), &sc, presets, &error));
  g_assert_true (hr_calc_plan (&sc, plan, &error));
  hr_verdict_show_plan (HR_VERDICT (verdict), &sc, plan, HR_UNITS_BINARY);
  g_assert_nonnull (strstr (hr_verdict_get_details (HR_VERDICT (verdict)),
                            "(error bar: no measured run like this (nearest: torchtitan, full "
                            "fine-tuning, ZeRO/FSDP sharded: median "));
  tooltip = hr_verdict_get_details_tooltip (HR_VERDICT (verdict));
  g_assert_true (g_str_has_prefix (tooltip, "No measured run like this (accelerate FSDP, full "
                                            "fine-tuning, ZeRO/FSDP sharded)"));
  lines = g_strsplit (tooltip, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 5);
  g_assert_nonnull (strstr (tooltip, "torchtitan-llama31-8b-fsdp8-sac-op-compile-float8"));
  g_assert_nonnull (strstr (tooltip, "torchtitan-llama31-8b-fsdp8-cp1-full-compile-float8"));
  g_assert_null (strstr (tooltip, "lora"));

  sc.parallel.deepspeed = FALSE;
  sc.parallel.gpus = 1;
  sc.parallel.zero = 0;
  sc.training.method = HR_METHOD_LORA;
  g_assert_true (hr_framework_apply (hr_framework_find ("litgpt"), &sc, presets, &error));
  g_assert_true (hr_calc_plan (&sc, plan, &error));
  hr_verdict_show_plan (HR_VERDICT (verdict), &sc, plan, HR_UNITS_BINARY);
  g_assert_nonnull (strstr (hr_verdict_get_details (HR_VERDICT (verdict)),
                            "on 8 measured runs like this (LitGPT, LoRA, single GPU))"));
  g_clear_pointer (&lines, g_strfreev);
  lines = g_strsplit (hr_verdict_get_details_tooltip (HR_VERDICT (verdict)), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 8);

  g_object_unref (verdict);
  hr_presets_free (presets);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      /* TAP's way to skip a whole program. */
      printf ("1..0 # SKIP no display: run under xvfb-run (build-aux/test does)\n");
      return 0;
    }
  /* The window's strings in this build's catalogues, as main.c binds
   * them; English while the locale is C (the other tests). */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("HEADROOM_LOCALEDIR") != NULL
                                   ? g_getenv ("HEADROOM_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* g_dgettext() decides once, at its first call, whether to translate at
   * all: not when the default domain has no catalogue for a locale that
   * is neither C nor English, which C.UTF-8 is.  Let it decide with a
   * catalogue in view, so that /window/russian can switch to Russian. */
  g_setenv ("LANGUAGE", "ru", TRUE);
  setlocale (LC_MESSAGES, "");
  (void) g_dgettext (GETTEXT_PACKAGE, "Over Time");
  g_unsetenv ("LANGUAGE");
  setlocale (LC_MESSAGES, "");
  gtk_init ();
  adw_init ();
  /* What AdwApplication loads for the app from its resource base path. */
  {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/io/github/headroom/Headroom/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

  g_test_add_func ("/window/opens", test_opens);
  g_test_add_func ("/window/first-frame-shows-the-plan", test_first_frame_shows_the_plan);
  g_test_add_func ("/window/error-bar", test_error_bar);
  g_test_add_func ("/window/micro-batch-overflow", test_micro_batch_overflow);
  g_test_add_func ("/window/zero-stage", test_zero_stage);
  g_test_add_func ("/window/every-field-has-a-row", test_every_field_has_a_row);
  g_test_add_func ("/window/gpu-preset", test_gpu_preset);
  g_test_add_func ("/window/framework", test_framework);
  g_test_add_func ("/window/one-recompute-per-turn", test_one_recompute_per_turn);
  g_test_add_func ("/window/invalid-value", test_invalid_value);
  g_test_add_func ("/window/rows-built-when-needed", test_rows_built_when_needed);
  g_test_add_func ("/window/rows-after-first-frame", test_rows_after_first_frame);
  g_test_add_func ("/window/adapters-expander", test_adapters_expander);
  g_test_add_func ("/window/custom-model", test_custom_model);
  g_test_add_func ("/window/encoder-decoder-preset", test_encoder_decoder_preset);
  g_test_add_func ("/window/state-space-preset", test_state_space_preset);
  g_test_add_func ("/window/model-picker-groups", test_model_picker_groups);
  g_test_add_func ("/window/comm-buffers-automatic", test_comm_buffers_automatic);
  g_test_add_func ("/window/blas-workspace-row", test_blas_workspace_row);
  g_test_add_func ("/window/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/window/main-menu", test_main_menu);
  g_test_add_func ("/window/locale-numbers", test_locale_numbers);
  g_test_add_func ("/window/name-follows", test_name_follows);
  g_test_add_func ("/window/discard-asks", test_discard_asks);
  g_test_add_func ("/window/fits-the-screen", test_fits_the_screen);
  g_test_add_func ("/window/chart-fills-the-pane", test_chart_fills_the_pane);
  g_test_add_func ("/window/wheel-scrolls-the-form", test_wheel_scrolls_the_form);
  g_test_add_func ("/window/undo", test_undo);
  g_test_add_func ("/window/files", test_files);
  g_test_add_func ("/window/invalid-file", test_invalid_file);
  g_test_add_func ("/window/non-local-files", test_non_local_files);
  g_test_add_func ("/window/timeline-view", test_timeline_view);
  g_test_add_func ("/window/timeline-phone-dark", test_timeline_phone_dark);
  g_test_add_func ("/window/russian", test_russian);
  g_test_add_func ("/window/sweep-view", test_sweep_view);
  g_test_add_func ("/window/compare-view", test_compare_view);
  g_test_add_func ("/window/import-report-present", test_import_report_present);
  g_test_add_func ("/window/present-for-a-meeting", test_present_for_a_meeting);
  g_test_add_func ("/window/broken-presets", test_broken_presets);
  g_test_add_func ("/window/walk", test_walk);
  g_test_add_func ("/window/stress", test_stress);
  return g_test_run ();
}
