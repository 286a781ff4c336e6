#!/usr/bin/env bash
# fuzz.sh DURATION — run every Go fuzz target in the module for DURATION each
# (e.g. 10s, 1m). Targets are found by their `func FuzzXxx(f *testing.F)`.
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-10s}
status=0
while IFS=: read -r file _ line; do
  name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/' <<<"$line")
  pkg=./$(dirname "$file")
  echo "== $pkg $name ($dur)"
  if ! go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$dur"; then
    status=1
  fi
done < <(git ls-files -co --exclude-standard '*_test.go' | xargs grep -n '^func Fuzz' /dev/null)
exit $status
