#!/usr/bin/env bash
# bench/release.sh — the release area of `make bench`: what the release
# binary's size and start-up are made of, start-up against ripgrep, and the
# CPU-variant check; writes bench/results/release.md.
#
# Needs the linux/amd64 native library that ./build.sh builds (run
# `./build.sh linux/amd64` first); links the release binary the same way.
# Sizes of the other targets come from dist/manifest.json when present.
# Measures:
#   - size: file size of every release binary (dist/manifest.json), the
#     linux/amd64 binary's ELF sections, and per module the bytes of code
#     and data its symbols take in an unstripped build of the same commit
#     (`go tool nm -size`; C and Rust symbols of the native core counted as
#     one, from libgopi_native.a's sections);
#   - start-up: `hyperfine -N` of `rg --version`, the release `gopi
#     --version` (static, stripped) and a plain `go build` (dynamic,
#     unstripped) in one run; maximum RSS (`/usr/bin/time`) after evicting
#     the binary from the page cache (`dd iflag=nocache`), since a binary
#     freshly written by the linker sits in the cache as large folios and
#     maps (and counts) up to twice as much;
#   - Go package initialisers: GODEBUG=inittrace=1, the slowest ten and the
#     total, best of 5 runs;
#   - CPU variants: GOAMD64=v3 against v1 of the same sources on the hot
#     paths that are Go code (token counting; grep's and ast's Go side), user
#     CPU time from hyperfine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
WORK=$ROOT/bench/_work/release
mkdir -p "$WORK" bench/results
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
command -v hyperfine >/dev/null || { apt-get install -y -qq hyperfine >/dev/null; }
command -v rg >/dev/null || { apt-get install -y -qq ripgrep >/dev/null; }

lib=native/_target/x86_64-unknown-linux-gnu-baseline/localized/libgopi_native.a
[ -f "$lib" ] || { echo "bench/release.sh: no $lib; run ./build.sh linux/amd64 first" >&2; exit 1; }
if [ "${REPORT_ONLY:-0}" != 1 ]; then
log "release build (as build.sh links linux/amd64: static, stripped)"
rel=$WORK/gopi-release
CGO_ENABLED=1 GOAMD64=v1 CGO_LDFLAGS="-L$ROOT/${lib%/*}" go build -trimpath -tags netgo,osusergo -o "$rel" \
  -ldflags "-s -w -linkmode external -extldflags -static" ./cmd/gopi

log "plain build (dynamic, unstripped) and symbol table"
stamp=$(sha256sum native/_lib/libgopi_native.a | cut -c1-16)
go build -o "$WORK/gopi-plain" -ldflags "-X github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$stamp" ./cmd/gopi
go tool nm -size "$WORK/gopi-plain" > "$WORK/nm.txt"

log "GOAMD64=v1 and v3 builds"
GOAMD64=v1 go build -o "$WORK/gopi-v1" -ldflags "-s -w" ./cmd/gopi
GOAMD64=v3 go build -o "$WORK/gopi-v3" -ldflags "-s -w" ./cmd/gopi

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
echo "# release: binary size, start-up and CPU variants"
echo
echo "Measured by bench/release.sh on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load average $load at the start$(awk '$1 > 2 {print " (a loaded shared machine: times are noisy; ratios from one run)"}' /proc/loadavg)."
echo "Go $(go env GOVERSION), $(rustc -V | cut -d' ' -f1-2), $(rg --version | head -1), hyperfine $(hyperfine --version | cut -d' ' -f2)."
echo
echo "## Size"
echo
echo "Release binaries (\`./build.sh\`: \`-s -w\`, static, \`-trimpath\`):"
echo
echo "| target | native core | size |"
echo "| --- | --- | ---: |"
if [ -f dist/manifest.json ]; then
  python3 - <<'PY'
import json
m = json.load(open("dist/manifest.json"))
for t in m["targets"]:
    v = "" if t["variant"] == "default" else "/" + t["variant"]
    print(f'| {t["os"]}/{t["arch"]}{v} | {"yes" if t["native_core"] else "no (pure Go)"} | {t["binary_size"]/1048576:.1f} MB |')
PY
fi
echo "| linux/amd64, plain \`go build\` (dynamic, symbols and DWARF) | yes | $(mb "$(stat -c %s "$WORK/gopi-plain")") MB |"
if [ -f dist/manifest.json ]; then
  echo
  python3 - <<'PY'
