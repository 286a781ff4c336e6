#!/usr/bin/env bash
# darwin-sdk-stubs.sh OUTDIR — a minimal stand-in for the macOS SDK, enough
# for zig to link gopi for darwin with cgo (build.sh, route "zig").
#
# Go calls a few functions of macOS libraries other than libSystem (which
# zig ships): CoreFoundation and Security for crypto/x509's certificate
# checks, libresolv for the DNS resolver. Its packages name each one with a
# //go:cgo_import_dynamic directive, and its linker asks the external
# linker for `-framework CoreFoundation -framework Security -lresolv`. No
# SDK can be downloaded here, so this writes text stubs (.tbd, the format
# Apple's SDKs ship) that declare exactly the functions the packages gopi
# links import, with the libraries' real install names: the executable then
# loads the system's own copies at run time, as one linked on a Mac does.
#
#   OUTDIR/System/Library/Frameworks/NAME.framework/NAME.tbd
#   OUTDIR/usr/lib/libNAME.tbd
#
# scripts/zig-cc.sh links with them when GOPI_ZIG_SDK names OUTDIR (-F
# OUTDIR/System/Library/Frameworks -L OUTDIR/usr/lib). The symbols are read from the sources of the packages
# of ./cmd/gopi for darwin, so a Go upgrade that imports one more function
# gets it here too.
set -euo pipefail
out=${1:?usage: darwin-sdk-stubs.sh OUTDIR}
cd "$(dirname "$0")/.."

# The Go files built for darwin (per package: its directory, then names).
files=$(GOOS=darwin GOARCH=arm64 CGO_ENABLED=1 go list -deps \
  -f '{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .CgoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}' ./cmd/gopi)
# "SYMBOL PATH" for every import of a library other than libSystem.
imports=$(xargs grep -hoE '^//go:cgo_import_dynamic [A-Za-z0-9_.]+ [A-Za-z0-9_]+ "[^"]+"' <<<"$files" \
  | awk '{gsub(/"/, "", $4); print $3, $4}' | grep -v '/usr/lib/libSystem' | sort -u || true)
[ -n "$imports" ] || { echo "darwin-sdk-stubs: no imports found" >&2; exit 1; }
# Rust's libc crate asks every Apple link for -liconv (cargo links the
# cdylib of a dependency such as rure with it); nothing of gopi calls it.
imports+=$'\n'"iconv /usr/lib/libiconv.2.dylib"$'\n'"iconv_open /usr/lib/libiconv.2.dylib"$'\n'"iconv_close /usr/lib/libiconv.2.dylib"

rm -rf "$out"
for path in $(awk '{print $2}' <<<"$imports" | sort -u); do
  syms=$(awk -v p="$path" '$2 == p {printf "%s_%s", sep, $1; sep = ", "}' <<<"$imports")
  case $path in
  /System/Library/Frameworks/*.framework/*)
    name=${path#/System/Library/Frameworks/}; name=${name%%.framework/*}
    file="$out/System/Library/Frameworks/$name.framework/$name.tbd" ;;
  /usr/lib/lib*.dylib)
    name=${path#/usr/lib/lib}; name=${name%%.*}
    file="$out/usr/lib/lib$name.tbd" ;;
  *) echo "darwin-sdk-stubs: unexpected library $path" >&2; exit 1 ;;
  esac
  mkdir -p "$(dirname "$file")"
  cat >"$file" <<EOF
--- !tapi-tbd
tbd-version:     4
targets:         [ x86_64-macos, arm64-macos ]
install-name:    '$path'
exports:
  - targets:         [ x86_64-macos, arm64-macos ]
    symbols:         [ $syms ]
...
EOF
done
echo "darwin-sdk-stubs: $(wc -l <<<"$imports") functions of $(awk '{print $2}' <<<"$imports" | sort -u | wc -l) libraries in $out"
