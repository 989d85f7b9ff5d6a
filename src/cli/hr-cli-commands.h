/* hr-cli-commands.h: headroom-cli's commands other than planning
 *
 * --list (hr-cli-list.c), --solve, --suggest, --sweep and --validate
 * (hr-cli-commands.c).
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-format.h"
#include "hr-presets.h"
#include "hr-scenario.h"
#include "hr-solver.h"

G_BEGIN_DECLS

#define EXIT_PLANNED 0
#define EXIT_BAD_INPUT 2
#define EXIT_OVER_CAPACITY 3

char *hr_cli_shown              (const char       *text);
void  hr_cli_note               (const char       *format,
                                 ...) G_GNUC_PRINTF (1, 2);
int   hr_cli_bad_input          (const char       *message);
int   hr_cli_print_solve        (const HrScenario *scenario,
                                 HrSolve           solve,
                                 const char       *format,
                                 gboolean          check);
int   hr_cli_print_suggestions  (const HrScenario *scenario,
                                 const char       *format,
                                 HrUnits           units);
int   hr_cli_print_sweep        (const HrScenario *scenario,
                                 const char       *axis,
                                 const char       *format,
                                 const char       *png,
                                 HrUnits           units);
int   hr_cli_list               (HrPresets        *presets,
                                 const char       *what);
int   hr_cli_validate_runs      (HrPresets        *presets,
                                 const char       *path,
                                 const char       *format);

G_END_DECLS
