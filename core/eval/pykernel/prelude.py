"""Helpers every gopi Python kernel starts with: display(), file helpers
the eval tool's description lists, and the IPython-style magics.

Names starting with _gopi_ are the runner's hooks; the rest is for cells.
The runner executes this file in the cell namespace once per kernel.
"""

import base64 as _b64
import json as _json
import os as _os
import sys as _sys
import time as _time

from __main__ import send as _gopi_send, state as _gopi_state, sync_output as _gopi_sync  # noqa: E402  (the runner)

_STATUS_MIME = "application/x-omp-status"


class _Lazy:
    """A module imported on first use: most kernels never need it, and
    every import costs the first cell's start."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        import importlib

        return getattr(importlib.import_module(self._name), attr)


_difflib = _Lazy("difflib")
_shlex = _Lazy("shlex")
_subprocess = _Lazy("subprocess")


def _gopi_status(op, **data):
    """Sends a status event (what a helper did) beside the output."""
    event = {"op": op}
    event.update(data)
    _gopi_send({"type": "display", "id": _gopi_state.cell_id, "bundle": {_STATUS_MIME: event}})


def _gopi_bundle(value, data=True):
    """Returns the MIME bundle of a value, as a notebook would show it.
    With data, dicts, lists and tuples come as JSON (display()); a cell's
    last value shows as text only."""
    bundle = {}
    if hasattr(value, "_repr_mimebundle_"):
        try:
            got = value._repr_mimebundle_()
            if isinstance(got, tuple):
                got = got[0]
            if isinstance(got, dict):
                bundle.update(got)
        except Exception:
            pass
    for attr, mime in (("_repr_png_", "image/png"), ("_repr_jpeg_", "image/jpeg"),
                       ("_repr_markdown_", "text/markdown"), ("_repr_html_", "text/html"),
                       ("_repr_json_", "application/json")):
        if mime in bundle or not hasattr(value, attr):
            continue
        try:
            got = getattr(value, attr)()
        except Exception:
            continue
        if isinstance(got, tuple):
            got = got[0]
        if got is not None:
            bundle[mime] = got
    if "image/png" not in bundle and hasattr(value, "savefig") and callable(value.savefig):
        bundle["image/png"] = _gopi_png_of_figure(value)
    if "image/png" not in bundle and type(value).__module__.startswith("PIL."):
        import io

        buf = io.BytesIO()
        value.save(buf, format="PNG")
        bundle["image/png"] = buf.getvalue()
    for mime in ("image/png", "image/jpeg"):
        if isinstance(bundle.get(mime), (bytes, bytearray)):
            bundle[mime] = _b64.b64encode(bundle[mime]).decode("ascii")
    if data and isinstance(value, (dict, list, tuple)) and "application/json" not in bundle:
        try:
            bundle["application/json"] = _json.loads(_json.dumps(value, default=str))
        except (TypeError, ValueError):
            pass
    if "text/plain" not in bundle:
        bundle["text/plain"] = repr(value)  # display('x') shows 'x', as in IPython
    return bundle


def _gopi_png_of_figure(fig):
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    return buf.getvalue()


def _gopi_display(value, kind="display"):
    _gopi_sync()
    _gopi_send({"type": kind, "id": _gopi_state.cell_id, "bundle": _gopi_bundle(value, data=kind == "display")})


def display(*values):
    """Shows values in the cell's output: data as JSON, figures and images
    as pictures, anything else as its text."""
    for value in values:
        _gopi_display(value)


def _gopi_flush_figures():
    """Sends every open matplotlib figure as a PNG and closes it."""
    plt = _sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for num in list(plt.get_fignums()):
        fig = plt.figure(num)
        try:
            data = _b64.b64encode(_gopi_png_of_figure(fig)).decode("ascii")
            _gopi_send({"type": "display", "id": _gopi_state.cell_id,
                        "bundle": {"image/png": data}})
        finally:
            plt.close(fig)


def _gopi_path(path):
    path = _os.path.expanduser(str(path))
    if "://" in path:
        raise ValueError("%s is a URL; the helpers take file paths" % path)
    return _os.path.abspath(path)


def read(path, offset=1, limit=None):
    """Returns a file's text; offset and limit pick lines (1-based)."""
    with open(_gopi_path(path), encoding="utf-8", errors="replace") as f:
        if offset == 1 and limit is None:
            text = f.read()
        else:
            lines = f.read().splitlines(True)
            start = max(int(offset), 1) - 1
            end = None if limit is None else start + int(limit)
            text = "".join(lines[start:end])
    _gopi_status("read", path=str(path), chars=len(text))
    return text


