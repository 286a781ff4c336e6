package eval

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/core/tool"
)

// fakeBackend answers cells by their code: "fail" exits 1, "spin" times
// out, "img" shows a picture, anything else is echoed.
type fakeBackend struct {
	name string
	ran  []string
}

func (f *fakeBackend) Run(_ context.Context, req cell.Request) (cell.Result, error) {
	f.ran = append(f.ran, req.Code)
	switch req.Code {
	case "fail":
		_, _ = io.WriteString(req.Output, "Traceback: boom\n")
		return cell.Result{ExitCode: 1}, nil
	case "spin":
		return cell.Result{Cancelled: true, TimedOut: true}, nil
	case "img":
		return cell.Result{Displays: []cell.Display{{Kind: cell.Image, MIME: "image/png", Data: "AAAA"}}}, nil
	case "data":
		return cell.Result{Displays: []cell.Display{{Kind: cell.JSON, JSON: json.RawMessage(`{"a":1}`)}}}, nil
	case "quiet":
		return cell.Result{}, nil
	case "ask":
		return cell.Result{ExitCode: 1, StdinRequested: true}, nil
	}
	_, _ = io.WriteString(req.Output, f.name+": "+req.Code+"\n")
	return cell.Result{}, nil
}

func call(t *testing.T, b Backends, input string) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"input": input})
	res, err := tool.Run(context.Background(), New(tool.NewEnv(t.TempDir()), b), raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestExecute(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
		isError           bool
		images            int
	}{
		{"one cell", "*** Cell py\nx", "py: x", false, 0},
		{"inherits the language", "*** Cell js:\"a\"\nx\n*** Cell\ny", "[1/2] a\njs: x\n\n[2/2]\njs: y", false, 0},
		{"stops at the failing cell", "*** Cell py\nx\n*** Cell py\nfail\n*** Cell py\nz", "[1/3]\npy: x\n\n[2/3]\nTraceback: boom\n\nCell 2 failed (exit code 1). The cells before it ran and what they defined is kept; fix and resend only cell 2 (with the cells after it).", true, 0},
		{"single failure", "fail", "Traceback: boom\n\nCommand exited with code 1", true, 0},
		{"timeout", "*** Cell py t:2s\nspin", "Command timed out after 2 seconds", true, 0},
		{"image only", "img", "(displayed 1 image; no text output)", false, 1},
		{"json display", "data", "display[1]:\n{\n  \"a\": 1\n}", false, 0},
		{"no output", "quiet", "(no output)", false, 0},
		{"stdin refused", "ask", "Kernel requested stdin; interactive input is not supported.\n\nCommand exited with code 1", true, 0},
		{"ok marker", "*** Cell py:\"q\"\nquiet\n*** Cell py\nx", "[1/2] q (ok)\n\n[2/2]\npy: x", false, 0},
		{"abort", "*** Cell py\nx\n*** End\n*** Cell py\ny\n*** Abort", "py: x\n\n" + abortWarning, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, Backends{Python: &fakeBackend{name: "py"}, JS: &fakeBackend{name: "js"}}, tc.input)
			if got := res.FirstText(); got != tc.want || res.IsError != tc.isError || len(res.Content)-1 != tc.images {
				t.Fatalf("got %q (error %v, %d blocks)\nwant %q", got, res.IsError, len(res.Content), tc.want)
			}
		})
	}
}

// cancelling backend cancels the call's context while its cell runs.
type cancelling struct{ cancel context.CancelFunc }

func (c cancelling) Run(_ context.Context, req cell.Request) (cell.Result, error) {
	_, _ = io.WriteString(req.Output, "partial\n")
	c.cancel()
	return cell.Result{Cancelled: true}, nil
}

// An aborted call keeps the output so far and says the cell was
// cancelled.
func TestAbortKeepsOutput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	raw, _ := json.Marshal(map[string]string{"input": "*** Cell py\nx\n*** Cell py\ny"})
	res, _ := tool.Run(ctx, New(tool.NewEnv(t.TempDir()), Backends{Python: cancelling{cancel}}), raw, nil)
	if !res.IsError || res.FirstText() != "[1/2]\npartial\n\nCell 1 was cancelled. The cells before it ran and what they defined is kept." {
		t.Fatalf("%q", res.FirstText())
	}
}

func TestBackendChoice(t *testing.T) {
	py := &fakeBackend{name: "py"}
	res := call(t, Backends{Python: py}, "*** Cell js\nconst a = 1;")
	if !res.IsError || !strings.Contains(res.FirstText(), "JavaScript cells are turned off") {
		t.Fatalf("%q", res.FirstText())
	}
	res = call(t, Backends{JS: &fakeBackend{name: "js"}}, "*** Cell py\nx")
	if !res.IsError || !strings.Contains(res.FirstText(), "Python cells are turned off") {
		t.Fatalf("%q", res.FirstText())
	}
	// A header-less cell that looks like JavaScript runs as Python when
	// JavaScript is off, with a notice in the details.
	res = call(t, Backends{Python: py}, "const a = 1;")
	if res.IsError || res.Details.(*Details).Notice == "" {
		t.Fatalf("%q %+v", res.FirstText(), res.Details)
	}
	res = call(t, Backends{Python: py, JS: &fakeBackend{name: "js"}, PythonMissing: func() error { return io.EOF }}, "print(1)")
	if res.FirstText() != "js: print(1)" {
		t.Fatalf("%q", res.FirstText())
	}
	if Available(Backends{Python: py, PythonMissing: func() error { return io.EOF }}) || !Available(Backends{Python: py}) {
		t.Fatal("Available")
	}
	res = call(t, Backends{Python: py}, "*** Cell py t:x\n1")
	if !res.IsError || !strings.Contains(res.FirstText(), `cell header "*** Cell py t:x"`) {
		t.Fatalf("%q", res.FirstText())
	}
}
