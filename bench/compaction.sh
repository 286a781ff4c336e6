#!/usr/bin/env bash
# bench/compaction.sh — the compaction area of `make bench`: time choosing
# the cut point of a 10,000-entry session and building the input of every
# summary request, gopi against the reference agent's own code, and write
# bench/results/compaction.md.
#
# Input: the same synthetic coding session on both sides, built in memory:
# 2,500 turns of a user message, an assistant message calling read, the
# read's output (10–69 lines of Go-like source) and an answer, every
# response reporting usage (~11 MB of text).
#
# gopi: `go test ./core/compaction -bench BenchmarkPrepareAndSummaryInput`:
# compaction.Prepare (token counts, keep-budget ratio, cut point, file
# operations) then compaction.Generate with a model that answers at once
# (serialising the summarised history and the kept part into the prompts).
# "cold" starts each time with a new token counter; "warm" reuses the
# session's counter as a running session does. BENCH_RUNS samples of 20
# iterations; best and median.
#
# Peer: omp 14.9.9's TypeScript source (installed by
# ../shared/tools/omp-reference.sh) run by its Bun: prepareCompaction, then
# serializeConversation(convertToLlm(…)) of the summarised and the kept
# messages, the inputs compact() sends. omp counts tokens with its native
# module on every call. BENCH_RUNS passes after warm-up; best and median.
# Skipped (shown as "-") when omp cannot be installed or run.
#
# Target: ≤ 50 ms for the 10,000-entry session.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/compaction
RUNS=${BENCH_RUNS:-10}
SHARED=${GOPI_SHARED:-$ROOT/../shared}
OMP_DIR=${OMP_REF_DIR:-$HOME/.cache/omp-reference}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

log "timing gopi (go test -bench, $RUNS runs)"
BENCH=$(go test ./core/compaction -run '^$' -bench '^BenchmarkPrepareAndSummaryInput$' -benchtime 20x -count "$RUNS" | grep '^BenchmarkPrepareAndSummaryInput')
. bench/lib/record.sh
bench_records_reset compaction
bench_record_gobench compaction - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "/$1-" 1e6 1; } # bestmed NAME → "best median" in ms
read -r COLD_BEST COLD_MED <<<"$(bestmed cold)"
read -r WARM_BEST WARM_MED <<<"$(bestmed warm)"
PEER_CASE=PrepareAndSummaryInput/cold # the peer is compared with gopi's cold case

log "timing omp 14.9.9's prepareCompaction and serializeConversation in Bun"
PEER_BEST=- PEER_MED=-
if [ -x "$SHARED/tools/omp-reference.sh" ] && "$SHARED/tools/omp-reference.sh" >/dev/null 2>&1 && [ -x "$OMP_DIR/node_modules/.bin/bun" ]; then
	mkdir -p "$WORK/peer"
	ln -sfn "$OMP_DIR/node_modules" "$WORK/peer/node_modules"
	cat >"$WORK/peer/compaction.ts" <<'TS'
// Builds the session of core/compaction's BenchmarkPrepareAndSummaryInput
// and times omp's own preparation and serialisation (see bench/compaction.sh).
import { prepareCompaction } from "@oh-my-pi/pi-coding-agent/session/compaction/compaction";
import { serializeConversation } from "@oh-my-pi/pi-coding-agent/session/compaction/utils";
import { convertToLlm } from "@oh-my-pi/pi-coding-agent/session/messages";