def _gopi_put(path, content, mode, op):
    p = _gopi_path(path)
    _os.makedirs(_os.path.dirname(p), exist_ok=True)
    text = str(content)
    with open(p, mode, encoding="utf-8") as f:
        f.write(text)
    _gopi_status(op, path=p, chars=len(text))
    return p


def write(path, content):
    """Writes content to a file, making its directories; returns its path."""
    return _gopi_put(path, content, "w", "write")


def append(path, content):
    """Appends content to a file, making its directories; returns its path."""
    return _gopi_put(path, content, "a", "append")


def tree(path=".", max_depth=3, show_hidden=False):
    """Returns a directory tree as text, max_depth levels deep."""
    root = _gopi_path(path)
    out = [_os.path.basename(root.rstrip(_os.sep)) or root]

    def walk(d, prefix, depth):
        if depth >= max_depth:
            return
        try:
            names = sorted(_os.listdir(d))
        except OSError:
            return
        if not show_hidden:
            names = [n for n in names if not n.startswith(".")]
        for i, n in enumerate(names):
            last = i == len(names) - 1
            full = _os.path.join(d, n)
            isdir = _os.path.isdir(full) and not _os.path.islink(full)
            out.append(prefix + ("└── " if last else "├── ") + n + ("/" if isdir else ""))
            if isdir:
                walk(full, prefix + ("    " if last else "│   "), depth + 1)

    walk(root, "", 0)
    return "\n".join(out)


def diff(a, b):
    """Returns the unified diff between two files."""
    pa, pb = _gopi_path(a), _gopi_path(b)
    with open(pa, encoding="utf-8", errors="replace") as f:
        la = f.read().splitlines(True)
    with open(pb, encoding="utf-8", errors="replace") as f:
        lb = f.read().splitlines(True)
    return "".join(_difflib.unified_diff(la, lb, str(a), str(b)))


def env(key=None, value=None):
    """No argument: the environment as a dict; a key: its value; a key and
    a value: sets it and returns the value."""
    if key is None:
        return dict(_os.environ)
    if value is None:
        return _os.environ.get(key)
    _os.environ[key] = str(value)
    return str(value)


def sort(lines, reverse=False):
    """Sorts lines (a list, or text split at newlines)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    return sorted(lines, reverse=reverse)


def uniq(lines):
    """Drops repeated lines, keeping the first of each."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    return list(dict.fromkeys(lines))


def counter(items):
    """Counts items (lines of text or a list), most common first."""
    from collections import Counter

    if isinstance(items, str):
        items = items.splitlines()
    return Counter(items).most_common()


