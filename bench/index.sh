#!/usr/bin/env bash
# bench/index.sh — the index area of `make bench`: gopi's persistent search
# index (gopi index, then gopi grep reading it) against ripgrep walking the
# same tree, with the results written to bench/results/index.md.
#
# The corpus is the Linux kernel tree of Debian's linux-source-6.12 package
# (~90,000 files, ~1.5 GB): the .deb is fetched with `apt-get download` and
# unpacked once into $BENCH_CACHE (default ~/.cache/gopi-bench). In order:
#   1. build: `rg -c .` over the tree (one pass reading every file) against
#      `gopi index --rebuild` (wall time, peak RSS), and the index's size
#      against the text it indexed;
#   2. grep: for each selective pattern, `gopi grep -c` with the index must
#      print what `rg -c --sort path` prints (checked first, differences
#      printed), then hyperfine times both (warm page cache);
#   3. refresh: 10 files touched, then `gopi index` (wall time);
#   4. the same with `gopi index --watch` running (a watcher keeps the
#      index fresh, so a query stats no file): each pattern again, and
#      the first `gopi grep` after editing 10 files (it waits for the
#      watcher to index them).
#
# Environment knobs:
#   GOPI         gopi binary (default bin/gopi)
#   BENCH_CACHE  where the corpus is unpacked (default ~/.cache/gopi-bench)
#   BENCH_RUNS   hyperfine runs per command (default 10)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
GOPI=${GOPI:-$ROOT/bin/gopi}
CACHE=${BENCH_CACHE:-$HOME/.cache/gopi-bench}
RUNS=${BENCH_RUNS:-10}
WORK=$ROOT/bench/_work/index
PKG=linux-source-6.12
TREE=$CACHE/$PKG
export GOPI_INDEX_DIR=$WORK/indexes
mkdir -p "$CACHE" "$WORK"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

[ -x "$GOPI" ] || { log "building $GOPI"; make build; }
if [ ! -d "$TREE" ]; then
	log "fetching and unpacking $PKG into $CACHE"
	(cd "$CACHE" && apt-get download "$PKG" >&2)
	deb=$(ls "$CACHE"/${PKG}_*.deb | head -1)
	tmp=$CACHE/deb.tmp
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp"
	tar -C "$CACHE" -xf "$tmp"/usr/src/$PKG.tar.xz
	rm -rf "$tmp" "$deb"
fi
files=$(rg --files "$TREE" | wc -l)
text=$(rg --files "$TREE" -0 | xargs -0 cat | wc -c)

