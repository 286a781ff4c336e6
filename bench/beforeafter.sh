#!/usr/bin/env bash
# bench/beforeafter.sh — gopi at an older revision against the current tree,
# alternated on one machine in one sitting, written to
# bench/results/beforeafter.md (then RESULTS.md is reassembled).
#
#   BENCH_BEFORE=REV [BENCH_BEFORE_NATIVE_LIB=LIB] [BENCH_BA_NAME=NAME] bench/beforeafter.sh
#
# Opt-in: without BENCH_BEFORE it prints this usage and exits 2, and
# bench/run.sh leaves it out of its default list of areas (`make bench`
# does not run it; `BENCH_AREAS=beforeafter bench/run.sh` does).
#
# "before" is REV's source (git archive) linked against LIB, the native
# library built from REV's native/ (needed when native/ changed since REV;
# see bench/before_build.bash); "after" is this working tree with its
# native/_lib. Both are built the same way (go build, the library's hash
# stamped in as the Makefile does) into bench/_work/beforeafter.
#
# BENCH_BA_NAME=NAME (default "beforeafter") names the record: the result
# goes to bench/results/NAME.md (its own section of RESULTS.md, headed
# "before/after (NAME)") and the builds and raw data to bench/_work/NAME,
# so a comparison kept for an issue (e.g. BENCH_BA_NAME=providers-startup)
# does not overwrite bench/results/beforeafter.md. NAME is letters, digits,
# '.', '_' and '-', and not the name of another area (bench/NAME.sh).
#
# Areas (BENCH_BA_AREAS, default "search ast agent rpc"):
#   search  `gopi grep -c P GOROOT/src` and `gopi grep P GOROOT/src` for the
#           patterns of bench/patterns.tsv named in BENCH_PATTERNS, and
#           `gopi find '*.go' GOROOT/src`, timed by hyperfine; then the
#           in-process engine benchmarks of ./bench on GOROOT/src
#           (BenchmarkGrepWarm, BenchmarkGrepWarmContent, BenchmarkGlobWarm,
#           BenchmarkFuzzyWarm), each revision's test binary run in its own
#           tree, compared with benchstat.
#   ast     `gopi ast grep --json --no-hidden -l go -p P .` in GOROOT/src for
#           three of bench/ast.sh's Go patterns, timed by hyperfine.
#   agent   `gopi --version` outside any repository, timed by hyperfine;
#           process start to the first byte of the first model request
#           (bench/cmd/firstbyte of this tree serving the mock LLM, for both
#           binaries) of `gopi -p --no-title hi`, outside any repository and
#           in an empty one, and with the model named (`--model
#           mock/mock-model`: no search for the first model with
#           credentials) outside any repository; and the peak RSS (GNU
#           time -v) of that turn.
#   rpc     BenchmarkRPC, found in each tree wherever it lives (cmd/gopi at
#           53d26d7, core/modes/rpc later), compared with benchstat.
# Each process command's output is also compared between the revisions once
# (sorted lines and exit status): the "same output" column.
#
# Alternation: BENCH_ROUNDS rounds; in each, every case of every area is
# measured at both revisions back to back, before first in odd rounds and
# after first in even ones (ABBA), so a drift in the machine's load or a
# warm-up advantage of the second run falls on both sides alike. Each
# measurement is its own hyperfine (firstbyte, test binary) call.
#
# Knobs (defaults take about 20-30 minutes on a quiet 2-core machine):
#   BENCH_ROUNDS     rounds (default 6; benchstat wants 6 samples or more
#                    for a confidence interval: BENCH_ROUNDS × BENCH_GO_COUNT)
#   BENCH_RUNS       hyperfine runs per search command per round (default 10)
#   BENCH_WARMUP     hyperfine warm-up runs per call (default 2)
#   BENCH_AST_RUNS   hyperfine runs per ast command per round (default 3)
#   BENCH_AST_WARMUP hyperfine warm-up runs per ast call (default 1)
#   BENCH_AGENT_RUNS firstbyte (and `--version` hyperfine) runs per agent
#                    case per round (default 20)
#   BENCH_RSS_RUNS   peak-RSS runs per round (default 5)
#   BENCH_GO_COUNT   -test.count of the Go benchmarks per round (default 1)
#   BENCH_BENCHTIME  -test.benchtime of ./bench's benchmarks (default 20x)
#   BENCH_RPC_BENCHTIME  -test.benchtime of BenchmarkRPC (default 2000x)
#   BENCH_PATTERNS   names from bench/patterns.tsv (default "literal
#                    ignorecase alternation class unicode": common literal,
#                    case-insensitive, alternation, class regex, rare)
#   BENCH_BA_AREAS   areas to run (default "search ast agent rpc")
#   BENCH_NO_ASSEMBLE=1  do not rebuild bench/RESULTS.md
# A smoke run: BENCH_ROUNDS=1 BENCH_RUNS=1 BENCH_WARMUP=0 BENCH_AST_RUNS=1 BENCH_AST_WARMUP=0
# BENCH_AGENT_RUNS=2 BENCH_RSS_RUNS=1 BENCH_GO_COUNT=1 BENCH_BENCHTIME=1x
# BENCH_RPC_BENCHTIME=10x.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

