#!/usr/bin/env python3
"""rpc_roundtrip.py N CMD... — start CMD (an agent in RPC mode), wait for
its ready frame, send N commands one after the other (each waits for its
response), and print the total seconds. The command is get_state, or the
JSON object in $RPC_FRAME (e.g. {"type":"bash","command":"echo hi"}). Used by bench/rpc.sh for
gopi and omp alike, so both pay the same pipe and parsing costs."""
import json, os, subprocess, sys, time

n = int(sys.argv[1])
command = json.loads(os.environ.get("RPC_FRAME") or '{"type": "get_state"}')
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def frame():
    line = p.stdout.readline()
    if not line:
        sys.exit("the agent exited")
    return json.loads(line)

while frame().get("type") != "ready":
    pass
start = time.perf_counter()
for i in range(n):
    p.stdin.write(json.dumps({**command, "id": f"q{i}"}) + "\n")
    p.stdin.flush()
    while True:
        f = frame()
        if f.get("type") == "response" and f.get("id") == f"q{i}":
            if not f.get("success", True):
                sys.exit(f"the agent refused the command: {f.get('error')}")
            break
elapsed = time.perf_counter() - start
p.stdin.close()
p.wait(timeout=30)
print(f"{elapsed:.4f}")
