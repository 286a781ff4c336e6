package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// toolNames are the tools offered in the i-th request to the mock.
func toolNames(t *testing.T, r *agentRig, i int) []string {
	t.Helper()
	var body struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Srv.Requests()[i].Body, &body); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range body.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// The model asks gopls where a function is defined and gets the answer;
// with --no-lsp the tool is not offered.
func TestAgentLSPDefinition(t *testing.T) {
	gopls := lsptest.Need(t, "gopls")
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("lsp", map[string]any{"action": "definition", "file": "main.go", "line": 3, "symbol": "helper"})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("It is in util.go.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("No lsp here.")}},
	)
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("main.go", "package main\n\nfunc main() { println(helper()) }\n")
	r.Write("util.go", "package main\n\nfunc helper() int { return 1 }\n")
	for i, kv := range r.Environ {
		if strings.HasPrefix(kv, "PATH=") {
			r.Environ[i] = "PATH=" + filepath.Dir(gopls) + string(os.PathListSeparator) + kv[len("PATH="):]
		}
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "where is helper?")
	if code != 0 || out != "It is in util.go.\n" {
		t.Fatalf("%d %q %s", code, out, stderr)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(msgs, `Found 1 definition(s):\n  util.go:3:6`) {
		t.Fatalf("the tool result is not in the next request: %s", msgs)
	}
	if !contains(toolNames(t, r, 0), "lsp") {
		t.Fatalf("lsp not offered: %v", toolNames(t, r, 0))
	}
	if _, stderr, code := r.run("", "-p", "--no-lsp", "--model", "mock/mock-model", "again"); code != 0 {
		t.Fatalf("--no-lsp: %d %s", code, stderr)
	}
	if names := toolNames(t, r, 2); contains(names, "lsp") {
		t.Fatalf("lsp offered with --no-lsp: %v", names)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
