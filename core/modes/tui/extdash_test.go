package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
)

// newExtRig is a rig whose project has a skill, a Claude command and an
// AGENTS.md.
func newExtRig(t *testing.T) *rig {
	t.Helper()
	return newRigFull(t, "", func(o *agentsession.Options, _ *models.Registry) {
		write(t, filepath.Join(o.Cwd, ".gopi", "skills", "demo", "SKILL.md"), "---\nname: demo\ndescription: A demo skill for testing\n---\nDo demo things.\n")
		write(t, filepath.Join(o.Cwd, ".claude", "commands", "hi.md"), "Say hi\n")
		write(t, filepath.Join(o.Cwd, "AGENTS.md"), "# Project rules\n")
	})
}

// settingsFile is the rig's global settings file.
func (r *rig) settingsFile() string {
	b, err := os.ReadFile(filepath.Join(r.s.Config().AgentDir, "config.yml"))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// press sends a key by its name ("space", "ctrl+r", …).
func (r *rig) press(name string) {
	switch name {
	case "space":
		r.update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	case "ctrl+r":
		r.update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	case "backspace":
		r.update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	default:
		r.key(name)
	}
}

// fits checks that the view fits a terminal of width × height.
func fits(t *testing.T, r *rig, width, height int) {
	t.Helper()
	r.update(tea.WindowSizeMsg{Width: width, Height: height})
	v := r.view()
	lines := strings.Split(v, "\n")
	if len(lines) > height {
		t.Errorf("%dx%d: the view takes %d lines:\n%s", width, height, len(lines), v)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("%dx%d: a line %d wide: %q", width, height, w, l)
		}
	}
}

