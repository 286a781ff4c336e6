package jscell

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
)

// newRuntime returns a runtime rooted at a temporary directory whose
// tool.<name> echoes its call.
func newRuntime(t *testing.T) (*Runtime, string) {
	dir := t.TempDir()
	return New(Options{
		Resolve:  func(p string) string { return filepath.Join(dir, p) },
		ReadFile: func(_ context.Context, abs string) ([]byte, error) { return os.ReadFile(abs) },
		WriteFile: func(_ context.Context, abs string, data []byte) error {
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				return err
			}
			return os.WriteFile(abs, data, 0o644)
		},
		Environ: []string{"A=1"},
		CallTool: func(_ context.Context, name string, args json.RawMessage) (string, error) {
			return name + " " + string(args), nil
		},
	}), dir
}

func run(t *testing.T, r *Runtime, code string, timeout time.Duration) (string, cell.Result) {
	t.Helper()
	var out strings.Builder
	res, err := r.Run(context.Background(), cell.Request{Code: code, Timeout: timeout, Output: &out})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), res
}

func TestCells(t *testing.T) {
	r, dir := newRuntime(t)
	for _, tc := range []struct{ code, want string }{
		{"const x = 40; console.log('set', x)", "set 40\n"},
		{"const x = 41; x + 1", "42\n"}, // declared again; the value of the last expression
		{"await write('a/b.txt', 'hello'); return (await read('a/b.txt')).toUpperCase()", "HELLO\n"},
		{"const got = await tool.find({ paths: ['*'] }); print(got)", "find {\"paths\":[\"*\"]}\n"},
		{"print(got.length, await env('A'))", "20 1\n"},
		{"async function f() { return 5 }\nconst v = await f()", ""},
		{"print(v, typeof f)", "5 function\n"},
	} {
		out, res := run(t, r, tc.code, 5*time.Second)
		if res.ExitCode != 0 || out != tc.want {
			t.Fatalf("%s: %q %+v", tc.code, out, res)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a/b.txt")); string(b) != "hello" {
		t.Fatalf("%q", b)
	}
	_, res := run(t, r, "display({a: [1, 2]}); display({type: 'image', data: 'iVBOR', mimeType: 'image/png'})", 5*time.Second)
	if len(res.Displays) != 2 || string(res.Displays[0].JSON) != `{"a":[1,2]}` || res.Displays[1].MIME != "image/png" {
		t.Fatalf("%+v", res.Displays)
	}
}

func TestErrorsAndTimeout(t *testing.T) {
	r, _ := newRuntime(t)
	run(t, r, "var kept = 'yes'", 5*time.Second)
	out, res := run(t, r, "null.x", 5*time.Second)
	if res.ExitCode != 1 || !strings.Contains(out, "TypeError") {
		t.Fatalf("%q %+v", out, res)
	}
	out, res = run(t, r, "await Promise.reject(new Error('nope'))", 5*time.Second)
	if res.ExitCode != 1 || !strings.Contains(out, "nope") {
		t.Fatalf("%q %+v", out, res)
	}
	_, res = run(t, r, "while (true) {}", 100*time.Millisecond)
	if !res.TimedOut || !res.Cancelled {
		t.Fatalf("%+v", res)
	}
	if out, _ := run(t, r, "kept", 5*time.Second); out != "yes\n" {
		t.Fatalf("after the timeout: %q", out)
	}
	out, res = run(t, r, "await new Promise(() => {})", 5*time.Second)
	if res.ExitCode != 1 || !strings.Contains(out, "pending") {
		t.Fatalf("%q %+v", out, res)
	}
	var o strings.Builder
	res, _ = r.Run(context.Background(), cell.Request{Code: "typeof kept", Timeout: time.Second, Reset: true, Output: &o})
	if o.String() != "undefined\n" {
		t.Fatalf("after reset: %q", o.String())
	}
}

// A tool call that is still running at the cell's timeout is cancelled
// with the cell.
func TestTimeoutReachesToolCalls(t *testing.T) {
	r := New(Options{CallTool: func(ctx context.Context, _ string, _ json.RawMessage) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}})
	_, res := run(t, r, "await tool.bash({command: 'sleep 100'})", 100*time.Millisecond)
	if res.ExitCode != 1 || !res.TimedOut {
		t.Fatalf("%+v", res)
	}
}

// Whether a cell runs as a script or as an async function body is
// decided by parsing it: a return or await anywhere at the top level
// makes it a body, a return inside a function or the word await in a
// string does not.
func TestCellModes(t *testing.T) {
	r, _ := newRuntime(t)
	for _, tc := range []struct{ code, want string }{
		{"const a = 1; return a", "1\n"},
		{"if (true) { return 'in-if' }", "in-if\n"},
		{"  const b = 2\n  return b + 1", "3\n"},
		{"[1,2].forEach(x => { return x }); return 'ok'", "ok\n"},
		{"const msg = 'please await';\nmsg.length", "12\n"},
		{"function f(){\nreturn 41\n}\nf()+1", "42\n"},
		{"for (const x of [1]) {\n    const y = await Promise.resolve(x)\n    if (y) { return 'awaited ' + y }\n}", "awaited 1\n"},
	} {
		out, res := run(t, r, tc.code, 5*time.Second)
		if res.ExitCode != 0 || out != tc.want {
			t.Errorf("%s: %q %+v", tc.code, out, res)
		}
	}
	out, res := run(t, r, "const q = 1\nfoo(", 5*time.Second)
	if res.ExitCode != 1 || strings.Count(out, "SyntaxError") != 1 || !strings.Contains(out, "Line 2:") {
		t.Errorf("a syntax error: %q %+v", out, res)
	}
	out, res = run(t, r, "const z = 1\nreturn foo(", 5*time.Second)
	if res.ExitCode != 1 || strings.Count(out, "SyntaxError") != 1 || strings.Contains(out, "Illegal return") {
		t.Errorf("a syntax error in a body: %q %+v", out, res)
	}
}

