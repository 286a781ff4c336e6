package htmlexport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// ToolInfo is a tool as the page lists it.
type ToolInfo struct {
	Name        string
	Description string
}

// Options adds to the page what the session file does not hold.
type Options struct {
	SystemPrompt string     // the system prompt in force; "" leaves the section out
	Tools        []ToolInfo // the tools offered to the model; nil leaves the section out
	SessionFile  string     // the file the session came from, shown in the header
	Generator    string     // program and version written into the page, e.g. "gopi 0.3.0"
	// Warn, when set, hears about lines of the session file that could not
	// be read (they are left out of the page).
	Warn func(string)
}

// ErrInMemory is returned when a session that has no file is exported.
var ErrInMemory = errors.New("Cannot export in-memory session to HTML")

// Render writes the page for the session m to w. The session is read
// under its own lock, entry by entry; it may keep running meanwhile.
func Render(w io.Writer, m *session.Manager, opts Options) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	p := newPage(bw, m, opts)
	p.write()
	if p.err != nil {
		return p.err
	}
	return bw.Flush()
}

// DefaultFileName is the name an export takes when none is given:
// gopi-session-<session file name without .jsonl>.html.
func DefaultFileName(sessionFile string) string {
	return "gopi-session-" + strings.TrimSuffix(filepath.Base(sessionFile), ".jsonl") + ".html"
}

// WriteFile renders the page straight into a temporary file beside path
// and renames it over path (the project's atomic write): an export that
// fails leaves no half page behind, and an existing file keeps its mode.
func WriteFile(path string, m *session.Manager, opts Options) error {
	// A link is written through: the page replaces the file it points to.
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return fmt.Errorf("export to %s: it is a directory; give a file name such as %s", path,
				filepath.Join(path, DefaultFileName(opts.SessionFile)))
		case !fi.Mode().IsRegular():
			return fmt.Errorf("export to %s: it is not a regular file (a device, FIFO or socket); give a file name", path)
		case sameFile(fi, opts.SessionFile) || sameFile(fi, m.File()):
			return fmt.Errorf("export to %s: that is the session file itself; give another name, such as %s", path,
				DefaultFileName(path))
		}
	}
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return Render(w, m, opts) })
	if err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	return nil
}

// ExportFile exports the session file at sessionPath without running it
// (the file is read as a snapshot and never written) to outPath, by
// default DefaultFileName in the current directory, and returns the path
// written. so says where images kept as blobs are found (BlobDir,
// BlobFallback). A missing file is reported as "File not found: <path>".
func ExportFile(sessionPath, outPath string, so session.Options, opts Options) (string, error) {
	if _, err := os.Stat(sessionPath); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("File not found: %s", sessionPath)
	}
	m, err := session.OpenSnapshot(sessionPath, so)
	if err != nil {
		return "", err
	}
	if p := m.Problems(); len(p) > 0 && opts.Warn != nil {
		opts.Warn(fmt.Sprintf("%d line(s) of %s could not be read and are left out of the page (first: %s)", len(p), sessionPath, p[0]))
	}
	if outPath == "" {
		outPath = DefaultFileName(sessionPath)
	}
	if opts.SessionFile == "" {
		opts.SessionFile, _ = filepath.Abs(sessionPath)
	}
	if err := WriteFile(outPath, m, opts); err != nil {
		return "", err
	}
	return outPath, nil
}

// sameFile reports whether fi is the file at path.
func sameFile(fi os.FileInfo, path string) bool {
	if path == "" {
		return false
	}
	other, err := os.Stat(path)
	return err == nil && os.SameFile(fi, other)
}
