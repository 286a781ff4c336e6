//go:build unix

package edit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
)

// helperEnv tells a re-executed test binary to act as one editing process
// (TestEditHelperProcess) instead of running the tests.
const helperEnv = "GOPI_TEST_EDIT_HELPER"

// TestEditHelperProcess is not a test: run by TestConcurrentEditsLoseNothing
// as a child process, it waits for a line on standard input (the start
// signal), applies one edit with the edit tool and prints the outcome.
func TestEditHelperProcess(t *testing.T) {
	t.Parallel()
	if os.Getenv(helperEnv) != "1" {
		t.Skip("helper process for TestConcurrentEditsLoseNothing")
	}
	var job struct {
		Dir  string          `json:"dir"`
		Mode string          `json:"mode"`
		Args json.RawMessage `json:"args"`
	}
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&job); err != nil {
		fmt.Fprintln(os.Stdout, "BAD", err)
		os.Exit(3)
	}
	io.ReadAll(io.MultiReader(dec.Buffered(), os.Stdin)) // the start signal: stdin closes
	mode, _ := tool.ParseEditMode(job.Mode)
	env := tool.NewEnv(job.Dir)
	env.Settings.EditMode = mode
	res, err := tool.Run(context.Background(), NewMode(env, mode), job.Args, nil)
	switch {
	case err != nil:
		fmt.Fprintln(os.Stdout, "ERR", err)
	case res.IsError:
		fmt.Fprintln(os.Stdout, "ERR", res.FirstText())
	default:
		fmt.Fprintln(os.Stdout, "OK")
	}
	os.Exit(0)
}

// editor is one running helper process.
type editor struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   bytes.Buffer
}

// startEditor starts a helper that will apply args in mode to files in
// dir once its standard input is closed.
func startEditor(t *testing.T, dir string, mode tool.EditMode, args any) *editor {
	t.Helper()
	raw, _ := json.Marshal(args)
	job, _ := json.Marshal(map[string]any{"dir": dir, "mode": string(mode), "args": json.RawMessage(raw)})
	e := &editor{cmd: exec.Command(os.Args[0], "-test.run=^TestEditHelperProcess$", "-test.count=1")}
	e.cmd.Env = append(os.Environ(), helperEnv+"=1")
	e.cmd.Stdout, e.cmd.Stderr = &e.out, &e.out
	w, err := e.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	e.stdin = w
	if err := e.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(append(job, '\n')); err != nil {
		t.Fatal(err)
	}
	return e
}

// outcome waits for the helper and returns "OK" or the error text.
func (e *editor) outcome(t *testing.T) string {
	t.Helper()
	if err := e.cmd.Wait(); err != nil {
		t.Fatalf("helper: %v\n%s", err, e.out.String())
	}
	out := e.out.String()
	if i := strings.Index(out, "OK\n"); i >= 0 && !strings.Contains(out[:i], "ERR") {
		return "OK"
	}
	if i := strings.Index(out, "ERR "); i >= 0 {
		return out[i+4:]
	}
	t.Fatalf("helper printed no outcome:\n%s", out)
	return ""
}

// editArgs is the edit of line n of lines into text, in mode.
func editArgs(mode tool.EditMode, lines []string, n int, text string) any {
	switch mode {
	case tool.EditReplace:
		return map[string]any{"path": "f.txt", "edits": []any{map[string]any{"old_text": lines[n-1] + "\n", "new_text": text + "\n"}}}
	case tool.EditApplyPatch:
		return map[string]any{"input": fmt.Sprintf("*** Begin Patch\n*** Update File: f.txt\n@@\n-%s\n+%s\n*** End Patch", lines[n-1], text)}
	}
	a := hashline.Anchor(n, lines[n-1])
	return map[string]any{"input": fmt.Sprintf("@@ f.txt\n= %s..%s\n~%s", a, a, text)}
}

// Two processes edit one file at the same moment, 100 times. Edits of
// different lines must both land (the second reads what the first wrote);
// two edits of the same line (anchored to the same original text) must
// give one success and one stale-anchor error, with the winner's text in
// the file. Without the cross-process lock both read the original, both
// write, and the second rename silently drops the first edit.
func TestConcurrentEditsLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 200 processes")
	}
	lines := make([]string, 10)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %d of the shared file", i+1)
	}
	original := strings.Join(lines, "\n") + "\n"
	modes := []tool.EditMode{tool.EditHashline, tool.EditReplace, tool.EditApplyPatch}
	const rounds = 100
	var lost []string
	for round := range rounds {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(path, []byte(original), 0o644); err != nil {
			t.Fatal(err)
		}
		conflict := round%2 == 1
		mode := modes[(round/2)%len(modes)]
		var a, b *editor
		if conflict {
			mode = tool.EditHashline
			a = startEditor(t, dir, mode, editArgs(mode, lines, 5, "line 5 by A"))
			b = startEditor(t, dir, mode, editArgs(mode, lines, 5, "line 5 by B"))
		} else {
			a = startEditor(t, dir, mode, editArgs(mode, lines, 2, "line 2 by A"))
			b = startEditor(t, dir, mode, editArgs(mode, lines, 8, "line 8 by B"))
		}
		a.stdin.Close()
		b.stdin.Close()
		ra, rb := a.outcome(t), b.outcome(t)
		data, _ := os.ReadFile(path)
		got := string(data)
		if !conflict {
			if ra != "OK" || rb != "OK" || !strings.Contains(got, "line 2 by A\n") || !strings.Contains(got, "line 8 by B\n") {
				lost = append(lost, fmt.Sprintf("round %d (%s, different lines): A %q, B %q, file:\n%s", round, mode, ra, rb, got))
			}
			continue
		}
		okA, okB := ra == "OK", rb == "OK"
		stale := func(r string) bool { return strings.Contains(r, "the file changed since you read it") }
		switch {
		case okA && !okB && stale(rb) && strings.Contains(got, "line 5 by A\n") && !strings.Contains(got, "by B"):
		case okB && !okA && stale(ra) && strings.Contains(got, "line 5 by B\n") && !strings.Contains(got, "by A"):
		default:
			lost = append(lost, fmt.Sprintf("round %d (same line): A %q, B %q, file:\n%s", round, ra, rb, got))
		}
	}
	if len(lost) > 0 {
		t.Fatalf("%d of %d rounds lost or mixed an edit; first: %s", len(lost), rounds, lost[0])
	}
}
