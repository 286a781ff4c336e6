#!/usr/bin/env bash
# bench/ai.sh — the ai area of `make bench`: time the re-parsing of streamed
# tool-call arguments (core/ai.ParseStreamingJSON, run on every
# toolcall_delta) against the reference's approach, and write
# bench/results/ai.md.
#
# Input: a write-tool argument document {"path":…,"content":…} whose
# content is the first 400 lines of $(go env GOROOT)/src/fmt/print.go,
# written once to bench/_work/ai/args.json. One run streams it in 16-byte
# deltas and re-parses the accumulated text after every delta (≈ N/16
# parses of growing prefixes), ending with the complete document.
#
# gopi: `go test ./core/ai -bench BenchmarkStreamedArgsFile`, BENCH_RUNS
# samples; best and median reported.
#
# Peer: the reference agent's parseStreamingJson: JSON.parse, falling back
# to the npm package partial-json (parse with every Allow flag), else {}.
# The script installs partial-json and Bun (the reference's runtime) from
# npm and runs that three-line function in Bun on the same deltas.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/ai
RUNS=${BENCH_RUNS:-10}
mkdir -p "$WORK/peer" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

INPUT=$WORK/args.json
if [ ! -s "$INPUT" ]; then
	log "writing $INPUT"
	head -n 400 "$(go env GOROOT)/src/fmt/print.go" |
		python3 -c 'import json,sys; print(json.dumps({"path":"src/fmt/print.go","content":sys.stdin.read()}))' >"$INPUT"
fi
BYTES=$(wc -c <"$INPUT")

log "installing partial-json and Bun from npm into $WORK/peer (once)"
if [ ! -x "$WORK/peer/node_modules/.bin/bun" ] || [ ! -d "$WORK/peer/node_modules/partial-json" ]; then
	(cd "$WORK/peer" && npm install --no-audit --no-fund --silent partial-json@0.1 bun@1 >/dev/null)
fi
BUN=$WORK/peer/node_modules/.bin/bun
PJ_VERSION=$(node -p "require('$WORK/peer/node_modules/partial-json/package.json').version")
BUN_VERSION=$("$BUN" --version)

cat >"$WORK/peer/stream.mjs" <<'JS'
// Re-parses a document streamed in 16-byte deltas the way the reference
// agent does (JSON.parse, then partial-json, then {}) and prints one
// duration in ms per run.
import { readFileSync } from "node:fs";
import { parse as partialParse, Allow } from "partial-json";
const [path, runsArg] = process.argv.slice(2);
const doc = readFileSync(path, "utf8").trim();
function parseStreamingJson(s) {
  if (!s || s.trim() === "") return {};
  try { return JSON.parse(s); } catch {
    try { return partialParse(s, Allow.ALL) ?? {}; } catch { return {}; }
  }
}
function stream() {
  let last;
  for (let end = 16; ; end += 16) {
    if (end > doc.length) end = doc.length;
    last = parseStreamingJson(doc.slice(0, end));
    if (end === doc.length) break;
  }
  if (Object.keys(last).length !== 2) throw new Error("bad final parse");
}
for (let i = 0; i < 3; i++) stream(); // warm-up
for (let i = 0; i < Number(runsArg); i++) {
  const t0 = performance.now();
  stream();
  console.log((performance.now() - t0).toFixed(3));
}
JS

stats() { sort -g | awk '{a[NR]=$1} END {printf "%.3f %.3f\n", a[1], a[int((NR+1)/2)]}'; }

log "gopi: go test ./core/ai -bench BenchmarkStreamedArgsFile ($RUNS runs)"
GO_CMD="AI_BENCH_FILE=$INPUT go test ./core/ai -run '^\$' -bench '^BenchmarkStreamedArgsFile\$' -benchtime 5x -count $RUNS"
. bench/lib/record.sh
bench_records_reset ai
GO_OUT=$(AI_BENCH_FILE=$INPUT go test ./core/ai -run '^$' -bench '^BenchmarkStreamedArgsFile$' -benchtime 5x -count "$RUNS" | grep '^BenchmarkStreamedArgsFile')
bench_record_gobench ai - <<<"$GO_OUT"
read -r GO_BEST GO_MED < <(awk '{print $3/1e6}' <<<"$GO_OUT" | stats)

log "peer: bun stream.mjs ($RUNS runs)"
PEER_RUNS=$(cd "$WORK/peer" && "$BUN" stream.mjs "$INPUT" "$RUNS")
bench_record_samples ai StreamedArgsFile bun time/op ms <<<"$PEER_RUNS"
read -r PEER_BEST PEER_MED < <(stats <<<"$PEER_RUNS")

RATIO=$(awk -v a="$PEER_BEST" -v b="$GO_BEST" 'BEGIN {printf "%.1f", a/b}')
cat >bench/results/ai.md <<MD
# ai: re-parsing streamed tool-call arguments

A ${BYTES}-byte write-tool argument document streamed in 16-byte deltas, the accumulated text
re-parsed after every delta (strict JSON, else a partial-JSON parser, else {}), as every provider
does for \`toolcall_delta\`. One run is the whole stream.

| implementation | best of $RUNS | median | vs gopi (best) |
| --- | ---: | ---: | ---: |
| gopi core/ai.ParseStreamingJSON (Go) | ${GO_BEST} ms | ${GO_MED} ms | 1.0× |
| reference approach: JSON.parse + partial-json ${PJ_VERSION} in Bun ${BUN_VERSION} | ${PEER_BEST} ms | ${PEER_MED} ms | ${RATIO}× slower |

The machine is shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg); best-of figures are the least disturbed.

- Command: \`bench/ai.sh\` (BENCH_RUNS=$RUNS)
- gopi: \`$GO_CMD\`
- peer: \`bun bench/_work/ai/peer/stream.mjs bench/_work/ai/args.json $RUNS\`
- Date: $(date -u)
- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)
MD
cat bench/results/ai.md
bench_records_check ai
