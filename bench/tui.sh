#!/usr/bin/env bash
# bench/tui.sh — the interactive mode's area of `make bench`: first frame,
# keystroke to frame, and the cost of a streamed delta, written to
# bench/results/tui.md.
#
#  1. First frame: bench/cmd/firstframe starts the program on a 120×40
#     pseudo-terminal again and again and times each run from just before
#     the process is started (fork and exec included) to the moment its
#     output holds a marker of the finished screen: gopi's editor
#     placeholder, omp's footer (the model name). Target ≤ 60 ms for gopi.
#     omp 14.9.9 (installed by ../shared/tools/omp-reference.sh) runs the
#     same way with its own isolated home; without it the peer row is "-".
#  2. Keystroke to frame with a 5,000-message conversation loaded, and one
#     streamed delta (8 characters) when the answer holds 1 KB and 100 KB:
#     `go test ./core/modes/tui -bench 'Keystroke|StreamDelta'` (Update then
#     View, in process). Targets: ≤ 16 ms per keystroke; the delta's cost
#     the same at 100 KB as at 1 KB and far under a 60 fps frame (16.7 ms).
#  3. Streaming cost: bench/tui_stream.py streams one 24 KB Markdown answer
#     from gopi's mock LLM in 8-rune chunks every 5 ms (200 chunks a second)
#     to the agent in a 120×40 tmux pane, and reads the agent's CPU time
#     (its process tree, user + system) from Enter to the answer's last
#     line on the screen; BENCH_STREAM_RUNS runs each, the median kept.
#     Targets: gopi ≤ 0.10× omp's CPU, and ≤ 5 % of one core.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/tui
RUNS=${BENCH_RUNS:-20}
OMP_RUNS=${BENCH_OMP_RUNS:-5}
GO_RUNS=${BENCH_GO_RUNS:-6}
STREAM_RUNS=${BENCH_STREAM_RUNS:-3}
SHARED=${GOPI_SHARED:-$ROOT/../shared}
OMP_DIR=${OMP_REF_DIR:-$HOME/.cache/omp-reference}
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
rm -rf "$WORK/home" "$WORK/omp-home" "$WORK/project"
mkdir -p "$WORK/home/.gopi/agent" "$WORK/omp-home/.omp/agent" "$WORK/project" bench/results

. bench/lib/record.sh
bench_records_reset tui
log "building gopi and bench/cmd/firstframe"
go build -o "$WORK/gopi" ./cmd/gopi
go build -o "$WORK/firstframe" ./bench/cmd/firstframe
git -C "$WORK/project" init -q 2>/dev/null || true
# No request is made before the first frame: the address need not answer.
cat >"$WORK/home/.gopi/agent/models.yml" <<'YML'
providers:
  mock:
    baseUrl: http://127.0.0.1:9
    api: anthropic-messages
    apiKey: MOCK_KEY
    models:
      - id: mock-model
YML
cat >"$WORK/omp-home/.omp/agent/models.yml" <<'YML'
providers:
  mock:
    baseUrl: http://127.0.0.1:9
    apiKey: MOCK_KEY
    api: anthropic-messages
    auth: apiKey
    models:
      - id: mock-model
YML

log "first frame: gopi ($RUNS runs)"
(cd "$WORK/project" && env -i PATH="$PATH" HOME="$WORK/home" PI_CODING_AGENT_DIR="$WORK/home/.gopi/agent" MOCK_KEY=x TERM=xterm-256color LANG=C.UTF-8 \
	"$WORK/firstframe" -n "$RUNS" -warmup 2 -- "$WORK/gopi" --no-title --model mock/mock-model) >"$WORK/gopi-frame.txt"
