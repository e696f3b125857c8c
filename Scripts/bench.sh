#!/usr/bin/env bash
# Measures what fbauth costs where scripts feel it, side by side in one run: the installed size
# of the stripped executable, median wall time
# and peak memory of `fbauth token` with a fresh saved token, a C baseline that does the least
# work for the same answer, a Swift program that only prints (the start-up floor of any Swift
# program linked as fbauth is), `fbauth token --help`, `fbauth whoami --offline`, and a whole
# `fbauth signin` against the local stand-in with a non-interactive browser, `fbauth emulator`
# beside Google's Auth emulator where it is built (start-up, signUp/s, lookup/s, an import and
# its listing); then the ratios
# of `fbauth token` and of the floor to the baseline, the refresh requests of 20 concurrent
# `fbauth token` calls on an expiring token, and the Admin API through FirebaseAdminAuth beside
# firebase-admin (Python).
#
#   Scripts/bench.sh [RUNS]     default 300 runs per command (signin: RUNS/10)
#
# Builds the release binaries (Scripts/build-release.sh). The quick commands are timed round-robin
# (bench/interleave.c: one run of each in turn), so that a machine whose speed drifts during the
# run moves them alike and their ratios stay fair; signin with hyperfine when present (installs
# it from Debian when it can), else a shell loop; peak memory from GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-300}"
signin_runs=$(( runs / 10 > 5 ? runs / 10 : 5 ))
bin="$(Scripts/build-release.sh)"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

have_apt() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }
command -v hyperfine >/dev/null 2>&1 || { have_apt && apt-get install -y hyperfine >/dev/null 2>&1; } || true
[ -x /usr/bin/time ] || { have_apt && apt-get install -y time >/dev/null 2>&1; } || true
cc -O2 -o "$work/baseline" Scripts/bench/baseline.c
cc -O2 -o "$work/interleave" Scripts/bench/interleave.c
# What an installation holds (Scripts/install.sh strips it), and what is measured below.
cp "$bin/fbauth" "$work/fbauth"
strip "$work/fbauth" 2>/dev/null || true
size_bytes=$(wc -c < "$work/fbauth" | tr -d ' ')
size_mb=$(awk -v b="$size_bytes" 'BEGIN { printf "%.1f", b / 1000000 }')
fbauth="$work/fbauth"
cp "$bin/fbauth-startup-floor" "$work/floor"
strip "$work/floor" 2>/dev/null || true

# The stand-in on loopback, and one saved session to read.
browser="$bin/fbauth-fake-browser"
. Scripts/bench/saved-session.sh
sign_in_saved_session config 3600

