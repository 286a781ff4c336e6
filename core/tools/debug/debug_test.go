package debug

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/dap"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/daptest"
)

// The parameters are omp 14.9.9's (its "_i" intent field aside, which
// gopi takes out of every call): testdata/omp-schema.json is the debug
// tool's entry of the tool list omp sends.
func TestSchemaMatchesOmp(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("testdata/omp-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal((&Tool{}).Definition().Parameters)
	if err != nil {
		t.Fatal(err)
	}
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w, g) {
		t.Fatalf("schema differs from omp's:\n got %s\nwant %s", got, want)
	}
}

// newTool returns the tool over a manager whose environment runs the
// fake adapter in mode, with the fake installed on PATH as "dlv".
func newTool(t *testing.T, mode string) (tool.Tool, string) {
	t.Helper()
	exe, env := daptest.FakeCommand(mode)
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "gdb")); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e := tool.NewEnv(dir)
	e.Settings.Shell.Environ = append(env, "PATH="+bin)
	m := NewManager(e)
	t.Cleanup(func() { _ = m.Close() })
	return New(e, m), dir
}

func run(t *testing.T, tl tool.Tool, args map[string]any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The tool's texts over a session with the fake adapter (found on PATH
// as gdb, picked for an extensionless program): omp's snapshot lines,
// lists and outcome texts, and its errors.
func TestToolTexts(t *testing.T) {
	t.Parallel()
	tl, dir := newTool(t, daptest.FakeOK)
	for _, tc := range []struct {
		args map[string]any
		want string
		err  bool
	}{
		{map[string]any{"action": "output"}, "No active debug session. Launch or attach first.", true},
		{map[string]any{"action": "terminate"}, "No debug session to terminate.", false},
		{map[string]any{"action": "sessions"}, "No debug sessions.", false},
		{map[string]any{"action": "launch"}, "program is required for launch", true},
		{map[string]any{"action": "attach"}, "attach requires pid or port", true},
		{map[string]any{"action": "launch", "program": "app"}, "Session debug-1\nAdapter: gdb\nStatus: stopped\nCWD: " + dir +
			"\nProgram: " + filepath.Join(dir, "app") + "\nStop reason: entry\nFrame: main.main\nLocation: /src/main.go:3:1", false},
		{map[string]any{"action": "set_breakpoint", "file": "main.go"}, "set_breakpoint requires file+line or function", true},
		{map[string]any{"action": "set_breakpoint", "file": "main.go", "line": 5, "condition": "x > 1"},
			"Breakpoints for " + filepath.Join(dir, "main.go") + ":\n- line 5: verified if x > 1", false},
		{map[string]any{"action": "threads"}, "Threads:\n- 1: main", false},
		{map[string]any{"action": "stack_trace"}, "Stack trace:\n- #7 main.main @ /src/main.go:3:1", false},
		{map[string]any{"action": "scopes"}, "Scopes:\n- Locals: ref=100, expensive=no", false},
		{map[string]any{"action": "variables"}, "variables requires variable_ref or scope_id", true},
		{map[string]any{"action": "variables", "scope_id": 100}, "Variables:\n- x = 42 (int)", false},
		{map[string]any{"action": "evaluate", "expression": "x+1"}, "Result: 43\nType: int", false},
		{map[string]any{"action": "read_memory", "memory_reference": "0x10", "count": 4}, "Current adapter does not support memory reads", true},
		{map[string]any{"action": "custom_request", "command": "threads"}, "threads response:\n{\n  \"threads\": [\n    {\n      \"id\": 1,\n      \"name\": \"main\"\n    }\n  ]\n}", false},
		{map[string]any{"action": "launch", "program": "app"}, "Debug session debug-1 is still active. Terminate it before launching another.", true},
		{map[string]any{"action": "step_over"}, "Step over stopped at /src/main.go:3:1.", false},
		{map[string]any{"action": "continue"}, "Exit code: 0\nProgram terminated with exit code 0.", false},
		{map[string]any{"action": "output"}, "hello from the fake\n", false},
		{map[string]any{"action": "sessions"}, "debug-1: terminated\n  adapter=gdb\n  cwd=" + dir + "\n  program=" + filepath.Join(dir, "app"), false},
		{map[string]any{"action": "terminate"}, "Debug session terminated.", false},
		{map[string]any{"action": "sessions"}, "No debug sessions.", false},
	} {
		res := run(t, tl, tc.args)
		got := res.FirstText()
		if res.IsError != tc.err || !strings.HasSuffix(got, tc.want) {
			t.Errorf("%v: error=%v\n%s\nwant suffix (error=%v)\n%s", tc.args, res.IsError, got, tc.err, tc.want)
		}
	}
}

// Without any adapter on PATH, launch says what is installed and how to
// install the adapter the program needs.
func TestNoAdapter(t *testing.T) {
	t.Parallel()
	e := tool.NewEnv(t.TempDir())
	e.Settings.Shell.Environ = []string{"PATH=" + t.TempDir()}
	m := dap.NewManager(dap.Options{})
	defer m.Close()
	res := run(t, New(e, m), map[string]any{"action": "launch", "program": "main.go"})
	want := "No debugger adapter available. Installed adapters: none. dlv is not installed; install it with: go install github.com/go-delve/delve/cmd/dlv@latest"
	if !res.IsError || res.FirstText() != want {
		t.Fatalf("%q", res.FirstText())
	}
}

// The timeout clamp: default 30, within 5..300.
func TestClampTimeout(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		in   *float64
		want int
	}{{nil, 30}, {f(1), 5}, {f(60), 60}, {f(1000), 300}} {
		if got := clampTimeout(tc.in); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.in, got, tc.want)
		}
	}
}

// An adapter that dies mid-session: the call says so with its error
// output, the session shows as terminated, and a new launch is allowed.
func TestAdapterCrashMidSession(t *testing.T) {
	t.Parallel()
	tl, _ := newTool(t, daptest.FakeOK)
	for _, tc := range []struct {
		args map[string]any
		want string
		err  bool
	}{
		{map[string]any{"action": "launch", "program": "app"}, "Status: stopped", false},
		{map[string]any{"action": "custom_request", "command": "crash"}, "DAP adapter exited (code 4): fake adapter: crashed on request", true},
		{map[string]any{"action": "sessions"}, "debug-1: terminated", false},
		{map[string]any{"action": "threads"}, "DAP adapter gdb is not running", true},
		{map[string]any{"action": "launch", "program": "app"}, "Session debug-2", false},
	} {
		res := run(t, tl, tc.args)
		if got := res.FirstText(); res.IsError != tc.err || !strings.Contains(got, tc.want) {
			t.Errorf("%v: error=%v %q, want %q", tc.args, res.IsError, got, tc.want)
		}
	}
}
