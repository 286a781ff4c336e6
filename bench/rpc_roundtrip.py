#!/usr/bin/env python3
"""rpc_roundtrip.py N CMD... — start CMD (an agent in RPC mode), wait for
its ready frame, send N get_state commands one after the other (each waits
for its response), and print the total seconds. Used by bench/rpc.sh for
gopi and omp alike, so both pay the same pipe and parsing costs."""
import json, subprocess, sys, time

n = int(sys.argv[1])
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
    p.stdin.write(json.dumps({"id": f"q{i}", "type": "get_state"}) + "\n")
    p.stdin.flush()
    while True:
        f = frame()
        if f.get("type") == "response" and f.get("id") == f"q{i}":
            break
elapsed = time.perf_counter() - start
p.stdin.close()
p.wait(timeout=30)
print(f"{elapsed:.4f}")
