#!/usr/bin/env python3
"""How much of the Go source that holds a literal lies in top-level
declarations holding it: an estimate of what parsing only those
declarations (tree-sitter included ranges) would save an AST search after
its literal prefilter. Splits before lines starting with func, type, var,
const or import (it does not look inside raw strings, so it is an estimate).

Usage: bench/ast-toplevel-estimate.py DIR LITERAL...
"""
import os
import re
import sys

SPLIT = re.compile(rb"\n(?=func |type |var |const |import )")


def estimate(root, lit):
    files = total = inside = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if not name.endswith(".go"):
                continue
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            if lit not in data:
                continue
            files += 1
            total += len(data)
            starts = [0] + [m.start() + 1 for m in SPLIT.finditer(data)] + [len(data)]
            inside += sum(b - a for a, b in zip(starts, starts[1:]) if lit in data[a:b])
    return files, total, inside


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for lit in sys.argv[2:]:
        files, total, inside = estimate(sys.argv[1], lit.encode())
        share = inside / total if total else 0
        print(f"{lit!r}: {files} files, {total / 1e6:.1f} MB hold it; "
              f"{inside / 1e6:.2f} MB in the declarations that do ({share:.0%})")


if __name__ == "__main__":
    main()
