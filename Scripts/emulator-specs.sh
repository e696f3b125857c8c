#!/usr/bin/env bash
# firebase-tools' own Auth emulator specs (src/emulator/auth/*.spec.ts), sent over HTTP to an
# Auth emulator that is already listening: fbauth's (`fbauth --project example emulator`) or
# Google's, started with project "example", the specs' own. Before each case the project's
# accounts are deleted and its emulator settings reset, as a fresh in-process app would be; the
# cases that move the server's clock cannot work over HTTP and fail.
#
#   Scripts/emulator-specs.sh HOST:PORT [PASSED_FILE]
#
# Needs the specs compiled by ../shared/auth-emulator/selftest.sh (in $AUTH_EMULATOR_BUILD/selftest,
# default ~/.cache/fbauth-auth-emulator) and mocha; exits 2 without them. Prints
# "emulator-specs: P passing, F failing"; PASSED_FILE gets the full title of each passing case.
set -euo pipefail
target="http://${1:?usage: emulator-specs.sh HOST:PORT [PASSED_FILE]}"
passed="${2:-}"
case "$passed" in ""|/*) ;; *) passed="$PWD/$passed" ;; esac
build="${AUTH_EMULATOR_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/fbauth-auth-emulator}"
compiled="$build/selftest"
if [ ! -f "$compiled/lib/emulator/auth/testing/setup.js" ] || ! command -v mocha >/dev/null 2>&1; then
  echo "emulator-specs: no compiled specs in $compiled (run ../shared/auth-emulator/selftest.sh) or no mocha" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fbauth-emulator-specs.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$compiled/." "$work/"
# The specs' harness, pointed at the running emulator instead of an in-process app.
cat >"$work/lib/emulator/auth/testing/setup.js" <<'JS'
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const supertest = require("supertest");
const PROJECT_ID = "example";
exports.PROJECT_ID = PROJECT_ID;
const target = process.env.EMULATOR_SPECS_TARGET;
exports.describeAuthEmulator = function (title, body) {
  return describe(`Auth Emulator: ${title}`, function () {
    this.timeout(20000);
    beforeEach("a fresh project", async () => {
      await supertest(target).delete(`/emulator/v1/projects/${PROJECT_ID}/accounts`);
      await supertest(target).patch(`/emulator/v1/projects/${PROJECT_ID}/config`)
        .send({ signIn: { allowDuplicateEmails: false }, emailPrivacyConfig: { enableImprovedEmailPrivacy: false } });
    });
    const clock = { tick() { throw new Error("the server's clock cannot be moved over HTTP"); } };
    return body.call(this, { authApi: () => supertest(target), getClock: () => clock });
  });
};
JS
cd "$work"
specs=$(ls lib/emulator/auth/*.spec.js | grep -v cloudFunctions.spec.js)
EMULATOR_SPECS_TARGET="$target" NODE_PATH=/usr/share/nodejs timeout 900 mocha --reporter json \
  --grep "when blocking functions are present" --invert $specs >"$work/report.json" 2>/dev/null || true
python3 - "$work/report.json" "$passed" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
report = json.loads(text[text.index('{\n  "stats"'):])
if sys.argv[2]:
    open(sys.argv[2], "w").write("".join(case["fullTitle"] + "\n" for case in sorted(report["passes"], key=lambda c: c["fullTitle"])))
print(f'emulator-specs: {len(report["passes"])} passing, {len(report["failures"])} failing')
PY
