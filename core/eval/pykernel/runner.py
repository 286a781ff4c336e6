"""gopi's Python kernel: one long-lived interpreter that runs cells for the
eval tool and talks to gopi in NDJSON (one JSON object per line).

gopi writes requests on our standard input:
    {"id": "7", "code": "..."}        run a cell
    {"type": "exit"}                  leave
and reads frames from our standard output:
    {"type": "stdout"|"stderr", "id", "bytes": N} and then N raw bytes
    {"type": "display"|"result", "id", "bundle": {mime: value}}
    {"type": "error", "id", "ename", "evalue", "traceback": [...]}
    {"type": "done", "id", "status": "ok"|"error", "executionCount",
     "cancelled", "stdinRequested"}

The protocol uses private copies of descriptors 0 and 1. Descriptors 1
and 2 become pipes that two threads turn into stdout/stderr frames, so
the output of child processes (os.system, subprocess, %%bash) is caught
like print's, and descriptor 0 is /dev/null: nothing a cell starts can
read our requests. SIGINT raises KeyboardInterrupt only while a cell runs. Output travels as
raw bytes after its frame line, not as a JSON string: escaping is what
would limit a cell that prints a gigabyte.
"""

import ast
import base64
import builtins
import io
import json
import linecache
import os
import signal
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CHUNK = 64 * 1024

_requests = os.fdopen(os.dup(0), "rb", buffering=0)
_frames = os.fdopen(os.dup(1), "wb", buffering=0)
_frames_lock = threading.Lock()
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)


def send(frame):
    line = json.dumps(frame, default=str).encode("ascii") + b"\n"
    with _frames_lock:
        _frames.write(line)


def send_output(kind, data):
    """Sends output bytes: a frame line saying how many, then the bytes."""
    head = ('{"type": "%s", "id": %s, "bytes": %d}\n' % (kind, json.dumps(state.cell_id), len(data))).encode("ascii")
    with _frames_lock:
        _frames.write(head)
        _frames.write(data)


class State:
    cell_id = ""
    in_cell = False
    count = 0
    stdin_requested = False


state = State()


class Pump(threading.Thread):
    """Reads one redirected descriptor and sends what arrives as frames.
    sync() waits until everything written before it has been sent."""

    def __init__(self, fd, kind):
        super().__init__(daemon=True)
        r, w = os.pipe()
        os.dup2(w, fd)
        os.close(w)
        self.fd, self.read_end, self.kind = fd, r, kind
        self.marker = b"\x00\x1fgopi-sync-" + kind.encode() + b"\x1f\x00"
        self.seen = threading.Event()

    def emit(self, data):
        if data:
            send_output(self.kind, data)

    def run(self):
        pending = b""
        while True:
            try:
                data = os.read(self.read_end, CHUNK)
            except InterruptedError:
                continue
            if not data:
                return
            pending += data
            while True:
                at = pending.find(self.marker)
                if at < 0:
                    break
                self.emit(pending[:at])
                pending = pending[at + len(self.marker):]
                self.seen.set()
            cut = len(pending) - self.partial_marker(pending)
            if cut > 0:
                self.emit(pending[:cut])
                pending = pending[cut:]

    def partial_marker(self, data):
        """How many bytes at the end of data could begin a marker: those are
        held back until the next read tells."""
        for n in range(min(len(data), len(self.marker) - 1), 0, -1):
            if data.endswith(self.marker[:n]):
                return n
        return 0

    def sync(self):
        self.seen.clear()
        os.write(self.fd, self.marker)
        self.seen.wait(5)


def _flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def sync_output():
    """Sends everything printed so far, before a frame that must follow it."""
    _flush_std()
    out_pump.sync()
    err_pump.sync()


class Flusher(threading.Thread):
    """Flushes buffered print output every 100 ms while a cell runs, so
    gopi sees progress without a system call per line."""

    def __init__(self):
        super().__init__(daemon=True)

    def run(self):
        while True:
            time.sleep(0.1)
            if state.in_cell:
                _flush_std()


class StdinRefused(RuntimeError):
    """Raised when a cell asks for input: there is nobody to answer."""


def _refuse_input(*_args, **_kwargs):
    state.stdin_requested = True
    raise StdinRefused("input is not available: the eval tool runs cells without a user; pass the data in the code")