if [ -z "${BENCH_BEFORE:-}" ]; then
	sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
	exit 2
fi

ROUNDS=${BENCH_ROUNDS:-6}
RUNS=${BENCH_RUNS:-10}
WARMUP=${BENCH_WARMUP:-2}
AST_RUNS=${BENCH_AST_RUNS:-3}
AST_WARMUP=${BENCH_AST_WARMUP:-1}
AGENT_RUNS=${BENCH_AGENT_RUNS:-20}
RSS_RUNS=${BENCH_RSS_RUNS:-5}
GO_COUNT=${BENCH_GO_COUNT:-1}
BENCHTIME=${BENCH_BENCHTIME:-20x}
RPC_BENCHTIME=${BENCH_RPC_BENCHTIME:-2000x}
PATTERNS=${BENCH_PATTERNS:-literal ignorecase alternation class unicode}
AREAS=" ${BENCH_BA_AREAS:-search ast agent rpc} "
AREA_LIST=$(xargs <<<"$AREAS")
NAME=${BENCH_BA_NAME:-beforeafter}
[[ $NAME =~ ^[A-Za-z0-9._-]+$ ]] || { echo "bench: BENCH_BA_NAME=$NAME: only letters, digits, '.', '_' and '-'" >&2; exit 2; }
if [ "$NAME" != beforeafter ] && [ -e "bench/$NAME.sh" ]; then
	echo "bench: BENCH_BA_NAME=$NAME would overwrite the result of the area bench/$NAME.sh" >&2
	exit 2
fi
WORK=$ROOT/bench/_work/$NAME
OUT=$WORK/out
GOROOT_SRC=$(go env GOROOT)/src
START=$SECONDS

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf '\033[1;31m!!! %s\033[0m\n' "$*" >&2; }
die() {
	warn "$*"
	exit 1
}
has_area() { [[ $AREAS == *" $1 "* ]]; }

# ---- tools --------------------------------------------------------------------

command -v hyperfine >/dev/null || { apt-get install -y -qq hyperfine >/dev/null 2>&1 || true; }
command -v hyperfine >/dev/null || die "hyperfine is needed (apt-get install hyperfine)"
if [ ! -x /usr/bin/time ]; then
	apt-get install -y -qq time >/dev/null 2>&1 || true
fi
[ -x /usr/bin/time ] || die "GNU time is needed (apt-get install time)"
# benchstat at the version bench/lib/record.sh pins, in bench/_work/bin.
. bench/lib/record.sh
bench_benchstat -h >/dev/null 2>&1 || true
BENCHSTAT=$PWD/bench/_work/bin/benchstat
[ -x "$BENCHSTAT" ] || die "benchstat is missing at $BENCHSTAT"

# ---- builds -------------------------------------------------------------------

. "$ROOT/bench/before_build.bash"
BEFORE_REV=$(git rev-parse --short "$BENCH_BEFORE") || die "BENCH_BEFORE=$BENCH_BEFORE is not a revision"
AFTER_REV=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!bench/results' ':!bench/RESULTS.md' || AFTER_REV="$AFTER_REV+changes"
rm -rf "$WORK/src-before" "$WORK/before" "$WORK/after" "$WORK/home-before" "$WORK/home-after" "$OUT"
mkdir -p "$WORK/src-before" "$WORK/before" "$WORK/after" "$OUT/data" bench/results
log "extracting $BEFORE_REV into $WORK/src-before"
before_tree "$BEFORE_REV" "$WORK/src-before" || die "cannot prepare $BEFORE_REV"
declare -A TREE=([before]=$WORK/src-before [after]=$ROOT)
declare -A RPC_PKG=()

