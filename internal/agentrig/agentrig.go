// Package agentrig is an isolated gopi home for end-to-end tests of the
// agent: a scripted mock LLM (internal/mockllm) configured as provider
// "mock" with model "mock-model", a project directory to work in, and the
// environment that points gopi at both. The tests of the command
// (cmd/gopi) and of the modes (core/modes/...) build on it.
package agentrig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Rig is one isolated home and project with its mock LLM.
type Rig struct {
	T        testing.TB
	Srv      *mockllm.Server // the mock LLM, provider "mock"
	Home     string          // $HOME
	AgentDir string          // $HOME/.gopi/agent
	Project  string          // the directory the agent works in
	// Environ is the environment of a run: HOME, the mock's key,
	// PI_NO_TITLE=1 and the process's PATH.
	Environ []string
}

// New builds a rig in a temporary directory; the mock answers with turns.
func New(t testing.TB, turns ...mockllm.Turn) *Rig {
	t.Helper()
	root := t.TempDir()
	r := &Rig{T: t, Srv: mockllm.New(t), Home: filepath.Join(root, "home"), Project: filepath.Join(root, "project")}
	r.AgentDir = filepath.Join(r.Home, ".gopi", "agent")
	for _, d := range []string{r.AgentDir, r.Project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.Srv.Script(turns...)
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        name: Mock\n", r.Srv.URL())
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Environ = []string{"HOME=" + r.Home, "MOCK_KEY=test", "PI_NO_TITLE=1", "PATH=" + os.Getenv("PATH")}
	return r
}

// SetModel rewrites the rig's models.yml: provider "mock" speaks api and
// mock-model has the given context window.
func (r *Rig) SetModel(api string, contextWindow int) {
	r.T.Helper()
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: %s\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        name: Mock\n        contextWindow: %d\n",
		r.Srv.URL(), api, contextWindow)
	if err := os.WriteFile(filepath.Join(r.AgentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// Write writes a file of the project.
func (r *Rig) Write(name, content string) {
	r.T.Helper()
	if err := os.WriteFile(filepath.Join(r.Project, name), []byte(content), 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// SessionFiles lists the session files under the agent directory, sorted.
func (r *Rig) SessionFiles() []string {
	var out []string
	filepath.WalkDir(filepath.Join(r.AgentDir, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// RequestMessages returns the messages of the i-th request the mock got.
func (r *Rig) RequestMessages(i int) []map[string]any {
	r.T.Helper()
	reqs := r.Srv.Requests()
	if i >= len(reqs) {
		r.T.Fatalf("only %d requests", len(reqs))
	}
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal(reqs[i].Body, &body); err != nil {
		r.T.Fatal(err)
	}
	return body.Messages
}

// ToolCall is a mock tool call block with args marshalled as JSON.
func ToolCall(name string, args any) mockllm.Block {
	data, _ := json.Marshal(args)
	return mockllm.ToolCall(name, string(data))
}

// MustMarshal is v as JSON text, failing the test if it cannot be.
func MustMarshal(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
