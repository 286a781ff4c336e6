#!/usr/bin/env bash
# demo.sh — gopi's main job on an embedded default: search the repository's
# own sources with `gopi grep` and list them with `gopi find`.
set -euo pipefail
cd "$(dirname "$0")/.."
gopi=bin/gopi
run() { printf '\n$ %s\n' "$*"; "$@"; }
run $gopi version
run $gopi find '*.go' --limit 10 cmd search
run $gopi find --fuzzy grepsearch --limit 5 .
run $gopi grep -c --stats '^func [A-Z]' -g '*.go' .
run $gopi grep -n -C1 '\$\{platform\}|NeedsMultiline\(' search/grep/pattern.go
echo
echo "demo: ok"