// A failed cell's error shows the cell's own frames at its own lines and
// columns: no Go functions, no prelude positions, no wrapper.
func TestErrorText(t *testing.T) {
	r, _ := newRuntime(t)
	for _, tc := range []struct{ code, want string }{
		{"const n = 1\nawait read('missing.txt')", "Error: open "},
		{"function g(){ null.y }\ng()", "TypeError: Cannot read property 'y' of undefined\n    at g (cell:1:20)\n    at cell:2:2\n"},
		{"await 1; null.x", "TypeError: Cannot read property 'x' of undefined\n    at cell:1:15\n"},
	} {
		out, res := run(t, r, tc.code, 5*time.Second)
		if res.ExitCode != 1 || !strings.HasPrefix(out, tc.want) || strings.Contains(out, "github.com") ||
			strings.Contains(out, "native") || strings.Contains(out, "prelude") || strings.Contains(out, "<eval>") {
			t.Errorf("%s: %q", tc.code, out)
		}
	}
	if out, _ := run(t, r, "await read('missing.txt')", 5*time.Second); !strings.Contains(out, "\n    at cell:1:11\n") {
		t.Errorf("the helper's caller: %q", out)
	}
}

// tool is not a thenable: awaiting it gives the proxy itself.
func TestToolNotThenable(t *testing.T) {
	r, _ := newRuntime(t)
	out, res := run(t, r, "const t = await tool\nreturn typeof t.then + ' ' + typeof t.read", 5*time.Second)
	if res.ExitCode != 0 || out != "undefined function\n" {
		t.Fatalf("%q %+v", out, res)
	}
}

// A cell that builds too much is stopped with a message, its runtime
// reset, and the next cell runs; builders of a given size refuse sizes
// above MaxLength before allocating.
func TestMemoryBound(t *testing.T) {
	r, _ := newRuntime(t)
	r.opts.MemoryLimit = 16 << 20
	run(t, r, "globalThis.keep = 1", 5*time.Second)
	out, res := run(t, r, "const parts = []\nfor (let i = 0; ; i++) parts.push('chunk of text ' + i)", time.Minute)
	if res.ExitCode != 1 || res.Cancelled || !strings.Contains(out, "more than 16 MiB") {
		t.Fatalf("unbounded growth: %q %+v", out, res)
	}
	if out, res := run(t, r, "typeof keep", 5*time.Second); res.ExitCode != 0 || out != "undefined\n" {
		t.Fatalf("after the stop: %q %+v", out, res)
	}
	for _, code := range []string{"'x'.repeat(400 * 1024 * 1024).length", "''.padStart(1e9)", "new Array(1e9).fill(0)"} {
		out, res := run(t, r, code, 5*time.Second)
		if res.ExitCode != 1 || !strings.HasPrefix(out, "RangeError: ") || !strings.Contains(out, "at most") {
			t.Errorf("%s: %q %+v", code, out, res)
		}
	}
	if out, res := run(t, r, "function f() { return f() + 1 }\nf()", time.Minute); res.ExitCode != 1 || res.Cancelled || !strings.HasPrefix(out, "RangeError: Maximum call stack size exceeded") {
		t.Errorf("runaway recursion: %.300q %+v", out, res)
	}
	if out, _ := run(t, r, "'ab'.repeat(3) + 'c'.padEnd(3, '-') + [0, 0].fill(1).join('')", 5*time.Second); out != "abababc--11\n" {
		t.Errorf("the bounded builders: %q", out)
	}
}

// A cell interrupted inside a tool call can leave goja unable to settle
// promises (it depends on where the interrupt lands); the runtime is then
// reset with a note, and in every case the next cell's await works. A
// plain interrupted loop keeps the globals.
func TestInterruptedToolCallResets(t *testing.T) {
	r, _ := newRuntime(t)
	r.opts.CallTool = func(ctx context.Context, _ string, _ json.RawMessage) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}
	run(t, r, "globalThis.kept = 'yes'", 5*time.Second)
	if _, res := run(t, r, "while (true) {}", 100*time.Millisecond); !res.TimedOut || len(res.Notes) != 0 {
		t.Fatalf("loop: %+v", res)
	}
	if out, res := run(t, r, "return await Promise.resolve(kept)", 5*time.Second); res.ExitCode != 0 || out != "yes\n" {
		t.Fatalf("after the loop: %q %+v", out, res)
	}
	for range 5 {
		run(t, r, "globalThis.kept = 'yes'", 5*time.Second)
		_, res := run(t, r, "return await tool.bash({})", 50*time.Millisecond)
		if !res.TimedOut {
			t.Fatalf("tool call: %+v", res)
		}
		want := "7 string\n"
		if len(res.Notes) == 1 {
			want = "7 undefined\n"
		}
		if out, res := run(t, r, "const z = await Promise.resolve(7); return z + ' ' + typeof kept", 5*time.Second); res.ExitCode != 0 || out != want {
			t.Fatalf("after the tool call: %q %+v", out, res)
		}
	}
}

// A function value shows as console.log shows it, not as its source
// (tool.read's would be the prelude's).
func TestFunctionValue(t *testing.T) {
	r, _ := newRuntime(t)
	for code, want := range map[string]string{"return await tool.read": "[Function]\n", "function named() {}\nnamed": "[Function: named]\n"} {
		if out, res := run(t, r, code, 5*time.Second); res.ExitCode != 0 || out != want {
			t.Errorf("%s: %q %+v", code, out, res)
		}
	}
}
