/* hr-presets.h: the bundled and the user's preset folders
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_PRESET_MODEL,
  HR_PRESET_GPU,
  HR_PRESET_SCENARIO,
  HR_PRESET_FRAMEWORK,
  HR_N_PRESET_KINDS
} HrPresetKind;

typedef struct _HrPresets HrPresets;

typedef struct
{
  char *id;
  char *name;
  char *path;
} HrPresetInfo;

HrPresets   *hr_presets_new_default   (void);
HrPresets   *hr_presets_new           (const char * const *dirs);
void         hr_presets_free          (HrPresets     *presets);

char        *hr_presets_find          (HrPresets     *presets,
                                       HrPresetKind   kind,
                                       const char    *id,
                                       GError       **error);
/* Every folder's file for ID, highest priority first (the user's own
 * before the bundled one); empty when there is none. */
GPtrArray   *hr_presets_find_all      (HrPresets     *presets,
                                       HrPresetKind   kind,
                                       const char    *id);
/* The ids of every file of KIND in any folder, sorted, each once, files
 * that do not parse included (hr_presets_list leaves them out). */
GStrv        hr_presets_ids           (HrPresets     *presets,
                                       HrPresetKind   kind);
/* The object in the preset file PATH (a path hr_presets_find gave). */
JsonNode    *hr_presets_load_path     (HrPresets     *presets,
                                       const char    *path,
                                       GError       **error);
JsonNode    *hr_presets_load          (HrPresets     *presets,
                                       HrPresetKind   kind,
                                       const char    *id,
                                       char         **out_path,
                                       GError       **error);
GPtrArray   *hr_presets_list          (HrPresets     *presets,
                                       HrPresetKind   kind);
char        *hr_presets_name          (HrPresets     *presets,
                                       HrPresetKind   kind,
                                       const char    *id);
GPtrArray   *hr_presets_broken        (HrPresets     *presets);
const char  *hr_preset_kind_folder    (HrPresetKind   kind);
gboolean     hr_preset_id_is_valid    (const char    *id);

void         hr_preset_info_free      (HrPresetInfo  *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrPresets, hr_presets_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrPresetInfo, hr_preset_info_free)

G_END_DECLS
