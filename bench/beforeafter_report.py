#!/usr/bin/env python3
"""bench/beforeafter_report.py — the tables of bench/beforeafter.sh.

Usage: beforeafter_report.py OUT_DIR

OUT_DIR/cases.tsv names the measured cases, one a line, tab-separated:
area, case id, kind, description. The samples of case ID measured at
revision REV ("before" or "after") in round N sit in OUT_DIR/data/ID/:

  hyperfine  REV.N.json      hyperfine --export-json (times in seconds)
  firstbyte  REV.N.txt       bench/cmd/firstbyte's "run I first_byte_ms F"
  rss        REV.N.rss.I     GNU time -v of run I ("Maximum resident set
                             size (kbytes)"; warm-up runs, numbered below
                             zero, are left out)

and REV.out holds a digest of the command's output (sorted lines and exit
status) when it was checked. For each area in the order of cases.tsv this
prints a Markdown table (before and after medians over every sample of
every round, their ratio, the range of each, the range of the per-round
ratios of medians, whether the outputs were the same, and a verdict), and
writes every sample to OUT_DIR/bench-before.txt and OUT_DIR/bench-after.txt
in Go's benchmark format for benchstat, and to OUT_DIR/summary.txt the
number of cases where after was higher in every round and the number of
cases measured at both revisions.

Check the helpers with `python3 -m doctest bench/beforeafter_report.py`.
"""

import json
import os
import re
import sys

REVS = ("before", "after")


def median(xs):
    """The median of a non-empty list.

    >>> median([3, 1, 2])
    2
    >>> median([4, 1, 2, 3])
    2.5
    """
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def fmt(v):
    """A figure with three significant digits or more.

    >>> fmt(1234.5), fmt(56.78), fmt(3.14159), fmt(0.01234)
    ('1234', '56.8', '3.14', '0.0123')
    """
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def verdict(ratios):
    """What the per-round ratios (after ÷ before) say.

    >>> verdict([1.02, 0.99, 1.01])
    'within noise'
    >>> verdict([1.05, 1.02, 1.03])
    '**higher in every round**'
    >>> verdict([0.9, 0.95])
    'lower in every round'
    >>> verdict([1.1])
    'one round: no verdict'
    """
    if len(ratios) < 2:
        return "one round: no verdict"
    if min(ratios) > 1:
        return "**higher in every round**"
    if max(ratios) < 1:
        return "lower in every round"
    return "within noise"


def rss_mb(path):
    """Peak RSS in MB from a GNU time -v report, or None."""
    with open(path) as f:
        for line in f:
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", line)
            if m:
                return int(m.group(1)) / 1024
    return None


def parse_firstbyte(text):
    """First-byte times in ms from bench/cmd/firstbyte's output.

    >>> parse_firstbyte("run 1 first_byte_ms 12.5 exit_ms 20\\nsummary first_byte best 12.5 median 12.5\\n")
    [12.5]
    """
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0] == "run" and f[2] == "first_byte_ms":
            out.append(float(f[3]))
    return out


def samples(d, kind):
    """{rev: {round: [values]}} of one case directory (ms, or MB for rss)."""
    got = {r: {} for r in REVS}
    if not os.path.isdir(d):
        return got
    for name in sorted(os.listdir(d)):
        parts = name.split(".")
        if len(parts) < 3 or parts[0] not in REVS or not parts[1].isdigit():
            continue
        rev, rnd, rest = parts[0], int(parts[1]), ".".join(parts[2:])
        path = os.path.join(d, name)
        vals = []
        if kind == "hyperfine" and rest == "json":
            with open(path) as f:
                for res in json.load(f).get("results", []):
                    vals += [t * 1000 for t in res.get("times", [])]
        elif kind == "firstbyte" and rest == "txt":
            with open(path) as f:
                vals = parse_firstbyte(f.read())
        elif kind == "rss" and re.fullmatch(r"rss\.\d+", rest):
            v = rss_mb(path)
            vals = [] if v is None else [v]
        got[rev].setdefault(rnd, []).extend(vals)
    return got


def same_output(d):
    """'yes', '**no**' or '-' (not checked) for one case directory."""
    digests = []
    for rev in REVS:
        p = os.path.join(d, rev + ".out")
        if not os.path.exists(p):
            return "-"
        with open(p) as f:
            digests.append(f.read().strip())
    return "yes" if digests[0] == digests[1] else "**no**"


def bench_name(case_id):
    """A benchmark name for benchstat from a case id.

    >>> bench_name("search/grep -c/literal")
    'BenchmarkSearch/grep_-c/literal'
    """
    area, _, rest = case_id.partition("/")
    name = "Benchmark" + area[:1].upper() + area[1:]
    if rest:
        name += "/" + rest
    return re.sub(r"\s+", "_", name)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = argv[1]
    cases = []
    with open(os.path.join(out, "cases.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 4:
                cases.append(fields)
    bench = {rev: open(os.path.join(out, f"bench-{rev}.txt"), "w") for rev in REVS}
    area_seen = None
    higher = measured = 0
    for area, case_id, kind, desc in cases:
        unit = "MB" if kind == "rss" else "ms"
        if area != area_seen:
            if area_seen is not None:
                print()
            area_seen = area
            print(f"| {area} | before median | after median | after ÷ before | before min..max | after min..max | round ratios min..max | same output | verdict |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: | --- |")
        desc = desc.replace("|", "\\|")
        d = os.path.join(out, "data", case_id)
        got = samples(d, kind)
        pooled = {rev: [v for r in sorted(got[rev]) for v in got[rev][r]] for rev in REVS}
        for rev in REVS:
            for v in pooled[rev]:
                if kind == "rss":
                    bench[rev].write(f"{bench_name(case_id)} 1 {v * 1048576:.0f} peak-RSS-B\n")
                else:
                    bench[rev].write(f"{bench_name(case_id)} 1 {v * 1e6:.0f} ns/op\n")
        if not pooled["before"] or not pooled["after"]:
            print(f"| {desc} | - | - | - | - | - | - | {same_output(d)} | not measured (see the log) |")
            continue
        mb, ma = median(pooled["before"]), median(pooled["after"])
        rounds = sorted(set(got["before"]) & set(got["after"]))
        ratios = [median(got["after"][r]) / median(got["before"][r]) for r in rounds if got["after"][r] and got["before"][r]]
        rr = f"{min(ratios):.3f}..{max(ratios):.3f}" if ratios else "-"
        measured += 1
        higher += verdict(ratios).startswith("**higher")
        print(
            f"| {desc} | {fmt(mb)} {unit} | {fmt(ma)} {unit} | {ma / mb:.3f} "
            f"| {fmt(min(pooled['before']))}..{fmt(max(pooled['before']))} "
            f"| {fmt(min(pooled['after']))}..{fmt(max(pooled['after']))} "
            f"| {rr} | {same_output(d)} | {verdict(ratios)} |"
        )
    for f in bench.values():
        f.close()
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(f"{higher} {measured}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
