#!/usr/bin/env bash
# bench/memory-disk.sh — the memory-disk area of `make bench`: peak RSS of
# searches of the whole disk (/): gopi grep and gopi find, the agent's
# search tool called directly (gopi tool search), and the agent itself
# calling that tool twice through a scripted mock LLM; ripgrep next to the
# grep rows. Writes bench/results/memory-disk.md.
#
# Each command runs once under /usr/bin/time -f '%M %e' (peak RSS in KiB of
# the largest process, wall seconds). What a command prints goes through a
# pipe to wc, never to a file: a search of / finds the files it writes and
# would read its own output as it grows. The target: every gopi row at or
# under 300 MB.
#
# Environment:
#   BENCH_BEFORE=REV   also build gopi at git revision REV and measure it in
#                      a column of its own, for before/after figures (see
#                      bench/before_build.bash for its native library)
#   BENCH_RG=0         skip the ripgrep rows
#
# ripgrep runs with --one-file-system: it does not prune /proc, /sys and /dev
# as gopi does, and reading some of their files blocks or never ends.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/memory-disk
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

command -v /usr/bin/time >/dev/null || {
	log "installing time with apt"
	apt-get install -y -qq time >/dev/null
}
RG=0
if [ "${BENCH_RG:-1}" != 0 ]; then
	command -v rg >/dev/null || { log "installing ripgrep with apt"; apt-get install -y -qq ripgrep >/dev/null || true; }
	command -v rg >/dev/null && RG=1
fi

GOPI=$WORK/gopi
log "building $GOPI"
go build -o "$GOPI" ./cmd/gopi
BEFORE=${BENCH_BEFORE:-}
OLD=""
if [ -n "$BEFORE" ]; then
	OLD=$WORK/gopi-before
	BEFORE=$(git rev-parse --short "$BEFORE")
	log "building gopi at $BEFORE into $OLD"
	. "$ROOT/bench/before_build.bash"
	build_gopi_at "$BEFORE" "$OLD"
fi

# A pattern found in no file but this script and what records it.
RARE=zqxjkwvbyrare

# The agent: a scripted mock LLM asks for two searches of / (the second
# one is where a cache filled by the first would show), then ends.
cat >"$WORK/script.json" <<EOF
{"turns": [
 {"blocks": [{"type": "toolCall", "id": "s1", "name": "search", "arguments": {"pattern": "$RARE", "paths": ["/"]}}]},
 {"blocks": [{"type": "toolCall", "id": "s2", "name": "search", "arguments": {"pattern": "$RARE", "paths": ["/"]}}]},
 {"blocks": [{"type": "text", "text": "searched"}]}
]}
EOF
# agent BIN: runs the agent of BIN against a fresh mock LLM.
agent() {
	local bin=$1 home=$WORK/home url
	rm -rf "$home"
	mkdir -p "$home/.gopi/agent"
	coproc MOCK { "$bin" mockllm --script "$WORK/script.json" --exit-when-done 2>/dev/null; }
	read -r url <&"${MOCK[0]}"
	printf 'providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n' "$url" >"$home/.gopi/agent/models.yml"
	env -i PATH="$PATH" HOME="$home" PI_CODING_AGENT_DIR="$home/.gopi/agent" MOCK_KEY=x TERM=dumb LANG=C.UTF-8 \
		"$bin" -p --no-title --model mock/mock-model "search the disk"
	wait "$MOCK_PID" 2>/dev/null || true
}
export -f agent
export WORK

# run BIN CMD: CMD (a shell string, $G standing for BIN) under
# /usr/bin/time; prints "RSS_MB SECONDS OUTPUT" (OUTPUT: what CMD printed,
# cut to 60 characters).
run() {
	local bin=$1 cmd=$2
	/usr/bin/time -o "$WORK/time.txt" -f '%M %e' env G="$bin" bash -c "$cmd" 2>/dev/null | tr '\n' ' ' | cut -c1-60 >"$WORK/out.txt" || true
	printf '%s %s %s\n' "$(awk '{printf "%.1f", $1 / 1024}' "$WORK/time.txt")" "$(awk '{print $2}' "$WORK/time.txt")" "$(sed 's/ *$//' "$WORK/out.txt")"
}

