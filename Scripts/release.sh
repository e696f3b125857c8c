#!/usr/bin/env bash
# Builds a release's artifacts into dist/ (issue 40), the one place that knows how:
#
#   dist/fbauth-VERSION-OS-ARCH.tar.gz   bin/fbauth, the man page, bash/zsh/fish completions,
#                                       README.md (a top directory fbauth-VERSION/)
#   dist/fbauth_VERSION_DEBARCH.deb      Linux: /usr/bin/fbauth and Debian's man and completion paths
#   dist/fbauth-VERSION-1.ARCH.rpm       Linux, where rpmbuild is: the same for Fedora and RHEL
#   dist/apt/                            with FBAUTH_APT_KEY: a signed apt repository of the .deb
#   dist/fbauth-VERSION-source.tar.gz    the sources (git archive), what the formula builds
#   dist/fbauth.rb                       a Homebrew formula building that source tarball
#   dist/get-fbauth.sh                   the installer (Scripts/get-fbauth.sh)
#   dist/SHA256SUMS                      of all of them
#
#   Scripts/release.sh [DIST_DIR]
#
# The version comes from one place, FBAuthVersion.current (Sources/FBAuth/Firebase/ClientIdentity.swift);
# where the project lives is Scripts/project.env (its home, its maintainer), and the release
# location, where the installer and the formula download from, $FBAUTH_RELEASE_URL, by default
# FBAUTH_HOME/releases/download/vVERSION.
# Before writing anything it checks the binary it packs: no Swift runtime, Foundation or
# Dispatch library among its dependencies (ldd), and `fbauth demo` running with PATH=/usr/bin:/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
version=$(sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/FBAuth/Firebase/ClientIdentity.swift)
[ -n "$version" ] || { echo "release.sh: no version in Sources/FBAuth/Firebase/ClientIdentity.swift" >&2; exit 1; }
. Scripts/project.env
release_url="${FBAUTH_RELEASE_URL:-$FBAUTH_HOME/releases/download/v$version}"
os=$(uname -s | tr '[:upper:]' '[:lower:]')
arch=$(uname -m)
case "$arch" in x86_64|amd64) arch=x86_64 deb_arch=amd64 ;; aarch64|arm64) arch=arm64 deb_arch=arm64 ;; *) deb_arch=$arch ;; esac