. bench/lib/record.sh
bench_records_reset index
log "build: rg -c . against gopi index --rebuild"
rg -c . "$TREE" >/dev/null # warm the page cache
/usr/bin/time -f '%e %U %S' -o "$WORK/rg.time" rg -c . "$TREE" >/dev/null
read -r rg_pass rg_u rg_s <"$WORK/rg.time"
/usr/bin/time -f '%e %M %U %S' -o "$WORK/build.time" "$GOPI" index --rebuild "$TREE" >"$WORK/build.out"
read -r build_s build_kb build_u build_s2 <"$WORK/build.time"
db=$(ls "$GOPI_INDEX_DIR"/*/index.db | head -1)
size=$(stat -c %s "$db")
# One build and one rg pass: one sample each.
BUILD_CASE="build the index of the kernel tree (rg -c . as the yardstick)"
bench_record_samples index "$BUILD_CASE" gopi wall s "$build_s"
bench_record_samples index "$BUILD_CASE" gopi cpu s "$(awk -v u="$build_u" -v s="$build_s2" 'BEGIN {print u + s}')"
bench_record_samples index "$BUILD_CASE" gopi "peak RSS" MiB "$(awk -v k="$build_kb" 'BEGIN {printf "%.1f", k / 1024}')"
bench_record_samples index "$BUILD_CASE" rg wall s "$rg_pass"
bench_record_samples index "$BUILD_CASE" rg cpu s "$(awk -v u="$rg_u" -v s="$rg_s" 'BEGIN {print u + s}')"
BENCH_SOURCE=count bench_record_samples index "$BUILD_CASE" gopi "index size" MiB "$(awk -v b="$size" 'BEGIN {printf "%.1f", b / 1048576}')"

# same_as_rg P: yes when `gopi grep -c P` prints what `rg -c P` prints
# (the differences go to stderr); gopi's output stays in gopi.out.
same_as_rg() {
	(cd "$TREE" && "$GOPI" grep -c "$1" | sort) >"$WORK/gopi.out"
	(cd "$TREE" && rg -c "$1" | sort) >"$WORK/rg.out"
	if cmp -s "$WORK/gopi.out" "$WORK/rg.out"; then echo yes; else echo NO; diff "$WORK/gopi.out" "$WORK/rg.out" | head -5 >&2; fi
}

log "grep: selective patterns, gopi grep -c (index) against rg -c"
patterns=('EXPORT_SYMBOL_GPL\(kvm_' 'CONFIG_SND_SOC_TLV320AIC3X' 'spin_lock_irqsave\(&[a-z]+->lock' 'ieee80211_[a-z]+_tdls_' 'DEFINE_MUTEX\(\w+_mutex\)')
rows=()
for p in "${patterns[@]}"; do
	same=$(same_as_rg "$p")
	hyperfine -w 2 -r "$RUNS" --export-json "$WORK/h.json" \
		"cd $TREE && $GOPI grep -c '$p'" "cd $TREE && rg -c '$p'" >/dev/null
	bench_record_hyperfine index "grep -c $p (index, no watcher)" "$WORK/h.json" gopi,rg
	read -r g r gc rc < <(python3 -c "import json;d=json.load(open('$WORK/h.json'))['results'];print(d[0]['median']*1000, d[1]['median']*1000, (d[0]['user']+d[0]['system'])*1000, (d[1]['user']+d[1]['system'])*1000)")
	rows+=("| \`$p\` | $(wc -l <"$WORK/gopi.out") | $same | $(printf %.0f "$g") ($(printf %.0f "$gc") CPU) | $(printf %.0f "$r") ($(printf %.0f "$rc") CPU) | $(python3 -c "print(f'{$r/$g:.1f}× wall, {$rc/$gc:.1f}× CPU')") |")
done

log "refresh after touching 10 files"
rg --files "$TREE" -g '*.c' | head -10 | while read -r f; do echo "/* bench */" >>"$f"; done
t0=$(date +%s.%N); "$GOPI" index "$TREE" >"$WORK/refresh.out"; t1=$(date +%s.%N)
refresh=$(echo "$t1 - $t0" | bc)
bench_record_samples index "refresh after 10 edits (no watcher)" gopi wall s "$refresh"
rg --files "$TREE" -g '*.c' | head -10 | while read -r f; do sed -i '$ d' "$f"; done
"$GOPI" index "$TREE" >/dev/null

log "with a watcher: gopi index --watch"
"$GOPI" index --watch "$TREE" >"$WORK/watch.out" 2>&1 &
wpid=$!
until grep -q watching "$WORK/watch.out"; do kill -0 $wpid || { cat "$WORK/watch.out" >&2; exit 1; }; sleep 0.2; done
wrows=()
for p in "${patterns[@]}"; do
	same=$(same_as_rg "$p")
	hyperfine -w 2 -r "$RUNS" --export-json "$WORK/h.json" "cd $TREE && $GOPI grep -c '$p'" >/dev/null
	bench_record_hyperfine index "grep -c $p (index, watcher)" "$WORK/h.json" gopi
	read -r g gc < <(python3 -c "import json;d=json.load(open('$WORK/h.json'))['results'];print(d[0]['median']*1000, (d[0]['user']+d[0]['system'])*1000)")
	wrows+=("| \`$p\` | $same | $(printf %.0f "$g") ($(printf %.0f "$gc") CPU) |")
done
# The floor under every gopi process: start-up alone (package init, the
# runtime, a 120 MB binary's page faults), for judging the query rows.
hyperfine -N -w 2 -r "$RUNS" --export-json "$WORK/h.json" "$GOPI version" >/dev/null
read -r floor floorc < <(python3 -c "import json;d=json.load(open('$WORK/h.json'))['results'];print(d[0]['median']*1000, (d[0]['user']+d[0]['system'])*1000)")
kill -0 $wpid || { log "the watcher ended early"; cat "$WORK/watch.out" >&2; exit 1; }
rg --files "$TREE" -g '*.c' | head -10 | while read -r f; do echo "/* bench */" >>"$f"; done
t0=$(date +%s.%N); (cd "$TREE" && "$GOPI" grep -c 'CONFIG_SND_SOC_TLV320AIC3X' >/dev/null); t1=$(date +%s.%N)
wrefresh=$(echo "$t1 - $t0" | bc)
bench_record_samples index "refresh after 10 edits (watcher), then a query" gopi wall s "$wrefresh"
rg --files "$TREE" -g '*.c' | head -10 | while read -r f; do sed -i '$ d' "$f"; done
(cd "$TREE" && "$GOPI" grep -c 'CONFIG_SND_SOC_TLV320AIC3X' >/dev/null)
"$GOPI" index --status "$TREE" >&2
kill -INT $wpid; wait $wpid || true

mkdir -p bench/results
{
	echo "# index: gopi index and gopi grep with the index, against rg"
	echo
	echo "bench/index.sh on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; corpus: $PKG ($files files, $((text / 1048576)) MiB of text), warm page cache. Times are wall (CPU = user + system)."
	echo
	echo "| measure | value | target |"
	echo "| --- | --- | --- |"
	echo "| \`rg -c .\` (one pass reading every file) | ${rg_pass} s ($(python3 -c "print(f'{$rg_u+$rg_s:.1f}')") s CPU) | |"
	echo "| \`gopi index --rebuild\` | ${build_s} s ($(python3 -c "print(f'{$build_u+$build_s2:.1f}')") s CPU; $(python3 -c "print(f'{$build_s/$rg_pass:.1f}× rg wall, {($build_u+$build_s2)/($rg_u+$rg_s):.1f}× rg CPU')")) | ≤ 1.5× rg |"
	echo "| peak RSS of the build | $((build_kb / 1024)) MiB | ≤ 300 MB |"
	echo "| index size | $((size / 1048576)) MiB ($(python3 -c "print(f'{100*$size/$text:.0f}')") % of the text) | ≤ 30 % |"
	echo "| refresh after editing 10 files (\`gopi index\`, no watcher: stats every file) | $(printf %.2f "$refresh") s | ≤ 100 ms |"
	echo "| refresh after editing 10 files (watcher running: the next \`gopi grep\`, end to end) | $(printf %.3f "$wrefresh") s | ≤ 100 ms |"
	echo
	echo "| pattern | files | same as rg | gopi grep -c, ms | rg -c, ms | speed-up |"
	echo "| --- | --- | --- | --- | --- | --- |"
	printf '%s\n' "${rows[@]}"
	echo
	echo "With \`gopi index --watch\` running (queries stat nothing; rg as above):"
	echo
	echo "| pattern | same as rg | gopi grep -c, ms |"
	echo "| --- | --- | --- |"
	printf '%s\n' "${wrows[@]}"
	echo
	echo "Start-up floor in the same run: \`gopi version\` $(printf %.0f "$floor") ms ($(printf %.0f "$floorc") CPU)."
	if [ -f bench/index-notes.md ]; then
		echo
		cat bench/index-notes.md
	fi
} >bench/results/index.md
cat bench/results/index.md
bench_records_check index

# The AST and find rows (bench/results/index-ast.md and .jsonl).
GOPI=$GOPI BENCH_CACHE=$CACHE BENCH_RUNS=$RUNS bench/index-ast.sh
