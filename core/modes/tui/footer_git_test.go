package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestPorcelainMarks(t *testing.T) {
	cases := []struct{ out, want string }{
		{"", ""},
		{" M a.go\n?? new.txt\n", "*1 ?1"},
		{"M  staged.go\nMM both.go\nA  added.go\n D gone.go\n?? x\n?? y\n", "*2 +3 ?2"},
		{"R  old -> new\n!! ignored\n", "+1"},
	}
	for _, c := range cases {
		if got := porcelainMarks(c.out); got != c.want {
			t.Errorf("porcelainMarks(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

// The footer shows the session's title and the branch with its dirty
// marks, read from git after a change.
func TestFooterTitleAndGitMarks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH (scripts/setup.sh installs it)")
	}
	r := newRig(t)
	r.m.width = 200 // room for the temporary directory's long path
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", r.project, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	write(t, filepath.Join(r.project, "a.txt"), "one\n")
	git("add", "a.txt")
	git("commit", "-qm", "one")
	if err := os.WriteFile(filepath.Join(r.project, "a.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(r.project, "b.txt"), "new\n")
	r.typeAndSend("/rename Footer check")
	r.until("the footer", func() bool { return strings.Contains(r.m.footer(), "(main *1 ?1)") })
	if f := r.m.footer(); !strings.Contains(f, "Footer check · ") {
		t.Fatalf("footer without the title: %q", f)
	}
}

// A narrow footer shortens the directory from its start and keeps the
// branch and its marks (omp's "…/o4/proj"), then drops the directory, then
// the rest; the title goes first.
func TestFooterNarrowKeepsBranch(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.m.status = status{model: "mock/mock-model", cwd: "/tmp/some/long/path/to/the/project", branch: "main", gitMarks: "*1 ?2", sessionName: "A title"}
	for _, c := range []struct {
		width     int
		want, not string
	}{
		{120, "A title · /tmp/some/long/path/to/the/project (main *1 ?2)", ""},
		{70, "/tmp/some/long/path/to/the/project (main *1 ?2)", "A title"},
		{60, "…ome/long/path/to/the/project (main *1 ?2)", "/tmp/"},
		{40, "…/project (main *1 ?2)", "/the/"},
		{30, "(main *1 ?2)", "project"},
		{20, "mock/mock-model", "main"},
	} {
		r.m.width = c.width
		f := r.m.footer()
		if !strings.Contains(f, c.want) || c.not != "" && strings.Contains(f, c.not) || ansi.StringWidth(f) > c.width-1 {
			t.Errorf("width %d: footer %q, want %q", c.width, f, c.want)
		}
		if !strings.HasPrefix(f, "mock/mock-model") {
			t.Errorf("width %d: the model went: %q", c.width, f)
		}
	}
}
