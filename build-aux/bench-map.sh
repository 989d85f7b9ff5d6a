#!/usr/bin/env bash
# build-aux/bench-map.sh: how long Headroom's window takes to appear, against
# a bare libadwaita window (an AdwApplicationWindow with a header bar and a
# label), under Xvfb: the median of RUNS starts of each (time to the first
# frame, and the most memory resident by then), taken in turns so
# that the machine's load falls on both alike.
#
# Usage: build-aux/bench-map.sh [BUILD] [RUNS]   (default: build, 15)
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$top/build}"
runs="${2:-15}"
bench="${HEADROOM_BENCH_MAP:-$build/tests/bench-map}"
[ -n "${HEADROOM_BENCH_MAP:-}" ] || ninja -C "$build" tests/bench-map >&2
export HEADROOM_PRESETS_DIR="$top/presets" GSETTINGS_BACKEND=memory \
  GSETTINGS_SCHEMA_DIR="$build/data" GTK_A11Y=none GSK_RENDERER=cairo GDK_BACKEND=x11 \
  NO_AT_BRIDGE=1 XDG_DATA_HOME="$build/tests/xdg-data"
out=$(xvfb-run -a -s "-screen 0 1920x1200x24" sh -c "
  for i in \$(seq $runs); do \"$bench\" bare; \"$bench\" headroom; done")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in bare headroom; do
  printf '%s\n' "$out" | awk -v kind="$kind" '
    $1 == kind ":" { built[n] = $3; mapped[n] = $6; frame[n] = $10; rss[n] = $16; n++ }
    function median(a,   i, j, t, m) {
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2
    }
    END { printf "%-8s (%d runs) median: built %.0f ms, mapped %.0f ms, first frame %.0f ms after main(), peak resident %.1f MiB\n",
                 kind, n, median(built), median(mapped), median(frame), median(rss) / 1024 }'
done
