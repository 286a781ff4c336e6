package applypatch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// FS is the file access the applier needs. Abs turns a path as the model
// wrote it into the absolute path every other method takes. WriteFile
// replaces a file's content (atomically, keeping its mode, in the real
// implementation) and fails with an fs.ErrNotExist error when the parent
// directory is missing.
type FS interface {
	Abs(path string) string
	ReadFile(path string) ([]byte, error)
	WriteFile(path string, data []byte) error
	MkdirAll(path string) error
	Remove(path string) error
	Stat(path string) (fs.FileInfo, error)
	// WriteMoved writes data to path as the new content of the file at
	// from, which a move takes there: the result keeps from's mode (and,
	// as far as the implementation can, its owner and other metadata),
	// not that of a file it replaces. Missing parents fail as in
	// WriteFile.
	WriteMoved(path, from string, data []byte) error
	// CanReplace says why the file at path must not be given new content
	// or moved (it is read-only, say), or returns nil when it may, or when
	// it is missing (the operation itself reports that).
	CanReplace(path string) error
	// CanRemove says why the file at path must not be deleted, or returns
	// nil as CanReplace does.
	CanRemove(path string) error
}

// Change records what one applied hunk did to the disk.
type Change struct {
	Kind    Kind
	Path    string // as written in the patch
	AbsPath string // resolved against the working directory
	NewPath string // UpdateFile with a move: the destination as written
	NewAbs  string // the destination, resolved
	Old     string // previous content ("" for an added file)
	New     string // new content ("" for a deleted file)
	// For an UpdateFile: the lines of Old and New decoded ("\n" line
	// breaks, no byte-order mark, no terminators), whether each ended with
	// a line break, and the stretches of lines that differ, so a diff only
	// needs to look inside them.
	OldLines, NewLines []string
	OldFinal, NewFinal bool
	Regions            []diff.Region
}

// Result is what Apply did, in patch order.
type Result struct {
	Changes []Change
}

// ApplyHunks applies hunks in order. Files the FS refuses to change (see
// FS.CanReplace and FS.CanRemove) are looked for first, so that such a
// refusal fails before anything is written. Past that, hunks are not
// transactional: when one fails, the ones before it stay applied (the
// returned Result lists them) and the rest are skipped. Updates keep a
// file's byte-order mark and line endings, and whether it ends with a line
// break.
func ApplyHunks(hunks []Hunk, fsys FS) (*Result, error) {
	res := &Result{}
	// A path an earlier hunk changes is checked when its own hunk runs
	// (applyHunk checks again): the state it will have then is unknown.
	touched := map[string]bool{}
	for _, h := range hunks {
		abs, dest := fsys.Abs(h.Path), ""
		if h.MovePath != "" {
			dest = fsys.Abs(h.MovePath)
		}
		if !touched[abs] && !touched[dest] {
			if err := refusal(h, abs, dest, fsys); err != nil {
				return res, err
			}
		}
		touched[abs] = true
		if dest != "" {
			touched[dest] = true
		}
	}
	for _, h := range hunks {
		c, err := applyHunk(h, fsys)
		if err != nil {
			return res, err
		}
		res.Changes = append(res.Changes, c)
	}
	return res, nil
}

// refusal is the error for a hunk that would change a file the FS says
// must be left alone: a deleted, updated or moved file, or a move's
// destination (dest, "" without a move). Added files are not checked:
// Add File refuses any file that exists.
func refusal(h Hunk, abs, dest string, fsys FS) error {
	switch {
	case h.Kind == DeleteFile:
		if err := fsys.CanRemove(abs); err != nil {
			return fmt.Errorf("Failed to delete file %s: %s", h.Path, ioReason(err))
		}
	case h.Kind == UpdateFile && dest != "":
		if err := fsys.CanReplace(abs); err != nil {
			return fmt.Errorf("Failed to move file %s: %s", h.Path, ioReason(err))
		}
		if dest != abs {
			if err := fsys.CanReplace(dest); err != nil {
				return fmt.Errorf("Failed to write file %s: %s", h.MovePath, ioReason(err))
			}
			// A destination that is the source under another name (a
			// symbolic link to it) would get the new content and then
			// lose it with the source.
			si, serr := fsys.Stat(abs)
			di, derr := fsys.Stat(dest)
			if serr == nil && derr == nil && os.SameFile(si, di) {
				return fmt.Errorf("Failed to move file %s: %s is the same file under another name (a link to it), so the move would delete it; update %s without *** Move to, or remove the link first", h.Path, h.MovePath, h.Path)
			}
		}
	case h.Kind == UpdateFile:
		if err := fsys.CanReplace(abs); err != nil {
			return fmt.Errorf("Failed to write file %s: %s", h.Path, ioReason(err))
		}
	}
	return nil
}

