#!/usr/bin/env bash
# run.sh: builds the harnesses and runs each on its seed corpus and the
# saved crashing inputs for SECONDS seconds (default 5): the fuzz smoke
# test of meson test.  Long runs: tests/fuzz/run.sh 1800.
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-5}"
out="${2:-$here/build}"
if ! command -v clang >/dev/null 2>&1; then
  echo "1..0 # SKIP clang is not installed"
  exit 0
fi
"$here/build.sh" "$out" >/dev/null
export HEADROOM_PRESETS_DIR="$here/../../presets" XDG_DATA_HOME="$out/xdg"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
n=0
failed=0
for h in scenario preset set hf measured ds plan; do
  n=$((n + 1))
  work="$out/corpus-$h"
  mkdir -p "$work"
  # Saved crashing inputs must stay fixed: run them first, one by one.
  for r in "$here/regressions/$h"-*; do
    [ -f "$r" ] || continue
    if ! "$out/fuzz-$h" "$r" >"$out/$h-regression.log" 2>&1; then
      echo "# regression $r fails again"; failed=$((failed + 1))
    fi
  done
  if "$out/fuzz-$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len=65536 -print_final_stats=1 "$work" "$here/corpus/$h" >"$out/$h.log" 2>&1; then
    echo "ok $n - fuzz-$h $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$h.log" | grep -o '[0-9]*$') inputs in ${seconds}s"
  else
    failed=$((failed + 1))
    echo "not ok $n - fuzz-$h: $(grep -m1 -E 'ERROR|SUMMARY' "$out/$h.log")"
  fi
done
echo "1..$n"
[ "$failed" = 0 ]
