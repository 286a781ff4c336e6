#!/usr/bin/env bash
# bench/edit.sh — the edit area of `make bench`: apply the same Codex-format
# patch with `gopi edit --mode apply_patch` and with Codex's own apply_patch
# (the Rust implementation the format comes from), and write
# bench/results/edit.md.
#
# Input: the first 100,000 lines of the Go standard library's sources
# (concatenated .go files of $(go env GOROOT)/src in sorted order), and a
# patch of 100 Update chunks spread evenly over it (3 context lines above
# and below each changed line), written once to bench/_work/edit/.
#
# Peer: the @openai/codex npm package's Linux x64 binary, installed into
# bench/_work/edit/peer; invoked through a symlink named apply_patch, which
# makes it run its standalone apply_patch entry point (patch on stdin).
#
# Both are whole processes (start-up, parse, search, write) timed by
# hyperfine on the same input, the file being restored before every run.
# Both results are compared byte for byte before timing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/edit
RUNS=${BENCH_RUNS:-30}
CODEX_VERSION=${CODEX_VERSION:-0.169.0}
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

command -v hyperfine >/dev/null || { echo "bench/edit.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }

INPUT=$WORK/input.txt
if [ ! -s "$INPUT" ]; then
	log "writing $INPUT"
	# head closes the pipe early on purpose: ignore the writers' SIGPIPE.
	(set +o pipefail; find "$(go env GOROOT)/src" -name '*.go' | LC_ALL=C sort | xargs cat 2>/dev/null | head -n 100000 >"$INPUT")
fi
LINES=$(wc -l <"$INPUT")

PATCH=$WORK/patch.txt
log "writing $PATCH (100 chunks)"
awk -v total="$LINES" '
	{ line[NR] = $0 }
	END {
		print "*** Begin Patch"
		print "*** Update File: f.go"
		for (k = 0; k < 100; k++) {
			i = 500 + k * int((total - 1000) / 100)
			print "@@"
			for (j = i - 3; j < i; j++) print " " line[j]
			print "-" line[i]
			print "+" line[i] " // edited by the benchmark"
			for (j = i + 1; j <= i + 3; j++) print " " line[j]
		}
		print "*** End Patch"
	}' "$INPUT" >"$PATCH"

log "installing @openai/codex@$CODEX_VERSION (linux-x64) into $WORK/peer (once)"
CODEX=$WORK/peer/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/bin/codex
if [ ! -x "$CODEX" ]; then
	mkdir -p "$WORK/peer"
	(cd "$WORK/peer" && npm install --no-audit --no-fund --silent "@openai/codex@$CODEX_VERSION-linux-x64" >/dev/null)
fi
ln -sf "$CODEX" "$WORK/apply_patch"

log "building gopi"
go build -o "$WORK/gopi-bin" ./cmd/gopi
GOPI=$WORK/gopi-bin

log "checking that both produce the same file"
mkdir -p "$WORK/gopi" "$WORK/codex"
cp "$INPUT" "$WORK/gopi/f.go"
cp "$INPUT" "$WORK/codex/f.go"
(cd "$WORK/gopi" && "$GOPI" edit --mode apply_patch --input "$PATCH" >/dev/null)
(cd "$WORK/codex" && "$WORK/apply_patch" <"$PATCH" >/dev/null)
cmp "$WORK/gopi/f.go" "$WORK/codex/f.go"
CHANGED=$(diff "$INPUT" "$WORK/gopi/f.go" | grep -c '^>' || true)
[ "$CHANGED" = 100 ] || { echo "expected 100 changed lines, got $CHANGED" >&2; exit 1; }

# The same 100 line changes as a hashline edit (gopi only: no peer speaks
# it), with anchors taken from `gopi read`.
HASHLINE=$WORK/hashline.txt
log "writing $HASHLINE (anchors from gopi read)"
{
	echo "@@ f.go"
	while IFS= read -r i; do
		a=$(cd "$WORK" && "$GOPI" read "input.txt:$i-$i" | grep -m1 -E "^$i[a-z]{2}\\|" | cut -d'|' -f1)
		echo "= $a..$a"
		printf '~%s // edited by the benchmark\n' "$(sed -n "${i}p" "$INPUT")"
	done < <(awk -v total="$LINES" 'BEGIN { for (k = 0; k < 100; k++) print 500 + k * int((total - 1000) / 100) }')
} >"$HASHLINE"
mkdir -p "$WORK/hashline"
cp "$INPUT" "$WORK/hashline/f.go"
(cd "$WORK/hashline" && "$GOPI" edit --mode hashline --input "$HASHLINE" >/dev/null)
# Anchors name lines exactly: the result must be the input with exactly the
# 100 chosen lines edited. (apply_patch matches by content and edits the
# first copy of a repeated context block, the same way in both tools.)
awk -v total="$LINES" 'BEGIN { for (k = 0; k < 100; k++) pick[500 + k * int((total - 1000) / 100)] = 1 }
	{ if (NR in pick) print $0 " // edited by the benchmark"; else print }' "$INPUT" >"$WORK/expected.go"
cmp "$WORK/hashline/f.go" "$WORK/expected.go"

log "timing ($RUNS runs each)"
hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/hyperfine.json" \
	--command-name "gopi edit --mode apply_patch" \
	--prepare "cp $INPUT $WORK/gopi/f.go" \
	"sh -c 'cd $WORK/gopi && $GOPI edit --mode apply_patch --input $PATCH >/dev/null'" \
	--command-name "codex apply_patch" \
	--prepare "cp $INPUT $WORK/codex/f.go" \
	"sh -c 'cd $WORK/codex && $WORK/apply_patch <$PATCH >/dev/null'" \
	--command-name "gopi edit --mode hashline" \
	--prepare "cp $INPUT $WORK/hashline/f.go" \
	"sh -c 'cd $WORK/hashline && $GOPI edit --mode hashline --input $HASHLINE >/dev/null'" >&2

# Wall-clock medians, plus mean user+system CPU time, which other load on
# the machine disturbs far less.
read -r GOPI_MS CODEX_MS HL_MS GOPI_CPU CODEX_CPU HL_CPU < <(python3 -c '
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
keys = ("gopi edit --mode apply_patch", "codex apply_patch", "gopi edit --mode hashline")
print(" ".join("%.2f" % (r[k]["median"] * 1e3) for k in keys),
      " ".join("%.2f" % ((r[k]["user"] + r[k]["system"]) * 1e3) for k in keys))
' "$WORK/hyperfine.json")
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
# Every run as a sample: apply_patch (gopi against codex) and hashline (gopi
# alone) are two cases, so the export is split in two.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for path, keep in ((sys.argv[2], lambda c: "apply_patch" in c), (sys.argv[3], lambda c: "hashline" in c)):
    json.dump({"results": [r for r in d["results"] if keep(r["command"])]}, open(path, "w"))
' "$WORK/hyperfine.json" "$WORK/hyperfine-patch.json" "$WORK/hyperfine-hashline.json"
. bench/lib/record.sh
bench_records_reset edit
bench_record_hyperfine edit "100 changes to a 100,000-line file, apply_patch" "$WORK/hyperfine-patch.json" gopi,codex
bench_record_hyperfine edit "100 changes to a 100,000-line file, hashline" "$WORK/hyperfine-hashline.json" gopi
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

{
	echo "# edit: apply_patch"
	echo
	echo "Applying one Codex-format patch (100 update chunks, 3 context lines each) to a"
	echo "$LINES-line file (the first 100,000 lines of the Go standard library's sources)."
	echo "Whole processes, timed by hyperfine (median of $RUNS runs, file restored before each"
	echo "run); both tools produce byte-identical files (checked with cmp). The hashline row applies"
	echo "the same 100 line changes as anchored replacements (anchors from \`gopi read\`), checked"
	echo "against the expected file; it has no peer. (apply_patch locates chunks by content: where a"
	echo "chunk's context also occurs earlier, both implementations edit the earlier copy.)"
	echo
	echo "| tool | median wall time | ÷ gopi's | mean CPU (user+sys) | ÷ gopi's |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	echo "| gopi edit --mode apply_patch | $GOPI_MS ms | 1.00 | $GOPI_CPU ms | 1.00 |"
	echo "| codex apply_patch $CODEX_VERSION (Rust) | $CODEX_MS ms | $(ratio "$CODEX_MS" "$GOPI_MS") | $CODEX_CPU ms | $(ratio "$CODEX_CPU" "$GOPI_CPU") |"
	echo "| gopi edit --mode hashline (same 100 changes; no peer) | $HL_MS ms | $(ratio "$HL_MS" "$GOPI_MS") | $HL_CPU ms | $(ratio "$HL_CPU" "$GOPI_CPU") |"
	echo
	echo "gopi also computes the unified diff and the anchored preview of its result, and"
	echo "fsyncs the file before renaming it into place; Codex's apply_patch does neither."
	echo
	echo "- Command: \`bench/edit.sh\` (BENCH_RUNS=$RUNS)"
	echo "- Date: $(date -u)"
	echo "- Load average at the end (the machine is shared): $LOAD"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(uname -sr)"
} >bench/results/edit.md
log "wrote bench/results/edit.md"
cat bench/results/edit.md
bench_records_check edit
