package index

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// ErrWatched: another watcher already keeps this index fresh.
var ErrWatched = errors.New("another gopi already watches this tree")

// watchQuiet is how long a watcher lets changes settle before it applies
// them to the index on its own (a query applies them at once) when it
// refreshed a moment ago: a busy tree (a checkout, a build) costs it at
// most one refresh per watchQuiet.
const watchQuiet = 200 * time.Millisecond

// watchSettle is that delay after a quiet spell (no refresh within
// watchQuiet): a few edits then a search, as an agent makes them, are
// indexed while the search's process starts instead of after it asks.
const watchSettle = 10 * time.Millisecond

// syncTimeout bounds a query's wait for a watcher: past it the query
// checks the tree with stat as if no watcher ran.
const syncTimeout = 10 * time.Second

// Watch keeps the index of o fresh until ctx ends: it watches every
// directory of the tree (inotify through fsnotify), applies the changes
// it sees to the index a moment after they settle, and answers queries
// (Open) on a Unix socket in the index directory: a query's request is
// answered once every change made before it is in the index, so the
// query reads the index without a stat of the tree. One watcher per
// index (ErrWatched for a second one). It first refreshes the index
// (building it when there is none); ready, when set, is called once it
// answers. It returns nil when ctx ends.
func Watch(ctx context.Context, o Options, ready func()) error {
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return fmt.Errorf("create the index directory: %w", err)
	}
	release, err := lockWatcher(o.watchLockPath())
	if err != nil {
		return err
	}
	defer release()
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return fmt.Errorf("watch %s: %w", o.Root, err)
	}
	defer fw.Close()
	root, err := os.Stat(o.Root)
	if err != nil {
		return fmt.Errorf("watch %s: %w", o.Root, err)
	}
	w := &watcher{o: o, fw: fw, watched: map[string]bool{}, root: root}
	w.o.noWatcher = true
	w.o.cache = &listCache{}
	if err := fw.Add(o.Dir); err != nil {
		return fmt.Errorf("watch %s: %w", o.Dir, err)
	}
	if err := w.watchTree(ctx, ""); err != nil {
		return err
	}
	// Every change from here on is seen: the refresh makes the index
	// match the tree as it was at some moment after the watches began.
	if _, err := Refresh(ctx, w.o); err != nil {
		return err
	}
	os.Remove(o.socketPath()) // a dead watcher's (we hold the lock)
	ln, err := net.Listen("unix", o.socketPath())
	if err != nil {
		return fmt.Errorf("listen for queries: %w", err)
	}
	defer os.Remove(o.socketPath())
	requests := make(chan net.Conn)
	ended := make(chan struct{}) // closed when the loop has returned
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // owned by Watch: ends when ln is closed below
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case requests <- c:
			case <-ctx.Done():
				c.Close()
				return
			case <-ended: // the loop stopped on its own: nobody takes c
				c.Close()
				return
			}
		}
	}()
	defer func() { close(ended); ln.Close(); wg.Wait() }()
	if ready != nil {
		ready()
	}
	return w.loop(ctx, requests)
}

// watcher is the state of one Watch.
type watcher struct {
	o       Options
	fw      *fsnotify.Watcher
	watched map[string]bool // absolute directories watched
	hint    changeHint      // changes not yet applied
	unsure  bool            // events were lost: the next refresh checks everything
	fences  int
	waiting map[string][]net.Conn // fence file name → queries waiting for it
	applied time.Time             // when the last refresh ended
	root    os.FileInfo           // the tree's root when the watch began
}

// moved reports whether the tree's root is no longer the directory the
// watcher watches (it, or a directory above it, was renamed or deleted).
// The watches follow a moved directory, not its path: another tree put
// at the path would go unwatched while the watcher vouched for it.
func (w *watcher) moved() bool {
	now, err := os.Stat(w.o.Root)
	return err != nil || !os.SameFile(now, w.root)
}

// errMoved is the end of a watch whose tree moved away.
func (w *watcher) errMoved() error {
	return fmt.Errorf("%s was moved or deleted; stopped watching (searches check the tree with stat)", w.o.Root)
}

// watchTree watches the directory rel and every directory the index's
// walk enters below it.
func (w *watcher) watchTree(ctx context.Context, rel string) error {
	sub := w.o
	sub.Root = filepath.Join(w.o.Root, filepath.FromSlash(rel))
	dirs, err := listDirs(ctx, &sub)
	if err != nil {
		return fmt.Errorf("list the directories of %s: %w", sub.Root, err)
	}
	for _, d := range dirs {
		abs := filepath.Join(sub.Root, filepath.FromSlash(d))
		if w.watched[abs] {
			continue
		}
		if err := w.fw.Add(abs); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // gone already: its parent's event says so
			}
			return fmt.Errorf("watch %s: %w (the system's inotify watches may be used up: fs.inotify.max_user_watches)", abs, err)
		}
		w.watched[abs] = true
	}
	return nil
}

