#!/usr/bin/env bash
# bench/search.sh — the search area of `make bench`: gopi's search engines against
# ripgrep, fd and GNU find, with the results written to bench/results/search.md.
#
# Run it from anywhere (it changes to the repository root); `make bench`
# builds bin/gopi first. In order, it:
#   1. installs ripgrep, fd-find and hyperfine with apt when one is missing
#      (nothing is installed when all three are present);
#   2. prepares the corpora: $(go env GOROOT)/src, and the deterministic tree
#      bench/_work/gen written by bench/cmd/gentree (regenerated only when it
#      is missing or its version stamp changed);
#   3. grep, for each pattern of bench/patterns.tsv on each corpus:
#      correctness first — `gopi grep -c` and `rg -c` with the same flags
#      (both skip hidden files and honour ignore files by default) must give
#      identical per-file counts; differences are printed, never hidden —
#      then hyperfine times the count form and the content form
#      (`gopi grep P DIR` vs `rg --no-heading -n P DIR`) in one run per form;
#   4. find: `gopi find GLOB DIR` vs `fdfind -g GLOB DIR` (and GNU find for
#      '*.go', '*.txt' on the tiny tree), path sets compared after normalising, then timed;
#   5. the in-process Go benchmarks (go test ./bench -bench . -benchtime 10x
#      -count BENCH_GO_COUNT), which time the engines with a warm scan cache
#      (6 samples of 10 searches: 3× the searches of the single 20x sample
#      this took before; 6 samples of 20 spent 770 s in the timed loops
#      alone at load 17);
#      the report shows each benchmark's median run, the records keep every
#      run, and benchstat summarises them (bench/results/search.benchstat.txt);
#   6. bench/cmd/benchreport turns the raw data (bench/_work/out/) into
#      bench/results/search.md, keeping the text between its notes markers, and
#      prints a summary with any count mismatch called out.
#
# Timings feed each command's output through a pipe (hyperfine
# --output=pipe) rather than /dev/null, because some tools take shortcuts
# when they detect /dev/null. The page cache is warm (hyperfine warm-up runs).
#
# Environment knobs:
#   GOPI            gopi binary (default bin/gopi; built with `make build` if missing)
#   BENCH_RUNS      hyperfine runs per command (default 10)
#   BENCH_WARMUP    hyperfine warm-up runs (default 2)
#   BENCH_CORPORA   which corpora, from "goroot gen tiny" (default all three;
#                   tiny is the 200,000-file tree of gentree -tiny)
#   BENCH_TINY_PATTERNS  pattern names measured on tiny (default "literal
#                   alternation": each run there takes seconds)
#   BENCH_NATIVES=0 skip pi-natives' in-process grep (npm package, run by Bun)
#   BENCH_GOTEST=0  skip the in-process Go benchmarks
#   BENCH_GO_COUNT  runs of each in-process benchmark (default 6: benchstat
#                   gives an interval from 6 runs on)
#   BENCH_STRICT=1  exit 1 when any count differs between gopi and its peer
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work
OUT=$WORK/out
GOPI=${GOPI:-$ROOT/bin/gopi}
RUNS=${BENCH_RUNS:-10}
WARMUP=${BENCH_WARMUP:-2}
CORPORA=${BENCH_CORPORA:-goroot gen tiny}
TINY_PATTERNS=" ${BENCH_TINY_PATTERNS:-literal alternation} "
START=$SECONDS

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf '\033[1;31m!!! %s\033[0m\n' "$*" >&2; }
die() {
	warn "$*"
	exit 1
}

# ---- 1. tools ---------------------------------------------------------------

