package archive

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tools/innerpath"
	"github.com/gopi-agent/gopi/internal/humansize"
)

// Entry is one member (or implied directory) of an archive.
type Entry struct {
	Name      string // clean path inside the archive ("" = root)
	Dir       bool
	Link      string // link target, for a link member
	HardLink  bool   // Link is a hard link: its target is a path from the archive's root
	Size      int64  // expanded size as the archive declares it
	Packed    int64  // compressed size (zip members; 0 = unknown)
	Encrypted bool

	zf       *zip.File // the zip member, for reading it
	children []*Entry
}

// Children returns the entries directly inside e, ordered by name.
func (e *Entry) Children() []*Entry {
	out := slices.Clone(e.children)
	slices.SortFunc(out, func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Index is what an archive holds.
type Index struct {
	Entries map[string]*Entry // by clean path; the root is ""
	Unsafe  []string          // member names refused: absolute, or with a ".." segment
	Stopped string            // why indexing stopped early ("" when complete)

	limits Limits
}

func newIndex(l Limits) *Index {
	return &Index{Entries: map[string]*Entry{"": {Dir: true}}, limits: l}
}

// add records a member under its raw name and returns its entry (nil when
// the name is refused or empty). Directories above it are implied.
func (ix *Index) add(raw string, dir bool) *Entry {
	name, abs, err := innerpath.CleanMember(raw)
	if err != nil || abs {
		ix.Unsafe = append(ix.Unsafe, raw)
		return nil
	}
	if name == "" {
		return nil // "./" and the like: the root itself
	}
	e := ix.Entries[name]
	if e == nil {
		e = &Entry{Name: name}
		ix.Entries[name] = e
		ix.parent(name).children = append(ix.parent(name).children, e)
	}
	*e = Entry{Name: name, Dir: dir || e.Dir, children: e.children} // a later duplicate wins
	return e
}

// parent returns the directory entry holding name, implying it (and its
// own parents) when the archive has no entry for it.
func (ix *Index) parent(name string) *Entry {
	dir := path.Dir(name)
	if dir == "." {
		return ix.Entries[""]
	}
	p := ix.Entries[dir]
	if p == nil {
		p = &Entry{Name: dir, Dir: true}
		ix.Entries[dir] = p
		ix.parent(dir).children = append(ix.parent(dir).children, p)
	}
	if !p.Dir {
		// A member of that name came first: the directory wins, as it
		// does when the directory comes first (see add).
		*p = Entry{Name: dir, Dir: true, children: p.children}
	}
	return p
}

// IndexZip reads a zip's central directory, keeping at most l.Entries
// members.
func IndexZip(zr *zip.Reader, l Limits) *Index {
	ix := newIndex(l)
	for i, f := range zr.File {
		if i == l.Entries {
			ix.Stopped = fmt.Sprintf("only the first %d members are indexed", l.Entries)
			break
		}
		mode := f.Mode()
		e := ix.add(f.Name, mode.IsDir() || strings.HasSuffix(f.Name, "/"))
		if e == nil || e.Dir {
			continue
		}
		e.Size = int64(f.UncompressedSize64)
		e.Packed = int64(f.CompressedSize64)
		e.Encrypted = f.Flags&0x1 != 0
		e.zf = f
		if mode&os.ModeSymlink != 0 && !e.Encrypted && e.Size < 4096 {
			if rc, err := f.Open(); err == nil {
				target, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				e.Link = string(target)
			}
		}
	}
	return ix
}

// InZip reports whether e is a member of a zip, read with Index.ReadZip.
func (e *Entry) InZip() bool { return e.zf != nil }

// ReadZip returns a zip member's content, refusing encrypted members,
// unknown compression methods and anything that would expand past the
// caps: its declared size, Limits.EntryBytes, or Limits.PackRatio.
func (ix *Index) ReadZip(e *Entry) ([]byte, error) {
	if e.zf == nil {
		return nil, errors.New("it is not a zip member")
	}
	if e.Encrypted {
		return nil, errEncrypted
	}
	if err := ix.limits.checkExpansion(e.Size, e.Packed); err != nil {
		return nil, err
	}
	rc, err := e.zf.Open()
	if err != nil {
		return nil, zipEntryError(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, e.Size+1))
	if err != nil {
		return nil, zipEntryError(err)
	}
	if int64(len(data)) > e.Size {
		return nil, capErrorf("it expands past the %s it declares, as a corrupt or malicious archive does; reading stopped there", humansize.Format(e.Size))
	}
	return data, nil
}

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

// Member is the member a tar walk was asked to read: a tar is read once,
// front to back, so its content is kept while the index is built.
type Member struct {
	Want string // clean path of the member wanted ("" = none)
	Data []byte // its content, once found
	Err  error  // why it could not be read
	Seen bool   // the walk met it as a regular file
}

// IndexTar walks a tar (gzip-compressed when gz) once, indexing its
// members; the content of the member named by m.Want (when it is a
// regular file) is kept in m. A gzip stream is decompressed under the
// caps of l. A plain tar in an io.Seeker (a file) skips member data by
// seeking.
func IndexTar(r io.Reader, gz bool, m *Member, l Limits) (*Index, error) {
	src := r
	var capped *cappedReader
	if gz {
		packed := &countingReader{r: bufio.NewReaderSize(r, 64<<10)}
		zr, err := gzip.NewReader(packed)
		if err != nil {
			return nil, fmt.Errorf("it is not gzip-compressed (%v), so not a .tar.gz; check what the file really is (e.g. with the file command)", err)
		}
		defer zr.Close()
		capped = &cappedReader{r: zr, packed: packed, limits: l}
		src = capped
	}
	tr := tar.NewReader(src)
	ix := newIndex(l)
	for n := 0; ; n++ {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil && n == l.Entries {
			ix.Stopped = fmt.Sprintf("only the first %d members are indexed", l.Entries)
			break
		}
		if err != nil {
			if capped != nil && capped.tripped != nil {
				return nil, capped.tripped
			}
			if n == 0 && !gz {
				return nil, fmt.Errorf("it is not a tar archive (%v); check what the file really is (e.g. with the file command)", err)
			}
			return nil, fmt.Errorf("it is corrupt or truncated after %s (%v); check that the file is complete", members(n), err)
		}
		var e *Entry
		switch h.Typeflag {
		case tar.TypeDir:
			e = ix.add(h.Name, true)
		case tar.TypeSymlink, tar.TypeLink:
			if e = ix.add(h.Name, false); e != nil && !e.Dir { // a directory of that name wins
				e.Link, e.HardLink = h.Linkname, h.Typeflag == tar.TypeLink
			}
		case tar.TypeReg, tar.TypeChar, tar.TypeBlock, tar.TypeFifo, tar.TypeGNUSparse:
			e = ix.add(h.Name, strings.HasSuffix(h.Name, "/"))
		default:
			continue // extended headers and the like
		}
		if e == nil || e.Dir {
			continue
		}
		e.Size = h.Size
		if m != nil && m.Want == e.Name && e.Link == "" {
			m.Seen, m.Data, m.Err = true, nil, nil
			if h.Size > l.EntryBytes {
				m.Err = l.tooBig(h.Size)
				continue
			}
			m.Data, err = io.ReadAll(tr) // the tar reader stops at h.Size
			if capped != nil && capped.tripped != nil {
				return nil, capped.tripped
			}
			if err != nil {
				return nil, fmt.Errorf("it is corrupt or truncated inside %s (%v); check that the file is complete", e.Name, err)
			}
		}
	}
	return ix, nil
}

// members counts tar members: "1 member", "2 members".
func members(n int) string {
	if n == 1 {
		return "1 member"
	}
	return strconv.Itoa(n) + " members"
}
