package read

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/read/archive"
)

// archiveEnv is a session in a fresh directory holding files.
func archiveEnv(t *testing.T, files map[string][]byte) (*tool.Env, string) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	return env, dir
}

// zipOf builds a zip; add writes members through the writer.
func zipOf(t *testing.T, add func(zw *zip.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add(zw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zeroDeflate returns a raw deflate stream that expands to mib MiB of
// zero bytes, built without compressing them: one flushed 1 MiB block of
// zeros is repeated (its back-references only reach zeros), then the
// final block follows.
func zeroDeflate(t *testing.T, mib int) []byte {
	t.Helper()
	var chunk, tail bytes.Buffer
	w, _ := flate.NewWriter(&chunk, flate.BestCompression)
	w.Write(make([]byte, 1<<20))
	w.Flush()
	one := bytes.Clone(chunk.Bytes())
	w.Reset(&tail)
	w.Close()
	var out bytes.Buffer
	for range mib {
		out.Write(one)
	}
	out.Write(tail.Bytes())
	return out.Bytes()
}

// zerosCRC is the CRC-32 of mib MiB of zeros.
func zerosCRC(mib int) uint32 {
	zero := make([]byte, 1<<20)
	var c uint32
	for range mib {
		c = crc32.Update(c, crc32.IEEETable, zero)
	}
	return c
}

func readErr(t *testing.T, env *tool.Env, path string) string {
	t.Helper()
	res := call(t, env, path)
	if !res.IsError {
		t.Fatalf("%s: want an error, got:\n%s", path, res.FirstText())
	}
	return res.FirstText()
}

// heapGrowth runs f and reports the bytes allocated meanwhile.
func heapGrowth(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestZipBombLyingSize: a member declaring 100 bytes whose data expands to
// 1 GiB is stopped right after its declared size, without expanding the
// rest.
func TestZipBombLyingSize(t *testing.T) {
	const mib = 1024
	data := zeroDeflate(t, mib)
	z := zipOf(t, func(zw *zip.Writer) {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "small.txt", Method: zip.Deflate,
			CRC32: zerosCRC(mib), CompressedSize64: uint64(len(data)), UncompressedSize64: 100})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	})
	env, _ := archiveEnv(t, map[string][]byte{"bomb.zip": z})
	var msg string
	start := time.Now()
	grew := heapGrowth(func() { msg = readErr(t, env, "bomb.zip:small.txt") })
	if !strings.Contains(msg, "Cannot read bomb.zip:small.txt: it is corrupt or expands past the size it declares; reading stopped there") {
		t.Fatalf("message: %s", msg)
	}
	if grew > 16<<20 || time.Since(start) > 5*time.Second {
		t.Fatalf("the bomb was expanded: %d bytes allocated in %v", grew, time.Since(start))
	}
	// The listing only reads the central directory.
	if got := call(t, env, "bomb.zip").FirstText(); got != "small.txt (100B)" {
		t.Fatalf("listing: %q", got)
	}
}

// TestZipBombRatio: an honest member of 20 MiB of zeros packed over
// 1000:1 is refused before anything is decompressed; a member declaring
// more than the entry cap is refused by size.
func TestZipBombRatio(t *testing.T) {
	const mib = 20
	data := zeroDeflate(t, mib)
	if ratio := (mib << 20) / len(data); ratio <= int(archive.DefaultLimits().PackRatio) {
		t.Fatalf("fixture ratio %d:1 is not over the cap", ratio)
	}
	z := zipOf(t, func(zw *zip.Writer) {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "zeros.txt", Method: zip.Deflate,
			CRC32: zerosCRC(mib), CompressedSize64: uint64(len(data)), UncompressedSize64: mib << 20})
		w.Write(data)
		w, _ = zw.CreateRaw(&zip.FileHeader{Name: "huge.txt", Method: zip.Deflate,
			CRC32: 0, CompressedSize64: uint64(len(data)), UncompressedSize64: 5 << 30})
		w.Write(data)
	})
	env, _ := archiveEnv(t, map[string][]byte{"bomb.zip": z})
	var msg string
	grew := heapGrowth(func() { msg = readErr(t, env, "bomb.zip:zeros.txt") })
	want := fmt.Sprintf("Cannot read bomb.zip:zeros.txt: it declares 20.0MB packed into %s, a ratio over 1000:1 that only an archive bomb reaches; it was not expanded",
		tool.FormatSize(int64(len(data))))
	if msg != want {
		t.Fatalf("message:\n%s\nwant:\n%s", msg, want)
	}
	if grew > 8<<20 {
		t.Fatalf("%d bytes allocated", grew)
	}
	msg = readErr(t, env, "bomb.zip:huge.txt")
	if msg != "Cannot read bomb.zip:huge.txt: it expands to 5.0GB, over the 32.0MB limit for one archive member; extract it and read the extracted file in parts" {
		t.Fatalf("message: %s", msg)
	}
}

