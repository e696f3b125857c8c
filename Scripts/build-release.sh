#!/usr/bin/env bash
# Builds the release binaries into .build-release/bin and prints that directory:
#   fbauth               the command
#   fbauth-fake-browser  the scriptable browser Scripts/bench.sh signs in with
#   fbauth-startup-floor a Swift program that only prints, linked the same way (bench.sh's floor)
#   fbauth-verify-throughput  ID tokens verified per second on one core (bench.sh)
#
# On Linux, fbauth links the Swift runtime and FoundationEssentials statically (no ICU data;
# libcurl is loaded with dlopen when a command makes a request), and is linked for start-up
# speed: a position-dependent executable (no relocations to apply at every start), no RUNPATH
# (no library search beside the executable), libstdc++
# and libgcc's unwinder linked statically, and no exported symbol table. What is left to load
# is libc and libm. Together that halves the start-up time of `fbauth token`. Each function
# is then given a section of its own, so that the linker (gold) can lay the ones `fbauth token`
# runs side by side (Scripts/link-order.txt): a third fewer page faults at every start.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
out=.build-release/bin
scratch=.build-release-scratch
# One build at a time in this checkout (the release tests run several release.sh side by side):
# each may start its scratch directory over, which must not happen under another's build.
mkdir -p .build-release
exec 8>.build-release/build.lock
command -v flock >/dev/null 2>&1 && flock 8
flags=() link_flags=() static_libs=""
if [ "$(uname -s)" = Linux ]; then
  flags=(--static-swift-stdlib --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker --no-export-dynamic)
  # swiftc's static-stdlib-args.lnk asks for -lstdc++ (and the driver for -lgcc_s) by name; a
  # linker script of that name, found first, hands over the static archives instead.
  libstdcxx="$(c++ -print-file-name=libstdc++.a 2>/dev/null || true)"
  libgcc_eh="$(cc -print-file-name=libgcc_eh.a 2>/dev/null || true)"
  # glibc 2.31's libraries and start files to link against (Debian 11's; docs/release.md), GCC
  # 10's unwinder with them, and the few newer symbols the static parts want
  # (Scripts/glibc-compat): the binary then runs on glibc 2.31 and later. FBAUTH_GLIBC=host
  # links against this machine's glibc instead, as does a machine that cannot fetch them.
  if [ "${FBAUTH_GLIBC:-}" != host ] && sysroot="$(Scripts/glibc-sysroot.sh "$PWD/.build-release-sysroot/glibc-2.31")"; then
    # Link flags only: switching to or from FBAUTH_GLIBC=host relinks, without recompiling.
    link_flags+=(-Xswiftc "-L$sysroot/lib" -Xswiftc -Xclang-linker -Xswiftc "-B$sysroot/crt")
    libgcc_eh="$sysroot/libgcc_eh.a"
    # Named by its source's checksum, so that a change to it changes the link command and relinks.
    compat="$sysroot/compat-$(cksum < Scripts/glibc-compat/compat.c | cut -d' ' -f1).o"
    [ -f "$compat" ] || cc -O2 -fno-builtin -c Scripts/glibc-compat/compat.c -o "$compat"
    link_flags+=(-Xlinker "$compat")
  elif [ "${FBAUTH_GLIBC:-}" != host ]; then
    echo "build-release: glibc 2.31's libraries could not be fetched; linking against this machine's glibc" >&2
  fi
  if [ -f "$libstdcxx" ] && [ -f "$libgcc_eh" ]; then
    static_libs="$scratch/static-libs"
    flags+=(-Xswiftc "-L$PWD/$static_libs")
  fi
  if command -v ld.gold >/dev/null 2>&1; then
    flags+=(-Xswiftc -use-ld=gold -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections)
  fi
fi
# SwiftPM relinks when link flags change but may keep objects compiled with other flags: start
# over when those differ from the last build's.
if [ "$(cat "$scratch/compile-flags" 2>/dev/null)" != "${flags[*]-}" ]; then
  rm -rf "$scratch"
  mkdir -p "$scratch"
  echo "${flags[*]-}" > "$scratch/compile-flags"
fi
mkdir -p "$out"
# The commit `fbauth --version` names: FBAUTH_COMMIT, else the checkout's. A header on an include
# path that does not change, rewritten only when the commit does (build_info.c alone recompiles).
commit="${FBAUTH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || true)}"
mkdir -p "$scratch/build-info"
header="#define FBAUTH_COMMIT \"$commit\""
[ "$(cat "$scratch/build-info/fbauth_build_commit.h" 2>/dev/null)" = "$header" ] || echo "$header" > "$scratch/build-info/fbauth_build_commit.h"
flags+=(-Xcc "-I$PWD/$scratch/build-info")
if [ -n "$static_libs" ]; then
  mkdir -p "$static_libs"
  echo "INPUT($libstdcxx)" > "$static_libs/libstdc++.so"
  echo "INPUT($libgcc_eh)" > "$static_libs/libgcc_s.so"
fi
if [[ " ${flags[*]-} " == *" -function-sections "* ]]; then
  # gold orders input sections: `.text.NAME` per function; static initializers share one name.
  # The file is named by its contents, so that a new list changes the link command and relinks.
  { echo ".text.startup"; [ ! -f Scripts/link-order.txt ] || sed -e '/^#/d' -e 's/^/.text./' Scripts/link-order.txt; } > "$scratch/order"
  order="$scratch/section-order-$(cksum < "$scratch/order" | cut -d' ' -f1).txt"
  mv "$scratch/order" "$order"
  link_flags+=(-Xlinker "--section-ordering-file=$PWD/$order")
fi
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in bash 3 (macOS).
for product in fbauth fbauth-fake-browser fbauth-startup-floor fbauth-verify-throughput; do
  swift build -c release --product "$product" --scratch-path "$scratch" ${flags[@]+"${flags[@]}"} ${link_flags[@]+"${link_flags[@]}"} >&2
done
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"
cp "$bin/fbauth" "$bin/fbauth-fake-browser" "$bin/fbauth-startup-floor" "$bin/fbauth-verify-throughput" "$out/"
echo "$PWD/$out"
