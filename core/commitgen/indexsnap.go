package commitgen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// IndexSnapshot is the repository's index file as it was at one moment,
// with the commit HEAD named then, so that a run that staged files on its
// own (StageAll) can put the index back exactly when it commits nothing.
type IndexSnapshot struct {
	repo    *Repo
	path    string // the index file (GIT_INDEX_FILE honoured)
	data    []byte // its bytes
	existed bool   // false: there was no index file
	head    string // HEAD's commit then ("" in a repository without one)
}

// SaveIndex takes a snapshot of the index.
func (r *Repo) SaveIndex(ctx context.Context) (*IndexSnapshot, error) {
	out, err := r.git(ctx, gitTimeout, "", "rev-parse", "--git-path", "index")
	if err != nil {
		return nil, err
	}
	s := &IndexSnapshot{repo: r, path: strings.TrimSpace(out), head: r.headCommit(ctx)}
	if !filepath.IsAbs(s.path) {
		s.path = filepath.Join(r.Dir, s.path)
	}
	s.data, err = os.ReadFile(s.path)
	switch {
	case err == nil:
		s.existed = true
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cannot read the git index %s: %w", s.path, err)
	}
	return s, nil
}

// headCommit returns HEAD's commit, or "" when there is none.
func (r *Repo) headCommit(ctx context.Context) string {
	out, err := r.git(ctx, gitTimeout, "", "rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// Restore puts the index back as it was when the snapshot was taken,
// unless a commit was made since (then the index belongs to the new HEAD
// and is left alone; restored reports false). It takes git's index.lock
// as git does, so it never writes under a running git command.
func (s *IndexSnapshot) Restore(ctx context.Context) (restored bool, err error) {
	ctx = context.WithoutCancel(ctx) // an interrupted run still puts the index back
	if s.repo.headCommit(ctx) != s.head {
		return false, nil
	}
	lock := s.path + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false, fmt.Errorf("cannot put the git index back (%w); if no git command runs, remove %s and run git reset", err, lock)
	}
	if !s.existed {
		f.Close()
		os.Remove(lock)
		if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("cannot put the git index back: %w; run git reset", err)
		}
		return true, nil
	}
	_, err = f.Write(s.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(lock, s.path)
	}
	if err != nil {
		os.Remove(lock)
		return false, fmt.Errorf("cannot put the git index back: %w; run git reset to unstage", err)
	}
	return true, nil
}
