#!/usr/bin/env bash
# build.sh — release binaries of gopi, one per platform and CPU variant.
#
#   ./build.sh                 every target this machine can build
#   ./build.sh linux/amd64     only the variants of one platform
#
# Output: dist/gopi-<os>-<arch>[-<variant>] and dist/SHA256SUMS (one line per
# binary). Each variant builds the native library with its own C/Rust CPU
# flags into its own cargo target directory, and links Go with the matching
# GOAMD64 level. Other platforms are listed in TARGETS; a target whose Rust
# standard library or C cross compiler is not installed is skipped with a
# message (toolchains are never downloaded).
set -euo pipefail
cd "$(dirname "$0")"

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)

# os/arch/variant  GOAMD64-or-GOARM64  rust-target-cpu  C -march
TARGETS=(
  "linux/amd64/baseline v1 x86-64    x86-64"
  "linux/amd64/modern   v3 x86-64-v3 x86-64-v3"
  "linux/arm64/         -  generic   armv8-a"
)

filter=${1:-}
host_os=$(go env GOHOSTOS)
host_arch=$(go env GOHOSTARCH)
scripts/setup.sh
mkdir -p dist
: > dist/SHA256SUMS.tmp

built=0
for t in "${TARGETS[@]}"; do
  read -r triple golevel rustcpu march <<<"$t"
  IFS=/ read -r os arch variant <<<"$triple"
  [ -n "$filter" ] && [ "$filter" != "$os/$arch" ] && continue
  if [ "$os/$arch" != "$host_os/$host_arch" ]; then
    echo "build: skipping $os/$arch${variant:+/$variant}: cross builds need a Rust std for that target, which is not installed here"
    continue
  fi
  name="gopi-$os-$arch${variant:+-$variant}"
  tdir="native/_target/release-${variant:-default}"
  echo "build: $name (rust target-cpu=$rustcpu, cc -march=$march, go ${golevel})"
  (cd native && CARGO_TARGET_DIR="_target/release-${variant:-default}" \
     RUSTFLAGS="-C target-cpu=$rustcpu" CFLAGS="-march=$march -O2" \
     cargo build --release --locked --quiet)
  mkdir -p "$tdir/localized"
  scripts/localize-native.sh "$tdir/release/libgopi_native.a" "$tdir/localized/libgopi_native.a"
  goenv=()
  [ "$arch" = amd64 ] && [ "$golevel" != - ] && goenv+=("GOAMD64=$golevel")
  env "${goenv[@]}" CGO_ENABLED=1 GOOS="$os" GOARCH="$arch" \
    CGO_CFLAGS="-O2 -march=$march" CGO_LDFLAGS="-L$PWD/$tdir/localized" \
    go build -trimpath -o "dist/$name" \
    -ldflags "-s -w -X main.version=$version -X github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$(sha256sum "$tdir/release/libgopi_native.a" | cut -c1-16)" \
    ./cmd/gopi
  (cd dist && sha256sum "$name") | tee -a dist/SHA256SUMS.tmp
  built=$((built + 1))
done
mv dist/SHA256SUMS.tmp dist/SHA256SUMS
[ "$built" -gt 0 ] || { echo "build: no target built" >&2; exit 1; }
echo "build: $built binaries in dist/, checksums in dist/SHA256SUMS"