func applyHunk(h Hunk, fsys FS) (Change, error) {
	abs := fsys.Abs(h.Path)
	c := Change{Kind: h.Kind, Path: h.Path, AbsPath: abs}
	dest := ""
	if h.MovePath != "" {
		dest = fsys.Abs(h.MovePath)
	}
	if err := refusal(h, abs, dest, fsys); err != nil {
		return c, err
	}
	switch h.Kind {
	case AddFile:
		// A new file, with its missing parents. (A directory in the way is
		// reported by the write.)
		if err := writeCreatingParents(fsys, abs, h.Path, []byte(h.Contents), fsys.WriteFile); err != nil {
			return c, err
		}
		c.New = h.Contents
	case DeleteFile:
		fi, err := fsys.Stat(abs)
		if err != nil {
			return c, fmt.Errorf("Failed to delete file %s: %s", h.Path, ioReason(err))
		}
		if fi.IsDir() {
			return c, fmt.Errorf("Failed to delete file %s: path is a directory", h.Path)
		}
		if old, err := fsys.ReadFile(abs); err == nil {
			c.Old = string(old)
		}
		if err := fsys.Remove(abs); err != nil {
			return c, fmt.Errorf("Failed to delete file %s: %s", h.Path, ioReason(err))
		}
	case UpdateFile:
		raw, err := fsys.ReadFile(abs)
		if err != nil {
			return c, fmt.Errorf("Failed to read file to update %s: %s", h.Path, ioReason(err))
		}
		doc := textfile.Decode(raw)
		u, err := updatedText(doc.Text, h.Chunks, h.Path)
		if err != nil {
			return c, err
		}
		text := u.text
		c.OldLines, c.NewLines, c.OldFinal, c.NewFinal, c.Regions = u.oldLines, u.newLines, u.oldFinal, u.newFinal, u.regions
		c.Old, c.New = string(raw), string(doc.Encode(text))
		if h.MovePath == "" {
			if err := fsys.WriteFile(abs, []byte(c.New)); err != nil {
				return c, fmt.Errorf("Failed to write file %s: %s", h.Path, ioReason(err))
			}
			break
		}
		c.NewPath, c.NewAbs = h.MovePath, dest
		writeMoved := func(path string, data []byte) error { return fsys.WriteMoved(path, abs, data) }
		if err := writeCreatingParents(fsys, dest, h.MovePath, []byte(c.New), writeMoved); err != nil {
			return c, err
		}
		if c.NewAbs != abs {
			if fi, err := fsys.Stat(abs); err == nil && fi.IsDir() {
				return c, fmt.Errorf("Failed to remove original %s: path is a directory", h.Path)
			}
			if err := fsys.Remove(abs); err != nil {
				return c, fmt.Errorf("Failed to remove original %s: %s", h.Path, ioReason(err))
			}
		}
	}
	return c, nil
}

// writeCreatingParents writes a file with write, creating its parent
// directories when the first attempt finds them missing.
func writeCreatingParents(fsys FS, abs, shown string, data []byte, write func(string, []byte) error) error {
	err := write(abs, data)
	if errors.Is(err, fs.ErrNotExist) {
		if err := fsys.MkdirAll(filepath.Dir(abs)); err != nil {
			return fmt.Errorf("Failed to create parent directories for %s: %s", shown, ioReason(err))
		}
		err = write(abs, data)
	}
	if err != nil {
		return fmt.Errorf("Failed to write file %s: %s", shown, ioReason(err))
	}
	return nil
}

// ioReason is an I/O error without the path the os package puts in front
// (the message already names the file as the patch spelled it).
func ioReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// replacement swaps lines[start:start+oldLen] for lines.
type replacement struct {
	start, oldLen int
	lines         []string
}

// update is the outcome of updatedText.
type update struct {
	text               string        // the new text
	oldLines, newLines []string      // both texts as lines without terminators (textfile.Lines)
	oldFinal, newFinal bool          // whether each text ended with a line break
	regions            []diff.Region // the stretches of lines that differ
}

