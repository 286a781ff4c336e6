#!/usr/bin/env bash
# bench/tokens.sh — the tokens area of `make bench`: token counting
# throughput of gopi's tokens package against github.com/pkoukk/tiktoken-go
# (the Go library gopi's design first named) and, when it installs, the
# reference agent's native counter (@oh-my-pi/pi-natives countTokens under
# Bun), all on the same input in one run; writes bench/results/tokens.md.
#
# Input: about 10 MB of Go source, every k-th .go file of
# $(go env GOROOT)/src in sorted path order (k = total size / 10 MiB, rounded), written
# once to bench/_work/tokens/input.txt (bench/lib/tokens_input.sh) and handed to every side.
# The command's own throughput (start-up included, all cores): bench/tokens-cli.sh.
#
# gopi: `go test ./tokens -bench` with TOKENS_BENCH_FILE set: Count and Encode
# for o200k_base and cl100k_base, BENCH_RUNS samples each, best and median;
# besides wall-clock MB/s it reports cpu-MB/s (bytes over the benchmark
# thread's CPU time), which a busy shared machine disturbs much less. Load
# time is building an encoding from the embedded vocabulary.
# tiktoken-go: the same benchmark harness, one pass per encoding (it runs
# at 1–2 MB/s), and its load time as the first GetEncoding of a fresh
# process.
# pi-natives: Bun runs countTokens(text, encoding) BENCH_RUNS times after a
# warm-up call (whose time, including loading the vocabulary, is reported as
# its load time); its cpu-MB/s divides by the whole process's CPU time
# (process.cpuUsage), all threads included.
#
# Ratios compare cpu-MB/s (best), the figure a busy machine disturbs least.
#
# Targets: ≥ 100 MB/s o200k_base counting on one core; ≤ 50 ms to load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/tokens
RUNS=${BENCH_RUNS:-6}
PI_NATIVES_VERSION=18.2.3 # the newest release whose linux-x64 binary package is published
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

INPUT=$WORK/input.txt
. bench/lib/tokens_input.sh
log "input: $INPUT (written once)"
tokens_input "$WORK"
BYTES=$(wc -c <"$INPUT")
MB=$(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }')

# bestmed FIELD: best (max) and median of a benchmark's FIELD column
# (MB/s or cpu-MB/s) over the lines on stdin, as "best median".
bestmed() {
	awk -v f="$1" '{for (i = 2; i <= NF; i++) if ($i == f) print $(i-1)}' |
		sort -g | awk '{v[NR] = $1} END {if (NR == 0) {print "- -"; exit} printf "%.1f %.1f", v[NR], v[int((NR + 1) / 2)]}'
}
# nsms: best (min) ns/op on stdin as ms.
nsms() {
	awk '{for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) / 1e6}' | sort -g | head -1 | awk '{printf "%.1f", $1}'
}

log "timing gopi ($RUNS runs of each benchmark)"
GO_OUT=$(TOKENS_BENCH_FILE=$INPUT go test ./tokens -run '^$' -bench '^Benchmark(Count|Encode|Load)$' -benchtime 3x -count "$RUNS")
log "timing tiktoken-go (one pass per encoding, fresh process for the load)"
REF_OUT=$(TOKENS_BENCH_FILE=$INPUT go test ./tokens -run '^$' -bench '^BenchmarkReferenceCount$' -benchtime 1x -count 1)
REFLOAD_OUT=$(go test ./tokens -run '^$' -bench '^BenchmarkReferenceLoad$' -benchtime 1x -count 1)
. bench/lib/record.sh
bench_records_reset tokens
grep '^Benchmark' <<<"$GO_OUT" | bench_record_gobench tokens -
printf '%s\n%s\n' "$REF_OUT" "$REFLOAD_OUT" | grep '^Benchmark' | BENCH_TOOL=tiktoken-go BENCH_TRIM=Reference bench_record_gobench tokens -

row() { # row BENCH ENCODING OUTPUT → "wall_best wall_med cpu_best cpu_med"
	local lines
	lines=$(grep "^$1/$2-" <<<"$3" || true)
	printf '%s %s\n' "$(bestmed MB/s <<<"$lines")" "$(bestmed cpu-MB/s <<<"$lines")"
}