// /extensions opens the control centre: entries grouped by kind with
// their details; Space turns one off and on (disabledExtensions), a
// source's master switch turns it off (disabledProviders); typing
// searches; Esc clears the search, then closes without printing.
func TestExtensionsDashboard(t *testing.T) {
	t.Parallel()
	r := newExtRig(t)
	r.typeAndSend("/extensions")
	r.until("the centre", func() bool { return strings.Contains(r.view(), "Do demo things") })
	printed := len(r.printed)
	v := r.view()
	for _, want := range []string{"Extension Control Center", "ALL (3)", "Claude Code (1)", "AGENTS.md (1)", "Skills (1)", "Commands (1)", "Context (1)",
		"● demo", "/hi", "Type: skill", "A demo skill for testing", "via gopi (Project)", "● Active", "Instruction:"} {
		if !strings.Contains(v, want) {
			t.Errorf("the centre lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "essage gopi") {
		t.Errorf("the editor shows under the centre:\n%s", v)
	}

	r.press("space")
	r.until("skill:demo saved", func() bool { return strings.Contains(r.settingsFile(), "skill:demo") })
	if v := r.view(); !strings.Contains(v, "⦸ demo") || !strings.Contains(v, "Disabled (manually disabled)") {
		t.Errorf("demo not shown off:\n%s", v)
	}
	if got := r.s.Config().Settings.Strings("disabledExtensions"); !slices.Equal(got, []string{"skill:demo"}) {
		t.Errorf("disabledExtensions %q", got)
	}
	r.press("space")
	r.until("skill:demo removed", func() bool { return !strings.Contains(r.settingsFile(), "skill:demo") })

	r.press("down")
	r.press("down")
	if v := r.view(); !strings.Contains(v, "Type: slash-command") || !strings.Contains(v, "via Claude Code (Project)") {
		t.Errorf("j/down does not reach the command:\n%s", v)
	}
	r.press("k")
	r.press("k")
	if v := r.view(); !strings.Contains(v, "Type: skill") {
		t.Errorf("k does not go back to the skill:\n%s", v)
	}

	r.press("tab")
	if v := r.view(); !strings.Contains(v, "☑ Enable Claude Code") || strings.Contains(v, "demo") {
		t.Errorf("the Claude Code tab:\n%s", v)
	}
	r.press("space")
	r.until("claude turned off", func() bool {
		return strings.Contains(r.settingsFile(), "disabledProviders:") && strings.Contains(r.settingsFile(), "- claude")
	})
	if v := r.view(); !strings.Contains(v, "☐ Enable Claude Code") || !strings.Contains(v, "⦸ Claude Code (1)") {
		t.Errorf("Claude Code not shown off:\n%s", v)
	}
	r.press("down")
	r.press("space") // an entry of a source turned off stays as it is
	r.settle()
	if strings.Contains(r.settingsFile(), "slash-command:hi") {
		t.Errorf("an entry of a source turned off was toggled:\n%s", r.settingsFile())
	}

	r.press("tab") // back to ALL
	r.key("agents")
	if v := r.view(); !strings.Contains(v, "Search: agents") || !strings.Contains(v, "AGENTS.md") || strings.Contains(v, "demo") {
		t.Errorf("the search:\n%s", v)
	}
	r.press("esc")
	if v := r.view(); !strings.Contains(v, "demo") || r.m.dash == nil {
		t.Errorf("Esc does not clear the search first:\n%s", v)
	}
	fits(t, r, 80, 24)
	fits(t, r, 60, 15)
	r.press("esc")
	closedQuietly(t, r, printed)
}

// closedQuietly checks that the centre closed, the editor is back, and
// nothing was printed since printed blocks.
func closedQuietly(t *testing.T, r *rig, printed int) {
	t.Helper()
	r.settle()
	if r.m.dash != nil || !strings.Contains(r.view(), "essage gopi") {
		t.Errorf("Esc does not close the centre:\n%s", r.view())
	}
	if len(r.printed) != printed {
		t.Errorf("the centre printed into the conversation: %q", r.printed[printed:])
	}
}

// /status is the same centre.
func TestStatusOpensExtensions(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.typeAndSend("/status")
	r.until("the centre", func() bool {
		return strings.Contains(r.view(), "Extension Control Center") && r.m.dash.(*extDash).loading == false
	})
	if v := r.view(); !strings.Contains(v, "No extensions found") {
		t.Errorf("an empty session's centre:\n%s", v)
	}
	r.press("ctrl+c")
	if r.m.dash != nil {
		t.Error("Ctrl+C does not close the centre")
	}
}

// What the settings turn off is still listed, so it can be turned on
// again: a rule the session left out, an extension module and an MCP
// server that were not started.
func TestExtensionsDashboardListsWhatIsOff(t *testing.T) {
	t.Parallel()
	r := newRigFull(t, "disabledExtensions: [\"rule:style\", \"extension-module:gone\", \"mcp:srv\"]\n", func(o *agentsession.Options, _ *models.Registry) {
		write(t, filepath.Join(o.Cwd, ".gopi", "rules", "style.md"), "---\ndescription: House style\nglobs: [\"*.go\"]\n---\nUse tabs.\n")
	})
	if rs := r.s.Resources().Rules().All; len(rs) != 0 {
		t.Fatalf("the session kept the rule turned off: %v", rs)
	}
	r.typeAndSend("/extensions")
	r.until("the centre", func() bool { return strings.Contains(r.view(), "Extension Modules (1)") })
	v := r.view()
	for _, want := range []string{"⦸ gone", "Rules (1)", "⦸ style", "*.go", "MCP Servers (1)", "⦸ srv", "Disabled (manually disabled)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the centre lacks %q:\n%s", want, v)
		}
	}
	r.press("down")
	r.press("down") // the rule
	if v := r.view(); !strings.Contains(v, "Type: rule") || !strings.Contains(v, "Use tabs.") {
		t.Fatalf("the rule's details:\n%s", v)
	}
	r.press("enter")
	r.until("rule:style removed", func() bool { return !strings.Contains(r.settingsFile(), "rule:style") })
	if got := r.s.Config().Settings.Strings("disabledExtensions"); !slices.Equal(got, []string{"extension-module:gone", "mcp:srv"}) {
		t.Errorf("disabledExtensions %q", got)
	}
}

// A module of a tools/ directory is a custom tool, of the provider whose
// directory holds it; any other module is an extension module.
func TestModuleKind(t *testing.T) {
	for path, want := range map[string][2]string{
		"/p/.gopi/tools/notes.ts":           {"tool", "native"},
		"/p/.claude/tools/x/index.ts":       {"tool", "claude"},
		"/h/.codex/tools/y.js":              {"tool", "codex"},
		"/p/.gopi/extensions/guard.ts":      {"extension-module", "native"},
		"/p/.gopi/extensions/pack/index.ts": {"extension-module", "native"},
	} {
		if k, p := moduleKind(path); k != want[0] || p != want[1] {
			t.Errorf("%s: %s of %s, want %v", path, k, p, want)
		}
	}
}
