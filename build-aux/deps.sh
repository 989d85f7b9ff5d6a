#!/usr/bin/env bash
# deps.sh: installs what building and testing Headroom needs, on Debian 12,
# when it is missing.  Sourced by build-aux/run and build-aux/test.
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later

HEADROOM_PACKAGES=(
  build-essential pkg-config meson ninja-build gettext
  libglib2.0-dev libjson-glib-dev libcairo2-dev libgtk-4-dev libadwaita-1-dev
  desktop-file-utils appstream xvfb xauth
  # The sanitizer build and the fuzz harnesses: clang, its runtime
  # (libFuzzer, the sanitizers) and llvm-symbolizer (llvm-14), which
  # --no-install-recommends would otherwise leave out; without the
  # symbolizer every sanitizer report starts with two warnings, and the
  # CLI tests that expect one line of stderr fail.
  clang libclang-rt-14-dev llvm-14
  # The reference oracle (tests/reference): PyTorch 1.13 for the CPU, about
  # 70 MB with its dependencies (python3-numpy among them), enough with
  # --no-install-recommends.  /usr/bin/python3 imports it; run-oracle.sh
  # looks there when the python3 on PATH cannot.
  python3-torch
)

headroom_install_deps () {
  local missing=()
  for p in "${HEADROOM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0

  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "build-aux: missing packages (${missing[*]}); run as root or install sudo" >&2
      return 1
    fi
  fi
  echo "build-aux: installing ${missing[*]}" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" || return 1
}

# Configures (once) and builds the tree in BUILD_DIR.
headroom_build () {
  local top="$1" build="$2"
  if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$top" || return 1
  fi
  meson compile -C "$build"
}
