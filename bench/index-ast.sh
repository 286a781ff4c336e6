#!/usr/bin/env bash
# bench/index-ast.sh — the index area's AST and find rows (bench/index.sh
# runs it last; it also runs alone): on the kernel tree of bench/index.sh,
# `gopi ast grep` reading the tree's search index against the ast-grep CLI
# (scripts/astgrep-cli.sh) and against gopi walking (--no-index), and
# `gopi find -t f` from the index against fd and the walk. Written to
# bench/results/index-ast.md (and .jsonl).
#
# Correctness first, for every case: gopi's output with the index must be
# byte for byte its output without (--no-index); the AST matches must be
# ast-grep's (scripts/ast-compare.py, by file and byte range) and the file
# lists fd's (sorted: fd prints in no fixed order). Then hyperfine times
# the three commands in one run (warm page cache, output through a pipe).
#
# Environment knobs:
#   GOPI            gopi binary (default bin/gopi)
#   BENCH_CACHE     where bench/index.sh unpacked the kernel (default ~/.cache/gopi-bench)
#   GOPI_INDEX_DIR  where the index lives (default bench/_work/index/indexes, as bench/index.sh)
#   BENCH_RUNS      hyperfine runs per gopi or fd command (default 5; ast-grep runs once)
set -euo pipefail
set -f # no globbing: the find arguments hold globs (Kconfig*)

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
GOPI=${GOPI:-$ROOT/bin/gopi}
CACHE=${BENCH_CACHE:-$HOME/.cache/gopi-bench}
RUNS=${BENCH_RUNS:-5}
WORK=$ROOT/bench/_work/index-ast
TREE=$CACHE/linux-source-6.12
export GOPI_INDEX_DIR=${GOPI_INDEX_DIR:-$ROOT/bench/_work/index/indexes}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
[ -d "$TREE" ] || { log "no kernel tree in $TREE: run bench/index.sh first"; exit 1; }
[ -x "$GOPI" ] || { log "building $GOPI"; go build -o "$GOPI" ./cmd/gopi; }
FD=$(command -v fd || command -v fdfind) || { log "fd is needed (apt-get install fd-find)"; exit 1; }
CLI=$(scripts/astgrep-cli.sh)
. bench/lib/record.sh
bench_records_reset index-ast
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

log "index of $TREE (refreshed; built when missing)"
"$GOPI" index "$TREE" >&2

