package golden

import (
	"path/filepath"
	"strings"
	"testing"
)

const caseText = `comment
-- input --
in
-- out --
old
-- want/a --
A
-- want/b --
B
`

func writeCase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case.txtar")
	writeFile(t, path, caseText)
	return path
}

func TestArchiveSection(t *testing.T) {
	t.Parallel()
	a := readArchive(t, writeCase(t), false)
	if f := a.Section("input"); f == nil || string(f.Data) != "in\n" {
		t.Fatalf("input section: %+v", f)
	}
	if a.Section("nothing") != nil {
		t.Fatal("a missing section was found")
	}
}

func TestArchiveCheckMatches(t *testing.T) {
	t.Parallel()
	path := writeCase(t)
	a := readArchive(t, path, false)
	r := &recorder{TB: t}
	ok := a.Check(r, "out", "old\n")
	ok = a.CheckPrefix(r, "want/", map[string]string{"want/a": "A\n", "want/b": "B\n"}) && ok
	a.Save(r)
	if !ok || len(r.errors) > 0 {
		t.Fatalf("matching sections reported: %q", r.errors)
	}
	if got := readFile(t, path); got != caseText {
		t.Errorf("Save without -update changed the case:\n%s", got)
	}
}

func TestArchiveMismatchReported(t *testing.T) {
	t.Parallel()
	path := writeCase(t)
	a := readArchive(t, path, false)
	r := &recorder{TB: t}
	if a.Check(r, "out", "new\n") || a.Check(r, "missing", "x\n") {
		t.Fatal("a different or missing section matched")
	}
	if a.CheckPrefix(r, "want/", map[string]string{"want/a": "A\n", "want/c": "C\n"}) {
		t.Fatal("a different set of sections matched")
	}
	a.Save(r)
	want := []string{
		"section out differs", "no missing section",
		"section want/b has no output", "output want/c has no section",
	}
	if len(r.errors) != len(want) {
		t.Fatalf("errors %q, want %d", r.errors, len(want))
	}
	for i, w := range want {
		if !strings.Contains(r.errors[i], w) || !strings.Contains(r.errors[i], path) {
			t.Errorf("error %d = %q, want it to name %s and say %q", i, r.errors[i], path, w)
		}
	}
	if got := readFile(t, path); got != caseText {
		t.Errorf("a failed check without -update changed the case:\n%s", got)
	}
}

func TestArchiveUpdateRewrites(t *testing.T) {
	t.Parallel()
	path := writeCase(t)
	a := readArchive(t, path, true)
	r := &recorder{TB: t}
	ok := a.Check(r, "out", "new\n")
	ok = a.Check(r, "added", "more\n") && ok
	ok = a.CheckFile(r, a.Section("input"), "in2\n") && ok
	ok = a.CheckPrefix(r, "want/", map[string]string{"want/c": "C\n", "want/a": "A2\n"}) && ok
	if !ok || len(r.errors) > 0 {
		t.Fatalf("update reported: %q", r.errors)
	}
	a.Save(r)
	want := `comment
-- input --
in2
-- out --
new
-- added --
more
-- want/a --
A2
-- want/c --
C
`
	if got := readFile(t, path); got != want {
		t.Errorf("rewritten case:\n%s\nwant:\n%s", got, want)
	}
}

func TestReadArchiveBadPath(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	if a := readArchive(r, filepath.Join(t.TempDir(), "none.txtar"), false); a != nil || !r.fatal {
		t.Fatalf("a missing case file read as %+v (errors %q)", a, r.errors)
	}
}
