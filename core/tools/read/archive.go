package read

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/innerpath"
	"github.com/gopi-agent/gopi/core/tools/read/archive"
)

// archiveListCap is how many entries one archive listing shows.
const archiveListCap = 500

// isArchivePath reports whether target can name an archive or something
// inside one ("a.zip", "a.tgz:dir/f.txt:5-9"). Whether the archive exists
// is decided by readArchive, which passes other paths on.
func isArchivePath(target string) bool {
	p, _, err := SplitSelector(target)
	if err != nil {
		p = target
	}
	return len(innerpath.ArchiveSplits(p)) > 0
}

// readArchive lists a directory of an archive or reads one of its members
// as text. Archive members are not editable, so they carry no edit anchors
// and are not recorded in the read cache.
func (t *Tool) readArchive(ctx context.Context, target string) (*tool.Result, error) {
	p, sel, err := SplitSelector(target)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error(), Err: err}
	}
	split, r := t.findArchive(ctx, p)
	if r == nil {
		return nil, errPass // no such archive file: some other kind of path
	}
	inner, _, err := innerpath.CleanMember(split.Inner)
	if err != nil {
		return nil, tool.Errorf("Cannot read %s: the member path %q has a \"..\" segment; name the member by its path from the archive's root, e.g. %s:dir/file.txt (read %s to list them).",
			p, split.Inner, r.display, r.display)
	}
	name := r.display
	if inner != "" {
		name += ":" + inner
	}
	d := &Details{ResolvedPath: r.abs, Source: r.abs}
	if inner != "" {
		d.Source += ":" + inner
	}

	f, err := os.Open(r.abs)
	if err != nil {
		return nil, tool.Errorf("Cannot read %s: %v", r.display, unwrapPathError(err))
	}
	defer f.Close()
	var ix *archive.Index
	var member *archive.Member
	switch split.Format {
	case innerpath.Zip:
		zr, err := zip.NewReader(f, r.info.Size())
		if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
			return nil, tool.Errorf("Cannot read %s: it is not a valid zip archive (%v); check that the file is complete", r.display, err)
		}
		ix = archive.IndexZip(zr, t.caps.archive)
	default:
		member = &archive.Member{Want: inner}
		ix, err = archive.IndexTar(f, split.Format == innerpath.TarGz || isGzip(f), member, t.caps.archive)
		if err != nil {
			return nil, tool.Errorf("Cannot read %s: %v", r.display, err)
		}
	}

	e := ix.Entries[inner]
	if e == nil {
		return nil, missingMember(ix, r.display, inner)
	}
	var text string
	if e.Dir {
		d.IsDirectory = true
		text, d.ResultLimit = listArchive(ix, e, sel, name)
		if capped, cut := capOutput(text, "list fewer entries at a time, e.g. "+name+":1-100"); cut {
			text, d.ResultLimit = capped, true
		}
	} else {
		text, err = t.readArchiveMember(ix, e, member, sel, r.display, name, d)
		if err != nil {
			return nil, err
		}
	}
	if r.suffixOf != "" {
		d.SuffixResolution = &SuffixResolution{From: r.suffixOf, To: r.suffixHit}
		text = "[Path '" + r.suffixOf + "' not found; resolved to '" + r.suffixHit + "' via suffix match]\n" + text
	}
	return tool.TextResult(text, d), nil
}

// findArchive finds the archive file p names: the first split whose
// archive is a regular file, else a unique suffix match for the shortest
// one. It returns a nil resolution when there is none.
func (t *Tool) findArchive(ctx context.Context, p string) (innerpath.ArchiveSplit, *resolved) {
	splits := innerpath.ArchiveSplits(p)
	for _, s := range splits {
		abs := t.env.Resolve(s.Archive)
		if info, err := os.Stat(abs); err == nil && info.Mode().IsRegular() {
			return s, &resolved{abs: abs, display: t.env.DisplayPath(abs), info: info}
		}
	}
	if len(splits) > 0 {
		if r, err := resolvePath(ctx, t.env, splits[0].Archive); err == nil && r.info.Mode().IsRegular() {
			return splits[0], r
		}
	}
	return innerpath.ArchiveSplit{}, nil
}

// isGzip reports whether f starts with the gzip magic (a .tar that is
// really a .tar.gz), leaving f at its start.
func isGzip(f *os.File) bool {
	var magic [2]byte
	n, _ := f.ReadAt(magic[:], 0)
	return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b
}

// missingMember explains a member path the archive does not hold: a path
// through a nested archive, or simply absent.
func missingMember(ix *archive.Index, archivePath, inner string) error {
	for i := strings.IndexByte(inner, ':'); i >= 0; i = next(inner, i) {
		head := inner[:i]
		if e := ix.Entries[head]; e != nil && !e.Dir {
			if _, ok := innerpath.ArchiveFormatOf(head); ok {
				return nestedError(archivePath, head)
			}
		}
	}
	msg := "Path '" + archivePath + ":" + inner + "' not found inside the archive"
	if ix.Stopped != "" {
		msg += " (" + ix.Stopped + ")"
	}
	return tool.Errorf("%s; read %s to list its members.", msg, archivePath)
}

