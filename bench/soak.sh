#!/usr/bin/env bash
# bench/soak.sh — `make soak` (and the soak area of `make bench`): long
# runs of one `gopi --mode rpc` process checked for leaks by
# bench/cmd/soak; writes bench/results/soak.md. Not part of `make test`.
#
# Each run sends SOAK_PROMPTS prompts (default 1,000) one after the other
# through the scripted mock LLM; every prompt runs five tools (read, search
# and bash in one turn, write and a hashline edit in the next) before the
# answer, and the process is sampled after every 100th prompt:
#
#  1. the check: a new session after every 100 prompts, so the
#     conversation gopi holds is the same size at every sample and only
#     what leaks can grow. Resident memory after the last prompt at most
#     1.2 × that after the 100th, no more open descriptors, at most 5 more
#     goroutines; a failure makes this script (and `make soak`) fail.
#  2. one session for all the prompts: the same descriptor and goroutine
#     checks; memory is reported, not checked (it grows with the
#     conversation, which gopi keeps whole and sends whole on every turn).
#
# Everything a run leaves (session files, the descriptor lists of each
# sample, the goroutine stacks at the end) is in bench/_work/soak/.
# `bench/soak.sh --report` only rewrites the Markdown from the last runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
WORK=bench/_work/soak
GOPI=${SOAK_GOPI:-bin/gopi} # `make soak` builds it first
N=${SOAK_PROMPTS:-1000}
EVERY=${SOAK_SAMPLE:-100}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

status=0
# run NAME ARGS...: one soak run; its table and verdict go to NAME.out.
run() {
	local name=$1
	shift
	log "soak run: $name ($N prompts)"
	local start=$SECONDS
	if ! "$WORK/soak" -gopi "$GOPI" -n "$N" -sample "$EVERY" -dir "$WORK/$name" "$@" >"$WORK/$name.out" 2>"$WORK/$name.log"; then
		status=1
		tail -5 "$WORK/$name.log" >&2
	fi
	echo "$((SECONDS - start))" >"$WORK/$name.secs"
	cat "$WORK/$name.out" >&2
}
if [ "${1:-}" != --report ]; then
	if [ ! -x "$GOPI" ]; then
		log "building $GOPI"
		go build -o "$GOPI" ./cmd/gopi
	fi
	log "building the soak driver"
	go build -o "$WORK/soak" ./bench/cmd/soak
	run bounded -session-every 100
	run one-session -session-every 0 -rss 0
fi
# The records: each run's samples, one per sampled prompt (every EVERY
# prompts), in prompt order, from its table.
. bench/lib/record.sh
bench_records_reset soak
for name in bounded one-session; do
	[ -s "$WORK/$name.out" ] || continue
	# column NUMBER: that column's numbers over the table's rows.
	column() { awk -F'|' -v c="$1" '$2 ~ /^ *[0-9]+ *$/ { v = $(c + 1); gsub(/[^0-9.]/, "", v); print v }' "$WORK/$name.out"; }
	cas="$N prompts over RPC, $name"
	column 2 | bench_record_samples soak "$cas" gopi VmRSS MiB
	column 3 | bench_record_samples soak "$cas" gopi RssAnon MiB
	column 5 | BENCH_SOURCE=count bench_record_samples soak "$cas" gopi "open fds" count
	column 7 | BENCH_SOURCE=count bench_record_samples soak "$cas" gopi goroutines count
	column 9 | bench_record_samples soak "$cas" gopi "wall per prompt" ms
	column 10 | bench_record_samples soak "$cas" gopi "gopi CPU per prompt" ms
done
# requests NAME: the run's count of model requests and connections.
requests() { grep -o '[0-9]* model requests over [0-9]* connections' "$WORK/$1.log" || echo "(no count)"; }

{
	echo "# soak: one RPC process through $N prompts with tool calls"
	echo
	echo "Measured $(date -u +%Y-%m-%d) on $(uname -srm), $(nproc) CPUs (shared with other work while it ran); \`make soak\`"
	echo "(bench/soak.sh: \`bench/_work/soak/soak -gopi $GOPI -n $N -sample $EVERY -session-every 100\`, then"
	echo "the same with \`-session-every 0 -rss 0\`)."
	echo
	echo "bench/cmd/soak serves the scripted mock LLM (Anthropic Messages API) and drives \`gopi --mode rpc\` through"
	echo "$N prompts, each waiting for its agent_end. Every prompt runs five real tools in a small project (read, search"
	echo "and bash in one model turn, write and a hashline edit in the next) before the answer: three model requests."
	echo "After every ${EVERY}th prompt the process is left alone for a second and sampled from outside: VmRSS,"
	echo "RssAnon (its anonymous part: heap and stacks; VmRSS also counts whichever pages of the 100 MB binary"
	echo "are in memory) and VmHWM from /proc/PID/status, open descriptors in /proc/PID/fd, threads, and"
	echo "goroutines that are not dead in the Go runtime's scheduler trace (\`GODEBUG=schedtrace=500,scheddetail=1\`"
	echo "on gopi's standard error; no debugging hook in gopi). The mock closes its idle connections before each"
	echo "sample. VmRSS and RssAnon must each stay within 1.2× of their value after prompt 100."
	echo
	echo "## A new session after every 100 prompts (the check)"
	echo
	echo "The conversation gopi holds is the same size at each sample (a session of 100 prompts), so growth"
	echo "from one sample to the next is what the process keeps and should not. $(cat "$WORK/bounded.secs") s in all;"
	echo "$(requests bounded)."
	echo
	cat "$WORK/bounded.out"
	echo
	echo "## One session for all $N prompts"
	echo
	echo "gopi keeps a session's conversation whole in memory (the session's entries and the agent's messages)"
	echo "and encodes all of it into every request, so memory and CPU per prompt grow with the session file;"
	echo "descriptors and goroutines must not. $(cat "$WORK/one-session.secs") s in all; $(requests one-session)."
	echo
	cat "$WORK/one-session.out"
	echo
	echo "## What the soak found"
	echo
	echo "- The token counter (core/compaction Counter, one per session and model) remembered every message it"
	echo "  had counted in a map keyed by the message, so it kept them alive: every conversation before a"
	echo "  new_session, and tool output after pruning replaced it with a notice. Before the fix (commit 514c8dd),"
	echo "  the check above failed on 2026-11-29 (same command and machine): RssAnon went from 30.4 MiB after"
	echo "  prompt 100 to 39.1 MiB after prompt 1,000 (1.29×; about 1 MiB more per session of 100 prompts),"
	echo "  VmRSS from 70.0 to 78.8 MiB (1.13×, within the limit: the binary's mapped pages hide the growth,"
	echo "  which is why the anonymous part is checked too). The counter now remembers counts under weak"
	echo "  references and forgets them when the message is collected."
} >bench/results/soak.md
log "wrote bench/results/soak.md"
bench_records_check soak
exit $status
