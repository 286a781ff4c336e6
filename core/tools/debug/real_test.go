package debug

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/daptest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// realTool returns the tool in dir with bin first on PATH, and its
// manager, for counting processes.
func realTool(t *testing.T, dir, bin string) (tool.Tool, func() []int) {
	t.Helper()
	e := tool.NewEnv(dir)
	e.Settings.Shell.Environ = daptest.Env(bin)
	m := NewManager(e)
	t.Cleanup(func() { _ = m.Close() })
	return New(e, m), m.Pids
}

// step is one call of a scripted session and what its text must hold.
type step struct {
	args map[string]any
	want []string
}

// script runs steps, failing at the first result that is an error or
// lacks a wanted line.
func script(t *testing.T, tl tool.Tool, steps []step) {
	t.Helper()
	for _, s := range steps {
		res := run(t, tl, s.args)
		text := res.FirstText()
		if res.IsError {
			t.Fatalf("%v: %s", s.args, text)
		}
		for _, w := range s.want {
			if !strings.Contains(text, w) {
				t.Fatalf("%v: %q not in\n%s", s.args, w, text)
			}
		}
	}
}

// gone fails the test for each of pids still alive.
func gone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if daptest.Alive(pid) {
			t.Errorf("process %d outlived the session", pid)
		}
	}
}

// A Go program under dlv, through the tool as the model calls it.
func TestDlvThroughTool(t *testing.T) {
	t.Parallel()
	dlv := daptest.Dlv(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/dbg\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 41\n\tx++\n\tfmt.Println(\"x is\", x)\n}\n")
	tl, pids := realTool(t, dir, filepath.Dir(dlv))
	script(t, tl, []step{
		{map[string]any{"action": "launch", "program": "main.go", "timeout": 180}, []string{"Adapter: dlv", "Status: stopped", "Stop reason: entry"}},
		{map[string]any{"action": "set_breakpoint", "file": "main.go", "line": 7}, []string{"- line 7: verified"}},
		{map[string]any{"action": "continue"}, []string{"Continue stopped at " + filepath.Join(dir, "main.go") + ":7"}},
		{map[string]any{"action": "evaluate", "expression": "x"}, []string{"Result: 41", "Type: int"}},
		{map[string]any{"action": "step_over"}, []string{"Step over stopped at " + filepath.Join(dir, "main.go") + ":8"}},
		{map[string]any{"action": "stack_trace"}, []string{"main.main @ " + filepath.Join(dir, "main.go") + ":8"}},
	})
	live := pids()
	if len(live) < 2 {
		t.Fatalf("dlv and the program: %v", live)
	}
	script(t, tl, []step{{map[string]any{"action": "continue"}, []string{"Program terminated"}}})
	// The adapter's output events may come after the one that says the
	// program ended: ask until the program's line is there.
	deadline := testwait.Deadline(t)
	for {
		res := run(t, tl, map[string]any{"action": "output"})
		if strings.Contains(res.FirstText(), "x is 42") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("output: %q not in\n%s", "x is 42", res.FirstText())
		}
		time.Sleep(50 * time.Millisecond)
	}
	script(t, tl, []step{{map[string]any{"action": "terminate"}, []string{"Debug session terminated."}}})
	gone(t, live)
}

