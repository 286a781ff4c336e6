package edit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// vimSession is a vim-mode edit tool on a temporary directory.
type vimSession struct {
	t   *testing.T
	dir string
	tl  *Tool
}

func newVimSession(t *testing.T, files map[string]string) *vimSession {
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	env.Settings.EditMode = tool.EditVim
	return &vimSession{t: t, dir: dir, tl: NewMode(env, tool.EditVim)}
}

// call runs one call and returns its text and whether it failed.
func (s *vimSession) call(args map[string]any) (string, bool) {
	s.t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), s.tl, raw, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.FirstText(), res.IsError
}

func (s *vimSession) file(name string) string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

func step(kbd string, insert ...string) map[string]any {
	m := map[string]any{"kbd": []string{kbd}}
	if len(insert) > 0 {
		m["insert"] = insert[0]
	}
	return m
}

// TestVimBufferPersists: the buffer stays open between calls (undo works
// on the previous call's change), pause keeps changes unsaved and INSERT
// mode open for the next call, and :q closes the buffer.
func TestVimBufferPersists(t *testing.T) {
	s := newVimSession(t, map[string]string{"a.txt": "one\ntwo\n"})
	if _, failed := s.call(map[string]any{"file": "a.txt", "steps": []any{step("dd")}}); failed || s.file("a.txt") != "two\n" {
		t.Fatalf("dd: %q", s.file("a.txt"))
	}
	out, failed := s.call(map[string]any{"file": "a.txt", "steps": []any{step("u")}})
	if failed || s.file("a.txt") != "one\ntwo\n" || !strings.Contains(out, "Status: Undid 1 change") {
		t.Fatalf("undo in a later call: %q\n%s", s.file("a.txt"), out)
	}
	out, _ = s.call(map[string]any{"file": "a.txt", "pause": true, "steps": []any{step("Go", "three")}})
	if s.file("a.txt") != "one\ntwo\n" || !strings.Contains(out, "a.txt [+] INSERT") || !strings.Contains(out, "Pending: INSERT mode") {
		t.Fatalf("paused: %q\n%s", s.file("a.txt"), out)
	}
	// A step with only insert goes on typing where the paused call
	// stopped (one with keys would roll the pending insert back).
	s.call(map[string]any{"file": "a.txt", "steps": []any{map[string]any{"kbd": []string{}, "insert": "!"}}})
	if s.file("a.txt") != "one\ntwo\nthree!\n" {
		t.Fatalf("after the paused call: %q", s.file("a.txt"))
	}
	out, _ = s.call(map[string]any{"file": "a.txt", "steps": []any{step(":q<CR>")}})
	if !strings.HasPrefix(out, "a.txt [ ] NORMAL") || strings.Contains(out, "Viewport:") {
		t.Fatalf(":q: %s", out)
	}
	if out, _ = s.call(map[string]any{"file": "a.txt"}); !strings.Contains(out, "Status: Opened a.txt") {
		t.Fatalf("reopened: %s", out)
	}
}

