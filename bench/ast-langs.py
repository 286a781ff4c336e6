#!/usr/bin/env python3
"""ast-langs.py — 20 AST patterns over 5 languages on real trees, `gopi ast
grep` against the ast-grep CLI, in one run; written as markdown to stdout.

For each case both tools run in the corpus directory with JSON output to a
file: RUNS timed runs each, alternating, after one untimed warm-up run of
each tool on the first case of every corpus (page cache). Wall time is the best run; CPU (user + system) and
peak RSS come from the kernel's rusage of that run (os.wait4). The matches
of the first timed run are compared by (file, byte range).

Usage: ast-langs.py GOPI CLI RUNS OUTDIR CASES...  (case: name|dir|lang|pattern|tag)
"""
import json
import os
import statistics
import subprocess
import sys
import time

gopi, cli, outdir = (os.path.abspath(a) for a in (sys.argv[1], sys.argv[2], sys.argv[4]))
runs = int(sys.argv[3])
cases = [c.split("|", 4) for c in sys.argv[5:]]


def run(cmd, cwd, out):
    with open(out, "wb") as f:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=f, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def load(path):
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                m = json.loads(line)
                b = m["range"]["byteOffset"]
                out.add((m["file"].removeprefix("./"), b["start"], b["end"]))
    return out


rows = []
warm = set()
# Every timed run, for the area's records: case, tool, metric, unit, values
# in run order (the two tools alternated run by run).
samples = open(f"{outdir}/samples.tsv", "w", encoding="utf-8")
for i, (name, tree, lang, pat, tag) in enumerate(cases, 1):
    print(f"== [{i}/{len(cases)}] {name} {lang}: {pat}", file=sys.stderr, flush=True)
    cmds = {
        "gopi": [gopi, "ast", "grep", "--json", "--no-hidden", "-l", lang, "-p", pat, "."],
        "cli": [cli, "run", "--json=stream", "-l", lang, "-p", pat, "."],
    }
    res = {k: [] for k in cmds}
    if tree not in warm:
        warm.add(tree)
        for k, c in cmds.items():
            run(c, tree, os.devnull)
    for r in range(runs):
        for k, c in cmds.items():
            res[k].append(run(c, tree, f"{outdir}/{k}-{i}.jsonl" if r == 0 else os.devnull))
    ours, theirs = load(f"{outdir}/gopi-{i}.jsonl"), load(f"{outdir}/cli-{i}.jsonl")
    for k, tool in (("gopi", "gopi"), ("cli", "ast-grep")):
        for j, (metric, unit) in enumerate((("wall", "s"), ("cpu", "s"), ("peak RSS", "MB"))):
            vals = " ".join(f"{x[j]:.4f}" for x in res[k])
            samples.write(f"{name} {lang}: {pat}\t{tool}\t{metric}\t{unit}\t{vals}\n")
    best = {k: min(v) for k, v in res.items()}
    rss = {k: max(x[2] for x in v) for k, v in res.items()}
    rows.append((name, lang, pat, tag, len(ours), len(theirs), ours == theirs, best, rss))

samples.close()
print("| # | corpus | lang | pattern | set | matches gopi / ast-grep | identical | gopi wall s | ast-grep wall s | wall ratio | gopi CPU s | ast-grep CPU s | CPU ratio | gopi RSS MB | ast-grep RSS MB | RSS ratio |")
print("| ---: | --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
walls, cpus = [], []
for i, (name, lang, pat, tag, no, nt, same, best, rss) in enumerate(rows, 1):
    g, a = best["gopi"], best["cli"]
    wr, cr, rr = a[0] / g[0], a[1] / max(g[1], 1e-3), rss["gopi"] / rss["cli"]
    walls.append(wr)
    cpus.append(cr)
    p = pat.replace("|", "\\|")
    print(f"| {i} | {name} | {lang} | `{p}` | {tag} | {no} / {nt} | {'yes' if same else '**no**'} | {g[0]:.2f} | {a[0]:.2f} | {wr:.2f}× | {g[1]:.2f} | {a[1]:.2f} | {cr:.2f}× | {rss['gopi']:.0f} | {rss['cli']:.0f} | {rr:.2f} |")
print()
print(f"Median wall ratio {statistics.median(walls):.2f}×, median CPU ratio {statistics.median(cpus):.2f}×; "
      f"lowest wall ratio {min(walls):.2f}×. Ratios: ast-grep ÷ gopi (higher is better for gopi); RSS ratio: gopi ÷ ast-grep.")
