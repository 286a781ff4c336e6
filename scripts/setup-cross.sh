#!/usr/bin/env bash
# setup-cross.sh — install what ./build.sh needs to cross build gopi's release
# binaries from a Debian 12 (bookworm) x86_64 machine. Called by build.sh;
# never by make, make test or .ci/run, which need none of this.
#
# Route (see docs/building.md, "Release builds"):
#   - Rust: Debian's rustc-web/cargo-web (a recent rustc, 1.96 on bookworm
#     security updates) with its own library sources (rust-web-src). No
#     rust-std is packaged for other targets, so build.sh compiles the
#     standard library for each target from those sources with cargo's
#     -Zbuild-std (RUSTC_BOOTSTRAP=1: the sources match the compiler exactly).
#   - C and link: Debian's cross gcc for linux/arm64 and windows/amd64
#     (MinGW-w64, posix threads), also used by Go's cgo.
#   - Smoke tests: qemu-user for linux/arm64, wine64 for windows/amd64.
#   - macOS: zig (PyPI's ziglang wheel, pinned below) compiles the C of the
#     native core and links the Mach-O executable; it ships macOS's libc
#     headers and libSystem stubs, scripts/darwin-sdk-stubs.sh writes the
#     rest. Unpacked into $GOPI_ZIG_HOME (default ~/.cache/gopi/zig-VERSION);
#     build.sh finds zig there.
# Idempotent: installs only what is missing, through apt.
set -euo pipefail

say() { printf 'setup-cross: %s\n' "$*"; }
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in rustc-web cargo-web rust-web-src python3-pip \
         gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu \
         gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 \
         qemu-user wine64 zip file llvm; do
  have_pkg "$p" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "missing ${need[*]}; run as root or install them with apt-get" >&2
    exit 1
  fi
  say "installing ${need[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The cross rustc must be the one whose sources rust-web-src ships.
rv=$(/usr/bin/rustc -V | awk '{print $2}')
[ -f /usr/lib/rustlib/src/rust/library/Cargo.lock ] || { say "rust-web-src has no library sources" >&2; exit 1; }
say "cross rustc $rv (Debian rustc-web) with matching library sources: ready"

# zig, for the macOS targets: the wheel from PyPI, unpacked (not installed
# into the system's Python), checked against its pinned digest.
zig_version=0.17.1
zig_wheel=ziglang-$zig_version-py3-none-manylinux_2_12_x86_64.manylinux2010_x86_64.musllinux_1_1_x86_64.whl
zig_sha256=${GOPI_ZIG_SHA256:-ea6cc5d87b033cf0aedfbc8f9549a908cae6c50ac31f1698188fa48a74524b54}
zig_home=${GOPI_ZIG_HOME:-$HOME/.cache/gopi/zig-$zig_version}
if [ ! -x "$zig_home/ziglang/zig" ]; then
  say "fetching zig $zig_version from PyPI (ziglang)"
  tmp=$(mktemp -d)
  python3 -m pip download --quiet --no-deps --only-binary=:all: "ziglang==$zig_version" -d "$tmp"
  [ -f "$tmp/$zig_wheel" ] || { say "pip gave no $zig_wheel" >&2; ls "$tmp" >&2; exit 1; }
  if [ -n "$zig_sha256" ]; then
    echo "$zig_sha256  $tmp/$zig_wheel" | sha256sum -c --quiet - || { say "ziglang wheel digest mismatch" >&2; exit 1; }
  fi
  mkdir -p "$zig_home"
  python3 -m zipfile -e "$tmp/$zig_wheel" "$zig_home"
  chmod +x "$zig_home/ziglang/zig"
  rm -rf "$tmp"
fi
say "zig $("$zig_home/ziglang/zig" version) in $zig_home: ready"
