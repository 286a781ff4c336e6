package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// An omp-style TypeScript extension through -e in print mode against the
// mock LLM: its tool_call handler blocks a dangerous command (the model
// sees the reason), its pi.zod tool runs when the model calls it, its
// before_agent_start message reaches the first request; a broken
// extension beside it is reported and skipped.
func TestExtensionThroughFlag(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"rm -rf build"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("hello", `{"name":"gopi"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("all done")}},
	)
	ext := filepath.Join(r.Project, "guard.ts")
	if err := os.WriteFile(ext, []byte(`
import type { ExtensionAPI } from "@oh-my-pi/pi-coding-agent";
export default function (pi: ExtensionAPI) {
	const { z } = pi.zod;
	pi.on("before_agent_start", () => ({ message: { customType: "rules", content: "House rule: never delete build outputs.", display: false } }));
	pi.on("tool_call", async (event) => {
		if (event.toolName === "bash" && String(event.input.command).includes("rm -rf")) {
			return { block: true, reason: "Blocked by policy: no rm -rf" };
		}
	});
	pi.registerTool({
		name: "hello",
		description: "Greets someone by name",
		parameters: z.object({ name: z.string() }),
		async execute(_id: string, p: { name: string }) { return { content: [{ type: "text", text: "Hello, " + p.name + "!" }] }; },
	});
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(r.Project, "broken.js")
	os.WriteFile(broken, []byte("export default function (pi) { throw new Error('cannot start'); }"), 0o644)
	out, stderr, code := r.run("", "-p", "-e", ext, "-e", broken, "clean the build")
	if code != 0 || !strings.Contains(out, "all done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if !strings.Contains(stderr, "broken.js") || !strings.Contains(stderr, "cannot start") {
		t.Errorf("the broken extension was not reported: %q", stderr)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(string(reqs[0].Body), "House rule: never delete build outputs.") || !strings.Contains(string(reqs[0].Body), `"name":"hello"`) {
		t.Error("the first request lacks the extension's message or tool")
	}
	if !strings.Contains(string(reqs[1].Body), "Blocked by policy: no rm -rf") {
		t.Error("the block reason did not reach the model")
	}
	if !strings.Contains(string(reqs[2].Body), "Hello, gopi!") {
		t.Error("the extension's tool result did not reach the model")
	}

	// --no-extensions turns discovery off (the agent directory's
	// extensions/) and keeps the files given with -e, as omp's help says.
	r2 := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("plain")}}, mockllm.Turn{Blocks: []mockllm.Block{text("plain")}})
	os.WriteFile(filepath.Join(r2.Project, "guard.ts"), []byte("export default function (pi) { pi.registerTool({ name: 'hello', description: 'x', execute() { return 'x'; } }); }"), 0o644)
	discovered := filepath.Join(r2.AgentDir, "extensions")
	os.MkdirAll(discovered, 0o755)
	os.WriteFile(filepath.Join(discovered, "found.js"), []byte("export default function (pi) { pi.registerTool({ name: 'found', description: 'x', execute() { return 'x'; } }); }"), 0o644)
	if _, _, code := r2.run("", "-p", "--no-extensions", "-e", "guard.ts", "hi"); code != 0 {
		t.Fatal(code)
	}
	if body := string(r2.Srv.Requests()[0].Body); !strings.Contains(body, `"name":"hello"`) || strings.Contains(body, `"name":"found"`) {
		t.Error("--no-extensions should load the -e file and nothing discovered")
	}
	if _, _, code := r2.run("", "-p", "-e", "guard.ts", "hi"); code != 0 {
		t.Fatal(code)
	}
	if body := string(r2.Srv.Requests()[1].Body); !strings.Contains(body, `"name":"found"`) {
		t.Error("without --no-extensions the discovered extension should load")
	}
}

// Over RPC, a prompt naming an extension's command runs it (the model is
// not asked); the command acts on the session through pi.
func TestExtensionCommandOverRPC(t *testing.T) {
	r := newAgentRig(t)
	os.WriteFile(filepath.Join(r.Project, "namer.js"), []byte(`export default function (pi) {
		pi.registerCommand("name", { description: "names the session", handler: async (args) => { await pi.setSessionName("named by " + args); } });
	}`), 0o644)
	rr := startRPC(t, r, "-e", "namer.js")
	if resp := rr.Call("prompt", map[string]any{"message": "/name the extension"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	resp := rr.Call("get_state", nil)
	if !strings.Contains(string(resp.Data), `"sessionName":"named by the extension"`) {
		t.Errorf("state %s", resp.Data)
	}
	if n := len(r.Srv.Requests()); n != 0 {
		t.Errorf("%d model requests for a command", n)
	}
}