const runs = Number(process.argv[2] ?? 10);
const line = '\tif err := s.store.Append(ctx, entry); err != nil { return fmt.Errorf("append %s: %w", entry.ID, err) }\n';
const usage = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
const entries: any[] = [];
let parent: string | null = null;
const add = (message: any) => {
	const id = (entries.length + 1).toString(16).padStart(8, "0");
	entries.push({ type: "message", id, parentId: parent, timestamp: new Date(0).toISOString(), message });
	parent = id;
};
for (let i = 0; entries.length < 10000; i++) {
	add({ role: "user", content: [{ type: "text", text: `Step ${i}: look at handler_${i}.go and make the error paths consistent with the rest of the package.` }], timestamp: 0 });
	add({ role: "assistant", content: [{ type: "text", text: "I will read the handler first to see how errors are returned there." }, { type: "toolCall", id: `call_${i}`, name: "read", arguments: { path: `internal/handler_${i}.go` } }], api: "anthropic-messages", provider: "p", model: "m", usage: usage(150000, 40), stopReason: "toolUse", timestamp: 0 });
	add({ role: "toolResult", toolCallId: `call_${i}`, toolName: "read", content: [{ type: "text", text: line.repeat(10 + (i % 60)) }], isError: false, timestamp: 0 });
	add({ role: "assistant", content: [{ type: "text", text: "The handler wraps errors with the entry id; I changed the two places that did not, and the package now reports every failure the same way." }], api: "anthropic-messages", provider: "p", model: "m", usage: usage(151000, 60), stopReason: "stop", timestamp: 0 });
}
const settings = { enabled: true, strategy: "context-full", thresholdPercent: -1, thresholdTokens: -1, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true, remoteEnabled: false } as any;
let sink = 0;
const once = () => {
	const p = prepareCompaction(entries, settings)!;
	sink += serializeConversation(convertToLlm(p.messagesToSummarize)).length;
	sink += serializeConversation(convertToLlm(p.recentMessages)).length;
};
for (let i = 0; i < 2; i++) once();
const times: number[] = [];
for (let i = 0; i < runs; i++) {
	const t0 = Bun.nanoseconds();
	once();
	times.push((Bun.nanoseconds() - t0) / 1e6);
}
console.error("samples " + times.map((t) => t.toFixed(3)).join(" "));
times.sort((a, b) => a - b);
console.log(times[0].toFixed(1), times[Math.floor(times.length / 2)].toFixed(1), sink > 0 ? "" : "!");
TS
	if OUT=$(cd "$WORK/peer" && timeout 600 "$OMP_DIR/node_modules/.bin/bun" run compaction.ts "$RUNS" 2>"$WORK/peer/err.txt"); then
		read -r PEER_BEST PEER_MED _ <<<"$OUT"
		sed -n 's/^samples //p' "$WORK/peer/err.txt" | bench_record_samples compaction "$PEER_CASE" omp time/op ms
	else
		log "omp run failed: $(tail -3 "$WORK/peer/err.txt")"
	fi
fi

ratio() { # ratio PEER GOPI → "N× slower" or "-"
	if [ "$1" = - ] || [ "$2" = - ]; then echo -; else awk -v p="$1" -v g="$2" 'BEGIN {printf "%.1f× slower\n", p / g}'; fi
}
MET=missed
awk -v c="$COLD_BEST" 'BEGIN {exit !(c != "-" && c <= 50)}' && MET=met

{
	echo "# compaction: choosing the cut point and building the summary input"
	echo
	echo "A 10,000-entry session (~11 MB of text: 2,500 turns of prompt, read call, read output, answer):"
	echo "plan the compaction (token counts, keep budget, cut point, file operations) and build the text"
	echo "of the summary requests (the summarised history and the kept part, serialised)."
	echo
	echo "| implementation | best of $RUNS | median | vs gopi cold (best) |"
	echo "| --- | ---: | ---: | ---: |"
	echo "| gopi core/compaction, cold (new token counter) | $COLD_BEST ms | $COLD_MED ms | 1.0× |"
	echo "| gopi core/compaction, warm (the session's counter) | $WARM_BEST ms | $WARM_MED ms | - |"
	echo "| omp 14.9.9 prepareCompaction + serializeConversation (Bun 1.4.5) | $PEER_BEST ms | $PEER_MED ms | $(ratio "$PEER_BEST" "$COLD_BEST") |"
	echo
	echo "The machine is shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg); best-of figures are the least disturbed."
	echo
	echo "Target ≤ 50 ms for the 10,000-entry session: **$MET**."
	echo
	echo "gopi counts only the newest text exactly (the kept part and up to 1 MB for the keep-budget"
	echo "ratio) and extrapolates the rest by bytes; omp counts every message of the range with its native"
	echo "tokenizer on each call."
	echo
	echo "- Command: \`bench/compaction.sh\` (BENCH_RUNS=$RUNS)"
	echo "- gopi: \`go test ./core/compaction -run '^\$' -bench '^BenchmarkPrepareAndSummaryInput\$' -benchtime 20x -count $RUNS\`"
	echo "- omp: \`bun run compaction.ts $RUNS\` in bench/_work/compaction/peer (written by the script)"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/compaction.md
log "wrote bench/results/compaction.md"
bench_records_check compaction
