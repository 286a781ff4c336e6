package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/mcptest"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// TestMain lets a test start the test binary as gopi itself (the tmux
// tests need a real executable on a real terminal).
func TestMain(m *testing.M) {
	mcptest.Main() // the test binary doubles as a fake MCP server
	if os.Getenv(envBlockSignals) == "1" {
		blockSignalsAndExec()
	}
	if os.Getenv("GOPI_TEST_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// tmuxTerm is gopi running in a tmux pane of its own server.
type tmuxTerm struct {
	t      *testing.T
	socket string
}

// startTmux runs gopi with args in a width×height tmux pane in dir with
// env; the pane stays after gopi exits and shows "EXITED <status>".
func startTmux(t *testing.T, width, height int, dir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no tmux on PATH: scripts/setup.sh installs it")
		}
		t.Skip("no tmux on PATH (scripts/setup.sh installs it)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	x := &tmuxTerm{t: t, socket: fmt.Sprintf("gopi-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	var cmd strings.Builder
	cmd.WriteString("env -i")
	extra := []string{"GOPI_TEST_RUN_MAIN=1", "TERM=xterm-256color"}
	if !slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, "PATH=") }) {
		extra = append(extra, "PATH="+os.Getenv("PATH"))
	}
	for _, e := range append(env, extra...) {
		cmd.WriteString(" " + shellQuote(e))
	}
	cmd.WriteString(" " + shellQuote(exe))
	for _, a := range args {
		cmd.WriteString(" " + shellQuote(a))
	}
	cmd.WriteString("; echo EXITED $?; sleep 600")
	x.tmux("new-session", "-d", "-s", "main", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-c", dir, cmd.String())
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	return x
}

func (x *tmuxTerm) tmux(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (Enter, Escape, C-c, …).
func (x *tmuxTerm) keys(keys ...string) {
	x.tmux(append([]string{"send-keys", "-t", "main"}, keys...)...)
}

// typ types text literally.
func (x *tmuxTerm) typ(text string) { x.tmux("send-keys", "-t", "main", "-l", text) }

// screen is what the pane shows now.
func (x *tmuxTerm) screen() string { return x.tmux("capture-pane", "-p", "-t", "main") }

// scrollback is the pane's history and screen.
func (x *tmuxTerm) scrollback() string { return x.tmux("capture-pane", "-p", "-S", "-", "-t", "main") }

// waitFor waits until the history and screen contain every text.
func (x *tmuxTerm) waitFor(texts ...string) {
	x.t.Helper()
	x.waitIn("the terminal", x.scrollback, texts...)
}

// waitIn waits until what capture returns contains every text (where
// names it, for the failure).
func (x *tmuxTerm) waitIn(where string, capture func() string, texts ...string) {
	x.t.Helper()
	deadline := testwait.Deadline(x.t)
	for {
		all := capture()
		missing := ""
		for _, s := range texts {
			if !strings.Contains(all, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("waiting for %q; %s shows:\n%s", missing, where, all)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// The interactive mode on a real terminal against the mock LLM: a
// streamed answer and an edit card with its diff, steering during a tool
// call, Esc aborting a stalled answer, !cmd, /tree giving a message back,
// a resize, /resume, Ctrl+D; then the session continues in `gopi -p -c`
// and back in the interactive mode, and no process is left behind.
func TestTUIInTmux(t *testing.T) {
	mark := shelltest.Mark(t)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{text("I will **edit** greet.go now.\n\n"), mockllm.ToolCall("edit", `{"path":"greet.go","edits": [{"old_text":"\"hi\"","new_text":"\"hi!\""}]}`)}, ChunkSize: 4, ChunkDelay: 5 * time.Millisecond},
		mockllm.Turn{Blocks: []mockllm.Block{text("The edit is done.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"while [ ! -e release ]; do sleep 0.05; done; echo tool ran"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Noted the steering.")}, Match: "steer this way"},
		mockllm.Turn{Blocks: []mockllm.Block{text("This answer stalls halfway")}, StallAfterDeltas: 2, ChunkSize: 3},
		mockllm.Turn{Blocks: []mockllm.Block{text("Answer from print mode.")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Back in the terminal.")}},
	)
	r.Write("greet.go", "package greet\n\nfunc Hello() string { return \"hi\" }\n")
	if err := os.WriteFile(filepath.Join(r.AgentDir, "config.yml"), []byte("edit:\n  mode: replace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(append([]string(nil), r.Environ...), mark)
	x := startTmux(t, 100, 30, r.Project, env, "--no-title")
	x.waitFor("Message gopi")

	x.typ("make Hello exclaim")
	x.keys("Enter")
	x.waitFor("▌ make Hello exclaim", "I will", "✓ [edit: greet.go]", `+func Hello() string { return "hi!" }`, "The edit is done.")

	// Steer while the bash tool runs: the message reaches the next request.
	x.typ("run it")
	x.keys("Enter")
	x.waitFor("[bash: while")
	x.typ("steer this way")
	x.keys("Enter")
	x.waitFor("Steering: delivered before the agent's next step")
	r.Write("release", "")
	x.waitFor("✓ [bash: while", "tool ran", "▌ steer this way", "Noted the steering.")

	// Esc aborts an answer that stalls.
	x.typ("stall now")
	x.keys("Enter")
	x.waitFor("Working…")
	x.keys("Escape")
	x.waitFor("Aborted")

	x.typ("!echo hello from the shell")
	x.keys("Enter")
	x.waitFor("$ echo hello from the shell", "  hello from the shell")

	// /tree: the first message goes back into the editor.
	x.typ("/tree")
	x.keys("Enter")
	x.waitFor("Session tree")
	x.keys("Home", "Enter")
	x.waitFor("moved in the session tree", "› make Hello exclaim")
	x.keys("C-c")

	// A narrower window still draws the editor and the footer.
	x.tmux("resize-window", "-t", "main", "-x", "60", "-y", "20")
	wide := func() string { // a line wider than the window, or ""
		for _, line := range strings.Split(x.screen(), "\n") {
			if len([]rune(line)) > 60 {
				return line
			}
		}
		return ""
	}
	for deadline, line := testwait.Deadline(t), wide(); line != ""; line = wide() {
		if time.Now().After(deadline) {
			t.Errorf("a line of %d columns after the resize: %q", len([]rune(line)), line)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	x.waitFor("mock/mock-model")

	x.typ("/resume")
	x.keys("Enter")
	x.waitFor("Resume a session")
	x.keys("Enter")
	x.waitFor("resumed ")

	x.keys("C-d")
	x.waitFor("EXITED 0")
	// gopi's guard ends right after gopi, once it has checked that
	// nothing else is left: give it a moment, nothing more.
	left := shelltest.Marked(mark)
	for deadline := testwait.Deadline(t); len(left) > 0 && time.Now().Before(deadline); left = shelltest.Marked(mark) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("processes left after quitting:\n%s", strings.Join(left, "\n"))
	}

	// The session continues in print mode, then back in the terminal.
	out, _, code := r.run("", "-p", "-c", "--no-title", "and from print mode?")
	if code != 0 || !strings.Contains(out, "Answer from print mode.") {
		t.Fatalf("gopi -p -c: %d %q", code, out)
	}
	y := startTmux(t, 100, 30, r.Project, env, "--no-title", "-c")
	y.waitFor("▌ and from print mode?", "Answer from print mode.")
	y.typ("and back")
	y.keys("Enter")
	y.waitFor("Back in the terminal.")
	y.keys("C-d")
	y.waitFor("EXITED 0")
}