def output(*ids, format="raw", query=None, offset=None, limit=None):
    """Reads the saved output of a subagent task or a spilled tool output by
    id; several ids give a list. format="json" parses it, query picks a
    dotted path in it, offset/limit pick lines."""
    base = _os.environ.get("PI_ARTIFACTS_DIR", "")
    if not base:
        raise RuntimeError("output() needs a session with saved outputs; this kernel has none")
    results = []
    for oid in ids:
        oid = str(oid)
        candidates = [_os.path.join(base, oid + ".md"), _os.path.join(base, oid)]
        candidates += [_os.path.join(base, n) for n in sorted(_os.listdir(base)) if n.startswith(oid + ".")]
        found = next((c for c in candidates if _os.path.isfile(c)), None)
        if found is None:
            raise FileNotFoundError("no saved output %r in %s" % (oid, base))
        with open(found, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if offset is not None or limit is not None:
            lines = text.splitlines(True)
            start = max(int(offset or 1), 1) - 1
            text = "".join(lines[start:None if limit is None else start + int(limit)])
        value = text
        if format == "json" or query:
            value = _json.loads(text)
            for part in (query or "").split("."):
                if part:
                    value = value[int(part)] if isinstance(value, list) else value[part]
        results.append(value)
    return results[0] if len(results) == 1 else results


# ---- magics ---------------------------------------------------------------


class SList(list):
    """The lines a !command printed; .n joins them with newlines, .s with
    spaces, as IPython's."""

    def __init__(self, lines, returncode=0):
        super().__init__(lines)
        self.returncode = returncode

    @property
    def n(self):
        return "\n".join(self)

    @property
    def s(self):
        return " ".join(self)


def _gopi_shell(cmd, capture=False):
    if not capture:
        _sys.stdout.flush()
        _sys.stderr.flush()
        _subprocess.run(cmd, shell=True)
        return None
    done = _subprocess.run(cmd, shell=True, stdout=_subprocess.PIPE, text=True, errors="replace")
    return SList(done.stdout.splitlines(), done.returncode)


def _gopi_eval(expr):
    ns = _gopi_user_ns()
    return eval(compile(expr, "<magic>", "eval"), ns)


def _gopi_user_ns():
    return globals()


def _magic_pip(args):
    before = set(_sys.modules)
    _sys.stdout.flush()
    done = _subprocess.run([_sys.executable, "-m", "pip"] + _shlex.split(args))
    import importlib

    importlib.invalidate_caches()
    named = {a.split("=")[0].split("<")[0].split(">")[0].replace("-", "_").lower()
             for a in _shlex.split(args)[1:] if not a.startswith("-")}
    for mod in list(_sys.modules):
        if mod not in before or mod.split(".")[0].lower() in named:
            _sys.modules.pop(mod, None)
    if done.returncode != 0:
        raise RuntimeError("pip exited with status %d" % done.returncode)


def _magic_cd(args):
    target = _os.path.expanduser(args.strip() or "~")
    _os.chdir(target)
    _gopi_status("cd", path=_os.getcwd())
    return _os.getcwd()


def _magic_ls(args):
    return sorted(_os.listdir(_os.path.expanduser(args.strip() or ".")))


def _magic_env(args):
    args = args.strip()
    if not args:
        return dict(_os.environ)
    if "=" in args:
        k, v = args.split("=", 1)
        _os.environ[k.strip()] = v.strip()
        return None
    return _os.environ.get(args)


def _magic_set_env(args):
    parts = args.strip().split(None, 1)
    if len(parts) != 2:
        raise NameError("UsageError: %set_env needs a name and a value: %set_env KEY VALUE")
    _os.environ[parts[0]] = parts[1]


def _magic_time(args):
    start = _time.perf_counter()
    value = _gopi_eval(args)
    ms = (_time.perf_counter() - start) * 1000
    print("Wall time: %.3f ms" % ms)
    _gopi_status("time", ms=round(ms, 3))
    return value


def _timeit(run):
    number, total = 1, 0.0
    while True:
        start = _time.perf_counter()
        for _ in range(number):
            run()
        total = _time.perf_counter() - start
        if total >= 0.2 or number >= 1_000_000:
            break
        number *= 10
    best = total
    for _ in range(4):
        start = _time.perf_counter()
        for _ in range(number):
            run()
        best = min(best, _time.perf_counter() - start)
    per = best / number
    unit, scale = ("s", 1) if per >= 1 else ("ms", 1e3) if per >= 1e-3 else ("µs", 1e6) if per >= 1e-6 else ("ns", 1e9)
    print("%.3g %s per loop (best of 5 runs, %d loop%s each)" % (per * scale, unit, number, "" if number == 1 else "s"))
    _gopi_status("timeit", ms=per * 1000, loops=number)


def _magic_timeit(args):
    code = compile(args, "<timeit>", "eval")
    ns = _gopi_user_ns()
    _timeit(lambda: eval(code, ns))


def _magic_who(_args):
    return sorted(n for n in _gopi_user_ns() if not n.startswith("_") and n not in _gopi_prelude_names)


def _magic_whos(_args):
    ns = _gopi_user_ns()
    return [(n, type(ns[n]).__name__) for n in _magic_who("")]


def _magic_reset(_args):
    ns = _gopi_user_ns()
    for n in list(ns):
        if n not in _gopi_prelude_names:
            del ns[n]


def _magic_load(args):
    with open(_os.path.expanduser(args.strip()), encoding="utf-8") as f:
        src = f.read()
    exec(compile(src, args.strip(), "exec"), _gopi_user_ns())


def _magic_run(args):
    import runpy

    parts = _shlex.split(args)
    if not parts:
        raise NameError("UsageError: %run needs a file: %run script.py [args]")
    saved = _sys.argv
    _sys.argv = parts
    try:
        got = runpy.run_path(_os.path.expanduser(parts[0]), run_name="__main__")
    finally:
        _sys.argv = saved
    ns = _gopi_user_ns()
    for k, v in got.items():
        if not k.startswith("__"):
            ns[k] = v


_LINE_MAGICS = {
    "pip": _magic_pip, "cd": _magic_cd, "pwd": lambda _a: _os.getcwd(), "ls": _magic_ls,
    "env": _magic_env, "set_env": _magic_set_env, "time": _magic_time, "timeit": _magic_timeit,
    "who": _magic_who, "whos": _magic_whos, "reset": _magic_reset, "load": _magic_load, "run": _magic_run,
}


def _gopi_magic(name, args):
    fn = _LINE_MAGICS.get(name)
    if fn is None:
        raise NameError("UsageError: no line magic %%%s; gopi has %s" % (name, ", ".join("%" + n for n in sorted(_LINE_MAGICS))))
    return fn(args)


class _Captured:
    def __init__(self, out, err):
        self.stdout, self.stderr = out, err

    def show(self):
        _sys.stdout.write(self.stdout)
        _sys.stderr.write(self.stderr)

    def __repr__(self):
        return "<captured output: %d chars stdout, %d chars stderr>" % (len(self.stdout), len(self.stderr))


def _cell_shell(shell, body):
    _sys.stdout.flush()
    _sys.stderr.flush()
    return _subprocess.run([shell, "-c", body]).returncode


def _cell_capture(args, body):
    import io

    out, err = io.StringIO(), io.StringIO()
    saved = _sys.stdout, _sys.stderr
    _sys.stdout, _sys.stderr = out, err
    try:
        exec(compile(body, "<capture>", "exec"), _gopi_user_ns())
    finally:
        _sys.stdout, _sys.stderr = saved
    cap = _Captured(out.getvalue(), err.getvalue())
    if args.strip():
        _gopi_user_ns()[args.strip().split()[0]] = cap
    return None


def _cell_timeit(_args, body):
    code = compile(body, "<timeit>", "exec")
    ns = _gopi_user_ns()
    _timeit(lambda: exec(code, ns))


def _cell_writefile(args, body):
    parts = _shlex.split(args)
    append_mode = "-a" in parts
    paths = [p for p in parts if p != "-a"]
    if not paths:
        raise NameError("UsageError: %%writefile needs a file: %%writefile [-a] path")
    p = _os.path.abspath(_os.path.expanduser(paths[0]))
    print("%s %s" % ("Appending to" if append_mode and _os.path.exists(p) else "Writing", paths[0]))
    with open(p, "a" if append_mode else "w", encoding="utf-8") as f:
        f.write(body if body.endswith("\n") else body + "\n")


_CELL_MAGICS = {
    "bash": lambda _a, body: _cell_shell("bash", body),
    "sh": lambda _a, body: _cell_shell("sh", body),
    "capture": _cell_capture,
    "timeit": _cell_timeit,
    "writefile": _cell_writefile,
}


def _gopi_cell_magic(name, args, body):
    fn = _CELL_MAGICS.get(name)
    if fn is None:
        raise NameError("UsageError: no cell magic %%%%%s; gopi has %s" % (name, ", ".join("%%" + n for n in sorted(_CELL_MAGICS))))
    return fn(args, body)  # %%bash and %%sh: the exit status, shown as the cell's value


def _gopi_transform(src):
    """Rewrites IPython syntax (%magic, %%cell magic, !command and their
    assignment forms) to calls; the runner uses it only for cells that are
    not plain Python."""
    lines = src.split("\n")
    first = next((i for i, l in enumerate(lines) if l.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        head = lines[first].strip()[2:].split(None, 1)
        body = "\n".join(lines[first + 1:])
        return "_gopi_cell_magic(%r, %r, %r)" % (head[0] if head else "", head[1] if len(head) > 1 else "", body)
    out = []
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        target = ""
        rest = stripped
        if "=" in stripped and not stripped.startswith(("%", "!")):
            lhs, rhs = stripped.split("=", 1)
            if rhs.lstrip().startswith(("%", "!")) and lhs.strip().replace(",", "").replace(" ", "").replace("_", "a").isalnum():
                target, rest = lhs.strip() + " = ", rhs.lstrip()
        if rest.startswith("!"):
            out.append("%s%s_gopi_shell(%r, capture=%s)" % (indent, target, rest[1:].strip(), bool(target)))
        elif rest.startswith("%") and not rest.startswith("%%"):
            parts = rest[1:].split(None, 1)
            out.append("%s%s_gopi_magic(%r, %r)" % (indent, target, parts[0] if parts else "", parts[1] if len(parts) > 1 else ""))
        else:
            out.append(line)
    return "\n".join(out)
