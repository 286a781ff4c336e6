package applypatch

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

func TestParseErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ patch, want string }{
		{"", "Invalid patch: The first line of the patch must be '*** Begin Patch'"},
		{"*** Begin Patch\n*** Add File: a\n+x", "Invalid patch: The last line of the patch must be '*** End Patch'"},
		{"*** Begin Patch\n*** Frobnicate File: a\n*** End Patch", "Invalid patch hunk on line 2: '*** Frobnicate File: a' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"},
		{"*** Begin Patch\n*** Update File: a\n*** End Patch", "Invalid patch hunk on line 2: Update file hunk for path 'a' is empty"},
		{"*** Begin Patch\n*** Update File: a\n-x\n+y\nbad\n*** End Patch", "Invalid patch hunk on line 5: Expected update hunk to start with a @@ context marker, got: 'bad'"},
		{"*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch", "Invalid patch hunk on line 4: Update hunk does not contain any lines"},
		{"*** Begin Patch\n*** Update File: a\n@@ ctx\nbad line\n*** End Patch", "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'bad line'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"},
		{"*** Begin Patch\n*** Update File: a\n@@\n keep\n*** End Patch", "Invalid patch hunk on line 3: Update hunk does not contain any added or removed lines"},
		{"<<\"EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF", "Invalid patch: The first line of the patch must be '*** Begin Patch'"},
	}
	for _, c := range cases {
		_, err := Parse(c.patch)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q)\n got: %v\nwant: %s", c.patch, err, c.want)
		}
	}
}

func TestParseShapes(t *testing.T) {
	t.Parallel()
	patch := "  *** Begin Patch  \n*** Add File: new.txt\n+one\n+\n*** Delete File: old.txt\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello\")\n\n@@\n a\n-b\n*** End of File\n *** End Patch "
	hunks, err := Parse(patch)
	if err != nil {
		t.Fatal(err)
	}
	if len(hunks) != 3 {
		t.Fatalf("got %d hunks", len(hunks))
	}
	if h := hunks[0]; h.Kind != AddFile || h.Path != "new.txt" || h.Contents != "one\n\n" {
		t.Errorf("add: %+v", h)
	}
	if h := hunks[1]; h.Kind != DeleteFile || h.Path != "old.txt" {
		t.Errorf("delete: %+v", h)
	}
	h := hunks[2]
	if h.Kind != UpdateFile || h.Path != "src/app.py" || h.MovePath != "src/main.py" || len(h.Chunks) != 2 {
		t.Fatalf("update: %+v", h)
	}
	if c := h.Chunks[0]; !c.HasContext || c.Context != "def greet():" || !slices.Equal(c.OldLines, []string{`print("Hi")`, ""}) || !slices.Equal(c.NewLines, []string{`print("Hello")`, ""}) || c.EndOfFile {
		t.Errorf("chunk 0: %+v", c)
	}
	if c := h.Chunks[1]; c.HasContext || !slices.Equal(c.OldLines, []string{"a", "b"}) || !slices.Equal(c.NewLines, []string{"a"}) || !c.EndOfFile {
		t.Errorf("chunk 1: %+v", c)
	}
}

func TestHeredoc(t *testing.T) {
	t.Parallel()
	for _, open := range []string{"<<EOF", "<<'EOF'", `<<"EOF"`} {
		hunks, err := Parse(open + "\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n")
		if err != nil || len(hunks) != 1 {
			t.Errorf("%s: %v %v", open, hunks, err)
		}
	}
}

func TestParseStreaming(t *testing.T) {
	t.Parallel()
	hunks, err := ParseStreaming("*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\n@@\n-y")
	if err != nil || len(hunks) != 1 || hunks[0].Path != "a" {
		t.Fatalf("got %+v %v", hunks, err)
	}
	if _, err := Parse("*** Begin Patch\n*** Add File: a\n+x"); err == nil {
		t.Fatal("Parse accepted a patch without its end marker")
	}
}