install_tools() {
	local missing=()
	command -v rg >/dev/null || missing+=(ripgrep)
	command -v fdfind >/dev/null || command -v fd >/dev/null || missing+=(fd-find)
	command -v hyperfine >/dev/null || missing+=(hyperfine)
	((${#missing[@]} == 0)) && return 0
	log "installing with apt: ${missing[*]}"
	local sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	"${sudo[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}
install_tools
FD=fdfind
command -v fdfind >/dev/null || FD=fd
command -v go >/dev/null || die "go is not on PATH"

if [ ! -x "$GOPI" ]; then
	log "building bin/gopi"
	make -s build
fi
"$GOPI" version >/dev/null || die "$GOPI does not run"

# ---- helpers ------------------------------------------------------------------

# q ARGS... — one command line for hyperfine -N (POSIX single quoting).
q() {
	local out="" s
	for s in "$@"; do
		out+=" '${s//\'/\'\\\'\'}'"
	done
	printf '%s' "${out# }"
}

# capture OUT CMD... — run CMD with stdout in OUT and stderr in OUT.err;
# prints the exit status (never fails).
capture() {
	local out=$1 st=0
	shift
	"$@" >"$out" 2>"$out.err" || st=$?
	echo "$st"
}

# relpaths DIR — stdin's lines with a leading "DIR/" and a trailing "/"
# removed, sorted bytewise.
relpaths() {
	awk -v p="$1/" 'index($0, p) == 1 { $0 = substr($0, length(p) + 1) } { sub(/\/$/, ""); print }' | LC_ALL=C sort
}

# bench_json FILE IGNORE_FAILURE NAME CMD [NAME CMD...] — one hyperfine run.
bench_json() {
	local file=$1 ignore=$2
	shift 2
	local args=(-N --warmup "$WARMUP" --runs "$RUNS" --output=pipe --style none --export-json "$file")
	[ "$ignore" = 1 ] && args+=(--ignore-failure)
	while (($#)); do
		args+=(-n "$1" "$2")
		shift 2
	done
	hyperfine "${args[@]}" >/dev/null || warn "hyperfine failed for $file"
}

# sum_counts FILE — total of "path:count" lines.
sum_counts() { awk -F: '{ s += $NF } END { print s + 0 }' "$1" 2>/dev/null || echo '?'; }

# mean_ms FILE INDEX — a hyperfine export's mean in ms, for progress lines.
mean_ms() {
	awk -v want="$2" '/"mean":/ { gsub(/[^0-9.eE+-]/, "", $2); if (n++ == want) printf "%.1f", $2 * 1000 }' "$1" 2>/dev/null || true
}

# ---- 2. corpora ---------------------------------------------------------------

mkdir -p "$WORK/bin"
log "building bench helpers"
go build -o "$WORK/bin/gentree" ./bench/cmd/gentree
go build -o "$WORK/bin/benchreport" ./bench/cmd/benchreport

GEN=$WORK/gen
if [ "$(cat "$GEN.stamp" 2>/dev/null)" != "$("$WORK/bin/gentree" -version)" ] || [ ! -d "$GEN" ]; then
	log "generating $GEN"
	"$WORK/bin/gentree" -out "$GEN"
fi

TINY=$WORK/tiny
if [[ " $CORPORA " == *" tiny "* ]] && { [ "$(cat "$TINY.stamp" 2>/dev/null)" != "$("$WORK/bin/gentree" -tiny -version)" ] || [ ! -d "$TINY" ]; }; then
	log "generating $TINY"
	"$WORK/bin/gentree" -tiny -out "$TINY"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
MANIFEST=$OUT/manifest.tsv
: >"$MANIFEST"

declare -A DIRS=()
for c in $CORPORA; do
	case $c in
	goroot) DIRS[$c]=$(go env GOROOT)/src ;;
	gen) DIRS[$c]=$GEN ;;
	tiny) DIRS[$c]=$TINY ;;
	*) die "unknown corpus $c (BENCH_CORPORA takes goroot, gen and tiny)" ;;
	esac
	if [ ! -d "${DIRS[$c]}" ]; then
		warn "corpus $c: ${DIRS[$c]} is missing; skipped"
		unset "DIRS[$c]"
		continue
	fi
	printf 'corpus\t%s\t%s\n' "$c" "${DIRS[$c]}" >>"$MANIFEST"
done
ACTIVE=()
for c in $CORPORA; do
	[ -n "${DIRS[$c]:-}" ] && ACTIVE+=("$c")
done
((${#ACTIVE[@]})) || die "no corpus to search"

# ---- machine description --------------------------------------------------------

first_line() { "$@" 2>/dev/null | head -n1 || true; }
{
	printf 'date\t%s\n' "$(date -u)"
	printf 'command\t%s\n' "${BENCH_COMMAND:-make bench}"
	printf 'CPU\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)"
	printf 'cores\t%s\n' "$(nproc)"
	printf 'memory\t%s GiB\n' "$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)"
	printf 'OS\t%s\n' "$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null)"
	printf 'kernel\t%s\n' "$(uname -sr)"
	printf 'gopi\t%s\n' "$(first_line "$GOPI" version)"
	printf 'Go\t%s\n' "$(first_line go version)"
	printf 'rustc\t%s\n' "$(first_line rustc --version || echo 'not installed')"
	printf 'ripgrep\t%s\n' "$(first_line rg --version)"
	printf 'fd\t%s\n' "$(first_line "$FD" --version)"
	printf 'GNU find\t%s\n' "$(first_line find --version)"
	printf 'hyperfine\t%s\n' "$(first_line hyperfine --version)"
	printf 'hyperfine runs\t%s\n' "$RUNS"
	printf 'hyperfine warmup\t%s\n' "$WARMUP"
	printf 'load average at start\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/meta.tsv"

# ---- 3. grep ----------------------------------------------------------------------

MISMATCHES=0
for c in "${ACTIVE[@]}"; do
	dir=${DIRS[$c]}
	# The patterns come on fd 3 so that no benchmarked command can eat them.
	while IFS=$'\t' read -r -u 3 name flag pat; do
		[[ -z $name || $name == \#* ]] && continue
		[ "$c" = tiny ] && [[ $TINY_PATTERNS != *" $name "* ]] && continue
		flags=()
		[ "$flag" != - ] && read -r -a flags <<<"$flag"
		d=$OUT/grep/$c/$name
		mkdir -p "$d"
		printf 'grep\t%s\t%s\t%s\t%s\n' "$c" "$name" "$flag" "$pat" >>"$MANIFEST"

		# Correctness: per-file counts, normalised to relative paths.
		sg=$(capture "$d/gopi.raw" "$GOPI" grep "${flags[@]}" -c -- "$pat" "$dir")
		sr=$(capture "$d/rg.raw" rg "${flags[@]}" -c -- "$pat" "$dir")
		echo "$sg" >"$d/gopi.status"
		echo "$sr" >"$d/rg.status"
		for t in gopi rg; do
			st=$(cat "$d/$t.status")
			if [ "$st" -le 1 ]; then
				relpaths "$dir" <"$d/$t.raw" >"$d/$t.counts"
			else
				warn "grep $c/$name: $t exited $st: $(head -c 300 "$d/$t.raw.err")"
			fi
		done
		ng=$(sum_counts "$d/gopi.counts")
		nr=$(sum_counts "$d/rg.counts")
		verdict=equal
		if ! cmp -s "$d/gopi.counts" "$d/rg.counts"; then
			verdict=MISMATCH
			MISMATCHES=$((MISMATCHES + 1))
			warn "grep $c/$name ($pat): gopi $ng lines, rg $nr lines — per-file counts differ; first differences (< gopi, > rg):"
			diff "$d/gopi.counts" "$d/rg.counts" 2>&1 | grep '^[<>]' | head -n 10 >&2 || true
		fi

		# Speed: both forms, gopi first. Failures are tolerated only when a
		# tool legitimately found nothing (exit 1).
		ign=0
		if [ "$sg" = 1 ] || [ "$sr" = 1 ]; then ign=1; fi
		if [ "$sg" -le 1 ] && [ "$sr" -le 1 ]; then
			bench_json "$d/count.json" "$ign" \
				gopi "$(q "$GOPI" grep "${flags[@]}" -c -- "$pat" "$dir")" \
				rg "$(q rg "${flags[@]}" -c -- "$pat" "$dir")"
			bench_json "$d/content.json" "$ign" \
				gopi "$(q "$GOPI" grep "${flags[@]}" -- "$pat" "$dir")" \
				rg "$(q rg --no-heading -n "${flags[@]}" -- "$pat" "$dir")"
		fi
		printf '    grep %-7s %-12s lines gopi %-8s rg %-8s %-8s  -c %s/%s ms  content %s/%s ms\n' "$c" "$name" "$ng" "$nr" "$verdict" \
			"$(mean_ms "$d/count.json" 0)" "$(mean_ms "$d/count.json" 1)" "$(mean_ms "$d/content.json" 0)" "$(mean_ms "$d/content.json" 1)" >&2
	done 3<bench/patterns.tsv
done

# ---- 4. find ----------------------------------------------------------------------

for c in "${ACTIVE[@]}"; do
	dir=${DIRS[$c]}
	ext=go
	[ "$c" = tiny ] && ext=txt # the 200,000-file tree holds text files only
	for spec in "star:*.$ext" "globstar:**/*.$ext"; do
		name=${spec%%:*} glob=${spec#*:}
		d=$OUT/find/$c/$name
		mkdir -p "$d"
		printf 'find\t%s\t%s\t%s\n' "$c" "$name" "$glob" >>"$MANIFEST"
		sg=$(capture "$d/gopi.raw" "$GOPI" find "$glob" "$dir")
		sf=$(capture "$d/fd.raw" "$FD" -g "$glob" "$dir")
		if [ "$sg" -le 1 ]; then relpaths "$dir" <"$d/gopi.raw" >"$d/gopi.paths"; else warn "find $c $glob: gopi exited $sg"; fi
		if [ "$sf" -le 1 ]; then relpaths "$dir" <"$d/fd.raw" >"$d/fd.paths"; else warn "find $c $glob: fd exited $sf"; fi
		cmds=(gopi "$(q "$GOPI" find "$glob" "$dir")" fd "$(q "$FD" -g "$glob" "$dir")")
		if [ "$name" = star ]; then
			sx=$(capture "$d/find.raw" find "$dir" -name "$glob" -not -path '*/.*')
			if [ "$sx" = 0 ]; then relpaths "$dir" <"$d/find.raw" >"$d/find.paths"; fi
			cmds+=(find "$(q find "$dir" -name "$glob" -not -path '*/.*')")
		fi
		verdict=equal
		if ! cmp -s "$d/gopi.paths" "$d/fd.paths"; then
			verdict=MISMATCH
			MISMATCHES=$((MISMATCHES + 1))
			warn "find $c $glob: gopi $(wc -l <"$d/gopi.paths" 2>/dev/null) paths, fd $(wc -l <"$d/fd.paths" 2>/dev/null); first differences (< gopi, > fd):"
			diff "$d/gopi.paths" "$d/fd.paths" 2>&1 | grep '^[<>]' | head -n 10 >&2 || true
		fi
		bench_json "$d/time.json" 0 "${cmds[@]}"
		printf '    find %-7s %-10s gopi %s paths %s ms, fd %s paths %s ms %s\n' "$c" "$glob" \
			"$(wc -l <"$d/gopi.paths" 2>/dev/null)" "$(mean_ms "$d/time.json" 0)" \
			"$(wc -l <"$d/fd.paths" 2>/dev/null)" "$(mean_ms "$d/time.json" 1)" "$verdict" >&2
	done
done

# ---- 5. in-process ------------------------------------------------------------------

if [ "${BENCH_GOTEST:-1}" != 0 ]; then
	log "in-process benchmarks (go test ./bench -bench . -benchtime 10x -count ${BENCH_GO_COUNT:-6})"
	if ! go test ./bench -run '^$' -bench . -benchtime 10x -count "${BENCH_GO_COUNT:-6}" 2>&1 | tee "$OUT/gobench.txt" >&2; then
		warn "go test ./bench failed; the report will say so"
	fi
fi

# ---- 5b. pi-natives, in-process ----------------------------------------------------

# The reference agent's native grep (@oh-my-pi/pi-natives, run by Bun) over
# GOROOT/src, warm (its walker caches the scan), count mode, right after
# gopi's in-process benchmarks: name, best and median ms of BENCH_RUNS*2
# calls after 2 untimed ones, and its total.
PI_NATIVES_VERSION=18.2.3 # the newest release whose linux-x64 binary package is published
PEER=$WORK/tokens/peer # shared with bench/tokens.sh
if [ "${BENCH_NATIVES:-1}" != 0 ] && [ -n "${DIRS[goroot]:-}" ]; then
	if [ ! -d "$PEER/node_modules/@oh-my-pi/pi-natives-linux-x64" ] || [ ! -x "$PEER/node_modules/.bin/bun" ]; then
		log "installing Bun and @oh-my-pi/pi-natives@$PI_NATIVES_VERSION from npm into $PEER (once)"
		mkdir -p "$PEER"
		(cd "$PEER" && npm install --no-audit --no-fund --silent bun@1 "@oh-my-pi/pi-natives@$PI_NATIVES_VERSION" >/dev/null 2>&1) || warn "npm install of pi-natives failed"
	fi
	cat >"$PEER/grep.js" <<'JS'
// Times pi-natives' grep (count mode) per pattern; prints name, best ms,
// median ms, total matches.
import { grep } from "@oh-my-pi/pi-natives";
const [dir, runs, ...specs] = process.argv.slice(2);
for (const spec of specs) {
	const [name, flag, pattern] = spec.split("	");
	const opts = { pattern, path: dir, mode: "count", ignoreCase: flag === "-i", hidden: false, gitignore: true };
	for (let i = 0; i < 2; i++) await grep(opts);
	const times = [];
	let total = 0;
	for (let i = 0; i < Number(runs); i++) {
		const t = performance.now();
		const r = await grep(opts);
		times.push(performance.now() - t);
		total = r.totalMatches;
	}
	times.sort((a, b) => a - b);
	console.log([name, times[0].toFixed(1), times[times.length >> 1].toFixed(1), total].join("\t"));
}
JS
	specs=()
	while IFS=$'\t' read -r name flag pat; do
		[[ -z $name || $name == \#* ]] && continue
		specs+=("$name"$'\t'"$flag"$'\t'"$pat")
	done <bench/patterns.tsv
	log "pi-natives grep over ${DIRS[goroot]} (in-process, warm)"
	if ! (cd "$PEER" && ./node_modules/.bin/bun grep.js "${DIRS[goroot]}" $((RUNS * 2)) "${specs[@]}") >"$OUT/natives.tsv" 2>"$OUT/natives.err"; then
		warn "pi-natives grep failed: $(head -c 300 "$OUT/natives.err")"
		rm -f "$OUT/natives.tsv"
	fi
fi

# ---- 6. report ---------------------------------------------------------------------

# Other work on the machine skews every timing; the report shows the load.
printf 'load average at end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/meta.tsv"

"$WORK/bin/benchreport" -in "$OUT" -out bench/results/search.md
rm -f bench/results/search.benchstat.txt
if [ -s "$OUT/gobench.txt" ]; then
	. bench/lib/record.sh
	bench_benchstat "search=$OUT/gobench.txt" >bench/results/search.benchstat.txt || rm -f bench/results/search.benchstat.txt
fi
log "done in $((SECONDS - START))s; raw data in ${OUT#"$ROOT"/}"
if ((MISMATCHES > 0)); then
	warn "$MISMATCHES comparison(s) between gopi and its peer did not match (see above and bench/results/search.md)"
	[ "${BENCH_STRICT:-0}" = 1 ] && exit 1
fi
exit 0
