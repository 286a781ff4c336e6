#!/usr/bin/env bash
# bench/mcp.sh — the MCP area of `make bench`: one MCP tool call over stdio,
# end to end as the agent makes it (argument validation, the JSON-RPC
# round trip through the server's pipes, the server's handler, the result
# conversion), against gopi's Go fake server and the real
# @modelcontextprotocol/server-everything on node (installed by
# scripts/setup.sh), written to bench/results/mcp.md. No peer: omp's MCP
# client runs inside its own process and has no separate entry point.
# Target: ≤ 1 ms per call.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${BENCH_GO_RUNS:-6}
mkdir -p bench/results
BENCH=$(go test ./core/mcp -run '^$' -bench 'ToolCall' -benchtime 2000x -count "$RUNS" | grep '^Benchmark')
. bench/lib/record.sh
bench_records_reset mcp
bench_record_gobench mcp - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "^$1-" "$2" 0; } # bestmed NAME DIVISOR → "best median"
read -r GO_B GO_M <<<"$(bestmed BenchmarkToolCall/go-fake 1e3)"
read -r NODE_B NODE_M <<<"$(bestmed BenchmarkToolCall/node-everything 1e3)"
met() { awk -v v="$1" -v t="$2" 'BEGIN {print (v != "-" && v <= t) ? "met" : "missed"}'; }
{
	echo "# mcp: tool-call overhead over stdio"
	echo
	echo "| target | case | best | median | target |"
	echo "| --- | --- | ---: | ---: | --- |"
	echo "| MCP tool call ≤ 1 ms | Go fake server (go-sdk on both ends), echo | $GO_B µs | $GO_M µs | $(met "$GO_B" 1000) |"
	echo "| | server-everything $(grep -m1 '"version"' "${GOPI_TEST_CACHE:-$HOME/.cache/gopi-test}/mcp/node_modules/@modelcontextprotocol/server-everything/package.json" 2>/dev/null | tr -dc '0-9.') on node $(node --version 2>/dev/null), echo | $NODE_B µs | $NODE_M µs | $(met "$NODE_B" 1000) |"
	echo
	echo "Each figure is the whole call as the agent loop makes it, server time included; most of it is"
	echo "the two pipe hops and goroutine wake-ups, so it grows with the machine's load. The machine is"
	echo "shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg)."
	if awk '{exit !($1 > 6)}' /proc/loadavg; then
		echo "These numbers are from a loaded machine (load above 6 on 2 CPUs): rerun when it is quiet."
	fi
	echo
	echo "- Command: \`bench/mcp.sh\` (BENCH_GO_RUNS=$RUNS): \`go test ./core/mcp -run '^\$' -bench ToolCall -benchtime 2000x -count $RUNS\`"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/mcp.md
echo "bench: wrote bench/results/mcp.md" >&2
bench_records_check mcp