func TestSeekSequence(t *testing.T) {
	t.Parallel()
	lines := []string{"alpha", "  beta  ", "gamma\u2014delta", "\u201cq\u201d", "alpha"}
	cases := []struct {
		pattern []string
		start   int
		eof     bool
		want    int
	}{
		{[]string{"alpha"}, 0, false, 0},
		{[]string{"alpha"}, 1, false, 4},
		{[]string{"alpha"}, 0, true, 4},
		{[]string{"  beta"}, 0, false, 1},
		{[]string{"beta"}, 0, false, 1},
		{[]string{"gamma-delta", `"q"`}, 0, false, 2},
		{[]string{"nope"}, 0, false, -1},
		{[]string{}, 3, false, 3},
		{[]string{"a", "b", "c", "d", "e", "f"}, 0, false, -1},
	}
	for _, c := range cases {
		if got := seekSequence(lines, c.pattern, c.start, c.eof); got != c.want {
			t.Errorf("seek(%q, %d, %v) = %d, want %d", c.pattern, c.start, c.eof, got, c.want)
		}
	}
}

func TestFoldTable(t *testing.T) {
	t.Parallel()
	in := "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\u2016"
	want := "-------''''\"\"\"\"             \u2016"
	if got := foldPunctuation(in); got != want {
		t.Fatalf("fold = %q, want %q", got, want)
	}
}

func TestApplyScenarios(t *testing.T) {
	t.Parallel()
	fsys := newMemFS(map[string]string{
		"/w/a.txt":      "one\ntwo\nthree\nfour",
		"/w/crlf.txt":   "\ufeffx\r\ny\r\n",
		"/w/gone.txt":   "bye\n",
		"/w/mv/src.txt": "m1\nm2\n",
	})
	fsys.dirs["/w/dir"] = true
	patch := strings.Join([]string{
		"*** Begin Patch",
		"*** Update File: a.txt",
		"@@",
		" two",
		"-three",
		"+THREE",
		"@@",
		"+tail",
		"*** Update File: crlf.txt",
		"-y",
		"+why",
		"*** Add File: sub/dir/new.txt",
		"+hello",
		"*** Delete File: gone.txt",
		"*** Update File: mv/src.txt",
		"*** Move to: moved/dst.txt",
		"@@",
		"-m2",
		"+M2",
		"*** End Patch",
	}, "\n")
	res, err := Apply(patch, "/w", fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"/w/a.txt":           "one\ntwo\nTHREE\nfour\ntail\n",
		"/w/crlf.txt":        "\ufeffx\r\nwhy\r\n",
		"/w/sub/dir/new.txt": "hello\n",
		"/w/moved/dst.txt":   "m1\nM2\n",
	}
	for p, w := range want {
		if got := fsys.files[p]; got != w {
			t.Errorf("%s = %q, want %q", p, got, w)
		}
	}
	for _, p := range []string{"/w/gone.txt", "/w/mv/src.txt"} {
		if _, ok := fsys.files[p]; ok {
			t.Errorf("%s still exists", p)
		}
	}
	wantSummary := "Success. Updated the following files:\nA sub/dir/new.txt\nM a.txt\nM crlf.txt\nM mv/src.txt -> moved/dst.txt\nD gone.txt\n"
	if got := res.Summary(); got != wantSummary {
		t.Errorf("summary:\n%s\nwant:\n%s", got, wantSummary)
	}
}

