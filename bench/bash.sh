#!/usr/bin/env bash
# bench/bash.sh — the bash area of `make bench`: the cost of running a
# command through gopi's bash tool and its shell; writes
# bench/results/bash.md.
#
# In process (go test -bench, BENCH_RUNS samples each):
#   core/shell      BenchmarkSessionEcho  `echo hi` in the persistent shell
#   core/shell      BenchmarkRunOnceEcho  the same in a fresh one-shot shell
#   core/tools/bash BenchmarkRunEcho      `echo hi` through the tool's Run
#                                         (shell, OutputSink, summary)
#   core/tool       BenchmarkOutputSink   256 MiB through the sink alone
#   core/tools/bash BenchmarkRun1GB       1 GiB of `yes` output through the
#                                         shell, pipe, sink and artifact, run
#                                         under /usr/bin/time -v for the RSS
#
# Across processes, gopi against omp 14.9.9: bench/rpc_roundtrip.py starts
# the agent in RPC mode and times N `bash {"command":"echo hi"}` commands
# one after the other (the user-side shell both agents keep per session).
#
# Targets: `echo hi` in the persistent shell ≤ 2 ms; 1 GB through the sink
# ≥ 500 MB/s with RSS under 64 MB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/bash
RUNS=${BENCH_RUNS:-5}
N=${BASH_ROUNDTRIPS:-2000}
FRAME='{"type":"bash","command":"echo hi"}'
SHARED=${GOPI_SHARED:-$ROOT/../shared}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

. bench/lib/record.sh
bench_records_reset bash
bench() { bench_gobench bash "$RUNS" "$@"; } # bench PKG REGEX BENCHTIME → the benchmark lines (recorded as samples)
best_median() { # best_median NAME UNIT SCALE LINES → "best median" (smallest first unless UNIT is MB/s)
	awk -v n="$1" -v u="$2" -v s="$3" '$1 ~ "^"n"(-[0-9]+)?$" {for (i = 2; i <= NF; i++) if ($i == u) print $(i-1) * s}' <<<"$4" |
		if [ "$2" = MB/s ]; then sort -gr; else sort -g; fi |
		awk '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf "%.4g %.4g\n", v[1], v[int((NR + 1) / 2)]}'
}

log "core/shell benchmarks ($RUNS runs)"
SHELL_B=$(bench ./core/shell 'Benchmark(SessionEcho|RunOnceEcho)$' 2000x)
read -r sess_b sess_m < <(best_median BenchmarkSessionEcho ns/op 1e-6 "$SHELL_B")
read -r once_b once_m < <(best_median BenchmarkRunOnceEcho ns/op 1e-6 "$SHELL_B")
log "core/tools/bash BenchmarkRunEcho"
RUN_B=$(bench ./core/tools/bash 'BenchmarkRunEcho$' 2000x)
read -r run_b run_m < <(best_median BenchmarkRunEcho ns/op 1e-6 "$RUN_B")
log "core/tool BenchmarkOutputSink"
SINK_B=$(bench ./core/tool 'BenchmarkOutputSink$' 4x)
read -r sink_b sink_m < <(best_median BenchmarkOutputSink MB/s 1 "$SINK_B")

log "1 GiB through bash.Run under /usr/bin/time -v"
go test -c -o "$WORK/bash.test" ./core/tools/bash
GB_LINES=""
RSS=()
for _ in $(seq "$RUNS"); do
	out=$(cd core/tools/bash && /usr/bin/time -v "$WORK/bash.test" -test.run '^$' -test.bench 'BenchmarkRun1GB$' -test.benchtime 2x 2>"$WORK/time.txt")
	GB_LINES+=$(grep '^Benchmark' <<<"$out")$'\n'
	RSS+=("$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$WORK/time.txt")")
done
read -r gb_b gb_m < <(best_median BenchmarkRun1GB MB/s 1 "$GB_LINES")
bench_record_gobench bash - <<<"$GB_LINES" >&2
printf '%s\n' "${RSS[@]}" | bench_record_samples bash "Run1GB (1 GiB through bash.Run)" gopi "peak RSS" MiB
rss_max=$(printf '%s\n' "${RSS[@]}" | sort -g | tail -1)

