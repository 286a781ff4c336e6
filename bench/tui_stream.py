#!/usr/bin/env python3
"""bench/tui_stream.py — the CPU an interactive agent spends drawing one
streamed answer: a 24 KB Markdown answer streamed by gopi's mock LLM in
8-rune chunks every 5 ms (200 chunks a second), the agent in a 120×40 tmux
pane. Prints one line: "cpu_seconds wall_seconds chunks".

    tui_stream.py --gopi BIN --home DIR --cwd DIR [--env K=V]... -- AGENT ARGS...

The mock LLM (`BIN mockllm`) plays one turn; the agent runs in --cwd with
HOME=--home (models.yml for gopi and omp, pointing at the mock, are
written there). The CPU time is the
agent's process tree (user + system, from /proc, children reaped
included), from just before Enter sends the prompt to the moment the
answer's last line is on the screen.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import time

END = "END-OF-THE-24K-ANSWER"


def answer() -> str:
    """A 24 KB Markdown answer: headings, paragraphs, lists, code, tables."""
    parts = []
    i = 0
    while sum(len(p) for p in parts) < 24 * 1024 - 200:
        i += 1
        parts.append(f"## Step {i}: the handler's errors\n\n")
        parts.append(
            "The parser keeps **state** in `p.pos` and reports each error with its offset, "
            "so the caller can point at the exact byte; nothing is retried here and the "
            "buffer is reused between calls to keep allocations flat.\n\n"
        )
        parts.append(f"- read `handler_{i}.go`\n- wrap the error with its path\n- return early\n\n")
        parts.append("```go\nfunc (p *parser) next() (tok token, err error) {\n\tif p.pos >= len(p.src) {\n\t\treturn token{}, io.EOF\n\t}\n\treturn p.scan()\n}\n```\n\n")
        parts.append("| case | before | after |\n| --- | --- | --- |\n| empty | panic | io.EOF |\n| bad byte | skipped | error at offset |\n\n")
    parts.append(f"That is all.\n\n{END}\n")
    return "".join(parts)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu(pid: int) -> float:
    """User + system seconds of pid and its descendants (and the children
    they reaped)."""
    tick = os.sysconf("SC_CLK_TCK")
    children = {}
    stats = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                st = f.read()
        except OSError:
            continue
        fields = st[st.rindex(")") + 2:].split()
        ppid = int(fields[1])
        children.setdefault(ppid, []).append(int(d))
        stats[int(d)] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, 0)
        todo.extend(children.get(p, []))
    return total / tick


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gopi", required=True)
    ap.add_argument("--home", required=True)
    ap.add_argument("--cwd", required=True, help="the project the agent runs in")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--ready", default="mock-model", help="text on the screen once the agent is ready")
    ap.add_argument("agent", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.agent[1:] if a.agent and a.agent[0] == "--" else a.agent

    text = answer()
    script = os.path.join(a.home, "stream-script.json")
    with open(script, "w") as f:
        json.dump({"turns": [{"blocks": [{"type": "text", "text": text}], "chunkSize": 8, "chunkDelay": "5ms"}]}, f)
    port = free_port()
    mock = subprocess.Popen([a.gopi, "mockllm", "--script", script, "--addr", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for agent_dir in (".gopi/agent", ".omp/agent"):
        os.makedirs(os.path.join(a.home, agent_dir), exist_ok=True)
        with open(os.path.join(a.home, agent_dir, "models.yml"), "w") as f:
            f.write(f"providers:\n  mock:\n    baseUrl: http://127.0.0.1:{port}\n    api: anthropic-messages\n"
                    "    apiKey: MOCK_KEY\n    auth: apiKey\n    models:\n      - id: mock-model\n        name: Mock\n")
    sock = f"bench-tui-{os.getpid()}"
    tmux = lambda *args: subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True).stdout
    env = ["env", "-i", f"HOME={a.home}", f"PATH={os.environ['PATH']}", "MOCK_KEY=x", "TERM=xterm-256color", "LANG=C.UTF-8", *a.env]
    shell = "exec " + " ".join(subprocess.list2cmdline([c]) for c in env + cmd)
    try:
        tmux("new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "-c", a.cwd, shell)
        pid = int(tmux("display", "-p", "-t", "main", "#{pane_pid}").strip())
        deadline = time.time() + 60
        while a.ready not in tmux("capture-pane", "-p", "-t", "main"):
            if time.time() > deadline:
                sys.exit("the agent did not start: " + tmux("capture-pane", "-p", "-t", "main"))
            time.sleep(0.1)
        time.sleep(1)  # let start-up work settle (it is not what is measured)
        tmux("send-keys", "-t", "main", "-l", "answer at length")
        cpu0, t0 = tree_cpu(pid), time.time()
        tmux("send-keys", "-t", "main", "Enter")
        deadline = t0 + 300
        while END not in tmux("capture-pane", "-p", "-t", "main"):
            if time.time() > deadline:
                sys.exit("the answer did not end: " + tmux("capture-pane", "-p", "-t", "main"))
            time.sleep(0.1)
        cpu1, t1 = tree_cpu(pid), time.time()
        print(f"{cpu1 - cpu0:.3f} {t1 - t0:.3f} {(len(text) + 7) // 8}")
    finally:
        tmux("kill-server")
        mock.kill()
        mock.wait()


if __name__ == "__main__":
    main()
