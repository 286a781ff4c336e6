package edit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/hashedit"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
	"github.com/gopi-agent/gopi/core/tools/generated"
	"github.com/gopi-agent/gopi/core/tools/notebook"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// newFilePerm is the mode of a file an edit creates.
const newFilePerm = 0o644

// fileCtx is the context of the edit tool's reads and writes through the
// session's tool.Files. An edit is not abortable midway (the loop runs it
// without cancellation, see Definition's NonAbortable), so there is no
// call context to honour; a Files implementation bounds its own waits.
var fileCtx = context.Background()

// loaded is a file read for editing.
type loaded struct {
	abs    string        // absolute path
	shown  string        // the path as the model named it
	exists bool          // false: the file is to be created
	doc    textfile.Doc  // its text, normalised to "\n" line breaks; a notebook's text view
	nb     *notebook.Doc // a notebook (.ipynb) that exists: its cells, written back by encode
}

// load reads a file for editing. A missing file is not an error (it may be
// created); a directory or a binary file is.
func (t *Tool) load(abs, shown string) (loaded, error) {
	f := loaded{abs: abs, shown: shown}
	if err := t.refusePath(shown); err != nil {
		return f, err
	}
	t.read.note(abs)
	raw, err := t.env.ReadFile(fileCtx, abs)
	var notRegular *atomicfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case errors.As(err, &notRegular):
		notRegular.Path = shown
		return f, notRegular
	case err != nil:
		if fi, serr := os.Stat(abs); serr == nil && fi.IsDir() {
			return f, fmt.Errorf("%s is a directory; edit works on files.", shown)
		}
		return f, fmt.Errorf("cannot read %s: %w", shown, err)
	}
	if bytes.IndexByte(raw, 0) >= 0 {
		return f, fmt.Errorf("%s looks like a binary file (it contains NUL bytes); edit works on text files.", shown)
	}
	// A file that cannot be replaced (read-only, hard-linked) is refused
	// before the edit is computed, naming it as the model did.
	if err := atomicfile.Writable(abs, shown); err != nil {
		return f, err
	}
	if err := t.refuseGenerated(abs, shown, raw); err != nil {
		return f, err
	}
	if isNotebook(abs) {
		nb, err := parseNotebook(raw, shown)
		if err != nil {
			return f, err
		}
		f.exists, f.nb, f.doc = true, nb, textfile.Doc{Text: nb.Text()}
		return f, nil
	}
	f.exists, f.doc = true, textfile.Decode(raw)
	return f, nil
}

// lock takes the locks that serialise this edit's read-modify-write of
// the files at abs with every other writer, in this process or another
// (see atomicfile.LockAll): the files are read after it and written
// before the returned unlock.
func lock(abs ...string) (unlock func(), err error) {
	unlock, err = atomicfile.LockAll(abs...)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the files to edit: %w", err)
	}
	return unlock, nil
}

// settle returns the bytes of f with text as its new content — the text
// in the file's encoding, or for a notebook the file with its cells
// changed as the edited text view says (see notebook.Doc.Apply) — and the
// text the file then reads as: text itself, or for a notebook the view of
// the notebook written (new cells numbered, later ones renumbered), so
// that a result's preview and diff show the anchors read will show.
func (f loaded) settle(text string) (data []byte, settled string, err error) {
	switch {
	case f.nb != nil:
		return applyNotebook(f.nb, text, f.shown)
	case isNotebook(f.abs):
		return applyNotebook(notebook.Empty(), text, f.shown)
	}
	return f.doc.Encode(text), text, nil
}

// commit writes a file's new bytes and the text they read as (from
// settle) atomically and keeping its mode, creating its directory when
// missing; the write invalidates the scan cache and records the new text
// in the read cache.
func (t *Tool) commit(f loaded, data []byte, settled string) error {
	if err := t.writeView(f.abs, data, "", settled); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot write %s: %w", f.shown, err)
		}
		if err := t.MkdirAll(filepath.Dir(f.abs)); err != nil {
			return fmt.Errorf("cannot create the directory of %s: %w", f.shown, err)
		}
		if err := t.writeView(f.abs, data, "", settled); err != nil {
			return fmt.Errorf("cannot write %s: %w", f.shown, err)
		}
	}
	return nil
}

