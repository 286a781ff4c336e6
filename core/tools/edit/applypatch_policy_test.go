package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// patchArgs wraps patch lines in the apply_patch envelope.
func patchArgs(lines ...string) any {
	return map[string]any{"input": "*** Begin Patch\n" + strings.Join(lines, "\n") + "\n*** End Patch"}
}

// writeFiles creates name=content files in dir with mode perm.
func writeFiles(t *testing.T, dir string, perm os.FileMode, files ...string) {
	t.Helper()
	for _, f := range files {
		name, content, _ := strings.Cut(f, "=")
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil { // past the umask
			t.Fatal(err)
		}
	}
}

// wantFile fails unless dir/name holds content.
func wantFile(t *testing.T, dir, name, content string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || string(b) != content {
		t.Errorf("%s: got %q, %v; want %q", name, b, err, content)
	}
}

// wantNoFile fails if dir/name exists.
func wantNoFile(t *testing.T, dir, name string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
		t.Errorf("%s exists", name)
	}
}

// Delete File refuses a read-only file as Update File does, and leaves it
// in place. A hard-linked name may be deleted (the other name keeps the
// content, as after rm).
func TestApplyPatchDeleteRefusesReadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, 0o444, "r.txt=r\n")
	res := runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Delete File: r.txt"))
	msg := res.FirstText()
	if !res.IsError || !strings.Contains(msg, "Failed to delete file r.txt: r.txt is read-only") || !strings.Contains(msg, "chmod u+w r.txt") {
		t.Fatalf("want a read-only refusal, got error=%v: %s", res.IsError, msg)
	}
	wantFile(t, dir, "r.txt", "r\n")

	writeFiles(t, dir, 0o644, "a.txt=a\n")
	if err := os.Link(filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	res = runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Delete File: a.txt"))
	if res.IsError {
		t.Fatalf("deleting a hard-linked name: %s", res.FirstText())
	}
	wantNoFile(t, dir, "a.txt")
	wantFile(t, dir, "b.txt", "a\n")
}

// A moved file keeps the source's mode, whether the destination is new
// or replaced.
func TestApplyPatchMoveKeepsMode(t *testing.T) {
	t.Parallel()
	for _, existing := range []bool{false, true} {
		dir := t.TempDir()
		writeFiles(t, dir, 0o755, "run.sh=echo hi\n")
		if existing {
			writeFiles(t, dir, 0o644, "run2.sh=old\n")
		}
		res := runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Update File: run.sh", "*** Move to: run2.sh", "@@", "-echo hi", "+echo bye"))
		if res.IsError {
			t.Fatalf("existing=%v: %s", existing, res.FirstText())
		}
		wantNoFile(t, dir, "run.sh")
		wantFile(t, dir, "run2.sh", "echo bye\n")
		fi, err := os.Stat(filepath.Join(dir, "run2.sh"))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("existing=%v: run2.sh has mode %04o, want 0755", existing, fi.Mode().Perm())
		}
	}
}

// A move whose source may not be replaced (read-only, hard-linked) is
// refused with both files as they were.
func TestApplyPatchMoveRefusesProtectedSource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, 0o444, "rs.txt=one\n")
	res := runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Update File: rs.txt", "*** Move to: rs2.txt", "@@", "-one", "+two"))
	msg := res.FirstText()
	if !res.IsError || !strings.Contains(msg, "Failed to move file rs.txt: rs.txt is read-only") || !strings.Contains(msg, "chmod u+w rs.txt") {
		t.Fatalf("want a read-only refusal, got error=%v: %s", res.IsError, msg)
	}
	wantFile(t, dir, "rs.txt", "one\n")
	wantNoFile(t, dir, "rs2.txt")

	writeFiles(t, dir, 0o644, "a.txt=one\n")
	if err := os.Link(filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	res = runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Update File: a.txt", "*** Move to: c.txt", "@@", "-one", "+two"))
	if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "Failed to move file a.txt: a.txt has 2 hard links") {
		t.Fatalf("want a hard-link refusal, got error=%v: %s", res.IsError, msg)
	}
	wantFile(t, dir, "a.txt", "one\n")
	wantNoFile(t, dir, "c.txt")
}

// The result of a move names the source and the destination, as omp's.
func TestApplyPatchMoveNamesBothPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, 0o644, "rs.txt=one\n")
	res := runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Update File: rs.txt", "*** Move to: sub/rs2.txt", "@@", "-one", "+two"))
	if want := "Updated and moved rs.txt to sub/rs2.txt"; res.IsError || res.FirstText() != want {
		t.Fatalf("got error=%v:\n%s\nwant:\n%s", res.IsError, res.FirstText(), want)
	}
	wantFile(t, dir, "sub/rs2.txt", "two\n")
}

// A read-only file in a patch of several files is refused before its
// own section writes anything; the other sections still apply, as every
// failing section in omp's apply_patch leaves the others be.
func TestApplyPatchRefusalIsPerFile(t *testing.T) {
	t.Parallel()
	for _, last := range [][]string{
		{"*** Delete File: ro.txt"},
		{"*** Update File: ro.txt", "@@", "-ro", "+RO"},
		{"*** Update File: ro.txt", "*** Move to: moved.txt", "@@", "-ro", "+RO"},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, 0o644, "a.txt=a\n", "gone.txt=g\n")
		writeFiles(t, dir, 0o444, "ro.txt=ro\n")
		lines := append([]string{"*** Add File: new.txt", "+n", "*** Update File: a.txt", "@@", "-a", "+A", "*** Delete File: gone.txt"}, last...)
		res := runEdit(t, dir, tool.EditApplyPatch, patchArgs(lines...))
		msg := res.FirstText()
		if res.IsError || !strings.HasPrefix(msg, "Created new.txt\nUpdated a.txt\nDeleted gone.txt\nError editing ro.txt: ") || !strings.Contains(msg, "ro.txt is read-only") {
			t.Fatalf("%s: want the others applied and ro.txt refused, got error=%v: %s", last[0], res.IsError, msg)
		}
		d := res.Details.(*Details)
		if len(d.PerFileResults) != 4 || !d.PerFileResults[3].IsError || d.PerFileResults[3].Path != "ro.txt" || d.PerFileResults[1].IsError {
			t.Errorf("%s: per-file results %+v", last[0], d.PerFileResults)
		}
		wantFile(t, dir, "new.txt", "n\n")
		wantFile(t, dir, "a.txt", "A\n")
		wantNoFile(t, dir, "gone.txt")
		wantNoFile(t, dir, "moved.txt")
		wantFile(t, dir, "ro.txt", "ro\n")
	}
}

// Moving a file onto a symbolic link to itself is refused: the write
// would land in the source, which the move then deletes.
func TestApplyPatchMoveOntoLinkToSource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, 0o644, "s.txt=x\n")
	if err := os.Symlink("s.txt", filepath.Join(dir, "l.txt")); err != nil {
		t.Fatal(err)
	}
	res := runEdit(t, dir, tool.EditApplyPatch, patchArgs("*** Update File: s.txt", "*** Move to: l.txt", "@@", "-x", "+y"))
	if msg := res.FirstText(); !res.IsError || !strings.Contains(msg, "l.txt is the same file") {
		t.Fatalf("want a refusal, got error=%v: %s", res.IsError, msg)
	}
	wantFile(t, dir, "s.txt", "x\n")
}
