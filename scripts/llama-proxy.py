#!/usr/bin/env python3
"""llama-proxy.py — a logging reverse proxy for scripts/llama-local.sh.

Usage: llama-proxy.py LISTEN_PORT UPSTREAM_URL LOG_FILE [FORCE_FILE]

Forwards every request to UPSTREAM_URL (e.g. http://127.0.0.1:8081) and
streams the response back unchanged, chunk by chunk, so server-sent events
arrive as the server sends them. Each exchange is appended to LOG_FILE as
one JSON line: method, path, the request body (parsed when it is JSON), the
response status and the raw response text. Standard library only; listens
on 127.0.0.1.

When FORCE_FILE exists and holds a tool name, the next chat request that
offers tools and names no tool_choice gets tool_choice set to that tool,
and the file is removed (one request only; the log entry says "forced").
llama-cpp-python streams tool calls only for a forced tool choice, so this
is how the script exercises gopi's tool-call path against the real server.
"""

import http.client
import json
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LISTEN_PORT = int(sys.argv[1])
UPSTREAM = urllib.parse.urlsplit(sys.argv[2])
LOG_FILE = sys.argv[3]
FORCE_FILE = sys.argv[4] if len(sys.argv) > 4 else None
LOG_LOCK = threading.Lock()
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


class Proxy(BaseHTTPRequestHandler):
    # HTTP/1.0: the response ends when the connection closes, so a streamed
    # body needs neither a length nor chunked encoding.
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):  # quiet: the JSON log is the record
        pass

    def _forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_HEADERS}
        conn = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=600)
        entry = {"method": self.command, "path": self.path}
        try:
            entry["request"] = json.loads(body) if body else None
        except ValueError:
            entry["request"] = body.decode("utf-8", "replace")
        body = self._maybe_force(entry, body)
        captured = []
        try:
            conn.request(self.command, self.path, body=body or None, headers=headers)
            resp = conn.getresponse()
            entry["status"] = resp.status
            self.send_response(resp.status)
            for k, v in resp.getheaders():
                if k.lower() not in HOP_HEADERS:
                    self.send_header(k, v)
            self.send_header("Connection", "close")
            self.end_headers()
            while True:
                chunk = resp.read1(65536)
                if not chunk:
                    break
                captured.append(chunk)
                self.wfile.write(chunk)
                self.wfile.flush()
        except (OSError, http.client.HTTPException) as exc:
            entry["proxy_error"] = str(exc)
            if "status" not in entry:
                self.send_error(502, "upstream unreachable: %s" % exc)
        finally:
            conn.close()
            entry["response"] = b"".join(captured).decode("utf-8", "replace")
            with LOG_LOCK, open(LOG_FILE, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")

    def _maybe_force(self, entry, body):
        """Applies a pending one-shot forced tool choice to a chat request."""
        req = entry.get("request")
        if not FORCE_FILE or not isinstance(req, dict) or not req.get("tools") or "tool_choice" in req:
            return body
        with LOG_LOCK:
            try:
                with open(FORCE_FILE, encoding="utf-8") as f:
                    name = f.read().strip()
                os.remove(FORCE_FILE)
            except OSError:
                return body
        entry["forced"] = name
        forced = dict(req, tool_choice={"type": "function", "function": {"name": name}})
        return json.dumps(forced).encode("utf-8")

    do_GET = do_POST = do_PUT = do_DELETE = _forward


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", LISTEN_PORT), Proxy).serve_forever()
