package read

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// FuzzArchiveIndex indexes arbitrary bytes as a zip, a tar or a .tar.gz
// and checks what the read tool builds from them: the index is a tree of
// canonical member paths (every entry under its parent, once), a listing
// of any directory renders, a member wanted from a tar walk comes back
// whole or with an error, and reading a member (as `read a.zip:member`
// does) answers with text or a tool error that names it. The caps are
// lowered so that a bomb costs little.
func FuzzArchiveIndex(f *testing.F) {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for _, m := range []struct{ name, body string }{{"a.txt", "hello\n"}, {"dir/b.go", "package b\n"}, {"dir/sub/", ""}, {"../evil", "x"}, {"bin", "\x00\x01"}} {
		w, _ := zw.Create(m.name)
		w.Write([]byte(m.body))
	}
	zw.Close()
	f.Add(byte(0), zbuf.Bytes(), "dir/b.go")
	f.Add(byte(0), zbuf.Bytes(), "bin")
	var tbuf bytes.Buffer
	tw := tar.NewWriter(&tbuf)
	for _, h := range []*tar.Header{
		{Name: "a.txt", Typeflag: tar.TypeReg, Size: 6, Mode: 0o644},
		{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "d/link", Typeflag: tar.TypeSymlink, Linkname: "../a.txt"},
		{Name: "d/hard", Typeflag: tar.TypeLink, Linkname: "a.txt"},
		{Name: "/abs", Typeflag: tar.TypeReg, Size: 1},
	} {
		tw.WriteHeader(h)
		tw.Write([]byte("hello\n")[:h.Size])
	}
	tw.Close()
	f.Add(byte(1), tbuf.Bytes(), "a.txt")
	f.Add(byte(1), tbuf.Bytes(), "d/link")
	var gbuf bytes.Buffer
	gw := gzip.NewWriter(&gbuf)
	gw.Write(tbuf.Bytes())
	gw.Close()
	f.Add(byte(2), gbuf.Bytes(), "a.txt")
	f.Add(byte(2), gbuf.Bytes()[:len(gbuf.Bytes())/2], "a.txt")
	f.Add(byte(0), []byte("PK\x05\x06"+strings.Repeat("\x00", 18)), "")
	f.Add(byte(1), []byte{}, "x")

	defer func(e, s int64, n int) { maxEntryBytes, maxStreamBytes, maxArchiveEntries = e, s, n }(maxEntryBytes, maxStreamBytes, maxArchiveEntries)
	maxEntryBytes, maxStreamBytes, maxArchiveEntries = 64<<10, 1<<20, 200
	dir := f.TempDir()
	file := filepath.Join(dir, "a.tar")
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	rt := New(env, nil).(*Tool)

	f.Fuzz(func(t *testing.T, kind byte, data []byte, member string) {
		var ix *archiveIndex
		var want *tarMember
		name := "a.zip"
		switch kind % 3 {
		case 0:
			zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
				return
			}
			ix = indexZip(zr)
		default:
			name = "a.tar"
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			fh, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			clean, _, _ := cleanMemberPath(member)
			want = &tarMember{want: clean}
			ix, err = indexTar(fh, kind%3 == 2, want)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				return
			}
		}
		checkArchiveIndex(t, ix)

		for _, e := range ix.entries {
			if e.dir {
				text, _ := ix.list(e, Selector{}, name)
				if text == "" {
					t.Fatalf("empty listing of %q", e.name)
				}
			}
		}
		clean, _, err := cleanMemberPath(member)
		e := ix.entries[clean]
		if err != nil || e == nil || e.dir {
			return
		}
		if want != nil && want.seen && want.err == nil && e.link == "" && int64(len(want.data)) != e.size {
			t.Fatalf("member %q: %d bytes read, %d declared", clean, len(want.data), e.size)
		}
		text, err := rt.readArchiveMember(e, want, Selector{}, name, name+":"+clean, &Details{})
		if err != nil {
			var te *tool.Error
			if !errors.As(err, &te) || !strings.HasPrefix(te.Msg, "Cannot read ") {
				t.Fatalf("reading %q: not a tool error naming the member: %v", clean, err)
			}
			return
		}
		if text == "" {
			t.Fatalf("reading %q: no text and no error", clean)
		}
	})
}

// checkArchiveIndex checks that an index is a tree of canonical paths:
// each entry is stored under its own name, sits in its parent directory's
// children exactly once, and a directory carries no member data.
func checkArchiveIndex(t *testing.T, ix *archiveIndex) {
	t.Helper()
	root := ix.entries[""]
	if root == nil || !root.dir {
		t.Fatal("the index has no root directory")
	}
	for name, e := range ix.entries {
		if e.name != name {
			t.Fatalf("entry %q is stored as %q", e.name, name)
		}
		for _, c := range e.children {
			if c.name == "" || ix.entries[c.name] != c {
				t.Fatalf("child %q of %q is not the indexed entry", c.name, name)
			}
		}
		if e.dir && (e.zf != nil || e.size != 0 || e.link != "") {
			t.Fatalf("directory %q carries member data: %+v", name, e)
		}
		if name == "" {
			continue
		}
		if clean, abs, err := cleanMemberPath(name); err != nil || abs || clean != name {
			t.Fatalf("entry %q is not a canonical member path (%q, %v, %v)", name, clean, abs, err)
		}
		parent := ""
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			parent = name[:i]
		}
		p := ix.entries[parent]
		if p == nil || !p.dir {
			t.Fatalf("entry %q has no parent directory %q", name, parent)
		}
		n := 0
		for _, c := range p.children {
			if c == e {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("entry %q is %d times among its parent's children", name, n)
		}
	}
}
