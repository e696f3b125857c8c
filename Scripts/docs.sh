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
# `swift test` may hold .build's lock. The products' own objects go first: a module the build
# finds up to date is not compiled, so its graph would not be written.
rm -rf .build-docs/debug/FirebaseCore.build .build-docs/debug/FirebaseAuth.build .build-docs/debug/FirebaseAdminAuth.build
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
    # The compiler's own init(rawValue:) of a raw-value enum carries no documentation of its own.
    path = entry.get("referencePath", "")
    if path.endswith("/init(rawValue:)"):
        continue
    # docc's own groups of a conformance's members ("CustomStringConvertible Implementations"):
    # pages docc makes, not symbols, and they have no abstract; their members are checked.
    if entry.get("kind", {}).get("name") == "Collection Group" or (entry.get("title") or "").endswith(" Implementations"):
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
# How much of firebase-ios-sdk's API the modules have (issue 48): the table docs/sdk-api.md shows,
# written beside the archives, and the share, which may not fall under 95%.
coverage=$(python3 Scripts/sdk-api.py coverage Scripts/sdk-api/members-12.19.0.tsv Scripts/sdk-api/absent.tsv "$symbols/all" "$output/sdk-api.md")
echo "$coverage" | sed 's/^/SDK API: /'
# The share a coverage line says (`covered N of M (P%)`), and whether it is at least 95%.
share() { echo "$1" | sed -n 's/^covered [0-9]* of [0-9]* (\([0-9.]*\)%).*$/\1/p' | head -1; }
at_least_95() { python3 -c "import sys; sys.exit(0 if float('${1:-0}') >= 95 else 1)"; }
percent=$(share "$coverage")
if ! at_least_95 "$percent"; then
  echo "docs.sh: FirebaseAuth and FirebaseCore have ${percent:-no}% of the SDK's API, under 95%" >&2
  status=1
fi
# How much of firebase-admin-node's Auth and App Check API FirebaseAdminAuth has (issue 57): the
# table docs/admin-api.md shows, and the share, which may not fall under 95%.
admin=$(python3 Scripts/admin-api.py coverage Scripts/admin-api/members-14.3.0.tsv Scripts/admin-api/names.tsv "$symbols/all" "$output/admin-api.md")
echo "$admin" | sed 's/^/Admin API: /'
admin_percent=$(share "$admin")
if ! at_least_95 "$admin_percent"; then
  echo "docs.sh: FirebaseAdminAuth has ${admin_percent:-no}% of firebase-admin-node's API, under 95%" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "API reference in $output: FirebaseCore.doccarchive, FirebaseAuth.doccarchive, FirebaseAdminAuth.doccarchive, every public symbol documented."
exit "$status"
