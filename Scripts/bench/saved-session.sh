# Sourced by Scripts/bench.sh and Scripts/link-order.sh: a saved session for `fbauth token` to
# read, signed in against the local stand-in on loopback. Expects $fbauth (the executable),
# $browser (fbauth-fake-browser), $work (a scratch directory) and an array `pids` of processes
# the caller stops on exit.

# sign_in_saved_session NAME LIFETIME: starts a stand-in whose ID tokens last LIFETIME seconds,
# points the environment at it and at the config directory $work/NAME, and signs in there.
sign_in_saved_session() {
  local name="$1" lifetime="$2" host="$work/$1.host"
  "$fbauth" emulator --port 0 --token-lifetime "$lifetime" > "$host" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$host" ] && break; sleep 0.05; done
  [ -s "$host" ] || { echo "the stand-in did not start" >&2; exit 1; }
  export FIREBASE_AUTH_EMULATOR_HOST="$(cat "$host")" FIREBASE_API_KEY=bench-api-key
  export FBAUTH_CONFIG_DIR="$work/$name" BROWSER="$browser" FBAUTH_FAKE_BROWSER_EMAIL=bench@example.com
  "$fbauth" signin --loopback --provider yahoo.com --port 0 >/dev/null 2>&1
}
