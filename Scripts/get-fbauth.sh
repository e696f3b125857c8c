#!/bin/sh
# Installs fbauth from a release, without a Swift toolchain (issue 40):
#
#   curl -fsSL https://github.com/fbauth/fbauth/releases/latest/download/get-fbauth.sh | sh
#
# It downloads fbauth-VERSION-OS-ARCH.tar.gz and SHA256SUMS from the release location over https,
# checks the tarball against SHA256SUMS, and only then installs bin/fbauth (with its man page and
# shell completions beside it, under the same prefix). A download that is cut short, a checksum
# that does not match, a release without this machine's tarball, or an install directory another
# user could change installs nothing.
#
#   FBAUTH_VERSION        the version to install (default: the latest release)
#   FBAUTH_DOWNLOAD_URL   where releases are (default: https://github.com/fbauth/fbauth/releases);
#                         VERSION's files are under FBAUTH_DOWNLOAD_URL/download/vVERSION/, the
#                         latest's under FBAUTH_DOWNLOAD_URL/latest/download/, as on GitHub; or,
#                         as Scripts/release.sh writes dist/, right in it (its SHA256SUMS there).
#                         https only; http is taken from a loopback host (a local mirror) or with
#                         FBAUTH_ALLOW_HTTP=1. A directory on this machine (/path/to/dist, or
#                         file:///path/to/dist) is taken when no other user could change it.
#   FBAUTH_INSTALL_DIR    where the program goes (default: ~/.local/bin; /usr/local/bin as root)
#
# Nothing downloaded is ever run or made into a pattern: SHA256SUMS is read as fields and compared
# as strings (issue 47).
set -eu

