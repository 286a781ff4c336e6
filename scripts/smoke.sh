#!/usr/bin/env bash
# smoke.sh BINARY OS/ARCH [VARIANT] — run a release binary where this
# machine can: linux/amd64 directly, linux/arm64 under qemu-user,
# windows/amd64 under wine. The linux/amd64 baseline variant also runs every
# check under `qemu-x86_64 -cpu qemu64` (an x86-64 v1 CPU: no SSE4, no AVX),
# so nothing chosen at run time may use a newer instruction; the modern
# variant must refuse that CPU with Go's message instead of crashing.
# Each run checks --version (target and native-engine lines), a regex
# grep, an AST search and a token count on a small Go file. darwin binaries
# cannot run here: they are checked with `file` and their Mach-O load
# commands only (architecture, minimum macOS, linked libraries), and the last
# line says so. The last line of output is the summary build.sh records.
set -euo pipefail
bin=$(realpath "${1:?usage: smoke.sh BINARY OS/ARCH}")
here=$(cd "$(dirname "$0")" && pwd)
target=${2:?usage: smoke.sh BINARY OS/ARCH}
variant=${3:-}
host="$(go env GOHOSTOS)/$(go env GOHOSTARCH)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "smoke: $target: $*" >&2; exit 1; }
file -b "$bin"

case $target in
darwin/*)
  want=arm64; [ "$target" = darwin/amd64 ] && want=x86_64
  file -b "$bin" | grep -q "Mach-O 64-bit.*$want" || fail "not a Mach-O $want executable"
  otool=$(command -v llvm-otool-14 || command -v llvm-otool || true)
  [ -n "$otool" ] || fail "llvm-otool is missing (apt-get install llvm)"
  "$otool" -l "$bin" > "$tmp/lc"
  grep -A4 -E 'LC_BUILD_VERSION|LC_VERSION_MIN_MACOSX' "$tmp/lc" | sed 's/^ */  /'
  "$otool" -L "$bin" | tail -n +2
  # Only system libraries may be linked: a release binary must run on a
  # bare macOS.
  if "$otool" -L "$bin" | tail -n +2 | grep -v -E '^\s*(/usr/lib/|/System/Library/)'; then
    fail "links a library outside the macOS system"
  fi
  # macOS kills an arm64 executable without a code signature (ad-hoc is
  # enough; Go's linker and zig's both write one).
  if [ "$want" = arm64 ] && ! grep -q LC_CODE_SIGNATURE "$tmp/lc"; then
    fail "no code signature (LC_CODE_SIGNATURE)"
  fi
  # Every imported function is bound to a named library (two-level
  # namespace): none is left to a lookup in whatever happens to be loaded.
  objdump=$(command -v llvm-objdump-14 || command -v llvm-objdump)
  "$objdump" --macho --bind --lazy-bind "$bin" > "$tmp/bind"
  if grep -q -E 'flat-namespace|dynamic-lookup' "$tmp/bind"; then
    fail "symbols bound by flat or dynamic lookup: $(grep -E 'flat-namespace|dynamic-lookup' "$tmp/bind" | head -3)"
  fi
  native="pure Go"
  "$objdump" --macho --syms "$bin" > "$tmp/syms"
  if grep -q '_Cfunc_gopi_ast_search$' "$tmp/syms"; then native="native core linked"; fi
  # build.sh says what it linked (SMOKE_NATIVE=true|false): hold it to that.
  if [ "${SMOKE_NATIVE:-}" = true ] && [ "$native" = "pure Go" ]; then fail "built with the native core, but it is not linked"; fi
  echo "checked file type, load commands and symbol bindings only, $native (no macOS runner on this machine)"
  exit 0
  ;;
