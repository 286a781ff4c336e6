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
