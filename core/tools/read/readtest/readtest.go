// Package readtest builds the binary files read's tests need — zip, tar
// and tar.gz archives, SQLite databases — from text, so golden cases can
// describe them inline:
//
//	-- zip:a.zip --
//	== dir/notes.txt ==
//	hello
//	== empty-dir/ ==
//	== link -> dir/notes.txt ==
//	-- sqlite:app.db --
//	CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT);
//	INSERT INTO t VALUES (1, 'a');
//
// An archive section is a list of members, each starting with a line
// "== NAME ==" and holding the lines up to the next such line. A NAME
// ending in "/" is a directory; "NAME -> TARGET" is a symbolic link (tar)
// or a link-mode member (zip). Names are stored as written, "../x" and
// "/abs" included, so unsafe archives can be described too.
package readtest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// Builder turns a section's text into file content.
type Builder func(text []byte) ([]byte, error)

// Builders are the fixture kinds by section prefix: a section named
// "zip:a.zip" is built by Builders["zip"] and written to a.zip.
var Builders = map[string]Builder{
	"zip":    Zip,
	"tar":    Tar,
	"tgz":    TarGz,
	"sqlite": SQLite,
}

// Member is one archive member parsed from a fixture.
type Member struct {
	Name string // as stored in the archive
	Link string // symlink target, for a link
	Data []byte
}

// stamp is every member's modification time, so archives are reproducible.
var stamp = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// Members parses the "== NAME ==" sections of text. Lines before the
// first marker are ignored.
func Members(text []byte) []Member {
	var out []Member
	cur := -1
	for _, line := range strings.SplitAfter(string(text), "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, "== ") && strings.HasSuffix(trimmed, " ==") && len(trimmed) > 6 {
			name := trimmed[3 : len(trimmed)-3]
			m := Member{Name: name}
			if n, target, ok := strings.Cut(name, " -> "); ok {
				m.Name, m.Link = n, target
			}
			out = append(out, m)
			cur = len(out) - 1
			continue
		}
		if cur >= 0 {
			out[cur].Data = append(out[cur].Data, line...)
		}
	}
	return out
}

// Zip builds a deflated zip archive.
func Zip(text []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range Members(text) {
		h := &zip.FileHeader{Name: m.Name, Method: zip.Deflate, Modified: stamp}
		data := m.Data
		switch {
		case m.Link != "":
			h.SetMode(fs.ModeSymlink | 0o777)
			data = []byte(m.Link)
		case strings.HasSuffix(m.Name, "/"):
			h.SetMode(fs.ModeDir | 0o755)
			h.Method = zip.Store
		default:
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Tar builds an uncompressed tar archive.
func Tar(text []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range Members(text) {
		h := &tar.Header{Name: m.Name, Mode: 0o644, ModTime: stamp, Format: tar.FormatPAX}
		switch {
		case m.Link != "":
			h.Typeflag, h.Linkname = tar.TypeSymlink, m.Link
		case strings.HasSuffix(m.Name, "/"):
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		default:
			h.Typeflag, h.Size = tar.TypeReg, int64(len(m.Data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(m.Data); err != nil {
				return nil, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TarGz builds a gzip-compressed tar archive.
func TarGz(text []byte) ([]byte, error) {
	raw, err := Tar(text)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.ModTime = stamp
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SQLite builds a database by running text as an SQL script.
func SQLite(text []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "readtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "fixture.db")
	if err := ExecSQLite(path, string(text)); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// ExecSQLite runs script on the database at path, creating it if needed.
func ExecSQLite(path, script string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(script); err != nil {
		return fmt.Errorf("sqlite fixture: %w", err)
	}
	return db.Close()
}

// Build makes the content of a section named KIND:PATH. ok is false when
// the name has no known kind prefix; the file goes to PATH.
func Build(section string, text []byte) (path string, data []byte, ok bool, err error) {
	kind, path, found := strings.Cut(section, ":")
	b := Builders[kind]
	if !found || b == nil || path == "" {
		return "", nil, false, nil
	}
	data, err = b(text)
	if err != nil {
		return "", nil, true, fmt.Errorf("building %s: %w", section, err)
	}
	return path, data, true, nil
}
