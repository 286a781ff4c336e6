#!/usr/bin/env bash
# bench/web.sh — the web area of `make bench`: the web_search tool's own
# overhead beyond its provider's answer. A whole tool call (argument
# validation, the request, decoding, the rendered text) against a local
# SearXNG double that answers 10 results at once, next to the bare HTTP
# request and read of the same answer; written to bench/results/web.md.
# No peer (omp's web_search runs inside its agent). Target: overhead ≤ 2 ms.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${BENCH_GO_RUNS:-6}
mkdir -p bench/results
BENCH=$(go test ./core/tools/websearch -run '^$' -bench 'WebSearch' -benchtime 300x -count "$RUNS" | grep '^Benchmark')
. bench/lib/record.sh
bench_records_reset web
bench_record_gobench web - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "^$1-" 1e6 3; } # bestmed NAME → "best median" in ms
read -r T_B T_M <<<"$(bestmed BenchmarkWebSearch/tool)"
read -r P_B P_M <<<"$(bestmed BenchmarkWebSearch/provider)"
O_B=$(awk -v a="$T_B" -v b="$P_B" 'BEGIN {printf "%.3f", a - b}')
O_M=$(awk -v a="$T_M" -v b="$P_M" 'BEGIN {printf "%.3f", a - b}')
MET=$(awk -v v="$O_M" 'BEGIN {print (v <= 2) ? "met" : "missed"}')
{
	echo "# web: web_search overhead"
	echo
	echo "| target | case | best | median | target |"
	echo "| --- | --- | ---: | ---: | --- |"
	echo "| | web_search call, local SearXNG double (10 results) | $T_B ms | $T_M ms | |"
	echo "| | the same answer fetched and read with net/http alone | $P_B ms | $P_M ms | |"
	echo "| overhead ≤ 2 ms | the difference: the tool's own work | $O_B ms | $O_M ms | $MET |"
	echo
	echo "In process (go test -bench), so process start and the agent loop are not in it. The machine is"
	echo "shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "- Command: \`bench/web.sh\` (BENCH_GO_RUNS=$RUNS): \`go test ./core/tools/websearch -run '^\$' -bench WebSearch -benchtime 300x -count $RUNS\`"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/web.md
echo "bench: wrote bench/results/web.md" >&2
bench_records_check web
