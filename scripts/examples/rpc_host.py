#!/usr/bin/env python3
"""Drive gopi over RPC: send one prompt, print the answer as it streams,
and serve one host tool. Usage: rpc_host.py "your prompt" [gopi flags...]"""
import json, subprocess, sys

gopi = subprocess.Popen(["gopi", "--mode", "rpc", *sys.argv[2:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
send = lambda frame: (gopi.stdin.write(json.dumps(frame) + "\n"), gopi.stdin.flush())
tool = {"name": "clock", "description": "The host's current time", "parameters": {"type": "object", "properties": {}}}
send({"id": "1", "type": "set_host_tools", "tools": [tool]})
send({"id": "2", "type": "prompt", "message": sys.argv[1]})
for line in gopi.stdout:
    f = json.loads(line)
    if f["type"] == "message_update" and f["assistantMessageEvent"]["type"] == "text_delta":
        print(f["assistantMessageEvent"]["delta"], end="", flush=True)
    elif f["type"] == "host_tool_call":
        import time
        send({"type": "host_tool_result", "id": f["id"], "result": {"content": [{"type": "text", "text": time.ctime()}]}})
    elif f["type"] == "response" and not f["success"]:
        sys.exit(f"gopi: {f['command']}: {f['error']}")
    elif f["type"] == "agent_end":
        print()
        break
gopi.stdin.close()
gopi.wait()