// TestTarGzBomb: walking a .tar.gz stops at the ratio cap and at the
// total cap, whichever trips first.
func TestTarGzBomb(t *testing.T) {
	const mib = 1024
	var hdr bytes.Buffer
	tw := tar.NewWriter(&hdr)
	tw.WriteHeader(&tar.Header{Name: "zeros.bin", Typeflag: tar.TypeReg, Size: mib << 20, Mode: 0o644})
	// The deflate stream: the 512-byte header, then zeros for the member
	// and the tar trailer.
	var head bytes.Buffer
	w, _ := flate.NewWriter(&head, flate.BestSpeed)
	w.Write(hdr.Bytes()[:512])
	w.Flush()
	gz := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}
	gz = append(gz, head.Bytes()...)
	gz = append(gz, zeroDeflate(t, mib+1)...)
	gz = binary.LittleEndian.AppendUint32(gz, 0) // CRC and size: never reached
	gz = binary.LittleEndian.AppendUint32(gz, 0)
	env, _ := archiveEnv(t, map[string][]byte{"bomb.tgz": gz})
	var msg string
	start := time.Now()
	grew := heapGrowth(func() { msg = readErr(t, env, "bomb.tgz") })
	if !strings.HasPrefix(msg, "Cannot read bomb.tgz: ") || !strings.Contains(msg, "a ratio over 1000:1 that only an archive bomb reaches; reading stopped there") {
		t.Fatalf("message: %s", msg)
	}
	if grew > 16<<20 || time.Since(start) > 5*time.Second {
		t.Fatalf("the bomb was expanded: %d bytes allocated in %v", grew, time.Since(start))
	}

	// The total cap, for data that compresses normally.
	var plain bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&plain, "line %d %x\n", i, i*7919)
	}
	tgz := tarGzOf(t, map[string]string{"log.txt": plain.String()})
	env, _ = archiveEnv(t, map[string][]byte{"big.tgz": tgz})
	withCaps(env, func(c *caps) { c.archive.StreamBytes = 64 << 10 })
	if msg := readErr(t, env, "big.tgz"); msg != "Cannot read big.tgz: it expands past 64.0KB, more than read decompresses; reading stopped there" {
		t.Fatalf("message: %s", msg)
	}
}

func tarGzOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for name, body := range files {
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Size: int64(len(body)), Mode: 0o644})
		tw.Write([]byte(body))
	}
	tw.Close()
	var out bytes.Buffer
	gw := gzip.NewWriter(&out)
	gw.Write(raw.Bytes())
	gw.Close()
	return out.Bytes()
}

// TestArchiveMemberTooLarge: a tar member over the entry cap is refused
// by its declared size.
func TestArchiveMemberTooLarge(t *testing.T) {
	t.Parallel()
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	body := strings.Repeat("0123456789abcdef\n", 200)
	tw.WriteHeader(&tar.Header{Name: "big.txt", Typeflag: tar.TypeReg, Size: int64(len(body)), Mode: 0o644})
	tw.Write([]byte(body))
	tw.Close()
	env, _ := archiveEnv(t, map[string][]byte{"a.tar": raw.Bytes()})
	withCaps(env, func(c *caps) { c.archive.EntryBytes = 1024 })
	if msg := readErr(t, env, "a.tar:big.txt"); msg != "Cannot read a.tar:big.txt: it expands to 3.3KB, over the 1.0KB limit for one archive member; extract it and read the extracted file in parts" {
		t.Fatalf("message: %s", msg)
	}
}

// TestZipEncryptedAndUnsupported: encrypted members, unknown compression
// methods and checksum mismatches are errors that say so.
func TestZipEncryptedAndUnsupported(t *testing.T) {
	t.Parallel()
	z := zipOf(t, func(zw *zip.Writer) {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "secret.txt", Method: zip.Deflate, Flags: 0x1,
			CompressedSize64: 12, UncompressedSize64: 10})
		w.Write([]byte("0123456789ab"))
		w, _ = zw.CreateRaw(&zip.FileHeader{Name: "bz.txt", Method: 12, CompressedSize64: 4, UncompressedSize64: 4})
		w.Write([]byte("BZh9"))
		w, _ = zw.CreateRaw(&zip.FileHeader{Name: "bad.txt", Method: zip.Store, CRC32: 1, CompressedSize64: 3, UncompressedSize64: 3})
		w.Write([]byte("abc"))
	})
	env, _ := archiveEnv(t, map[string][]byte{"x.zip": z})
	if got := call(t, env, "x.zip").FirstText(); got != "bad.txt (3B)\nbz.txt (4B)\nsecret.txt (10B, encrypted)" {
		t.Fatalf("listing %q", got)
	}
	for path, want := range map[string]string{
		"x.zip:secret.txt": "Cannot read x.zip:secret.txt: it is encrypted, and read does not decrypt archives; extract it with the password (e.g. unzip -P) and read the extracted file",
		"x.zip:bz.txt":     "Cannot read x.zip:bz.txt: it uses a compression method read cannot decompress; extract it with unzip and read the extracted file",
		"x.zip:bad.txt":    "Cannot read x.zip:bad.txt: it is corrupt (checksum mismatch); the archive may be damaged",
	} {
		if got := readErr(t, env, path); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", path, got, want)
		}
	}
}

