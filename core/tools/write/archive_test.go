package write

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/read"
	"github.com/gopi-agent/gopi/core/tools/read/readtest"
)

// readBack reads target with gopi's read tool, verbatim (read shows no
// final newline).
func readBack(t *testing.T, cwd, target string) string {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"path": target + ":raw"})
	res, err := tool.Run(context.Background(), read.New(tool.NewEnv(cwd), nil), raw, nil)
	if err != nil || res.IsError {
		t.Fatalf("read %s: %v %s", target, err, res.FirstText())
	}
	return res.FirstText()
}

// zipFixture is a zip whose members differ in every kept property:
// method, mode, time, comment, extra field, directories, a duplicate of
// the member to be written; and the archive has a comment.
func zipFixture(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, method uint16, mode fs.FileMode, mod time.Time, data string, comment string) {
		fh := &zip.FileHeader{Name: name, Method: method, Modified: mod, Comment: comment}
		fh.SetMode(mode)
		w, err := zw.CreateHeader(fh)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, data)
	}
	old := time.Date(2020, 5, 6, 7, 8, 10, 0, time.UTC)
	add("stored.txt", zip.Store, 0o600, old, "stored as is\n", "a comment")
	add("bin/run.sh", zip.Deflate, 0o755, old.Add(time.Hour), strings.Repeat("echo hi\n", 200), "")
	add("docs/", zip.Store, fs.ModeDir|0o755, old, "", "")
	add("docs/guide.md", zip.Store, 0o640, old.Add(2*time.Hour), "# old guide\n", "guide")
	add("docs/guide.md", zip.Deflate, 0o644, old, "# a later duplicate\n", "")
	add("z-last.txt", zip.Deflate, 0o644, old, "last\n", "")
	// A directory holding an empty deflate stream, as Python's zipfile
	// writes one: zip.Writer refuses data for a directory, so it is
	// written as py-dirX and renamed in the bytes below.
	dir := &zip.FileHeader{Name: "py-dirX", Method: zip.Deflate, CompressedSize64: 2, Modified: old}
	dir.SetMode(fs.ModeDir | 0o755)
	w, err := zw.CreateRaw(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte{3, 0}); err != nil {
		t.Fatal(err)
	}
	zw.SetComment("archive comment")
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(buf.Bytes(), []byte("py-dirX"), []byte("py-dir/"))
}

// rawZip is what Copy keeps of a member: its header fields and its
// compressed bytes.
type rawZip struct {
	hdr  zip.FileHeader
	data []byte
}

func rawMembers(t *testing.T, data []byte) (*zip.Reader, []rawZip) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []rawZip
	for _, f := range zr.File {
		r, err := f.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		out = append(out, rawZip{f.FileHeader, b})
	}
	return zr, out
}

