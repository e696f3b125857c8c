#!/usr/bin/env bash
# One door (issues 28, 39): the command line, and the `fbauth` executable that drives it, may use
# only FBAuth's public API.
#
#   Scripts/check-public-api.sh [--list]
#
# Copies the package to a temporary directory, turns every `package` declaration of
# Sources/FBAuth into `internal`, and builds FBAuthCLI and the `fbauth` executable there. The FBAuth names the command line
# still reaches behind the door (what the compiler cannot find or may not access) are compared
# with Scripts/public-api-debt.txt, the list of what is left to move onto the public API:
# a name not on that list fails (a new use of an internal), and so does a listed name that is no
# longer used (the list only shrinks). With an empty list the build must succeed outright.
# --list prints the names in use and exits. Run by the tests (PublicAPICheckTests).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
debt_file=Scripts/public-api-debt.txt
work=$(mktemp -d "${TMPDIR:-/tmp}/fbauth-public-api.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

mkdir -p "$work/Scripts" && cp -R Package.swift Sources Tests "$work/" && cp -R Scripts/bench "$work/Scripts/"
# `package` as an access modifier: before a declaration keyword, another modifier or an attribute.
find "$work/Sources/FBAuth" -name '*.swift' -exec perl -pi -e \
  's/\bpackage(?=(\(set\))?\s+(func|var|let|init|struct|enum|class|final|static|protocol|typealias|extension|subscript|actor|convenience|nonisolated|mutating|indirect|required|override|lazy|case|@))/internal/g' {} +

log="$work/build.log"
status=0
(cd "$work" && swift build --product fbauth --scratch-path "$work/.build" >"$log" 2>&1) || status=$?

# The names the compiler reports: missing types and values, inaccessible members, members of
# FBAuth types it cannot see. Each name once, sorted.
used=$({ grep -E '^/.*: error: ' "$log" || true; } | perl -ne '
  if (/cannot find (?:type )?'"'"'(\w+)'"'"' in scope/) { print "$1\n" }
  elsif (/'"'"'(\w+)'"'"'(?: initializer)? is inaccessible due to '"'"'internal'"'"'/) { print "$1\n" }
  elsif (/type '"'"'(\w+)\??'"'"' has no member '"'"'(\w+)'"'"'/) { print "$1.$2\n" }' | sort -u)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "$used" | sed '/^$/d'
  exit 0
fi

expected=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$debt_file" | sort -u)
if [ -z "$expected" ]; then
  if [ "$status" -ne 0 ]; then
    echo "FBAuthCLI and fbauth do not build against FBAuth's public API alone:" >&2
    grep -E ': error: ' "$log" | head -40 >&2
    exit 1
  fi
  echo "FBAuthCLI and fbauth build against FBAuth's public API alone."
  exit 0
fi
if [ "$status" -ne 0 ] && [ -z "$used" ]; then
  echo "the build failed for another reason:" >&2
  grep -E 'error' "$log" | head -40 >&2
  exit 1
fi
new=$(comm -23 <(printf '%s\n' "$used" | sed '/^$/d') <(printf '%s\n' "$expected"))
gone=$(comm -13 <(printf '%s\n' "$used" | sed '/^$/d') <(printf '%s\n' "$expected"))
if [ -n "$new" ]; then
  echo "FBAuthCLI uses FBAuth internals not on $debt_file (use the public API, or make it public):" >&2
  printf '  %s\n' $new >&2
fi
if [ -n "$gone" ]; then
  echo "no longer used behind the door; remove from $debt_file:" >&2
  printf '  %s\n' $gone >&2
fi
[ -z "$new" ] && [ -z "$gone" ] || exit 1
echo "FBAuthCLI reaches $(printf '%s\n' "$expected" | wc -l) FBAuth internals, all listed in $debt_file."