import json
m = json.load(open("dist/manifest.json"))
t = m["targets"]
print(f'The last \`./build.sh\` ({m["version"]}, {len(t)} targets) took {sum(x["build_seconds"] for x in t)} s in all, smoke tests'
      ' included (per target: ' + ", ".join(f'{x["os"]}/{x["arch"]} {x["build_seconds"]} s' for x in t) + ').'
      ' From a cold cache the cross targets take far longer: compiling the standard library and the 29'
      ' grammars for linux/arm64 took 47 min and for windows/amd64 26 min of wall time on this shared'
      ' 2-core machine under load (nice 10, -j 2).')
PY
fi
echo
echo "ELF sections of the linux/amd64 release binary (MB):"
echo
echo "| .text (code) | .rodata (constants, grammar tables) | .gopclntab (Go's PC tables) | .noptrdata + .data | rest |"
echo "| ---: | ---: | ---: | ---: | ---: |"
python3 - "$rel" <<'PY'
import subprocess, sys, os
s = {}
for line in subprocess.run(["readelf", "-SW", sys.argv[1]], capture_output=True, text=True).stdout.splitlines():
    p = line.replace("[ ", "[").split()
    if len(p) > 6 and p[0].startswith("[") and p[0][1:-1].isdigit() and p[2] != "NOBITS":
        s[p[1]] = s.get(p[1], 0) + int(p[5], 16)
total = os.path.getsize(sys.argv[1])
t, r, g, d = s.get(".text", 0), s.get(".rodata", 0), s.get(".gopclntab", 0), s.get(".noptrdata", 0) + s.get(".data", 0)
M = 1048576
print(f"| {t/M:.1f} | {r/M:.1f} | {g/M:.1f} | {d/M:.1f} | {(total-t-r-g-d)/M:.1f} |")
PY
echo
echo "Where the bytes come from: code and data of each module's symbols in the plain build (Go's own"
echo "PC tables, about a quarter of the Go code's size again, come on top), and the native core's"
echo "sections from its archive:"
echo
echo "| part | MB |"
echo "| --- | ---: |"
size -A "$lib" | awk '$1 ~ /^\.(text|rodata|data)/ { if ($1 ~ /ts_parse_table|ts_small_parse_table|ts_parse_actions|ts_lex|ts_lex_modes|ts_symbol|ts_field|ts_non_terminal|ts_primary|ts_external/) g += $2; else o += $2 }
  END { printf "| native core: tree-sitter grammar tables and lexers (29 languages) | %.1f |\n| native core: the rest (Rust regex, ast-grep, tree-sitter runtime, Rust std) | %.1f |\n", g/1048576, o/1048576 }'
python3 - "$WORK/nm.txt" <<'PY'
import sys, re, collections
tot = collections.Counter()
for line in open(sys.argv[1]):
    p = line.split(None, 3)
    if len(p) < 4 or p[2] in "bB": continue
    size, name = int(p[1]), p[3].strip()
    if p[2] in "dD" and size > 16 << 20: continue  # FIPS scratch buffer: bss-like, never touched
    m = re.match(r'^((?:github\.com|golang\.org|gopkg\.in|google\.golang\.org)/[^/.]+/[^/.]+|(?:modernc\.org|mvdan\.cc|rsc\.io|go\.[a-z]+\.[a-z]+)/[^/.]+)', name)
    if m: key = m.group(1)
    elif re.match(r'^(go:|type:|runtime\.|internal/)', name): key = "Go runtime, types, itabs"
    elif re.match(r'^[a-z0-9_]+(/[a-z0-9_]+)*\.', name): key = "Go standard library"
    else: continue  # C symbols: the native core (above) and cgo's go-tree-sitter grammars
    if key.startswith("github.com/gopi-agent/gopi"): key = "gopi's own packages"
    tot[key] += size
for k, v in tot.most_common(16):
    print(f"| {k} | {v/1048576:.1f} |")
PY
echo
echo "The grammar tables by language (code and data of each grammar crate's compiled C, MB), what a"
echo "build with a chosen set of languages would save:"
echo
echo "| grammar | MB |"
echo "| --- | ---: |"
for d in native/_target/x86_64-unknown-linux-gnu-baseline/release/build/tree-sitter-*/out; do
  n=$(basename "$(dirname "$d")" | sed -E 's/-[0-9a-f]{16}$//')
  b=$(find "$d" -name '*.a' -exec size -A {} \; 2>/dev/null | awk '$1 ~ /^\.(text|rodata|data)/ { t += $2 } END { print t + 0 }')
  [ "$b" -gt 0 ] && echo "$b $n"
