package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// The two control centres on a real 80×24 terminal, then a 60×15 one:
// /extensions turns a skill off, /agents turns an agent off and gives it
// a model override; each closes with Esc, the conversation above it as it
// was, and the settings file holds what was chosen.
func TestTUIControlCentresInTmux(t *testing.T) {
	r := newAgentRig(t)
	if err := os.MkdirAll(filepath.Join(r.Project, ".gopi", "skills", "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Write(".gopi/skills/demo/SKILL.md", "---\nname: demo\ndescription: A demo skill\n---\nDo demo things.\n")
	settings := filepath.Join(r.AgentDir, "config.yml")
	if err := os.WriteFile(settings, []byte("edit:\n  mode: replace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 80, 24, r.Project, r.Environ, "--no-title")
	x.waitFor("Message gopi")
	x.typ("!echo the conversation so far")
	x.keys("Enter")
	x.waitFor("  the conversation so far")
	// The spinner line names the command too; take the snapshot after it
	// is gone, or it counts one mention more than the settled screen.
	x.waitGone("Running $ echo")
	before := x.scrollback()

	x.typ("/extensions")
	x.keys("Enter")
	x.waitScreen("Extension Control Center", "Skills (1)", "Type: skill", "● Active")
	x.keys("Space")
	x.waitScreen("Disabled (manually disabled)")
	waitFile(t, settings, "skill:demo")
	x.keys("j")
	x.keys("Escape")
	x.waitGone("Extension Control Center")
	x.waitFor("Message gopi")

	x.tmux("resize-window", "-t", "main", "-x", "60", "-y", "15")
	x.typ("/agents")
	x.keys("Enter")
	x.waitScreen("Agent Control Center", "● explore [Bundled]", "Status: ● Enabled")
	x.keys("Down")
	x.waitScreen("implement [Bundled]")
	x.keys("Space")
	x.waitScreen("⦸ implement")
	waitFile(t, settings, "- implement")
	x.keys("Enter")
	x.waitScreen("Model override: implement")
	x.typ("mock/mock-model")
	x.keys("Enter")
	x.waitScreen("Updated model override for implement", "implement [Bundled] (over")
	waitFile(t, settings, "implement: mock/mock-model")
	for _, line := range strings.Split(x.screen(), "\n") {
		if len([]rune(line)) > 60 {
			t.Errorf("a line wider than 60 columns: %q", line)
		}
	}
	x.keys("Escape")
	x.waitGone("Agent Control Center")
	x.waitFor("Message gopi")

	// The conversation above the centres is as it was.
	if after := x.scrollback(); !strings.Contains(after, "  the conversation so far") || strings.Count(after, "  the conversation so far") != strings.Count(before, "  the conversation so far") {
		t.Errorf("the scrollback changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	x.typ("/quit")
	x.keys("Enter")
	x.waitFor("EXITED 0")
}

// waitScreen waits until the screen shows every text.
func (x *tmuxTerm) waitScreen(texts ...string) {
	x.t.Helper()
	x.waitIn("the screen", x.screen, texts...)
}

// waitFile waits until file contains text.
func waitFile(t *testing.T, file, text string) {
	t.Helper()
	deadline := testwait.Deadline(t)
	for {
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %q in %s:\n%s", text, file, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
