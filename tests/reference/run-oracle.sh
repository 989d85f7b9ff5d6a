#!/bin/sh
# run-oracle.sh: the reference oracle as a TAP test (meson suite 'oracle')
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   run-oracle.sh HEADROOM_CLI PRESETS_DIR [oracle.py options]
#
# Runs tests/reference/oracle.py with the first Python that can import
# torch (Debian's python3-torch installs into /usr/bin/python3, which a
# pyenv or venv python3 earlier on PATH does not see); prints a TAP skip
# when none can, a failure under build-aux/test (which installs it).
# The seed is fixed (11) so that CI judges the code, not the draw: a new
# seed now and then finds a configuration no formula covers yet (seed 5150
# found one, since corrected), which is work for an issue, not a reason for
# an unrelated commit to fail.  HEADROOM_ORACLE_SEED=N replays
# seed N, HEADROOM_ORACLE_SEED=random draws a new one (printed);
# HEADROOM_ORACLE_COUNT changes the number of random configurations (300).
cli="$1"
presets="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
py="$("$here/torch-python.sh")"
if [ -n "$py" ]; then
  set -- --count "${HEADROOM_ORACLE_COUNT:-300}" "$@"
  seed="${HEADROOM_ORACLE_SEED:-11}"
  [ "$seed" != random ] && set -- --seed "$seed" "$@"
  exec "$py" -u "$here/oracle.py" --cli "$cli" --presets "$presets" "$@"
fi
# build-aux/test installs python3-torch and sets HEADROOM_ORACLE_REQUIRED:
# there a missing torch is a broken install, not a reason to skip.
if [ -n "${HEADROOM_ORACLE_REQUIRED:-}" ]; then
  echo "1..1"
  echo "not ok 1 - no python3 here can import torch, and build-aux/test requires it (apt-get install python3-torch)"
  exit 1
fi
echo "1..0 # SKIP no python3 here can import torch (apt-get install python3-torch)"
