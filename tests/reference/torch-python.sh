#!/bin/sh
# torch-python.sh: the first Python here that can import torch, or nothing
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Debian's python3-torch installs into /usr/bin/python3, which a pyenv or
# venv python3 earlier on PATH does not see: try HEADROOM_ORACLE_PYTHON,
# then python3, then /usr/bin/python3.
for py in "${HEADROOM_ORACLE_PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$py" ] || continue
  if "$py" -c "import torch" >/dev/null 2>&1; then
    echo "$py"
    exit 0
  fi
done
exit 0
