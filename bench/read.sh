#!/usr/bin/env bash
# bench/read.sh — the read area of `make bench`: a structural summary of a
# 10,000-line Go file (cold, and from the span cache) and a SQLite table
# page (first, middle, filtered and sorted without an index), each through
# the whole read tool call, written to bench/results/read.md. No peer
# (omp's read runs inside its agent). Targets: summary ≤ 20 ms cold and
# ≤ 1 ms cached; a table page ≤ 10 ms.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${BENCH_GO_RUNS:-6}
mkdir -p bench/results
BENCH=$(go test ./core/tools/read -run '^$' -bench 'Summary10k|SQLiteTablePage' -benchtime 20x -count "$RUNS" | grep '^Benchmark')
. bench/lib/record.sh
bench_records_reset read
bench_record_gobench read - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "^$1-" 1e6 2; } # bestmed NAME → "best median" in ms
met() { awk -v v="$1" -v t="$2" 'BEGIN {print (v != "-" && v <= t) ? "met" : "missed"}'; }
read -r SC_B SC_M <<<"$(bestmed BenchmarkSummary10k/cold)"
read -r SH_B SH_M <<<"$(bestmed BenchmarkSummary10k/cached)"
read -r SP_B SP_M <<<"$(bestmed BenchmarkSummary10k/parse)"
read -r Q1_B Q1_M <<<"$(bestmed BenchmarkSQLiteTablePage/first)"
read -r Q2_B Q2_M <<<"$(bestmed BenchmarkSQLiteTablePage/middle)"
read -r Q3_B Q3_M <<<"$(bestmed BenchmarkSQLiteTablePage/filtered)"
{
	echo "# read: structural summaries and SQLite pages"
	echo
	echo "| target | case | best | median | target |"
	echo "| --- | --- | ---: | ---: | --- |"
	echo "| summary ≤ 20 ms cold | 10,002-line Go file, whole tool call | $SC_B ms | $SC_M ms | $(met "$SC_B" 20) |"
	echo "| summary ≤ 1 ms cached | the same, spans from the cache | $SH_B ms | $SH_M ms | $(met "$SH_B" 1) |"
	echo "| | go/parser alone (the cold case's parse) | $SP_B ms | $SP_M ms | |"
	echo "| SQLite page ≤ 10 ms | first 20 rows of a 10,000-row table | $Q1_B ms | $Q1_M ms | $(met "$Q1_B" 10) |"
	echo "| | a page from the middle (offset 5000) | $Q2_B ms | $Q2_M ms | $(met "$Q2_B" 10) |"
	echo "| | filtered and sorted, no index (a full scan and a sort) | $Q3_B ms | $Q3_M ms | |"
	echo
	echo "Go files are outlined with the standard library's go/parser (tree-sitter's Go grammar took ~80 ms"
	echo "for the same file); Python, JavaScript/TypeScript and Rust with tree-sitter (native/outline)."
	echo "The machine is shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "- Command: \`bench/read.sh\` (BENCH_GO_RUNS=$RUNS): \`go test ./core/tools/read -run '^\$' -bench 'Summary10k|SQLiteTablePage' -benchtime 20x -count $RUNS\`"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/read.md
echo "bench: wrote bench/results/read.md" >&2
bench_records_check read
