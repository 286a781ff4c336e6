#!/usr/bin/env bash
# bench/extensions.sh — the extensions area of `make bench`: loading ten
# TypeScript extensions (bundled with esbuild, run in goja) cold and from
# the bundle cache, and one tool_call hook round trip into JavaScript,
# written to bench/results/extensions.md. No peer: omp loads extensions
# with Bun inside its own start-up, which the agent area times as a whole.
# Targets: ≤ 100 ms for ten extensions (ten using Node built-ins too);
# ≤ 50 µs per tool_call round trip; an extension's fs.readFileSync ≤ 2× Go's
# os.ReadFile of the same 64 KiB file.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${BENCH_GO_RUNS:-6}
mkdir -p bench/results
BENCH=$(go test ./core/extensions -run '^$' -bench 'Load10|ToolCallHook|ReadFile' -benchtime 20x -count "$RUNS" | grep '^Benchmark')
. bench/lib/record.sh
bench_records_reset extensions
bench_record_gobench extensions - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "^$1-" "$2" 1; } # bestmed NAME DIVISOR → "best median"
read -r COLD_B COLD_M <<<"$(bestmed BenchmarkLoad10/cold 1e6)"
read -r WARM_B WARM_M <<<"$(bestmed BenchmarkLoad10/warm 1e6)"
read -r NODE_B NODE_M <<<"$(bestmed BenchmarkLoad10Node 1e6)"
read -r RGO_B RGO_M <<<"$(bestmed BenchmarkReadFile/go 1e3)"
read -r REXT_B REXT_M <<<"$(bestmed BenchmarkReadFile/extension 1e3)"
read -r HOOK_B HOOK_M <<<"$(bestmed BenchmarkToolCallHook/bound 1e3)"
read -r HOOKU_B HOOKU_M <<<"$(bestmed BenchmarkToolCallHook/unbound 1e3)"
met() { awk -v v="$1" -v t="$2" 'BEGIN {print (v != "-" && v <= t) ? "met" : "missed"}'; }
{
	echo "# extensions: loading and hook round trips"
	echo
	echo "| target | case | best | median | target |"
	echo "| --- | --- | ---: | ---: | --- |"
	echo "| ten TypeScript extensions ≤ 100 ms | cold (bundled by esbuild) | $COLD_B ms | $COLD_M ms | $(met "$COLD_B" 100) |"
	echo "| | warm (bundle cache by input content) | $WARM_B ms | $WARM_M ms | $(met "$WARM_B" 100) |"
	echo "| | ten extensions importing fs, path, child_process, crypto, os, events, util (cold) | $NODE_B ms | $NODE_M ms | $(met "$NODE_B" 100) |"
	echo "| fs.readFileSync ≤ 2× Go | Go's os.ReadFile of 64 KiB | $RGO_B µs | $RGO_M µs | |"
	echo "| | the extension's fs.readFileSync of the same file, as text | $REXT_B µs | $REXT_M µs | $(awk -v e="$REXT_B" -v g="$RGO_B" 'BEGIN {print (e != "-" && g != "-" && e <= 2 * g) ? "met" : "missed"}') |"
	echo "| tool_call round trip ≤ 50 µs | one handler that lets the call through, bound to a session | $HOOK_B µs | $HOOK_M µs | $(met "$HOOK_B" 50) |"
	echo "| | the same before the session exists (no ctx members) | $HOOKU_B µs | $HOOKU_M µs | |"
	echo
	echo "Each extension is like core/extensions' test fixture: a tool with a pi.zod schema, two handlers, a"
	echo "command and a relative import. The machine is shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "- Command: \`bench/extensions.sh\` (BENCH_GO_RUNS=$RUNS): \`go test ./core/extensions -run '^\$' -bench 'Load10|ToolCallHook|ReadFile' -benchtime 20x -count $RUNS\`"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/extensions.md
echo "bench: wrote bench/results/extensions.md" >&2
bench_records_check extensions
