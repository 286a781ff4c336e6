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

// FS is the file access the applier needs. Paths are absolute. WriteFile
// replaces a file's content (atomically, keeping its mode, in the real
// implementation) and fails with an fs.ErrNotExist error when the parent
// directory is missing.
type FS interface {
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
	// breaks, no byte-order mark, no terminators), whether Old ended with a
	// line break (New always does unless empty), and the stretches of lines
	// the chunks replaced, so a diff only needs to look inside them.
	OldLines, NewLines []string
	OldFinal           bool
	Regions            []diff.Region
}

// Result is what Apply did, in patch order.
type Result struct {
	Changes []Change
}

// Line is the change as the summary lists it: "A path", "M path" or
// "D path", with paths as the patch wrote them, and "M old -> new" for a
// moved file.
func (c Change) Line() string {
	switch {
	case c.Kind == AddFile:
		return "A " + c.Path
	case c.Kind == DeleteFile:
		return "D " + c.Path
	case c.NewPath != "":
		return "M " + c.Path + " -> " + c.NewPath
	}
	return "M " + c.Path
}

// Summary renders the git-style report of a successful apply: a header
// line then one Line per change, added files first, then modified ones
// (moved files among them, naming both paths), then deleted ones.
func (r *Result) Summary() string {
	var b strings.Builder
	b.WriteString("Success. Updated the following files:\n")
	for _, k := range []Kind{AddFile, UpdateFile, DeleteFile} {
		for _, c := range r.Changes {
			if c.Kind == k {
				b.WriteString(c.Line() + "\n")
			}
		}
	}
	return b.String()
}

// ErrNoFiles is returned for a patch without any file operation.
var ErrNoFiles = errors.New("No files were modified.")

// Apply parses patch and applies its hunks in order against cwd. Files
// the FS refuses to change (see FS.CanReplace and FS.CanRemove) are
// looked for first, so that such a refusal fails the patch before
// anything is written. Past that, hunks are not transactional: when one
// fails, the ones before it stay applied (the returned Result lists them)
// and the rest are skipped. Updates keep a file's byte-order mark and CRLF
// line endings, and always end the file with one line break.
func Apply(patch, cwd string, fsys FS) (*Result, error) {
	hunks, err := Parse(patch)
	if err != nil {
		return &Result{}, err
	}
	return ApplyHunks(hunks, cwd, fsys)
}

