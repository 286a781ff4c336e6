package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/daptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// The agent debugs a Go program with dlv, as a model drives it: launch,
// a breakpoint, continue to it, read a variable, terminate. Each tool
// result reaches the model, and no dlv or debuggee is left.
func TestDebugDlvThroughAgent(t *testing.T) {
	dlv := daptest.Dlv(t)
	call := func(args map[string]any) mockllm.Turn {
		return mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("debug", args)}}
	}
	r := newAgentRig(t,
		call(map[string]any{"action": "launch", "program": "main.go", "timeout": 180}),
		call(map[string]any{"action": "set_breakpoint", "file": "main.go", "line": 7}),
		call(map[string]any{"action": "continue"}),
		call(map[string]any{"action": "evaluate", "expression": "x"}),
		call(map[string]any{"action": "terminate"}),
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("x was 41 at line 7.")}},
	)
	for i, kv := range r.Environ {
		if strings.HasPrefix(kv, "PATH=") {
			r.Environ[i] = "PATH=" + filepath.Dir(dlv) + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	// dlv builds the program: with the rig's empty home it would build
	// the standard library afresh, so it gets this machine's build cache.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	r.Environ = append(r.Environ, "GOCACHE="+strings.TrimSpace(string(gocache)))
	r.Write("go.mod", "module example.com/dbg\n\ngo 1.22\n")
	r.Write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 41\n\tx++\n\tfmt.Println(\"x is\", x)\n}\n")
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "why is x 42?")
	if code != 0 || out != "x was 41 at line 7.\n" {
		t.Fatalf("exit %d %q\n%s", code, out, stderr)
	}
	main := filepath.Join(r.Project, "main.go")
	for i, want := range []string{
		"Adapter: dlv",
		"- line 7: verified",
		"Continue stopped at " + main + ":7",
		"Result: 41",
		"Debug session terminated.",
	} {
		msgs := r.RequestMessages(i + 1)
		if last := agentrig.MustMarshal(t, msgs[len(msgs)-1]); !strings.Contains(last, want) {
			t.Errorf("result %d lacks %q: %s", i, want, last)
		}
	}
	if left := processesIn(r.Project); len(left) > 0 {
		t.Fatalf("processes left working in the project: %v", left)
	}
}

// processesIn lists the live processes whose working directory is dir
// (dlv and the program it built run there), other than this test.
func processesIn(dir string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' || e.Name() == strconv.Itoa(os.Getpid()) {
			continue
		}
		pid, _ := strconv.Atoi(e.Name())
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir && daptest.Alive(pid) {
			stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			out = append(out, string(stat))
		}
	}
	return out
}