OMP_LINE="- -"
if [ -x "$SHARED/tools/omp-reference.sh" ] && OMP_REF_DIR=$OMP_DIR "$SHARED/tools/omp-reference.sh" >/dev/null 2>&1 && [ -x "$OMP_DIR/node_modules/.bin/omp" ]; then
	log "first frame: omp ($OMP_RUNS runs)"
	if (cd "$WORK/project" && env -i PATH="$OMP_DIR/node_modules/.bin:$PATH" HOME="$WORK/omp-home" PI_CODING_AGENT_DIR="$WORK/omp-home/.omp/agent" MOCK_KEY=x TERM=xterm-256color LANG=C.UTF-8 \
		"$WORK/firstframe" -n "$OMP_RUNS" -warmup 1 -marker mock-model -quit '"\x03\x03"' -- "$OMP_DIR/node_modules/.bin/omp" --model mock/mock-model) >"$WORK/omp-frame.txt"; then
		OMP_LINE=$(awk '/^summary/ {print $4, $6}' "$WORK/omp-frame.txt")
	else
		log "omp failed"
	fi
fi
read -r G_BEST G_MED <<<"$(awk '/^summary/ {print $4, $6}' "$WORK/gopi-frame.txt")"
awk '/^run / {print $4}' "$WORK/gopi-frame.txt" | bench_record_samples tui "first frame" gopi wall ms
[ "$OMP_LINE" != "- -" ] && awk '/^run / {print $4}' "$WORK/omp-frame.txt" | bench_record_samples tui "first frame" omp wall ms

# stream NAME ARGS...: STREAM_RUNS runs of tui_stream.py, the median run's
# "cpu wall chunks" on stdout.
stream() {
	local name=$1 i
	shift
	for i in $(seq "$STREAM_RUNS"); do
		rm -rf "$WORK/stream-home-$name" && mkdir -p "$WORK/stream-home-$name"
		python3 bench/tui_stream.py --gopi "$WORK/gopi" --home "$WORK/stream-home-$name" --cwd "$WORK/project" "$@" || return 1
	done | tee "$WORK/stream-$name.runs" | sort -g | awk '{r[NR] = $0} END {print r[int((NR + 1) / 2)]}'
}
log "streaming cost: gopi ($STREAM_RUNS runs)"
read -r GS_CPU GS_WALL GS_CHUNKS <<<"$(stream gopi --env PI_NO_TITLE=1 -- "$WORK/gopi" --no-title --model mock/mock-model || echo "- - -")"
OS_CPU=- OS_WALL=-
if [ "$OMP_LINE" != "- -" ]; then
	log "streaming cost: omp ($STREAM_RUNS runs)"
	read -r OS_CPU OS_WALL _ <<<"$(stream omp --ready "⬢ Mock" --env "PI_CODING_AGENT_DIR=$WORK/stream-home-omp/.omp/agent" --env "PATH=$OMP_DIR/node_modules/.bin:$PATH" -- "$OMP_DIR/node_modules/.bin/omp" --no-title --model mock/mock-model || echo "- - -")"
fi
read -r O_BEST O_MED <<<"$OMP_LINE"
# record_stream NAME TOOL: every streaming run's CPU and wall seconds.
record_stream() {
	[ -s "$WORK/stream-$1.runs" ] || return 0
	awk '{print $1}' "$WORK/stream-$1.runs" | bench_record_samples tui "streaming a long answer" "$2" cpu s
	awk '{print $2}' "$WORK/stream-$1.runs" | bench_record_samples tui "streaming a long answer" "$2" wall s
}
[ "$GS_CPU" != - ] && record_stream gopi gopi
[ "$OS_CPU" != - ] && record_stream omp omp

log "keystroke and stream-delta benchmarks ($GO_RUNS samples)"
BENCH=$(go test ./core/modes/tui -run '^$' -bench 'Keystroke|StreamDelta' -benchtime 2000x -count "$GO_RUNS" | grep '^Benchmark')
bench_record_gobench tui - <<<"$BENCH"
. bench/lib/bestmed.sh
bestmed() { gobench_bestmed "^$1-" 1e6 3; } # bestmed NAME → "best median" in ms
read -r K_BEST K_MED <<<"$(bestmed BenchmarkKeystroke)"
read -r S1_BEST S1_MED <<<"$(bestmed BenchmarkStreamDelta/one-paragraph/at-1KB)"
read -r S24_BEST S24_MED <<<"$(bestmed BenchmarkStreamDelta/one-paragraph/at-24KB)"
read -r S100_BEST S100_MED <<<"$(bestmed BenchmarkStreamDelta/one-paragraph/at-100KB)"
ratio() { if [ "$1" = - ] || [ "$2" = - ]; then echo -; else awk -v p="$1" -v g="$2" 'BEGIN {printf "%.0f×\n", p / g}'; fi; }
met() { awk -v v="$1" -v t="$2" 'BEGIN {print (v != "-" && v <= t) ? "met" : "missed"}'; }

