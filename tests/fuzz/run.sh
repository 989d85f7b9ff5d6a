#!/usr/bin/env bash
# run.sh SECONDS DIR [HARNESS...]: runs each harness that meson built in
# DIR (-Dfuzz=true) on its seed corpus and the saved crashing inputs for
# SECONDS seconds: the fuzz smoke test of meson test.  Long runs:
# tests/fuzz/run.sh 1800 build-sanitize/tests/fuzz.
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-5}"
out="${2:?the folder with the built harnesses}"
shift 2
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for f in "$out"/fuzz-*; do [ -f "$f" ] && [ -x "$f" ] && harnesses+=("${f##*/fuzz-}"); done
fi
export HEADROOM_PRESETS_DIR="$here/../../presets" XDG_DATA_HOME="$out/xdg"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
n=0
failed=0
for h in "${harnesses[@]}"; do
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
