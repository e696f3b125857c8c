#!/usr/bin/env bash
# Builds the release binaries into .build-release/bin and prints that directory:
#   fbauth               the command
#   fbauth-fake-browser  the scriptable browser Scripts/bench.sh signs in with
#   fbauth-startup-floor a Swift program that only prints, linked the same way (bench.sh's floor)
#
# On Linux, fbauth links the Swift runtime and FoundationEssentials statically (no ICU data;
# libcurl is loaded with dlopen when a command makes a request), and is linked for start-up
# speed: a position-dependent executable (no relocations to apply at every start), no RUNPATH
# (no library search beside the executable), libstdc++
# and libgcc's unwinder linked statically, and no exported symbol table. What is left to load
# is libc and libm. Together that halves the start-up time of `fbauth token`.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
out=.build-release/bin
scratch=.build-release-scratch
mkdir -p "$out" "$scratch"
flags=()
if [ "$(uname -s)" = Linux ]; then
  flags=(--static-swift-stdlib --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker --no-export-dynamic)
  # swiftc's static-stdlib-args.lnk asks for -lstdc++ (and the driver for -lgcc_s) by name; a
  # linker script of that name, found first, hands over the static archives instead.
  libstdcxx="$(c++ -print-file-name=libstdc++.a 2>/dev/null || true)"
  libgcc_eh="$(cc -print-file-name=libgcc_eh.a 2>/dev/null || true)"
  if [ -f "$libstdcxx" ] && [ -f "$libgcc_eh" ]; then
    mkdir -p "$scratch/static-libs"
    echo "INPUT($libstdcxx)" > "$scratch/static-libs/libstdc++.so"
    echo "INPUT($libgcc_eh)" > "$scratch/static-libs/libgcc_s.so"
    flags+=(-Xswiftc "-L$PWD/$scratch/static-libs")
  fi
fi
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in bash 3 (macOS).
for product in fbauth fbauth-fake-browser fbauth-startup-floor; do
  swift build -c release --product "$product" --scratch-path "$scratch" ${flags[@]+"${flags[@]}"} >&2
done
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"
cp "$bin/fbauth" "$bin/fbauth-fake-browser" "$bin/fbauth-startup-floor" "$out/"
echo "$PWD/$out"
