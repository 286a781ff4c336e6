#!/usr/bin/env bash
# localize-native.sh IN.a OUT.a — make libgopi_native.a export only its C ABI.
#
# The Rust static library carries its whole dependency graph, including
# tree-sitter's C runtime (ts_*) and every grammar (tree_sitter_<lang>), the
# Rust standard library and compiler-builtins. Linked next to another copy
# of tree-sitter (github.com/smacker/go-tree-sitter), those symbols would
# clash. So we partially link every member into one relocatable object
# (`ld -r`), keep the rure_* and gopi_* functions global and make every
# other defined symbol local, and archive that single object as OUT.a.
# Undefined references (libc, libm, libgcc) stay global.
#
# Check the result: nm -g --defined-only OUT.a lists only rure_*/gopi_*.
#
# Cross builds set CROSS_PREFIX to the binutils prefix of the target
# (aarch64-linux-gnu-, x86_64-w64-mingw32-); ELF and PE/COFF both work.
set -euo pipefail
p=${CROSS_PREFIX:-}
in=${1:?usage: localize-native.sh IN.a OUT.a}
out=${2:?usage: localize-native.sh IN.a OUT.a}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"${p}nm" -g --defined-only "$in" 2>/dev/null \
  | awk '$2 ~ /^[TDBRS]$/ && $3 ~ /^_?(rure_|gopi_)/ {print $3}' | sort -u >"$tmp/keep"
[ -s "$tmp/keep" ] || { echo "localize-native: no rure_/gopi_ symbols in $in" >&2; exit 1; }

if [ "$(uname -s)" = Darwin ] && [ -z "$p" ]; then
  # macOS (native builds on CI): Apple's ld does the same in one step; every
  # global not in the list becomes private to the object.
  ld -r -all_load -exported_symbols_list "$tmp/keep" "$in" -o "$tmp/gopi_native.o"
  ar rcs "$tmp/out.a" "$tmp/gopi_native.o"
  mv "$tmp/out.a" "$out"
  exit 0
fi

pe=0
[ "$p" = x86_64-w64-mingw32- ] && pe=1
case $(uname -s) in MINGW* | MSYS*) [ -z "$p" ] && pe=1 ;; esac
if [ "$pe" = 1 ]; then
  # PE/COFF: binutils cannot partially link this archive ("unable to fill in
  # DataDictionary[9]"), so rename instead of hiding: every other defined
  # global gets a gopi_native_ prefix in every member, definitions and
  # references alike, and can no longer meet go-tree-sitter's copy of
  # tree-sitter at link time. Import thunks (X next to __imp_X, from Rust's
  # DLL import members) keep their names, or MinGW's import libraries would
  # be pulled in beside them and define __imp_X twice. The grammars' `-export:` link directives
  # (.drectve) would name the old symbols, and an executable exports
  # nothing, so they go.
  "${p}nm" -g --defined-only "$in" 2>/dev/null \
    | awk 'NF == 3 { def[$3] = 1 }
        END { for (s in def) if (s !~ /^(rure_|gopi_|__imp_|\.)/ && !(("__imp_" s) in def)) print s " gopi_native_" s }' \
    | sort -u >"$tmp/rename"
  "${p}objcopy" --remove-section=.drectve --redefine-syms="$tmp/rename" "$in" "$tmp/out.a"
  mv "$tmp/out.a" "$out"
  exit 0
fi

"${p}ld" -r --whole-archive "$in" -o "$tmp/all.o"
"${p}objcopy" --keep-global-symbols="$tmp/keep" "$tmp/all.o" "$tmp/gopi_native.o"
# binutils' ar loads every plugin in bfd-plugins; LLVM 14's gold plugin
# aborts on this object ("Invalid encoding"), so name gcc's plugin
# explicitly when there is one.
plugin=()
lto=$("${p}gcc" -print-file-name=liblto_plugin.so 2>/dev/null || true)
[ -f "$lto" ] && plugin=(--plugin "$lto")
"${p}ar" "${plugin[@]}" rcs "$tmp/out.a" "$tmp/gopi_native.o"
mv "$tmp/out.a" "$out"
