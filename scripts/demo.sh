#!/usr/bin/env bash
# demo.sh — gopi's main job on an embedded default: search the repository's
# own sources with `gopi grep` and list them with `gopi find`. Each step is
# checked; the full output goes to a log (DEMO_LOG, default bin/demo.log)
# and the terminal gets one line per step.
set -euo pipefail
cd "$(dirname "$0")/.."
gopi=bin/gopi
log=${DEMO_LOG:-bin/demo.log}
: >"$log"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run CMD...: runs it with its output in $out and appended to the log;
# a failure shows the end of the output and stops the demo.
run() {
  printf '\n$ %s\n' "$*" >>"$log"
  if ! "$@" >"$out" 2>&1; then
    cat "$out" >>"$log"
    printf 'demo: FAILED: %s\n' "$*" >&2
    tail -n 20 "$out" >&2
    printf 'demo: full output in %s\n' "$log" >&2
    exit 1
  fi
  cat "$out" >>"$log"
}
# check WHAT CONDITION...: stops the demo when the condition does not hold.
check() {
  local what=$1
  shift
  if ! "$@"; then
    printf 'demo: FAILED: %s (full output in %s)\n' "$what" "$log" >&2
    exit 1
  fi
}

run $gopi version
check "version names the engines" grep -q '^regex:' "$out"
printf 'demo: %s; %s\n' "$(head -n 1 "$out")" "$(grep -E '^(regex|ast):' "$out" | sed 's/  */ /g' | paste -sd ';' | sed 's/;/; /')"

run $gopi find '*.go' --limit 10 cmd search
paths=$(wc -l <"$out")
check "find lists Go files" test "$paths" -gt 0
run $gopi find --fuzzy grepsearch --limit 5 .
check "fuzzy find ranks search/grep/search.go" grep -q 'search/grep/search.go' "$out"
printf "demo: find '*.go' cmd search: %s paths; find --fuzzy grepsearch: %s paths, search/grep/search.go among them\n" \
  "$paths" "$(wc -l <"$out")"

run $gopi grep -c --stats '^func [A-Z]' -g '*.go' .
stats=$(grep 'matching lines in' "$out")
check "grep counts exported functions" test -n "$stats"
printf "demo: grep -c '^func [A-Z]' -g '*.go' .: %s\n" "$stats"

run $gopi grep -n -C1 '\$\{platform\}|NeedsMultiline\(' search/grep/pattern.go
check "grep finds the literal-brace pattern" grep -q 'NeedsMultiline(' "$out"
printf "demo: grep -n -C1 '\\\$\\{platform\\}|NeedsMultiline\\(' search/grep/pattern.go: %s lines\n" "$(wc -l <"$out")"

echo "demo: ok (every command's output: $log)"