done | sort -rn | awk '{ printf "| %s | %.1f |\n", $2, $1 / 1048576 }'
} > "$WORK/size.md"

log "start-up"
for b in "$WORK/gopi-release" "$WORK/gopi-plain" "$(command -v rg)"; do dd if="$b" iflag=nocache count=0 status=none; done
hyperfine -N -w 10 -r 200 --export-json "$WORK/startup.json" \
  -n "rg --version" "rg --version" \
  -n "gopi --version (release)" "$WORK/gopi-release --version" \
  -n "gopi --version (plain go build)" "$WORK/gopi-plain --version" > "$WORK/startup.txt" 2>&1
rss() { dd if="$1" iflag=nocache count=0 status=none; "$@" >/dev/null 2>"$WORK/rss.err" || true; best=999999999
  for _ in 1 2 3 4 5; do dd if="$1" iflag=nocache count=0 status=none
    kb=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1); [ "$kb" -lt "$best" ] && best=$kb; done; echo "$best"; }
rss_rg=$(rss "$(command -v rg)" --version)
rss_rel=$(rss "$WORK/gopi-release" --version)
rss_plain=$(rss "$WORK/gopi-plain" --version)

log "inittrace"
best_init=""
for _ in 1 2 3 4 5; do
  GODEBUG=inittrace=1 "$WORK/gopi-release" --version 2>"$WORK/init.txt" >/dev/null
  t=$(awk '{ s += $5 } END { printf "%.2f", s }' "$WORK/init.txt")
  if [ -z "$best_init" ] || awk -v a="$t" -v b="$best_init" 'BEGIN { exit !(a < b) }'; then best_init=$t; cp "$WORK/init.txt" "$WORK/init-best.txt"; fi
done
npk=$(wc -l < "$WORK/init-best.txt")

log "CPU variants"
INPUT=$ROOT/bench/_work/tokens/input.txt
[ -s "$INPUT" ] || { INPUT=$WORK/tokens-input.txt; find "$(go env GOROOT)/src/net" -name '*.go' -print0 | sort -z | xargs -0 cat > "$INPUT"; }
SRC=$(go env GOROOT)/src
hyperfine -N -w 2 -r 10 --export-json "$WORK/variants.json" \
  -n "tokens v1" "$WORK/gopi-v1 tokens $INPUT" -n "tokens v3" "$WORK/gopi-v3 tokens $INPUT" \
  -n "grep v1" "$WORK/gopi-v1 grep -c --no-ignore 'func \\w+\\(' $SRC" -n "grep v3" "$WORK/gopi-v3 grep -c --no-ignore 'func \\w+\\(' $SRC" \
  -n "ast v1" "$WORK/gopi-v1 ast grep -p 'if err != nil { \$\$\$ }' $SRC/net" -n "ast v3" "$WORK/gopi-v3 ast grep -p 'if err != nil { \$\$\$ }' $SRC/net" \
  > "$WORK/variants.txt" 2>&1 || true

