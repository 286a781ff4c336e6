package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/native/astgrep"
)

func TestASTEditApplyFailingPartWay(t *testing.T) {
	if !astgrep.Available {
		t.Skip("native library not linked")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{"a.py": "f(1)\n", "b.py": "f(2)\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := filepath.Join(dir, "b.py")
	if out, err := exec.Command("chattr", "+i", b).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", b).Run() })
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
	code := run(context.Background(), env, []string{"ast", "edit", "-p", "f($A)", "-r", "g($A)", "--apply", "."})
	want := "gopi ast edit: the rewrite was only partly applied: 1 of 2 files written\n" +
		"gopi ast edit: written: a.py\n" +
		"gopi ast edit: not written: b.py\n"
	if code != exitError || !strings.HasPrefix(stderr.String(), "gopi ast edit: write b.py: ") || !strings.HasSuffix(stderr.String(), want) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.py")); string(got) != "g(1)\n" {
		t.Fatalf("a.py %q", got)
	}
}
