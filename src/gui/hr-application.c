/* hr-application.c: the Headroom application
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One window per activation; files given on the command line open in
 * windows of their own.  The app menu's Preferences, Keyboard Shortcuts
 * and About live here, and the colour scheme follows the preference.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "hr-preferences.h"
#include "hr-window.h"

struct _HrApplication
{
  AdwApplication parent_instance;
  GSettings     *settings;
};

G_DEFINE_FINAL_TYPE (HrApplication, hr_application, ADW_TYPE_APPLICATION)

static void
apply_color_scheme (HrApplication *self)
{
  g_autofree char *scheme = g_settings_get_string (self->settings, "color-scheme");
  AdwColorScheme value = ADW_COLOR_SCHEME_DEFAULT;

  if (g_strcmp0 (scheme, "light") == 0)
    value = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (scheme, "dark") == 0)
    value = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), value);
}

static void
hr_application_activate (GApplication *app)
{
  HrWindow *window = hr_window_new (ADW_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  hr_window_warn_broken_presets (window);
}

static void
hr_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      HrWindow *window = hr_window_new (ADW_APPLICATION (app));

      gtk_window_present (GTK_WINDOW (window));
      hr_window_open_file_or_warn (window, files[i]);
    }
}

static void
action_quit (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  /* Each window asks about its own unsaved changes. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
action_about (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  static const char *developers[] = { "The Headroom developers", NULL };
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  adw_show_about_window (parent,
                         "application-name", _("Headroom"),
                         "application-icon", APP_ID,
                         "developer-name", "The Headroom developers",
                         "developers", developers,
                         "version", PACKAGE_VERSION,
                         "comments", _("Plan GPU memory before you train: see where the memory of "
                                       "every GPU goes and whether the run fits."),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
action_preferences (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GtkWidget *prefs = hr_preferences_new (parent);

  gtk_window_present (GTK_WINDOW (prefs));
}

static void
hr_application_startup (GApplication *app)
{
  HrApplication *self = HR_APPLICATION (app);
  static const GActionEntry entries[] = {
    { "quit", action_quit },
    { "about", action_about },
    { "preferences", action_preferences },
  };
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "win.new", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.export-png", { "<Control>e", NULL } },
    { "win.export-csv", { "<Control><Shift>e", NULL } },
    { "win.pin", { "<Control>p", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y" } },
    { "win.import", { "<Control>i", NULL } },
    { "win.export-report", { "<Control>r", NULL } },
    { "win.present", { "F5", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
    { "window.close", { "<Control>w", NULL } },
  };

  G_APPLICATION_CLASS (hr_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);

  self->settings = g_settings_new (APP_ID);
  g_signal_connect_swapped (self->settings, "changed::color-scheme",
                            G_CALLBACK (apply_color_scheme), self);
  apply_color_scheme (self);
}

static void
hr_application_finalize (GObject *object)
{
  HrApplication *self = HR_APPLICATION (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (hr_application_parent_class)->finalize (object);
}

static void
hr_application_class_init (HrApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = hr_application_finalize;
  app_class->activate = hr_application_activate;
  app_class->open = hr_application_open;
  app_class->startup = hr_application_startup;
}

static void
hr_application_init (HrApplication *self)
{
}

HrApplication *
hr_application_new (void)
{
  return g_object_new (HR_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/headroom/Headroom",
                       NULL);
}