# rpc_package TREE: the package directory (relative) of BenchmarkRPC.
rpc_package() {
	local f
	f=$(cd "$1" && grep -rl --include='*_test.go' '^func BenchmarkRPC(' cmd core 2>/dev/null | head -n1)
	[ -n "$f" ] && dirname "$f"
}

for rev in before after; do
	tree=${TREE[$rev]}
	ld=$(native_ldflags "$tree/native/_lib/libgopi_native.a")
	log "building gopi ($rev) into $WORK/$rev"
	(cd "$tree" && go build -ldflags "$ld" -o "$WORK/$rev/gopi" ./cmd/gopi)
	if has_area search; then
		(cd "$tree" && go test -c -ldflags "$ld" -o "$WORK/$rev/bench.test" ./bench)
	fi
	if has_area rpc; then
		RPC_PKG[$rev]=$(rpc_package "$tree") || die "no BenchmarkRPC in the $rev tree"
		(cd "$tree" && go test -c -ldflags "$ld" -o "$WORK/$rev/rpc.test" "./${RPC_PKG[$rev]}")
	fi
done
if has_area agent; then
	go build -o "$WORK/firstbyte" ./bench/cmd/firstbyte
fi

# ---- cases --------------------------------------------------------------------

# q ARGS... — one command line for hyperfine -N (POSIX single quoting).
q() {
	local out="" s
	for s in "$@"; do
		out+=" '${s//\'/\'\\\'\'}'"
	done
	printf '%s' "${out# }"
}

