package edits

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// newFilePerm is the mode of a file an edit creates.
const newFilePerm = 0o644

// trashPrefix names what a deletion or an overwriting move set aside
// until the whole edit is made.
const trashPrefix = ".gopi-trash-"

// undo reverses one step already made.
type undo struct {
	what string // the path, for a message
	fn   func(ctx context.Context) error
}

// runner makes the steps of a plan, keeping what undoes them.
type runner struct {
	pl    *plan
	undos []undo
	trash map[string]string // path set aside → the path it was
}

// run makes the planned steps in order; on a failure it undoes the steps
// made and returns a *WriteError.
func (pl *plan) run(ctx context.Context) (Result, error) {
	r := &runner{pl: pl, trash: map[string]string{}}
	var res Result
	for _, s := range pl.steps {
		if s.skip {
			continue
		}
		if err := r.do(ctx, s); err != nil {
			return Result{}, r.rollback(ctx, s, err)
		}
		res.Changes = append(res.Changes, s.Change)
	}
	r.notify()
	r.emptyTrash()
	return res, nil
}

// do makes one step.
func (r *runner) do(ctx context.Context, s *step) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	switch s.Op {
	case OpEdit:
		return r.write(ctx, s.Path, s.data, s.old)
	case OpCreate:
		if s.existed {
			return r.write(ctx, s.Path, s.data, s.old)
		}
		if err := r.mkdirs(filepath.Dir(s.Path)); err != nil {
			return err
		}
		if err := r.pl.opts.WriteFile(ctx, s.Path, s.data, newFilePerm); err != nil {
			return fmt.Errorf("cannot create %s: %w", r.pl.opts.Display(s.Path), err)
		}
		r.push(s.Path, func(context.Context) error { return os.Remove(s.Path) })
		return nil
	case OpRename:
		if s.existed {
			if err := r.setAside(s.Path); err != nil {
				return err
			}
		}
		if err := r.mkdirs(filepath.Dir(s.Path)); err != nil {
			return err
		}
		if err := os.Rename(s.From, s.Path); err != nil {
			return fmt.Errorf("cannot move %s to %s: %w", r.pl.opts.Display(s.From), r.pl.opts.Display(s.Path), err)
		}
		r.push(s.From, func(context.Context) error { return os.Rename(s.Path, s.From) })
		return nil
	case OpDelete:
		return r.setAside(s.Path)
	}
	return nil
}

// write replaces a file's content, old being what is there.
func (r *runner) write(ctx context.Context, p string, data, old []byte) error {
	if bytes.Equal(data, old) {
		return nil
	}
	if err := r.pl.opts.WriteFile(ctx, p, data, newFilePerm); err != nil {
		return fmt.Errorf("cannot write %s: %w", r.pl.opts.Display(p), err)
	}
	r.push(p, func(ctx context.Context) error { return r.pl.opts.WriteFile(ctx, p, old, newFilePerm) })
	return nil
}

// setAside moves p to a hidden name beside it, as a deletion that can be
// undone until emptyTrash.
func (r *runner) setAside(p string) error {
	var b [6]byte
	_, _ = rand.Read(b[:])
	aside := filepath.Join(filepath.Dir(p), fmt.Sprintf("%s%d-%s", trashPrefix, os.Getpid(), hex.EncodeToString(b[:])))
	if err := os.Rename(p, aside); err != nil {
		return fmt.Errorf("cannot delete %s: %w", r.pl.opts.Display(p), err)
	}
	r.trash[aside] = p
	r.push(p, func(context.Context) error {
		delete(r.trash, aside)
		return os.Rename(aside, p)
	})
	return nil
}

// mkdirs creates dir and its missing parents, to be removed on undo.
func (r *runner) mkdirs(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	if len(missing) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create the directory %s: %w", r.pl.opts.Display(dir), err)
	}
	for i := len(missing) - 1; i >= 0; i-- { // undone deepest first
		d := missing[i]
		r.push(d, func(context.Context) error { return os.Remove(d) })
	}
	return nil
}

func (r *runner) push(what string, fn func(ctx context.Context) error) {
	r.undos = append(r.undos, undo{what: what, fn: fn})
}

// rollback undoes the steps made, newest first, after failed failed with
// err. Undoing does not stop at the caller's cancellation: leaving the
// workspace half-changed is worse than finishing the undo.
func (r *runner) rollback(ctx context.Context, failed *step, err error) error {
	ctx = context.WithoutCancel(ctx)
	we := &WriteError{Change: failed.index, Err: err, Restored: r.stepsMade(failed)}
	for i := len(r.undos) - 1; i >= 0; i-- {
		u := r.undos[i]
		if uerr := u.fn(ctx); uerr != nil && !errors.Is(uerr, fs.ErrNotExist) {
			we.Unrestored = append(we.Unrestored, fmt.Sprintf("%s: %v", r.pl.opts.Display(u.what), uerr))
		}
	}
	// What was undone is as it was, but caches may have looked at the
	// files meanwhile: let the caller forget them all.
	for _, s := range r.pl.steps {
		r.pl.opts.Removed(s.Path)
		if s.From != "" {
			r.pl.opts.Removed(s.From)
		}
		if s == failed {
			break
		}
	}
	return we
}

// stepsMade counts the steps made before failed.
func (r *runner) stepsMade(failed *step) int {
	n := 0
	for _, s := range r.pl.steps {
		if s == failed {
			break
		}
		if !s.skip {
			n++
		}
	}
	return n
}

// emptyTrash removes what deletions and overwriting moves set aside,
// telling Removed about each file in it under its old name (after notify:
// forgetting a path a later step wrote again is harmless, remembering a
// deleted one is not).
func (r *runner) emptyTrash() {
	for aside, p := range r.trash {
		forEachFile(aside, func(f string) { r.pl.opts.Removed(p + strings.TrimPrefix(f, aside)) })
		_ = os.RemoveAll(aside)
	}
}

// notify tells the caller about every path the steps changed, in order.
func (r *runner) notify() {
	o := r.pl.opts
	for _, s := range r.pl.steps {
		if s.skip {
			continue
		}
		switch s.Op {
		case OpEdit, OpCreate:
			o.Written(s.Path, s.data)
		case OpRename:
			if s.Dir {
				forEachFile(s.Path, func(f string) { o.Removed(s.From + strings.TrimPrefix(f, s.Path)) })
			}
			o.Removed(s.From)
			o.Removed(s.Path)
		case OpDelete:
			o.Removed(s.Path)
		}
	}
}

// forEachFile calls fn for every file below dir (dir itself when it is a
// file); errors end the walk quietly, it serves only cache upkeep.
func forEachFile(dir string, fn func(string)) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			fn(p)
		}
		return nil
	})
}
