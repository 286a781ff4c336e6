#!/usr/bin/env bash
# bench/prompt.sh — the prompt area of `make bench`: the fixed part of every
# request (system prompt + built-in tool definitions) in o200k_base tokens,
# gopi against the reference agent, and the time gopi takes to build the
# system prompt; writes bench/results/prompt.md.
#
# gopi tokens: `go test ./core/prompt -run TestTokenBudget -v`, which builds
# the prompt for the golden-test fixture repository without context files
# and counts, per edit mode, the prompt and each built-in tool as core/agent
# sends it (name + description + compact JSON schema). The test fails above
# 10,000 tokens (prompt + every tool, the hidden resolve included).
#
# Reference tokens: omp 14.9.9 (installed by ../shared/tools/omp-reference.sh
# under an isolated HOME) runs `omp -p hi` in an empty git repository
# against gopi's scripted mock LLM (`gopi mockllm --record`) posing as the
# Anthropic API; the recorded request's system blocks and tools (name +
# description + compact input_schema) are counted with `gopi tokens`. Skipped
# (shown as "-") when omp cannot be installed or run.
#
# Build time: `go test ./core/prompt -bench BenchmarkBuild`, BENCH_RUNS
# samples of 200 builds each; best and median. "repo+status" adds the only
# external program Build may run, a bounded `git status`.
#
# Target: ≤ 10,000 tokens for prompt + tools; building well inside the 15 ms
# that `gopi -p` may take to its first request byte.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/prompt
RUNS=${BENCH_RUNS:-6}
SHARED=${GOPI_SHARED:-$ROOT/../shared}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

log "counting gopi's prompt and tool tokens"
BUDGET=$(go test ./core/prompt -run '^TestTokenBudget$' -count 1 -v | sed -n 's/.*\(budget: .*\|tool: .*\)$/\1/p')
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; } # field NAME < line

log "timing BenchmarkBuild ($RUNS runs)"
BENCH=$(go test ./core/prompt -run '^$' -bench '^Benchmark(Build|Discover)$' -benchtime 200x -count "$RUNS" | grep '^Benchmark')
. bench/lib/record.sh
bench_records_reset prompt
bench_record_gobench prompt - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "^$1-" 1e6 3; } # bestmed NAME → "best median" in ms

log "capturing omp 14.9.9's request through the mock LLM"
PEER=$WORK/peer
rm -rf "$PEER" && mkdir -p "$PEER/home/.omp/agent" "$PEER/repo"
go build -o "$WORK/gopi" ./cmd/gopi
OMP_OK=0
if [ -x "$SHARED/tools/omp-reference.sh" ] && "$SHARED/tools/omp-reference.sh" >/dev/null 2>&1; then
	echo '{"turns":[{"blocks":[{"type":"text","text":"ok"}]}]}' >"$PEER/script.json"
	"$WORK/gopi" mockllm --script "$PEER/script.json" --exit-when-done --record "$PEER/requests.jsonl" >"$PEER/mock.out" 2>&1 &
	MOCK=$!
	for _ in $(seq 50); do [ -s "$PEER/mock.out" ] && break; sleep 0.1; done
	URL=$(head -1 "$PEER/mock.out")
	printf 'providers:\n  anthropic:\n    baseUrl: %s\n' "$URL" >"$PEER/home/.omp/agent/models.yml"
	git -C "$PEER/repo" init -q
	if (cd "$PEER/repo" && timeout 300 env HOME="$PEER/home" OMP_REF_DIR="${OMP_REF_DIR:-$HOME/.cache/omp-reference}" \
		PI_CODING_AGENT_DIR="$PEER/home/.omp/agent" ANTHROPIC_API_KEY=sk-ant-bench \
		"$SHARED/tools/omp-reference.sh" -p --model anthropic/claude-sonnet-4-5 hi >"$PEER/omp.out" 2>&1); then
		wait "$MOCK" || true
		python3 - "$PEER" <<'PY' && OMP_OK=1
import json, sys
peer = sys.argv[1]
body = None
for line in open(f"{peer}/requests.jsonl"):
    r = json.loads(line)
    if r["method"] == "POST":
        body = r["body"] if isinstance(r["body"], dict) else json.loads(r["body"])
open(f"{peer}/system.txt", "w").write("\n".join(b["text"] for b in body["system"]))
for t in body["tools"]:
    schema = json.dumps(t.get("input_schema"), separators=(",", ":"), ensure_ascii=False)
    open(f"{peer}/tool-{t['name']}.txt", "w").write(t["name"] + "\n" + t.get("description", "") + "\n" + schema)
open(f"{peer}/tools.txt", "w").write(" ".join(t["name"] for t in body["tools"]))
PY
	else
		kill "$MOCK" 2>/dev/null || true
	fi
