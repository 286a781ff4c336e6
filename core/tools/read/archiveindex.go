package read

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/tool"
)

// Decompression caps. They are variables so tests can lower them.
var (
	// maxEntryBytes bounds the expanded size of one member read.
	maxEntryBytes int64 = 32 << 20
	// maxStreamBytes bounds the bytes a .tar.gz expands to while it is
	// walked (listing it means decompressing all of it).
	maxStreamBytes int64 = 512 << 20
	// maxPackRatio bounds expanded/compressed size once more than
	// ratioFloor bytes have come out: deflate tops out near 1032:1, so
	// only a bomb (or a file of one repeated byte) gets there.
	maxPackRatio int64 = 1000
	ratioFloor   int64 = 1 << 20
	// maxArchiveEntries bounds the members indexed.
	maxArchiveEntries = 100_000
)

// capError reports decompression stopped (or refused) at a cap.
type capError struct{ msg string }

func (e *capError) Error() string { return e.msg }

func capErrorf(format string, args ...any) error { return &capError{fmt.Sprintf(format, args...)} }

// archiveEntry is one member (or implied directory) of an archive.
type archiveEntry struct {
	name      string // clean path inside the archive ("" = root)
	dir       bool
	link      string // link target, for a link member
	hardLink  bool   // link is a hard link: its target is a path from the archive's root
	size      int64  // expanded size as the archive declares it
	packed    int64  // compressed size (zip members; 0 = unknown)
	encrypted bool
	zf        *zip.File // the zip member, for reading it
	children  []*archiveEntry
}

// archiveIndex is what an archive holds.
type archiveIndex struct {
	entries map[string]*archiveEntry // by clean path; the root is ""
	unsafe  []string                 // member names refused: absolute, or with a ".." segment
	stopped string                   // why indexing stopped early ("" when complete)
}

func newArchiveIndex() *archiveIndex {
	return &archiveIndex{entries: map[string]*archiveEntry{"": {dir: true}}}
}

// add records a member under its raw name and returns its entry (nil when
// the name is refused or empty). Directories above it are implied.
func (ix *archiveIndex) add(raw string, dir bool) *archiveEntry {
	name, abs, err := cleanMemberPath(raw)
	if err != nil || abs {
		ix.unsafe = append(ix.unsafe, raw)
		return nil
	}
	if name == "" {
		return nil // "./" and the like: the root itself
	}
	e := ix.entries[name]
	if e == nil {
		e = &archiveEntry{name: name}
		ix.entries[name] = e
		ix.parent(name).children = append(ix.parent(name).children, e)
	}
	*e = archiveEntry{name: name, dir: dir || e.dir, children: e.children} // a later duplicate wins
	return e
}

// parent returns the directory entry holding name, implying it (and its
// own parents) when the archive has no entry for it.
func (ix *archiveIndex) parent(name string) *archiveEntry {
	dir := path.Dir(name)
	if dir == "." {
		return ix.entries[""]
	}
	p := ix.entries[dir]
	if p == nil {
		p = &archiveEntry{name: dir, dir: true}
		ix.entries[dir] = p
		ix.parent(dir).children = append(ix.parent(dir).children, p)
	}
	p.dir = true
	return p
}

// sorted returns the children of dir ordered by name.
func (e *archiveEntry) sorted() []*archiveEntry {
	out := slices.Clone(e.children)
	slices.SortFunc(out, func(a, b *archiveEntry) int { return strings.Compare(a.name, b.name) })
	return out
}

// indexZip reads a zip's central directory.
func indexZip(zr *zip.Reader) *archiveIndex {
	ix := newArchiveIndex()
	for i, f := range zr.File {
		if i == maxArchiveEntries {
			ix.stopped = fmt.Sprintf("only the first %d members are indexed", maxArchiveEntries)
			break
		}
		mode := f.Mode()
		e := ix.add(f.Name, mode.IsDir() || strings.HasSuffix(f.Name, "/"))
		if e == nil || e.dir {
			continue
		}
		e.size = int64(f.UncompressedSize64)
		e.packed = int64(f.CompressedSize64)
		e.encrypted = f.Flags&0x1 != 0
		e.zf = f
		if mode&os.ModeSymlink != 0 && !e.encrypted && e.size < 4096 {
			if rc, err := f.Open(); err == nil {
				target, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				e.link = string(target)
			}
		}
	}
	return ix
}

// readZipEntry returns a zip member's content, refusing encrypted members,
// unknown compression methods and anything that would expand past the
// caps: its declared size, maxEntryBytes, or maxPackRatio.
func readZipEntry(e *archiveEntry) ([]byte, error) {
	if e.encrypted {
		return nil, errEncrypted
	}
	if err := checkExpansion(e.size, e.packed); err != nil {
		return nil, err
	}
	rc, err := e.zf.Open()
	if err != nil {
		return nil, zipEntryError(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, e.size+1))
	if err != nil {
		return nil, zipEntryError(err)
	}
	if int64(len(data)) > e.size {
		return nil, capErrorf("it expands past the %s it declares, as a corrupt or malicious archive does; reading stopped there", tool.FormatSize(e.size))
	}
	return data, nil
}

// checkExpansion refuses a member whose declared sizes exceed the caps.
func checkExpansion(size, packed int64) error {
	if size > maxEntryBytes {
		return tooBig(size)
	}
	if size > ratioFloor && (packed <= 0 || size/packed > maxPackRatio) {
		return capErrorf("it declares %s packed into %s, a ratio over %d:1 that only an archive bomb reaches; it was not expanded",
			tool.FormatSize(size), tool.FormatSize(packed), maxPackRatio)
	}
	return nil
}

