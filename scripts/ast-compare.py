#!/usr/bin/env python3
"""ast-compare.py OURS.jsonl THEIRS.jsonl — compare two streams of ast-grep
style JSON matches (gopi ast grep --json, ast-grep run --json=stream) by
(file, byte start, byte end). Prints one summary line, then up to 20
differences per side. Exit status 0 when identical, 1 otherwise."""
import json
import sys


def load(path):
    out = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            m = json.loads(line)
            file = m["file"]
            while file.startswith("./"):
                file = file[2:]
            b = m["range"]["byteOffset"]
            out.add((file, b["start"], b["end"]))
    return out


ours, theirs = load(sys.argv[1]), load(sys.argv[2])
both = ours & theirs
union = ours | theirs
rate = 100.0 * len(both) / len(union) if union else 100.0
print(f"gopi {len(ours)}, ast-grep {len(theirs)}, common {len(both)}, agreement {rate:.2f}%")
for label, diff in (("gopi only", ours - theirs), ("ast-grep only", theirs - ours)):
    for i, (f, s, e) in enumerate(sorted(diff)):
        if i == 20:
            print(f"  {label}: ... {len(diff) - 20} more")
            break
        print(f"  {label}: {f} bytes {s}-{e}")
sys.exit(0 if ours == theirs else 1)