# Each case: id, kind, description; CMD_<n> holds its argument list with
# the binary as @GOPI@ and DIR_<n> its working directory.
CASES=()
add_case() { # add_case AREA ID KIND DESC DIR ARGS...
	local n=${#CASES[@]}
	CASES+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4")
	declare -g "DIR_$n=$5"
	shift 5
	declare -ga "CMD_$n=(\"\$@\")"
}

if has_area search; then
	for name in $PATTERNS; do
		line=$(awk -F'\t' -v n="$name" '$1 == n' bench/patterns.tsv)
		[ -n "$line" ] || die "no pattern named $name in bench/patterns.tsv"
		IFS=$'\t' read -r _ flag pat <<<"$line"
		flags=()
		[ "$flag" != - ] && read -r -a flags <<<"$flag"
		add_case search "search/grep-c/$name" hyperfine "\`gopi grep -c\` $name \`${flags[*]:+${flags[*]} }$pat\`" "$ROOT" @GOPI@ grep "${flags[@]}" -c -- "$pat" "$GOROOT_SRC"
		add_case search "search/grep/$name" hyperfine "\`gopi grep\` $name \`${flags[*]:+${flags[*]} }$pat\`" "$ROOT" @GOPI@ grep "${flags[@]}" -- "$pat" "$GOROOT_SRC"
	done
	add_case search "search/find/star-go" hyperfine "\`gopi find '*.go'\`" "$ROOT" @GOPI@ find '*.go' "$GOROOT_SRC"
fi
if has_area ast; then
	i=0
	for pat in '$A.Lock()' 'errors.Is($ERR, $TARGET)' 'if err != nil { return $$$ }'; do
		i=$((i + 1))
		add_case ast "ast/go-$i" hyperfine "\`gopi ast grep\` \`$pat\`" "$GOROOT_SRC" @GOPI@ ast grep --json --no-hidden -l go -p "$pat" .
	done
fi
NOREPO=${TMPDIR:-/tmp}/gopi-bench-beforeafter-norepo # outside every repository
if has_area agent; then
	mkdir -p "$NOREPO" "$WORK/repo-empty"
	[ -d "$WORK/repo-empty/.git" ] || git -C "$WORK/repo-empty" init -q
	cat >"$WORK/models.tmpl" <<'EOF'
providers:
  mock:
    baseUrl: {{URL}}
    api: anthropic-messages
    apiKey: MOCK_KEY
    models:
      - id: mock-model
EOF
	add_case agent "agent/version" hyperfine "\`gopi --version\`, no repository" "$NOREPO" @GOPI@ --version
	add_case agent "agent/start-norepo" firstbyte "start-up to first request byte, no repository" "$NOREPO" @GOPI@ -p --no-title hi
	add_case agent "agent/start-empty" firstbyte "start-up to first request byte, empty repository" "$WORK/repo-empty" @GOPI@ -p --no-title hi
	add_case agent "agent/start-model" firstbyte "start-up to first request byte, \`--model mock/mock-model\`, no repository" "$NOREPO" @GOPI@ -p --no-title --model mock/mock-model hi
	add_case agent "agent/rss-empty" rss "peak RSS of one \`gopi -p\` turn, empty repository" "$WORK/repo-empty" @GOPI@ -p --no-title hi
fi
printf '%s\n' "${CASES[@]}" >"$OUT/cases.tsv"

# cmd_of N REV — case N's argument list for REV, in the array CMD.
cmd_of() {
	local -n src="CMD_$1"
	CMD=("${src[@]/#@GOPI@/$WORK/$2/gopi}")
}

# agent_env REV — the environment of an agent run: cleared, an isolated
# HOME per revision with a models.yml naming only the mock.
agent_env() {
	local home=$WORK/home-$1
	mkdir -p "$home/.gopi/agent"
	AGENV=(env -i PATH="$PATH" HOME="$home" PI_CODING_AGENT_DIR="$home/.gopi/agent" MOCK_KEY=x TERM=dumb LANG=C.UTF-8)
	FBCONF=(-config "$home/.gopi/agent/models.yml=$WORK/models.tmpl")
}

# measure N REV ROUND — one measurement of case N.
measure() {
	local n=$1 rev=$2 round=$3 id kind dir d
	IFS=$'\t' read -r _ id kind _ <<<"${CASES[$n]}"
	local -n wd="DIR_$n"
	dir=$wd
	d=$OUT/data/$id
	mkdir -p "$d"
	cmd_of "$n" "$rev"
	case $kind in
	hyperfine)
		(cd "$dir" && hyperfine -N --warmup "$WARMUP_OF" --runs "$RUNS_OF" --output=pipe --style none --ignore-failure \
			--export-json "$d/$rev.$round.json" -n "$rev" "$(q "${CMD[@]}")" >/dev/null) ||
			warn "hyperfine failed: $id ($rev, round $round)"
		;;
	firstbyte)
		agent_env "$rev"
		(cd "$dir" && "${AGENV[@]}" "$WORK/firstbyte" -n "$AGENT_RUNS" -warmup 2 "${FBCONF[@]}" -- "${CMD[@]}") \
			>"$d/$rev.$round.txt" || warn "firstbyte failed: $id ($rev, round $round)"
		;;
	rss)
		agent_env "$rev"
		(cd "$dir" && "${AGENV[@]}" "$WORK/firstbyte" -n "$RSS_RUNS" -warmup 1 "${FBCONF[@]}" -- \
			/usr/bin/time -v -o "$d/$rev.$round.rss.{{RUN}}" "${CMD[@]}") >/dev/null ||
			warn "firstbyte failed: $id ($rev, round $round)"
		;;
	esac
}

# check_output N REV — a digest of case N's output (sorted lines, exit status).
check_output() {
	local n=$1 rev=$2 id kind st=0
	IFS=$'\t' read -r _ id kind _ <<<"${CASES[$n]}"
	[ "$kind" = hyperfine ] || return 0
	local -n wd="DIR_$n"
	cmd_of "$n" "$rev"
	mkdir -p "$OUT/data/$id"
	(cd "$wd" && "${CMD[@]}" >"$OUT/data/$id/$rev.stdout" 2>/dev/null) || st=$?
	echo "$(LC_ALL=C sort "$OUT/data/$id/$rev.stdout" | sha256sum | cut -c1-16) exit $st" >"$OUT/data/$id/$rev.out"
	rm -f "$OUT/data/$id/$rev.stdout"
	[ "$st" -le 1 ] || warn "$id ($rev) exited $st"
}

# go_bench REV ROUND NAME BINARY PKGDIR ARGS... — one run of a test binary
# in its package directory, appended to $OUT/go/NAME-REV.txt (the pkg line
# dropped, since the package moved between revisions).
go_bench() {
	local rev=$1 round=$2 name=$3 bin=$4 pkg=$5
	shift 5
	mkdir -p "$OUT/go"
	(cd "${TREE[$rev]}/$pkg" && "$bin" -test.run '^$' "$@") 2>&1 | grep -v '^pkg:' |
		grep -E '^(Benchmark|goos:|goarch:|cpu:)' >>"$OUT/go/$name-$rev.txt" ||
		warn "go benchmark $name ($rev, round $round) failed"
}