func TestApplyFailures(t *testing.T) {
	t.Parallel()
	base := map[string]string{"/w/a.txt": "one\ntwo\n"}
	cases := []struct{ patch, want string }{
		{"*** Begin Patch\n*** End Patch", "No files were modified."},
		{"*** Begin Patch\n*** Update File: a.txt\n@@ zero\n-one\n+1\n*** End Patch", "Failed to find context 'zero' in a.txt"},
		{"*** Begin Patch\n*** Update File: a.txt\n-uno\n-dos\n+1\n*** End Patch", "Failed to find expected lines in a.txt:\nuno\ndos"},
		{"*** Begin Patch\n*** Update File: b.txt\n-uno\n+1\n*** End Patch", "Failed to read file to update b.txt: file does not exist"},
		{"*** Begin Patch\n*** Delete File: b.txt\n*** End Patch", "Failed to delete file b.txt: file does not exist"},
		{"*** Begin Patch\n*** Delete File: d\n*** End Patch", "Failed to delete file d: path is a directory"},
		{"*** Begin Patch\n*** Add File: a.txt/x\n+1\n*** End Patch", "Failed to create parent directories for a.txt/x: not a directory"},
	}
	for _, c := range cases {
		fsys := newMemFS(base)
		fsys.dirs["/w/d"] = true
		_, err := Apply(c.patch, "/w", fsys)
		if err == nil || err.Error() != c.want {
			t.Errorf("Apply(%q)\n got: %v\nwant: %s", c.patch, err, c.want)
		}
	}
	if _, err := Apply("*** Begin Patch\n*** End Patch", "/w", newMemFS(nil)); !errors.Is(err, ErrNoFiles) {
		t.Errorf("empty patch: %v", err)
	}
}

func TestPartialApplication(t *testing.T) {
	t.Parallel()
	fsys := newMemFS(map[string]string{"/w/a.txt": "a\n"})
	patch := "*** Begin Patch\n*** Add File: first.txt\n+1\n*** Update File: a.txt\n-zzz\n+y\n*** Add File: third.txt\n+3\n*** End Patch"
	res, err := Apply(patch, "/w", fsys)
	if err == nil {
		t.Fatal("expected a failure")
	}
	if fsys.files["/w/first.txt"] != "1\n" || len(res.Changes) != 1 {
		t.Errorf("the first hunk should stay applied: %v %+v", fsys.files, res.Changes)
	}
	if _, ok := fsys.files["/w/third.txt"]; ok {
		t.Error("hunks after the failure must be skipped")
	}
}

func TestUpdateEdgeCases(t *testing.T) {
	cases := []struct {
		name, file string
		chunks     []Chunk
		want       string
	}{
		{"no final newline gains one", "a\nb", []Chunk{{OldLines: []string{"b"}, NewLines: []string{"B"}}}, "a\nB\n"},
		{"trailing empty sentinel", "a\nb\n", []Chunk{{OldLines: []string{"b", ""}, NewLines: []string{"c", ""}}}, "a\nc\n"},
		{"eof prefers the tail", "x\ny\nx\n", []Chunk{{OldLines: []string{"x"}, NewLines: []string{"z"}, EndOfFile: true}}, "x\ny\nz\n"},
		{"pure addition appends", "a\nb\n", []Chunk{{NewLines: []string{"c"}}}, "a\nb\nc\n"},
		{"delete everything", "a\n", []Chunk{{OldLines: []string{"a"}}}, ""},
		{"context then first match after it", "k\nv\nk2\nv\n", []Chunk{{Context: "k2", HasContext: true, OldLines: []string{"v"}, NewLines: []string{"V"}}}, "k\nv\nk2\nV\n"},
		{"unicode fold", "say \u201chi\u201d \u2014 ok\n", []Chunk{{OldLines: []string{`say "hi" - ok`}, NewLines: []string{"said"}}}, "said\n"},
	}
	for _, c := range cases {
		u, err := updatedText(c.file, c.chunks, "f")
		if err != nil || u.text != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, u.text, err, c.want)
		}
		if wantLines, _ := textfile.Lines(c.want); !slices.Equal(u.newLines, wantLines) {
			t.Errorf("%s: new lines %q, want %q", c.name, u.newLines, wantLines)
		}
		if oldLines, oldFinal := textfile.Lines(c.file); !slices.Equal(u.oldLines, oldLines) || u.oldFinal != oldFinal {
			t.Errorf("%s: old lines %q %v", c.name, u.oldLines, u.oldFinal)
		}
	}
}

// failFS wraps memFS and fails chosen operations.
type failFS struct {
	*memFS
	failWrite, failRemove bool
}

func (f *failFS) WriteFile(p string, data []byte) error {
	if f.failWrite {
		return &fs.PathError{Op: "open", Path: p, Err: memErr("read-only file system")}
	}
	return f.memFS.WriteFile(p, data)
}

