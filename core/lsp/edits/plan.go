package edits

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// step is one change of the edit, checked and computed: what Apply will
// do, with what it needs to undo it.
type step struct {
	Change
	index     int    // the change's index (see RefusedError.Change)
	data      []byte // OpEdit, OpCreate: the file's new content
	old       []byte // OpEdit, and OpCreate over a file: its content before
	existed   bool   // OpCreate, OpRename: something was at Path and is replaced
	skip      bool   // nothing to do (ignoreIfExists, ignoreIfNotExists, a move onto itself)
	recursive bool   // OpDelete of a directory: the server allowed a non-empty one
}

// plan is the edit worked out in memory, change by change, before
// anything is written: each change sees the workspace as the changes
// before it leave it (a file created, then edited; a directory moved,
// then a file in it edited).
type plan struct {
	opts  Options
	ws    workspace
	steps []*step
	disk  map[string][]byte // file contents read from disk, by path
}

// node is what is at a path once the planned steps have run.
type node struct {
	exists, dir bool
	content     []byte // the content when a step produced it (loaded true)
	loaded      bool
	disk        string // the path on disk whose file this is before any step; "" for a step's creation
}

// lookup finds what is at p after the planned steps, walking them back
// from the last: the first step that made, moved or removed p (or a
// directory above it) decides; a path no step touched is what the disk
// has, under the name it had before the moves.
func (pl *plan) lookup(p string) node {
	for i := len(pl.steps) - 1; i >= 0; i-- {
		s := pl.steps[i]
		if s.skip {
			continue
		}
		switch s.Op {
		case OpEdit, OpCreate:
			if p == s.Path {
				return node{exists: true, content: s.data, loaded: true}
			}
			if within(p, s.Path) {
				return node{} // below a file
			}
		case OpRename:
			if p == s.Path || within(p, s.Path) {
				p = s.From + p[len(s.Path):]
				continue
			}
			if p == s.From || within(p, s.From) {
				return node{} // moved away
			}
		case OpDelete:
			if p == s.Path || within(p, s.Path) {
				return node{}
			}
		}
	}
	if _, err := os.Lstat(p); err != nil {
		return node{}
	}
	return node{exists: true, dir: isDir(p), disk: p}
}

// content is the current content of a node that is a file.
func (pl *plan) content(ctx context.Context, n node) ([]byte, error) {
	if n.loaded {
		return n.content, nil
	}
	if b, ok := pl.disk[n.disk]; ok {
		return b, nil
	}
	b, err := pl.opts.ReadFile(ctx, n.disk)
	if err != nil {
		return nil, err
	}
	pl.disk[n.disk] = b
	return b, nil
}

