package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

// agentIndexTurns: searches, structural searches and a rewrite between
// the agent's own writes and another process's (the bash tool's): a
// directory renamed, then a file edited below its new name, a file
// replaced by a rename over it.
func agentIndexTurns() []mockllm.Turn {
	search := func() mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("search", map[string]any{"pattern": "oldCall|newCall", "paths": []string{"."}})}}
	}
	call := func(name string, args map[string]any) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall(name, args)}}
	}
	return []mockllm.Turn{
		search(),
		call("write", map[string]any{"path": "c/c.go", "content": "package c\n\nfunc I() { oldCall(3) }\n"}),
		search(),
		call("bash", map[string]any{"command": "mv a a2"}),
		search(),
		call("bash", map[string]any{"command": "printf 'package deep\\n\\nfunc G() { oldCall(2); oldCall(4) }\\n' > a2/deep/d.go && printf 'package deep\\n\\nfunc E() { oldCall(6) }\\n' > a2/deep/e.go && printf 'package b\\n\\nfunc H() { oldCall(5) }\\n' > b/b.go.tmp && mv b/b.go.tmp b/b.go"}),
		search(),
		call("ast_grep", map[string]any{"pat": "oldCall($A)", "paths": []string{"."}}),
		call("ast_edit", map[string]any{"ops": []map[string]string{{"pat": "oldCall($A)", "out": "newCall($A)"}}, "paths": []string{"."}}),
		call("resolve", map[string]any{"action": "apply", "reason": "rename the call"}),
		search(),
		{Blocks: []mockllm.Block{mockllm.Text("done")}},
	}
}

// toolResults are the texts of the tool results the model was sent in
// the last request, in order.
func toolResults(t *testing.T, r *agentRig) []string {
	t.Helper()
	msgs := r.RequestMessages(len(r.Srv.Requests()) - 1)
	var out []string
	for _, m := range msgs {
		blocks, _ := m["content"].([]any)
		for _, b := range blocks {
			bm, _ := b.(map[string]any)
			if bm["type"] != "tool_result" {
				continue
			}
			data, _ := json.Marshal(bm["content"])
			out = append(out, string(data))
		}
	}
	return out
}

// An agent session in a tree with a search index gives its tools the
// answers it gets without one, after its own writes and rewrites and
// after another process renamed a directory and edited files (the
// session's watcher keeps the index, and must follow the renamed
// directory).
func TestAgentToolsWithIndexMatchWalk(t *testing.T) {
	if !native.Available {
		t.Skip("native library not linked")
	}
	var results [2][]string
	for i, indexed := range []bool{false, true} {
		r := newAgentRig(t, agentIndexTurns()...)
		ixDir := filepath.Join(t.TempDir(), "ix")
		r.Environ = append(r.Environ, "GOPI_INDEX_DIR="+ixDir)
		for name, text := range map[string]string{
			"a/a.go":      "package a\n\nfunc F() { oldCall(1) }\n",
			"a/deep/d.go": "package deep\n\nfunc G() { oldCall(2) }\n",
			"a/deep/e.go": "package deep\n\nfunc E() {}\n",
			"b/b.go":      "package b\n\nfunc H() {}\n",
		} {
			writeTreeFile(t, r.Project, name, text)
		}
		if indexed {
			if code, out, errOut := gopiRun(t, r.Environ, "index", r.Project); code != 0 {
				t.Fatalf("index: %d %s %s", code, out, errOut)
			}
		}
		if _, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "go"); code != 0 {
			t.Fatalf("indexed %v: exit %d: %s", indexed, code, stderr)
		}
		results[i] = toolResults(t, r)
		if indexed {
			locks, _ := filepath.Glob(filepath.Join(ixDir, "*", "watch.lock"))
			socks, _ := filepath.Glob(filepath.Join(ixDir, "*", "watch.sock"))
			if len(locks) != 1 || len(socks) != 0 {
				t.Errorf("watch.lock %v, watch.sock %v: want the session's watcher run and gone", locks, socks)
			}
		}
		got, err := os.ReadFile(filepath.Join(r.Project, "a2", "deep", "e.go"))
		if err != nil || !strings.Contains(string(got), "newCall(6)") {
			t.Errorf("indexed %v: a2/deep/e.go after the rewrite: %q %v", indexed, got, err)
		}
	}
	if len(results[0]) != len(results[1]) {
		t.Fatalf("%d tool results without the index, %d with", len(results[0]), len(results[1]))
	}
	for i := range results[0] {
		if results[0][i] != results[1][i] {
			t.Errorf("tool result %d: without the index\n%s\nwith\n%s", i+1, results[0][i], results[1][i])
		}
	}
}
