#!/usr/bin/env bash
# bench/agent.sh — the agent area of `make bench`: what `gopi -p` costs as
# an agent, against omp 14.9.9 where it does the same thing, written to
# bench/results/agent.md.
#
#  1. Start-up: process start to the first byte of the first model request,
#     timed by bench/cmd/firstbyte, which serves gopi's scripted mock LLM
#     (internal/mockllm, Anthropic Messages API) on a loopback port, starts
#     the agent again and again, and stamps the request's first byte on the
#     socket. `gopi -p --no-title hi` and `omp -p --no-title hi` in three
#     working directories: none of git's (no repository), an empty
#     repository, and a snapshot of this repository at HEAD (a few thousand
#     paths: gopi's system prompt runs a bounded `git status` there). Target
#     ≤ 15 ms for gopi.
#  2. Peak RSS of the same one-text-turn run: `/usr/bin/time -v` (GNU time,
#     installed with apt when missing) around the agent, in the empty
#     repository. Target ≤ 40 MB.
#  3. Loop overhead per tool call: `go test ./core/agent -bench
#     BenchmarkToolCallOverhead` — a scripted stream (no HTTP) calling a
#     no-op tool, without a session store and with a core/session store
#     fsyncing once per turn (the default) or after every append. Target
#     ≤ 1 ms beside the tool's own time. No peer (omp's loop cannot run
#     without its whole application).
#  4. A 50 MB session: `go test ./core/session -bench BenchmarkOpen50MB`
#     (load the file and build the context; target ≤ 300 ms), then
#     end to end `gopi -p --continue` on that session (written by
#     core/session's TestWriteBenchSession) to the first request byte and
#     its peak RSS, with omp --continue on a copy of the same file.
#  5. The fixed request part (≤ 10,000 o200k tokens) is the prompt area
#     (bench/prompt.sh); the summary table points at it.
#
# Every agent runs with a cleared environment (PATH, HOME, its agent
# directory, MOCK_KEY, TERM=dumb), an isolated HOME under bench/_work/agent
# and a models.yml naming only provider "mock" (omp's with `auth: apiKey`,
# which keeps its Anthropic tool names). omp is installed by
# ../shared/tools/omp-reference.sh; without it the peer columns show "-".
#
# Environment knobs:
#   BENCH_RUNS          gopi start-up and RSS runs per case (default 30)
#   BENCH_OMP_RUNS      omp start-up and RSS runs per case (default 8)
#   BENCH_GO_RUNS       samples of each Go benchmark (default 5)
#   BENCH_CONTINUE_RUNS --continue runs per agent on the 50 MB session (default 3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/agent
RUNS=${BENCH_RUNS:-30}
OMP_RUNS=${BENCH_OMP_RUNS:-8}
GO_RUNS=${BENCH_GO_RUNS:-6}
CONT_RUNS=${BENCH_CONTINUE_RUNS:-3}
SHARED=${GOPI_SHARED:-$ROOT/../shared}
OMP_DIR=${OMP_REF_DIR:-$HOME/.cache/omp-reference}
NOREPO=${TMPDIR:-/tmp}/gopi-bench-agent-norepo # outside every repository
OUT=$WORK/out
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

rm -rf "$OUT" "$WORK/gopi-home" "$WORK/omp-home" "$WORK/sessions-gopi" "$WORK/sessions-omp"
mkdir -p "$OUT" "$WORK/gopi-home/.gopi/agent" "$WORK/omp-home/.omp/agent" "$NOREPO" bench/results
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

log "building gopi and bench/cmd/firstbyte"
go build -o "$WORK/gopi" ./cmd/gopi
go build -o "$WORK/firstbyte" ./bench/cmd/firstbyte
GOPI=$WORK/gopi
FB=$WORK/firstbyte
if [ ! -x /usr/bin/time ]; then
	log "installing GNU time with apt"
	apt-get install -y -qq time >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq time >/dev/null 2>&1; } || true
fi
[ -x /usr/bin/time ] || { echo "bench/agent.sh needs GNU time (apt-get install time)" >&2; exit 1; }

