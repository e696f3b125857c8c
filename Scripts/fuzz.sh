#!/usr/bin/env bash
# Fuzzes what fbauth's loopback listener does with untrusted input: the HTTP request parser and
# the callback matcher (Sources/CallbackFuzzing), with libFuzzer and AddressSanitizer (Linux).
#
#   Scripts/fuzz.sh [SECONDS] [JOBS]      default: 60 seconds, 1 job
#
# Starts from the seed corpus in Fuzz/corpus and keeps what it finds in .build-fuzz/corpus
# (not committed). A crash leaves its input in fuzz-artifacts/ and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
seconds="${1:-60}"
jobs="${2:-1}"
scratch=.build-fuzz

# SwiftPM builds the instrumented modules; the fuzzer is linked here with lld, because gold
# fails on these objects and SwiftPM does not pass a linker choice to its link step.
swift build -c release --target CallbackFuzzing --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address >&2
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"
swiftc -O -sanitize=fuzzer,address -parse-as-library -DFUZZING -use-ld=lld -I "$bin/Modules" \
  -Xcc -fmodule-map-file="$bin/CCurl.build/module.modulemap" -I Sources/CCurl/include \
  Sources/fbauth-fuzz/FuzzEntry.swift \
  "$bin"/LoopbackHTTP.build/*.o "$bin"/FBAuth.build/*.o "$bin"/CCurl.build/*.o "$bin"/CallbackFuzzing.build/*.o \
  -o "$scratch/fbauth-fuzz"

mkdir -p "$scratch/corpus" fuzz-artifacts
cp -n Fuzz/corpus/* "$scratch/corpus/" 2>/dev/null || true
"$scratch/fbauth-fuzz" "$scratch/corpus" Fuzz/corpus -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
  -max_len=20000 -timeout=5 -artifact_prefix=fuzz-artifacts/ -print_final_stats=1
