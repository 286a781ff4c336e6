#!/usr/bin/env bash
# bench/stats.sh — the stats area: `gopi stats` over 10,000 generated
# sessions (issue 36's target: ≤ 1 s). No peer: omp's `stats` serves a web
# dashboard over its own database, not a one-shot scan.
#
# The sessions are internal/sessiongen's (core/usagestats'
# TestWriteFixture10000: 40 distinct sessions of 24 entries, about 45 KB
# each, written 250 times over 50 project directories), kept in
# bench/_work/stats/fixture and read once before timing (page cache warm).
# Each case runs BENCH_RUNS times (default 7) as a whole process:
#   cold   `gopi stats --rescan`: every file read, the cache rewritten
#   cached `gopi stats`: nothing changed since the last run (lstat + cache)
# Wall time and CPU time (user + system) are read from bash's `time`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
WORK=$PWD/bench/_work/stats
RUNS=${BENCH_RUNS:-7}
STAMP=$(sha256sum native/_lib/libgopi_native.a | cut -c1-16)
export GOFLAGS="${GOFLAGS:--ldflags=-X=github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$STAMP}"
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { echo "bench/stats.sh: $*" >&2; exit 1; }
mkdir -p "$WORK" bench/results
log "building gopi"
go build -o "$WORK/gopi" ./cmd/gopi
FIX=$WORK/fixture
if [ "$(find "$FIX/sessions" -name '*.jsonl' 2>/dev/null | wc -l)" -ne 10000 ]; then
	log "writing 10,000 sessions"
	rm -rf "$FIX"
	GOPI_STATS_FIXTURE=$FIX go test ./core/usagestats -run '^TestWriteFixture10000$' -count=1 >/dev/null ||
		die "writing the fixture failed"
fi
find "$FIX/sessions" -name '*.jsonl' -exec cat {} + >/dev/null
run() { # run ARGS... → appends "wall cpu" seconds to $WORK/times
	local TIMEFORMAT='%R %U %S'
	{ time env -i PATH="$PATH" HOME="$WORK/home" PI_CODING_AGENT_DIR="$FIX" "$WORK/gopi" stats "$@" >"$WORK/out.txt" 2>&1; } 2>>"$WORK/times.raw" ||
		die "gopi stats $* failed: $(cat "$WORK/out.txt")"
}
. bench/lib/record.sh
bench_records_reset stats
measure() { # measure LABEL ARGS... → "best median cpu-best cpu-median" in seconds (every run recorded)
	: >"$WORK/times.raw"
	for _ in $(seq "$RUNS"); do run "${@:2}"; done
	awk '{print $1}' "$WORK/times.raw" | bench_record_samples stats "gopi stats over 10,000 sessions, $1" gopi wall s
	awk '{print $2 + $3}' "$WORK/times.raw" | bench_record_samples stats "gopi stats over 10,000 sessions, $1" gopi cpu s
	python3 - "$WORK/times.raw" <<'PY'
import sys, statistics
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
wall = sorted(r[0] for r in rows); cpu = sorted(r[1] + r[2] for r in rows)
print("%.2f %.2f %.2f %.2f" % (wall[0], statistics.median(wall), cpu[0], statistics.median(cpu)))
PY
}
log "cold: gopi stats --rescan ($RUNS runs)"
read -r C_B C_M C_CB C_CM <<<"$(measure cold --rescan)"
grep -q "10,000\|10000" "$WORK/out.txt" || die "gopi stats did not count 10,000 sessions: $(head -5 "$WORK/out.txt")"
log "cached: gopi stats ($RUNS runs)"
read -r W_B W_M W_CB W_CM <<<"$(measure cached)"
met() { awk -v v="$1" 'BEGIN {print (v <= 1.0) ? "met" : "missed"}'; }
{
	echo "# stats: \`gopi stats\` over 10,000 sessions"
	echo
	echo "10,000 session files from internal/sessiongen (about 45 KB each; 125,500 assistant messages), page"
	echo "cache warm. Whole \`gopi stats\` processes, $RUNS runs each; seconds."
	echo
	echo "| case | wall best | wall median | CPU best | CPU median | target ≤ 1 s (wall median) |"
	echo "| --- | ---: | ---: | ---: | ---: | --- |"
	echo "| first run or \`--rescan\`: every file read, the cache written | $C_B | $C_M | $C_CB | $C_CM | $(met "$C_M") |"
	echo "| later runs, nothing changed: \`lstat\` of each file and the cache | $W_B | $W_M | $W_CB | $W_CM | $(met "$W_M") |"
	echo
	echo "A run reads only the files that are new or changed since the last one (size and modification"
	echo "time against \`stats-cache.gob\` in the agent directory); a first run or \`--rescan\` reads every"
	echo "file with one worker per CPU: finding the lines that hold an assistant message (one"
	echo "\`bytes.Index\` per file), walking those once with core/session's scanner, and the reads."
	echo
	echo "The machine is shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "- Command: \`bench/stats.sh\` (BENCH_RUNS=$RUNS)"
	echo "- gopi HEAD $(git rev-parse --short HEAD)"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/stats.md
echo "bench: wrote bench/results/stats.md" >&2
bench_records_check stats
