# bench/lib/record.sh — sourced by the area scripts: write an area's
# machine-readable results (JSON lines, bench/results/AREA.jsonl) through
# bench/cmd/benchreport, so every area shares one format and one writer.
# Run from the repository root (the area scripts cd there first).
#
#   bench_records_reset AREA              start the area's records afresh
#   bench_record_hyperfine AREA CASE EXPORT.json [TOOL,TOOL…]
#                                         every run of a hyperfine export
#   bench_record_gobench AREA FILE        go test -bench output (-count N: N samples)
#
# bench/run.sh builds benchreport once and exports BENCHREPORT; an area run
# on its own builds it into bench/_work/bin on first use. An area that
# writes no records gets them from its Markdown tables after it ends
# (bench/run.sh: benchreport tables).

bench_reporter() {
	if [ -z "${BENCHREPORT:-}" ] || [ ! -x "$BENCHREPORT" ]; then
		BENCHREPORT=$PWD/bench/_work/bin/benchreport
		mkdir -p "$(dirname "$BENCHREPORT")"
		go build -o "$BENCHREPORT" ./bench/cmd/benchreport || return 1
		export BENCHREPORT
	fi
}

bench_records_reset() {
	rm -f "bench/results/$1.jsonl"
}

bench_record_hyperfine() {
	bench_reporter || return 1
	"$BENCHREPORT" hyperfine -area "$1" -case "$2" ${4:+-tools "$4"} "$3"
}

bench_record_gobench() {
	bench_reporter || return 1
	"$BENCHREPORT" gobench -area "$1" "$2"
}