median_ms() { # RUNS COMMAND... → median wall time in milliseconds
  local count="$1"; shift
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 10 --runs "$count" --export-csv "$work/h.csv" "$*" >/dev/null 2>&1
    awk -F, 'NR==2 { printf "%.2f", $4 * 1000 }' "$work/h.csv"
  else
    # Perl's Time::HiRes: nanosecond clocks without GNU date (macOS).
    perl -MTime::HiRes=time -e 'my @t; for (1..shift) { my $s = time; system("sh", "-c", q("$@" >/dev/null 2>&1), "sh", @ARGV) == 0 or die "failed: @ARGV\n"; push @t, time - $s }
      @t = sort { $a <=> $b } @t; printf "%.2f", $t[int($#t / 2)] * 1000' "$count" "$@" 2>/dev/null
  fi
}
peak_kib() { # COMMAND... → peak resident memory of one run in KiB (GNU time, or BSD time -l)
  if /usr/bin/time -f %M true >/dev/null 2>&1; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
  else
    /usr/bin/time -l "$@" 2>&1 >/dev/null | awk '/maximum resident set size/ { print int($1 / 1024) }'
  fi
}
peak_mib() { # COMMAND... → median peak resident memory in MiB over 15 runs
  [ -x /usr/bin/time ] || { echo "n/a"; return; }
  for _ in $(seq 15); do peak_kib "$@"; done |
    sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1024 }'
}

# Results go in ms_NAME and mib_NAME (plain variables: bash 3 has no associative arrays).
measure() { # NAME RUNS COMMAND...
  local name="$1" count="$2"; shift 2
  printf -v "ms_$name" '%s' "$(median_ms "$count" "$@")"
  printf -v "mib_$name" '%s' "$(peak_mib "$@")"
}
# The quick commands, round-robin; then each one's peak memory.
quick=(baseline floor token help whoami)
timed="$("$work/interleave" "$runs" -- "$work/baseline" -- "$work/floor" -- "$fbauth" token \
  -- "$fbauth" token --help -- "$fbauth" whoami --offline)"
medians=($timed)
for i in "${!quick[@]}"; do printf -v "ms_${quick[$i]}" '%s' "${medians[$i]}"; done
mib_baseline=$(peak_mib "$work/baseline")
mib_floor=$(peak_mib "$work/floor")
mib_token=$(peak_mib "$fbauth" token)
mib_help=$(peak_mib "$fbauth" token --help)
mib_whoami=$(peak_mib "$fbauth" whoami --offline)
measure signin "$signin_runs" "$fbauth" signin --loopback --provider yahoo.com --port 0

# 20 concurrent calls on an expiring token: tokens from this stand-in last 62 s; after 3 s
# one has less than --min-valid 60 s left, and a refreshed one has 62 s again.
sign_in_saved_session config2 62
sleep 3
concurrent=()
for i in $(seq 20); do "$fbauth" token --min-valid 60 --verbose >/dev/null 2>"$work/concurrent-$i.log" & concurrent+=($!); done
for pid in "${concurrent[@]}"; do wait "$pid" || true; done
refreshes=$(cat "$work"/concurrent-*.log | grep -c '> POST .*/securetoken.googleapis.com/v1/token' || true)

# Verifying ID tokens (issue 42), with tokens OpenSSL signs now (Python's cryptography): fbauth
# verify-token as in production with Google's certificates kept on disk (nothing is sent); with
# --check-revoked against an emulator (a local server publishing the certificates and answering
# the Admin API's lookup); and the library's verifications per second on one core with the keys in
# memory.
if python3 -c 'import cryptography' 2>/dev/null; then
  python3 Scripts/gen-firebase-token-vectors.py --now "$(date +%s)" --out "$work/tokens.json" >/dev/null
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); open(sys.argv[2], "w").write(json.dumps(d["certificates"])); open(sys.argv[3], "w").write(d["tokens"]["valid"])' \
    "$work/tokens.json" "$work/certificates.json" "$work/token"
  chmod 600 "$work/token"
  python3 - "$work/certificates.json" > "$work/certificates.port" <<'PY' &
import http.server, sys
body = open(sys.argv[1], "rb").read()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Cache-Control", "public, max-age=21600"); self.end_headers(); self.wfile.write(body)
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200); self.end_headers(); self.wfile.write(b'{"users": [{"localId": "uid-1", "validSince": "0"}]}')
    def log_message(self, *_): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
  pids+=($!)
  for _ in $(seq 50); do [ -s "$work/certificates.port" ] && break; sleep 0.1; done
  mkdir -m 700 "$work/verify-config"
  python3 -c 'import json, sys, time; json.dump({"url": "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", "expires": int(time.time()) + 3600, "certificates": json.load(open(sys.argv[1]))}, open(sys.argv[2], "w"))' \
    "$work/certificates.json" "$work/verify-config/public-keys-id-token.json"
  chmod 600 "$work/verify-config/public-keys-id-token.json"
  # The settings as variables of the shell function, not through env(1): its exec would be timed too.
  verify=("$fbauth" verify-token --project proj-1 --token-file "$work/token")
  FBAUTH_CONFIG_DIR="$work/verify-config" FIREBASE_AUTH_EMULATOR_HOST= "${verify[@]}" >/dev/null
  FBAUTH_CONFIG_DIR="$work/verify-config" FIREBASE_AUTH_EMULATOR_HOST= measure verify "$runs" "${verify[@]}"
  revoked=(env FBAUTH_CONFIG_DIR="$work/revoked-config" FIREBASE_AUTH_EMULATOR_HOST="127.0.0.1:$(cat "$work/certificates.port")" "$fbauth" verify-token --check-revoked --project proj-1 --token-file "$work/token")
  "${revoked[@]}" >/dev/null  # keeps the certificates
  measure revoked "$runs" "${revoked[@]}"
  tokens_per_second=$("$bin/fbauth-verify-throughput" "$work/tokens.json" 2)
  # OpenSSL's RSA-2048 verifications a second on one core, side by side (issue 50).
  openssl_verifies=$(openssl speed -seconds 2 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print int($NF) }')
else
  ms_verify="n/a"; mib_verify="n/a"; ms_revoked="n/a"; mib_revoked="n/a"; tokens_per_second="n/a"
fi