// snapshot returns what the session last saw of a file, for recovery.
func (t *Tool) snapshot(abs string) (hashedit.Snapshot, bool) {
	if t.env.ReadCache == nil {
		return hashedit.Snapshot{}, false
	}
	s, ok := t.env.ReadCache.Get(abs)
	if !ok {
		return hashedit.Snapshot{}, false
	}
	lines := make(map[int]string, len(s.Lines))
	for n, l := range s.Lines {
		lines[n] = strings.TrimSuffix(l, "\r")
	}
	return hashedit.Snapshot{Lines: lines, TotalLines: s.TotalLines}, true
}

// The methods below are the applypatch.FS the apply_patch mode runs on;
// the other modes write through them too, so every write has the same
// side effects.

// Abs resolves a path as the model wrote it, as every mode does (see
// tool.Env.Resolve): relative to the working directory, "~" the home
// directory, local:// the session's scratch directory, and while plan
// mode is on a bare plan file name the plan file.
func (t *Tool) Abs(path string) string { return t.env.Resolve(path) }

// ReadFile reads a whole file; a notebook reads as its text view.
func (t *Tool) ReadFile(abs string) ([]byte, error) {
	t.read.note(abs)
	raw, err := t.env.ReadFile(fileCtx, abs)
	if err != nil || !isNotebook(abs) {
		return raw, err
	}
	nb, err := parseNotebook(raw, t.env.DisplayPath(abs))
	if err != nil {
		return nil, err
	}
	return []byte(nb.Text()), nil
}

// WriteFile replaces a file through the session's tool.Files when it has
// one, else atomically with internal/atomicfile (through symbolic links,
// keeping mode and owner, refusing read-only and hard-linked files),
// invalidates the scan cache and records the new text in the read cache.
// It fails with an fs.ErrNotExist error when the parent directory is
// missing. For a notebook, data is its text view: the cells of the file
// there (or of a new notebook) change as it says.
func (t *Tool) WriteFile(abs string, data []byte) error {
	data, err := t.notebookBytes(abs, abs, data)
	if err != nil {
		return err
	}
	return t.write(abs, data, "")
}

// WriteMoved is WriteFile for the content of the file at from moving to
// abs: the file written takes from's mode, and on the local disk its
// owner, group and extended attributes too, also when it replaces a file
// that is there. Through a session's tool.Files only the mode of a new
// file can be chosen. A notebook moved to a notebook keeps from's cells
// (outputs, metadata) under the edited text view.
func (t *Tool) WriteMoved(abs, from string, data []byte) error {
	base := abs
	if isNotebook(from) {
		base = from
	}
	data, err := t.notebookBytes(abs, base, data)
	if err != nil {
		return err
	}
	return t.write(abs, data, from)
}

// notebookBytes turns the text view data of a notebook to be written at
// abs into the notebook's bytes, with the cells of the notebook at base
// (a new notebook when there is none). Other files' data is returned as
// it is.
func (t *Tool) notebookBytes(abs, base string, data []byte) ([]byte, error) {
	if !isNotebook(abs) {
		return data, nil
	}
	shown := t.env.DisplayPath(abs)
	nb := notebook.Empty()
	if raw, err := t.env.ReadFile(fileCtx, base); err == nil && isNotebook(base) {
		if nb, err = parseNotebook(raw, t.env.DisplayPath(base)); err != nil {
			return nil, err
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %w", t.env.DisplayPath(base), err)
	}
	out, _, err := applyNotebook(nb, string(data), shown)
	return out, err
}

// write is WriteFile, and WriteMoved when from is not "".
func (t *Tool) write(abs string, data []byte, from string) error {
	view := ""
	if isNotebook(abs) {
		view, _ = notebook.Text(data)
	}
	return t.writeView(abs, data, from, view)
}

// writeView is write for data whose text view, when abs is a notebook, is
// known to be view (the read cache records the view).
func (t *Tool) writeView(abs string, data []byte, from, view string) error {
	if from != "" {
		if err := t.env.CheckPlanRename(); err != nil {
			return err
		}
	}
	if err := t.env.CheckPlanWrite(abs); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Dir(abs)); err != nil {
		return err
	}
	// A symbolic link is written through: its target is what changes.
	target, err := atomicfile.Resolve(abs)
	if err != nil {
		return err
	}
	if err := atomicfile.Writable(target, t.env.DisplayPath(abs)); err != nil {
		return err
	}
	if err := t.read.check(abs, t.env.DisplayPath(abs)); err != nil {
		return err
	}
	t.diag.begin(abs)
	switch {
	case from == "":
		err = t.env.WriteFile(fileCtx, target, data, newFilePerm)
	case t.env.Files != nil:
		perm := fs.FileMode(newFilePerm)
		if fi, serr := os.Stat(from); serr == nil {
			perm = fi.Mode().Perm()
		}
		err = t.env.WriteFile(fileCtx, target, data, perm)
	default:
		err = atomicfile.WriteFileLike(target, data, from)
	}
	if err != nil {
		return err
	}
	t.read.wrote(abs)
	t.env.Caches.Invalidate(abs)
	if target != abs {
		t.env.Caches.Invalidate(target)
	}
	if t.env.ReadCache != nil {
		// The session reads and edits a notebook as its text view.
		text := view
		if !isNotebook(abs) {
			text = textfile.Decode(data).Text
		}
		lines := tool.SplitDisplayLines(text) // as read shows it
		t.env.ReadCache.Forget(abs)
		t.env.ReadCache.RecordContiguous(abs, 1, lines, len(lines))
	}
	return nil
}

