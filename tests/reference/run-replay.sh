#!/bin/sh
# run-replay.sh: reserved-replay.py as a TAP test (meson suite 'oracle')
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Replays the H200 runs' allocations through the caching allocator's policy
# (reserved-replay.py, its options passed on: --cli, --presets) with the
# first Python that can import torch; a TAP skip where none can, a failure
# under build-aux/test (which installs it).
here="$(cd "$(dirname "$0")" && pwd)"
py="$("$here/torch-python.sh")"
if [ -n "$py" ]; then
  exec "$py" -u "$here/reserved-replay.py" "$@"
fi
if [ -n "${HEADROOM_ORACLE_REQUIRED:-}" ]; then
  echo "1..1"
  echo "not ok 1 - no python3 here can import torch, and build-aux/test requires it (apt-get install python3-torch)"
  exit 1
fi
echo "1..0 # SKIP no python3 here can import torch (apt-get install python3-torch)"