// TestArchiveListCap: a listing shows 500 entries and says how to go on;
// a line selector pages through the listing.
func TestArchiveListCap(t *testing.T) {
	t.Parallel()
	z := zipOf(t, func(zw *zip.Writer) {
		for i := range 520 {
			w, _ := zw.Create(fmt.Sprintf("d/f%03d.txt", i))
			w.Write([]byte("x"))
		}
	})
	env, _ := archiveEnv(t, map[string][]byte{"many.zip": z})
	res := call(t, env, "many.zip:d")
	rows := strings.Split(res.FirstText(), "\n")
	if len(rows) != 502 || rows[0] != "f000.txt (1B)" || rows[499] != "f499.txt (1B)" ||
		rows[501] != "[Showing entries 1-500 of 520. Use many.zip:d:501 to list the next ones.]" {
		t.Fatalf("%d rows, head %q, tail %q", len(rows), rows[0], rows[len(rows)-1])
	}
	if d := res.Details.(*Details); !d.ResultLimit || !d.IsDirectory {
		t.Fatalf("details %+v", d)
	}
	got := call(t, env, "many.zip:d:501").FirstText()
	if !strings.HasPrefix(got, "f500.txt (1B)\n") || !strings.HasSuffix(got, "f519.txt (1B)\n\n[Showing entries 501-520 of 520.]") {
		t.Fatalf("page 2:\n%s", got)
	}
	if got := call(t, env, "many.zip:d:10-11").FirstText(); got != "f009.txt (1B)\nf010.txt (1B)\n\n[Showing entries 10-11 of 520. Use many.zip:d:12 to list the next ones.]" {
		t.Fatalf("range:\n%s", got)
	}
	if got := call(t, env, "many.zip:d:600").FirstText(); got != "[Entry 600 is past the end of many.zip:d (520 entries). Use :1 to list from the top.]" {
		t.Fatalf("past end: %s", got)
	}

	withCaps(env, func(c *caps) { c.archive.Entries = 10 })
	got = call(t, env, "many.zip").FirstText()
	if got != "d/\n[only the first 10 members are indexed]" {
		t.Fatalf("entry cap:\n%s", got)
	}
}

// TestArchiveSuffixMatch: a missing archive path is looked up by suffix
// like any path.
func TestArchiveSuffixMatch(t *testing.T) {
	t.Parallel()
	env, dir := archiveEnv(t, nil)
	os.MkdirAll(filepath.Join(dir, "deep", "er"), 0o755)
	z := zipOf(t, func(zw *zip.Writer) { w, _ := zw.Create("a.txt"); w.Write([]byte("hi\n")) })
	os.WriteFile(filepath.Join(dir, "deep", "er", "pack.zip"), z, 0o644)
	res := call(t, env, "er/pack.zip:a.txt")
	if got := res.FirstText(); got != "[Path 'er/pack.zip' not found; resolved to 'deep/er/pack.zip' via suffix match]\nhi\n" {
		t.Fatalf("got %q", got)
	}
}

// TestTarLinks: reading a link member names its target — relative to the
// link for a symbolic link, from the root for a hard link — or says it
// points outside the archive.
func TestTarLinks(t *testing.T) {
	t.Parallel()
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	tw.WriteHeader(&tar.Header{Name: "pkg/a.txt", Typeflag: tar.TypeReg, Size: 2, Mode: 0o644})
	tw.Write([]byte("a\n"))
	tw.WriteHeader(&tar.Header{Name: "other/hard", Typeflag: tar.TypeLink, Linkname: "pkg/a.txt"})
	tw.WriteHeader(&tar.Header{Name: "pkg/soft", Typeflag: tar.TypeSymlink, Linkname: "a.txt"})
	tw.WriteHeader(&tar.Header{Name: "pkg/out", Typeflag: tar.TypeSymlink, Linkname: "../../etc/passwd"})
	tw.Close()
	env, _ := archiveEnv(t, map[string][]byte{"l.tar": raw.Bytes()})
	for path, want := range map[string]string{
		"l.tar:other/hard": "Cannot read l.tar:other/hard: it is a link to pkg/a.txt; read l.tar:pkg/a.txt instead.",
		"l.tar:pkg/soft":   "Cannot read l.tar:pkg/soft: it is a link to a.txt; read l.tar:pkg/a.txt instead.",
		"l.tar:pkg/out":    "Cannot read l.tar:pkg/out: it is a link to ../../etc/passwd, outside the archive; read files inside it instead.",
	} {
		if got := readErr(t, env, path); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", path, got, want)
		}
	}
}