say() { printf 'get-fbauth: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }

# This project's releases: Scripts/release.sh writes Scripts/project.env's FBAUTH_HOME here.
default_base="https://github.com/fbauth/fbauth/releases"
base=${FBAUTH_DOWNLOAD_URL:-$default_base}
base=${base%/}
# A directory on this machine, as a path or a file:// URL (with no host).
case "$base" in
  /*) local_dir=$base; base="file://$base" ;;
  file:///*) local_dir=${base#file://} ;;
  *) local_dir= ;;
esac
version=${FBAUTH_VERSION:-}
if [ -n "$version" ]; then
  version=${version#v}
  case "$version" in
    *[!0-9A-Za-z.+~-]*) fail "FBAUTH_VERSION '$version' is not a version (letters, digits and . + ~ - only)" ;;
  esac
  url="$base/download/v$version"
else
  url="$base/latest/download"
fi

# The host, exactly: the URL's authority (up to the first / ? or #) must be a loopback name and
# at most a port. Anything else, a user part included (http://127.0.0.1:80@HOST/ is HOST to curl),
# is another host.
authority=${base#*://}
authority=${authority%%[/?#]*}
case "$authority" in
  127.0.0.1|localhost|\[::1\]) loopback=yes ;;
  127.0.0.1:*|localhost:*|\[::1\]:*)
    case "${authority#*[1t\]]:}" in
      ''|*[!0-9]*) loopback=no ;;
      *) loopback=yes ;;
    esac ;;
  *) loopback=no ;;
esac

# SHA256SUMS comes from the same place as the tarball, so over plain http nothing would be checked
# against the network: https only, but for a mirror on this machine, or when the user says so.
case "$base" in
  https://*) plain=no ;;
  file:///*) plain=no ;;
  http://*)
    if [ "$loopback" = yes ]; then
      plain=yes
    else
      [ "${FBAUTH_ALLOW_HTTP:-}" = 1 ] || fail "refusing $base: releases are downloaded over https only (http only from 127.0.0.1, localhost or [::1], or with FBAUTH_ALLOW_HTTP=1)"
      say "warning: downloading over plain http ($base): anyone on the way can replace both the tarball and SHA256SUMS"
      plain=yes
    fi ;;
  *) fail "refusing $base: FBAUTH_DOWNLOAD_URL must be an https:// URL" ;;
esac

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

# A mirror on this machine is asked directly: a proxy would be another host on the way, and over
# plain http one that could answer for it.
if [ "$loopback" = yes ]; then
  unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY
fi

# Redirects are followed only to https (GitHub sends downloads to another host); plain http is
# allowed for the first request only where the checks above allowed it.
if [ -n "$local_dir" ]; then
  # A folder on this machine: its files are copied (the folder was judged below).
  fetch() { [ -f "${1#file://}" ] && cp "${1#file://}" "$2"; }
elif command -v curl >/dev/null 2>&1; then
  if [ "$plain" = yes ]; then protocols==http,https; else protocols==https; fi
  fetch() { curl -fsL --retry 2 --proto "$protocols" --proto-redir =https -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  # wget has no switch for the protocol of a redirect: its answers' Location headers are read.
  fetch() {
    wget -q -S -O "$2" "$1" 2>"$work/headers" || return 1
    if grep -Ei '^ *location: *[a-z][a-z0-9+.-]*:' "$work/headers" | grep -qvEi '^ *location: *https:'; then
      say "$1 redirected to a URL that is not https"
      return 1
    fi
  }
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

# A directory another user owns or may write in (but for a sticky one they cannot replace our
# files in) would let them swap what is installed: refuse it, naming it. Root's are trusted.
untrusted() {
  info=$(ls -ldn "$1" 2>/dev/null) || return 1
  mode=$(printf '%s\n' "$info" | awk '{ print $1 }')
  owner=$(printf '%s\n' "$info" | awk '{ print $3 }')
  if [ "$owner" != "$(id -u)" ] && [ "$owner" != 0 ]; then
    reason="is owned by another user (uid $owner)"
    return 0
  fi
  case "$mode" in
    ?????????[tT]*) ;;  # sticky: others cannot rename or remove our files there
    ?????w*|????????w*) reason="can be written by other users ($mode)"; return 0 ;;
  esac
  return 1
}

# The install directory and every directory above it, as fbauth judges its config directory
# (OpenSSH's safe_path): one above that another user owns or may write in (unless sticky) lets
# them rename the install directory away and put their own in its place. Sets $culprit.
untrusted_path() {
  culprit=$1
  untrusted "$1" && return 0
  dir=$1
  while [ "$dir" != / ]; do
    dir=$(dirname "$dir")
    culprit=$dir
    untrusted "$dir" && return 0
  done
  return 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/get-fbauth.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# A local release folder must be the user's own, and so must every folder above it: another
# user who could change it chooses what is installed.
if [ -n "$local_dir" ]; then
  [ -d "$local_dir" ] || fail "$local_dir is not a directory (FBAUTH_DOWNLOAD_URL)"
  if untrusted_path "$local_dir"; then
    fail "$culprit $reason, who could change what is installed from $local_dir: nothing was installed"
  fi
fi
# The folder release.sh writes (dist/) holds SHA256SUMS itself; GitHub's layout holds it under
# download/vVERSION/ (or latest/download/). A mirror given may be either.
if [ -n "${FBAUTH_DOWNLOAD_URL:-}" ] && fetch "$base/SHA256SUMS" "$work/SHA256SUMS" 2>/dev/null; then
  url=$base
else
  fetch "$url/SHA256SUMS" "$work/SHA256SUMS" || fail "cannot download $url/SHA256SUMS"
fi
# The latest release says which version it is in its file names. Exactly one line may name a
# tarball for this machine, and only a name of the release's own form is taken.
lines=$(os="$os" arch="$arch" version="$version" awk '
  {
    n = $2; sub(/^\*/, "", n)
    suffix = "-" ENVIRON["os"] "-" ENVIRON["arch"] ".tar.gz"
    if (substr(n, 1, 7) != "fbauth-" || length(n) <= 7 + length(suffix) || substr(n, length(n) - length(suffix) + 1) != suffix) next
    if (ENVIRON["version"] != "" && n != "fbauth-" ENVIRON["version"] suffix) next
    bad = (NF != 2 || $1 !~ /^[0-9a-f]+$/ || length($1) != 64)
    middle = substr(n, 8, length(n) - 7 - length(suffix))
    if (middle !~ /^[0-9A-Za-z.+~-]+$/) bad = 1
    print (bad ? "bad" : $1 " " n)
  }' "$work/SHA256SUMS")
