#!/usr/bin/env bash
# build.sh — release binaries of gopi, one per platform and CPU variant,
# cross built from one Debian x86_64 machine.
#
#   ./build.sh                       every target in TARGETS
#   ./build.sh linux/amd64 windows/amd64   only those platforms (all variants)
#   SMOKE=0 ./build.sh               skip the smoke tests
#   GOPI_LANGUAGES=go,python ./build.sh   link only these grammars (smaller)
#
# Output in dist/:
#   gopi-<ver>-<os>-<arch>[-<variant>].tar.gz (.zip for Windows): the binary,
#     README.md, LICENSE and docs/ in a folder of the same name
#   SHA256SUMS      one line per archive
#   manifest.json   one object per target: files, checksums, sizes, whether
#                   the native core (Rust regex + ast-grep) is linked in,
#                   toolchain route and smoke-test result
#
# Routes (column "route" below; details in docs/building.md, "Release builds"):
#   host   the machine's own rustup toolchain and gcc (linux/amd64)
#   cross  Debian's rustc-web + rust-web-src with -Zbuild-std for the target,
#          Debian's cross gcc as C compiler, archiver and cgo linker
#   zig    macOS: the same rustc-web + -Zbuild-std for the Rust side, zig
#          (PyPI's ziglang) as C compiler, archiver and Mach-O linker,
#          against libSystem (shipped with zig) and text stubs of the other
#          system libraries Go calls (scripts/darwin-sdk-stubs.sh)
#   purego no native core: CGO_ENABLED=0 with the pure-Go fallbacks; the
#          binary's --version and docs/building.md's platform table say so
# Cross toolchains are installed by scripts/setup-cross.sh (apt, and zig
# from PyPI).
set -euo pipefail
cd "$(dirname "$0")"
root=$PWD

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
# git describe --dirty ignores files git does not track, which can still be
# compiled in (a new .go file): they mark the build too.
if [ -n "$(git status --porcelain --untracked-files=normal 2>/dev/null | grep '^??' || true)" ] && [ "${version%-dirty}" = "$version" ]; then
  version="$version-dirty"
fi
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# Reproducible date: the commit's time, not the wall clock.
date=$(TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
jobs=${JOBS:-2}
smoke=${SMOKE:-1}
[ "$smoke" = 0 ] || smoke=1 # anything but 0 runs them (SMOKE=yes too)
# GOPI_LANGUAGES=go,python,rust: link only these grammars (gopi's canonical
# names) into the native core, for a smaller binary; empty: all of them.
languages=${GOPI_LANGUAGES:-}
features=()
if [ -n "$languages" ]; then
  case ",$languages," in
  *,go,*) ;;
  *) echo "build: GOPI_LANGUAGES must include go (the smoke test searches Go code)" >&2; exit 2 ;;
  esac
  features=(--no-default-features --features "$(tr ',' '\n' <<<"$languages" | sed 's/^/lang-/' | paste -sd, -)")
fi

# os/arch/variant  route  rust-target  rust-cpu  C-march  GOAMD64  cross-prefix (zig: zig's target)
# ("-" for rust-cpu and C-march: the target's baseline, no flag passed, so a
# warm cargo cache from a plain build is reused.)
TARGETS=(
  "linux/amd64/baseline host  x86_64-unknown-linux-gnu  -         -         v1 -"
  # No "modern" (x86-64-v3) variant: GOAMD64=v3 showed no consistent gain
  # over v1 on the hot paths (bench/RESULTS.md, "CPU variants": the ratios
  # change sign between runs), and the Rust engines already pick AVX2 code
  # at run time (memchr, aho-corasick). To measure it with the Rust side
  # built for v3 too, add:
  # "linux/amd64/modern   host  x86_64-unknown-linux-gnu  x86-64-v3 x86-64-v3 v3 -"
  "linux/arm64/         cross aarch64-unknown-linux-gnu -         -         -  aarch64-linux-gnu-"
  "windows/amd64/       cross x86_64-pc-windows-gnu     -         -         v1 x86_64-w64-mingw32-"
  # For zig the last column is zig's target, with the minimum macOS that
  # Go 1.26 supports.
  "darwin/arm64/        zig   aarch64-apple-darwin      -         -         -  aarch64-macos.12.0"
  "darwin/amd64/        zig   x86_64-apple-darwin       -         -         v1 x86_64-macos.12.0"
)