SEARCH_BENCH='^(BenchmarkGrepWarm|BenchmarkGrepWarmContent|BenchmarkGlobWarm|BenchmarkFuzzyWarm)$/^goroot$'
if has_area search; then
	for rev in before after; do
		have=$(cd "${TREE[$rev]}/bench" && "$WORK/$rev/bench.test" -test.list '^Benchmark' | tr '\n' ' ')
		for b in BenchmarkGrepWarm BenchmarkGrepWarmContent BenchmarkGlobWarm BenchmarkFuzzyWarm; do
			[[ " $have" == *" $b "* ]] || warn "$b is missing at $rev; its rows stay empty"
		done
	done
	cmp -s bench/patterns.tsv "$WORK/src-before/bench/patterns.tsv" ||
		warn "bench/patterns.tsv differs at $BEFORE_REV: the in-process benchmarks measure different patterns"
fi

# ---- measurement ------------------------------------------------------------

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
DATE=$(date -u)
log "checking that both revisions give the same output"
for n in "${!CASES[@]}"; do
	check_output "$n" before
	check_output "$n" after
done

for round in $(seq "$ROUNDS"); do
	order="before after"
	((round % 2)) || order="after before"
	log "round $round/$ROUNDS ($order)"
	for n in "${!CASES[@]}"; do
		RUNS_OF=$RUNS WARMUP_OF=$WARMUP
		[[ ${CASES[$n]} == ast$'\t'* ]] && RUNS_OF=$AST_RUNS WARMUP_OF=$AST_WARMUP
		[[ ${CASES[$n]} == agent$'\t'* ]] && RUNS_OF=$AGENT_RUNS
		for rev in $order; do
			measure "$n" "$rev" "$round"
		done
	done
	for rev in $order; do
		if has_area search; then
			go_bench "$rev" "$round" search "$WORK/$rev/bench.test" bench \
				-test.bench "$SEARCH_BENCH" -test.benchtime "$BENCHTIME" -test.count "$GO_COUNT"
		fi
		if has_area rpc; then
			go_bench "$rev" "$round" rpc "$WORK/$rev/rpc.test" "${RPC_PKG[$rev]}" \
				-test.bench '^BenchmarkRPC$' -test.benchtime "$RPC_BENCHTIME" -test.count "$GO_COUNT"
		fi
	done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- report -----------------------------------------------------------------

