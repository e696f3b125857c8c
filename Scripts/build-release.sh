#!/usr/bin/env bash
# Builds the release binaries into .build-release/bin and prints that directory:
#   fbauth      the front; on Linux a fully static executable (no shared libraries to load)
#   fbauth-net  the networked build, with the Swift runtime linked statically on Linux
# On Debian, linking FoundationNetworking statically needs libcurl4-openssl-dev; it is installed
# when missing (apt-get, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
out=.build-release/bin
mkdir -p "$out"

if [ "$(uname -s)" = Linux ]; then
  if command -v dpkg >/dev/null 2>&1 && ! dpkg -s libcurl4-openssl-dev >/dev/null 2>&1; then
    echo "Installing libcurl4-openssl-dev (needed to link fbauth-net statically)…" >&2
    (apt-get install -y libcurl4-openssl-dev || (apt-get update && apt-get install -y libcurl4-openssl-dev)) >&2
  fi
  front_flags=(-Xswiftc -static-executable)
  net_flags=(--static-swift-stdlib)
else
  front_flags=()
  net_flags=()
fi

# Two scratch paths: the two products are built with different flags.
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in bash 3 (macOS).
swift build -c release --product fbauth --scratch-path .build-release-front ${front_flags[@]+"${front_flags[@]}"} >&2
swift build -c release --product fbauth-net --scratch-path .build-release-net ${net_flags[@]+"${net_flags[@]}"} >&2
swift build -c release --product fbauth-fake-browser --scratch-path .build-release-net ${net_flags[@]+"${net_flags[@]}"} >&2
cp "$(swift build -c release --scratch-path .build-release-front --show-bin-path)/fbauth" "$out/"
net_bin="$(swift build -c release --scratch-path .build-release-net --show-bin-path)"
cp "$net_bin/fbauth-net" "$net_bin/fbauth-fake-browser" "$out/"
echo "$PWD/$out"
