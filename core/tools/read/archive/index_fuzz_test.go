package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/innerpath"
)

// indexSeeds are small archives of each format with the member names a
// hostile archive uses: directories, "..", absolute paths, links, binary
// content, a truncated stream and an empty end record.
func indexSeeds() []struct {
	kind   byte
	data   []byte
	member string
} {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for _, m := range []struct{ name, body string }{{"a.txt", "hello\n"}, {"dir/b.go", "package b\n"}, {"dir/sub/", ""}, {"../evil", "x"}, {"bin", "\x00\x01"}} {
		w, _ := zw.Create(m.name)
		w.Write([]byte(m.body))
	}
	zw.Close()
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
	var gbuf bytes.Buffer
	gw := gzip.NewWriter(&gbuf)
	gw.Write(tbuf.Bytes())
	gw.Close()
	return []struct {
		kind   byte
		data   []byte
		member string
	}{
		{0, zbuf.Bytes(), "dir/b.go"}, {0, zbuf.Bytes(), "bin"},
		{1, tbuf.Bytes(), "a.txt"}, {1, tbuf.Bytes(), "d/link"},
		{2, gbuf.Bytes(), "a.txt"}, {2, gbuf.Bytes()[:gbuf.Len()/2], "a.txt"},
		{0, []byte("PK\x05\x06" + strings.Repeat("\x00", 18)), ""}, {1, []byte{}, "x"},
	}
}

// FuzzIndex indexes arbitrary bytes as a zip (kind%3 == 0), a tar (1) or
// a .tar.gz (2) and checks what comes out: the index is a tree of
// canonical member paths (every entry under its parent, once); a member
// wanted from a tar walk comes back whole (as many bytes as it declares)
// or with an error; a zip member reads back as many bytes as it declares
// or with an error; errors are never empty. The caps are lowered so that
// a bomb costs little.
func FuzzIndex(f *testing.F) {
	for _, s := range indexSeeds() {
		f.Add(s.kind, s.data, s.member)
	}
	limits := Limits{EntryBytes: 64 << 10, StreamBytes: 1 << 20, PackRatio: 1000, RatioFloor: 1 << 20, Entries: 200}
	f.Fuzz(func(t *testing.T, kind byte, data []byte, member string) {
		var ix *Index
		var want *Member
		switch kind % 3 {
		case 0:
			zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
				return
			}
			ix = IndexZip(zr, limits)
		default:
			clean, _, _ := innerpath.CleanMember(member)
			want = &Member{Want: clean}
			var err error
			ix, err = IndexTar(bytes.NewReader(data), kind%3 == 2, want, limits)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				return
			}
		}
		checkIndex(t, ix)

		clean, _, err := innerpath.CleanMember(member)
		e := ix.Entries[clean]
		if err != nil || e == nil || e.Dir || e.Link != "" {
			return
		}
		var got []byte
		switch {
		case e.InZip():
			got, err = ix.ReadZip(e)
		case want != nil && want.Seen:
			got, err = want.Data, want.Err
		default:
			return // a tar member the walk did not keep
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("member %q: empty error", clean)
			}
			return
		}
		if int64(len(got)) != e.Size || int64(len(got)) > limits.EntryBytes {
			t.Fatalf("member %q: %d bytes read, %d declared (cap %d)", clean, len(got), e.Size, limits.EntryBytes)
		}
	})
}

// checkIndex checks that an index is a tree of canonical paths: each
// entry is stored under its own name, sits in its parent directory's
// children exactly once, and a directory carries no member data.
func checkIndex(t *testing.T, ix *Index) {
	t.Helper()
	root := ix.Entries[""]
	if root == nil || !root.Dir {
		t.Fatal("the index has no root directory")
	}
	for name, e := range ix.Entries {
		if e.Name != name {
			t.Fatalf("entry %q is stored as %q", e.Name, name)
		}
		for _, c := range e.children {
			if c.Name == "" || ix.Entries[c.Name] != c {
				t.Fatalf("child %q of %q is not the indexed entry", c.Name, name)
			}
		}
		if e.Dir && (e.zf != nil || e.Size != 0 || e.Link != "") {
			t.Fatalf("directory %q carries member data: %+v", name, e)
		}
		if name == "" {
			continue
		}
		if clean, abs, err := innerpath.CleanMember(name); err != nil || abs || clean != name {
			t.Fatalf("entry %q is not a canonical member path (%q, %v, %v)", name, clean, abs, err)
		}
		parent := ""
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			parent = name[:i]
		}
		p := ix.Entries[parent]
		if p == nil || !p.Dir {
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
