package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/ai"
)

// /ssh as omp's: help, add (project by default, user with --scope),
// list with the other files the tool reads, remove, and the errors.
func TestSSHCommand(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.s.Config()
	project, user := c.SSHConfigPath("project"), c.SSHConfigPath("user")
	send := func(line string) string {
		t.Helper()
		before := len(r.printed)
		r.typeAndSend(line)
		r.settle()
		return strings.Join(r.printed[before:], "\n")
	}
	for _, tc := range []struct{ line, want string }{
		{"/ssh", "SSH Host Management"},
		{"/ssh list", "No SSH hosts configured."},
		{`/ssh add web --host 10.0.0.1 --port 2222 --user me --desc "the web"`, "✓ Added SSH host \"web\" to project config\n  Host: 10.0.0.1\n  User: me\n  Port: 2222\n  Desc: the web"},
		{"/ssh add db --host db.example --scope user", `✓ Added SSH host "db" to user config`},
		{"/ssh add web --host x", `Failed to add host: Host "web" already exists in ` + project + " (use /ssh remove first"},
		{"/ssh add", "Usage: /ssh add <name> --host <host>"},
		{"/ssh add x", "--host is required. Usage: /ssh add <name> --host <host> ..."},
		{"/ssh add x --host h --port 99999", "Invalid --port value. Must be an integer between 1 and 65535."},
		{"/ssh add x --host h --scope team", "Invalid --scope value. Use project or user."},
		{"/ssh add x --host h --bogus", "Unknown option: --bogus"},
		{"/ssh remove nope", `Host "nope" not found in project config.`},
		{"/ssh frob", "Unknown subcommand: frob. Type /ssh help for usage."},
	} {
		// Long error lines wrap at the terminal's width: compare words.
		if got := send(tc.line); !strings.Contains(got, tc.want) && !strings.Contains(strings.Join(strings.Fields(got), " "), strings.Join(strings.Fields(tc.want), " ")) {
			t.Errorf("%s: got\n%s\nwant %q", tc.line, got, tc.want)
		}
	}
	write(t, filepath.Join(r.project, "ssh.json"), `{"hosts":{"legacy":{"host":"l","port":2200}}}`)
	got := send("/ssh list")
	for _, want := range []string{"Configured SSH Hosts", "User level (" + user + "):\n  db [db.example]", "Project level (" + project + "):\n  web [10.0.0.1, user=me, port=2222]",
		"Discovered (" + filepath.Join(r.project, "ssh.json") + "): read-only\n  legacy [l, port=2200]"} {
		if !strings.Contains(got, want) {
			t.Errorf("/ssh list lacks %q:\n%s", want, got)
		}
	}
	if got := send("/ssh rm web"); !strings.Contains(got, `✓ Removed SSH host "web" from project config`) {
		t.Errorf("remove: %s", got)
	}
	data, _ := os.ReadFile(project)
	if strings.Contains(string(data), "web") {
		t.Errorf("web is still in %s:\n%s", project, data)
	}
	if r.printedHas("Unknown command") {
		t.Errorf("/ssh unknown:\n%s", r.transcript())
	}
}

// An ssh call's card reads "[ssh: host $ command]" and shows the end of
// the output, as bash's does.
func TestSSHCard(t *testing.T) {
	t.Parallel()
	r := &renderer{th: newTheme(true, true), width: 80}
	var out []string
	for i := 1; i <= 15; i++ {
		out = append(out, "line "+strconv.Itoa(i))
	}
	card := ansi.Strip(r.card(&ai.ToolCall{Name: "ssh", Arguments: map[string]any{"host": "web", "command": "seq 15"}},
		[]ai.Content{&ai.TextContent{Text: strings.Join(out, "\n")}}, nil, false))
	if !strings.Contains(card, "[ssh: web $ seq 15]") || !strings.Contains(card, "line 15") || strings.Contains(card, "line 5\n") {
		t.Fatalf("%s", card)
	}
}
