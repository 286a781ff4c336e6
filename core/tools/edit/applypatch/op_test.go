package applypatch

import (
	"io/fs"
	"strings"
	"testing"
)

// applyAll applies every section of an envelope as the edit tool does,
// going on after a failure, and returns each section's error ("" for
// none).
func applyAll(t *testing.T, patch string, fsys FS) []string {
	t.Helper()
	ops, err := ParseEnvelope(patch)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, op := range ops {
		msg := ""
		if _, err := ApplyOp(op, fsys); err != nil {
			msg = err.Error()
		}
		errs = append(errs, msg)
	}
	return errs
}

func TestApplyOpScenarios(t *testing.T) {
	t.Parallel()
	fsys := newMemFS(map[string]string{
		"/w/a.txt":      "one\ntwo\nthree\nfour",
		"/w/crlf.txt":   "\ufeffx\r\ny\r\n",
		"/w/gone.txt":   "bye\n",
		"/w/mv/src.txt": "m1\nm2\n",
		"/w/old.txt":    "old\n",
	})
	patch := strings.Join([]string{
		"*** Begin Patch",
		"*** Update File: a.txt",
		"@@",
		" two",
		"-three",
		"+THREE",
		"*** Update File: crlf.txt",
		"-y",
		"+why",
		"*** Add File: sub/dir/new.txt",
		"+hello",
		"*** Add File: old.txt",
		"+replaced",
		"*** Delete File: gone.txt",
		"*** Update File: mv/src.txt",
		"*** Move to: moved/dst.txt",
		"@@",
		"-m2",
		"+M2",
		"*** End Patch",
	}, "\n")
	for i, e := range applyAll(t, patch, fsys) {
		if e != "" {
			t.Errorf("section %d: %s", i, e)
		}
	}
	want := map[string]string{
		"/w/a.txt":           "one\ntwo\nTHREE\nfour", // no final line break, as before
		"/w/crlf.txt":        "\ufeffx\r\nwhy\r\n",
		"/w/sub/dir/new.txt": "hello\n",
		"/w/old.txt":         "replaced\n",
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
}

// A failing section leaves its file alone and the others still apply.
func TestApplyOpFailuresArePerFile(t *testing.T) {
	t.Parallel()
	fsys := newMemFS(map[string]string{"/w/a.txt": "a\n", "/w/b.txt": "b\n"})
	patch := "*** Begin Patch\n*** Add File: first.txt\n+1\n*** Update File: a.txt\n@@\n a\n-zzz\n+y\n*** Update File: b.txt\n-b\n+B\n*** End Patch"
	errs := applyAll(t, patch, fsys)
	if errs[0] != "" || !strings.HasPrefix(errs[1], "Failed to find expected lines in a.txt:\na\nzzz") || errs[2] != "" {
		t.Errorf("errors %q", errs)
	}
	if fsys.files["/w/first.txt"] != "1\n" || fsys.files["/w/a.txt"] != "a\n" || fsys.files["/w/b.txt"] != "B\n" {
		t.Errorf("files %v", fsys.files)
	}
}

func TestApplyOpErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		op   FileOp
		want string
	}{
		{FileOp{Kind: UpdateFile, Path: "b.txt", Diff: "-uno\n+1"}, "File not found: b.txt"},
		{FileOp{Kind: DeleteFile, Path: "b.txt"}, "File not found: b.txt"},
		{FileOp{Kind: DeleteFile, Path: "d"}, "Failed to delete file d: path is a directory"},
		{FileOp{Kind: AddFile, Path: "a.txt/x", Diff: "1\n"}, "Failed to create parent directories for a.txt/x: not a directory"},
		{FileOp{Kind: AddFile, Path: "d", Diff: "1\n"}, "Cannot create d: it is a directory; name a file"},
		{FileOp{Kind: AddFile, Path: "n.txt"}, "Create operation requires diff (file content)"},
		{FileOp{Kind: UpdateFile, Path: "a.txt"}, "Update operation requires diff (hunks)"},
		{FileOp{Kind: UpdateFile, Path: "a.txt", MovePath: "./a.txt", Diff: "-one\n+1"}, "rename path is the same as source path"},
		{FileOp{Kind: UpdateFile, Path: "a.txt", Diff: "@@\n*** End of File"}, "Line 2: Hunk does not contain any lines"},
		{FileOp{Kind: UpdateFile, Path: "a.txt", Diff: "@@ -0,1 +1 @@\n-one"}, "Line 1: Line numbers in @@ header must be >= 1"},
		{FileOp{Kind: UpdateFile, Path: "a.txt", Diff: "@@ line 0\n-one"}, "Line 1: Line hint must be >= 1"},
		{FileOp{Kind: UpdateFile, Path: "a.txt", Diff: "@@ zero\n one\n-two\n+2"}, "Failed to find context 'zero' in a.txt"},
	}
	for _, c := range cases {
		fsys := newMemFS(map[string]string{"/w/a.txt": "one\ntwo\none\ntwo\n"})
		fsys.dirs["/w/d"] = true
		_, err := ApplyOp(c.op, fsys)
		if err == nil || err.Error() != c.want {
			t.Errorf("ApplyOp(%+v)\n got: %v\nwant: %s", c.op, err, c.want)
		}
		if got := fsys.files["/w/a.txt"]; got != "one\ntwo\none\ntwo\n" {
			t.Errorf("ApplyOp(%+v) changed a.txt: %q", c.op, got)
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

func TestApplyOpIOErrors(t *testing.T) {
	t.Parallel()
	update := FileOp{Kind: UpdateFile, Path: "a.txt", Diff: "-one\n+two"}
	move := FileOp{Kind: UpdateFile, Path: "a.txt", MovePath: "b.txt", Diff: "-one\n+two"}
	cases := []struct {
		op        FileOp
		write, rm bool
		want      string
	}{
		{update, true, false, "Failed to write file a.txt: read-only file system"},
		{FileOp{Kind: AddFile, Path: "n.txt", Diff: "x\n"}, true, false, "Failed to write file n.txt: read-only file system"},
		{FileOp{Kind: AddFile, Path: "a.txt", Diff: "x\n"}, true, false, "Failed to write file a.txt: read-only file system"},
		{move, false, true, "Failed to remove original a.txt: permission denied"},
		{move, true, false, "Failed to write file b.txt: read-only file system"},
	}
	for _, c := range cases {
		fsys := &failFS{memFS: newMemFS(map[string]string{"/w/a.txt": "one\n"}), failWrite: c.write, failRemove: c.rm}
		_, err := ApplyOp(c.op, fsys)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// A file the FS refuses to change is refused before anything is written.
func TestApplyOpRefusal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		op   FileOp
		want string
	}{
		{FileOp{Kind: DeleteFile, Path: "ro.txt"}, "Failed to delete file ro.txt: /w/ro.txt is read-only"},
		{FileOp{Kind: UpdateFile, Path: "ro.txt", Diff: "-ro\n+RO"}, "Failed to write file ro.txt: /w/ro.txt is read-only"},
		{FileOp{Kind: UpdateFile, Path: "ro.txt", MovePath: "moved.txt", Diff: "-ro\n+RO"}, "Failed to move file ro.txt: /w/ro.txt is read-only"},
		{FileOp{Kind: UpdateFile, Path: "a.txt", MovePath: "ro.txt", Diff: "-a\n+A"}, "Failed to write file ro.txt: /w/ro.txt is read-only"},
		{FileOp{Kind: AddFile, Path: "ro.txt", Diff: "x\n"}, "Failed to write file ro.txt: /w/ro.txt is read-only"},
	} {
		fsys := newMemFS(map[string]string{"/w/a.txt": "a\n", "/w/ro.txt": "ro\n"})
		fsys.readOnly["/w/ro.txt"] = true
		_, err := ApplyOp(c.op, fsys)
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: got %v, want %s", c.op, err, c.want)
		}
		if len(fsys.files) != 2 || fsys.files["/w/a.txt"] != "a\n" || fsys.files["/w/ro.txt"] != "ro\n" {
			t.Errorf("%+v: files changed: %v", c.op, fsys.files)
		}
	}
}

// A move writes the destination as the source's content moving there.
func TestMoveCarriesSource(t *testing.T) {
	t.Parallel()
	fsys := newMemFS(map[string]string{"/w/run.sh": "echo\n"})
	fsys.modes["/w/run.sh"] = 0o755
	changes, err := ApplyOp(FileOp{Kind: UpdateFile, Path: "run.sh", MovePath: "bin/run.sh", Diff: "-echo\n+echo hi"}, fsys)
	if err != nil {
		t.Fatal(err)
	}
	if m := fsys.modes["/w/bin/run.sh"]; m != 0o755 {
		t.Errorf("destination mode %04o, want 0755", m)
	}
	if len(changes) != 1 || changes[0].NewPath != "bin/run.sh" || changes[0].NewAbs != "/w/bin/run.sh" || fsys.files["/w/bin/run.sh"] != "echo hi\n" {
		t.Errorf("changes %+v, files %v", changes, fsys.files)
	}
}
