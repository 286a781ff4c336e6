# bench/lib/record.sh — sourced by the area scripts: write an area's
# machine-readable results (JSON lines, bench/results/AREA.jsonl) through
# bench/cmd/benchreport, so every area shares one format and one writer.
# Run from the repository root (the area scripts cd there first).
#
#   bench_records_reset AREA              start the area's records afresh
#   bench_record_hyperfine AREA CASE EXPORT.json [TOOL,TOOL…]
#                                         every run of a hyperfine export;
#                                         BENCH_COMMAND_CASES=1: its commands
#                                         are variants of one tool, a case each
#   bench_record_gobench AREA FILE|-      go test -bench output (-count N: N
#                                         samples per metric; - reads it from
#                                         stdin); also summarised
#                                         by benchstat into
#                                         bench/results/AREA.benchstat.txt;
#                                         BENCH_TOOL names a peer library's
#                                         benchmarks, BENCH_TRIM cuts a prefix
#                                         from their names (see benchreport)
#   bench_gobench AREA COUNT PKG REGEX BENCHTIME
#                                         runs go test -bench, records its
#                                         lines and prints them
#   bench_record_samples AREA CASE TOOL METRIC UNIT [VALUE…]
#                                         values the script measured itself
#                                         (on stdin when none are given);
#                                         BENCH_SOURCE names how (default
#                                         "script"), BENCH_HIGHER=1 when a
#                                         higher value is better, BENCH_PAIR
#                                         the tool whose runs alternated with
#                                         these one by one
#   bench_records_check AREA              validate the area's records: each
#                                         line complete and measured (none
#                                         read back from a Markdown table)
#
# bench/run.sh builds benchreport once and exports BENCHREPORT; an area run
# on its own builds it into bench/_work/bin on first use. An area that
# writes no records gets them from its Markdown tables after it ends
# (bench/run.sh: benchreport tables).
#
# benchstat (golang.org/x/perf) is installed at a pinned version into
# bench/_work/bin with `go install pkg@version`, which leaves the main
# module's go.mod alone (x/perf would otherwise raise its oauth2 and plot
# requirements). BENCH_BENCHSTAT=0 skips it.
BENCHSTAT_VERSION=v0.0.0-20260908200009-22c9c6c9d4da

bench_reporter() {
	if [ -z "${BENCHREPORT:-}" ] || [ ! -x "$BENCHREPORT" ]; then
		BENCHREPORT=$PWD/bench/_work/bin/benchreport
		mkdir -p "$(dirname "$BENCHREPORT")"
		go build -o "$BENCHREPORT" ./bench/cmd/benchreport || return 1
		export BENCHREPORT
	fi
}

bench_records_reset() {
	rm -f "bench/results/$1.jsonl" "bench/results/$1.benchstat.txt" "bench/_work/gobench/$1.txt"
}

bench_record_hyperfine() {
	bench_reporter || return 1
	"$BENCHREPORT" hyperfine -area "$1" -case "$2" ${4:+-tools "$4"} -command-cases="$([ "${BENCH_COMMAND_CASES:-0}" = 1 ] && echo true || echo false)" "$3"
}

bench_record_gobench() {
	bench_reporter || return 1
	mkdir -p bench/_work/gobench
	local file=$2
	if [ "$file" = - ]; then
		file=bench/_work/gobench/$1.last.txt
		cat >"$file"
	fi
	"$BENCHREPORT" gobench -area "$1" -tool "${BENCH_TOOL:-gopi}" -trim "${BENCH_TRIM:-}" "$file" || return 1
	# benchstat summarises every go test -bench output of the area so far.
	cat "$file" >>"bench/_work/gobench/$1.txt"
	bench_benchstat "$1=bench/_work/gobench/$1.txt" >"bench/results/$1.benchstat.txt.tmp" &&
		mv "bench/results/$1.benchstat.txt.tmp" "bench/results/$1.benchstat.txt" ||
		rm -f "bench/results/$1.benchstat.txt.tmp"
	return 0
}

# bench_gobench AREA COUNT PKG REGEX BENCHTIME — go test -bench of PKG,
# COUNT runs of each benchmark: its result lines recorded (as
# bench_record_gobench) and printed for the area's own table.
bench_gobench() {
	local lines
	lines=$(go test "$3" -run '^$' -bench "$4" -benchtime "$5" -count "$2" | grep '^Benchmark')
	bench_record_gobench "$1" - <<<"$lines" >&2
	printf '%s\n' "$lines"
}

# bench_benchstat FILE… — benchstat's table of go test -bench outputs
# (one file: medians with 95 % intervals; several: compared column by column).
bench_benchstat() {
	[ "${BENCH_BENCHSTAT:-1}" = 0 ] && return 1
	local bin=$PWD/bench/_work/bin/benchstat
	if [ ! -x "$bin" ] || [ "$(cat "$bin.version" 2>/dev/null)" != "$BENCHSTAT_VERSION" ]; then
		mkdir -p "$(dirname "$bin")"
		GOBIN=$(dirname "$bin") GOFLAGS= go install "golang.org/x/perf/cmd/benchstat@$BENCHSTAT_VERSION" >&2 || {
			echo "bench: cannot install benchstat $BENCHSTAT_VERSION (BENCH_BENCHSTAT=0 skips it)" >&2
			return 1
		}
		echo "$BENCHSTAT_VERSION" >"$bin.version"
	fi
	"$bin" "$@"
}

bench_record_samples() {
	bench_reporter || return 1
	local area=$1 cas=$2 tool=$3 metric=$4 unit=$5
	shift 5
	"$BENCHREPORT" samples -area "$area" -case "$cas" -tool "$tool" -metric "$metric" -unit "$unit" \
		-source "${BENCH_SOURCE:-script}" -pair "${BENCH_PAIR:-}" -higher="$([ "${BENCH_HIGHER:-0}" = 1 ] && echo true || echo false)" -- "$@"
}

bench_records_check() {
	bench_reporter || return 1
	"$BENCHREPORT" check -raw -area "$1" "bench/results/$1.jsonl"
}
