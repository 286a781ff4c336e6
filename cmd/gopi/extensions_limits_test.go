package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A before_provider_request handler that throws no longer ends the run
// in -p: the failure is reported on stderr and the request is sent as
// it was (with the change of the handler that did not fail).
func TestThrowingRequestHookStillSends(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("answered anyway")}})
	r.Write("req.js", `export default function (pi) {
	pi.on("before_provider_request", (e) => Object.assign({}, e.payload, { metadata: { user_id: "kept" } }));
	pi.on("before_provider_request", () => { throw new Error("the policy server is down"); });
}`)
	out, stderr, code := r.run("", "-p", "-e", "req.js", "hello")
	if code != 0 || !strings.Contains(out, "answered anyway") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if !strings.Contains(stderr, "req.js failed at before_provider_request: Error: the policy server is down") {
		t.Errorf("the failure was not reported: %q", stderr)
	}
	if reqs := r.Srv.Requests(); len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"user_id":"kept"`) {
		t.Errorf("requests: %d", len(reqs))
	}
}

// An extension tool that never answers no longer holds -p: past
// tools.extensionTimeoutMs its call fails with a result naming the
// setting, and the model gets it and goes on.
func TestStuckExtensionToolTimesOut(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("stuck", `{}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("gave up on it")}},
	)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("tools:\n  extensionTimeoutMs: 400\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("stuck.js", `export default function (pi) {
	pi.registerTool({ name: "stuck", description: "Never answers", parameters: { type: "object", properties: {} },
		execute() { return new Promise(() => {}); } });
}`)
	out, stderr, code := r.run("", "-p", "-e", "stuck.js", "use the stuck tool")
	if code != 0 || !strings.Contains(out, "gave up on it") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "The tool stuck did not finish within 400ms and was cancelled. If it needs longer, raise tools.extensionTimeoutMs (milliseconds) in the settings.") {
		t.Fatalf("%d requests; the last: %.2000s", len(reqs), reqs[len(reqs)-1].Body)
	}
}

// oddTool registers a tool whose parameters are a string.
const oddTool = `export default function (pi) {
	pi.registerTool({ name: "odd", description: "Has no real schema", parameters: "not a schema", execute: () => "ok" });
}`

// Extension tool parameters that are not a schema are still replaced by
// an empty object schema, but with a warning: on stderr in -p, and as a
// notify frame of type warning after ready over RPC.
func TestExtensionToolSchemaWarning(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("fine")}})
	r.Write("odd.js", oddTool)
	out, stderr, code := r.run("", "-p", "-e", "odd.js", "hello")
	if code != 0 || !strings.Contains(out, "fine") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	want := `odd.js (registerTool): the parameters of the tool odd are a string ("not a schema"), not a JSON Schema object; the tool is offered without parameters`
	if !strings.Contains(stderr, "gopi: warning: extension ") || !strings.Contains(stderr, want) {
		t.Errorf("stderr: %q", stderr)
	}
	if body := string(r.Srv.Requests()[0].Body); !strings.Contains(body, `"name":"odd"`) || !strings.Contains(body, `"input_schema":{"type":"object"}`) {
		t.Errorf("the tool as offered: %.3000s", body)
	}

	rr := startRPC(t, newAgentRig(t), "-e", filepath.Join(r.Project, "odd.js"))
	rr.Call("get_state", nil) // frames sent before its answer are in the transcript
	got := rr.Transcript()
	ready := strings.Index(got, `< {"type":"ready"}`)
	notify := strings.Index(got, `"method":"notify"`)
	if ready < 0 || notify < ready || !strings.Contains(got, `"notifyType":"warning"`) || !strings.Contains(got, strings.ReplaceAll(want, `"`, `\"`)) {
		t.Errorf("transcript:\n%s", got)
	}
}
