#!/usr/bin/env bash
# The library's API reference, built by the toolchain's docc (issues 39, 48): FirebaseCore,
# FirebaseAuth and FirebaseAdminAuth, the three products, the only public modules. Fails on any
# docc warning, and on any public symbol without documentation (docc's coverage).
#
#   Scripts/docs.sh [OUTPUT_DIR]     default: .build/docs (one MODULE.doccarchive a product)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
output=${1:-.build/docs}
symbols=$(mktemp -d "${TMPDIR:-/tmp}/fbauth-symbols.XXXXXX")
trap 'rm -rf "$symbols"' EXIT
# A build directory of its own: the symbol-graph flags would rebuild .build's modules, and a
# `swift test` may hold .build's lock.
for target in FirebaseAuth FirebaseAdminAuth; do
swift build --scratch-path .build-docs --target "$target" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbols/all" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public -Xswiftc -symbol-graph-skip-synthesized-members \
  -Xswiftc -symbol-graph-skip-inherited-docs >/dev/null
done
mkdir -p "$output"
status=0
for module in FirebaseCore FirebaseAuth FirebaseAdminAuth; do
  mkdir -p "$symbols/$module"
  cp "$symbols/all/$module.symbols.json" "$symbols/$module/"
  log="$symbols/$module.log"
  if ! docc convert --additional-symbol-graph-dir "$symbols/$module" --fallback-display-name "$module" \
      --fallback-bundle-identifier "dev.fbauth.$module" --output-dir "$output/$module.doccarchive" \
      --warnings-as-errors --experimental-documentation-coverage --coverage-summary-level detailed >"$log" 2>&1; then
    echo "docc: $module has warnings:" >&2
    cat "$log" >&2
    status=1
    continue
  fi
  # Every symbol documented: the coverage file lists each with whether it has an abstract.
  missing=$(python3 - "$output/$module.doccarchive/documentation-coverage.json" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
for entry in entries:
    # The compiler's own init(rawValue:) of an Int enum carries no documentation of its own.
    path = entry.get("referencePath", "")
    if path.endswith("/init(rawValue:)") and any(f"/{enum}/" in path for enum in ("ActionCodeOperation", "FirebaseLoggerLevel")):
        continue
    if not entry.get("hasAbstract", True) and entry.get("kind", {}).get("name") not in ("Framework", "Module"):
        print(entry.get("title") or entry.get("referencePath"))
PY
)
  if [ -n "$missing" ]; then
    echo "docs.sh: public symbols of $module without documentation:" >&2
    printf '  %s\n' $missing >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "API reference in $output: FirebaseCore.doccarchive, FirebaseAuth.doccarchive, FirebaseAdminAuth.doccarchive, every public symbol documented."
exit "$status"
