package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// startTmuxShell runs an interactive bash (job control on) in a
// width×height tmux pane and starts gopi in it with env and args, as a
// user would from a shell. The shell prints "EXITED <status>" before
// each prompt (a list such as "gopi; echo" would be cut short by
// Ctrl+Z): once before gopi starts, once per stop and once at its end.
func startTmuxShell(t *testing.T, width, height int, dir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no tmux on PATH: scripts/setup.sh installs it")
		}
		t.Skip("no tmux on PATH (scripts/setup.sh installs it)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH: the Ctrl+Z test needs a shell with job control")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	x := &tmuxTerm{t: t, socket: fmt.Sprintf("gopi-test-sh-%d-%d", os.Getpid(), time.Now().UnixNano())}
	x.tmux("new-session", "-d", "-s", "main", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-c", dir,
		"env -i TERM=xterm-256color 'PS1=$ ' 'PROMPT_COMMAND=echo EXITED $?' PATH="+shellQuote(os.Getenv("PATH"))+" "+shellQuote(bash)+" --norc --noprofile -i")
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	var line strings.Builder
	line.WriteString("env -i GOPI_TEST_RUN_MAIN=1 TERM=xterm-256color")
	for _, e := range env {
		line.WriteString(" " + shellQuote(e))
	}
	line.WriteString(" " + shellQuote(exe))
	for _, a := range args {
		line.WriteString(" " + shellQuote(a))
	}
	x.waitIn("the shell", x.screen, "EXITED 0")
	x.typ(line.String())
	x.keys("Enter")
	return x
}

// omp's keys on a real terminal, gopi started from an interactive shell:
// Ctrl+G edits the message in $EDITOR, a cut tool card and Ctrl+O
// drawing it again in full, Ctrl+R finding an earlier prompt, a queued steer
// listed above the editor and taken back with Alt+Up, Esc twice opening
// the session tree, Ctrl+Z handing the terminal to the shell and fg
// bringing gopi back; no process is left behind.
func TestTUIKeysInTmux(t *testing.T) {
	mark := shelltest.Mark(t)
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"seq 1001 1030"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Counted.")}},
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("bash", `{"command":"while [ ! -e release ]; do sleep 0.05; done; echo released"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("The wait is over.")}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Answer after fg.")}},
	)
	editor := filepath.Join(t.TempDir(), "fake-editor")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nprintf ' and the editor\\n' >> \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(append([]string(nil), r.Environ...), mark, "EDITOR="+editor)
	x := startTmuxShell(t, 100, 30, r.Project, env, "--no-title")
	x.waitFor("Message gopi")

	// A card cut to its last lines says so; Ctrl+O draws it again whole.
	x.typ("count please")
	x.keys("Enter")
	x.waitFor("✓ [bash: seq 1001 1030]", "… 20 earlier lines (ctrl+o to expand)", "1030", "Counted.")
	if strings.Contains(x.scrollback(), "1005") {
		t.Fatal("the cut card shows its first lines")
	}
	x.keys("C-o")
	x.waitFor("1005", "Tool output is shown in full")
	// The card is drawn again in place, in full: every line once, the hint
	// gone, the conversation around it as it was.
	sb := x.scrollback()
	for _, once := range []string{"1005", "1029", "count please", "Counted."} {
		if n := strings.Count(sb, once); n != 1 {
			t.Errorf("%q is in the scrollback %d times after Ctrl+O:\n%s", once, n, sb)
		}
	}
	if strings.Contains(sb, "ctrl+o to expand") || strings.Contains(sb, "╯\n\n\n") {
		t.Errorf("the redrawn card still says it is cut, or blank lines doubled:\n%s", sb)
	}

	// Ctrl+R finds the prompt sent before.
	x.keys("C-r")
	x.waitIn("the screen", x.screen, "Search history (ctrl+r)")
	x.typ("count")
	x.keys("Enter")
	x.waitIn("the screen", x.screen, "› count please")
	x.keys("C-c")

	// Ctrl+G: the draft goes through $EDITOR and comes back changed.
	x.typ("draft from gopi")
	x.keys("C-g")
	x.waitIn("the screen", x.screen, "› draft from gopi and the editor")
	x.keys("C-c")

	// A steer queued while a tool runs is listed; Alt+Up takes it back.
	x.typ("wait for it")
	x.keys("Enter")
	x.waitFor("[bash: while [ ! -e release ]")
	x.typ("steer later")
	x.keys("Enter")
	x.waitIn("the screen", x.screen, "Steer: steer later", "└ alt+up to edit")
	x.keys("M-Up")
	x.waitIn("the screen", x.screen, "› steer later")
	r.Write("release", "")
	x.waitFor("The wait is over.")
	x.keys("C-c")

	// Esc twice on an empty editor opens the session tree.
	x.keys("Escape")
	x.keys("Escape")
	x.waitIn("the screen", x.screen, "Session tree")
	x.keys("Escape")
	// The next key must not follow Esc so closely that the two read as
	// one (alt+ctrl+z).
	x.waitIn("the screen", func() string {
		if strings.Contains(x.screen(), "Session tree") {
			return ""
		}
		return "closed"
	}, "closed")

	// Ctrl+Z: the shell has the terminal; fg gives it back to gopi.
	x.keys("C-z")
	x.waitIn("the screen", x.screen, "Stopped")
	x.typ("fg")
	x.keys("Enter")
	x.waitIn("the screen", x.screen, "mock/mock-model")
	x.typ("and now?")
	x.keys("Enter")
	x.waitFor("Answer after fg.")

	// Ctrl+O's redraw cleared the scrollback, the shell's lines before
	// gopi with it: count the shell's exit marks from here.
	exited := strings.Count(x.scrollback(), "EXITED 0")
	x.keys("C-d")
	x.waitIn("the terminal", func() string {
		return strings.Repeat("gopi ended\n", max(0, strings.Count(x.scrollback(), "EXITED 0")-exited))
	}, "gopi ended")
	left := shelltest.Marked(mark)
	for deadline := testwait.Deadline(t); len(left) > 0 && time.Now().Before(deadline); left = shelltest.Marked(mark) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("processes left after quitting:\n%s", strings.Join(left, "\n"))
	}
	for _, req := range r.Srv.Requests() {
		if strings.Contains(string(req.Body), "steer later") {
			t.Error("the steer taken back with Alt+Up was sent")
		}
	}
}
