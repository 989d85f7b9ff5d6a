#!/usr/bin/env bash
# check-potfiles.sh: every file with _(), N_() or translatable="yes" is in
# po/POTFILES.in, and POTFILES.in is sorted (after gnome-disk-utility's
# .gitlab-ci/check-potfiles.sh).
set -eu
cd "$1"
status=0
listed=$(grep -v '^#' po/POTFILES.in | sed '/^$/d')
for f in $(grep -rlE '\b_\(|\bN_\(|translatable="yes"' src data --include='*.c' --include='*.ui' --include='*.in' --include='*.xml' | sort); do
  if ! printf '%s\n' "$listed" | grep -qxF "$f"; then
    echo "missing from po/POTFILES.in: $f"
    status=1
  fi
done
if [ "$listed" != "$(printf '%s\n' "$listed" | LC_ALL=C sort)" ]; then
  echo "po/POTFILES.in is not sorted"
  status=1
fi
exit $status