# Working directories: an empty repository, and this repository's HEAD as
# a fresh, clean repository (re-made when HEAD moves).
if [ ! -d "$WORK/repo-empty/.git" ]; then
	mkdir -p "$WORK/repo-empty" && git -C "$WORK/repo-empty" init -q
fi
HEAD=$(git rev-parse HEAD)
if [ "$(cat "$WORK/repo-gopi.stamp" 2>/dev/null)" != "$HEAD" ]; then
	log "snapshotting this repository at $HEAD into $WORK/repo-gopi"
	rm -rf "$WORK/repo-gopi" "$WORK/repo-gopi.stamp"
	mkdir -p "$WORK/repo-gopi"
	git archive HEAD | tar -x -C "$WORK/repo-gopi"
	git -C "$WORK/repo-gopi" init -q
	git -C "$WORK/repo-gopi" add -A
	git -C "$WORK/repo-gopi" -c user.name=bench -c user.email=bench@localhost commit -q -m snapshot
	echo "$HEAD" >"$WORK/repo-gopi.stamp"
fi
REPO_PATHS=$(git -C "$WORK/repo-gopi" ls-files | wc -l)

cat >"$WORK/gopi-models.tmpl" <<'EOF'
providers:
  mock:
    baseUrl: {{URL}}
    api: anthropic-messages
    apiKey: MOCK_KEY
    models:
      - id: mock-model
EOF
cat >"$WORK/omp-models.tmpl" <<'EOF'
providers:
  mock:
    baseUrl: {{URL}}
    apiKey: MOCK_KEY
    api: anthropic-messages
    auth: apiKey
    models:
      - id: mock-model
EOF

OMP_OK=0
OMP_BIN=$OMP_DIR/node_modules/.bin/omp
if [ -x "$SHARED/tools/omp-reference.sh" ] && OMP_REF_DIR=$OMP_DIR "$SHARED/tools/omp-reference.sh" >/dev/null 2>&1 && [ -x "$OMP_BIN" ]; then
	case $(env PATH="$OMP_DIR/node_modules/.bin:$PATH" "$OMP_BIN" --version 2>/dev/null | head -1) in
	*14.9.9*) OMP_OK=1 ;;
	esac
fi
[ "$OMP_OK" = 1 ] || log "omp 14.9.9 is not available: peer columns stay empty"

# gopi_fb NAME DIR N WARMUP ARGS...: firstbyte on gopi in DIR; output in $OUT/NAME.txt.
gopi_fb() {
	local name=$1 dir=$2 n=$3 warm=$4
	shift 4
	(cd "$dir" && env -i PATH="$PATH" HOME="$WORK/gopi-home" PI_CODING_AGENT_DIR="$WORK/gopi-home/.gopi/agent" \
		MOCK_KEY=x TERM=dumb LANG=C.UTF-8 \
		"$FB" -n "$n" -warmup "$warm" -config "$WORK/gopi-home/.gopi/agent/models.yml=$WORK/gopi-models.tmpl" -- "$@") >"$OUT/$name.txt"
}
# omp_fb NAME DIR N WARMUP ARGS...: the same for omp.
omp_fb() {
	local name=$1 dir=$2 n=$3 warm=$4
	shift 4
	(cd "$dir" && env -i PATH="$OMP_DIR/node_modules/.bin:$PATH" HOME="$WORK/omp-home" PI_CODING_AGENT_DIR="$WORK/omp-home/.omp/agent" \
		MOCK_KEY=x TERM=dumb LANG=C.UTF-8 \
		"$FB" -n "$n" -warmup "$warm" -config "$WORK/omp-home/.omp/agent/models.yml=$WORK/omp-models.tmpl" -- "$@") >"$OUT/$name.txt"
}

