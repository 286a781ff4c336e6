package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/sessiongen"
)

// gopi stats adds up the sessions in the agent directory.
func TestStatsCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	sessions := filepath.Join(homeOf(environ), ".gopi", "agent", "sessions")
	for i, cwd := range []string{"/work/a", "/work/b"} {
		if _, err := sessiongen.Write(sessiongen.Options{Dir: filepath.Join(sessions, "--work-x--"), Cwd: cwd, Entries: 30, Seed: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := loginRun(t, environ, nil, "", "stats", "--json")
	var r struct {
		Sessions int
		Overall  struct{ TotalRequests int64 }
		ByFolder []struct{ Folder string }
		ByTool   []struct {
			Tool  string
			Calls int64
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Sessions != 2 || r.Overall.TotalRequests == 0 || len(r.ByFolder) != 2 || len(r.ByTool) == 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	out, _, code = loginRun(t, environ, nil, "", "stats")
	if code != 0 || !strings.HasPrefix(out, "Read 2 session files, 2 of them unchanged since the last run (") || !strings.Contains(out, "\n  Sessions: 2\n") || !strings.Contains(out, "\nBy Folder:\n  /work/") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "stats", "--rescan"); !strings.HasPrefix(out, "Read 2 session files, 0 of them unchanged") {
		t.Fatalf("%s", out)
	}
	if _, errOut, code = loginRun(t, environ, nil, "", "stats", "extra"); code != exitError || !strings.Contains(errOut, "takes no arguments") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
