#!/usr/bin/env python3
"""bench/symsize.py — where a Go binary's growth comes from, by package.

Usage: symsize.py BEFORE_BINARY AFTER_BINARY [GROUP=PREFIX[,PREFIX...]]...

Both binaries must be unstripped (no -s -w): the symbol sizes come from
`go tool nm -size`. Each symbol is given to the package its name starts
with (type descriptors, "type:*pkg.T", and itabs go to the type's package;
a generic instance to the package of its function), BSS is left out (it
takes no room in the file). The packages are then put in groups: a group
GROUP=PREFIX,... takes every package whose path starts with one of the
prefixes (the first group that matches wins); what matches no group is
"rest" (C and Rust symbols of a cgo library count as packages named
by their symbol's start, so give a catch-all group "*" to hold them),
and symbols that name no package (go:func.*, anonymous types...) are
"unattributed", their largest growths listed by symbol. Not in any
symbol's size: the function tables (.gopclntab) and string data, which
grow with the code and strings of every package; compare the binaries'
sections (readelf -SW) for those. Prints a Markdown table of the groups:
before, after and growth in bytes, then the 20 packages that grew most.

Check the helpers with `python3 -m doctest bench/symsize.py`.
"""

import collections
import subprocess
import sys


def package_of(name):
    """The package path a symbol name starts with, or "" for none.

    >>> package_of("github.com/aws/smithy-go/middleware.(*Stack).ID")
    'github.com/aws/smithy-go/middleware'
    >>> package_of("type:*github.com/gopi-agent/gopi/core/auth.Store")
    'github.com/gopi-agent/gopi/core/auth'
    >>> package_of("go:itab.*net/http.Transport,net/http.RoundTripper")
    'net/http'
    >>> package_of("slices.SortFunc[go.shape.*uint8,go.shape.func(*example.com/a.T) int]")
    'slices'
    >>> package_of("runtime.mallocgc"), package_of("go:string.*"), package_of("runtime.pclntab")
    ('runtime', '', '')
    >>> package_of("modernc.org/libc.Xmalloc"), package_of("type:func(*github.com/a/b.T) error")
    ('modernc.org/libc', '')
    >>> package_of("maps.Clone[go.shape.map[string]int]"), package_of("type:map[string]*net/http.Cookie")
    ('maps', '')
    """
    if name in ("runtime.pclntab", "runtime.epclntab", "runtime.findfunctab", "runtime.noptrdata",
                "runtime.data", "runtime.rodata", "runtime.types", "runtime.etypes", "runtime.text"):
        return ""
    for p in ("go:itab.*", "go:itab.", "type:*", "type:.eq.", "type:", "go:info.", "go:cuinfo."):
        if name.startswith(p):
            name = name[len(p):]
            break
    else:
        if name.startswith("go:"):
            return ""
    if not name or name[0] in "*[]({ " or name.startswith(("func(", "struct ", "struct{", "interface ", "interface{", "chan ", "map[")):
        return ""
    name = name.split("[", 1)[0].split(",", 1)[0]
    slash = name.rfind("/")
    dot = name.find(".", slash + 1)
    if dot <= 0:
        return ""
    pkg = name[:dot]
    if " " in pkg or "(" in pkg:
        return ""
    return pkg


def sizes(binary):
    """{package: bytes} and {unattributed symbol: bytes} of one binary."""
    out = subprocess.run(["go", "tool", "nm", "-size", binary], check=True, capture_output=True, text=True).stdout
    pkgs = collections.Counter()
    other = collections.Counter()
    for line in out.splitlines():
        f = line.split(None, 3)
        if len(f) < 4 or not f[1].isdigit():
            continue
        size, kind, name = int(f[1]), f[2], f[3]
        if kind in "BbU":
            continue
        pkg = package_of(name)
        if pkg:
            pkgs[pkg] += size
        else:
            other[name] += size
    return pkgs, other


def group_of(pkg, groups):
    for g, prefixes in groups:
        if any(pkg == p or pkg.startswith(p.rstrip("/") + "/") or (p.endswith("*") and pkg.startswith(p[:-1])) for p in prefixes):
            return g
    return "rest"


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    groups = []
    for a in argv[3:]:
        g, _, ps = a.partition("=")
        groups.append((g, ps.split(",")))
    (bp, bo), (ap, ao) = sizes(argv[1]), sizes(argv[2])
    tot = {}
    for rev, pk, ot in (("before", bp, bo), ("after", ap, ao)):
        t = collections.Counter()
        for pkg, n in pk.items():
            t[group_of(pkg, groups)] += n
        t["unattributed"] = sum(ot.values())
        tot[rev] = t
    names = [g for g, _ in groups] + ["rest", "unattributed"]
    print("| group | before B | after B | growth B | growth MB |")
    print("| --- | ---: | ---: | ---: | ---: |")
    sb = sa = 0
    for g in names:
        b, a = tot["before"][g], tot["after"][g]
        sb += b
        sa += a
        print(f"| {g} | {b:,} | {a:,} | {a - b:+,} | {(a - b) / 1e6:+.3f} |")
    print(f"| **all symbols** | {sb:,} | {sa:,} | {sa - sb:+,} | {(sa - sb) / 1e6:+.3f} |")
    print()
    print("| package (20 largest growths) | group | before B | after B | growth B |")
    print("| --- | --- | ---: | ---: | ---: |")
    growth = sorted((p for p in set(bp) | set(ap) if ap.get(p, 0) != bp.get(p, 0)), key=lambda p: ap.get(p, 0) - bp.get(p, 0), reverse=True)
    for p in growth[:20]:
        print(f"| {p} | {group_of(p, groups)} | {bp.get(p, 0):,} | {ap.get(p, 0):,} | {ap.get(p, 0) - bp.get(p, 0):+,} |")
    print()
    print("| unattributed symbol (5 largest growths) | before B | after B | growth B |")
    print("| --- | ---: | ---: | ---: |")
    og = sorted((s for s in set(bo) | set(ao) if ao.get(s, 0) != bo.get(s, 0)), key=lambda s: ao.get(s, 0) - bo.get(s, 0), reverse=True)
    for s in og[:5]:
        shown = s if len(s) <= 60 else s[:59] + "…"
        print(f"| `{shown}` | {bo.get(s, 0):,} | {ao.get(s, 0):,} | {ao.get(s, 0) - bo.get(s, 0):+,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