log "bash round trips across processes"
go build -o "$WORK/gopi" ./cmd/gopi
# shellcheck source=rpc_host.bash
. "$ROOT/bench/rpc_host.bash"
rpc_home "$WORK"
HOMEDIR=$WORK/home
read -r g_b g_m < <(RPC_FRAME="$FRAME" rpc_runs "$N" "$HOMEDIR/.gopi/agent" "$WORK/gopi" --mode rpc --model mock/mock-model --no-session)
# per_cmd: the totals of the last rpc_runs as µs per command.
per_cmd() { awk -v n="$N" '{printf "%.1f\n", $1 / n * 1e6}' "$WORK/rpc_runs.last"; }
CROSS="bash echo hi across processes (Python host), per command"
per_cmd | bench_record_samples bash "$CROSS" gopi wall µs
o_b=- o_m=-
if [ -x "$SHARED/tools/omp-reference.sh" ] && "$SHARED/tools/omp-reference.sh" >/dev/null 2>&1; then
	OMP_BIN=${OMP_REF_DIR:-$HOME/.cache/omp-reference}/node_modules/.bin
	if read -r o_b o_m < <(PATH="$OMP_BIN:$PATH" RPC_FRAME="$FRAME" rpc_runs "$N" "$HOMEDIR/.omp/agent" "$OMP_BIN/omp" --mode rpc --model mock/mock-model --no-session) && [ "$o_b" != - ]; then
		per_cmd | bench_record_samples bash "$CROSS" omp wall µs
	fi
fi
per() { awk -v t="$1" -v n="$N" 'BEGIN { if (t == "-") print "-"; else printf "%.0f", t / n * 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == 0) print "-"; else printf "%.1f×", b / a }'; }
met() { awk -v v="$1" -v t="$2" -v dir="$3" 'BEGIN { if (v == "-") print "-"; else if (dir == "le") print (v <= t ? "met" : "missed"); else print (v >= t ? "met" : "missed") }'; }

{
	echo "# bash: running commands through the bash tool and the session's shell"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(uname -srm), $(nproc) CPUs; \`BENCH_AREAS=bash bench/run.sh\`."
	echo
	echo "| target | case | gopi best | gopi median | omp best | omp median | omp ÷ gopi | target |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
	echo "| \`echo hi\` ≤ 2 ms | persistent shell (core/shell) | $sess_b ms | $sess_m ms | | | | $(met "$sess_b" 2 le) |"
	echo "| | through the tool's Run: shell, sink, summary | $run_b ms | $run_m ms | | | | $(met "$run_b" 2 le) |"
	echo "| | one-shot shell, for comparison | $once_b ms | $once_m ms | | | | |"
	echo "| | RPC \`bash\` round trip across processes (Python host, $N commands): per command | $(per "$g_b") µs | $(per "$g_m") µs | $(per "$o_b") µs | $(per "$o_m") µs | $(ratio "$g_b" "$o_b") | |"
	echo "| 1 GB ≥ 500 MB/s | OutputSink alone (256 MiB per op) | $sink_b MB/s | $sink_m MB/s | | | | $(met "$sink_b" 500 ge) |"
	echo "| | 1 GiB of \`yes\` through shell, pipe, sink and artifact | $gb_b MB/s | $gb_m MB/s | | | | $(met "$gb_b" 500 ge) |"
	echo "| RSS < 64 MB | peak RSS of the test process during the 1 GiB runs (worst of $RUNS) | $rss_max MB | | | | | $(met "$rss_max" 64 le) |"
	echo
	echo "omp's figures are its own RPC \`bash\` command (its native shell) driven by the same Python host."
	echo "The 1 GiB rate depends on how fast the disk takes the artifact's writes."
	echo
	echo '```'
	printf '%s\n' "$SHELL_B" "$RUN_B" "$SINK_B"
	printf '%s' "$GB_LINES"
	echo '```'
} >bench/results/bash.md
log "wrote bench/results/bash.md"
bench_records_check bash
