#!/usr/bin/env bash
# Installs fbauth:
#   PREFIX/bin/fbauth
#   PREFIX/share/man/man1/fbauth.1
#   PREFIX/share/bash-completion/completions/fbauth
#   PREFIX/share/zsh/site-functions/_fbauth
#   PREFIX/share/fish/vendor_completions.d/fbauth.fish
#
#   Scripts/install.sh [PREFIX]    default: /usr/local when writable, else ~/.local
#
# Builds the release binaries first (Scripts/build-release.sh), unless FBAUTH_INSTALL_BINARIES
# names a directory that already holds fbauth (packagers, tests).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
  prefix="$1"
elif [ -w /usr/local ] || [ "$(id -u)" = 0 ]; then
  prefix=/usr/local
else
  prefix="$HOME/.local"
fi

binaries="${FBAUTH_INSTALL_BINARIES:-}"
[ -n "$binaries" ] || binaries="$(Scripts/build-release.sh)"
[ -x "$binaries/fbauth" ] || { echo "install.sh: $binaries/fbauth is missing" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/share/man/man1" \
  "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$binaries/fbauth" "$prefix/bin/fbauth"
# Release binaries carry debug information; installed ones need not.
if [ -z "${FBAUTH_INSTALL_BINARIES:-}" ] && command -v strip >/dev/null 2>&1; then
  strip "$prefix/bin/fbauth" 2>/dev/null || true
fi

fbauth="$prefix/bin/fbauth"
"$fbauth" help man > "$prefix/share/man/man1/fbauth.1"
"$fbauth" completion bash > "$prefix/share/bash-completion/completions/fbauth"
"$fbauth" completion zsh > "$prefix/share/zsh/site-functions/_fbauth"
"$fbauth" completion fish > "$prefix/share/fish/vendor_completions.d/fbauth.fish"

echo "Installed $("$fbauth" --version) in $prefix." >&2
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Add $prefix/bin to PATH to run it as fbauth." >&2 ;; esac