"$host") run=("$bin") ;;
linux/arm64) run=(qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin") ;;
windows/amd64)
  export WINEPREFIX="${GOPI_WINEPREFIX:-$HOME/.cache/gopi-smoke-wine}" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  wine=$(command -v wine64 || command -v wine || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; } || true)
  [ -n "$wine" ] || fail "wine is missing (apt-get install wine64)"
  run=("$wine" "$bin")
  # wine 8 has no bcryptprimitives.dll (Windows 10+ does; Rust's std needs
  # its ProcessPrng): give the test prefix a stand-in built from
  # scripts/wine/bcryptprimitives.c. Nothing of it ships.
  sys32="$WINEPREFIX/drive_c/windows/system32"
  if [ ! -e "$sys32/bcryptprimitives.dll" ]; then
    [ -d "$sys32" ] || "$wine" wineboot -i >/dev/null 2>&1 || true
    x86_64-w64-mingw32-gcc -O2 -shared -o "$sys32/bcryptprimitives.dll" \
      "$here/wine/bcryptprimitives.c" -ladvapi32
  fi
  # Only Windows' own DLLs: no MinGW runtime (libwinpthread, libgcc) to ship.
  dlls=$(x86_64-w64-mingw32-objdump -p "$bin" | awk '/DLL Name:/ { print $3 }' | sort -u | tr '\n' ' ')
  echo "imports: $dlls"
  if grep -qiE 'libwinpthread|libgcc|libstdc' <<<"$dlls"; then fail "needs MinGW DLLs: $dlls"; fi
  ;;
*) fail "no way to run this target here" ;;
esac

mkdir -p "$tmp/src"
printf 'package main\n\nfunc Hello(a int) int { return a + 1 }\n\nfunc main() { println(Hello(2)) }\n' > "$tmp/src/hello.go"
cd "$tmp/src"
export HOME="$tmp"

# checks: --version, grep, ast grep (native builds), tokens, with run=(…).
checks() {
  out=$("${run[@]}" --version | tr -d '\r') || fail "--version failed"
  echo "$out"
  grep -q "^target:  $target$" <<<"$out" || fail "--version does not say target $target"
  native=pure-go
  if grep -q '^regex:   native' <<<"$out"; then native=native; fi

  out=$("${run[@]}" grep -n 'func [A-Z]\w+' . | tr -d '\r') || fail "grep failed"
  echo "$out"
  grep -q 'hello.go:3:func Hello' <<<"$out" || fail "grep found no match"

  if [ "$native" = native ]; then
    out=$("${run[@]}" ast grep -p 'func $NAME($$$) $_ { $$$ }' . | tr -d '\r') || fail "ast grep failed"
    echo "$out"
    grep -q 'hello.go:3:func Hello' <<<"$out" || fail "ast grep found no match"
    ast="ast ok"
  else
    ast="ast n/a (no native core)"
  fi

  out=$(printf 'hello world, tokens!' | "${run[@]}" tokens | tr -d '\r') || fail "tokens failed"
  echo "$out"
  [ "$out" = "5 -" ] || fail "tokens counted '$out', want '5 -'"
}
checks
summary="ran: --version ($native), grep ok, $ast, tokens ok${run[0]:+ via $(basename "${run[0]}")}"
if [ "$target" = linux/amd64 ] && [ "$(go env GOHOSTARCH)" = amd64 ] && command -v qemu-x86_64 >/dev/null; then
  case $variant in
  baseline)
    run=(qemu-x86_64 -cpu qemu64 "$bin")
    checks
    summary+="; again under qemu-x86_64 -cpu qemu64: ok"
    ;;
  modern)
    if out=$(qemu-x86_64 -cpu qemu64 "$bin" --version 2>&1); then
      fail "the modern variant ran on a qemu64 CPU; it should refuse it"
    fi
    echo "$out"
    grep -q "microarchitecture support" <<<"$out" || fail "the modern variant did not refuse a qemu64 CPU cleanly: $out"
    summary+="; refuses a qemu64 CPU cleanly"
    ;;
  esac
fi
echo "$summary"
