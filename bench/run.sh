#!/usr/bin/env bash
# bench/run.sh — `make bench`: run every benchmark area, then assemble
# bench/RESULTS.md, the charts and the history from the per-area results in
# bench/results/.
#
# An area is a script bench/<area>.sh that installs its own peers, measures
# gopi and its peers in one run on the same input, and writes
# bench/results/<area>.md stating the exact command, the date and the machine,
# and bench/results/<area>.jsonl: every sample it measured as JSON lines
# (bench/lib/record.sh, checked by its validator before the area ends; an
# area added without the helper gets records extracted from its Markdown
# tables instead, one number per cell and no interval). `benchreport assemble` then writes
# RESULTS.md, one SVG per area, the headline and trend charts, and
# bench/history/<commit>.json (see bench/README.md).
#
#   bench/run.sh                      every area
#   BENCH_AREAS="search tokens" bench/run.sh   only those areas
#   bench/run.sh --assemble           no area: only rebuild RESULTS.md (for
#                                     scripts that write a result of their
#                                     own, e.g. scripts/fuzz-soak.sh)
#
# bench/compare.sh is `make bench-compare`, not an area; bench/index-ast.sh
# is run by bench/index.sh (it needs the index that area builds).
# bench/beforeafter.sh is opt-in (it needs BENCH_BEFORE=REV and measures two
# builds of gopi): it is left out of the default list and runs only when
# named, e.g. BENCH_AREAS=beforeafter BENCH_BEFORE=REV bench/run.sh.
#
# An area whose script is missing is an error; an area that fails is reported
# and the others still run (exit status 1 at the end). RESULTS.md is rebuilt
# from whatever results exist, so an area's previous result stays until it is
# measured again successfully.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

known_areas() {
	local f
	for f in bench/*.sh; do
		f=${f#bench/}
		f=${f%.sh}
		case $f in
		run | compare | index-ast | $OPT_IN) ;;
		*) printf '%s ' "$f" ;;
		esac
	done
}
OPT_IN=beforeafter
AREAS=${BENCH_AREAS:-$(known_areas)}
[ "${1:-}" = --assemble ] && AREAS=

BENCHREPORT=$PWD/bench/_work/bin/benchreport
mkdir -p "$(dirname "$BENCHREPORT")"
go build -o "$BENCHREPORT" ./bench/cmd/benchreport || { echo "bench: cannot build bench/cmd/benchreport" >&2; exit 1; }
export BENCHREPORT

# How long each area took (bench/README.md lists a full run's): printed at
# the end and kept in bench/_work/durations.tsv (area, seconds, exit status,
# load average at its start).
DURATIONS=bench/_work/durations.tsv
mkdir -p bench/_work
[ -n "$AREAS" ] && : >"$DURATIONS"

status=0
for area in $AREAS; do
	script=bench/$area.sh
	if [ ! -x "$script" ]; then
		echo "bench: no area script $script (known areas: $(known_areas))" >&2
		status=1
		continue
	fi
	printf '\033[1m=== bench area: %s\033[0m\n' "$area" >&2
	jsonl=bench/results/$area.jsonl
	[ -e "$jsonl" ] && mv "$jsonl" "$jsonl.prev"
	started=$SECONDS load=$(cut -d' ' -f1 /proc/loadavg)
	"$script"
	st=$?
	printf '%s\t%d\t%d\t%s\n' "$area" $((SECONDS - started)) "$st" "$load" >>"$DURATIONS"
	if [ "$st" != 0 ]; then
		echo "bench: area $area failed; its previous result (if any) is kept" >&2
		status=1
		[ -e "$jsonl.prev" ] && mv "$jsonl.prev" "$jsonl"
		continue
	fi
	rm -f "$jsonl.prev"
	if [ ! -s "$jsonl" ] && [ -e "bench/results/$area.md" ]; then
		"$BENCHREPORT" tables -area "$area" "bench/results/$area.md" || status=1
	fi
done

# Assemble RESULTS.md, the charts and the history from results/*.jsonl and
# results/*.md. An area measured before the JSON format gets its records
# from its tables here, once.
for md in bench/results/*.md; do
	[ -e "$md" ] || continue
	area=$(basename "$md" .md)
	[ -e "bench/results/$area.jsonl" ] || "$BENCHREPORT" tables -backfill -area "$area" "$md" 2>/dev/null || true
done
if [ -s "$DURATIONS" ] && [ -n "$AREAS" ]; then
	echo "bench: time per area (seconds, exit status, load at its start):" >&2
	sort -t$'\t' -k2,2nr "$DURATIONS" | awk -F'\t' '{printf "  %-14s %6d s  exit %d  load %s\n", $1, $2, $3, $4}' >&2
fi
"$BENCHREPORT" assemble ${BENCH_NO_HISTORY:+-no-history} || exit 1
echo "bench: wrote bench/RESULTS.md" >&2
exit $status
