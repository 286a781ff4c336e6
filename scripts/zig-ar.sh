#!/bin/sh
# zig-ar.sh — zig's archiver, as the AR of cargo's cc crate (build.sh,
# route "zig"). $GOPI_ZIG is the zig executable.
exec "${GOPI_ZIG:?GOPI_ZIG names the zig executable}" ar "$@"