// tooBig refuses a member over maxEntryBytes.
func tooBig(size int64) error {
	return capErrorf("it expands to %s, over the %s limit for one archive member; extract it and read the extracted file in parts",
		tool.FormatSize(size), tool.FormatSize(maxEntryBytes))
}

var (
	errEncrypted   = errors.New("it is encrypted, and read does not decrypt archives; extract it with the password (e.g. unzip -P) and read the extracted file")
	errUnsupported = errors.New("it uses a compression method read cannot decompress; extract it with unzip and read the extracted file")
)

// zipEntryError explains a failure reading a zip member.
func zipEntryError(err error) error {
	switch {
	case errors.Is(err, zip.ErrAlgorithm):
		return errUnsupported
	case errors.Is(err, zip.ErrFormat):
		return capErrorf("it is corrupt or expands past the size it declares; reading stopped there")
	case errors.Is(err, zip.ErrChecksum):
		return errors.New("it is corrupt (checksum mismatch); the archive may be damaged")
	}
	return fmt.Errorf("it is corrupt (%v); the archive may be damaged", err)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// cappedReader stops a decompressed stream at the caps: maxStreamBytes in
// all, maxPackRatio once ratioFloor bytes are out. It remembers tripping,
// whatever its caller does with the error.
type cappedReader struct {
	r       io.Reader
	packed  *countingReader // the compressed side
	n       int64
	tripped error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.tripped != nil {
		return 0, c.tripped
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	switch {
	case c.n > maxStreamBytes:
		c.tripped = capErrorf("it expands past %s, more than read decompresses; reading stopped there", tool.FormatSize(maxStreamBytes))
	case c.n > ratioFloor && c.n/max(c.packed.n, 1) > maxPackRatio:
		c.tripped = capErrorf("%s of compressed data expanded to %s, a ratio over %d:1 that only an archive bomb reaches; reading stopped there",
			tool.FormatSize(c.packed.n), tool.FormatSize(c.n), maxPackRatio)
	}
	if c.tripped != nil {
		return 0, c.tripped
	}
	return n, err
}

// tarMember is the member a tar walk was asked to read.
type tarMember struct {
	want string // clean path of the member wanted ("" = none)
	data []byte // its content, once found
	err  error  // why it could not be read
	seen bool
}

// indexTar walks a tar (gzip-compressed when gz) once, indexing its
// members; the content of the member named by m.want (when it is a
// regular file) is kept in m. A gzip stream is decompressed under the
// caps of cappedReader.
func indexTar(f *os.File, gz bool, m *tarMember) (*archiveIndex, error) {
	var src io.Reader = f // a plain tar skips member data by seeking
	var capped *cappedReader
	if gz {
		packed := &countingReader{r: bufio.NewReaderSize(f, 64<<10)}
		zr, err := gzip.NewReader(packed)
		if err != nil {
			return nil, fmt.Errorf("it is not gzip-compressed (%v), so not a .tar.gz; check what the file really is (e.g. with the file command)", err)
		}
		defer zr.Close()
		capped = &cappedReader{r: zr, packed: packed}
		src = capped
	}
	tr := tar.NewReader(src)
	ix := newArchiveIndex()
	for n := 0; ; n++ {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil && n == maxArchiveEntries {
			ix.stopped = fmt.Sprintf("only the first %d members are indexed", maxArchiveEntries)
			break
		}
		if err != nil {
			if capped != nil && capped.tripped != nil {
				return nil, capped.tripped
			}
			if n == 0 && !gz {
				return nil, fmt.Errorf("it is not a tar archive (%v); check what the file really is (e.g. with the file command)", err)
			}
			return nil, fmt.Errorf("it is corrupt or truncated after %s (%v); check that the file is complete", plural(n, "member"), err)
		}
		var e *archiveEntry
		switch h.Typeflag {
		case tar.TypeDir:
			e = ix.add(h.Name, true)
		case tar.TypeSymlink, tar.TypeLink:
			if e = ix.add(h.Name, false); e != nil {
				e.link, e.hardLink = h.Linkname, h.Typeflag == tar.TypeLink
			}
		case tar.TypeReg, tar.TypeChar, tar.TypeBlock, tar.TypeFifo, tar.TypeGNUSparse:
			e = ix.add(h.Name, strings.HasSuffix(h.Name, "/"))
		default:
			continue // extended headers and the like
		}
		if e == nil || e.dir {
			continue
		}
		e.size = h.Size
		if m != nil && m.want == e.name && e.link == "" {
			m.seen, m.data, m.err = true, nil, nil
			if h.Size > maxEntryBytes {
				m.err = tooBig(h.Size)
				continue
			}
			m.data, err = io.ReadAll(tr) // the tar reader stops at h.Size
			if capped != nil && capped.tripped != nil {
				return nil, capped.tripped
			}
			if err != nil {
				return nil, fmt.Errorf("it is corrupt or truncated inside %s (%v); check that the file is complete", e.name, err)
			}
		}
	}
	return ix, nil
}

// looksBinary reports whether data is not UTF-8 text: a NUL byte, or an
// invalid UTF-8 sequence, in its first sniffSize bytes.
func looksBinary(data []byte) bool {
	head := data[:min(len(data), sniffSize)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if len(head) < len(data) { // a rune cut by the sniff boundary is fine
		for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
			if utf8.RuneStart(head[i]) {
				if !utf8.FullRune(head[i:]) {
					head = head[:i]
				}
				break
			}
		}
	}
	return !utf8.Valid(head)
}