// build works out every change of edit in order (Sequence).
func (pl *plan) build(ctx context.Context, edit protocol.WorkspaceEdit) error {
	if len(edit.DocumentChanges) == 0 {
		if err := pl.refuseSharedFile(edit.Changes); err != nil {
			return err
		}
	}
	for i, c := range Sequence(edit) {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch {
		case c.Edit != nil:
			err = pl.addEdit(ctx, i, c.Edit.TextDocument.URI, c.Edit.TextDocument.Version, c.Edit.Edits)
		case c.Create != nil:
			err = pl.addCreate(ctx, i, c.Create)
		case c.Rename != nil:
			err = pl.addRename(i, c.Rename)
		case c.Delete != nil:
			err = pl.addDelete(i, c.Delete)
		default:
			err = refuse(i, ErrInvalid, "change %d is empty (no edit, create, rename or delete)", i+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// refuseSharedFile refuses Changes naming one file under two URIs: both
// lists of edits refer to the file before the edit, so they cannot be
// applied one after the other.
func (pl *plan) refuseSharedFile(changes map[protocol.DocumentURI][]protocol.TextEdit) error {
	seen := map[string]bool{}
	for i, u := range slices.Sorted(maps.Keys(changes)) {
		p, err := u.Path()
		if err != nil {
			continue // refused as not a file by addEdit
		}
		if seen[p] {
			return refuse(i, ErrInvalid, "%s is named twice in the edit (as %q and another URI); ask the server again", pl.opts.Display(p), string(u))
		}
		seen[p] = true
	}
	return nil
}

// addEdit plans the text edits of one document.
func (pl *plan) addEdit(ctx context.Context, i int, u protocol.DocumentURI, version *int, edits []protocol.TextEdit) error {
	p, err := pl.path(i, u)
	if err != nil {
		return err
	}
	show := pl.opts.Display(p)
	n := pl.lookup(p)
	switch {
	case !n.exists:
		return refuse(i, ErrInvalid, "%s does not exist; the server edits a file that is not there", show)
	case n.dir:
		return refuse(i, ErrInvalid, "%s is a directory; the server sent text edits for it", show)
	}
	if n.disk != "" {
		if err := pl.checkDiskFile(i, n.disk, show); err != nil {
			return err
		}
	}
	old, err := pl.content(ctx, n)
	if err != nil {
		return refuse(i, ErrInvalid, "cannot read %s: %v", show, err)
	}
	if n.disk != "" {
		if err := pl.checkFresh(i, p, n.disk, show, version, old); err != nil {
			return err
		}
	}
	data, err := ApplyText(old, edits)
	if err != nil {
		return refuse(i, ErrInvalid, "%s: %v; ask the server again", show, err)
	}
	pl.steps = append(pl.steps, &step{Change: Change{Op: OpEdit, Path: p, Edits: len(edits)}, index: i, data: data, old: old})
	return nil
}

// checkDiskFile refuses a file on disk that is written through a link
// leading out of the workspace, or that the write policy protects
// (read-only, hard-linked).
func (pl *plan) checkDiskFile(i int, disk, show string) error {
	if !pl.ws.inside(disk, true) {
		return refuse(i, ErrOutsideWorkspace, "%s leads outside the workspace (%s) through a symbolic link", show, pl.ws.rootList())
	}
	if err := atomicfile.Writable(disk, show); err != nil {
		return refuse(i, ErrInvalid, "%v", err)
	}
	return nil
}

// checkFresh refuses a document whose version or content is not the one
// the client last sent the server.
func (pl *plan) checkFresh(i int, p, disk, show string, version *int, content []byte) error {
	doc, ok := pl.opts.Documents(disk)
	if !ok {
		return nil
	}
	if version != nil && p == disk && *version != doc.Version {
		return refuse(i, ErrStale, "%s changed since the server computed the edit (the edit is for version %d, the server was last sent version %d); run the request again",
			show, *version, doc.Version)
	}
	if doc.Hash != (Hash{}) && HashText(content) != doc.Hash {
		return refuse(i, ErrStale, "%s changed on disk since it was last sent to the language server; run the request again so the server sees the current content", show)
	}
	return nil
}

// addCreate plans a file creation.
func (pl *plan) addCreate(ctx context.Context, i int, c *protocol.CreateFile) error {
	p, err := pl.path(i, c.URI)
	if err != nil {
		return err
	}
	show := pl.opts.Display(p)
	o := fileOptions(c.Options)
	s := &step{Change: Change{Op: OpCreate, Path: p}, index: i, data: []byte{}}
	if n := pl.lookup(p); n.exists {
		switch {
		case n.dir:
			return refuse(i, ErrInvalid, "%s is a directory; the server asks to create a file there", show)
		case o.Overwrite:
			if n.disk != "" {
				if err := pl.checkDiskFile(i, n.disk, show); err != nil {
					return err
				}
			}
			old, err := pl.content(ctx, n)
			if err != nil {
				return refuse(i, ErrInvalid, "cannot read %s before replacing it: %v", show, err)
			}
			s.old, s.existed = old, true
		case o.IgnoreIfExists:
			s.skip = true
		default:
			return refuse(i, ErrInvalid, "%s already exists and the server did not ask to overwrite it", show)
		}
	}
	pl.steps = append(pl.steps, s)
	return nil
}

// addRename plans a move of a file or directory.
func (pl *plan) addRename(i int, r *protocol.RenameFile) error {
	from, err := pl.path(i, r.OldURI)
	if err != nil {
		return err
	}
	to, err := pl.path(i, r.NewURI)
	if err != nil {
		return err
	}
	o := fileOptions(r.Options)
	s := &step{Change: Change{Op: OpRename, Path: to, From: from}, index: i}
	src := pl.lookup(from)
	switch {
	case !src.exists:
		return refuse(i, ErrInvalid, "%s does not exist; the server asks to move it to %s", pl.opts.Display(from), pl.opts.Display(to))
	case from == to:
		s.skip = true
	case within(to, from):
		return refuse(i, ErrInvalid, "%s cannot move into itself (%s)", pl.opts.Display(from), pl.opts.Display(to))
	}
	s.Dir = src.dir
	if dst := pl.lookup(to); dst.exists && !s.skip {
		switch {
		case o.Overwrite:
			s.existed = true
		case o.IgnoreIfExists:
			s.skip = true
		default:
			return refuse(i, ErrInvalid, "%s already exists and the server did not ask to overwrite it with %s", pl.opts.Display(to), pl.opts.Display(from))
		}
	}
	pl.steps = append(pl.steps, s)
	return nil
}

// addDelete plans a deletion.
func (pl *plan) addDelete(i int, d *protocol.DeleteFile) error {
	p, err := pl.path(i, d.URI)
	if err != nil {
		return err
	}
	show := pl.opts.Display(p)
	var o protocol.DeleteOptions
	if d.Options != nil {
		o = *d.Options
	}
	s := &step{Change: Change{Op: OpDelete, Path: p}, index: i, recursive: o.Recursive}
	n := pl.lookup(p)
	switch {
	case !n.exists && o.IgnoreIfNotExists:
		s.skip = true
	case !n.exists:
		return refuse(i, ErrInvalid, "%s does not exist; the server asks to delete it", show)
	case n.dir && !o.Recursive && n.disk != "" && !emptyDir(n.disk):
		return refuse(i, ErrInvalid, "%s is a directory that is not empty and the server did not ask for a recursive delete", show)
	case !n.dir && n.disk != "":
		var ro *atomicfile.ReadOnlyError
		if err := atomicfile.Writable(n.disk, show); errors.As(err, &ro) && !isLink(n.disk) {
			return refuse(i, ErrInvalid, "%v", err)
		}
	}
	s.Dir = n.dir
	pl.steps = append(pl.steps, s)
	return nil
}

// path is the file a URI of change i names.
func (pl *plan) path(i int, u protocol.DocumentURI) (string, error) {
	p, err := u.Path()
	if err != nil {
		return "", refuse(i, ErrInvalid, "change %d names %q, which is not a local file", i+1, string(u))
	}
	return p, nil
}

func fileOptions(o *protocol.FileOptions) protocol.FileOptions {
	if o == nil {
		return protocol.FileOptions{}
	}
	return *o
}

func emptyDir(p string) bool {
	entries, err := os.ReadDir(p)
	return err == nil && len(entries) == 0
}

func isLink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}
