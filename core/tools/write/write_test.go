package write

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
)

func TestGolden(t *testing.T) { tooltest.RunDir(t, "testdata/golden", New) }

func TestWriteKeepsModeAndInvalidatesScan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "run.sh")
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	env := tool.NewEnv(dir)
	raw, _ := json.Marshal(map[string]string{"path": "run.sh", "content": "#!/bin/sh\necho hi\n"})
	res, err := tool.Run(context.Background(), New(env), raw, nil)
	if err != nil || res.IsError || res.FirstText() != "Updated run.sh (2 lines)" {
		t.Fatalf("%v %v", res.FirstText(), err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o755 {
		t.Fatal(fi.Mode())
	}
}

// write runs the write tool rooted at cwd.
func write(t *testing.T, cwd, path, content string) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"path": path, "content": content})
	res, err := tool.Run(context.Background(), New(tool.NewEnv(cwd)), raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Read-only and hard-linked files are refused, each with a message that
// says why and what to do, and are left as they were.
func TestWriteRefusesReadOnlyAndHardLinked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.txt")
	os.WriteFile(ro, []byte("old\n"), 0o444)
	res := write(t, dir, "ro.txt", "new\n")
	if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "ro.txt is read-only") || !strings.Contains(msg, "chmod u+w") {
		t.Errorf("read-only: error=%v %s", res.IsError, msg)
	}
	a := filepath.Join(dir, "a.txt")
	os.WriteFile(a, []byte("old\n"), 0o644)
	if err := os.Link(a, filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	res = write(t, dir, "a.txt", "new\n")
	if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "a.txt has 2 hard links") {
		t.Errorf("hard link: error=%v %s", res.IsError, msg)
	}
	for _, p := range []string{ro, a} {
		if b, _ := os.ReadFile(p); string(b) != "old\n" {
			t.Errorf("%s changed to %q", p, b)
		}
	}
}

// A symbolic link is written through and stays a link.
func TestWriteThroughSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "real.txt"), []byte("old\n"), 0o600)
	if err := os.Symlink("real.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if res := write(t, dir, "link.txt", "new\n"); res.IsError {
		t.Fatal(res.FirstText())
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi, err)
	}
	fi, _ := os.Stat(filepath.Join(dir, "real.txt"))
	if b, _ := os.ReadFile(filepath.Join(dir, "real.txt")); string(b) != "new\n" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("target %q mode %v", b, fi.Mode().Perm())
	}
}

// A file outside the working directory is written, with a warning.
func TestWriteOutsideCwdWarns(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cwd := filepath.Join(root, "project")
	os.MkdirAll(cwd, 0o755)
	res := write(t, cwd, "../out.txt", "x\n")
	want := filepath.Join(root, "out.txt") + " is outside the working directory " + cwd
	if res.IsError || !strings.Contains(res.FirstText(), want) || len(res.Details.(*Details).Warnings) != 1 {
		t.Fatalf("error=%v %q", res.IsError, res.FirstText())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "out.txt")); string(b) != "x\n" {
		t.Fatalf("content %q", b)
	}
	if res := write(t, cwd, "in.txt", "x\n"); strings.Contains(res.FirstText(), "outside") {
		t.Fatalf("warning for a file inside: %q", res.FirstText())
	}
}
