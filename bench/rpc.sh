#!/usr/bin/env bash
# bench/rpc.sh — the rpc area of `make bench`: the frame overhead of
# `gopi --mode rpc`; writes bench/results/rpc.md.
#
# In process: `go test ./core/modes/rpc -bench BenchmarkRPC`, BENCH_RUNS samples
# of 2,000 operations: a get_state round trip through pipes with
# sdk/rpcclient as the host, and (RPC_PROMPTS, default 200 operations per
# sample) the time from a prompt's response frame to its agent_start frame
# (the scripted mock LLM answers each prompt). A prompt is a whole agent
# turn, tens of ms on a busy machine, so 2,000 of them per sample took
# minutes for a figure that is an average of a few ms.
#
# Across processes, gopi against omp 14.9.9: bench/rpc_roundtrip.py starts
# the agent in RPC mode and times N get_state round trips over its real
# stdin/stdout (Python's json on the host side for both). omp is installed
# by ../shared/tools/omp-reference.sh under an isolated HOME; shown as "-"
# when it cannot run.
#
# Targets: 10,000 get_state round trips ≤ 1 s; agent_start within 2 ms of
# the prompt's acknowledgement.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/rpc
RUNS=${BENCH_RUNS:-5}
N=${RPC_ROUNDTRIPS:-10000}
NOMP=${RPC_ROUNDTRIPS_OMP:-1000}
SHARED=${GOPI_SHARED:-$ROOT/../shared}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

log "BenchmarkRPC ($RUNS runs)"
BENCH=$({
	go test ./core/modes/rpc -run '^$' -bench '^BenchmarkRPC$/^(get_state|bash-echo)$' -benchtime 2000x -count "$RUNS"
	go test ./core/modes/rpc -run '^$' -bench '^BenchmarkRPC$/^prompt-ack-to-agent_start$' -benchtime "${RPC_PROMPTS:-200}x" -count "$RUNS"
} | grep '^BenchmarkRPC')
. bench/lib/record.sh
bench_records_reset rpc
bench_record_gobench rpc - <<<"$BENCH"
stat() { # stat SUB UNIT → "best median" in µs
	grep "^BenchmarkRPC/$1-" <<<"$BENCH" | awk -v u="$2" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1) / 1e3}' | sort -g |
		awk '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf "%.1f %.1f\n", v[1], v[int((NR + 1) / 2)]}'
}
read -r gs_b gs_m < <(stat get_state ns/op)
read -r ack_b ack_m < <(stat prompt-ack-to-agent_start ns-ack-to-start)

log "round trips across processes"
go build -o "$WORK/gopi" ./cmd/gopi
# shellcheck source=rpc_host.bash
. "$ROOT/bench/rpc_host.bash"
rpc_home "$WORK"
HOMEDIR=$WORK/home
read -r g_b g_m < <(rpc_runs "$N" "$HOMEDIR/.gopi/agent" "$WORK/gopi" --mode rpc --model mock/mock-model --no-session)
# per_trip N: the totals of the last rpc_runs as µs per round trip.
per_trip() { awk -v n="$1" '{printf "%.3f\n", $1 / n * 1e6}' "$WORK/rpc_runs.last"; }
per_trip "$N" | bench_record_samples rpc "get_state across processes (Python host), per round trip" gopi wall µs
o_b=- o_m=-
if [ -x "$SHARED/tools/omp-reference.sh" ] && "$SHARED/tools/omp-reference.sh" >/dev/null 2>&1; then
	OMP_BIN=${OMP_REF_DIR:-$HOME/.cache/omp-reference}/node_modules/.bin
	if read -r o_b o_m < <(PATH="$OMP_BIN:$PATH" rpc_runs "$NOMP" "$HOMEDIR/.omp/agent" "$OMP_BIN/omp" --mode rpc --model mock/mock-model --no-session) && [ "$o_b" != - ]; then
		per_trip "$NOMP" | bench_record_samples rpc "get_state across processes (Python host), per round trip" omp wall µs
	fi
fi
per() { awk -v t="$1" -v n="$2" 'BEGIN { if (t == "-") print "-"; else printf "%.1f", t / n * 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == 0) print "-"; else printf "%.0f×", b / a }'; }
g_per=$(per "$g_b" "$N")
o_per=$(per "$o_b" "$NOMP")
met() { awk -v v="$1" -v t="$2" 'BEGIN { if (v == "-") print "-"; else print (v <= t ? "met" : "missed") }'; }

{
	echo "# rpc: frame overhead of gopi --mode rpc"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(uname -srm), $(nproc) CPUs; \`BENCH_AREAS=rpc bench/run.sh\`."
	echo
	echo "| target | case | gopi best | gopi median | omp best | omp median | omp ÷ gopi | target |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
	echo "| 10,000 get_state ≤ 1 s | in process (rpcclient), per round trip | $gs_b µs | $gs_m µs | | | | $(met "$(awk -v v="$gs_b" 'BEGIN{print v*10000/1e6}')" 1) |"
	echo "| | across processes (Python host), $N for gopi, $NOMP for omp: per round trip | $g_per µs | $(per "$g_m" "$N") µs | $o_per µs | $(per "$o_m" "$NOMP") µs | $(ratio "$g_per" "$o_per") | $(met "$(awk -v v="$g_per" 'BEGIN{print v*10000/1e6}')" 1) |"
	echo "| agent_start ≤ 2 ms after the ack | in process | $ack_b µs | $ack_m µs | | | | $(met "$ack_b" 2000) |"
	echo
	echo "The in-process figures come from BenchmarkRPC in core/modes/rpc (pipes, the real server, sdk/rpcclient);"
	echo "the cross-process ones from bench/rpc_roundtrip.py, the same Python host for both agents"
	echo "(omp's get_state carries its larger system prompt and tool list)."
	echo
	echo '```'
	echo "$BENCH"
	echo '```'
} >bench/results/rpc.md
log "wrote bench/results/rpc.md"
bench_records_check rpc