// A zip member is replaced in place and a new one is added at the end;
// every other member keeps its compressed bytes, name, method, time,
// mode and comment, in order; the duplicate goes; the archive keeps its
// comment and its file mode; gopi's read and Go's zip reader both see
// the new content.
func TestZipRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	before := zipFixture(t)
	p := filepath.Join(dir, "a.zip")
	os.WriteFile(p, before, 0o600)
	for _, c := range [][2]string{{"a.zip:docs/guide.md", "# new guide\n"}, {"a.zip:added/new.txt", "brand new\n"}} {
		if res := write(t, dir, c[0], c[1]); res.IsError {
			t.Fatal(res.FirstText())
		}
	}
	after, _ := os.ReadFile(p)
	_, old := rawMembers(t, before)
	zr, got := rawMembers(t, after)
	if zr.Comment != "archive comment" {
		t.Errorf("archive comment %q", zr.Comment)
	}
	var names []string
	for _, m := range got {
		names = append(names, m.hdr.Name)
	}
	if want := "stored.txt bin/run.sh docs/ docs/guide.md z-last.txt py-dir/ added/new.txt"; strings.Join(names, " ") != want {
		t.Fatalf("members %q, want %q", names, want)
	}
	for i, j := range map[int]int{0: 0, 1: 1, 2: 2, 4: 5} {
		a, b := got[i], old[j]
		if !bytes.Equal(a.data, b.data) || a.hdr.Method != b.hdr.Method || !a.hdr.Modified.Equal(b.hdr.Modified) ||
			a.hdr.Mode() != b.hdr.Mode() || a.hdr.Comment != b.hdr.Comment || a.hdr.CRC32 != b.hdr.CRC32 {
			t.Errorf("member %s changed:\n got %+v\nwant %+v", a.hdr.Name, a.hdr, b.hdr)
		}
	}
	guide := got[3].hdr
	if guide.Method != zip.Store || guide.Mode() != 0o640 || guide.Comment != "guide" || time.Since(guide.Modified) > time.Hour {
		t.Errorf("replaced member: method %d mode %v comment %q time %v", guide.Method, guide.Mode(), guide.Comment, guide.Modified)
	}
	if d := got[5].hdr; !d.Mode().IsDir() || !d.Modified.Equal(old[6].hdr.Modified) {
		t.Errorf("directory member: %+v", d)
	}
	if added := got[6].hdr; added.Method != zip.Deflate || added.Mode() != 0o644 {
		t.Errorf("added member: method %d mode %v", added.Method, added.Mode())
	}
	for name, want := range map[string]string{"docs/guide.md": "# new guide\n", "added/new.txt": "brand new\n", "stored.txt": "stored as is\n"} {
		f, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(f)
		if string(b) != want {
			t.Errorf("zip reader: %s = %q, want %q", name, b, want)
		}
		if got := readBack(t, dir, "a.zip:"+name); got != want {
			t.Errorf("read tool: %s = %q, want %q", name, got, want)
		}
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("archive mode %v, want 0600", fi.Mode().Perm())
	}
}

// tarFixture builds a tar stream whose members carry what a byte-exact
// copy must keep: a PAX long name, PAX records, a symbolic link, a
// directory, owners; the member at index target is recorded as the byte
// range [start, end) of the stream. The archive is padded to a 10 KiB
// record after its end blocks, as GNU tar writes it.
func tarFixture(t *testing.T) (data []byte, start, end int) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mod := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	members := []*tar.Header{
		{Name: strings.Repeat("long/", 30) + "name.txt", Mode: 0o640, Uid: 1000, Gid: 1000, Uname: "ann", Gname: "staff", ModTime: mod, Size: 5},
		{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "target", ModTime: mod},
		{Name: "dir/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: mod},
		{Name: "dir/notes.txt", Mode: 0o600, Uid: 7, Uname: "bob", ModTime: mod, Size: 4},
		{Name: "with-pax.txt", Mode: 0o644, ModTime: mod, Size: 3, PAXRecords: map[string]string{"SCHILY.xattr.user.tag": "v"}, Format: tar.FormatPAX},
	}
	for i, h := range members {
		tw.Flush()
		if i == 3 {
			start = buf.Len()
		}
		if i == 4 {
			end = buf.Len()
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(bytes.Repeat([]byte{'a' + byte(i)}, int(h.Size)))
	}
	tw.Close()
	buf.Write(make([]byte, 10240-buf.Len()%10240))
	return buf.Bytes(), start, end
}

// A tar.gz member is replaced in place: the stream before and after it is
// byte for byte what it was (headers, PAX records, padding, the trailing
// record), the new member keeps the old one's name, mode and owner, and
// gopi's read sees the new content; a member added to a plain .tar goes
// before the end-of-archive blocks.
func TestTarRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	raw, start, end := tarFixture(t)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Name = "inner.tar"
	zw.Write(raw)
	zw.Close()
	os.WriteFile(filepath.Join(dir, "b.tar.gz"), gz.Bytes(), 0o644)
	if res := write(t, dir, "b.tar.gz:dir/notes.txt", "new notes\n"); res.IsError || res.Details.(*Details).Op != "update" {
		t.Fatal(res.FirstText())
	}
	f, _ := os.Open(filepath.Join(dir, "b.tar.gz"))
	defer f.Close()
	gr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if gr.Name != "inner.tar" {
		t.Errorf("gzip header name %q", gr.Name)
	}
	out, _ := io.ReadAll(gr)
	if !bytes.HasPrefix(out, raw[:start]) || !bytes.HasSuffix(out, raw[end:]) {
		t.Fatalf("the members around the written one changed")
	}
	tr := tar.NewReader(bytes.NewReader(out[start : len(out)-(len(raw)-end)]))
	h, err := tr.Next()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(tr)
	if h.Name != "dir/notes.txt" || h.Mode != 0o600 || h.Uid != 7 || h.Uname != "bob" || string(data) != "new notes\n" {
		t.Errorf("new member %+v %q", h, data)
	}
	if _, err := tr.Next(); err != io.EOF {
		t.Errorf("more than the new member in its place: %v", err)
	}
	if got := readBack(t, dir, "b.tar.gz:dir/notes.txt"); got != "new notes\n" {
		t.Errorf("read tool: %q", got)
	}

	os.WriteFile(filepath.Join(dir, "c.tar"), raw, 0o644)
	if res := write(t, dir, "c.tar:added.txt", "added"); res.IsError || res.Details.(*Details).Op != "create" {
		t.Fatal(res.FirstText())
	}
	plain, _ := os.ReadFile(filepath.Join(dir, "c.tar"))
	// The members end at the last non-zero byte, padded to a block; the
	// zeros after are the end blocks and the record's padding.
	body := bytes.TrimRight(raw, "\x00")
	body = body[:len(body)+int(blockPad(int64(len(body))))]
	if !bytes.HasPrefix(plain, body) || !bytes.HasSuffix(plain, raw[len(body):]) {
		t.Fatalf("appending changed the members or the trailing record")
	}
	tr = tar.NewReader(bytes.NewReader(plain[len(body):]))
	if h, err := tr.Next(); err != nil || h.Name != "added.txt" || h.Mode != 0o644 {
		t.Fatalf("added member %+v %v", h, err)
	}
	if got := readBack(t, dir, "c.tar:added.txt"); got != "added" {
		t.Errorf("read tool: %q", got)
	}
}