// MkdirAll creates a directory and its parents.
func (t *Tool) MkdirAll(abs string) error {
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	t.env.Caches.Invalidate(abs)
	return nil
}

// Remove deletes a file and forgets it in the caches.
func (t *Tool) Remove(abs string) error {
	if err := t.env.CheckPlanDelete(); err != nil {
		return err
	}
	if err := os.Remove(abs); err != nil {
		return err
	}
	t.env.Caches.Invalidate(abs)
	if t.env.ReadCache != nil {
		t.env.ReadCache.Forget(abs)
	}
	return nil
}

// CanReplace refuses a file that must not be given new content by policy
// (see atomicfile.Writable): a read-only file, one with other hard
// links, one that is not regular (a named pipe, a device) or a kernel
// file (/proc, /sys). Anything else, a missing file included, is left to the
// operation to report.
func (t *Tool) CanReplace(abs string) error {
	err := atomicfile.Writable(abs, t.env.DisplayPath(abs))
	var ro *atomicfile.ReadOnlyError
	var hl *atomicfile.HardLinkError
	var nr *atomicfile.NotRegularError
	var kf *atomicfile.KernelFileError
	if errors.As(err, &ro) || errors.As(err, &hl) || errors.As(err, &nr) || errors.As(err, &kf) {
		return err
	}
	return t.refuseGeneratedFile(abs)
}

// CanRemove refuses to delete a read-only file, as rm asks before it does.
// A file with other hard links may go: its other names keep the content,
// as they would after rm, so nothing is left inconsistent. A symbolic link
// is removed itself, whatever it points to, so it is not refused.
func (t *Tool) CanRemove(abs string) error {
	if fi, err := os.Lstat(abs); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return nil
	}
	err := atomicfile.Writable(abs, t.env.DisplayPath(abs))
	var ro *atomicfile.ReadOnlyError
	if errors.As(err, &ro) {
		return err
	}
	return t.refuseGeneratedFile(abs)
}

// refuseGenerated refuses to change the file at abs, whose content starts
// with head, when it looks written by a code generator and
// edit.blockAutoGenerated is on (see package generated).
func (t *Tool) refuseGenerated(abs, shown string, head []byte) error {
	if !t.env.Settings.BlockAutoGenerated {
		return nil
	}
	return generated.Check(abs, shown, head)
}

// refuseGeneratedFile is refuseGenerated reading the file's start itself;
// a file that cannot be read is left to the operation to report.
func (t *Tool) refuseGeneratedFile(abs string) error {
	if !t.env.Settings.BlockAutoGenerated {
		return nil
	}
	var ge *generated.Error
	if err := generated.CheckFile(abs, t.env.DisplayPath(abs)); errors.As(err, &ge) {
		return err
	}
	return nil
}

// Stat describes a file.
func (t *Tool) Stat(abs string) (fs.FileInfo, error) { return os.Stat(abs) }

// refusePath rejects a path edit cannot take: a local:// URL the session
// cannot serve (see tool.Env.CheckLocal), or a URL of a scheme the
// embedding host owns (edit works on files; the host's content is
// replaced whole with write).
func (t *Tool) refusePath(path string) error {
	if err := t.env.CheckLocal(strings.TrimSpace(path)); err != nil {
		return err
	}
	if scheme, _, ok := t.env.HostURI(strings.TrimSpace(path)); ok {
		return fmt.Errorf("Cannot edit %s: %s:// URLs belong to the host and cannot be edited; read it, then replace its whole content with the write tool.", path, scheme.Scheme)
	}
	return nil
}