# fbauth emulator against Google's Auth emulator, where it is built (issue 49): start-up until
# it serves, then one client in a loop (Scripts/emulator-bench.py: signUp/s, lookup/s, a
# 1,000-user import and its listing), each emulator in turn on the same machine.
emulator_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_ns=$(date +%s%N)
"$fbauth" emulator --port "$emulator_port" >"$work/emulator.out" 2>"$work/emulator.err" &
pids+=($!); emulator_pid=$!
until curl -fsS "http://127.0.0.1:$emulator_port/" >/dev/null 2>&1; do :; done
fbauth_ready_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
fbauth_load=$(python3 Scripts/emulator-bench.py "127.0.0.1:$emulator_port" demo-fbauth 3)
kill "$emulator_pid" 2>/dev/null || true
google_build="${AUTH_EMULATOR_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/fbauth-auth-emulator}"
google_ready_ms="n/a" google_load=""
if [ -f "$google_build/.stamp" ] && [ -x ../shared/auth-emulator/start.sh ] && command -v node >/dev/null 2>&1; then
  google_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  start_ns=$(date +%s%N)
  if OREMU_PROJECT=demo-fbauth ../shared/auth-emulator/start.sh -d "$google_port" >/dev/null 2>&1; then
    google_ready_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
    google_load=$(python3 Scripts/emulator-bench.py "127.0.0.1:$google_port" demo-fbauth 3)
    kill "$(cat "/tmp/auth-emulator-$google_port.pid")" 2>/dev/null || true
  fi
fi
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1] or "{}").get(sys.argv[2], "n/a"))' "$1" "$2"; }

# The Admin API through FirebaseAdminAuth beside the real firebase-admin (Python), each against
# a fresh fbauth emulator (issue 57): 10,000 users imported in batches of 1,000, all listed (and
# how much resident memory grew while listing), getUser from 16 concurrent tasks or threads.
# The Swift client is built by itself (not static: it is a bench tool, with Foundation).
admin_run() { # CLIENT COMMAND... → its JSON, against an emulator of its own
  local port pid out
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$fbauth" emulator --port "$port" >/dev/null 2>&1 &
  pid=$!; pids+=("$pid")
  until curl -fsS "http://127.0.0.1:$port/" >/dev/null 2>&1; do :; done
  out=$("$@" "127.0.0.1:$port" demo-fbauth 5 2>/dev/null || true)
  kill "$pid" 2>/dev/null || true
  echo "$out"
}
admin_swift="" admin_python=""
if swift build -c release --product fbauth-admin-throughput --scratch-path .build-bench >/dev/null 2>&1; then
  admin_swift=$(admin_run "$(swift build -c release --scratch-path .build-bench --show-bin-path)/fbauth-admin-throughput")
fi
if python3 -c 'import firebase_admin' 2>/dev/null; then
  admin_python=$(admin_run python3 Scripts/admin-bench.py)
fi

ratio=$(awk -v t="$ms_token" -v b="$ms_baseline" 'BEGIN { printf "%.2f", t / b }')
floor_ratio=$(awk -v f="$ms_floor" -v b="$ms_baseline" 'BEGIN { printf "%.2f", f / b }')
own_work=$(awk -v t="$ms_token" -v f="$ms_floor" 'BEGIN { printf "%.2f", t - f }')
cpu=$( (grep -m1 'model name' /proc/cpuinfo 2>/dev/null || sysctl -n machdep.cpu.brand_string 2>/dev/null || echo unknown) | sed 's/.*: //')
echo "fbauth benchmark — $(date -u +%Y-%m-%d), $cpu, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) cores, $(uname -sr)"
echo "median of $runs runs, round-robin ($signin_runs for signin); peak memory: median of 15 runs"
echo "fbauth executable, stripped (what Scripts/install.sh installs): $size_mb MB"
printf '%-40s %10s %12s\n' "command" "median" "peak memory"
row() { local ms="ms_$2" mib="mib_$2"; printf '%-40s %7s ms %8s MiB\n' "$1" "${!ms}" "${!mib}"; }
row "baseline: C program reading the token" baseline
row "floor: Swift program that only prints" floor
row "fbauth token (fresh saved token)" token
row "fbauth token --help" help
row "fbauth whoami --offline" whoami
row "fbauth signin (local stand-in, headless)" signin
row "fbauth verify-token (kept keys)" verify
row "verify-token --check-revoked (emulator)" revoked
echo "ID tokens verified per second, one core, keys in memory: $tokens_per_second"
echo "OpenSSL RSA-2048 verifications per second, one core: ${openssl_verifies:-n/a}"
echo "fbauth token / baseline: ${ratio}x"
echo "floor / baseline: ${floor_ratio}x (start-up of any Swift program linked this way)"
echo "fbauth token - floor: ${own_work} ms (fbauth's own work)"
echo "20 concurrent fbauth token on an expiring token: $refreshes refresh request(s)"
printf '%-40s %14s %14s\n' "emulator, one client in a loop" "fbauth" "Google's"
printf '%-40s %14s %14s\n' "start-up until it serves (ms)" "$fbauth_ready_ms" "$google_ready_ms"
for metric in signUp_per_second lookup_per_second import_1000_seconds list_all_seconds lookup_email_among_10_per_second lookup_email_among_large_per_second import_large_seconds; do
  printf '%-40s %14s %14s\n' "$metric" "$(field "$fbauth_load" "$metric")" "$(field "$google_load" "$metric")"
