#!/bin/sh
# zig-cc.sh — zig's C compiler for the target in $GOPI_ZIG_TARGET (such as
# aarch64-macos.12.0), as the CC of cargo's cc crate and of Go's cgo and
# external link (build.sh, route "zig"). $GOPI_ZIG is the zig executable.
# Flags that name the target another way are dropped: cc-rs passes
# `--target=arm64-apple-macosx` and `-mmacosx-version-min`, Go `-arch arm64`,
# which zig reads differently or refuses; the target (with its minimum macOS
# version) comes from GOPI_ZIG_TARGET alone. GOPI_ZIG_SDK, when set, is the
# stand-in SDK of scripts/darwin-sdk-stubs.sh.
: "${GOPI_ZIG:?GOPI_ZIG names the zig executable}" "${GOPI_ZIG_TARGET:?GOPI_ZIG_TARGET names the target}"
skip= stdin=
for a in "$@"; do
  shift
  if [ -n "$skip" ]; then
    skip=
    continue
  fi
  case $a in
  -arch) skip=1; continue ;;
  --target=* | -mmacosx-version-min=*) continue ;;
  -) stdin=1 ;;
  esac
  set -- "$@" "$a"
done
# The system libraries beyond libSystem, as text stubs
# (scripts/darwin-sdk-stubs.sh), for links.
if [ -n "${GOPI_ZIG_SDK:-}" ]; then
  set -- -F"$GOPI_ZIG_SDK/System/Library/Frameworks" -L"$GOPI_ZIG_SDK/usr/lib" "$@"
fi
if [ -z "$stdin" ]; then
  exec "$GOPI_ZIG" cc -target "$GOPI_ZIG_TARGET" "$@"
fi
# Go probes flags by compiling standard input to /dev/null; zig then
# writes the object to "-.o" in the working directory instead. Remove it
# if it is new.
[ -e ./-.o ] && had=1 || had=
"$GOPI_ZIG" cc -target "$GOPI_ZIG_TARGET" "$@"
rc=$?
if [ -z "$had" ] && [ -f ./-.o ]; then rm -f ./-.o; fi
exit $rc
