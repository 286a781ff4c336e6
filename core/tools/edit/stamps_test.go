package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// A file another program writes between an edit call's read and its write
// is not overwritten with text made from the old content; the call's own
// second write of a file it wrote, and a file nobody touched, go through.
func TestEditRefusesFileChangedSinceRead(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	abs := filepath.Join(env.Cwd, "a.txt")
	if err := os.WriteFile(abs, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	call := &Tool{env: env, mode: tool.EditReplace, read: &readStamps{}}
	if _, err := call.ReadFile(abs); err != nil {
		t.Fatal(err)
	}
	// Another program saves the file the way editors do: a new file renamed over it.
	tmp := filepath.Join(env.Cwd, ".a.txt.swp")
	if err := os.WriteFile(tmp, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, abs); err != nil {
		t.Fatal(err)
	}
	err := call.WriteFile(abs, []byte("one edited\n"))
	if err == nil || !strings.Contains(err.Error(), "a.txt changed on disk after this edit read it") {
		t.Fatalf("write over a changed file: %v", err)
	}
	if b, _ := os.ReadFile(abs); string(b) != "two\n" {
		t.Fatalf("the other program's text was replaced: %q", b)
	}

	// A fresh call reads the new text and writes twice.
	call = &Tool{env: env, mode: tool.EditReplace, read: &readStamps{}}
	if _, err := call.ReadFile(abs); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"three\n", "four\n"} {
		if err := call.WriteFile(abs, []byte(text)); err != nil {
			t.Fatalf("write %q: %v", text, err)
		}
	}

	// A file that was missing when read and is created meanwhile.
	fresh := filepath.Join(env.Cwd, "new.txt")
	if _, err := call.ReadFile(fresh); !os.IsNotExist(err) {
		t.Fatalf("read of a missing file: %v", err)
	}
	if err := os.WriteFile(fresh, []byte("theirs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := call.WriteFile(fresh, []byte("ours\n")); err == nil {
		t.Fatal("a file created after the read was overwritten")
	}
}
