#!/usr/bin/env bash
# conformance-astgrep.sh — compare gopi's AST search with the ast-grep CLI.
#
# 1. The checked-in suite (ast/testdata/conformance/*.txtar: ≥12 languages,
#    every metavariable form, rewrites): every case is run by both; cases
#    marked "cli: differs" are intentional differences and print their
#    reason; any other difference fails.
# 2. Real trees: $(go env GOROOT)/src with Go patterns and the npm
#    "typescript" package with JS/TS patterns; matches are compared by
#    (file, byte range), printing the agreement rate and the differences.
#
# The CLI is installed from npm into bench/_work (scripts/astgrep-cli.sh).
# Everything printed is also written, with the date, machine and versions,
# to the report ast/CONFORMANCE.md (CONFORMANCE_REPORT overrides the path).
# Exit status: 0 when everything agrees apart from documented differences.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=$(scripts/astgrep-cli.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gopi" ./cmd/gopi
status=0
report=${CONFORMANCE_REPORT:-ast/CONFORMANCE.md}
exec 3>&1 > >(tee "$tmp/log" >&3)
tee_pid=$!

echo "== suite: ast/testdata/conformance ($("$cli" --version))"
if ! GOPI_ASTGREP_CLI="$cli" go test -count=1 -run '^TestConformanceCLI$' -v ./ast | grep -v -e '^=== RUN' -e '^--- PASS' -e '^PASS' -e '^ok'; then
  :
fi
GOPI_ASTGREP_CLI="$cli" go test -count=1 -run '^TestConformanceCLI$' ./ast >/dev/null || status=1

goroot=$(go env GOROOT)/src
jsts=$(scripts/ast-trees.sh)
# tree|lang|pattern|note ("documented" marks an intentional difference)
cases=(
  "$goroot|go|if err != nil { return \$\$\$ }|"
  "$goroot|go|for \$K, \$V := range \$X { \$\$\$B }|"
  "$goroot|go|switch \$X := \$Y.(type) { \$\$\$C }|"
  "$goroot|go|\$A.Lock()|"
  "$goroot|go|fmt.Errorf(\$\$\$A)|documented: the CLI reads the pattern as a type conversion and misses calls"
  "$jsts|javascript|\$A.push(\$\$\$B)|"
  "$jsts|javascript|typeof \$X === \$Y|"
  "$jsts|typescript|interface \$I { \$\$\$B }|"
)
for c in "${cases[@]}"; do
  IFS='|' read -r tree lang pat note <<<"$c"
  echo "== $lang: '$pat' over $tree"
  (cd "$tree" && "$tmp/gopi" ast grep --json --no-hidden -l "$lang" -p "$pat" . >"$tmp/ours.jsonl" 2>"$tmp/ours.err") || true
  (cd "$tree" && "$cli" run --json=stream -l "$lang" -p "$pat" . >"$tmp/theirs.jsonl" 2>"$tmp/theirs.err") || true
  if scripts/ast-compare.py "$tmp/ours.jsonl" "$tmp/theirs.jsonl"; then
    [ -n "$note" ] && { echo "  expected a documented difference ($note) but the results agree"; status=1; }
  elif [ -n "$note" ]; then
    echo "  ($note)"
  else
    status=1
  fi
done
if [ $status -eq 0 ]; then
  echo "conformance: all results identical apart from documented differences"
else
  echo "conformance: undocumented differences found (see above)"
fi
exec >&3
wait "$tee_pid" 2>/dev/null || true
{
  echo "# AST conformance: gopi against the ast-grep CLI"
  echo
  echo "Written by \`scripts/conformance-astgrep.sh\` on $(date -u); rerun it to refresh this file."
  echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)."
  echo "gopi $(git describe --always --dirty 2>/dev/null), ast-grep CLI $("$cli" --version | awk '{print $2}') (npm @ast-grep/cli), exit status $status."
  echo
  echo "Part 1 runs every case of ast/testdata/conformance through both tools (cases marked"
  echo "\`cli: differs\` are intentional differences and print their reason); part 2 compares"
  echo "whole-tree scans by (file, byte range)."
  echo
  echo '```'
  cat "$tmp/log"
  echo '```'
} >"$report"
echo "report: $report" >&2
exit $status