TABLES=$(python3 bench/beforeafter_report.py "$OUT")
stat_block() { # stat_block NAME UNITS — benchstat of $OUT/go/NAME-{before,after}.txt, times only
	if [ -s "$OUT/go/$1-before.txt" ] && [ -s "$OUT/go/$1-after.txt" ]; then
		"$BENCHSTAT" -filter ".unit:($2)" before="$OUT/go/$1-before.txt" after="$OUT/go/$1-after.txt" 2>&1
	else
		echo "(no samples: see the script's log)"
	fi
}
# subject REV — REV's date and the start of its subject line.
subject() { git log -1 --format='%ad %s' --date=short "$1" | awk '{ print (length($0) > 90 ? substr($0, 1, 89) "…" : $0) }'; }
read -r HIGHER MEASURED <"$OUT/summary.txt"
CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
knobs="BENCH_ROUNDS=$ROUNDS BENCH_RUNS=$RUNS BENCH_WARMUP=$WARMUP BENCH_AST_RUNS=$AST_RUNS BENCH_AST_WARMUP=$AST_WARMUP BENCH_AGENT_RUNS=$AGENT_RUNS BENCH_RSS_RUNS=$RSS_RUNS BENCH_GO_COUNT=$GO_COUNT BENCH_BENCHTIME=$BENCHTIME BENCH_RPC_BENCHTIME=$RPC_BENCHTIME"
{
	if [ "$NAME" = beforeafter ]; then
		echo "# before/after: gopi at $BEFORE_REV against $AFTER_REV"
	else
		echo "# before/after ($NAME): gopi at $BEFORE_REV against $AFTER_REV"
	fi
	echo
	echo "Written by \`bench/beforeafter.sh\` on $DATE: both revisions measured on one machine in one sitting,"
	echo "alternated round by round."
	echo
	echo "**Process cases where after was higher than before in every round: $HIGHER of $MEASURED** (see each table's verdict;"
	echo "the Go benchmarks' verdicts are benchstat's)."
	echo
	echo "- Command: \`BENCH_BEFORE=$BENCH_BEFORE${BENCH_BEFORE_NATIVE_LIB:+ BENCH_BEFORE_NATIVE_LIB=$BENCH_BEFORE_NATIVE_LIB}${BENCH_BA_NAME:+ BENCH_BA_NAME=$BENCH_BA_NAME} bench/beforeafter.sh\` ($knobs; areas: $AREA_LIST)"
	echo "- before: $BEFORE_REV ($(subject "$BEFORE_REV")), native library $(sha256sum "$WORK/src-before/native/_lib/libgopi_native.a" | cut -c1-16)"
	echo "- after: $AFTER_REV ($(subject HEAD)), native library $(sha256sum native/_lib/libgopi_native.a | cut -c1-16)"
	echo "- Machine: $(nproc) CPUs, $CPU, $(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr); $(go version | cut -d' ' -f3); $(hyperfine --version)"
	echo "- Load average at start / end: $load_start / $load_end"
	echo "- Corpus: \`$GOROOT_SRC\`"
	echo
	echo "## Method"
	echo
	echo "Each round measures every case at both revisions back to back: before first in odd rounds, after"
	echo "first in even ones (ABBA), so a drift of the machine's load between rounds and any advantage of"
	echo "running second (warmer caches) fall on both sides alike. Every measurement is its own hyperfine call"
	echo "(\`-N --output=pipe\`, warm-up runs first) rather than one hyperfine call naming both commands,"
	echo "which would run all of one command's runs before the other's and so pair them less closely;"
	echo "start-up and RSS use bench/cmd/firstbyte (this tree's, serving the mock LLM to both binaries),"
	echo "the Go benchmarks each revision's own test binary run in its own tree."
	echo
	echo "Medians and min..max are over every sample of every round. \"round ratios\" are the after ÷ before"
	echo "ratios of each round's medians: when they straddle 1.000 the difference is within the noise of this"
	echo "sitting; \"higher in every round\" marks a case where after was slower (or larger) each time, and"
	echo "then the ratio says by how much. The benchstat blocks give a 95 % confidence interval and a"
	echo "Mann-Whitney p-value (\"~\": no significant difference). \"same output\": the command's output"
	echo "(lines sorted) and exit status agree between the revisions."
	echo
	for area in search ast agent; do
		has_area "$area" || continue
		echo "## $area"
		echo
		awk -v a="$area" 'BEGIN { RS = ""; ORS = "\n\n" } index($0, "| " a " |") == 1' <<<"$TABLES"
		if [ "$area" = search ]; then
			echo "In-process engine benchmarks on GOROOT/src (warm scan and content caches),"
			echo "\`bench.test -test.bench '$SEARCH_BENCH' -test.benchtime $BENCHTIME -test.count $GO_COUNT\` per revision per round:"
			echo
			echo '```'
			stat_block search ns/op
			echo '```'
			echo
		fi
	done
	if has_area rpc; then
		echo "## rpc"
		echo
		echo "BenchmarkRPC (before: ./${RPC_PKG[before]}, after: ./${RPC_PKG[after]}),"
		echo "\`-test.benchtime $RPC_BENCHTIME -test.count $GO_COUNT\` per revision per round:"
		echo
		echo '```'
		stat_block rpc 'ns/op OR ns-ack-to-start'
		echo '```'
		echo
	fi
	echo "## All process timings through benchstat"
	echo
	echo '```'
	if [ -s "$OUT/bench-before.txt" ] && [ -s "$OUT/bench-after.txt" ]; then
		"$BENCHSTAT" before="$OUT/bench-before.txt" after="$OUT/bench-after.txt" 2>&1
	else
		echo "(no samples)"
	fi
	echo '```'
} >"bench/results/$NAME.md"
log "wrote bench/results/$NAME.md in $((SECONDS - START))s; raw data in ${OUT#"$ROOT"/}"
if [ "${BENCH_NO_ASSEMBLE:-0}" != 1 ]; then
	bench/run.sh --assemble
fi