// ApplyHunks applies parsed hunks; see Apply.
func ApplyHunks(hunks []Hunk, cwd string, fsys FS) (*Result, error) {
	res := &Result{}
	if len(hunks) == 0 {
		return res, ErrNoFiles
	}
	// A path an earlier hunk changes is checked when its own hunk runs
	// (applyHunk checks again): the state it will have then is unknown.
	touched := map[string]bool{}
	for _, h := range hunks {
		abs, dest := Resolve(h.Path, cwd), ""
		if h.MovePath != "" {
			dest = Resolve(h.MovePath, cwd)
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
		c, err := applyHunk(h, cwd, fsys)
		if err != nil {
			return res, err
		}
		res.Changes = append(res.Changes, c)
	}
	return res, nil
}

// Resolve returns the absolute path a patch's path names: an absolute
// path as it is (cleaned), a relative one joined to cwd.
func Resolve(path, cwd string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(cwd, path)
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

func applyHunk(h Hunk, cwd string, fsys FS) (Change, error) {
	abs := Resolve(h.Path, cwd)
	c := Change{Kind: h.Kind, Path: h.Path, AbsPath: abs}
	dest := ""
	if h.MovePath != "" {
		dest = Resolve(h.MovePath, cwd)
	}
	if err := refusal(h, abs, dest, fsys); err != nil {
		return c, err
	}
	switch h.Kind {
	case AddFile:
		// Add File creates; it never replaces a file that is there (its
		// content would be lost without a diff to show for it). This
		// follows omp, whose apply_patch refuses too, not the Codex
		// applier, which overwrites silently. (A directory in the way is
		// reported by the write.)
		if fi, err := fsys.Stat(abs); err == nil && !fi.IsDir() {
			return c, fmt.Errorf("Failed to add file %s: it already exists, and Add File only creates new files. Change it with *** Update File, or remove it first with *** Delete File if it should be replaced whole", h.Path)
		}
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
		c.OldLines, c.NewLines, c.OldFinal, c.Regions = u.oldLines, u.newLines, u.oldFinal, u.regions
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
	text               string        // the new text: ends with one line break, or is empty
	oldLines, newLines []string      // both texts as lines without terminators
	oldFinal           bool          // the old text ended with a line break
	regions            []diff.Region // what the chunks replaced
}

// updatedText applies an UpdateFile hunk's chunks to "\n"-separated text.
func updatedText(text string, chunks []Chunk, shown string) (update, error) {
	lines := strings.Split(text, "\n")
	oldFinal := lines[len(lines)-1] == "" && len(lines) > 1
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if matchesAsText(chunks) {
		replaced, err := replaceAsText(text, chunks[0], shown)
		if err != nil {
			return update{}, err
		}
		return textUpdate(lines, oldFinal, replaced), nil
	}
	reps, err := replacements(lines, chunks, shown)
	if err != nil {
		return update{}, err
	}
	slices.SortStableFunc(reps, func(a, b replacement) int { return a.start - b.start })
	if len(chunks) > 0 && chunks[0].PatchMode {
		if err := overlapError(reps, shown); err != nil {
			return update{}, err
		}
	}
	// Replacements do not overlap (each search starts after the previous
	// match, and patch mode refuses overlaps above), so one forward pass
	// splices them all.
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
	if len(out) == 0 || out[len(out)-1] != "" {
		out = append(out, "")
	}
	return update{
		text:     strings.Join(out, "\n"),
		oldLines: lines,
		newLines: out[:len(out)-1], // the final "" is the terminator of the last line
		oldFinal: oldFinal,
		regions:  regions,
	}, nil
}

// replacements locates every chunk in file order: a chunk's "@@ TEXT"
// locator is found first and its old lines are searched after it; each
// search starts where the previous chunk ended.
func replacements(lines []string, chunks []Chunk, shown string) ([]replacement, error) {
	var reps []replacement
	cursor := 0
	for _, c := range chunks {
		if c.PatchMode {
			rep, next, err := placePatchChunk(lines, c, cursor, shown)
			if err != nil {
				return nil, err
			}
			if rep != nil {
				reps = append(reps, *rep)
			}
			cursor = next
			continue
		}
		if c.HasContext {
			i := seekSequence(lines, []string{c.Context}, cursor, false)
			if i < 0 {
				return nil, fmt.Errorf("Failed to find context '%s' in %s", c.Context, shown)
			}
			cursor = i + 1
		}
		if len(c.OldLines) == 0 {
			at := endOfText(lines)
			switch {
			case c.LineHint > len(lines)+1:
				return nil, fmt.Errorf("Line hint %d is out of range for insertion in %s (file has %d lines)", c.LineHint, shown, len(lines))
			case c.LineHint > 0:
				at = c.LineHint - 1
			}
			reps = append(reps, replacement{at, 0, c.NewLines})
			continue
		}
		pattern, repl := c.OldLines, c.NewLines
		at := seekSequence(lines, pattern, cursor, c.EndOfFile)
		if at < 0 && pattern[len(pattern)-1] == "" {
			// A trailing empty line often stands for the file's final line
			// break, which the split above removed: retry without it.
			pattern, repl = withoutFinalBlank(pattern, repl)
			at = seekSequence(lines, pattern, cursor, c.EndOfFile)
		}
		if at < 0 {
			return nil, notFoundError(lines, pattern, cursor, c, shown)
		}
		reps = append(reps, replacement{at, len(pattern), repl})
		cursor = at + len(pattern)
	}
	return reps, nil
}

// textUpdate is the update for a text replaced whole (see replaceAsText):
// it ends with one line break, and its region is what lies between the
// lines both texts begin and end with.
func textUpdate(oldLines []string, oldFinal bool, replaced string) update {
	out := strings.Split(replaced, "\n")
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	head := 0
	for head < len(oldLines) && head < len(out) && oldLines[head] == out[head] {
		head++
	}
	tail := 0
	for tail < len(oldLines)-head && tail < len(out)-head && oldLines[len(oldLines)-1-tail] == out[len(out)-1-tail] {
		tail++
	}
	text := ""
	if len(out) > 0 {
		text = strings.Join(out, "\n") + "\n"
	}
	return update{
		text:     text,
		oldLines: oldLines,
		newLines: out,
		oldFinal: oldFinal,
		regions:  []diff.Region{{OldStart: head, OldEnd: len(oldLines) - tail, NewStart: head, NewEnd: len(out) - tail}},
	}
}

// notFoundError is the error for a chunk whose old lines are not in the
// file; in patch mode it adds where they come closest and how similar
// that place is.
func notFoundError(lines, pattern []string, cursor int, c Chunk, shown string) error {
	msg := fmt.Sprintf("Failed to find expected lines in %s:\n%s", shown, strings.Join(c.OldLines, "\n"))
	if c.PatchMode {
		if at, conf, ok := closestSequence(lines, pattern, cursor, c.EndOfFile); ok {
			msg += fmt.Sprintf("\n\nClosest match (%d%% similar) near line %d:\n%s", percent(conf), at+1, preview(lines, at, 2))
		}
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