// An aborted write leaves the archive as it was.
func TestArchiveWriteAborted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	before := zipFixture(t)
	p := filepath.Join(dir, "a.zip")
	os.WriteFile(p, before, 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	raw, _ := json.Marshal(map[string]string{"path": "a.zip:stored.txt", "content": "x"})
	if res, err := tool.Run(ctx, New(tool.NewEnv(dir)), raw, nil); err == nil && !res.IsError {
		t.Fatal("an aborted write succeeded")
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(after, before) {
		t.Fatal("the archive changed")
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".gopi-tmp-*")); len(tmp) > 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

// Writing into a large tar.gz streams it: a member of 48 MiB is copied
// through without being held (the whole write allocates a fraction of
// it), and comes out whole. Not parallel, so that the allocation count is
// this test's alone.
func TestTarWriteStreams(t *testing.T) {
	if raceBuild {
		t.Skip("copying 48 MiB under -race takes most of a minute; run without -race")
	}
	dir := t.TempDir()
	const big = 48 << 20
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "big.bin", Mode: 0o644, Size: big})
	tw.Write(make([]byte, big))
	tw.Close()
	zw.Close()
	os.WriteFile(filepath.Join(dir, "big.tgz"), gz.Bytes(), 0o644)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := write(t, dir, "big.tgz:small.txt", "small\n")
	runtime.ReadMemStats(&after)
	if res.IsError {
		t.Fatal(res.FirstText())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("writing into a tar.gz of %d MiB allocated %d MiB", big>>20, alloc>>20)
	}
	f, _ := os.Open(filepath.Join(dir, "big.tgz"))
	defer f.Close()
	gr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gr)
	var names []string
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		n, _ := io.Copy(io.Discard, tr)
		names = append(names, fmt.Sprintf("%s:%d", h.Name, n))
	}
	if got := strings.Join(names, " "); got != fmt.Sprintf("big.bin:%d small.txt:6", big) {
		t.Errorf("members: %s", got)
	}
}