class _NoStdin(io.TextIOBase):
    def readable(self):
        return True

    def read(self, *_args):
        return _refuse_input()

    readline = read

    def fileno(self):
        return 0


def _on_sigint(_signum, _frame):
    if state.in_cell:
        raise KeyboardInterrupt


def _source_name(n):
    return "<cell %d>" % n


def _compile_cell(src, name):
    """Compiles a cell as statements plus, when it ends with an expression,
    that expression apart (its value is shown). Top-level await works."""
    flags = getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
    tree = ast.parse(src, name, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, name, "exec", flags=flags, dont_inherit=True)
    tail = compile(last, name, "eval", flags=flags, dont_inherit=True) if last is not None else None
    return body, tail


_loop = None


def _run_code(code, ns):
    global _loop
    value = eval(code, ns)
    if code.co_flags & 0x80:  # CO_COROUTINE: the cell awaited at top level
        import asyncio

        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            asyncio.set_event_loop(_loop)
        value = _loop.run_until_complete(value)
    return value


def _trim_traceback(tb):
    """Drops the runner's own frames from the front of a traceback."""
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def _report(exc):
    import traceback

    tb = _trim_traceback(exc.__traceback__)
    if isinstance(exc, NameError) and str(exc).startswith("UsageError: "):
        lines = [str(exc) + "\n"]  # a magic used wrongly: the message says it all
    elif isinstance(exc, SyntaxError):
        lines = traceback.format_exception_only(type(exc), exc)
    else:
        lines = traceback.format_exception(type(exc), exc, tb)
    send({"type": "error", "id": state.cell_id, "ename": type(exc).__name__, "evalue": str(exc), "traceback": lines})


def run_cell(rid, code, ns):
    state.cell_id = rid
    state.count += 1
    state.stdin_requested = False
    name = _source_name(state.count)
    status, cancelled = "ok", False
    state.in_cell = True
    try:
        src = code
        try:
            ast.parse(src)
        except SyntaxError:
            src = ns["_gopi_transform"](code)
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        body, tail = _compile_cell(src, name)
        _run_code(body, ns)
        if tail is not None:
            value = _run_code(tail, ns)
            if value is not None:
                ns["_"] = value
                ns["_gopi_display"](value, kind="result")
    except KeyboardInterrupt as exc:
        status, cancelled = "error", True
        state.in_cell = False
        _report(exc)
    except BaseException as exc:  # SystemExit included: the kernel stays
        state.in_cell = False
        status = "error"
        if not state.stdin_requested:
            _report(exc)
    finally:
        state.in_cell = False
    try:
        ns["_gopi_flush_figures"]()
    except Exception as exc:
        send_output("stderr", ("could not render the figures: %s\n" % exc).encode("utf-8", "replace"))
    sync_output()
    send({"type": "done", "id": rid, "status": status, "executionCount": state.count,
          "cancelled": cancelled, "stdinRequested": state.stdin_requested})


def _load_prelude(ns):
    path = os.path.join(HERE, "prelude.py")
    with open(path, encoding="utf-8") as f:
        src = f.read()
    exec(compile(src, path, "exec"), ns)


def new_namespace():
    ns = {"__name__": "__main__", "__builtins__": builtins}
    _load_prelude(ns)
    ns["_gopi_prelude_names"] = frozenset(ns) | {"_gopi_prelude_names"}
    return ns


out_pump = Pump(1, "stdout")
err_pump = Pump(2, "stderr")


def main():
    os.environ.setdefault("MPLBACKEND", "Agg")
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", buffering=CHUNK, closefd=False), encoding="utf-8",
                                  errors="backslashreplace", write_through=False)
    sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", buffering=CHUNK, closefd=False), encoding="utf-8",
                                  errors="backslashreplace", write_through=False)
    sys.stdin = _NoStdin()
    builtins.input = _refuse_input
    out_pump.start()
    err_pump.start()
    Flusher().start()
    signal.signal(signal.SIGINT, _on_sigint)
    ns = new_namespace()
    while True:
        try:
            line = _requests.readline()
            if not line:
                return
            req = json.loads(line)
            if req.get("type") == "exit":
                return
            run_cell(str(req.get("id", "")), req.get("code", ""), ns)
        except KeyboardInterrupt:
            continue  # a late interrupt, after its cell ended


if __name__ == "__main__":
    main()
    _flush_std()
    os._exit(0)