// updatedText applies an update's chunks to "\n"-separated text, as omp
// does: a single hunk of only removed and added lines is replaced as text
// (see matchesAsText), other chunks are placed line by line and spliced
// in. The result ends with a line break when text did, and else with none
// (trailing line breaks dropped), as omp leaves it.
func updatedText(text string, chunks []Chunk, shown string) (update, error) {
	hadFinal := strings.HasSuffix(text, "\n")
	if matchesAsText(chunks) {
		replaced, err := replaceAsText(text, chunks[0], shown)
		if err != nil {
			return update{}, err
		}
		return describeUpdate(text, finalNewline(replaced, hadFinal), nil), nil
	}
	lines := strings.Split(text, "\n")
	if hadFinal {
		lines = lines[:len(lines)-1]
	}
	reps, err := replacements(lines, chunks, shown)
	if err != nil {
		return update{}, err
	}
	slices.SortStableFunc(reps, func(a, b replacement) int { return a.start - b.start })
	if err := overlapError(reps, shown); err != nil {
		return update{}, err
	}
	// Replacements do not overlap (overlaps are refused above), so one
	// forward pass splices them all.
	out := make([]string, 0, len(lines)+8)
	regions := make([]diff.Region, 0, len(reps))
	prev := 0
	for _, r := range reps {
		start := max(r.start, prev) // a pure addition sharing a start with a replacement goes after it
		end := max(start, r.start+r.oldLen)
		out = append(out, lines[prev:start]...)
		regions = append(regions, diff.Region{OldStart: start, OldEnd: end, NewStart: len(out), NewEnd: len(out) + len(r.lines)})
		out = append(out, r.lines...)
		prev = end
	}
	out = append(out, lines[prev:]...)
	if hadFinal {
		out = append(out, "")
	}
	return describeUpdate(text, finalNewline(strings.Join(out, "\n"), hadFinal), regions), nil
}

// finalNewline gives an updated text the ending omp gives it: a line
// break when the file had one (added only when missing), else none.
func finalNewline(text string, hadFinal bool) string {
	if hadFinal {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return text
	}
	return strings.TrimRight(text, "\n")
}

// describeUpdate is the update from old to new. regions are the stretches
// the chunks replaced, in old's and new's lines; when they do not account
// for every difference (the final line breaks moved them, or the text was
// replaced whole) the one stretch between the lines both texts begin and
// end with is used instead.
func describeUpdate(old, new string, regions []diff.Region) update {
	u := update{text: new}
	u.oldLines, u.oldFinal = textfile.Lines(old)
	u.newLines, u.newFinal = textfile.Lines(new)
	if regions != nil && regionsAccount(u.oldLines, u.newLines, regions) {
		u.regions = regions
		return u
	}
	a, b := u.oldLines, u.newLines
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	u.regions = []diff.Region{{OldStart: head, OldEnd: len(a) - tail, NewStart: head, NewEnd: len(b) - tail}}
	return u
}

// regionsAccount reports whether a and b are equal outside regions (in
// order, within bounds).
func regionsAccount(a, b []string, regions []diff.Region) bool {
	pa, pb := 0, 0
	for _, r := range regions {
		if r.OldStart < pa || r.NewStart < pb || r.OldEnd < r.OldStart || r.NewEnd < r.NewStart || r.OldEnd > len(a) || r.NewEnd > len(b) ||
			!slices.Equal(a[pa:r.OldStart], b[pb:r.NewStart]) {
			return false
		}
		pa, pb = r.OldEnd, r.NewEnd
	}
	return slices.Equal(a[pa:], b[pb:])
}

// replacements locates every chunk (see placePatchChunk), each search
// starting where the previous chunk ended.
func replacements(lines []string, chunks []Chunk, shown string) ([]replacement, error) {
	var reps []replacement
	cursor := 0
	for _, c := range chunks {
		rep, next, err := placePatchChunk(lines, c, cursor, shown)
		if err != nil {
			return nil, err
		}
		if rep != nil {
			reps = append(reps, *rep)
		}
		cursor = next
	}
	return reps, nil
}

// notFoundError is the error for a chunk whose old lines are not in the
// file, with where they come closest and how similar that place is.
func notFoundError(lines, pattern []string, cursor int, c Chunk, shown string) error {
	msg := fmt.Sprintf("Failed to find expected lines in %s:\n%s", shown, strings.Join(c.OldLines, "\n"))
	if at, conf, ok := closestSequence(lines, pattern, cursor, c.EndOfFile); ok {
		msg += fmt.Sprintf("\n\nClosest match (%d%% similar) near line %d:\n%s", percent(conf), at+1, preview(lines, at, 2))
	}
	return errors.New(msg)
}

// endOfText is where lines added at the end of the file go: after the
// last line, or before a final empty one.
func endOfText(lines []string) int {
	if n := len(lines); n > 0 && lines[n-1] == "" {
		return n - 1
	}
	return len(lines)
}