fi
count() { "$WORK/gopi" tokens "$1" | awk '{print $1}'; }
ompTool() { if [ "$OMP_OK" = 1 ] && [ -f "$PEER/tool-$1.txt" ]; then count "$PEER/tool-$1.txt"; else echo -; fi; }

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
HASH=$(grep '^budget: mode=hashline ' <<<"$BUDGET")
{
	echo "# prompt: the fixed part of every request, and building the system prompt"
	echo
	echo "o200k_base tokens of the system prompt (empty repository, no context files) and of the tool"
	echo "definitions (name + description + compact JSON schema) sent with every request."
	echo
	echo "| edit mode | system prompt | tools offered | hidden resolve | total | prompt with the fixture's 4 context files |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: |"
	while read -r line; do
		[ -n "$line" ] || continue
		echo "| $(field mode <<<"$line") | $(field prompt <<<"$line") | $(field tools <<<"$line") | $(field hidden <<<"$line") | **$(field total <<<"$line")** | $(field prompt_with_context <<<"$line") |"
	done < <(grep '^budget: ' <<<"$BUDGET")
	echo
	if [ "$OMP_OK" = 1 ]; then
		OMP_SYS=$(count "$PEER/system.txt")
		OMP_TOOLS=0
		for f in "$PEER"/tool-*.txt; do OMP_TOOLS=$((OMP_TOOLS + $(count "$f"))); done
		echo "omp 14.9.9 (\`omp -p hi\`, default settings, Anthropic API): system prompt **${OMP_SYS}**, tools **${OMP_TOOLS}**"
		echo "($(wc -w <"$PEER/tools.txt") tools: $(cat "$PEER/tools.txt")), total **$((OMP_SYS + OMP_TOOLS))** tokens."
	else
		echo "omp 14.9.9: not measured (installing or running it failed; see $PEER/omp.out)."
	fi
	echo
	echo "Per tool (gopi in hashline mode; omp's tool of the same name in its default mode):"
	echo
	echo "| tool | gopi | omp 14.9.9 |"
	echo "| --- | ---: | ---: |"
	while read -r line; do
		name=$(field name <<<"$line")
		echo "| $name | $(field tokens <<<"$line") | $(ompTool "$name") |"
	done < <(grep '^tool: mode=hashline ' <<<"$BUDGET")
	echo
	echo "Target ≤ 10,000 tokens for prompt + tools: **$(awk -v t="$(field total <<<"$HASH")" 'BEGIN { print (t <= 10000 ? "met" : "NOT met") }')**" \
		"($(field total <<<"$HASH") in hashline mode; TestTokenBudget fails above it in any mode)."
	echo
	echo "Building the system prompt (\`prompt.Build\`), best and median of ${RUNS} runs of 200 builds:"
	echo
	echo "| case | best ms | median ms |"
	echo "| --- | ---: | ---: |"
	for c in fixture repo repo+status; do
		read -r b m < <(bestmed "BenchmarkBuild/$c")
		echo "| $c | $b | $m |"
	done
	read -r b m < <(bestmed BenchmarkDiscover)
	echo "| context-file discovery alone, 21 levels | $b | $m |"
	echo
	echo "fixture: the golden-test repository (4 context files, 2 user directories); repo: this repository"
	echo "from core/prompt; repo+status: the same with \`git status\` (the only program Build may run;"
	echo "it runs during discovery, and StartGitStatus lets a caller start it earlier)."
	echo
	echo "The machine is shared: load average when measured was ${LOAD}."
	echo
	echo "- Command: \`bench/prompt.sh\` (BENCH_RUNS=${RUNS})"
	echo "- gopi tokens: \`go test ./core/prompt -run '^TestTokenBudget\$' -v\`"
	echo "- gopi build: \`go test ./core/prompt -run '^\$' -bench '^Benchmark(Build|Discover)\$' -benchtime 200x -count ${RUNS}\`"
	echo "- omp: \`omp -p --model anthropic/claude-sonnet-4-5 hi\` against \`gopi mockllm --record\`, in an empty git repository"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, ${CPU}, $(uname -sr)"
} >bench/results/prompt.md
log "wrote bench/results/prompt.md"
cat bench/results/prompt.md
# Token counts are exact: one sample each (source "count").
while read -r line; do
	[ -n "$line" ] || continue
	BENCH_SOURCE=count bench_record_samples prompt "system prompt + tools, $(field mode <<<"$line") mode" gopi tokens tokens "$(field total <<<"$line")"
done < <(grep '^budget: ' <<<"$BUDGET")
BENCH_SOURCE=count bench_record_samples prompt "system prompt + tools (gopi hashline, omp default)" gopi tokens tokens "$(field total <<<"$HASH")"
if [ "$OMP_OK" = 1 ]; then
	BENCH_SOURCE=count bench_record_samples prompt "system prompt + tools (gopi hashline, omp default)" omp tokens tokens "$((OMP_SYS + OMP_TOOLS))"
fi
bench_records_check prompt
