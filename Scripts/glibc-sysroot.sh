#!/usr/bin/env bash
# Makes the C library the release links against: Debian 11's (bullseye, glibc 2.31), so that
# the release binary asks for nothing newer and runs on every Linux a CI uses (issue 51;
# docs/release.md). Writes DIR/lib (libc, libm, libpthread, libdl and their linker scripts,
# pointing inside DIR), DIR/crt (crt1.o, crti.o, crtn.o) and DIR/libgcc_eh.a (GCC 10's unwinder,
# which finds frames with dl_iterate_phdr rather than glibc 2.35's _dl_find_object).
#
#   Scripts/glibc-sysroot.sh DIR      prints DIR when it is ready; exits 1 when the packages
#                                     cannot be fetched (no apt, no network)
#
# The packages come from Debian's archive through apt, with a sources list, state and cache of
# this script's own (nothing on the system changes; no root needed), checked against the
# bullseye keys of debian-archive-keyring. DIR is kept: a second run reuses it.
set -euo pipefail
final="$1"
[ -f "$final/ready" ] && { echo "$final"; exit 0; }
# One maker at a time (release builds run side by side in the tests); made aside, then moved.
mkdir -p "$(dirname "$final")"
exec 9>"$final.lock"
command -v flock >/dev/null 2>&1 && flock 9
[ -f "$final/ready" ] && { echo "$final"; exit 0; }
dir="$final.partial"
command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || { echo "glibc-sysroot: needs apt-get and dpkg-deb" >&2; exit 1; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "glibc-sysroot: needs $keyring (debian-archive-keyring)" >&2; exit 1; }
mirror="${FBAUTH_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
case "$(uname -m)" in
  x86_64) arch=amd64 multiarch=x86_64-linux-gnu loader=ld-linux-x86-64.so.2 ;;
  aarch64) arch=arm64 multiarch=aarch64-linux-gnu loader=ld-linux-aarch64.so.1 ;;
  *) echo "glibc-sysroot: no sysroot for $(uname -m)" >&2; exit 1 ;;
esac
rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root"
echo "deb [signed-by=$keyring] $mirror bullseye main" > "$dir/apt/sources.list"
apt=(apt-get -qq -o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=- -o "Dir::State::Lists=$dir/apt/lists"
  -o "Dir::Cache=$dir/apt/cache" -o Dir::State::Status=/dev/null -o "APT::Architecture=$arch" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
"${apt[@]}" update >&2 || { echo "glibc-sysroot: cannot reach $mirror" >&2; exit 1; }
(cd "$dir/debs" && "${apt[@]}" download libc6 libc6-dev libgcc-10-dev >&2)
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
mkdir -p "$dir/lib" "$dir/crt"
cp "$dir/root/usr/lib/$multiarch/"{crt1.o,Scrt1.o,crti.o,crtn.o} "$dir/crt/"
cp "$dir/root/usr/lib/gcc/$multiarch/10/libgcc_eh.a" "$dir/libgcc_eh.a"
# The shared objects to link against, and scripts like Debian's but naming these copies (a
# script's absolute paths would otherwise be the build machine's own, newer, libraries).
for lib in libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 "$loader"; do cp -L "$dir/root/lib/$multiarch/$lib" "$dir/lib/$lib"; done
cp "$dir/root/usr/lib/$multiarch/libc_nonshared.a" "$dir/lib/"
lib="$(cd "$dir/lib" && pwd)"
echo "GROUP ( $lib/libc.so.6 $lib/libc_nonshared.a AS_NEEDED ( $lib/$loader ) )" > "$lib/libc.so"
ln -sf libm.so.6 "$lib/libm.so"
ln -sf libpthread.so.0 "$lib/libpthread.so"
ln -sf libdl.so.2 "$lib/libdl.so"
rm -rf "$dir/root" "$dir/debs" "$dir/apt"
# The linker scripts name the final directory.
sed -i "s|$dir/|$final/|g" "$dir/lib/libc.so"
touch "$dir/ready"
rm -rf "$final"
mv "$dir" "$final"
echo "$final"
