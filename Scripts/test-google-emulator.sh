#!/usr/bin/env bash
# Runs the opt-in suites against Google's own Auth emulator (firebase-tools src/emulator/auth):
# GoogleAuthEmulatorTests (REST: MFA, the email lifecycle, fake tokens) and
# GoogleAuthEmulatorHostedTests (the hosted flow with the real Firebase JS SDK in Chromium).
#
#   Scripts/test-google-emulator.sh [EMULATOR_DIR [SDK_DIR]]
#
# EMULATOR_DIR: a checkout with start.sh that starts a built emulator (default ../shared/auth-emulator,
# built once with its setup.sh); SDK_DIR: the real SDK's browser modules (default
# ../shared/firebase-js-sdk). Starts the emulator on a free port, runs the suites, stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
emulator_dir=${1:-../shared/auth-emulator}
sdk_dir=${2:-../shared/firebase-js-sdk}
[ -x "$emulator_dir/start.sh" ] || { echo "no $emulator_dir/start.sh: see its README to build Google's Auth emulator" >&2; exit 2; }
[ -f "$sdk_dir/firebase-auth.js" ] || { echo "no $sdk_dir/firebase-auth.js (the real Firebase JS SDK)" >&2; exit 2; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$emulator_dir/start.sh" -d "$port"
trap 'kill "$(cat /tmp/auth-emulator-'"$port"'.pid)" 2>/dev/null || true' EXIT
export FBAUTH_TEST_AUTH_EMULATOR="127.0.0.1:$port" FBAUTH_TEST_FIREBASE_JS="$(cd "$sdk_dir" && pwd)"
swift test --filter 'GoogleAuthEmulator'
