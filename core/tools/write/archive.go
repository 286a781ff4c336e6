package write

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/innerpath"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// archiveTarget is a member of an archive that a write path names.
type archiveTarget struct {
	archive string // the archive as written in the path
	abs     string // the archive file
	member  string // the member's clean path
	exists  bool   // the archive file exists
}

// findArchiveTarget reads p as an archive member path, or returns nil
// when p names none (no archive extension followed by ':'). Of several
// readings, the longest archive path that exists as a file wins; when
// none exists, the shortest is created. The member must be a file path
// without "..".
func (t *Tool) findArchiveTarget(p string) (*archiveTarget, error) {
	var splits []innerpath.ArchiveSplit
	for _, s := range innerpath.ArchiveSplits(p) {
		if s.HasInner {
			splits = append(splits, s)
		}
	}
	if len(splits) == 0 {
		return nil, nil
	}
	fallback := splits[0]
	if _, err := writeMember(fallback); err != nil {
		return nil, err
	}
	for i := len(splits) - 1; i >= 0; i-- {
		s := splits[i]
		abs := t.env.Resolve(s.Archive)
		if ok, err := isFile(abs, p); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		member, err := writeMember(s)
		if err != nil {
			return nil, err
		}
		return &archiveTarget{archive: s.Archive, abs: abs, member: member, exists: true}, nil
	}
	member, _ := writeMember(fallback)
	return &archiveTarget{archive: fallback.Archive, abs: t.env.Resolve(fallback.Archive), member: member}, nil
}

// isFile reports whether the candidate file abs of the write path p
// exists and is not a directory; only a failure to look is an error.
func isFile(abs, p string) (bool, error) {
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return false, nil
	case err != nil:
		return false, tool.Errorf("Cannot write %s: %v", p, pathErr(err))
	}
	return !info.IsDir(), nil
}

// writeMember cleans the member path of s for a write: it must name a
// file, by its path from the archive's root.
func writeMember(s innerpath.ArchiveSplit) (string, error) {
	example := s.Archive + ":dir/notes.txt"
	inner := strings.ReplaceAll(s.Inner, `\`, "/")
	if strings.HasSuffix(inner, "/") {
		return "", tool.Errorf("Archive write path must target a file, not a directory: add the file's name, e.g. %s.", example)
	}
	member, _, err := innerpath.CleanMember(inner)
	if err != nil {
		return "", tool.Errorf("Archive path cannot contain '..': name the file by its path from the archive's root, e.g. %s.", example)
	}
	if member == "" {
		return "", tool.Errorf("Archive write path must target a file inside the archive: name it after the ':', e.g. %s.", example)
	}
	return member, nil
}

// writeArchive writes content as the member at of an archive, creating
// the archive (and its directory) when it is missing. The archive is
// rewritten through the one write path, under its lock: streamed into a
// temporary file beside it, which then replaces it with its mode and
// owner kept.
func (t *Tool) writeArchive(ctx context.Context, at *archiveTarget, content string) (*tool.Result, error) {
	if err := t.env.CheckPlanWrite(at.abs); err != nil {
		return nil, err
	}
	display := t.env.DisplayPath(at.abs)
	name := display + ":" + at.member
	unlock, err := atomicfile.Lock(at.abs)
	if err != nil {
		return nil, tool.Errorf("Cannot write %s: %v", name, err)
	}
	defer unlock()
	e := entryWrite{member: at.member, archive: display, data: []byte(content), now: time.Now()}
	info, err := os.Stat(at.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		info = nil
	case err != nil:
		return nil, tool.Errorf("Cannot write %s: %v", name, pathErr(err))
	case info.IsDir():
		return nil, tool.Errorf("Cannot write %s: %s is a directory, not an archive; give the path of an archive file.", name, display)
	default:
		if err := atomicfile.Writable(at.abs, display); err != nil {
			return nil, tool.Errorf("%v", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(at.abs), 0o755); err != nil {
		return nil, tool.Errorf("Cannot create the directory for %s: %v", display, pathErr(err))
	}
	var replaced bool
	err = atomicfile.Write(at.abs, 0o644, func(w io.Writer) error {
		var err error
		replaced, err = rewriteArchive(ctx, w, at.abs, info, e)
		return err
	})
	if err != nil {
		var me *memberError
		switch {
		case errors.As(err, &me):
			return nil, tool.Errorf("%s", me.msg)
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
		return nil, tool.Errorf("Cannot write %s: %v; the archive was left as it was.", name, archiveErr(err, at.abs))
	}
	t.env.Caches.Invalidate(at.abs)
	if t.env.ReadCache != nil {
		t.env.ReadCache.Forget(at.abs)
	}
	op := "create"
	if replaced {
		op = "update"
	}
	text := fmt.Sprintf("Successfully wrote %d bytes to %s", len(content), name)
	details := &Details{Archive: at.abs, Entry: at.member, Op: op, Lines: len(hashline.SplitLines(strings.TrimPrefix(content, "\uFEFF"))), Bytes: len(content)}
	if w := t.env.OutsideCwdWarning(at.abs); w != "" {
		details.Warnings = []string{w}
		text += "\n\nWarnings:\n" + w
	}
	return tool.TextResult(text, details), nil
}

// rewriteArchive writes to w the archive at abs (info; nil when it does
// not exist yet) with e's member written, and reports whether the member
// replaced one. An existing archive is compressed or not as it was (a
// .tar holding gzip stays gzip); a new one as its extension says. An
// empty file counts as an empty archive.
func rewriteArchive(ctx context.Context, w io.Writer, abs string, info fs.FileInfo, e entryWrite) (bool, error) {
	format, _ := innerpath.ArchiveFormatOf(abs)
	if info == nil || info.Size() == 0 {
		if format == innerpath.Zip {
			return false, newZip(w, e)
		}
		if format == innerpath.Tar {
			return false, newTar(w, e)
		}
		gw := gzip.NewWriter(w)
		if err := newTar(gw, e); err != nil {
			return false, err
		}
		return false, gw.Close()
	}
	f, err := os.Open(abs)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if format == innerpath.Zip {
		return rewriteZip(w, ctxReaderAt{ctx, f}, info.Size(), e)
	}
	br := bufio.NewReaderSize(ctxReader{ctx, f}, 64<<10)
	if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return rewriteTar(w, br, e)
	}
	gr, err := gzip.NewReader(br)
	if err != nil {
		return false, fmt.Errorf("it is not a valid gzip file (%v)", err)
	}
	gw, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	gw.Header = gr.Header
	replaced, err := rewriteTar(gw, gr, e)
	if err != nil {
		return false, err
	}
	return replaced, gw.Close()
}

// archiveErr drops the temporary file's name and the archive's path from
// err, which the message names already.
func archiveErr(err error, abs string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	msg := err.Error()
	if i := strings.Index(msg, abs+": "); i >= 0 {
		return errors.New(msg[i+len(abs)+2:])
	}
	return err
}

// ctxReader is a reader that stops once ctx is done, so that rewriting a
// huge archive ends when the call is aborted.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read reads from r unless ctx is done.
func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// ctxReaderAt is ctxReader for random access.
type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

// ReadAt reads from r unless ctx is done.
func (c ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}
