#!/usr/bin/env bash
# bench/memory.sh — the memory area of `make bench`: peak RSS and time of
# gopi's search and token commands on inputs of unbounded size, next to
# ripgrep where it does the same job; writes bench/results/memory.md.
#
# Inputs, written once to bench/_work/memory/:
#   big.txt  about 1 GiB of Go source ($(go env GOROOT)/src/**/*.go in sorted
#            path order, repeated until the size is reached)
#   run.txt  64 MiB of one character ('a'), no newline: one token piece
#   run16.txt 16 MiB of the same, to check that time grows linearly
#   line.txt 10 MB of one character and a newline: one line holding 10
#            million matches of that character, printed one by one
#
# Each command runs once under /usr/bin/time -f '%M %e' (peak RSS in KiB,
# wall seconds), output to /dev/null (or counted with wc -l, to show that
# matches are streamed, not kept). The target: every gopi row under 300 MB.
#
# First match from a whole-disk search: the wall time of
# `CMD x / | head -1`, for gopi grep and rg with their default filters.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/memory
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

GOPI=$WORK/gopi
log "building $GOPI"
go build -o "$GOPI" ./cmd/gopi

BIG=$WORK/big.txt
if [ ! -s "$BIG" ]; then
	log "writing $BIG (1 GiB)"
	SRC=$(go env GOROOT)/src
	find "$SRC" -name '*.go' -type f | LC_ALL=C sort | xargs cat >"$WORK/src.txt"
	: >"$BIG.tmp"
	while [ "$(stat -c %s "$BIG.tmp")" -lt $((1 << 30)) ]; do cat "$WORK/src.txt" >>"$BIG.tmp"; done
	head -c $((1 << 30)) "$BIG.tmp" >"$BIG"
	rm -f "$BIG.tmp"
fi
[ -s "$WORK/run.txt" ] || head -c $((64 << 20)) /dev/zero | tr '\0' a >"$WORK/run.txt"
[ -s "$WORK/run16.txt" ] || head -c $((16 << 20)) /dev/zero | tr '\0' a >"$WORK/run16.txt"
[ -s "$WORK/line.txt" ] || { head -c 10000000 /dev/zero | tr '\0' a && echo; } >"$WORK/line.txt"
LINE=$WORK/line.txt

. bench/lib/record.sh
bench_records_reset memory
# measure NAME CMD: runs CMD (a shell string) under /usr/bin/time and
# prints a table row: NAME, peak RSS in MB, wall seconds, CMD's output;
# records both (one run: one sample; the tool is NAME's first word).
measure() {
	local name=$1 cmd=$2 rss secs extra
	/usr/bin/time -o "$WORK/time.txt" -f '%M %e' bash -c "$cmd" >"$WORK/out.txt" 2>"$WORK/err.txt" || true
	rss=$(awk '{printf "%.1f", $1 / 1024}' "$WORK/time.txt")
	secs=$(awk '{print $2}' "$WORK/time.txt")
	extra=$(tr '\n' ' ' <"$WORK/out.txt" | cut -c1-80 | sed 's/ *$//')
	log "$name: $rss MB, $secs s, $extra"
	bench_record_samples memory "$name" "${name%% *}" "peak RSS" MiB "$rss"
	bench_record_samples memory "$name" "${name%% *}" wall s "$secs"
	printf '| %s | %s MB | %s s | %s |\n' "$name" "$rss" "$secs" "$extra"
}