bin="$(Scripts/build-release.sh)"
work=$(mktemp -d "${TMPDIR:-/tmp}/fbauth-release.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The binary, as the tarball holds it.
stage="$work/fbauth-$version"
# Staged for the archives (and deleted with $work): install.sh's "installed" line would name a
# place that is gone, so it is said only if the staging fails.
FBAUTH_INSTALL_BINARIES="$bin" Scripts/install.sh "$stage" >"$work/stage.log" 2>&1 || { cat "$work/stage.log" >&2; exit 1; }
strip "$stage/bin/fbauth" 2>/dev/null || true
cp README.md "$stage/"
[ ! -f LICENSE ] || cp LICENSE "$stage/"

# What it needs of the machine it runs on.
if [ "$os" = linux ]; then
  if ldd "$stage/bin/fbauth" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime'; then
    echo "release.sh: the binary needs the Swift toolchain's libraries (above)" >&2
    exit 1
  fi
  glibc=$(objdump -T "$stage/bin/fbauth" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
  demo=$(env -i PATH=/usr/bin:/bin HOME="$work/home" "$stage/bin/fbauth" demo --config-dir "$work/demo" </dev/null 2>&1) || {
    echo "release.sh: fbauth demo failed without the toolchain on PATH:" >&2; echo "$demo" >&2; exit 1; }
fi

tarball="fbauth-$version-$os-$arch.tar.gz"
tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$dist/$tarball" "fbauth-$version"
artifacts=("$tarball")

# The Debian package: Debian's paths, the measured glibc floor, the libcurl fbauth loads.
if [ "$os" = linux ] && command -v dpkg-deb >/dev/null 2>&1; then
  deb="$work/deb"
  install -d "$deb/DEBIAN" "$deb/usr/bin" "$deb/usr/share/man/man1" "$deb/usr/share/bash-completion/completions" \
    "$deb/usr/share/zsh/vendor-completions" "$deb/usr/share/fish/vendor_completions.d" "$deb/usr/share/doc/fbauth"
  install -m 0755 "$stage/bin/fbauth" "$deb/usr/bin/fbauth"
  gzip -9n < "$stage/share/man/man1/fbauth.1" > "$deb/usr/share/man/man1/fbauth.1.gz"
  install -m 0644 "$stage/share/bash-completion/completions/fbauth" "$deb/usr/share/bash-completion/completions/fbauth"
  install -m 0644 "$stage/share/zsh/site-functions/_fbauth" "$deb/usr/share/zsh/vendor-completions/_fbauth"
  install -m 0644 "$stage/share/fish/vendor_completions.d/fbauth.fish" "$deb/usr/share/fish/vendor_completions.d/fbauth.fish"
  cat > "$deb/usr/share/doc/fbauth/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: fbauth
Upstream-Contact: $FBAUTH_MAINTAINER
Source: $FBAUTH_HOME

Files: *
Copyright: 2025-2026 The fbauth authors
License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy of
 the License at http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 License for the specific language governing permissions and limitations under
 the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be
 found in "/usr/share/common-licenses/Apache-2.0".
EOF
  printf 'fbauth (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
    "$version" "$version" "$FBAUTH_MAINTAINER" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" | gzip -9n > "$deb/usr/share/doc/fbauth/changelog.gz"
  cat > "$deb/DEBIAN/control" <<EOF
Package: fbauth
Version: $version
Section: utils
Priority: optional
Architecture: $deb_arch
Maintainer: $FBAUTH_MAINTAINER
Depends: libc6 (>= $glibc), libcurl4 | libcurl4t64
Installed-Size: $(du -sk "$deb/usr" | cut -f1)
Homepage: $FBAUTH_HOME
Description: Firebase Authentication from the command line
 Signs in to Firebase Authentication with any OAuth provider Firebase supports
 (Yahoo, Microsoft, X, Google, GitHub, Apple, OIDC, SAML), email and password,
 email links and provider tokens, from terminals, scripts and CI; prints ID
 tokens for curl, kubectl and Google's client libraries.
EOF
  # Linked without PIE on purpose: `fbauth token` starts faster without its relocations (docs/speed.md).
  install -d "$deb/usr/share/lintian/overrides"
  echo "fbauth: hardening-no-pie [usr/bin/fbauth]" > "$deb/usr/share/lintian/overrides/fbauth"
  find "$deb" -type d -exec chmod 0755 {} +
  debfile="fbauth_${version}_${deb_arch}.deb"
  dpkg-deb --root-owner-group --build "$deb" "$dist/$debfile" >/dev/null
  # Clean under lintian where it is installed (Debian's lintian: a warning or an error fails).
  if command -v lintian >/dev/null 2>&1 && ! lintian --fail-on warning,error "$dist/$debfile" > "$work/lintian.log" 2>&1; then
    echo "release.sh: lintian:" >&2
    cat "$work/lintian.log" >&2
    exit 1
  fi
  artifacts+=("$debfile")
fi

# A signed apt repository of the .deb, when release.sh is given a key (FBAUTH_APT_KEY: a key id
# or fingerprint of gpg's keyring, GNUPGHOME as gpg finds it): dists/stable/{Release,InRelease,
# Release.gpg}, main/binary-ARCH/Packages(.gz), pool/, and the public key to put in
# /etc/apt/keyrings (fbauth-archive-keyring.gpg). Not in SHA256SUMS: apt checks it by its signature.
if [ -n "${FBAUTH_APT_KEY:-}" ] && [ -n "${debfile:-}" ]; then
  command -v dpkg-scanpackages >/dev/null 2>&1 && command -v gpg >/dev/null 2>&1 || {
    echo "release.sh: FBAUTH_APT_KEY is set, but the apt repository needs dpkg-scanpackages (dpkg-dev) and gpg" >&2; exit 1; }
  repo="$dist/apt"
  rm -rf "$repo"
  install -d "$repo/pool/main/f/fbauth" "$repo/dists/stable/main/binary-$deb_arch"
  cp "$dist/$debfile" "$repo/pool/main/f/fbauth/"
  (cd "$repo" && dpkg-scanpackages --multiversion pool /dev/null 2>/dev/null) > "$repo/dists/stable/main/binary-$deb_arch/Packages"
  gzip -9nk "$repo/dists/stable/main/binary-$deb_arch/Packages"
  # The Release, dated now and valid for FBAUTH_APT_VALID_DAYS (Scripts/apt-sign.sh, which the
  # weekly re-signing runs too).
  Scripts/apt-sign.sh "$repo"
  gpg --batch --yes --export "$FBAUTH_APT_KEY" > "$repo/fbauth-archive-keyring.gpg"
  [ -s "$repo/fbauth-archive-keyring.gpg" ] || { echo "release.sh: gpg has no key $FBAUTH_APT_KEY to export" >&2; exit 1; }
  # The key's fingerprint, for the README's Dockerfile lines to check the downloaded key against.
  gpg --batch --with-colons --show-keys "$repo/fbauth-archive-keyring.gpg" | awk -F: '/^fpr/ { print $10; exit }' > "$repo/fbauth-archive-keyring.fingerprint"
fi

# The RPM (rpmbuild, Debian's rpm package where that is the system): the paths of Fedora and
# RHEL, the licence where they keep licences, and libcurl, which fbauth loads, as a requirement.
if [ "$os" = linux ] && command -v rpmbuild >/dev/null 2>&1; then
  case "$arch" in arm64) rpm_arch=aarch64 ;; *) rpm_arch=$arch ;; esac
  rpmtop="$work/rpmbuild"
  mkdir -p "$rpmtop/SPECS" "$rpmtop/RPMS" "$rpmtop/BUILD" "$rpmtop/files"
  cp "$stage/bin/fbauth" "$stage/share/man/man1/fbauth.1" "$stage/share/zsh/site-functions/_fbauth" \
    "$stage/share/fish/vendor_completions.d/fbauth.fish" LICENSE README.md "$rpmtop/files/"
  cp "$stage/share/bash-completion/completions/fbauth" "$rpmtop/files/fbauth.bash"
  cat > "$rpmtop/SPECS/fbauth.spec" <<EOF