# med EXPORT.json: median wall (s) and mean CPU per command, "w0 c0 w1 c1 ..." (one line)
med() { python3 -c "
import json, statistics as s
for r in json.load(open('$1'))['results']:
    print(f\"{s.median(r['times']):.3f} {r['user']+r['system']:.3f}\", end=' ')
print()"; }

# ast-grep parses every C file of the tree (~15 minutes of one core each
# time at load 15), so it runs once per pattern: that run is both its
# correctness check and its time; gopi's two commands get hyperfine runs.
ast_cases=('c|kvm_make_request($R, $V)' 'c|spin_lock_irqsave(&$L->lock, $F)')
ast_rows=()
for c in "${ast_cases[@]}"; do
	IFS='|' read -r lang pat <<<"$c"
	q=$(printf '%q' "$pat")
	log "ast grep -l $lang -p $pat"
	(cd "$TREE" && "$GOPI" ast grep --json --no-hidden -l "$lang" -p "$pat" . >"$WORK/index.jsonl" 2>"$WORK/index.err") || true
	(cd "$TREE" && "$GOPI" ast grep --json --no-hidden --no-index -l "$lang" -p "$pat" . >"$WORK/walk.jsonl" 2>"$WORK/walk.err") || true
	same=yes
	cmp -s "$WORK/index.jsonl" "$WORK/walk.jsonl" && cmp -s "$WORK/index.err" "$WORK/walk.err" || { same=NO; diff "$WORK/index.jsonl" "$WORK/walk.jsonl" | head -5 >&2; }
	(cd "$TREE" && hyperfine --style basic --output=pipe -w 1 -r "$RUNS" --export-json "$WORK/h.json" \
		-n gopi "$GOPI ast grep --json --no-hidden -l $lang -p $q ." \
		-n "gopi --no-index" "$GOPI ast grep --json --no-hidden --no-index -l $lang -p $q ." >&2)
	bench_record_hyperfine index-ast "ast grep -l $lang -p '$pat'" "$WORK/h.json" "gopi,gopi --no-index"
	read -r gw gc ww wc < <(med "$WORK/h.json")
	log "ast-grep run -l $lang -p $pat (once)"
	(cd "$TREE" && /usr/bin/time -f '%e %U %S' -o "$WORK/sg.time" "$CLI" run --json=stream -l "$lang" -p "$pat" . >"$WORK/sg.jsonl" 2>/dev/null) || true
	read -r sw su ss <"$WORK/sg.time"
	sc=$(python3 -c "print(f'{$su+$ss:.3f}')")
	agree=$(scripts/ast-compare.py "$WORK/index.jsonl" "$WORK/sg.jsonl" | head -1) || true
	ast_rows+=("| \`$pat\` | $(wc -l <"$WORK/index.jsonl") ($agree) | $same | $gw ($gc CPU) | $ww ($wc CPU) | $sw ($sc CPU) | $(python3 -c "print(f'{$sw/$gw:.0f}× wall, {$sc/$gc:.0f}× CPU')") |")
done

find_cases=('-e c' "-e rs" "Kconfig*")
find_rows=()
for c in "${find_cases[@]}"; do
	log "find -t f $c"
	# shellcheck disable=SC2086
	(cd "$TREE" && "$GOPI" find -t f $c >"$WORK/index.txt") || true
	# shellcheck disable=SC2086
	(cd "$TREE" && "$GOPI" find -t f --no-index $c >"$WORK/walk.txt") || true
	# shellcheck disable=SC2086
	(cd "$TREE" && "$FD" -t f $c | sort >"$WORK/fd.txt") || true
	same=yes
	cmp -s "$WORK/index.txt" "$WORK/walk.txt" || same=NO
	asfd=yes
	sort "$WORK/index.txt" | cmp -s - "$WORK/fd.txt" || { asfd=NO; sort "$WORK/index.txt" | diff - "$WORK/fd.txt" | head -5 >&2; }
	(cd "$TREE" && hyperfine --style basic --output=pipe -w 2 -r "$RUNS" -N --export-json "$WORK/h.json" \
		-n gopi "$GOPI find -t f $c" -n "gopi --no-index" "$GOPI find -t f --no-index $c" -n fd "$FD -t f $c" >&2)
	bench_record_hyperfine index-ast "find -t f $c" "$WORK/h.json" "gopi,gopi --no-index,fd"
	read -r gw gc ww wc fw fc < <(med "$WORK/h.json")
	find_rows+=("| \`-t f $c\` | $(wc -l <"$WORK/index.txt") | $same | $asfd | $gw ($gc CPU) | $ww ($wc CPU) | $fw ($fc CPU) | $(python3 -c "print(f'{$fw/$gw:.1f}× wall, {$fc/$gc:.1f}× CPU')") |")
done

{
	echo "# index: gopi ast grep and gopi find reading the index, against ast-grep and fd"
	echo
	echo "bench/index-ast.sh on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r), load average $load_start at the start and $(cut -d' ' -f1-3 /proc/loadavg) at the end; corpus: the kernel tree of bench/index.sh (linux-source-6.12), indexed, no watcher running (each gopi process stats the tree's files), warm page cache. gopi: medians of hyperfine runs, seconds wall (CPU = user + system: the mean of the runs); ast-grep: one run; ast-grep is \`$("$CLI" --version)\`, fd \`$("$FD" --version)\`."
	echo
	echo "\`gopi ast grep --json --no-hidden -l LANG -p PATTERN .\` (with the index; \`--no-index\` walks and parses every file holding the pattern's tokens) against \`ast-grep run --json=stream -l LANG -p PATTERN .\`. Same as walk: gopi's stdout and stderr with the index are byte for byte those without. Target: ≥ 10× ast-grep."
	echo
	echo "| pattern | matches (agreement with ast-grep) | same as walk | gopi, s | gopi --no-index, s | ast-grep, s | ast-grep ÷ gopi |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	printf '%s\n' "${ast_rows[@]}"
	echo
	echo "\`gopi find -t f ARGS\` (files from the index) against \`fd -t f ARGS\`; same as walk: byte for byte \`--no-index\`'s output; as fd: the same paths (sorted)."
	echo
	echo "| args | paths | same as walk | as fd | gopi, s | gopi --no-index, s | fd, s | fd ÷ gopi |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	printf '%s\n' "${find_rows[@]}"
} >bench/results/index-ast.md
cat bench/results/index-ast.md
bench_records_check index-ast