// A Python program under debugpy (which asks gopi to start the program
// through runInTerminal), through the tool.
func TestDebugpyThroughTool(t *testing.T) {
	t.Parallel()
	py := daptest.Python(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "app.py"), "def main():\n    x = 41\n    x += 1\n    print(\"x is\", x)\n\n\nmain()\n")
	tl, pids := realTool(t, dir, filepath.Dir(py))
	script(t, tl, []step{
		{map[string]any{"action": "launch", "program": "app.py"}, []string{"Adapter: debugpy", "Status: stopped"}},
		{map[string]any{"action": "set_breakpoint", "file": "app.py", "line": 3}, []string{"- line 3: verified"}},
		{map[string]any{"action": "continue"}, []string{"Continue stopped at " + filepath.Join(dir, "app.py") + ":3"}},
		{map[string]any{"action": "scopes"}, []string{"- Locals: ref="}},
		{map[string]any{"action": "evaluate", "expression": "x"}, []string{"Result: 41", "Type: int"}},
		{map[string]any{"action": "step_over"}, []string{"Step over stopped at " + filepath.Join(dir, "app.py") + ":4"}},
	})
	live := pids()
	if len(live) < 2 {
		t.Fatalf("debugpy and the program: %v", live)
	}
	script(t, tl, []step{{map[string]any{"action": "continue"}, []string{"Program terminated"}}})
	// The adapter's output events may come after the one that says the
	// program ended: ask until the program's line is there.
	deadline := testwait.Deadline(t)
	for {
		res := run(t, tl, map[string]any{"action": "output"})
		if strings.Contains(res.FirstText(), "x is 42") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("output: %q not in\n%s", "x is 42", res.FirstText())
		}
		time.Sleep(50 * time.Millisecond)
	}
	script(t, tl, []step{{map[string]any{"action": "terminate"}, []string{"Debug session terminated."}}})
	gone(t, live)
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A C program under lldb-dap, chosen for a compiled binary even with an
// old gdb (no DAP) on PATH, through the tool.
func TestLLDBThroughTool(t *testing.T) {
	t.Parallel()
	bin, cc := daptest.LLDBDap(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "app.c"), "#include <stdio.h>\n\nint main(void) {\n\tint x = 41;\n\tx++;\n\tprintf(\"x is %d\\n\", x);\n\treturn 0;\n}\n")
	if out, err := exec.Command(cc, "-g", "-O0", "-o", filepath.Join(dir, "app"), filepath.Join(dir, "app.c")).CombinedOutput(); err != nil {
		t.Fatalf("compile: %v\n%s", err, out)
	}
	tl, pids := realTool(t, dir, bin)
	script(t, tl, []step{
		{map[string]any{"action": "launch", "program": "app"}, []string{"Adapter: lldb-dap", "Status: stopped"}},
		{map[string]any{"action": "set_breakpoint", "file": "app.c", "line": 5}, []string{"- line 5: verified"}},
		{map[string]any{"action": "continue"}, []string{"Continue stopped at " + filepath.Join(dir, "app.c") + ":5"}},
		{map[string]any{"action": "evaluate", "expression": "x", "context": "watch"}, []string{"Result: 41"}},
		{map[string]any{"action": "step_over"}, []string{"Step over stopped at " + filepath.Join(dir, "app.c") + ":6"}},
	})
	live := pids()
	if len(live) < 2 {
		t.Fatalf("lldb-dap and the program: %v", live)
	}
	script(t, tl, []step{{map[string]any{"action": "terminate"}, []string{"Debug session terminated."}}})
	gone(t, live)
}

// dlv attaches to a running Go program by pid; pause stops it where it
// is; terminate ends it (the adapter is told to terminate the debuggee).
func TestDlvAttachThroughTool(t *testing.T) {
	t.Parallel()
	dlv := daptest.Dlv(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/loop\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n\nimport \"time\"\n\nfunc main() {\n\tfor {\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n}\n")
	build := exec.Command("go", "build", "-gcflags=all=-N -l", "-o", "loop", ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	prog := exec.Command(filepath.Join(dir, "loop"))
	if err := prog.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = prog.Wait(); close(exited) }()
	t.Cleanup(func() { _ = prog.Process.Kill(); <-exited })
	tl, _ := realTool(t, dir, filepath.Dir(dlv))
	script(t, tl, []step{
		{map[string]any{"action": "attach", "pid": prog.Process.Pid, "adapter": "dlv", "timeout": 60}, []string{"Adapter: dlv"}},
		{map[string]any{"action": "pause"}, []string{"Status: stopped", "Program paused."}},
		{map[string]any{"action": "threads"}, []string{"Threads:\n- "}},
		{map[string]any{"action": "terminate"}, []string{"Debug session terminated."}},
	})
	<-exited // the attached program ended with the session
}
