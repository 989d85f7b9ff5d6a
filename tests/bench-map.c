/* bench-map.c: how long until a window is on screen, Headroom's against a
 * bare libadwaita one
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-map bare|headroom: starts GTK and libadwaita, builds either an
 * AdwApplicationWindow with a header bar and a label, or Headroom's
 * window with its example planned, presents it, and prints the
 * milliseconds from main() to the window's first frame (its frame clock's
 * first "after-paint") and the most memory it has had resident by then,
 * then quits.  Run it a few times under Xvfb (the
 * benchmark does, build-aux/bench-map.sh prints the medians); the process
 * as a whole is timed by the caller.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hr-window.h"

static gint64 start_us;
static gint64 built_us;
static gint64 mapped_us;
static GMainLoop *loop;

/* The most memory the process has had resident so far, in KiB (Linux's
 * VmHWM in /proc/self/status; 0 where there is none). */
static long
peak_resident_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmHWM:");
  return line != NULL ? strtol (line + strlen ("VmHWM:"), NULL, 10) : 0;
}

static void
after_paint (GdkFrameClock *clock,
             gpointer       user_data)
{
  GtkWidget *window = user_data;

  if (!gtk_widget_get_mapped (window))
    return;
  printf ("%s: built %.1f ms, mapped %.1f ms, first frame %.1f ms after main(), peak resident %ld KiB\n",
          (const char *) g_object_get_data (G_OBJECT (window), "kind"),
          (built_us - start_us) / 1000.0, (mapped_us - start_us) / 1000.0,
          (g_get_monotonic_time () - start_us) / 1000.0, peak_resident_kib ());
  g_signal_handlers_disconnect_by_func (clock, after_paint, user_data);
  g_main_loop_quit (loop);
}

static void
on_map (GtkWidget *window,
        gpointer   user_data)
{
  mapped_us = g_get_monotonic_time ();
}

static void
on_realize (GtkWidget *window,
            gpointer   user_data)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint),
                    window);
}

static GtkWidget *
bare_window (void)
{
  GtkWidget *window = adw_application_window_new (NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), gtk_label_new ("Hello"));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  return window;
}

int
main (int   argc,
      char *argv[])
{
  GtkWidget *window;
  const char *kind = argc > 1 ? argv[1] : "bare";

  start_us = g_get_monotonic_time ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  if (strcmp (kind, "bare") != 0 && strcmp (kind, "headroom") != 0)
    {
      fprintf (stderr, "usage: bench-map bare|headroom\n");
      return 2;
    }
  gtk_init ();
  adw_init ();
  loop = g_main_loop_new (NULL, FALSE);
  if (strcmp (kind, "headroom") == 0)
    {
      /* What AdwApplication loads for the app from its resource base path. */
      g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

      gtk_css_provider_load_from_resource (css, "/io/github/headroom/Headroom/style.css");
      gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                  GTK_STYLE_PROVIDER (css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
      window = GTK_WIDGET (hr_window_new (NULL));
    }
  else
    window = bare_window ();
  built_us = g_get_monotonic_time ();
  g_object_set_data (G_OBJECT (window), "kind", (gpointer) kind);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
  g_signal_connect (window, "map", G_CALLBACK (on_map), NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_main_loop_run (loop);
  gtk_window_destroy (GTK_WINDOW (window));
  g_main_loop_unref (loop);
  return 0;
}
