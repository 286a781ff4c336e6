package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

// sshRun runs `gopi ssh args…` in project dir with the isolated home of
// environ.
func sshRun(t *testing.T, environ []string, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: environ,
		loadSettings: func(o config.LoadOptions) (*config.Config, error) { o.Cwd = dir; return config.Load(o) }}
	code = run(context.Background(), env, append([]string{"ssh"}, args...))
	return out.String(), errb.String(), code
}

// gopi ssh as omp's: list (empty, text, JSON, with the files the tool
// also reads), add to the project or the user file, remove, and the
// errors of each.
func TestSSHCommand(t *testing.T) {
	environ := isolatedEnviron(t)
	home, dir := homeOf(environ), t.TempDir()
	project, user := filepath.Join(dir, ".gopi", "ssh.json"), filepath.Join(home, ".gopi", "agent", "ssh.json")
	check := func(wantOut, wantErr string, wantCode int, args ...string) {
		t.Helper()
		out, errOut, code := sshRun(t, environ, dir, args...)
		if out != wantOut || errOut != wantErr || code != wantCode {
			t.Fatalf("gopi ssh %v: %d\nstdout %q\nstderr %q", args, code, out, errOut)
		}
	}
	check("No SSH hosts configured\nAdd one with: gopi ssh add <name> --host <address>\n", "", 0)
	check(`Added SSH host "web" to project config`+"\n", "", 0, "add", "web", "--host", "10.0.0.1", "--port", "2222", "--user", "me", "--desc", "the web")
	check(`Added SSH host "db" to user config`+"\n", "", 0, "add", "db", "--host", "db.example", "--key", "~/.ssh/id", "--scope", "user")
	check("", `gopi ssh: Host "web" already exists in `+project+"\n", 2, "add", "web", "--host", "x")
	check("", "gopi ssh: --host is required: gopi ssh add x --host ADDRESS (see 'gopi ssh --help')\n", 2, "add", "x")
	check("", "gopi ssh: Port must be an integer between 1 and 65535, not \"0\" (see 'gopi ssh --help')\n", 2, "add", "x", "--host", "h", "--port", "0")
	check("", "gopi ssh: Host name can only contain letters, numbers, dash, underscore, and dot\n", 2, "add", "a b", "--host", "h")
	check("", "gopi ssh: Unknown action: frob. Valid actions: add, remove, list (see 'gopi ssh --help')\n", 2, "frob")
	if err := os.WriteFile(filepath.Join(dir, "ssh.json"), []byte(`{"hosts":{"legacy":{"host":"l"},"web":{"host":"shadowed"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	check("Project SSH Hosts ("+project+"):\n  web  10.0.0.1  me  port:2222  - the web\n\n"+
		"User SSH Hosts ("+user+"):\n  db  db.example  ~/.ssh/id\n\n"+
		"Discovered ("+filepath.Join(dir, "ssh.json")+"), read-only:\n  legacy  l\n", "", 0, "list")
	check(`{
  "project": {
    "web": {
      "host": "10.0.0.1",
      "username": "me",
      "port": 2222,
      "description": "the web"
    }
  },
  "user": {
    "db": {
      "host": "db.example",
      "keyPath": "~/.ssh/id"
    }
  }
}
`, "", 0, "list", "--json")
	check(`Removed SSH host "db" from user config`+"\n", "", 0, "remove", "db", "--scope", "user")
	check("", `gopi ssh: Host "db" not found in `+user+"\n", 2, "remove", "db", "--scope", "user")
	if st, err := os.Stat(project); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("project file: %v %v", st, err)
	}
}