ROWS=$WORK/rows.md
: >"$ROWS"
. bench/lib/record.sh
bench_records_reset memory-disk
# record NAME TOOL "RSS_MB SECONDS …": one run, one sample of each.
record() {
	bench_record_samples memory-disk "$1" "$2" "peak RSS" MiB "$(cut -d' ' -f1 <<<"$3")"
	bench_record_samples memory-disk "$1" "$2" wall s "$(cut -d' ' -f2 <<<"$3")"
}
# row NAME CMD: one table row, CMD run with gopi (and the before build).
row() {
	local name=$1 cmd=$2 now old="" cells
	now=$(run "$GOPI" "$cmd")
	log "$name: $now"
	record "$name" gopi "$now"
	if [ -n "$OLD" ]; then
		old=$(run "$OLD" "$cmd")
		log "$name, $BEFORE: $old"
		record "$name" "gopi@$BEFORE" "$old"
		cells="$(cut -d' ' -f1 <<<"$old") MB | $(cut -d' ' -f1 <<<"$now") MB | $(cut -d' ' -f2 <<<"$old") s | $(cut -d' ' -f2 <<<"$now") s"
	else
		cells="$(cut -d' ' -f1 <<<"$now") MB | $(cut -d' ' -f2 <<<"$now") s"
	fi
	printf '| %s | %s | %s |\n' "$name" "$cells" "$(cut -d' ' -f3- <<<"$now")" >>"$ROWS"
}
# peer NAME CMD: a ripgrep row (no before column).
peer() {
	local name=$1 cmd=$2 now dash=""
	[ "$RG" = 1 ] || return 0
	now=$(run "" "$cmd")
	log "$name: $now"
	record "$name" rg "$now"
	[ -n "$OLD" ] && dash="— | "
	printf '| %s | %s%s MB | %s%s s | %s |\n' "$name" "$dash" "$(cut -d' ' -f1 <<<"$now")" "$dash" "$(cut -d' ' -f2 <<<"$now")" "$(cut -d' ' -f3- <<<"$now")" >>"$ROWS"
}

row "gopi grep RARE / (lines, wc -l)" "\$G grep $RARE / | wc -l"
peer "rg RARE / --one-file-system (lines, wc -l)" "rg $RARE / --one-file-system | wc -l"
row "gopi grep -c e / (files, wc -l)" "\$G grep -c e / | wc -l"
peer "rg -c e / --one-file-system (files, wc -l)" "rg -c e / --one-file-system | wc -l"
row "gopi grep -l e / (files, wc -l)" "\$G grep -l e / | wc -l"
row "gopi grep -uu RARE / (hidden and ignored files too)" "\$G grep -uu $RARE / | wc -l"
peer "rg -uu RARE / --one-file-system" "rg -uu $RARE / --one-file-system | wc -l"
row "gopi grep --sort modified -uu RARE / (every path held to sort)" "\$G grep --sort modified -uu $RARE / | wc -l"
peer "rg --sort modified -uu RARE / --one-file-system" "rg --sort modified -uu $RARE / --one-file-system | wc -l"
row "gopi find -H -I '*' / (paths, wc -l)" "\$G find -H -I '*' / | wc -l"
row "gopi find -H -I --newest '*' / (paths, wc -l)" "\$G find -H -I --newest '*' / | wc -l"
row "gopi tool search RARE over / (wc -c)" "\$G tool search '{\"pattern\": \"$RARE\", \"paths\": [\"/\"]}' | wc -c"
row "gopi tool search e over / (wc -c)" "\$G tool search '{\"pattern\": \"e\", \"paths\": [\"/\"]}' | wc -c"
row "agent, two search calls over / (mock LLM; answer)" "agent \$G"

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "# memory-disk: peak RSS of searches of the whole disk"
	echo
	echo "Run $(date -u) on $(nproc) cores ($(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"
	echo "$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)), / holding $(df -h --output=used / | tail -1 | tr -d ' ') in"
	echo "$(df --output=iused / | tail -1 | tr -d ' ') inodes; load average at the end $LOAD (the machine is shared: wall times are"
	echo "from a loaded machine and only indicative; RSS is not affected). Command: \`bench/memory-disk.sh\`$([ -n "$OLD" ] && echo " with BENCH_BEFORE=$BEFORE"); each row is"
	echo "one run under \`/usr/bin/time -f '%M %e'\` (peak RSS of the largest process, wall time). RARE is a string"
	echo "found in no file ($RARE). Target: every gopi row at or under 300 MB."
	echo
	if [ -n "$OLD" ]; then
		echo "| command | peak RSS at $BEFORE | peak RSS now | wall at $BEFORE | wall now | output now |"
		echo "| --- | ---: | ---: | ---: | ---: | --- |"
	else
		echo "| command | peak RSS | wall | output |"
		echo "| --- | ---: | ---: | --- |"
	fi
	cat "$ROWS"
	echo
	echo "<!-- notes -->"
	echo "<!-- /notes -->"
} >"$WORK/memory-disk.md"
# Keep the notes written by hand in the previous result.
if [ -f bench/results/memory-disk.md ]; then
	awk 'FNR == NR { if (/<!-- notes -->/) keep = 1; if (keep) notes = notes $0 "\n"; if (/<!-- \/notes -->/) keep = 0; next }
		/<!-- notes -->/ { if (notes == "") notes = "<!-- notes -->\n<!-- /notes -->\n"; printf "%s", notes; skip = 1; next }
		/<!-- \/notes -->/ { skip = 0; next }
		!skip' bench/results/memory-disk.md "$WORK/memory-disk.md" >bench/results/memory-disk.md.tmp
	mv bench/results/memory-disk.md.tmp bench/results/memory-disk.md
else
	mv "$WORK/memory-disk.md" bench/results/memory-disk.md
fi
log "wrote bench/results/memory-disk.md"
bench_records_check memory-disk