// The read cache forgets an archive or a database once write changed it.
func TestInsideWritesForgetReadCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, _ := readtest.Zip([]byte("== a.txt ==\na\n"))
	os.WriteFile(filepath.Join(dir, "a.zip"), data, 0o644)
	db := filepath.Join(dir, "app.db")
	if err := readtest.ExecSQLite(db, "CREATE TABLE t(v TEXT);"); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	env.ReadCache = tool.NewReadCache()
	for _, c := range [][3]string{{"a.zip", "a.zip:b.txt", "b"}, {"app.db", "app.db:t", "{v: 'x'}"}} {
		abs := filepath.Join(dir, c[0])
		env.ReadCache.RecordText(abs, "stale view\n")
		raw, _ := json.Marshal(map[string]string{"path": c[1], "content": c[2]})
		if res, err := tool.Run(context.Background(), New(env), raw, nil); err != nil || res.IsError {
			t.Fatalf("%s: %v %s", c[1], err, res.FirstText())
		}
		if _, ok := env.ReadCache.Get(abs); ok {
			t.Errorf("%s: the read cache still holds %s", c[1], c[0])
		}
	}
}

// An existing archive keeps its compression whatever its name says (a
// .tar holding gzip stays gzip, a .tgz holding a plain tar stays plain),
// and an empty file counts as an empty archive.
func TestArchiveKeepsItsCompression(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tgz, _ := readtest.TarGz([]byte("== a.txt ==\na\n"))
	plain, _ := readtest.Tar([]byte("== a.txt ==\na\n"))
	os.WriteFile(filepath.Join(dir, "gz.tar"), tgz, 0o644)
	os.WriteFile(filepath.Join(dir, "plain.tgz"), plain, 0o644)
	os.WriteFile(filepath.Join(dir, "empty.tar.gz"), nil, 0o644)
	for name, gzipped := range map[string]bool{"gz.tar": true, "plain.tgz": false, "empty.tar.gz": true} {
		if res := write(t, dir, name+":b.txt", "b"); res.IsError {
			t.Fatalf("%s: %s", name, res.FirstText())
		}
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if isGz := len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b; isGz != gzipped {
			t.Errorf("%s: gzip %v, want %v", name, isGz, gzipped)
		}
		if !gzipped { // read insists on gzip in a .tgz
			tr := tar.NewReader(bytes.NewReader(data))
			var names []string
			for h, err := tr.Next(); err == nil; h, err = tr.Next() {
				names = append(names, h.Name)
			}
			if strings.Join(names, " ") != "a.txt b.txt" {
				t.Errorf("%s: members %q", name, names)
			}
			continue
		}
		if got := readBack(t, dir, name+":b.txt"); got != "b" {
			t.Errorf("%s: read back %q", name, got)
		}
	}
}

// Writes of different members of one archive running at once all land:
// each rewrites the archive under its lock, reading what the one before
// wrote.
func TestConcurrentMemberWrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, _ := readtest.Zip([]byte("== keep.txt ==\nkeep\n"))
	os.WriteFile(filepath.Join(dir, "a.zip"), data, 0o644)
	env := tool.NewEnv(dir)
	const n = 8
	errs := make(chan string, n)
	for i := range n {
		go func() {
			raw, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("a.zip:m%d.txt", i), "content": "x"})
			res, err := tool.Run(context.Background(), New(env), raw, nil)
			switch {
			case err != nil:
				errs <- err.Error()
			case res.IsError:
				errs <- res.FirstText()
			default:
				errs <- ""
			}
		}()
	}
	for range n {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
	zr, err := zip.OpenReader(filepath.Join(dir, "a.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != n+1 {
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		t.Fatalf("members %q, want keep.txt and %d more", names, n)
	}
}

// A tar that ends right after a member's data, without padding or end
// blocks (as some writers leave one), takes a new member on a block
// boundary and gets its end blocks.
func TestTarWithoutTrailer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "a.txt", Mode: 0o644, Size: 3})
	tw.Write([]byte("abc"))
	os.WriteFile(filepath.Join(dir, "cut.tar"), buf.Bytes()[:512+3], 0o644)
	if res := write(t, dir, "cut.tar:b.txt", "b"); res.IsError {
		t.Fatal(res.FirstText())
	}
	data, _ := os.ReadFile(filepath.Join(dir, "cut.tar"))
	tr := tar.NewReader(bytes.NewReader(data))
	var got []string
	for h, err := tr.Next(); ; h, err = tr.Next() {
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		b, _ := io.ReadAll(tr)
		got = append(got, h.Name+"="+string(b))
	}
	if strings.Join(got, " ") != "a.txt=abc b.txt=b" || len(data)%512 != 0 {
		t.Errorf("members %q, %d bytes", got, len(data))
	}
}
