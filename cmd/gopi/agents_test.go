package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/task"
)

// gopi agents lists the bundled definitions and the user's (which win),
// shows one, and unpacks the bundled ones without overwriting.
func TestAgentsCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	t.Chdir(t.TempDir())
	userDir := filepath.Join(homeOf(environ), ".gopi", "agent", "agents")
	if err := os.MkdirAll(userDir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(userDir, "explore.md"), "---\nname: explore\ndescription: My own scout.\ntools: read, find\n---\nLook around.\n")
	write(t, filepath.Join(userDir, "reviewer.md"), "---\nname: reviewer\ndescription: Reviews diffs.\n---\nReview.\n")

	out, errOut, code := loginRun(t, environ, nil, "", "agents")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 4 || strings.Join(strings.Fields(lines[1]), " ") != "explore user My own scout." ||
		strings.Join(strings.Fields(lines[2]), " ") != "reviewer user Reviews diffs." || !strings.Contains(lines[3], " bundled ") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	out, _, code = loginRun(t, environ, nil, "", "agents", "show", "explore")
	if code != 0 || !strings.Contains(out, "Source: user\nFile: "+filepath.Join(userDir, "explore.md")+"\n") || !strings.Contains(out, "Tools: read, find\n") || !strings.HasSuffix(out, "\n\nLook around.\n") {
		t.Fatalf("exit %d: %q", code, out)
	}
	if _, errOut, code = loginRun(t, environ, nil, "", "agents", "show", "nope"); code != exitError || !strings.Contains(errOut, `no agent named "nope"; the agents are: explore, reviewer, implement, `) {
		t.Fatalf("exit %d: %q", code, errOut)
	}
	out, _, code = loginRun(t, environ, nil, "", "agents", "unpack")
	n := len(task.Bundled())
	if code != 0 || !strings.Contains(out, fmt.Sprintf("Bundled agents: %d\nTarget directory: %s\nWritten: %d\nSkipped existing: 1 (use --force to overwrite)\n", n, userDir, n-1)) {
		t.Fatalf("exit %d: %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(userDir, "explore.md")); !strings.Contains(string(b), "My own scout.") {
		t.Fatal("unpack overwrote the user's file without --force")
	}
	if b, _ := os.ReadFile(filepath.Join(userDir, "plan.md")); !strings.HasPrefix(string(b), "---\nname: plan\n") {
		t.Fatalf("%q", b)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "agents", "unpack", "--force", "--json"); !strings.Contains(out, `"skipped": []`) {
		t.Fatalf("%s", out)
	}
}
