package main

import (
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// A before_provider_request handler that throws no longer ends the run
// in -p: the failure is reported on stderr and the request is sent as
// it was (with the change of the handler that did not fail).
func TestThrowingRequestHookStillSends(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("answered anyway")}})
	r.write("req.js", `export default function (pi) {
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
	if reqs := r.srv.Requests(); len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"user_id":"kept"`) {
		t.Errorf("requests: %d", len(reqs))
	}
}
