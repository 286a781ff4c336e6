package edits

import (
	"context"
	"fmt"
	"os"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Apply makes the changes of a server's WorkspaceEdit, all or none.
//
// First, without writing anything, it checks every path against the
// workspace roots, locks the files to be edited (the lock the file tools
// take), and works every change out in memory in order: text edits
// applied to the content each file will have by then (ApplyText),
// creations, moves and deletions with their options. Anything wrong
// refuses the whole edit with a *RefusedError: a path outside the roots
// (symbolic links resolved), a root deleted or moved, a file changed since
// the server computed the edit (a TextDocumentEdit's version other than
// the one sent, or content whose hash differs from the one sent; see
// Options.Documents), overlapping or out-of-range text edits, a missing
// file, an existing destination without overwrite, a read-only or
// hard-linked file, a non-empty directory deleted without recursive.
//
// Then it writes, in order: edited and created files through
// Options.WriteFile (a file keeps its mode and owner), moves with rename,
// and deletions by moving the path aside to a hidden ".gopi-trash-*" name
// beside it, removed once every change is made. If a step fails, the
// steps already made are undone (old contents written back, moves
// reversed, deleted paths moved back) and the error is a *WriteError
// saying so. Last, Options.Written and Options.Removed hear about every
// path changed.
func Apply(ctx context.Context, edit protocol.WorkspaceEdit, opts Options) (Result, error) {
	opts = opts.withDefaults()
	pl := &plan{opts: opts, ws: newWorkspace(opts.Roots), disk: map[string][]byte{}}
	targets, err := pl.checkPaths(edit)
	if err != nil {
		return Result{}, err
	}
	unlock, err := atomicfile.LockAll(targets...)
	if err != nil {
		return Result{}, fmt.Errorf("Cannot apply the language server's edit: cannot lock the files it changes: %w; nothing was changed", err)
	}
	defer unlock()
	if err := pl.build(ctx, edit); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return pl.run(ctx)
}

// checkPaths refuses a change whose URI is not a file or whose path lies
// outside the roots, or that deletes or moves a root, before anything is
// read; it returns the existing files the text edits name, to lock.
func (pl *plan) checkPaths(edit protocol.WorkspaceEdit) ([]string, error) {
	var targets []string
	outside := func(i int, p string) error {
		return refuse(i, ErrOutsideWorkspace, "%s is outside the workspace (%s); gopi applies server edits only inside it",
			pl.opts.Display(p), pl.ws.rootList())
	}
	check := func(i int, u protocol.DocumentURI, follow, edited bool) error {
		p, err := pl.path(i, u)
		if err != nil {
			return err
		}
		if !pl.ws.inside(p, follow) {
			return outside(i, p)
		}
		if !follow && pl.ws.holdsRoot(p) {
			return refuse(i, ErrInvalid, "%s is a workspace root or holds one; the server asks to move or delete it", pl.opts.Display(p))
		}
		if fi, err := os.Stat(p); edited && err == nil && fi.Mode().IsRegular() {
			targets = append(targets, p)
		}
		return nil
	}
	for i, c := range Sequence(edit) {
		var err error
		switch {
		case c.Edit != nil:
			err = check(i, c.Edit.TextDocument.URI, true, true)
		case c.Create != nil:
			err = check(i, c.Create.URI, true, false)
		case c.Rename != nil:
			if err = check(i, c.Rename.OldURI, false, false); err == nil {
				err = check(i, c.Rename.NewURI, false, false)
			}
		case c.Delete != nil:
			err = check(i, c.Delete.URI, false, false)
		}
		if err != nil {
			return nil, err
		}
	}
	return targets, nil
}
