/* hr-cli-options.h: headroom-cli's options, parsed and checked
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-format.h"

G_BEGIN_DECLS

/* What the command line gave, as GOption left it (NULL where absent). */
typedef struct
{
  char   *preset;
  char  **sets;
  char   *format;
  char   *png;
  char   *chart;
  char   *report;
  char   *solve;
  gboolean check;
  char   *import_hf;
  char   *import_ds;
  char   *import;       /* any format, detected */
  char   *framework;
  char   *list;
  char   *units;
  char   *validate;
  gboolean suggest;
  char   *sweep;
  gboolean version;
  char  **files;
} HrCliOptions;

int  hr_cli_options_parse (HrCliOptions   *o,
                           int            *argc,
                           char         ***argv);
int  hr_cli_options_check (const HrCliOptions *o,
                           HrUnits            *units,
                           guint              *solve);
void hr_cli_options_clear (HrCliOptions   *o);

G_END_DECLS
