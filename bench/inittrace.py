#!/usr/bin/env python3
"""bench/inittrace.py — package initialisation of two Go binaries compared.

Usage: inittrace.py [-n RUNS] [-top N] BEFORE AFTER [ARGS...]

Runs each binary RUNS times (default 21, alternated: before, after,
before, ...) as `BINARY ARGS...` (default ARGS: --version) with
GODEBUG=inittrace=1 and reads the runtime's "init PKG @T ms, C ms clock,
B bytes, A allocs" lines from its standard error. Prints, per binary, the
number of packages with init work, the median over the runs of the sum of
their clock times (with min..max), and the sums of their heap bytes and
allocations (the same every run); then AFTER's N costliest inits (median
clock, default 10) and the packages that only AFTER initialises.

Check the parser with `python3 -m doctest bench/inittrace.py`.
"""

import os
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"init (\S+) @\S+ ms, ([\d.]+) ms clock, (\d+) bytes, (\d+) allocs")


def parse(text):
    """{package: (ms, bytes, allocs)} from inittrace output.

    >>> parse("init runtime @0.06 ms, 0.070 ms clock, 0 bytes, 0 allocs\\ngopi dev\\n")
    {'runtime': (0.07, 0, 0)}
    """
    out = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out[m[1]] = (float(m[2]), int(m[3]), int(m[4]))
    return out


def run(binary, args):
    env = dict(os.environ, GODEBUG="inittrace=1")
    p = subprocess.run([binary] + args, env=env, capture_output=True, text=True)
    return parse(p.stderr)


def main(argv):
    runs, top = 21, 10
    args = argv[1:]
    while args and args[0] in ("-n", "-top"):
        if args[0] == "-n":
            runs = int(args[1])
        else:
            top = int(args[1])
        args = args[2:]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bins = {"before": args[0], "after": args[1]}
    rest = args[2:] or ["--version"]
    got = {rev: [] for rev in bins}
    for _ in range(runs):
        for rev, b in bins.items():
            got[rev].append(run(b, rest))
    print(f"`GODEBUG=inittrace=1 BINARY {' '.join(rest)}`, {runs} runs each, alternated:")
    print()
    print("| binary | packages with init work | sum of init clock, median (min..max) | heap bytes | allocs |")
    print("| --- | ---: | ---: | ---: | ---: |")
    per = {}
    for rev in bins:
        sums = [sum(v[0] for v in r.values()) for r in got[rev]]
        last = got[rev][-1]
        per[rev] = {p: statistics.median(r[p][0] for r in got[rev] if p in r) for p in last}
        print(
            f"| {rev} | {len(last)} | {statistics.median(sums):.2f} ms ({min(sums):.2f}..{max(sums):.2f}) "
            f"| {sum(v[1] for v in last.values()):,} | {sum(v[2] for v in last.values()):,} |"
        )
    last = got["after"][-1]
    print()
    print(f"after's {top} costliest inits (median clock):")
    print()
    print("| package | clock ms | heap bytes | allocs |")
    print("| --- | ---: | ---: | ---: |")
    for p in sorted(per["after"], key=per["after"].get, reverse=True)[:top]:
        print(f"| {p} | {per['after'][p]:.3f} | {last[p][1]:,} | {last[p][2]:,} |")
    new = [p for p in per["after"] if p not in per["before"]]
    print()
    print(
        f"Packages only after initialises: {len(new)}, together {sum(per['after'][p] for p in new):.3f} ms, "
        f"{sum(last[p][1] for p in new):,} bytes, {sum(last[p][2] for p in new):,} allocs; the largest:"
    )
    print()
    print("| package | clock ms | heap bytes | allocs |")
    print("| --- | ---: | ---: | ---: |")
    for p in sorted(new, key=per["after"].get, reverse=True)[:top]:
        print(f"| {p} | {per['after'][p]:.3f} | {last[p][1]:,} | {last[p][2]:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
