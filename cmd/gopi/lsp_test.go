package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
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

// The model reads a Go file, warms gopls with the lsp tool, breaks the
// file with an edit and reads gopls' type error in that edit's own
// result, then fixes it and the next edit's result says the file is clean
// again: the session's language servers are the edit tool's diagnostics.
// Last, a gopls command's own edit (workspace/applyEdit) is written by
// the session.
func TestAgentEditDiagnostics(t *testing.T) {
	gopls := lsptest.Need(t, "gopls")
	const mainGo = "package main\n\nfunc value() int {\n\treturn 1\n}\n\nfunc main() { println(value()) }\n"
	breakIt := "@@ main.go\n= " + hashline.Anchor(4, "\treturn 1") + ".." + hashline.Anchor(4, "\treturn 1") + "\n~\treturn \"one\"\n"
	fixIt := "@@ main.go\n= " + hashline.Anchor(4, "\treturn \"one\"") + ".." + hashline.Anchor(4, "\treturn \"one\"") + "\n~\treturn 2\n"
	r := newAgentRig(t)
	// gopls' own edit: the command asks the client to apply it
	// (workspace/applyEdit), which the session writes.
	addImport := `{"command":"gopls.add_import","arguments":[{"ImportPath":"strings","URI":"` + string(protocol.FileURI(filepath.Join(r.Project, "main.go"))) + `"}]}`
	r.Srv.Script(
		mockllm.Turn{Blocks: []mockllm.Block{
			agentrig.ToolCall("read", map[string]any{"path": "main.go"}),
			agentrig.ToolCall("lsp", map[string]any{"action": "diagnostics", "file": "main.go"}),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("edit", map[string]any{"input": breakIt})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("That does not compile."), agentrig.ToolCall("edit", map[string]any{"input": fixIt})}},
		mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("lsp", map[string]any{"action": "request", "query": "workspace/executeCommand", "file": "main.go", "payload": addImport})}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("Fixed.")}},
	)
	// A cold gopls is warmed by the lsp call; the budget only has to
	// cover a warm check on a slow, shared machine.
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("lsp:\n  diagnosticsBudgetMs: 30000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("main.go", mainGo)
	for i, kv := range r.Environ {
		if strings.HasPrefix(kv, "PATH=") {
			r.Environ[i] = "PATH=" + filepath.Dir(gopls) + string(os.PathListSeparator) + kv[len("PATH="):]
		}
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "make value return a string")
	if code != 0 || out != "Fixed.\n" {
		t.Fatalf("%d %q %s", code, out, stderr)
	}
	warm := agentrig.MustMarshal(t, r.RequestMessages(1))
	if !strings.Contains(warm, `"text":"OK"`) {
		t.Fatalf("the warm-up diagnostics: %s", warm)
	}
	broken := r.RequestMessages(2)
	last := agentrig.MustMarshal(t, broken[len(broken)-1])
	for _, want := range []string{"LSP Diagnostics (1 error(s))", `cannot use \"one\" (untyped string constant) as int value in return statement`} {
		if !strings.Contains(last, want) {
			t.Errorf("the breaking edit's result lacks %q:\n%s", want, last)
		}
	}
	fixed := r.RequestMessages(3)
	last = agentrig.MustMarshal(t, fixed[len(fixed)-1])
	if !strings.Contains(last, "LSP Diagnostics: no issues left in main.go.") || strings.Contains(last, "cannot use") {
		t.Errorf("the fixing edit's result:\n%s", last)
	}
	if got, _ := os.ReadFile(filepath.Join(r.Project, "main.go")); string(got) != strings.Replace(strings.Replace(mainGo, "return 1", "return 2", 1), "package main\n", "package main\n\nimport \"strings\"\n", 1) {
		t.Errorf("main.go after the fix and gopls' own edit:\n%s", got)
	}
}