Name: fbauth
Version: $version
Release: 1
Summary: Firebase Authentication from the command line
License: Apache-2.0
URL: $FBAUTH_HOME
Packager: $FBAUTH_MAINTAINER
Requires: libcurl
Requires: glibc >= $glibc
AutoReqProv: no

%description
Signs in to Firebase Authentication with any OAuth provider Firebase supports
(Yahoo, Microsoft, X, Google, GitHub, Apple, OIDC, SAML), email and password,
email links and provider tokens, from terminals, scripts and CI; prints ID
tokens for curl, kubectl and Google's client libraries.

%install
f=$rpmtop/files
install -D -m 0755 \$f/fbauth %{buildroot}%{_bindir}/fbauth
install -D -m 0644 \$f/fbauth.1 %{buildroot}%{_mandir}/man1/fbauth.1
gzip -9n %{buildroot}%{_mandir}/man1/fbauth.1
install -D -m 0644 \$f/fbauth.bash %{buildroot}%{_datadir}/bash-completion/completions/fbauth
install -D -m 0644 \$f/_fbauth %{buildroot}%{_datadir}/zsh/site-functions/_fbauth
install -D -m 0644 \$f/fbauth.fish %{buildroot}%{_datadir}/fish/vendor_completions.d/fbauth.fish
install -D -m 0644 \$f/LICENSE %{buildroot}%{_datadir}/licenses/fbauth/LICENSE
install -D -m 0644 \$f/README.md %{buildroot}%{_docdir}/fbauth/README.md

%files
%{_bindir}/fbauth
%{_mandir}/man1/fbauth.1.gz
%{_datadir}/bash-completion/completions/fbauth
%{_datadir}/zsh/site-functions/_fbauth
%{_datadir}/fish/vendor_completions.d/fbauth.fish
%license %{_datadir}/licenses/fbauth/LICENSE
%doc %{_docdir}/fbauth/README.md
EOF
  rpmbuild -bb --quiet --target "$rpm_arch" --define "_topdir $rpmtop" --define "debug_package %{nil}" --define "__strip /bin/true" \
    --define "_build_id_links none" --define "__os_install_post %{nil}" "$rpmtop/SPECS/fbauth.spec" >"$work/rpmbuild.log" 2>&1 || {
    echo "release.sh: rpmbuild:" >&2; cat "$work/rpmbuild.log" >&2; exit 1; }
  rpmfile="fbauth-$version-1.$rpm_arch.rpm"
  cp "$rpmtop/RPMS/$rpm_arch/$rpmfile" "$dist/$rpmfile"
  artifacts+=("$rpmfile")
fi

# The sources, and the Homebrew formula that builds them with the static flags.
source="fbauth-$version-source.tar.gz"
git archive --format=tar.gz --prefix="fbauth-$version/" HEAD > "$dist/$source"
source_sha=$(sha256sum "$dist/$source" | cut -d' ' -f1)
commit=$(git rev-parse --short HEAD)
cat > "$dist/fbauth.rb" <<EOF
# Homebrew formula for fbauth $version, written by Scripts/release.sh.
class Fbauth < Formula
  desc "Firebase Authentication from the command line"
  homepage "$FBAUTH_HOME"
  url "$release_url/$source"
  sha256 "$source_sha"
  license "Apache-2.0"

  # Swift 6 (Xcode 16, or the swift.org toolchain on Linux).
  depends_on xcode: ["16.0", :build] if OS.mac?
  uses_from_macos "curl"

  def install
    ENV["FBAUTH_COMMIT"] = "$commit"
    bin.install Utils.safe_popen_read("Scripts/build-release.sh").strip + "/fbauth"
    man1.mkpath
    (man1/"fbauth.1").write Utils.safe_popen_read(bin/"fbauth", "help", "man")
    generate_completions_from_executable(bin/"fbauth", "completion")
  end

  test do
    assert_match "fbauth $version", shell_output("#{bin}/fbauth --version")
    output = shell_output("#{bin}/fbauth demo --config-dir #{testpath}/demo 2>&1")
    assert_match "Signed in as", output
  end
end
EOF
artifacts+=("$source" "fbauth.rb")
# The installer users pipe into sh (README), published beside what it installs.
# The installer downloads from this project's releases (Scripts/project.env), written into its default.
sed "s|^default_base=.*|default_base=\"$FBAUTH_HOME/releases\"|" Scripts/get-fbauth.sh > "$dist/get-fbauth.sh"
grep -q "^default_base=\"$FBAUTH_HOME/releases\"" "$dist/get-fbauth.sh" || { echo "release.sh: the installer's default download base was not written" >&2; exit 1; }
artifacts+=("get-fbauth.sh")

(cd "$dist" && sha256sum "${artifacts[@]}" > SHA256SUMS)
echo "$dist: ${artifacts[*]} SHA256SUMS (fbauth $version, glibc >= ${glibc:-?})"
