package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/buildinfo"
)

// gopi shell runs lines from a pipe in one persistent shell.
func TestShellCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	dir := t.TempDir()
	out, errOut, code := loginRun(t, environ, nil, "x=41\necho $((x+1))\ncd sub 2>/dev/null || mkdir sub && cd sub\nbasename \"$PWD\"\nfalse\nprintf tail\n.help\nexit\necho after\n", "shell", "-C", dir)
	if code != 0 || out != "42\nsub\ntail\n"+shellConsoleHelp || errOut != "Exit code: 1\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	_, errOut, code = loginRun(t, environ, nil, "sleep 5\n", "shell", "-t", "50")
	if code != 0 || errOut != "Command timed out.\n" {
		t.Fatalf("exit %d: %q", code, errOut)
	}
}

// gopi update names the clone a bin/gopi was built in and what to run;
// elsewhere it says how to replace the binary. It downloads nothing.
func TestUpdateCommand(t *testing.T) {
	clone := t.TempDir()
	write(t, filepath.Join(clone, "go.mod"), "module "+buildinfo.Module+"\n\ngo 1.26\n")
	for _, c := range []struct {
		exe, want string
	}{
		{filepath.Join(clone, "bin", "gopi"), "Installed: built in the clone " + clone + " (" + filepath.Join(clone, "bin", "gopi") + ")\ngopi update downloads nothing. To update:\n  cd " + clone + "\n  git pull\n  make\n"},
		{"/opt/tools/bin/gopi", "Installed: /opt/tools/bin/gopi (by make install, or from a release archive)\n"},
		{"/opt/gopi", "  replace /opt/gopi with a newer build"},
	} {
		var out strings.Builder
		env := &cliEnv{stdout: &out, stderr: &out, stdin: strings.NewReader(""), exe: c.exe, build: &buildinfo.Stamp{Version: "v9.9.9", Commit: "0123456789abcdef0123", Date: "2026-11-29T00:00:00Z"}}
		if code := run(context.Background(), env, []string{"update"}); code != 0 || !strings.HasPrefix(out.String(), "gopi v9.9.9 (commit 0123456789ab, built 2026-11-29T00:00:00Z)\n") || !strings.Contains(out.String(), c.want) {
			t.Errorf("%s: exit %d: %q", c.exe, code, out.String())
		}
	}
}

// gopi setup checks and says what to install; an unknown component is
// refused with the known ones.
func TestSetupCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	out, _, code := loginRun(t, append(environ, "PATH="+t.TempDir()), nil, "", "setup", "stt", "--json")
	var s struct {
		Recorder, Python, Whisper struct {
			Available   bool
			InstallHint string
		}
	}
	if code != exitNoMatch || json.Unmarshal([]byte(out), &s) != nil || s.Recorder.Available || s.Python.Available || !strings.Contains(s.Recorder.InstallHint, "sox") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if _, errOut, code := loginRun(t, environ, nil, "", "setup", "gpu"); code != exitError || !strings.Contains(errOut, `unknown component "gpu"; use python or stt`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out, _, code := loginRun(t, environ, nil, "", "setup"); code != 0 || !strings.Contains(out, "never installs anything") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// gopi grievances lists and cleans omp's auto-QA database.
func TestGrievancesCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	if out, _, code := loginRun(t, environ, nil, "", "grievances"); code != 0 || !strings.HasPrefix(out, "No grievances database found.") {
		t.Fatalf("exit %d: %q", code, out)
	}
	dir := filepath.Join(homeOf(environ), ".omp", "agent")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "autoqa.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE grievances (id INTEGER PRIMARY KEY AUTOINCREMENT, model TEXT NOT NULL, version TEXT NOT NULL, tool TEXT NOT NULL, report TEXT NOT NULL);
		INSERT INTO grievances (model, version, tool, report) VALUES ('m1', '14.9.9', 'find', 'globs miss dotfiles'), ('m2', '14.9.9', 'read', 'offset off by one'), ('m1', '14.9.9', 'find', 'slow');`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, code := loginRun(t, environ, nil, "", "grievances", "list", "-t", "find")
	if code != 0 || out != "#3 find (m1 v14.9.9)\n  slow\n\n#1 find (m1 v14.9.9)\n  globs miss dotfiles\n\nShowing 2 most recent for find\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
	if _, errOut, code := loginRun(t, environ, nil, "", "grievances", "clean"); code != exitError || !strings.Contains(errOut, "give exactly one of --id, --tool or --all") {
		t.Fatalf("exit %d: %q", code, errOut)
	}
	if out, _, _ := loginRun(t, environ, nil, "", "grievances", "clean", "--tool", "find", "--json"); out != "{\"deleted\":2}\n" {
		t.Fatalf("%q", out)
	}
	if out, _, _ := loginRun(t, environ, nil, "", "grievances", "-j"); !strings.Contains(out, `"report": "offset off by one"`) || strings.Contains(out, "find") {
		t.Fatalf("%q", out)
	}
}

// gopi plugin refuses a plugin id without its marketplace, saying how
// to write one.
func TestPluginCommand(t *testing.T) {
	_, errOut, code := loginRun(t, isolatedEnviron(t), nil, "", "plugin", "install", "x")
	if code != exitError || errOut != "gopi plugin: invalid plugin id \"x\": write it as name@marketplace\n" {
		t.Fatalf("exit %d: %q", code, errOut)
	}
}