done

printf '%-40s %14s %14s\n' "Admin API against fbauth emulator" "FirebaseAdminAuth" "firebase-admin"
for metric in getUser_per_second import_10000_seconds list_10000_seconds list_memory_growth_mib; do
  printf '%-40s %14s %14s\n' "$metric" "$(field "$admin_swift" "$metric")" "$(field "$admin_python" "$metric")"
done

check() { if awk "BEGIN { exit !($2) }"; then echo "  met:     $1"; else echo "  MISSED:  $1"; fi; }
echo "targets:"
check "installed size at most 25 MB ($size_mb MB)" "$size_bytes <= 25000000"
check "fbauth token within 1.5x the baseline (${ratio}x)" "$ms_token <= 1.5 * $ms_baseline"
check "fbauth token under 3 ms ($ms_token ms)" "$ms_token < 3"
check "fbauth token peak memory under 15 MiB ($mib_token MiB)" "$mib_token < 15"
check "whole local signin under 150 ms ($ms_signin ms)" "$ms_signin < 150"
check "20 concurrent calls make one refresh request ($refreshes)" "$refreshes == 1"
[ "$ms_verify" = "n/a" ] || check "fbauth verify-token with kept keys under 5 ms ($ms_verify ms)" "$ms_verify < 5"
[ "$ms_verify" = "n/a" ] || check "fbauth verify-token with kept keys at most twice fbauth token ($ms_verify vs $ms_token ms)" "$ms_verify <= 2 * $ms_token"
[ -z "${openssl_verifies:-}" ] || [ "$tokens_per_second" = "n/a" ] || check "ID tokens/s at least half OpenSSL's RSA-2048 verifications/s ($tokens_per_second vs $openssl_verifies)" "$tokens_per_second * 2 >= $openssl_verifies"
if [ -n "$admin_swift" ] && [ -n "$admin_python" ]; then
  check "getUser/s from 16 tasks at least firebase-admin's ($(field "$admin_swift" getUser_per_second) vs $(field "$admin_python" getUser_per_second))" \
    "$(field "$admin_swift" getUser_per_second) >= $(field "$admin_python" getUser_per_second)"
  check "10,000 users imported no slower than firebase-admin ($(field "$admin_swift" import_10000_seconds) vs $(field "$admin_python" import_10000_seconds) s)" \
    "$(field "$admin_swift" import_10000_seconds) <= $(field "$admin_python" import_10000_seconds)"
  check "memory while listing 10,000 users grows under 32 MiB ($(field "$admin_swift" list_memory_growth_mib) MiB)" "$(field "$admin_swift" list_memory_growth_mib) < 32"
fi
if [ -n "$google_load" ]; then
  for metric in signUp_per_second lookup_per_second lookup_email_among_10_per_second lookup_email_among_large_per_second; do
    check "emulator $metric at least Google's ($(field "$fbauth_load" "$metric") vs $(field "$google_load" "$metric"))" \
      "$(field "$fbauth_load" "$metric") >= $(field "$google_load" "$metric")"
  done
  for metric in import_1000_seconds list_all_seconds import_large_seconds; do
    check "emulator $metric at most Google's ($(field "$fbauth_load" "$metric") vs $(field "$google_load" "$metric"))" \
      "$(field "$fbauth_load" "$metric") <= $(field "$google_load" "$metric")"
  done
fi
# An index, not a scan: a lookup among 100,000 users as fast as among 10 (within the noise of 20%).
check "emulator lookup by email among $(field "$fbauth_load" large) users within 20% of among 10 ($(field "$fbauth_load" lookup_email_among_large_per_second) vs $(field "$fbauth_load" lookup_email_among_10_per_second)/s)" \
  "$(field "$fbauth_load" lookup_email_among_large_per_second) >= 0.8 * $(field "$fbauth_load" lookup_email_among_10_per_second)"