log "installing Bun and @oh-my-pi/pi-natives@$PI_NATIVES_VERSION from npm into $WORK/peer (once)"
PEER_OK=1
if [ ! -d "$WORK/peer/node_modules/@oh-my-pi/pi-natives-linux-x64" ] || [ ! -x "$WORK/peer/node_modules/.bin/bun" ]; then
	mkdir -p "$WORK/peer"
	(cd "$WORK/peer" && npm install --no-audit --no-fund --silent bun@1 "@oh-my-pi/pi-natives@$PI_NATIVES_VERSION" >/dev/null 2>&1) || PEER_OK=0
fi
BUN=$WORK/peer/node_modules/.bin/bun
cat >"$WORK/peer/count.js" <<'JS'
// Counts the input with pi-natives' countTokens; prints, per encoding, the
// first call's time in ms (includes loading the vocabulary) and the best and
// median MB/s of RUNS further calls.
import { countTokens, Encoding } from "@oh-my-pi/pi-natives";
const [path, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const text = await Bun.file(path).text();
const bytes = Buffer.byteLength(text);
for (const [name, enc] of [["o200k_base", Encoding.O200kBase], ["cl100k_base", Encoding.Cl100kBase]]) {
  let t0 = Bun.nanoseconds();
  const n = countTokens("warm up " + name, enc);
  const first = (Bun.nanoseconds() - t0) / 1e6;
  const rates = [], cpuRates = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    t0 = Bun.nanoseconds();
    count = countTokens(text, enc);
    rates.push(bytes / ((Bun.nanoseconds() - t0) / 1e9) / 1e6);
    const c = process.cpuUsage(c0);
    cpuRates.push(bytes / ((c.user + c.system) / 1e6) / 1e6);
  }
  console.error(["samples", name, rates.map((r) => r.toFixed(2)).join(","), cpuRates.map((r) => r.toFixed(2)).join(","), first.toFixed(2)].join(" "));
  const best = a => a.slice().sort((x, y) => y - x)[0].toFixed(1);
  const median = a => a.slice().sort((x, y) => y - x)[Math.floor((a.length - 1) / 2)].toFixed(1);
  console.log(name, first.toFixed(1), best(rates), median(rates), count, best(cpuRates), median(cpuRates), n > 0 ? "" : "!");
}
JS
PEER_OUT=""
if [ "$PEER_OK" = 1 ]; then
	log "timing pi-natives countTokens under Bun $("$BUN" --version) ($RUNS runs)"
	PEER_OUT=$("$BUN" "$WORK/peer/count.js" "$INPUT" "$RUNS" 2>"$WORK/peer/samples.txt") || PEER_OUT=""
	# Each encoding's MB/s and cpu-MB/s per run, and its first call (the load).
	while read -r _ enc rates cpus first; do
		[ -n "$PEER_OUT" ] || break
		BENCH_HIGHER=1 bench_record_samples tokens "Count/$enc" pi-natives MB/s MB/s ${rates//,/ }
		BENCH_HIGHER=1 bench_record_samples tokens "Count/$enc" pi-natives cpu-MB/s cpu-MB/s ${cpus//,/ }
		bench_record_samples tokens "Load/$enc" pi-natives "first call (load included)" ms "$first"
	done < <(grep '^samples ' "$WORK/peer/samples.txt" 2>/dev/null || true)
fi

# Counts, to show every side counted the same text to the same total.
COUNTS=$(go run ./cmd/gopi tokens --json "$INPUT" | sed -E 's/.*"tokens":([0-9]+)}$/\1/')
COUNTS_CL=$(go run ./cmd/gopi tokens --json -e cl100k_base "$INPUT" | sed -E 's/.*"tokens":([0-9]+)}$/\1/')

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
{
	echo "# tokens: counting tokens"
	echo
	echo "Counting ${MB} MB of Go source (${COUNTS} o200k_base tokens, ${COUNTS_CL} cl100k_base tokens), one core."
	echo "MB/s is wall-clock; cpu-MB/s divides by CPU time instead (the benchmark thread's for Go, the"
	echo "process's for Bun), which a busy shared machine disturbs much less. Ratios use cpu-MB/s (best)."
	echo "Best and median of ${RUNS} runs (tiktoken-go: one run)."
	echo
	echo "| encoding | implementation | MB/s best | MB/s median | cpu-MB/s best | cpu-MB/s median | vs tiktoken-go | vs pi-natives |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	for enc in o200k_base cl100k_base; do
		read -r rw _ rc _ < <(row BenchmarkReferenceCount "$enc" "$REF_OUT")
		pb=- pm=- pcb=- pcm=-
		if [ -n "$PEER_OUT" ]; then
			read -r _ _ pb pm _ pcb pcm _ < <(grep "^$enc " <<<"$PEER_OUT")
		fi
		ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a + 0 > 0) printf "%.2g×", a / b; else print "-" }'; }
		for impl in Count Encode; do
			read -r wb wm cb cm < <(row "Benchmark$impl" "$enc" "$GO_OUT")
			echo "| $enc | gopi tokens $impl | $wb | $wm | $cb | $cm | $(ratio "$cb" "$rc") | $(ratio "$cb" "$pcb") |"
		done
		echo "| $enc | tiktoken-go v0.1.8 EncodeOrdinary | $rw | - | $rc | - | 1× | $(ratio "$rc" "$pcb") |"
		if [ -n "$PEER_OUT" ]; then
			echo "| $enc | pi-natives $PI_NATIVES_VERSION countTokens (Bun) | $pb | $pm | $pcb | $pcm | $(ratio "$pcb" "$rc") | 1× |"
		fi
	done
	echo
	echo "| encoding | gopi load (best) | tiktoken-go load (fresh process) | pi-natives first call |"
	echo "| --- | ---: | ---: | ---: |"
	for enc in o200k_base cl100k_base; do
		gl=$(grep "^BenchmarkLoad/$enc-" <<<"$GO_OUT" | nsms)
		rl=$(grep "^BenchmarkReferenceLoad/$enc-" <<<"$REFLOAD_OUT" | nsms)
		pf=-
		if [ -n "$PEER_OUT" ]; then pf="$(grep "^$enc " <<<"$PEER_OUT" | cut -d' ' -f2) ms"; fi
		echo "| $enc | $gl ms | $rl ms | $pf |"
	done
	if [ -n "$PEER_OUT" ]; then
		echo
		echo "pi-natives' own totals on this input: $(awk '{printf "%s %s; ", $1, $5}' <<<"$PEER_OUT")"
	else
		echo
		echo "pi-natives: not measured (npm install or Bun failed)."
	fi
	read -r ob _ oc _ < <(row BenchmarkCount o200k_base "$GO_OUT")
	ol=$(grep "^BenchmarkLoad/o200k_base-" <<<"$GO_OUT" | nsms)
	echo
	echo "Targets: ≥ 100 MB/s o200k_base counting on one core: **$(awk -v w="$ob" -v c="$oc" 'BEGIN { print (w >= 100 ? "met" : (c >= 100 ? "met in CPU time (" c " cpu-MB/s), not in wall time (" w " MB/s) on this busy machine" : "NOT met")) }')**;" \
		"≤ 50 ms to load: **$(awk -v l="$ol" 'BEGIN { print (l <= 50 ? "met" : "NOT met") }')** (${ol} ms)."
	echo
	echo "The machine is shared: load average when measured was ${LOAD}."
	echo
	echo "- Command: \`bench/tokens.sh\` (BENCH_RUNS=${RUNS})"
	echo "- gopi: \`TOKENS_BENCH_FILE=bench/_work/tokens/input.txt go test ./tokens -run '^\$' -bench '^Benchmark(Count|Encode|Load)\$' -benchtime 3x -count ${RUNS}\`"
	echo "- tiktoken-go: \`... -bench '^BenchmarkReferenceCount\$' -benchtime 1x\`, load: \`go test ./tokens -run '^\$' -bench '^BenchmarkReferenceLoad\$' -benchtime 1x\`"
	echo "- pi-natives: \`bun bench/_work/tokens/peer/count.js bench/_work/tokens/input.txt ${RUNS}\`"
	echo "- Date: $(date -u)"
	echo "- Machine: $(nproc) CPUs, ${CPU}, $(uname -sr)"
} >bench/results/tokens.md
log "wrote bench/results/tokens.md"
cat bench/results/tokens.md
bench_records_check tokens