{
	echo "# tui: the interactive mode"
	echo
	echo "| target | case | gopi best | gopi median | omp best | omp median | omp ÷ gopi | target |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
	echo "| first frame ≤ 60 ms | exec to the editor on a 120×40 pty | $G_BEST ms | $G_MED ms | $O_BEST ms | $O_MED ms | $(ratio "$O_BEST" "$G_BEST") | $(met "$G_BEST" 60) |"
	echo "| keystroke ≤ 16 ms | 5,000 messages loaded, Update + View | $K_BEST ms | $K_MED ms | | | | $(met "$K_BEST" 16) |"
	echo "| delta cost flat | 8 characters into a 1 KB paragraph, Update + View | $S1_BEST ms | $S1_MED ms | | | | |"
	echo "| | 8 characters into a 24 KB paragraph | $S24_BEST ms | $S24_MED ms | | | | $(awk -v a="$S1_MED" -v b="$S24_MED" 'BEGIN {print (b <= 1.5 * a && b < 16.7) ? "met" : "missed"}') |"
	echo "| | 8 characters into a 100 KB paragraph | $S100_BEST ms | $S100_MED ms | | | | $(awk -v a="$S1_MED" -v b="$S100_MED" 'BEGIN {print (b <= 1.5 * a && b < 16.7) ? "met" : "missed"}') |"
	echo "| streaming CPU ≤ 0.10× omp | 24 KB answer, 8-rune chunks every 5 ms, 120×40 tmux (CPU s, median of $STREAM_RUNS) | $GS_CPU s | $GS_CPU s | $OS_CPU s | $OS_CPU s | $(ratio "$OS_CPU" "$GS_CPU") | $(awk -v g="$GS_CPU" -v o="$OS_CPU" 'BEGIN {print (g != "-" && o != "-" && g <= 0.10 * o) ? "met" : "missed"}') |"
	echo "| streaming ≤ 5 % of a core | the same stream: CPU ÷ wall time ($GS_CHUNKS chunks in $GS_WALL s; omp $OS_WALL s) | $(awk -v c="$GS_CPU" -v w="$GS_WALL" 'BEGIN {if (c == "-") print "-"; else printf "%.1f %%", 100 * c / w}') | | | | | $(awk -v c="$GS_CPU" -v w="$GS_WALL" 'BEGIN {print (c != "-" && c / w <= 0.05) ? "met" : "missed"}') |"
	echo
	echo "The conversation is printed into the terminal's scrollback and never redrawn, so neither a"
	echo "keystroke nor a delta depends on its length; a streamed answer is committed paragraph by"
	echo "paragraph (each rendered once), and only its unfinished paragraph is drawn live. The machine is"
	echo "shared: load average when measured was $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "- Command: \`bench/tui.sh\` (BENCH_RUNS=$RUNS, BENCH_OMP_RUNS=$OMP_RUNS, BENCH_GO_RUNS=$GO_RUNS)"
	echo "- First frame: \`firstframe -n $RUNS -- gopi --no-title --model mock/mock-model\`; omp: \`firstframe -marker mock-model -quit '\"\\x03\\x03\"' -- omp --model mock/mock-model\`"
	echo "- In process: \`go test ./core/modes/tui -run '^\$' -bench 'Keystroke|StreamDelta' -benchtime 2000x -count $GO_RUNS\`"
	echo "- Streaming: \`bench/tui_stream.py --gopi gopi --home DIR --cwd DIR -- gopi --no-title --model mock/mock-model\`; omp: the same with \`--ready '⬢ Mock' -- omp --no-title --model mock/mock-model\`"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
} >bench/results/tui.md
log "wrote bench/results/tui.md"
bench_records_check tui