echo "$rss_rg $rss_rel $rss_plain" > "$WORK/rss.txt"
fi
read -r rss_rg rss_rel rss_plain < "$WORK/rss.txt"
npk=$(wc -l < "$WORK/init-best.txt")
best_init=$(awk '{ s += $5 } END { printf "%.2f", s }' "$WORK/init-best.txt")
INPUT=$ROOT/bench/_work/tokens/input.txt
[ -s "$INPUT" ] || INPUT=$WORK/tokens-input.txt
{
cat "$WORK/size.md"
echo
echo "## Start-up"
echo
echo "\`hyperfine -N -w 10 -r 200\`, the three commands in one run; maximum RSS best of 5 after"
echo "evicting the binary from the page cache. Target: \`gopi --version\` within 1.5× of \`rg --version\`"
echo "and ≤ 15 MB RSS."
echo
echo "| command | mean | min | user | system | vs rg (mean) | max RSS |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
python3 - "$WORK/startup.json" "$rss_rg" "$rss_rel" "$rss_plain" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
rss = sys.argv[2:]
base = r[0]["mean"]
for i, x in enumerate(r):
    print(f'| `{x["command"]}` | {x["mean"]*1e3:.2f} ms | {x["min"]*1e3:.2f} ms | {x["user"]*1e3:.2f} ms | {x["system"]*1e3:.2f} ms | {x["mean"]/base:.2f}× | {int(rss[i])/1024:.1f} MB |')
PY
echo
echo "Go package initialisers of the release binary (\`GODEBUG=inittrace=1 gopi --version\`, best of"
echo "5): $npk packages, ${best_init} ms of clock in total. The slowest:"
echo
echo "| package | clock | allocated |"
echo "| --- | ---: | ---: |"
sort -k5 -rn "$WORK/init-best.txt" | awk 'NR <= 10 { printf "| %s | %s ms | %s B |\n", $2, $5, $8 }'
echo
echo "## CPU variants (GOAMD64=v3 against v1, same native library)"
echo
echo "\`hyperfine -N -w 2 -r 10\`; user CPU time, which a loaded machine disturbs less than wall time."
echo "Input: $(du -h "$INPUT" | cut -f1) of Go source for tokens; \$GOROOT/src for grep; \$GOROOT/src/net for ast."
echo
echo "| hot path | v1 user | v3 user | v3 ÷ v1 |"
echo "| --- | ---: | ---: | ---: |"
python3 - "$WORK/variants.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
for k in ("tokens", "grep", "ast"):
    a, b = r.get(k + " v1"), r.get(k + " v3")
    if a and b:
        print(f'| {k} | {a["user"]*1e3:.0f} ms | {b["user"]*1e3:.0f} ms | {b["user"]/a["user"]:.2f} |')
PY
echo
echo "Verdict: no hot path is consistently faster with GOAMD64=v3: on this shared machine the ratios"
echo "change sign between runs (2026-11-25: one run gave tokens 1.16, grep 1.05, ast 0.92; another"
echo "tokens 0.73, grep 0.86, ast 0.93; a 30-run repeat of tokens, v1 and v3 twice each, gave user"
echo "times of 75 and 79 ms for v1 against 88 and 80 ms for v3). The regex and AST engines are Rust and"
echo "C, unchanged by GOAMD64, and already choose AVX2 code at run time"
echo "(memchr, aho-corasick), so ./build.sh ships no \"modern\" variant: one linux/amd64 baseline build,"
echo "checked under \`qemu-x86_64 -cpu qemu64\` by scripts/smoke.sh."
echo
echo "## Targets"
echo
python3 - "$WORK/startup.json" "$rss_rel" "$WORK/gopi-release" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))["results"]
ratio = r[1]["mean"] / r[0]["mean"]
rmin = r[1]["min"] / r[0]["min"]
rss = int(sys.argv[2]) / 1024
size = os.path.getsize(sys.argv[3]) / 1048576
met = lambda ok: "met" if ok else "**not met**"
print("| target | measured | |")
print("| --- | --- | --- |")
print(f"| `gopi --version` within 1.5× of `rg --version` | {ratio:.1f}× (mean), {rmin:.1f}× (min) | {met(ratio <= 1.5)} |")
print(f"| ≤ 15 MB RSS | {rss:.1f} MB | {met(rss <= 15)} |")
print(f"| binary ≤ 40 MB with all grammars | {size:.1f} MB (stripped, static) | {met(size <= 40)} |")
PY
echo
echo "Why not: the binary is 85 MB stripped and nearly half of it is the native core's 29 tree-sitter"
echo "grammars (their parse tables alone are 40 MB; Kotlin, C#, Scala, Swift, Haskell and C++ take 25"
echo "MB of them); the Go side (esbuild, goja, SQLite, charm, x/text, runewidth tables, gopi itself)"
echo "is about 30 MB with its PC tables. Start-up of \`gopi --version\` is 199 package initialisers"
echo "(several ms, led by goldmark's extensions, the PDF reader, pprof's profile package and"
echo "x/net/html, all third-party code that runs at import) and page faults on the large binary"
echo "(system time several times rg's). RSS is mostly the binary's own pages: the kernel maps the"
echo "code and tables around every page an initialiser touches, so it follows the binary's size and"
echo "spread, not the heap (1.8 MB allocated by all initialisers). What was cut: symbol tables and"
echo "DWARF (-s -w: 98.5 → 85 MB) and dynamic loading (static executables: no ld.so, no libc"
echo "mapping; no start-up gain shows through this machine's noise). What would cut further: a build with a chosen set of languages (the table above; the"
echo "ast-grep-language crate takes all its grammars, so native/ would need its own language list),"
echo "dropping the second copy of six grammars that go-tree-sitter links for the Go side's syntax"
echo "trees, and moving the heavy third-party initialisers behind the commands that use them."
} > bench/results/release.md
log "wrote bench/results/release.md"