func (f *failFS) WriteMoved(p, from string, data []byte) error {
	if f.failWrite {
		return &fs.PathError{Op: "open", Path: p, Err: memErr("read-only file system")}
	}
	return f.memFS.WriteMoved(p, from, data)
}

func (f *failFS) Remove(p string) error {
	if f.failRemove {
		return &fs.PathError{Op: "remove", Path: p, Err: memErr("permission denied")}
	}
	return f.memFS.Remove(p)
}

func TestApplyIOErrors(t *testing.T) {
	t.Parallel()
	base := map[string]string{"/w/a.txt": "one\n"}
	update := "*** Begin Patch\n*** Update File: a.txt\n-one\n+two\n*** End Patch"
	move := "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-one\n+two\n*** End Patch"
	cases := []struct {
		patch     string
		write, rm bool
		want      string
	}{
		{update, true, false, "Failed to write file a.txt: read-only file system"},
		{"*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch", true, false, "Failed to write file n.txt: read-only file system"},
		{move, false, true, "Failed to remove original a.txt: permission denied"},
		{move, true, false, "Failed to write file b.txt: read-only file system"},
	}
	for _, c := range cases {
		fsys := &failFS{memFS: newMemFS(base), failWrite: c.write, failRemove: c.rm}
		_, err := Apply(c.patch, "/w", fsys)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// A file the FS refuses fails the patch before its first hunk is applied,
// however late in the patch it comes; a path an earlier hunk changes is
// checked when its own hunk runs.
func TestRefusalBeforeAnyWrite(t *testing.T) {
	t.Parallel()
	for _, last := range []string{
		"*** Delete File: ro.txt",
		"*** Update File: ro.txt\n-ro\n+RO",
		"*** Update File: ro.txt\n*** Move to: moved.txt\n-ro\n+RO",
		"*** Update File: a2.txt\n*** Move to: ro.txt\n-a\n+A",
	} {
		fsys := newMemFS(map[string]string{"/w/a.txt": "a\n", "/w/a2.txt": "a\n", "/w/ro.txt": "ro\n"})
		fsys.readOnly["/w/ro.txt"] = true
		patch := "*** Begin Patch\n*** Add File: new.txt\n+n\n*** Update File: a.txt\n-a\n+A\n" + last + "\n*** End Patch"
		res, err := Apply(patch, "/w", fsys)
		if err == nil || !strings.Contains(err.Error(), "ro.txt is read-only") || len(res.Changes) != 0 {
			t.Errorf("%q: got %v, %d changes", last, err, len(res.Changes))
		}
		if _, ok := fsys.files["/w/new.txt"]; ok || fsys.files["/w/a.txt"] != "a\n" || fsys.files["/w/ro.txt"] != "ro\n" {
			t.Errorf("%q: files changed: %v", last, fsys.files)
		}
	}
	// Deleting a file and adding it again is checked hunk by hunk.
	fsys := newMemFS(map[string]string{"/w/x.txt": "x\n"})
	if _, err := Apply("*** Begin Patch\n*** Delete File: x.txt\n*** Add File: x.txt\n+y\n*** End Patch", "/w", fsys); err != nil || fsys.files["/w/x.txt"] != "y\n" {
		t.Errorf("delete then add: %v, %v", err, fsys.files)
	}
}

// A move writes the destination as the source's content moving there,
// and its summary line names both paths.
func TestMoveCarriesSource(t *testing.T) {
	t.Parallel()
	fsys := newMemFS(map[string]string{"/w/run.sh": "echo\n"})
	fsys.modes["/w/run.sh"] = 0o755
	res, err := Apply("*** Begin Patch\n*** Update File: run.sh\n*** Move to: bin/run.sh\n-echo\n+echo hi\n*** End Patch", "/w", fsys)
	if err != nil {
		t.Fatal(err)
	}
	if m := fsys.modes["/w/bin/run.sh"]; m != 0o755 {
		t.Errorf("destination mode %04o, want 0755", m)
	}
	if got, want := res.Summary(), "Success. Updated the following files:\nM run.sh -> bin/run.sh\n"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
