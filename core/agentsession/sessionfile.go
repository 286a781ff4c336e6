package agentsession

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Operations on the session file as a whole: /fork copies it and goes on
// in the copy, /drop deletes it and starts a new one, /move takes it to
// another working directory. Each takes the turn (ErrWorking while a run
// streams).

// ErrNotSaved is returned by Fork and Drop for a session kept in memory
// (--no-session): there is no file to work on. (Move of such a session
// changes only its working directory.)
var ErrNotSaved = errors.New("the session is not saved (--no-session): there is no file to fork or drop")

// Fork copies the whole session into a new file (every entry, the name
// kept, the current session as its parentSession; the artifacts copied)
// and continues there; the old file stays as it was. A
// session_before_switch hook (reason "fork") may cancel it: cancelled says
// so. It returns the new file.
func (t *Tree) Fork(ctx context.Context) (file string, cancelled bool, err error) {
	s := t.host
	if err := t.turn.take(ctx); err != nil {
		return "", false, err
	}
	defer t.turn.release()
	cur := s.Store()
	prev := cur.File()
	if prev == "" {
		return "", false, ErrNotSaved
	}
	if s.beforeSwitchHooks(ctx, &agent.BeforeSwitchEvent{Reason: agent.SwitchFork}) {
		return "", true, nil
	}
	if err := cur.Flush(); err != nil {
		return "", false, err
	}
	next, err := cur.Fork("", StoreOptions(t.cfg, cur.Header().Cwd, t.sessionDir))
	if err != nil {
		return "", false, err
	}
	// A copy of the artifacts is a convenience: the fork works without it.
	_ = copyDir(strings.TrimSuffix(prev, ".jsonl"), strings.TrimSuffix(next.File(), ".jsonl"))
	if err := s.replaceStore(next, true); err != nil {
		return "", false, err
	}
	s.switchHooks(ctx, &agent.SwitchEvent{Reason: agent.SwitchFork, PreviousSessionFile: prev})
	return next.File(), false, nil
}

// Drop deletes the session file (with its artifacts) and starts a new,
// empty session, as New does; the deletion follows the switch, so a
// cancelled or failed switch deletes nothing.
func (t *Tree) Drop(ctx context.Context) (cancelled bool, err error) {
	prev := t.host.Store().File()
	if prev == "" {
		return false, ErrNotSaved
	}
	cancelled, err = t.New(ctx, "")
	if cancelled || err != nil {
		return cancelled, err
	}
	if err := os.Remove(prev); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("drop session: the new session started, but %s could not be deleted: %w", prev, err)
	}
	if err := os.RemoveAll(strings.TrimSuffix(prev, ".jsonl")); err != nil {
		return false, fmt.Errorf("drop session: the new session started, but its artifacts could not be deleted: %w", err)
	}
	return false, nil
}

// Move makes dir the session's working directory (/move): the session file
// moves to that directory's session folder (staying where it is under
// --session-dir), its header records the new cwd, and the tools and the
// system prompt work in dir from the next turn on. dir is resolved
// against the current working directory and must be a directory. It
// returns the absolute dir.
func (t *Tree) Move(ctx context.Context, dir string) (string, error) {
	s := t.host
	dir = strings.TrimSpace(dir)
	if len(dir) >= 2 && dir[0] == '"' && dir[len(dir)-1] == '"' {
		dir = dir[1 : len(dir)-1]
	}
	if dir == "" {
		return "", errors.New("Usage: /move <path>")
	}
	if strings.HasPrefix(dir, "~/") || dir == "~" {
		dir = filepath.Join(t.cfg.Home, strings.TrimPrefix(dir, "~"))
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(t.cwd, dir)
	}
	dir = filepath.Clean(dir)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return "", fmt.Errorf("Directory does not exist: %s", dir)
	case !fi.IsDir():
		return "", fmt.Errorf("Not a directory: %s", dir)
	}
	if err := t.turn.take(ctx); err != nil {
		return "", err
	}
	defer t.turn.release()
	if err := s.moveStore(dir, Locations(t.cfg, t.sessionDir)); err != nil {
		return "", err
	}
	t.cwd = dir
	return dir, nil
}

// moveStore moves the store to the working directory dir (see Tree.Move):
// the run lock follows the file, the artifacts store is the moved one,
// and the tools are rebuilt for dir.
func (s *Session) moveStore(dir string, locs session.Locations) error {
	store := s.Store()
	target := locs.NewSessionDir(dir)
	if store.File() != "" && locs.SessionDir != "" {
		target = filepath.Dir(store.File())
	}
	var lock *session.RunLock
	if f := store.File(); f != "" && target != filepath.Dir(f) {
		l, err := session.LockRun(filepath.Join(target, filepath.Base(f)))
		if err != nil && os.MkdirAll(target, 0o700) == nil {
			l, err = session.LockRun(filepath.Join(target, filepath.Base(f)))
		}
		if err != nil {
			return err
		}
		lock = l
	}
	if err := store.MoveTo(target, dir); err != nil {
		lock.Release()
		return err
	}
	if lock != nil {
		s.mu.Lock()
		old := s.runLock
		s.runLock = lock
		s.mu.Unlock()
		old.Release()
	}
	s.opts.Cwd = dir
	s.toolEnv.Cwd = dir
	s.toolEnv.Artifacts = store.Artifacts()
	s.agent.SetArtifacts(s.toolEnv.Artifacts)
	return s.tools.rebuild()
}

// copyDir copies the regular files of src (recursively) into dst; a
// missing src copies nothing.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && p == src {
				return filepath.SkipAll
			}
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return atomicfile.WriteFileLike(out, data, p)
	})
}
