package bash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// skillFiles serves skill://doc/… from a directory.
type skillFiles struct{ dir string }

func (s skillFiles) ReadInternal(string) (string, string, bool, error) { return "", "", false, nil }

func (s skillFiles) InternalFile(url string) (string, bool, error) {
	rest, ok := strings.CutPrefix(url, "skill://doc/")
	if !ok {
		return "", false, nil
	}
	return filepath.Join(s.dir, rest), true, nil
}

func TestBashResolvesSkillURLs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("echo from the skill\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := newEnv(t)
	env.SetInternalResources(skillFiles{dir})
	if o := callTool(t, env, `{"command": "sh skill://doc/run.sh"}`); o.isError || strings.TrimSpace(o.text) != "from the skill" {
		t.Errorf("skill script: %+v", o)
	}
}

// local:// names a file of the session's scratch directory in the
// command and its environment; the file's parent directories are made
// first so the command can write it; the working directory is not made;
// ".." out of the directory is refused; a session without a scratch
// directory says so.
func TestBashResolvesLocalURLs(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.LocalFallback = t.TempDir()
	scratch := env.LocalDir()
	if o := callTool(t, env, `{"command": "echo plan > local://notes/deep/plan.md && cat \"$P\"", "env": {"P": "local://notes/deep/plan.md"}}`); o.isError || o.text != "plan\n" {
		t.Fatalf("write through local://: %+v", o)
	}
	if b, err := os.ReadFile(filepath.Join(scratch, "notes", "deep", "plan.md")); err != nil || string(b) != "plan\n" {
		t.Fatalf("scratch file: %q %v", b, err)
	}
	if o := callTool(t, env, `{"command": "pwd", "cwd": "local://nowhere"}`); !o.isError {
		t.Errorf("a missing local:// working directory was made: %+v", o)
	}
	if o := callTool(t, env, `{"command": "cat local://../../etc/passwd"}`); !o.isError || !strings.Contains(o.text, "leaves local://") {
		t.Errorf("escape: %+v", o)
	}
	bare := newEnv(t)
	bare.Artifacts, bare.LocalFallback = nil, ""
	if o := callTool(t, bare, `{"command": "cat local://x"}`); !o.isError || !strings.Contains(o.text, "no scratch directory") {
		t.Errorf("no scratch directory: %+v", o)
	}
}
