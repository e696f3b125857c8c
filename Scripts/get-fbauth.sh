#!/bin/sh
# Installs fbauth from a release, without a Swift toolchain (issue 40):
#
#   curl -fsSL https://github.com/fbauth/fbauth/releases/latest/download/get-fbauth.sh | sh
#
# It downloads fbauth-VERSION-OS-ARCH.tar.gz and SHA256SUMS from the release location, checks the
# tarball against SHA256SUMS, and only then installs bin/fbauth (with its man page and shell
# completions beside it, under the same prefix). A download that is cut short, a checksum that
# does not match, or a release without this machine's tarball installs nothing.
#
#   FBAUTH_VERSION        the version to install (default: the latest release)
#   FBAUTH_DOWNLOAD_URL   where releases are (default: https://github.com/fbauth/fbauth/releases);
#                         VERSION's files are under FBAUTH_DOWNLOAD_URL/download/vVERSION/, the
#                         latest's under FBAUTH_DOWNLOAD_URL/latest/download/
#   FBAUTH_INSTALL_DIR    where the program goes (default: ~/.local/bin; /usr/local/bin as root)
set -eu

say() { printf 'get-fbauth: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }

base=${FBAUTH_DOWNLOAD_URL:-https://github.com/fbauth/fbauth/releases}
base=${base%/}
version=${FBAUTH_VERSION:-}
if [ -n "$version" ]; then
  version=${version#v}
  url="$base/download/v$version"
else
  url="$base/latest/download"
fi
if [ -n "${FBAUTH_INSTALL_DIR:-}" ]; then
  bindir=$FBAUTH_INSTALL_DIR
elif [ "$(id -u)" = 0 ]; then
  bindir=/usr/local/bin
else
  bindir=$HOME/.local/bin
fi

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "no release for $(uname -s); build from source (README: Installing)" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) fail "no release for $(uname -m); build from source (README: Installing)" ;;
esac

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  fail "needs curl or wget to download"
fi
if command -v sha256sum >/dev/null 2>&1; then
  digest() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  digest() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
  fail "needs sha256sum or shasum to check the download"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/get-fbauth.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

fetch "$url/SHA256SUMS" "$work/SHA256SUMS" || fail "cannot download $url/SHA256SUMS"
# The latest release says which version it is in its file names.
name=$(sed -n "s/^[0-9a-f]\{64\}  \(fbauth-[^ ]*-$os-$arch\.tar\.gz\)\$/\1/p" "$work/SHA256SUMS" | head -n 1)
[ -n "$name" ] || fail "the release at $url has no tarball for $os-$arch"
expected=$(sed -n "s/^\([0-9a-f]\{64\}\)  $name\$/\1/p" "$work/SHA256SUMS")
fetch "$url/$name" "$work/$name" || fail "cannot download $url/$name"
actual=$(digest "$work/$name")
[ "$actual" = "$expected" ] || fail "$name does not match SHA256SUMS (expected $expected, got $actual): nothing was installed"

mkdir "$work/unpacked"
tar -xzf "$work/$name" -C "$work/unpacked" || fail "$name cannot be unpacked: nothing was installed"
top=$(ls "$work/unpacked")
[ -x "$work/unpacked/$top/bin/fbauth" ] || fail "$name holds no bin/fbauth: nothing was installed"

# Into place whole: copied beside the target, then renamed over it.
mkdir -p "$bindir"
cp "$work/unpacked/$top/bin/fbauth" "$bindir/.fbauth.new.$$"
chmod 0755 "$bindir/.fbauth.new.$$"
mv -f "$bindir/.fbauth.new.$$" "$bindir/fbauth"
share="$(dirname "$bindir")/share"
if [ -d "$work/unpacked/$top/share" ] && mkdir -p "$share" 2>/dev/null; then
  cp -R "$work/unpacked/$top/share/." "$share/" 2>/dev/null || true
fi
say "installed ${name%.tar.gz} as $bindir/fbauth"
case ":$PATH:" in *":$bindir:"*) ;; *) say "$bindir is not on PATH: add it, e.g. export PATH=\"$bindir:\$PATH\"" ;; esac