say() { printf 'build: %s\n' "$*"; }
want() { # want OS/ARCH: is this platform selected (no filter: all are)?
  [ ${#filters[@]} -eq 0 ] && return 0
  for f in "${filters[@]}"; do [ "$f" = "$1" ] && return 0; done
  return 1
}
filters=("$@")
case "${1:-}" in
-h | --help)
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
  ;;
esac
# Every platform named must be one of TARGETS: a typo is an error, not a
# silently smaller release.
known=$(for t in "${TARGETS[@]}"; do read -r triple _ <<<"$t"; IFS=/ read -r os arch _ <<<"$triple"; echo "$os/$arch"; done | sort -u)
for f in "${filters[@]}"; do
  grep -qxF -- "$f" <<<"$known" || { echo "build: unknown platform '$f'; known: $(tr '\n' ' ' <<<"$known")" >&2; exit 2; }
done

# One build at a time in this tree: two would share dist/.
mkdir -p dist
exec 9>dist/.lock
flock -n 9 || { echo "build: another ./build.sh is running in this tree (dist/.lock)" >&2; exit 1; }

scripts/setup.sh
need_cross=0
for t in "${TARGETS[@]}"; do
  read -r triple route _ <<<"$t"; IFS=/ read -r os arch _ <<<"$triple"
  want "$os/$arch" || continue
  [ "$route" = host ] || need_cross=1
done
[ "$need_cross" = 1 ] && scripts/setup-cross.sh

# Everything is made in dist/.work and moves into dist/ only once every
# target has been built, packed and smoke-tested: a failed or interrupted
# build leaves the last complete release in dist/ as it was.
work=dist/.work
rm -rf "$work" && mkdir -p "$work/stage"
: > "$work/SHA256SUMS"
manifest=()
built=0
start=$(date +%s)

for t in "${TARGETS[@]}"; do
  read -r triple route rtarget rustcpu march golevel prefix <<<"$t"
  IFS=/ read -r os arch variant <<<"$triple"
  want "$os/$arch" || continue
  name="gopi-$version-$os-$arch${variant:+-$variant}"
  exe=gopi; [ "$os" = windows ] && exe=gopi.exe
  t0=$(date +%s)
  tags=netgo,osusergo
  # The CPU line of --version: every amd64 build without a named variant is
  # the x86-64 baseline (GOAMD64=v1), on Windows and macOS as on Linux.
  cpuvar=${variant:-default}
  [ -z "$variant" ] && [ "$arch" = amd64 ] && cpuvar=baseline
  ldflags="-s -w -X main.version=$version -X main.commit=$commit -X main.buildDate=$date -X main.cpuVariant=$cpuvar"
  goenv=(GOOS="$os" GOARCH="$arch")
  [ "$golevel" != - ] && goenv+=(GOAMD64="$golevel")
  native=true
  case $route in
  host|cross|zig)
    tdir="native/_target/$rtarget${variant:+-$variant}"
    rflags=(); cflags=(); gocflags=-O2
    [ "$rustcpu" != - ] && rflags=("RUSTFLAGS=-C target-cpu=$rustcpu")
    [ "$march" != - ] && gocflags+=" -march=$march"
    if [ "$route" = zig ]; then
      say "$name: native core cross built for $rtarget (Debian rustc-web, -Zbuild-std, zig cc -target $prefix)"
      up=$(echo "$rtarget" | tr 'a-z-' 'A-Z_'); low=${rtarget//-/_}
      export GOPI_ZIG="${GOPI_ZIG_HOME:-$HOME/.cache/gopi/zig-0.17.1}/ziglang/zig" GOPI_ZIG_TARGET=$prefix GOPI_ZIG_SDK="$root/$tdir/sdk"
      [ -x "$GOPI_ZIG" ] || { say "no zig at $GOPI_ZIG (scripts/setup-cross.sh installs it)" >&2; exit 1; }
      scripts/darwin-sdk-stubs.sh "$GOPI_ZIG_SDK" >/dev/null
      # No stripping: for Apple targets rustc strips the dylibs it links
      # (the cdylib of rure) with rust-objcopy, which Debian's rustc lacks;
      # the static library gopi links is never stripped by rustc anyway.
      (cd native && env "${rflags[@]}" PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="../$tdir" \
         CARGO_PROFILE_RELEASE_STRIP=false \
         "CARGO_TARGET_${up}_LINKER=$root/scripts/zig-cc.sh" "CC_${low}=$root/scripts/zig-cc.sh" "AR_${low}=$root/scripts/zig-ar.sh" \
         nice -n 10 /usr/bin/cargo build --release --locked --quiet -j "$jobs" \
           -Zbuild-std=std,panic_unwind --target "$rtarget" "${features[@]}")
      lib="$tdir/$rtarget/release/libgopi_native.a"
      cc="$root/scripts/zig-cc.sh"
    elif [ "$route" = host ]; then
      say "$name: native core with the host toolchain (rust target-cpu=$rustcpu, cc -march=$march)"
      [ "$march" != - ] && cflags=("CFLAGS=-O2 -march=$march")
      (cd native && env CARGO_TARGET_DIR="../$tdir" "${rflags[@]}" "${cflags[@]}" \
         nice -n 10 cargo build --release --locked --quiet -j "$jobs" "${features[@]}")
      lib="$tdir/release/libgopi_native.a"
      cc=gcc
    else
      say "$name: native core cross built for $rtarget (Debian rustc-web, -Zbuild-std, ${prefix}gcc)"
      up=$(echo "$rtarget" | tr 'a-z-' 'A-Z_'); low=${rtarget//-/_}
      [ "$march" != - ] && cflags=("CFLAGS_${low}=-O2 -march=$march")
      (cd native && env "${rflags[@]}" "${cflags[@]}" PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="../$tdir" \
         "CARGO_TARGET_${up}_LINKER=${prefix}gcc" "CC_${low}=${prefix}gcc" "AR_${low}=${prefix}ar" \
         nice -n 10 /usr/bin/cargo build --release --locked --quiet -j "$jobs" \
           -Zbuild-std=std,panic_unwind --target "$rtarget" "${features[@]}")
      lib="$tdir/$rtarget/release/libgopi_native.a"
      cc="${prefix}gcc"
    fi
    mkdir -p "$tdir/localized"
    stamp=$(sha256sum "$lib" | cut -c1-16)
    ldflags+=" -X github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$stamp"
    if [ "$route" = zig ]; then
      # No other copy of tree-sitter is linked into gopi (go-tree-sitter is
      # only in tests), so the library goes in as built. macOS has no
      # static executables: the system libraries are loaded at start-up.
      cp "$lib" "$tdir/localized/libgopi_native.a"
      goenv+=(CGO_ENABLED=1 CC="$cc" CGO_CFLAGS="$gocflags" CGO_LDFLAGS="-L$root/$tdir/localized")
    else
      cp=$prefix; [ "$cp" = - ] && cp=
      CROSS_PREFIX=$cp scripts/localize-native.sh "$lib" "$tdir/localized/libgopi_native.a"
      # Static executables: no dynamic loader at start-up, no glibc version
      # requirement on the user's machine, no MinGW DLLs next to gopi.exe.
      ldflags+=" -linkmode external -extldflags -static"
      goenv+=(CGO_ENABLED=1 CC="$cc" CGO_CFLAGS="$gocflags" CGO_LDFLAGS="-L$root/$tdir/localized")
    fi
    ;;
  purego)
    native=false
    say "$name: NO native core (pure-Go fallbacks: Go regexp, no AST engine); see docs/building.md, 'Platforms'"
    goenv+=(CGO_ENABLED=0)
    ;;
  esac
  stage="$work/stage/$name"
  mkdir -p "$stage"
  env "${goenv[@]}" nice -n 10 go build -trimpath -tags "$tags" -ldflags "$ldflags" -o "$stage/$exe" ./cmd/gopi
  cp -r README.md LICENSE docs "$stage/"
  # The commit's date on every file: archives of one commit are identical.
  find "$stage" -exec touch -d "$date" {} +
  if [ "$os" = windows ]; then
    archive="$name.zip"
    (cd "$work/stage" && rm -f "../$archive" && zip -qr -X "../$archive" "$name")
  else
    archive="$name.tar.gz"
    tar -C "$work/stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="$date" -czf "$work/$archive" "$name"
  fi
  smoked=skipped
  if [ "$smoke" = 1 ]; then
    if SMOKE_NATIVE=$native scripts/smoke.sh "$stage/$exe" "$os/$arch" "$variant" > "$work/stage/$name.smoke.log" 2>&1; then
      smoked=$(tail -1 "$work/stage/$name.smoke.log")
    else
      cat "$work/stage/$name.smoke.log" >&2
      say "$name: smoke test FAILED" >&2
      exit 1
    fi
    say "$name: smoke: $smoked"
  fi
  sum=$(sha256sum "$work/$archive" | cut -d' ' -f1)
  bsum=$(sha256sum "$stage/$exe" | cut -d' ' -f1)
  echo "$sum  $archive" >> "$work/SHA256SUMS"
  size=$(stat -c %s "$stage/$exe")
  manifest+=("$(printf '{"name":"%s","os":"%s","arch":"%s","variant":"%s","archive":"%s","sha256":"%s","binary":"%s","binary_sha256":"%s","binary_size":%s,"native_core":%s,"route":"%s","rust_target":"%s","goamd64":"%s","languages":"%s","smoke":"%s","build_seconds":%s}' \
    "$name" "$os" "$arch" "${variant:-default}" "$archive" "$sum" "$name/$exe" "$bsum" "$size" "$native" "$route" "$rtarget" "${golevel#-}" "${languages:-all}" "$smoked" "$(( $(date +%s) - t0 ))")")
  built=$((built + 1))
done

[ "$built" -gt 0 ] || { say "no target selected" >&2; exit 1; }
{
  printf '{"version":"%s","commit":"%s","date":"%s","go":"%s","targets":[\n' "$version" "$commit" "$date" "$(go env GOVERSION)"
  for i in "${!manifest[@]}"; do
    printf '  %s%s\n' "${manifest[$i]}" "$([ "$i" -lt $((${#manifest[@]} - 1)) ] && echo ,)"
  done
  printf ']}\n'
} > "$work/manifest.json"
# Publish: the previous release's files go, this one's come in.
rm -rf dist/stage dist/gopi-* dist/SHA256SUMS dist/manifest.json
mv "$work"/gopi-* "$work/SHA256SUMS" "$work/manifest.json" "$work/stage" dist/
rmdir "$work"
plural=s; [ "$built" = 1 ] && plural=
say "$built target$plural in $(( $(date +%s) - start )) s: archives, SHA256SUMS and manifest.json in dist/"