func (w *watcher) loop(ctx context.Context, requests <-chan net.Conn) error {
	w.waiting = map[string][]net.Conn{}
	w.hint = changeHint{dirs: map[string]bool{}, files: map[string]bool{}}
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	defer func() {
		for _, cs := range w.waiting {
			for _, c := range cs {
				c.Close()
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case c := <-requests:
			if w.moved() {
				c.Close() // the query checks the tree itself
				return w.errMoved()
			}
			w.request(c)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.unsure = true
			}
		case ev, ok := <-w.fw.Events:
			if !ok {
				return nil
			}
			if filepath.Dir(ev.Name) == w.o.Dir {
				if ev.Name == w.o.dbPath() && ev.Has(fsnotify.Remove) {
					// Deleted (a build renames over it, never
					// removes it): a refresh would build it again.
					return fmt.Errorf("the index of %s was deleted; stopped watching", w.o.Root)
				}
				w.fenceSeen(ctx, filepath.Base(ev.Name))
				continue
			}
			if ev.Name == w.o.Root && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
				return w.errMoved()
			}
			w.note(ctx, ev)
			quiet.Reset(w.settle(time.Now()))
		case <-quiet.C:
			w.apply(ctx)
		}
	}
}

// settle is how long the changes noted by now wait before the watcher
// applies them on its own.
func (w *watcher) settle(now time.Time) time.Duration {
	if now.Sub(w.applied) < watchQuiet {
		return watchQuiet
	}
	return watchSettle
}

// request starts a query's sync: a fence file written in the index
// directory, whose event comes after every event queued before it.
func (w *watcher) request(c net.Conn) {
	c.SetDeadline(time.Now().Add(syncTimeout))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "sync" {
		c.Close()
		return
	}
	w.fences++
	name := "fence-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(w.fences)
	if err := os.WriteFile(filepath.Join(w.o.Dir, name), nil, 0o600); err != nil {
		c.Write([]byte("no\n"))
		c.Close()
		return
	}
	w.waiting[name] = append(w.waiting[name], c)
}

// fenceSeen answers the queries waiting for the fence name: every change
// before their requests has been noted, so it is applied, then they are
// told to read the index.
func (w *watcher) fenceSeen(ctx context.Context, name string) {
	cs := w.waiting[name]
	if len(cs) == 0 {
		return
	}
	delete(w.waiting, name)
	os.Remove(filepath.Join(w.o.Dir, name))
	answer := "ok\n"
	if !w.apply(ctx) {
		answer = "no\n"
	}
	for _, c := range cs {
		c.Write([]byte(answer))
		c.Close()
	}
}

// note records one change.
func (w *watcher) note(ctx context.Context, ev fsnotify.Event) {
	rel, err := filepath.Rel(w.o.Root, ev.Name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	parent := filepath.ToSlash(filepath.Dir(rel))
	if parent == "." {
		parent = ""
	}
	w.hint.files[rel] = true
	if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) || isIgnoreFile(rel) {
		w.hint.dirs[parent] = true
	}
	if ev.Has(fsnotify.Chmod) && w.watched[ev.Name] {
		w.hint.dirs[rel] = true // its permissions changed: it may no longer be readable
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			// A new directory: watch it (and what was made in it before the
			// watch began is found by the walk its parent's change causes).
			if err := w.watchTree(ctx, rel); err != nil {
				w.unsure = true
			}
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.unwatch(ev.Name)
	}
}

// unwatch drops the watches of the directory abs and of those below it,
// after abs was removed or renamed. The kernel drops a removed
// directory's watch, but keeps those of a renamed one and of the
// directories in it, and fsnotify keeps reporting their changes under
// the old paths: without this, edits below the new name would be noted
// under names the tree no longer has, and missed. The new name's Create
// watches it afresh.
func (w *watcher) unwatch(abs string) {
	if !w.watched[abs] {
		return // a file, or a directory not watched
	}
	below := abs + string(filepath.Separator)
	for p := range w.watched {
		if p == abs || strings.HasPrefix(p, below) {
			_ = w.fw.Remove(p) // gone already when removed, or moved itself
			delete(w.watched, p)
		}
	}
}

// isIgnoreFile: rel names an ignore file, whose change changes the walk.
func isIgnoreFile(rel string) bool {
	base := filepath.Base(rel)
	return base == ".gitignore" || base == ".ignore" || rel == ".git/info/exclude"
}

// apply refreshes the index with the changes noted (everything, after
// lost events); false when the refresh failed (queries then stat).
func (w *watcher) apply(ctx context.Context) bool {
	if len(w.hint.files) == 0 && len(w.hint.dirs) == 0 && !w.unsure {
		return true
	}
	o := w.o
	if !w.unsure {
		h := w.hint
		o.hint = &h
	}
	// An ignore file changed (directories the walk skipped may be
	// walked now), or events were lost: watch what the walk enters now,
	// before the refresh reads the tree.
	rewatch := w.unsure
	for p := range w.hint.files {
		rewatch = rewatch || isIgnoreFile(p)
	}
	if rewatch {
		if err := w.watchTree(ctx, ""); err != nil {
			return false
		}
	}
	_, err := Refresh(ctx, o)
	w.applied = time.Now()
	if err != nil {
		return false
	}
	w.hint = changeHint{dirs: map[string]bool{}, files: map[string]bool{}}
	w.unsure = false
	return true
}

// syncWatcher asks the watcher of o's index, when one runs, to apply
// every change made so far; true when it did (the index may then be read
// without checking the tree).
func syncWatcher(ctx context.Context, o *Options) bool {
	if len(o.socketPath()) >= 104 { // a Unix socket path's limit
		return false
	}
	d := net.Dialer{Timeout: time.Second}
	c, err := d.DialContext(ctx, "unix", o.socketPath())
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(syncTimeout))
	if _, err := c.Write([]byte("sync\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && line == "ok\n"
}
