#!/usr/bin/env python3
"""release_faults.py — what the page faults of `gopi --version` touch, for
bench/release.sh.

  release_faults.py kinds BIN RUNS
      Records `BIN --version` RUNS times with `perf record -e page-faults -d`
      and prints a Markdown table of the mean number of faults per kind of
      memory: the binary's code, read-only data and writable data (by ELF
      section), the Go heap arena (objects and goroutine stacks) and the
      other anonymous mappings (runtime metadata, thread stacks, C heap, the
      process stack).

  release_faults.py inits BIN TOP
      Records `BIN --version` once with call chains (BIN must have symbols)
      and prints the TOP package initialisers by faults: each fault goes to
      the outermost `<package>.init` frame below runtime.doInit1 on its
      stack. Faults outside initialisers are grouped by what the stack shows
      (runtime start-up, goroutine stack growth, the dynamic loader, ...).

Run it as root or with kernel.perf_event_paranoid <= 1. Deep initialisers
(regexp compilation recurses hundreds of frames) need
kernel.perf_event_max_stack above its default of 127; bench/release.sh
raises it when it can.
"""
import collections
import re
import statistics
import subprocess
import sys
import tempfile

READ_ONLY = {".rodata", ".gopclntab", ".typelink", ".itablink", ".eh_frame", ".gcc_except_table"}


def sections(binary):
    """Address ranges of the binary's allocated ELF sections."""
    out = []
    text = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    for line in text.splitlines():
        p = line.replace("[ ", "[").split()
        if len(p) > 6 and p[0].startswith("[") and p[0][1:-1].isdigit():
            try:
                addr, size = int(p[3], 16), int(p[5], 16)
            except ValueError:
                continue
            if addr:
                out.append((addr, addr + size, p[1]))
    return out


def kind(secs, addr):
    """The kind of memory a faulting address is in."""
    for lo, hi, name in secs:
        if lo <= addr < hi:
            if name == ".text":
                return "binary: code (.text)"
            if name in READ_ONLY:
                return "binary: read-only data (.rodata, .gopclntab, ...)"
            return "binary: writable data (.data, .bss, ...)"
    if addr >= 0x7F0000000000:
        return "other anonymous memory (runtime metadata, thread stacks, C heap, process stack)"
    return "Go heap arena (objects, goroutine stacks)"


def record(binary, data, callchains):
    cmd = ["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", data]
    if callchains:
        cmd.append("-g")
    subprocess.run(cmd + [binary, "--version"], capture_output=True, check=True)


def kinds(binary, runs):
    secs = sections(binary)
    counts = collections.defaultdict(list)
    with tempfile.NamedTemporaryFile(suffix=".data") as f:
        for _ in range(runs):
            record(binary, f.name, False)
            c = collections.Counter()
            out = subprocess.run(["perf", "script", "-i", f.name, "-F", "addr"], capture_output=True, text=True, check=True).stdout
            for word in out.split():
                c[kind(secs, int(word, 16))] += 1
            c["total"] = sum(c.values())
            for k in set(c) | set(counts):
                counts[k].append(c.get(k, 0))
    print("| memory touched | faults (mean) | ± (std dev) |")
    print("| --- | ---: | ---: |")
    for k in sorted(counts, key=lambda k: (k == "total", -statistics.mean(counts[k]))):
        name = "**total**" if k == "total" else k
        print(f"| {name} | {statistics.mean(counts[k]):.0f} | {statistics.pstdev(counts[k]):.0f} |")


INIT = re.compile(r"^(.+)\.init(\.\d+)?$")


def culprit(syms):
    """Who a fault's call chain (innermost first) belongs to."""
    joined = " ".join(syms)
    if "runtime.doInit" in joined:
        owner = None
        for s in syms:
            if s.startswith("runtime.doInit"):
                break
            m = INIT.match(s)
            if m and not s.startswith("runtime."):
                owner = m.group(1)  # keep the outermost
        return owner or "(initialisers, frame not resolved)"
    if "runtime.newstack" in joined:
        return "(goroutine stack growth: copying to a new, larger stack)"
    if "main.main" in joined:
        return "(main.main: the command itself)"
    if any(k in joined for k in ("rt0_go", "schedinit", "mallocinit", "runtime.main")):
        return "(Go runtime: start-up, and heap growth on the system stack)"
    if any(k in joined for k in ("_dl_", "dl_main")):
        return "(dynamic loader, plain build only)"
    if "execve" in joined:
        return "(kernel: loading the executable)"
    if "mstart" in joined or "clone" in joined or "pthread" in joined:
        return "(other threads: scheduler, thread creation)"
    return "(other)"


def inits(binary, top):
    with tempfile.NamedTemporaryFile(suffix=".data") as f:
        record(binary, f.name, True)
        out = subprocess.run(["perf", "script", "--max-stack", "4096", "-i", f.name, "-F", "ip,sym"],
                             capture_output=True, text=True, check=True).stdout
    c = collections.Counter()
    for block in out.split("\n\n"):
        syms = []
        for line in block.strip().splitlines():
            p = line.split(None, 1)
            if len(p) == 2:
                syms.append(p[1])
        if syms:
            c[culprit(syms)] += 1
    total = sum(c.values())
    pkgs = [(k, v) for k, v in c.most_common() if not k.startswith("(")]
    print("| where | faults |")
    print("| --- | ---: |")
    for k, v in c.most_common():
        if k.startswith("("):
            print(f"| {k} | {v} |")
    for k, v in pkgs[:top]:
        print(f"| init of {k} | {v} |")
    print(f"| init of the other {len(pkgs[top:])} packages | {sum(v for _, v in pkgs[top:])} |")
    print(f"| **total** | {total} |")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("kinds", "inits"):
        sys.exit("usage: release_faults.py kinds BIN RUNS | inits BIN TOP")
    if sys.argv[1] == "kinds":
        kinds(sys.argv[2], int(sys.argv[3]))
    else:
        inits(sys.argv[2], int(sys.argv[3]))


if __name__ == "__main__":
    main()
