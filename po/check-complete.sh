#!/usr/bin/env bash
# check-complete.sh: every translatable string in the sources has a
# translation in each po/LANG.po.  `msgfmt --statistics` only counts the
# messages a .po already holds, so a string added to the code and never to
# the catalogues would pass it; this extracts the strings afresh, with the
# keywords of meson's glib preset, merges each catalogue with them and
# counts what is untranslated or fuzzy.  (The field tables in
# src/core/fields/*.def are C, which xgettext tries on its own.)
set -eu
src=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
xgettext --directory=. --files-from=po/POTFILES.in --output="$tmp/headroom.pot" \
  --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_set_error:4:c-format --flag=hr_error_set_field:4:c-format \
  2> >(grep -v "extension 'def' is unknown; will try C" >&2)
status=0
for lang in "$@"; do
  msgmerge --quiet --no-fuzzy-matching --output-file="$tmp/$lang.po" "po/$lang.po" "$tmp/headroom.pot"
  msgattrib --untranslated --no-obsolete --no-wrap "$tmp/$lang.po" >"$tmp/$lang-untranslated.po"
  msgattrib --only-fuzzy --no-obsolete --no-wrap "$tmp/$lang.po" >>"$tmp/$lang-untranslated.po"
  # (the header, msgid "", is no message)
  missing=$(grep '^msgid ' "$tmp/$lang-untranslated.po" | grep -vc '^msgid ""$' || true)
  if [ "$missing" -gt 0 ]; then
    echo "po/$lang.po: $missing messages untranslated:"
    grep -A1 '^msgid ' "$tmp/$lang-untranslated.po" | grep -v '^msgid ""$' | grep -v '^msgstr\|^--' | head -20
    status=1
  else
    echo "po/$lang.po: every message translated"
  fi
done
exit $status
