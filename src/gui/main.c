/* main.c: the headroom program
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "hr-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  const char *localedir = g_getenv ("HEADROOM_LOCALEDIR");

  /* HEADROOM_LOCALEDIR: a build tree's translations, as headroom-cli reads
   * them (screenshots of a translated window without installing). */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir
                                                                            : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = hr_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