// next returns the index of the next ':' in s after i, or -1.
func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], ':')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func nestedError(archivePath, inner string) error {
	return tool.Errorf("Cannot read inside %s:%s: it is an archive within an archive, and read opens only one level; extract %s from %s and read the extracted file.",
		archivePath, inner, inner, archivePath)
}

// listArchive renders the children of dir, sel choosing which rows (at
// most archiveListCap). It reports whether rows were left out.
func listArchive(ix *archive.Index, dir *archive.Entry, sel Selector, name string) (string, bool) {
	children := dir.Children()
	var notes []string
	if dir.Name == "" && len(ix.Unsafe) > 0 {
		var shown []string
		for _, n := range ix.Unsafe[:min(len(ix.Unsafe), 5)] {
			shown = append(shown, strconv.Quote(n))
		}
		more := ""
		if len(ix.Unsafe) > len(shown) {
			more = ", …"
		}
		notes = append(notes, "["+plural(len(ix.Unsafe), "member")+" with an absolute path or a \"..\" segment not shown and not readable: "+
			strings.Join(shown, ", ")+more+"]")
	}
	if ix.Stopped != "" {
		notes = append(notes, "["+ix.Stopped+"]")
	}
	if len(children) == 0 {
		empty := "(empty archive)"
		if dir.Name != "" {
			empty = emptyDirectory
		}
		return strings.Join(append([]string{empty}, notes...), "\n"), ix.Stopped != ""
	}
	from := max(sel.Start, 1)
	if from > len(children) {
		return "[Entry " + strconv.Itoa(from) + " is past the end of " + name + " (" + entries(len(children)) +
			"). Use :1 to list from the top.]", false
	}
	to := min(len(children), from+archiveListCap-1)
	if sel.End > 0 {
		to = min(to, sel.End)
	}
	rows := make([]string, 0, to-from+1)
	for _, e := range children[from-1 : to] {
		rows = append(rows, describeMember(e))
	}
	cut := from > 1 || to < len(children)
	if cut {
		row := "[Showing entries " + strconv.Itoa(from) + "-" + strconv.Itoa(to) + " of " + strconv.Itoa(len(children))
		if to < len(children) {
			row += ". Use " + name + ":" + strconv.Itoa(to+1) + " to list the next ones"
		}
		notes = append([]string{"", row + ".]"}, notes...)
	}
	return strings.Join(append(rows, notes...), "\n"), cut || ix.Stopped != ""
}

// entries counts listing entries: "1 entry", "2 entries".
func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

// describeMember renders one listing row: "dir/", "name (size)",
// "name -> target", with ", encrypted" when it is.
func describeMember(e *archive.Entry) string {
	base := e.Name[strings.LastIndexByte(e.Name, '/')+1:]
	switch {
	case e.Dir:
		return base + "/"
	case e.Link != "":
		return base + " -> " + e.Link
	}
	var attrs []string
	if e.Size > 0 {
		attrs = append(attrs, tool.FormatSize(e.Size))
	}
	if e.Encrypted {
		attrs = append(attrs, "encrypted")
	}
	if len(attrs) == 0 {
		return base
	}
	return base + " (" + strings.Join(attrs, ", ") + ")"
}

// readArchiveMember shows a member's text like a file's, without anchors.
func (t *Tool) readArchiveMember(ix *archive.Index, e *archive.Entry, m *archive.Member, sel Selector, archivePath, name string, d *Details) (string, error) {
	if _, ok := innerpath.ArchiveFormatOf(e.Name); ok {
		return "", nestedError(archivePath, e.Name)
	}
	if e.Link != "" {
		from := path.Dir(e.Name)
		if e.HardLink {
			from = ""
		}
		target, abs, err := innerpath.CleanMember(path.Join(from, e.Link))
		if err != nil || abs || strings.HasPrefix(e.Link, "/") {
			return "", tool.Errorf("Cannot read %s: it is a link to %s, outside the archive; read files inside it instead.", name, e.Link)
		}
		return "", tool.Errorf("Cannot read %s: it is a link to %s; read %s:%s instead.", name, e.Link, archivePath, target)
	}
	var data []byte
	var err error
	if e.InZip() {
		data, err = ix.ReadZip(e)
	} else if m != nil && m.Seen {
		data, err = m.Data, m.Err
	} else {
		err = errors.New("it could not be found while walking the archive")
	}
	if err != nil {
		return "", tool.Errorf("Cannot read %s: %v", name, err)
	}
	if looksBinary(data) {
		return "[Cannot read binary archive entry '" + e.Name + "' (" + tool.FormatSize(int64(len(data))) + ")]", nil
	}
	text, _, err := t.render(bytes.NewReader(data), sel, name, t.env.DisplayMode(sel.Raw, true), d)
	return text, err
}
