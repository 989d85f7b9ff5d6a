#!/usr/bin/env bash
# build.sh: builds the libFuzzer harnesses with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, into OUT (default tests/fuzz/build).
#
# Copyright 2026 The Headroom developers
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
out="${1:-$here/build}"
mkdir -p "$out/obj"
CC="${CC:-clang}"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
pkgs="glib-2.0 gio-2.0 json-glib-1.0 cairo pangocairo"
cflags="$(pkg-config --cflags $pkgs) -I$top/src/core -I$top/tests -I$out -include config.h -DGETTEXT_PACKAGE=\"headroom\" -DHR_PRESETS_DIR=\"$top/presets\""
libs="$(pkg-config --libs $pkgs) -lm"
printf '#define PACKAGE_VERSION "fuzz"\n' > "$out/config.h"

# Objects are rebuilt when their source or any core header changed.
newest_header=$(ls -t "$top"/src/core/*.h | head -n 1)
objs=()
for src in "$top"/src/core/*.c; do
  obj="$out/obj/$(basename "${src%.c}").o"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then
    $CC $flags -fsanitize=fuzzer-no-link $cflags -c "$src" -o "$obj"
  fi
  objs+=("$obj")
done
for h in scenario preset set hf measured ds plan; do
  $CC $flags -fsanitize=fuzzer $cflags "$here/fuzz-$h.c" "${objs[@]}" $libs -o "$out/fuzz-$h"
done
echo "$out"