ROWS=$WORK/rows.md
: >"$ROWS"
{
	measure "gopi tokens, 1 GiB of Go source" "$GOPI tokens $BIG | cut -d' ' -f1"
	measure "gopi tokens, 64 MiB of one character" "$GOPI tokens $WORK/run.txt | cut -d' ' -f1"
	measure "gopi tokens, 16 MiB of one character" "$GOPI tokens $WORK/run16.txt | cut -d' ' -f1"
	measure "gopi grep -c func, 1 GiB" "$GOPI grep -c func $BIG"
	measure "rg -c func, 1 GiB" "rg -c func $BIG"
	measure "gopi grep e, 1 GiB, lines printed (wc -l)" "$GOPI grep e $BIG | wc -l"
	measure "rg -n e, 1 GiB, lines printed (wc -l)" "rg -n e $BIG | wc -l"
	measure "gopi grep -o e, 1 GiB, matches printed (wc -l)" "$GOPI grep -o e $BIG | wc -l"
	measure "gopi grep x /dev/zero (named special file, read up to 64 MiB)" "$GOPI grep x /dev/zero; echo exit \$?"
	measure "gopi grep -C2 Errorf, 1 GiB, lines printed (wc -l)" "$GOPI grep -C2 Errorf $BIG | wc -l"
	measure "rg --no-mmap -C2 Errorf, 1 GiB, lines printed (wc -l)" "rg --no-mmap -C2 Errorf $BIG | wc -l"
	measure "gopi grep -c -U 'zzz\\nyyy', 1 GiB (multiline: read whole)" "$GOPI grep -c -U 'zzz\\nyyy' $BIG; echo exit \$?"
	measure "rg --no-mmap -c -U 'zzz\\nyyy', 1 GiB" "rg --no-mmap -c -U 'zzz\\nyyy' $BIG; echo exit \$?"
	measure "gopi read, a file that is one 64 MiB line" "$GOPI read $WORK/run.txt | wc -c"
	measure "gopi grep -o a, one line of 10M matches (wc -l)" "$GOPI grep -o a $LINE | wc -l"
	measure "rg -o a, one line of 10M matches (wc -l)" "rg -o a $LINE | wc -l"
	measure "gopi grep --json a, one line of 10M matches (wc -c)" "$GOPI grep --json a $LINE | wc -c"
	measure "rg --json a, one line of 10M matches (wc -c)" "rg --json a $LINE | wc -c"
	measure "gopi grep --vimgrep a, one line of 10M matches, first 1 GB (wc -c)" "$GOPI grep --vimgrep a $LINE | head -c 1000000000 | wc -c"
	measure "rg --vimgrep a, one line of 10M matches, first 1 GB (wc -c)" "rg --vimgrep a $LINE | head -c 1000000000 | wc -c"
} >>"$ROWS"

# first FIRSTCMD: wall time until the first line of a whole-disk search.
first() {
	local start end
	start=$(date +%s.%N)
	bash -c "$1 2>/dev/null | head -1 >/dev/null" || true
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}
FIRST_GOPI=$(first "$GOPI grep x /")
FIRST_RG=$(first "rg x /")
log "first line of a search of /: gopi $FIRST_GOPI s, rg $FIRST_RG s"
bench_record_samples memory "first line of a search of /" gopi "time to first line" s "$FIRST_GOPI"
bench_record_samples memory "first line of a search of /" rg "time to first line" s "$FIRST_RG"

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "# memory: peak RSS on inputs of unbounded size"
	echo
	echo "Run $(date -u) on $(nproc) cores ($(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
	echo "load average at the end $LOAD (the machine is shared: times are from a loaded machine,"
	echo "RSS is not affected). Command: \`bench/memory.sh\`; each row is one run of the command under"
	echo "\`/usr/bin/time -f '%M %e'\` (peak RSS of the whole pipeline's largest process, wall time)."
	echo "Target: every gopi row under 300 MB but the multiline one (a multiline search reads a file whole, as ripgrep does without a memory map); tokens time linear in the input."
	echo
	echo "| command | peak RSS | wall | output |"
	echo "| --- | ---: | ---: | --- |"
	cat "$ROWS"
	echo
	echo "First line of a search of the whole disk (\`CMD x / | head -1\`, wall time until head exits):"
	echo "gopi grep $FIRST_GOPI s, rg $FIRST_RG s. Both search while they walk; most of the"
	echo "difference is gopi's start-up (see the release area)."
	echo
	echo "rg's RSS counts the pages of the 1 GiB file it memory-maps (page cache, not heap)."
	echo "The /dev/zero row is the line buffer growing to hold one 64 MiB line without a newline."
	echo "The rows of one line with 10 million matches: the matches of a line are found in one"
	echo "native call and kept (16 bytes each, as ripgrep keeps them); what they print is handed to"
	echo "the printer every 256 KiB, so --vimgrep, which prints the 10 MB line once per match, runs"
	echo "in constant memory for as long as its reader wants more."
} >bench/results/memory.md
log "wrote bench/results/memory.md"
bench_records_check memory
