package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// ompSlashCommands is omp 14.9.9's list of built-in slash commands, in
// the order of its registry (src/slash-commands/builtin-registry.ts), its
// aliases (models, status, bg) after the command they name. Each is typed
// as a person would, with what gopi answers: a line it prints or a notice
// (marker), or a picker it opens (picker: closed again with Esc).
var ompSlashCommands = []struct {
	typed, marker string
	picker        bool
	skip          string // why the command is not typed (yet)
}{
	{typed: "/settings", marker: "enter/space change", picker: true},
	{typed: "/plan", marker: "Plan mode enabled"},
	{typed: "/loop", marker: "Loop mode enabled."},
	{typed: "/loop", marker: "Loop mode disabled"},
	{typed: "/model", marker: "Model", picker: true},
	{typed: "/models", marker: "Model", picker: true},
	{typed: "/fast", marker: "Fast mode enabled"},
	{typed: "/export page.html", marker: "Exported to:"},
	{typed: "/dump", marker: "No messages to dump yet"},
	{typed: "/share", marker: "GitHub CLI is not logged in"},
	{typed: "/browser", marker: "Browser mode: headless"},
	{typed: "/copy", marker: "No answer to copy yet"},
	{typed: "/todo", marker: "No todos."},
	{typed: "/session", marker: "messages   0 user"},
	{typed: "/jobs", marker: "Background jobs"},
	{typed: "/usage", marker: "No usage yet"},
	{typed: "/changelog", marker: "gopi ships no changelog file"},
	{typed: "/hotkeys", marker: "Alt+Enter"},
	{typed: "/tools", marker: "Tools offered to the model"},
	{typed: "/context", marker: "Context usage"},
	{typed: "/extensions", marker: "Extension Control Center", picker: true},
	{typed: "/status", marker: "Extension Control Center", picker: true},
	{typed: "/agents", marker: "Agent Control Center", picker: true},
	{typed: "/branch", marker: "nothing to branch from"},
	{typed: "/fork", marker: "Session forked to"},
	{typed: "/tree", marker: "nothing to move to"},
	{typed: "/login", marker: "Log in to", picker: true},
	{typed: "/logout", marker: "No credentials stored"},
	{typed: "/mcp", marker: "MCP servers"},
	{typed: "/ssh", marker: "SSH Host Management"},
	{typed: "/new", marker: "new session"},
	{typed: "/drop", marker: "session dropped"},
	{typed: "/compact", marker: "Nothing to compact"},
	{typed: "/handoff", marker: "Nothing to hand off"},
	{typed: "/resume", marker: "Resume a session", picker: true},
	{typed: "/btw", marker: "Usage: /btw <question>"},
	{typed: "/retry", marker: "Nothing to retry"},
	{typed: "/background", marker: "The agent is idle"},
	{typed: "/bg", marker: "The agent is idle"},
	{typed: "/debug", marker: "View: system info", picker: true},
	{typed: "/memory", marker: "The memory backend is off in this session"},
	{typed: "/rename", marker: "Usage: /rename <title>"},
	{typed: "/move", marker: "Usage: /move <path>"},
	{typed: "/marketplace", marker: "No marketplace plugins to browse"},
	{typed: "/plugins", marker: "No plugins installed"},
	{typed: "/reload-plugins", marker: "Plugins load when a session starts"},
	{typed: "/force", marker: "Usage: /force <tool-name>"},
	{typed: "/quit", marker: "EXITED 0"},
}

// Every slash command of omp 14.9.9 typed into the interactive mode on a
// real terminal: each answers (a line, a notice or a picker) and none is
// an unknown command. /exit, the other way out, ends a second run.
func TestTUISlashCommandsInTmux(t *testing.T) {
	r := newAgentRig(t)
	// gh is found but not logged in: /share fails as it says.
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append([]string(nil), r.Environ...)
	for i, e := range env {
		if strings.HasPrefix(e, "PATH=") {
			env = append(env[:i:i], env[i+1:]...)
			break
		}
	}
	env = append(env, "PATH="+bin+":"+os.Getenv("PATH"))
	x := startTmux(t, 120, 40, r.Project, env, "--no-title")
	x.waitFor("Message gopi")
	for _, c := range ompSlashCommands {
		if c.skip != "" {
			continue // see c.skip
		}
		before := strings.Count(x.scrollback(), c.marker)
		x.typ(c.typed)
		x.keys("Enter")
		x.waitMore(c.typed, c.marker, before)
		if c.picker {
			x.keys("Escape")
			x.waitGone(c.marker)
		}
		if all := x.scrollback(); strings.Contains(all, "Unknown command") {
			t.Fatalf("%s: unknown command:\n%s", c.typed, all)
		}
	}
	y := startTmux(t, 100, 30, r.Project, env, "--no-title")
	y.waitFor("Message gopi")
	y.typ("/exit")
	y.keys("Enter")
	y.waitFor("EXITED 0")
}

// waitMore waits until the history and screen hold marker more than
// before times (typed names the command, for the failure).
func (x *tmuxTerm) waitMore(typed, marker string, before int) {
	x.t.Helper()
	deadline := testwait.Deadline(x.t)
	for {
		all := x.scrollback()
		if strings.Count(all, marker) > before {
			return
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("%s: waiting for %q; the terminal shows:\n%s", typed, marker, all)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone waits until the screen no longer shows text (a picker closed).
func (x *tmuxTerm) waitGone(text string) {
	x.t.Helper()
	deadline := testwait.Deadline(x.t)
	for strings.Contains(x.screen(), text) {
		if time.Now().After(deadline) {
			x.t.Fatalf("%q stays on the screen:\n%s", text, x.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// /todo edit hands the terminal to $EDITOR on the plan as Markdown and
// takes back what it saved.
func TestTUITodoEditInTmux(t *testing.T) {
	r := newAgentRig(t)
	editor := filepath.Join(t.TempDir(), "editor")
	script := "#!/bin/sh\nprintf '# Release\\n- [/] tag the build\\n- [ ] write the notes\\n' > \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	x := startTmux(t, 100, 30, r.Project, append(append([]string(nil), r.Environ...), "EDITOR="+editor), "--no-title")
	x.waitFor("Message gopi")
	x.typ(`/todo append "first task"`)
	x.keys("Enter")
	x.waitFor("Appended to Todos: First task")
	x.typ("/todo edit")
	x.keys("Enter")
	x.waitFor("/todo edit: 1 phase(s), 2 task(s)")
	x.typ("/todo")
	x.keys("Enter")
	x.waitFor("# Release", "- [/] tag the build", "- [ ] write the notes")
	x.typ("/quit")
	x.keys("Enter")
	x.waitFor("EXITED 0")
}
