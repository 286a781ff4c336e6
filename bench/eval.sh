#!/usr/bin/env bash
# bench/eval.sh — the eval area of `make bench`: what running code through
# the eval tool costs; writes bench/results/eval.md.
#
# In process (go test -bench, BENCH_RUNS samples each):
#   core/eval/pykernel BenchmarkPythonStart   `python3 -c pass`: the interpreter's own start
#   core/eval/pykernel BenchmarkFirstCell     a session's first Python cell: kernel started
#                                             (runner, prelude), `pass` run; each iteration
#                                             also times `python3 -c pass` and reports the
#                                             difference (ms-beyond-python/op)
#   core/eval/pykernel BenchmarkCellRoundTrip a later cell in the running kernel
#   core/tools/eval    BenchmarkToolPythonCell a later cell through the whole tool (parse,
#                                             kernel, output sink, result)
#   core/eval/jscell   BenchmarkCell          a JavaScript cell in a warm runtime
#   core/tools/eval    BenchmarkToolJSCell    the same through the whole tool
#
# Targets: first cell ≤ 150 ms beyond python3's own start; a later cell's
# round trip ≤ 2 ms; a JavaScript cell ≤ 1 ms; a cell printing 1 GB keeps
# gopi under 100 MB (cmd/gopi TestEvalGigabytePrint runs gopi -p with a
# mock model and reads its peak RSS from wait4).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${BENCH_RUNS:-6}
mkdir -p bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
. bench/lib/record.sh
bench_records_reset eval
bench() { bench_gobench eval "$RUNS" "$@"; } # bench PKG REGEX BENCHTIME → the benchmark lines (recorded as samples)
best_median() { # best_median NAME LINES [UNIT SCALE] → "best median" in ms
	awk -v n="$1" -v u="${3:-ns/op}" -v s="${4:-1e-6}" '$1 ~ "^"n"(-[0-9]+)?$" {for (i = 2; i <= NF; i++) if ($i == u) print $(i-1) * s}' <<<"$2" |
		sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf "%.4g %.4g\n", v[1], v[int((NR + 1) / 2)]}'
}
met() { awk -v v="$1" -v t="$2" 'BEGIN { if (v == "-") print "-"; else print (v <= t ? "met" : "missed") }'; }

command -v python3 >/dev/null || { echo "bench/eval.sh: python3 is needed" >&2; exit 1; }
log "Python start and first cell ($RUNS runs)"
START=$(bench ./core/eval/pykernel 'Benchmark(PythonStart|FirstCell)$' 10x)
read -r ps_b ps_m < <(best_median BenchmarkPythonStart "$START")
read -r fc_b fc_m < <(best_median BenchmarkFirstCell "$START")
read -r extra_b extra_m < <(best_median BenchmarkFirstCell "$START" ms-beyond-python/op 1)
log "later cells"
LATER=$(bench ./core/eval/pykernel 'BenchmarkCellRoundTrip$' 500x)
read -r rt_b rt_m < <(best_median BenchmarkCellRoundTrip "$LATER")
TOOL=$(bench ./core/tools/eval 'BenchmarkTool(Python|JS)Cell$' 500x)
read -r tp_b tp_m < <(best_median BenchmarkToolPythonCell "$TOOL")
read -r tj_b tj_m < <(best_median BenchmarkToolJSCell "$TOOL")
JS=$(bench ./core/eval/jscell 'BenchmarkCell$' 5000x)
read -r js_b js_m < <(best_median BenchmarkCell "$JS")
log "1 GB printed by a cell"
GB=$(go test -count=1 -run '^TestEvalGigabytePrint$' -v ./cmd/gopi)
gb_mib=$(sed -n 's/.*gopi peaked at \([0-9]*\) MiB.*/\1/p' <<<"$GB")
gb_s=$(sed -n 's/.*PASS: TestEvalGigabytePrint (\([0-9.]*\)s).*/\1/p' <<<"$GB")
bench_record_samples eval "a cell printing 1 GB (gopi -p, mock model)" gopi "peak RSS" MiB "$gb_mib"

{
	echo "# eval: running Python and JavaScript cells"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(uname -srm), $(nproc) CPUs, $(python3 --version); \`BENCH_AREAS=eval bench/run.sh\` (BENCH_RUNS=$RUNS)."
	echo
	echo "| target | case | best | median | target |"
	echo "| --- | --- | ---: | ---: | --- |"
	echo "| first cell ≤ 150 ms beyond python3's start | \`python3 -c pass\` | $ps_b ms | $ps_m ms | |"
	echo "| | first cell of a session (kernel start, \`pass\`, the kernel's stop) | $fc_b ms | $fc_m ms | |"
	echo "| | first cell beyond \`python3 -c pass\` timed just before it | $extra_b ms | $extra_m ms | $(met "$extra_m" 150) |"
	echo "| later cell ≤ 2 ms | round trip in a running kernel | $rt_b ms | $rt_m ms | $(met "$rt_m" 2) |"
	echo "| | through the whole tool | $tp_b ms | $tp_m ms | $(met "$tp_m" 2) |"
	echo "| JavaScript cell ≤ 1 ms | in a warm runtime | $js_b ms | $js_m ms | $(met "$js_m" 1) |"
	echo "| | through the whole tool | $tj_b ms | $tj_m ms | $(met "$tj_m" 1) |"
	echo "| 1 GB print: gopi < 100 MB | peak RSS of \`gopi -p\` (the test binary as gopi) while a cell prints 1 GiB; the whole run took ${gb_s:-?} s | ${gb_mib:--} MiB | | $(met "${gb_mib:--}" 100) |"
	echo
	echo "python3's start includes its site packages (.pth files); the first cell pays it too. Start times"
	echo "swing with the machine's load, so the first cell is compared with a python3 start timed in the
same iteration."
	echo
	echo '```'
	printf '%s\n%s\n%s\n%s\n' "$START" "$LATER" "$TOOL" "$JS"
	echo '```'
} >bench/results/eval.md
log "wrote bench/results/eval.md"
bench_records_check eval