count=$(printf '%s' "$lines" | grep -c '' || true)
[ "$count" -gt 0 ] || fail "the release at $url has no tarball for $os-$arch"
[ "$count" -eq 1 ] || fail "the release's SHA256SUMS names $count tarballs for $os-$arch, where one is expected: nothing was installed"
[ "$lines" != bad ] || fail "the release's SHA256SUMS line for $os-$arch is not a checksum and a tarball's name (fbauth-VERSION-$os-$arch.tar.gz): nothing was installed"
expected=${lines%% *}
name=${lines#* }
fetch "$url/$name" "$work/$name" || fail "cannot download $url/$name"
actual=$(digest "$work/$name")
[ "$actual" = "$expected" ] || fail "$name does not match SHA256SUMS (expected $expected, got $actual): nothing was installed"

mkdir "$work/unpacked"
tar -xzf "$work/$name" -C "$work/unpacked" || fail "$name cannot be unpacked: nothing was installed"
top=$(ls "$work/unpacked")
[ -x "$work/unpacked/$top/bin/fbauth" ] || fail "$name holds no bin/fbauth: nothing was installed"

mkdir -p "$bindir" || fail "cannot create $bindir: nothing was installed"
# Judged where it really is: a link to the install directory (or above it) is resolved first,
# and the directories above what it resolves to are the ones checked.
given=$bindir
bindir=$(CDPATH= cd -P -- "$bindir" 2>/dev/null && pwd -P) || fail "cannot enter $given: nothing was installed"
if untrusted_path "$bindir"; then
  where=$bindir
  [ "$given" = "$bindir" ] || where="$given (which is $bindir)"
  if [ "$culprit" = "$bindir" ]; then
    fail "$where $reason, who could replace fbauth there: choose another FBAUTH_INSTALL_DIR; nothing was installed"
  fi
  fail "$where is inside $culprit, which $reason, who could replace fbauth there: choose another FBAUTH_INSTALL_DIR; nothing was installed"
fi
# Into place whole: a new file of our own beside the target (never a name another process could
# have made first), then renamed over it.
place() {
  new=$(mktemp "$2/.fbauth.XXXXXX") || return 1
  if cat "$1" >"$new" && chmod "$3" "$new" && mv -f "$new" "$2/$4"; then return 0; fi
  rm -f "$new"
  return 1
}
place "$work/unpacked/$top/bin/fbauth" "$bindir" 0755 fbauth || fail "cannot write $bindir/fbauth: nothing was installed"
# The man page and completions, under the same prefix, into directories that are ours (or root's).
share="$(dirname "$bindir")/share"
if [ -d "$work/unpacked/$top/share" ]; then
  (cd "$work/unpacked/$top/share" && find . -type f) | while IFS= read -r file; do
    directory="$share/$(dirname "$file")"
    mkdir -p "$directory" 2>/dev/null || continue
    if untrusted_path "$directory"; then
      say "not installing ${file#./}: $culprit $reason"
      continue
    fi
    place "$work/unpacked/$top/share/$file" "$directory" 0644 "$(basename "$file")" || say "cannot write $directory/$(basename "$file")"
  done
fi
say "installed ${name%.tar.gz} as $given/fbauth"
case ":$PATH:" in *":$given:"*|*":$bindir:"*) ;; *) say "$given is not on PATH: add it, e.g. export PATH=\"$given:\$PATH\"" ;; esac
# Where the rest went, and what loads it: shells find these only in some places.
[ -f "$share/man/man1/fbauth.1" ] && say "man page: $share/man/man1/fbauth.1 (man finds it once $bindir is on PATH; else: man $share/man/man1/fbauth.1)"
if [ -f "$share/bash-completion/completions/fbauth" ]; then
  if [ -f /usr/share/bash-completion/bash_completion ] || [ -f /etc/bash_completion ] || [ -f /opt/homebrew/etc/profile.d/bash_completion.sh ]; then
    say "bash completion: $share/bash-completion/completions/fbauth (the bash-completion package loads it in new shells)"
  else
    say "bash completion: $share/bash-completion/completions/fbauth; without the bash-completion package nothing loads it: add to ~/.bashrc: . $share/bash-completion/completions/fbauth"
  fi
fi
[ -f "$share/zsh/site-functions/_fbauth" ] && say "zsh completion: $share/zsh/site-functions/_fbauth; add to ~/.zshrc before compinit: fpath=($share/zsh/site-functions \$fpath)"
[ -f "$share/fish/vendor_completions.d/fbauth.fish" ] && say "fish completion: $share/fish/vendor_completions.d/fbauth.fish"
exit 0