# 1. Start-up.
GOPI_ARGS=(-p --no-title hi)
OMP_ARGS=(-p --no-title --model mock/mock-model hi)
for c in norepo:$NOREPO empty:$WORK/repo-empty gopi:$WORK/repo-gopi; do
	name=${c%%:*} dir=${c#*:}
	log "start-up in $name: gopi ($RUNS runs)"
	gopi_fb "start-gopi-$name" "$dir" "$RUNS" 3 "$GOPI" "${GOPI_ARGS[@]}"
	if [ "$OMP_OK" = 1 ]; then
		log "start-up in $name: omp ($OMP_RUNS runs)"
		omp_fb "start-omp-$name" "$dir" "$OMP_RUNS" 1 "$OMP_BIN" "${OMP_ARGS[@]}" || { log "omp failed (see above)"; OMP_OK=0; }
	fi
done

# 2. Peak RSS.
log "peak RSS: gopi ($RUNS runs)"
gopi_fb rss-gopi "$WORK/repo-empty" "$RUNS" 1 /usr/bin/time -v -o "$OUT/rss-gopi.{{RUN}}" "$GOPI" "${GOPI_ARGS[@]}"
if [ "$OMP_OK" = 1 ]; then
	log "peak RSS: omp ($OMP_RUNS runs)"
	omp_fb rss-omp "$WORK/repo-empty" "$OMP_RUNS" 1 /usr/bin/time -v -o "$OUT/rss-omp.{{RUN}}" "$OMP_BIN" "${OMP_ARGS[@]}"
fi

# The process floor: exec, dynamic linking, runtime and package initialization.
log "gopi --version ($RUNS runs)"
for _ in $(seq "$RUNS"); do
	s=$EPOCHREALTIME
	"$GOPI" --version >/dev/null
	echo "$s $EPOCHREALTIME"
done >"$OUT/version.times"
version_floor() { awk '{printf "%.3f\n", ($2 - $1) * 1000}' "$OUT/version.times" | stats %.1f | awk '{print "best " $1 " ms, median " $2 " ms (timed by the shell, fork and exec included)"}'; }

# 3. Loop overhead per tool call.
log "BenchmarkToolCallOverhead ($GO_RUNS samples)"
go test ./core/agent -run '^$' -bench '^BenchmarkToolCallOverhead$' -benchtime 20x -count "$GO_RUNS" | grep '^Benchmark' >"$OUT/loop.txt"

# 4. The 50 MB session.
log "BenchmarkOpen50MB ($GO_RUNS samples)"
go test ./core/session -run '^$' -bench '^BenchmarkOpen50MB$' -benchtime 3x -count "$GO_RUNS" | grep '^Benchmark' >"$OUT/open.txt"
SESSION=$WORK/session-50mb.jsonl
SESSION_NAME=2026-02-16T10-20-30-000Z_019c65f7-45b1-791b-aeb8-8b73a48ed247.jsonl
log "writing the 50 MB session for --continue"
SESSION_BENCH_FILE=$SESSION SESSION_BENCH_CWD=$WORK/repo-empty go test ./core/session -run '^TestWriteBenchSession$' -count 1 >/dev/null
SESSION_BYTES=$(wc -c <"$SESSION")
mkdir -p "$WORK/sessions-gopi" "$WORK/sessions-omp"
cp "$SESSION" "$WORK/sessions-gopi/$SESSION_NAME"
cp "$SESSION" "$WORK/sessions-omp/$SESSION_NAME"
log "gopi -p --continue on the 50 MB session ($CONT_RUNS runs)"
gopi_fb cont-gopi "$WORK/repo-empty" "$CONT_RUNS" 1 /usr/bin/time -v -o "$OUT/cont-gopi.{{RUN}}" \
	"$GOPI" -p --no-title --continue --session-dir "$WORK/sessions-gopi" --model mock/mock-model hi
if [ "$OMP_OK" = 1 ]; then
	log "omp -p --continue on the 50 MB session ($CONT_RUNS runs)"
	omp_fb cont-omp "$WORK/repo-empty" "$CONT_RUNS" 1 /usr/bin/time -v -o "$OUT/cont-omp.{{RUN}}" \
		"$OMP_BIN" -p --no-title --continue --session-dir "$WORK/sessions-omp" --model mock/mock-model hi || true
fi

# ---- report ----
# stats: numbers on stdin → "best median" (lowest, lower middle); "- -" when none.
stats() { sort -g | awk -v f="${1:-%.2f}" '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf f " " f "\n", v[1], v[int((NR + 1) / 2)]}'; }
fbstats() { [ -s "$OUT/$1.txt" ] && awk '$1 == "run" {print $4}' "$OUT/$1.txt" | stats %.1f || echo "- -"; }
rss() { cat "$OUT/$1".[0-9]* 2>/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p' | awk '{print $1 / 1024}' | stats %.1f; }
benchcol() { grep "^$2-" "$OUT/$1.txt" | awk -v u="$3" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else if (a / b < 10) printf "%.1f×\n", a / b; else printf "%.0f×\n", a / b }'; }
met() { awk -v v="$1" -v t="$2" 'BEGIN { if (v == "-") print "-"; else print (v <= t ? "met" : "**not met**") }'; }

read -r sg_n_b sg_n_m < <(fbstats start-gopi-norepo)
read -r sg_e_b sg_e_m < <(fbstats start-gopi-empty)
read -r sg_g_b sg_g_m < <(fbstats start-gopi-gopi)
read -r so_n_b so_n_m < <(fbstats start-omp-norepo)
read -r so_e_b so_e_m < <(fbstats start-omp-empty)
read -r so_g_b so_g_m < <(fbstats start-omp-gopi)
read -r rg_b rg_m < <(rss rss-gopi)
read -r ro_b ro_m < <(rss rss-omp)
read -r op_b op_m < <(benchcol open BenchmarkOpen50MB ns/op | awk '{print $1 / 1e6}' | stats %.0f)
read -r cg_b cg_m < <(fbstats cont-gopi)
read -r co_b co_m < <(fbstats cont-omp)
read -r cgr_b cgr_m < <(rss cont-gopi)
read -r cor_b cor_m < <(rss cont-omp)
loop() { benchcol loop "BenchmarkToolCallOverhead/$1" ns/call | awk '{print $1 / 1000}' | stats %.0f; }
read -r l_ns_t_b l_ns_t_m < <(loop no-store/turn-per-call)
read -r l_ns_b_b l_ns_b_m < <(loop no-store/batch)
read -r l_fl_t_b l_fl_t_m < <(loop sync-per-turn/turn-per-call)
read -r l_fl_b_b l_fl_b_m < <(loop sync-per-turn/batch)
read -r l_al_t_b l_al_t_m < <(loop sync-always/turn-per-call)
read -r l_al_b_b l_al_b_m < <(loop sync-always/batch)
ms() { awk -v v="$1" 'BEGIN { print (v == "-" ? "-" : v / 1000) }'; } # µs → ms
# looprow CASE BEST MEDIAN (µs)
looprow() { echo "| | $1 | $2 µs | $3 µs | | | | $(met "$(ms "$3")" 1) |"; }
# The records: every run of every case, as measured.
. bench/lib/record.sh
bench_records_reset agent
# fbrecord FILE CASE TOOL: firstbyte's per-run times (ms to the first byte).
fbrecord() { [ -s "$OUT/$1.txt" ] && awk '$1 == "run" {print $4}' "$OUT/$1.txt" | bench_record_samples agent "$2" "$3" wall ms || true; }
# rssrecord PREFIX CASE TOOL: GNU time's peak RSS of every run (files
# PREFIX.0, PREFIX.1, …; .-1 is the warm-up), in MiB, in run order.
rssrecord() {
	local runs
	runs=$(printf '%s\n' "$OUT/$1".[0-9]* | sort -V | xargs cat 2>/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p' | awk '{printf "%.1f\n", $1 / 1024}')
	[ -z "$runs" ] || bench_record_samples agent "$2" "$3" "peak RSS" MiB <<<"$runs"
}
for name in norepo empty gopi; do
	fbrecord "start-gopi-$name" "start-up in $name (-p hi, first byte)" gopi
	fbrecord "start-omp-$name" "start-up in $name (-p hi, first byte)" omp
done
rssrecord rss-gopi "-p hi in an empty repository" gopi
rssrecord rss-omp "-p hi in an empty repository" omp
awk '{printf "%.3f\n", ($2 - $1) * 1000}' "$OUT/version.times" | bench_record_samples agent "gopi --version (the process floor)" gopi wall ms
bench_record_gobench agent "$OUT/loop.txt"
bench_record_gobench agent "$OUT/open.txt"
fbrecord cont-gopi "-p --continue on the 50 MB session (first byte)" gopi
fbrecord cont-omp "-p --continue on the 50 MB session (first byte)" omp
rssrecord cont-gopi "-p --continue on the 50 MB session" gopi
rssrecord cont-omp "-p --continue on the 50 MB session" omp
PROMPT_TOTAL=$(sed -n 's/^| hashline | .* | \*\*\([0-9]*\)\*\* | .*/\1/p' bench/results/prompt.md 2>/dev/null | head -1)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
{
	echo "# agent: start-up, memory, loop overhead, a 50 MB session"
	echo
	echo "\`gopi -p\` as an agent against omp 14.9.9 doing the same, both talking to gopi's scripted mock LLM"
	echo "(Anthropic Messages API, one short text reply) on a loopback port. Best and median of each case;"
	echo "omp ÷ gopi compares the best figures."
	echo
	echo "| target | case | gopi best | gopi median | omp best | omp median | omp ÷ gopi | target |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
	echo "| start-up ≤ 15 ms | empty repository | $sg_e_b ms | $sg_e_m ms | $so_e_b ms | $so_e_m ms | $(ratio "$so_e_b" "$sg_e_b") | $(met "$sg_e_m" 15) |"
	echo "| | no repository | $sg_n_b ms | $sg_n_m ms | $so_n_b ms | $so_n_m ms | $(ratio "$so_n_b" "$sg_n_b") | $(met "$sg_n_m" 15) |"
	echo "| | this repository ($REPO_PATHS paths) | $sg_g_b ms | $sg_g_m ms | $so_g_b ms | $so_g_m ms | $(ratio "$so_g_b" "$sg_g_b") | $(met "$sg_g_m" 15) |"
	echo "| peak RSS ≤ 40 MB | one text turn | $rg_b MB | $rg_m MB | $ro_b MB | $ro_m MB | $(ratio "$ro_b" "$rg_b") | $(met "$rg_m" 40) |"
	echo "| loop overhead ≤ 1 ms per tool call | no store, a turn per call | $l_ns_t_b µs | $l_ns_t_m µs | | | | $(met "$(ms "$l_ns_t_m")" 1) |"
	looprow "no store, one turn of 64 calls" "$l_ns_b_b" "$l_ns_b_m"
	looprow "session, fsync per turn (the default), a turn per call" "$l_fl_t_b" "$l_fl_t_m"
	looprow "session, fsync per turn (the default), one turn of 64 calls" "$l_fl_b_b" "$l_fl_b_m"
	looprow "session, fsync every append, a turn per call" "$l_al_t_b" "$l_al_t_m"
	looprow "session, fsync every append, one turn of 64 calls" "$l_al_b_b" "$l_al_b_m"
	echo "| 50 MB session ≤ 300 ms | load + build context (BenchmarkOpen50MB) | $op_b ms | $op_m ms | | | | $(met "$op_m" 300) |"
	echo "| | \`-p --continue\` to the first request byte | $cg_b ms | $cg_m ms | $co_b ms | $co_m ms | $(ratio "$co_b" "$cg_b") | no target (end to end) |"
	echo "| | \`-p --continue\` peak RSS | $cgr_b MB | $cgr_m MB | $cor_b MB | $cor_m MB | $(ratio "$cor_b" "$cgr_b") | |"
	echo "| fixed request part ≤ 10,000 o200k tokens | system prompt + tools, hashline mode | ${PROMPT_TOTAL:--} | | | | | see the prompt section |"
	echo
	git_ms=$(awk -v a="$sg_g_m" -v b="$sg_n_m" 'BEGIN { print (a == "-" || b == "-") ? "-" : sprintf("%.1f", a - b) }')
	git_e_ms=$(awk -v a="$sg_e_m" -v b="$sg_n_m" 'BEGIN { print (a == "-" || b == "-") ? "-" : sprintf("%.1f", a - b) }')
	echo "Most of gopi's start-up inside a repository is the system prompt's \`git status\` (started as soon as"
	echo "the prompts are read, bounded at 300 ms): medians ${git_e_ms} ms (empty repository) and ${git_ms} ms"
	echo "(this repository) above the run outside any repository. \`gopi --version\` alone, the process"
	echo "floor: $(version_floor)."
	echo
	fsync_us=$(awk -v a="$l_al_b_m" -v b="$l_fl_b_m" 'BEGIN { print (a == "-" || b == "-") ? "-" : sprintf("%.0f", a - b) }')
	share=$(awk -v a="$l_al_b_m" -v b="$l_fl_b_m" 'BEGIN { print (a == "-" || b == "-" || a == 0) ? "-" : sprintf("%.0f", 100 * (a - b) / a) }')
	echo "With a store that fsyncs every append, the fsync is most of the per-call cost: about"
	echo "${fsync_us} µs per append (median, sync-always minus sync-per-turn in one turn of 64 calls, one append"
	echo "per call), ${share}% of that case. It depends on the disk and on what else writes to it."
	echo
	echo "## How each figure is measured"
	echo
	echo "- **Start-up**: bench/cmd/firstbyte serves internal/mockllm and times each run from just before the"
	echo "  process is started (fork and exec included) to the first byte of the first model request on the"
	echo "  socket; ${RUNS} gopi runs and ${OMP_RUNS} omp runs per case after warm-up. gopi's system prompt runs a"
	echo "  bounded \`git status\` inside a repository (\"this repository\" is a clean snapshot of HEAD);"
	echo "  omp starts no git process. omp also probes local model servers (ollama, llama.cpp, LM Studio ports) at"
	echo "  start, as it does by default."
	echo "- **Peak RSS**: \`/usr/bin/time -v\` around the agent (maximum resident set size), same run as start-up"
	echo "  in the empty repository."
	echo "- **Loop overhead**: \`BenchmarkToolCallOverhead\` runs 64 calls of a no-op tool (schema-validated"
	echo "  arguments) per operation through core/agent with a scripted stream (no HTTP), and reports time per"
	echo "  call: scheduling, validation, events, the result message and, with a store, core/session's encoding"
	echo "  and append of every message as core/agentsession does it. \"A turn per call\" also carries one model"
	echo "  turn (two appended messages) per call; \"one turn\" shares it among 64 calls (one append per call)."
	echo "  ${GO_RUNS} samples of 20 operations."
	echo "- **50 MB session**: \`BenchmarkOpen50MB\` opens a ${SESSION_BYTES}-byte linear session (prompts, tool"
	echo "  calls with thinking, tool results holding source code) and builds its context, ${GO_RUNS} samples of 3."
	echo "  End to end, both agents continue a copy of that file with \`--session-dir\` and send all of it"
	echo "  (about 52 MB of request body each, no compaction at that size), ${CONT_RUNS} runs each."
	echo
	echo "Raw figures:"
	echo
	echo '```'
	for f in "$OUT"/*.txt; do
		echo "== $(basename "$f" .txt)"
		grep -v '^run ' "$f" || true
	done
	echo '```'
	echo
	echo "The machine is shared: load average was ${load_start} at the start and ${load_end} at the end;"
	echo "best-of figures are the least disturbed."
	echo
	echo "- Command: \`bench/agent.sh\` (BENCH_RUNS=${RUNS} BENCH_OMP_RUNS=${OMP_RUNS} BENCH_GO_RUNS=${GO_RUNS} BENCH_CONTINUE_RUNS=${CONT_RUNS})"
	echo "- gopi: \`gopi -p --no-title hi\` (HEAD $(git rev-parse --short HEAD)); omp: \`omp -p --no-title --model mock/mock-model hi\`"
	echo "- Loop: \`go test ./core/agent -run '^\$' -bench '^BenchmarkToolCallOverhead\$' -benchtime 20x -count ${GO_RUNS}\`"
	echo "- Session: \`go test ./core/session -run '^\$' -bench '^BenchmarkOpen50MB\$' -benchtime 3x -count ${GO_RUNS}\`;"
	echo "  \`gopi -p --no-title --continue --session-dir DIR --model mock/mock-model hi\` and the same for omp"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, ${CPU}, $(uname -sr), session files on $(df -T "$WORK" | awk 'NR == 2 {print $2}')"
} >bench/results/agent.md
log "wrote bench/results/agent.md"
cat bench/results/agent.md
bench_records_check agent
