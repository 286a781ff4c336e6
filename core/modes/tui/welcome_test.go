package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/internal/golden"
)

// The welcome block names the model, the project's language servers
// (found, not started; linters left out) and the directory's other
// sessions; at a narrow width it keeps to one column.
func TestWelcomeGolden(t *testing.T) {
	r := newRigFull(t, "", func(o *agentsession.Options, _ *models.Registry) {
		home := filepath.Dir(filepath.Dir(o.Config.AgentDir))
		prog := filepath.Join(home, "fake-ls")
		write(t, prog, "#!/bin/sh\n")
		if err := os.Chmod(prog, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(home, "lsp.json"), `{"servers": {
  "fake-ls": {"command": "`+prog+`", "fileTypes": [".fk", ".fkx", ".fki", ".fkz"], "rootMarkers": ["fake.marker"]},
  "fake-lint": {"command": "`+prog+`", "fileTypes": [".fk"], "rootMarkers": ["fake.marker"], "isLinter": true}}}`)
		write(t, filepath.Join(o.Cwd, "fake.marker"), "")
	}, answer("hi"))
	r.typeAndSend("an earlier session")
	r.idle()
	r.update(r.m.cmdNew("")())
	r.idle()
	for _, w := range []int{80, 40} {
		got := ansi.Strip(r.m.welcome(w))
		got = regexp.MustCompile(`\((just now|\d+ min ago)\)`).ReplaceAllStringFunc(got, func(s string) string { return "(" + strings.Repeat("~", len(s)-2) + ")" })
		golden.Check(t, filepath.Join("testdata", "welcome", "welcome-"+itoa(w)+".txt"), got+"\n")
	}
}
