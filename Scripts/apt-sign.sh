#!/usr/bin/env bash
# Writes and signs the Release of an apt repository (issue 56): dists/stable/Release, InRelease
# and Release.gpg, from the Packages indexes already under dists/stable/main/binary-*/.
#
#   FBAUTH_APT_KEY=KEY Scripts/apt-sign.sh REPO
#
#   FBAUTH_APT_KEY         a key id or fingerprint of gpg's keyring (GNUPGHOME as gpg finds it)
#   FBAUTH_APT_VALID_DAYS  how long apt takes the signed Release (default 30)
#   FBAUTH_APT_DATE        its Date, in seconds since 1970 (default: now)
#
# A signed Release without Valid-Until could be served for ever: a mirror, or anyone on the way,
# could keep handing out an old one, and apt would never hear of a newer fbauth. With it apt
# refuses a Release past its date ("is expired"), so the published repository is re-signed
# before then: release.sh calls this for each release, and .github/workflows/apt-resign.yml
# weekly, on what is published. The packages are not touched; only the Release is new.
set -euo pipefail
repo=${1:?usage: FBAUTH_APT_KEY=KEY Scripts/apt-sign.sh REPO}
key=${FBAUTH_APT_KEY:?FBAUTH_APT_KEY names the key to sign with}
days=${FBAUTH_APT_VALID_DAYS:-30}
case "$days" in ''|*[!0-9]*|0) echo "apt-sign.sh: FBAUTH_APT_VALID_DAYS must be a whole number of days, 1 or more" >&2; exit 2 ;; esac
date=${FBAUTH_APT_DATE:-$(date +%s)}
case "$date" in ''|*[!0-9]*) echo "apt-sign.sh: FBAUTH_APT_DATE must be seconds since 1970" >&2; exit 2 ;; esac
. "$(dirname "$0")/project.env"
stable="$repo/dists/stable"
archs=$(cd "$stable/main" && ls -d binary-* 2>/dev/null | sed 's/^binary-//' | tr '\n' ' ' | sed 's/ $//')
[ -n "$archs" ] || { echo "apt-sign.sh: $stable/main holds no binary-ARCH/Packages to sign" >&2; exit 1; }
rfc2822() { LC_ALL=C date -u -R -d "@$1" 2>/dev/null || LC_ALL=C date -u -r "$1" '+%a, %d %b %Y %H:%M:%S +0000'; }
{
  echo "Origin: fbauth"
  echo "Label: fbauth"
  echo "Suite: stable"
  echo "Codename: stable"
  echo "Architectures: $archs"
  echo "Components: main"
  echo "Description: fbauth releases ($FBAUTH_HOME)"
  echo "Date: $(rfc2822 "$date")"
  echo "Valid-Until: $(rfc2822 $((date + days * 86400)))"
  for sum in MD5Sum:md5sum SHA256:sha256sum; do
    echo "${sum%%:*}:"
    (cd "$stable" && ls main/binary-*/Packages main/binary-*/Packages.gz 2>/dev/null) | while IFS= read -r file; do
      printf ' %s %s %s\n' "$(${sum#*:} "$stable/$file" | cut -d' ' -f1)" "$(wc -c < "$stable/$file" | tr -d ' ')" "$file"
    done
  done
} > "$stable/Release.new"
# Signed beside, then moved into place together: a reader never sees a Release without its
# signatures, or signatures of another Release.
gpg --batch --yes --local-user "$key" --armor --detach-sign -o "$stable/Release.gpg.new" "$stable/Release.new"
gpg --batch --yes --local-user "$key" --clearsign -o "$stable/InRelease.new" "$stable/Release.new"
mv -f "$stable/Release.new" "$stable/Release"
mv -f "$stable/Release.gpg.new" "$stable/Release.gpg"
mv -f "$stable/InRelease.new" "$stable/InRelease"
