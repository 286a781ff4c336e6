package htmlexport

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/session"
)

func TestExportFileDefaultNameAndSessionUntouched(t *testing.T) {
	f := newFixture(t)
	before := must[[]byte](t)(os.ReadFile(f.path))
	t.Chdir(t.TempDir())
	out, err := ExportFile(f.path, "", session.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "gopi-session-" + strings.TrimSuffix(filepath.Base(f.path), ".jsonl") + ".html"
	if out != want {
		t.Errorf("wrote %s, want %s", out, want)
	}
	page := must[[]byte](t)(os.ReadFile(out))
	if !bytes.Contains(page, []byte(f.path)) || !bytes.HasSuffix(page, []byte("</html>\n")) {
		t.Error("the page does not name its session file or is cut short")
	}
	if after := must[[]byte](t)(os.ReadFile(f.path)); !bytes.Equal(before, after) {
		t.Error("exporting changed the session file")
	}
}

func TestExportDoesNotMigrateTheFile(t *testing.T) {
	src := filepath.Join("..", "session", "testdata", "migrate", "v1.jsonl")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skip("no v1 fixture:", err)
	}
	path := filepath.Join(t.TempDir(), "old.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "old.html")
	if _, err := ExportFile(path, out, session.Options{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if after := must[[]byte](t)(os.ReadFile(path)); !bytes.Equal(data, after) {
		t.Error("exporting a version 1 file rewrote it")
	}
}

func TestExportFileErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	notSession := filepath.Join(dir, "notes.jsonl")
	os.WriteFile(notSession, []byte("{\"hello\":1}\n"), 0o644)
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := newFixture(t).path
	for _, tc := range []struct {
		name, in, out, want string
	}{
		{"missing", filepath.Join(dir, "nope.jsonl"), "", "File not found: " + filepath.Join(dir, "nope.jsonl")},
		{"empty", empty, "", "empty session file"},
		{"not a session", notSession, "", "not a session file"},
		{"fifo", fifo, "", "not a regular file"},
		{"directory", dir, "", "not a regular file"},
		{"device", "/dev/zero", "", "not a regular file"},
		{"output is a directory", good, dir, "it is a directory; give a file name such as " + filepath.Join(dir, "gopi-session-")},
		{"output directory missing", good, filepath.Join(dir, "no", "such", "dir", "x.html"), "export to " + filepath.Join(dir, "no", "such", "dir", "x.html")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				out := tc.out
				if out == "" {
					out = filepath.Join(t.TempDir(), "x.html")
				}
				_, err := ExportFile(tc.in, out, session.Options{}, Options{})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want one containing %q", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the export hangs")
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("the failed exports left files behind: %v", ents)
	}
}

func TestWriteFileKeepsModeAndReplacesWhole(t *testing.T) {
	f := newFixture(t)
	m := must[*session.Manager](t)(session.OpenSnapshot(f.path, session.Options{}))
	out := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(out, bytes.Repeat([]byte("old "), 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(out, m, Options{}); err != nil {
		t.Fatal(err)
	}
	fi := must[os.FileInfo](t)(os.Stat(out))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600 kept", fi.Mode().Perm())
	}
	if b := must[[]byte](t)(os.ReadFile(out)); bytes.Contains(b, []byte("old old")) || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Error("the old content was not replaced")
	}
}

func TestExportInMemory(t *testing.T) {
	if ErrInMemory.Error() != "Cannot export in-memory session to HTML" {
		t.Error(ErrInMemory)
	}
	// Rendering itself works on any session.
	m := session.InMemory("/w")
	must[string](t)(m.AppendMessage(&ai.UserMessage{Content: ai.ContentList{ai.Text("hi")}}))
	page, _ := render(t, m, Options{})
	if !strings.Contains(page, ">hi<") {
		t.Error("the message is missing")
	}
}

// The page never replaces the session it comes from, a device or a FIFO;
// a link is written through.
func TestExportOutputGuards(t *testing.T) {
	f := newFixture(t)
	before := must[[]byte](t)(os.ReadFile(f.path))
	if _, err := ExportFile(f.path, f.path, session.Options{}, Options{}); err == nil || !strings.Contains(err.Error(), "the session file itself") {
		t.Fatalf("export onto the session: %v", err)
	}
	rel, _ := filepath.Rel(must[string](t)(os.Getwd()), f.path)
	if _, err := ExportFile(f.path, filepath.Join(filepath.Dir(f.path), ".", filepath.Base(f.path)), session.Options{}, Options{}); err == nil {
		t.Fatalf("export onto the session through another spelling (%s) succeeded", rel)
	}
	if after := must[[]byte](t)(os.ReadFile(f.path)); !bytes.Equal(before, after) {
		t.Fatal("the session file changed")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.html")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ExportFile(f.path, fifo, session.Options{}, Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("export onto a FIFO: %v", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
	target := filepath.Join(dir, "real.html")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ExportFile(f.path, link, session.Options{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Error("the page was not written through the link")
	}
}

// Lines that cannot be read are reported.
func TestExportWarnsAboutUnreadableLines(t *testing.T) {
	f := newFixture(t)
	b := must[[]byte](t)(os.ReadFile(f.path))
	torn := filepath.Join(t.TempDir(), "torn.jsonl")
	os.WriteFile(torn, append(b, []byte(`{"type":"message","id":"abc`)...), 0o644)
	var warned []string
	if _, err := ExportFile(torn, filepath.Join(t.TempDir(), "p.html"), session.Options{}, Options{Warn: func(s string) { warned = append(warned, s) }}); err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "1 line(s)") {
		t.Errorf("warnings %q", warned)
	}
}
