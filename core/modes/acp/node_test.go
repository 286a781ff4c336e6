package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// serveEnv makes the test binary serve the protocol on its standard
// input and output instead of running tests: the Node client starts it as
// its agent.
const serveEnv = "GOPI_ACP_TEST_SERVE"

// requireNodeEnv, set to 1 (scripts/acp-client-test.sh does), makes a
// missing node or npm, or a failed install, a failure instead of a skip.
const requireNodeEnv = "GOPI_ACP_NODE_TEST"

func TestMain(m *testing.M) {
	mcptest.Main() // the test binary doubles as a fake MCP server
	if os.Getenv(serveEnv) == "1" {
		if err := Serve(context.Background(), os.Stdin, os.Stdout, Options{Version: "test", Log: os.Stderr}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// nodeSDKVersion is the @agentclientprotocol/sdk version the client is
// written for (testdata/node-client/package.json pins it).
const nodeSDKVersion = "2.4.0"

// nodeClient returns node and a directory outside the repository holding
// the client script and the library, installed with npm on first use.
func nodeClient(t *testing.T) (node, dir string) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv(requireNodeEnv) == "1" {
		skip = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("node is not installed: the test that drives gopi acp with the official TypeScript client needs node and npm")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		skip("npm is not installed: the test that drives gopi acp with the official TypeScript client needs node and npm")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		skip("no cache directory for the node client: %v", err)
	}
	dir = filepath.Join(cache, "gopi", "acp-node-client")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		skip("cannot create %s: %v", dir, err)
	}
	for _, name := range []string{"package.json", "client.mjs"} {
		data, err := os.ReadFile(filepath.Join("testdata", "node-client", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var installed struct{ Version string }
	if data, err := os.ReadFile(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err == nil {
		_ = json.Unmarshal(data, &installed)
	}
	if installed.Version != nodeSDKVersion {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			skip("npm install of @agentclientprotocol/sdk@%s in %s failed (no registry?): %v\n%s", nodeSDKVersion, dir, err, out)
		}
	}
	return node, dir
}

// The official TypeScript client library drives gopi acp as an editor
// would: initialize, a new session, a prompt whose answer streams a read
// and an edit (permission asked and allowed, the edit written through
// fs/write_text_file and shown as a diff), a prompt cancelled mid-answer,
// then session/load in a new agent process and one more prompt.
func TestNodeClient(t *testing.T) {
	if testing.Short() {
		t.Skip("starts node and two agent processes")
	}
	node, dir := nodeClient(t)
	r := newRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Reading it."), toolCallBlock("read", map[string]any{"path": "greet.go"})}},
		mockllm.Turn{Blocks: []mockllm.Block{toolCallBlock("edit", map[string]any{"path": "greet.go", "edits": []any{map[string]any{"old_text": `"Hello"`, "new_text": `"Hello, world!"`}}})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Done.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("This answer never ends: the server stalls after a few deltas.")}, StallAfterDeltas: 2, ChunkSize: 4},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Loaded.")}},
	)
	r.settings(`{"edit": {"mode": "replace"}, "acp": {"requirePermission": ["edit"]}}`)
	r.write(filepath.Join(r.project, "greet.go"), greetGo)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{serveEnv: "1"}
	for _, kv := range r.environ {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	cfg, _ := json.Marshal(map[string]any{"command": self, "args": []string{}, "env": env, "cwd": r.project})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), string(cfg))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the node client failed: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("node client: %s\nstderr:\n%s", strings.TrimSpace(stdout.String()), stderr.String())
	var summary struct{ OK bool }
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil || !summary.OK {
		t.Fatalf("summary %q: %v\n%s", stdout.String(), err, stderr.String())
	}
	if got := r.read("greet.go"); !strings.Contains(got, "Hello, world!") {
		t.Fatalf("greet.go: %s", got)
	}
	if n := len(r.llm.Requests()); n != 5 {
		t.Fatalf("%d provider requests, want 5", n)
	}
}