// TestVimFileChangedOnDisk: a buffer with unsaved changes is not written
// over a file changed behind it; :e! reloads the file.
func TestVimFileChangedOnDisk(t *testing.T) {
	s := newVimSession(t, map[string]string{"a.txt": "one\n"})
	s.call(map[string]any{"file": "a.txt", "pause": true, "steps": []any{step("x")}})
	if err := os.WriteFile(filepath.Join(s.dir, "a.txt"), []byte("changed elsewhere, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, failed := s.call(map[string]any{"file": "a.txt", "steps": []any{step("x")}})
	if !failed || !strings.Contains(out, "Status: File changed on disk since open; reload with :e! before saving.") {
		t.Fatalf("save over a changed file: %v\n%s", failed, out)
	}
	if s.file("a.txt") != "changed elsewhere, longer\n" {
		t.Fatal("the changed file was overwritten")
	}
	out, failed = s.call(map[string]any{"file": "a.txt", "steps": []any{step(":e!<CR>")}})
	if failed || !strings.Contains(out, "Status: Reloaded a.txt") || !strings.Contains(out, "changed elsewhere") {
		t.Fatalf(":e!: %v\n%s", failed, out)
	}
}

// TestVimKeepsEncoding: CRLF line breaks and a byte-order mark survive an
// edit.
func TestVimKeepsEncoding(t *testing.T) {
	s := newVimSession(t, map[string]string{"w.txt": "\ufeffa\r\nb\r\n"})
	s.call(map[string]any{"file": "w.txt", "steps": []any{step("Gcc", "B")}})
	if got := s.file("w.txt"); got != "\ufeffa\r\nB\r\n" {
		t.Fatalf("got %q", got)
	}
}

// TestVimNewFile: a missing file opens as an empty buffer and the save
// creates it, without a final line break (as the reference writes it).
func TestVimNewFile(t *testing.T) {
	s := newVimSession(t, nil)
	out, failed := s.call(map[string]any{"file": "new.txt", "steps": []any{step("i", "first line")}})
	if failed || s.file("new.txt") != "first line" || !strings.Contains(out, "+first line") {
		t.Fatalf("%v %q\n%s", failed, s.file("new.txt"), out)
	}
}

// TestVimRefusals: a directory and a file that is not UTF-8 are refused
// with the reference's texts.
func TestVimRefusals(t *testing.T) {
	s := newVimSession(t, map[string]string{"latin1.txt": "caf\xe9\n"})
	if err := os.Mkdir(filepath.Join(s.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, failed := s.call(map[string]any{"file": "latin1.txt"}); !failed || out != "Edit tool in vim mode only supports UTF-8 text files in v1" {
		t.Fatalf("latin1: %v %q", failed, out)
	}
	if out, failed := s.call(map[string]any{"file": "sub"}); !failed || out != "Not a regular file: "+filepath.Join(s.dir, "sub") {
		t.Fatalf("directory: %v %q", failed, out)
	}
}

// TestVimTakesOutsideChanges: a file changed on disk behind a buffer with
// no unsaved changes is read again before the next call edits it, so the
// outside change is kept.
func TestVimTakesOutsideChanges(t *testing.T) {
	s := newVimSession(t, map[string]string{"a.txt": "one\n"})
	s.call(map[string]any{"file": "a.txt"})
	if err := os.WriteFile(filepath.Join(s.dir, "a.txt"), []byte("one\nadded outside, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, failed := s.call(map[string]any{"file": "a.txt", "steps": []any{step("Go", "mine")}}); failed {
		t.Fatal(out)
	}
	if got := s.file("a.txt"); got != "one\nadded outside, longer\nmine\n" {
		t.Fatalf("got %q", got)
	}
}

// TestVimOpensAnotherFile: :e FILE puts another file in the buffer's
// place: later keys edit and save that file, the result and its diff are
// that file's, and the buffer is then found under the new path. Unsaved
// changes and a file open in another buffer stop it.
func TestVimOpensAnotherFile(t *testing.T) {
	s := newVimSession(t, map[string]string{"a.txt": "a1\na2\n", "b.txt": "b1\nb2\n", "c.txt": "c1\n"})
	out, failed := s.call(map[string]any{"file": "a.txt", "steps": []any{step(":e b.txt<CR>"), step("dd")}})
	if failed || s.file("b.txt") != "b2\n" || s.file("a.txt") != "a1\na2\n" {
		t.Fatalf("%v a=%q b=%q\n%s", failed, s.file("a.txt"), s.file("b.txt"), out)
	}
	if !strings.HasPrefix(out, "b.txt [ ] NORMAL") || !strings.Contains(out, "-b1") || strings.Contains(out, "a1") {
		t.Fatalf("result after :e b.txt:\n%s", out)
	}
	// The buffer is b.txt's now: calling b.txt finds it (undo works), and
	// a.txt opens afresh.
	if out, _ = s.call(map[string]any{"file": "b.txt", "steps": []any{step("u")}}); s.file("b.txt") != "b1\nb2\n" {
		t.Fatalf("undo in b.txt's buffer: %q\n%s", s.file("b.txt"), out)
	}
	if out, _ = s.call(map[string]any{"file": "a.txt"}); !strings.Contains(out, "Status: Opened a.txt") {
		t.Fatalf("a.txt reopened: %s", out)
	}
	out, failed = s.call(map[string]any{"file": "a.txt", "steps": []any{step(":e b.txt<CR>")}})
	if !failed || !strings.Contains(out, "Status: b.txt is already open in another buffer") {
		t.Fatalf(":e of a file open elsewhere: %v\n%s", failed, out)
	}
	out, failed = s.call(map[string]any{"file": "a.txt", "pause": true, "steps": []any{step("x"), step(":e c.txt<CR>")}})
	if !failed || !strings.Contains(out, "Status: Unsaved changes; use :e! to reload or force open") {
		t.Fatalf(":e with unsaved changes: %v\n%s", failed, out)
	}
	out, failed = s.call(map[string]any{"file": "a.txt", "steps": []any{step(":e! c.txt<CR>")}})
	if failed || !strings.Contains(out, "Status: Opened c.txt") || s.file("a.txt") != "a1\na2\n" {
		t.Fatalf(":e! c.txt: %v a=%q\n%s", failed, s.file("a.txt"), out)
	}
}

// TestVimPendingCommandLine: a : line a call leaves unfinished waits (the
// view says so) and the next call finishes it.
func TestVimPendingCommandLine(t *testing.T) {
	s := newVimSession(t, map[string]string{"a.txt": "one one\n"})
	out, failed := s.call(map[string]any{"file": "a.txt", "pause": true, "steps": []any{step(":s/one/1")}})
	if failed || !strings.HasPrefix(out, "a.txt [ ] COMMAND") || !strings.Contains(out, "Status: Paused in COMMAND mode\nPending: :s/one/1\n") {
		t.Fatalf("paused: %v\n%s", failed, out)
	}
	out, failed = s.call(map[string]any{"file": "a.txt", "steps": []any{step("/g<CR>")}})
	if failed || s.file("a.txt") != "1 1\n" || !strings.Contains(out, "Status: 2 substitutions") {
		t.Fatalf("finished: %v %q\n%s", failed, s.file("a.txt"), out)
	}
}

// TestVimViewKeys: zt scrolls the view the result shows, and H in the
// next call goes to that view's first line.
func TestVimViewKeys(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 40; i++ {
		text.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	s := newVimSession(t, map[string]string{"a.txt": text.String()})
	out, failed := s.call(map[string]any{"file": "a.txt", "steps": []any{step("30Gzt")}})
	if failed || !strings.Contains(out, "Viewport:\n>30│▏line 30\n 31│line 31") {
		t.Fatalf("zt: %s", out)
	}
	out, failed = s.call(map[string]any{"file": "a.txt", "steps": []any{step("5jH")}})
	if failed || !strings.Contains(out, "[CURSOR] Line 30, Column 1") {
		t.Fatalf("H after zt: %s", out)
	}
}
