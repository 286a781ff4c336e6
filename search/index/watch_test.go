package index

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/search/grep"
)

// startWatcher runs Watch on o until the test ends and waits until it
// answers.
func startWatcher(t *testing.T, o Options) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- Watch(ctx, o, func() { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("watch: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("watch ended with %v", err)
		}
	})
}

// watchUntilEnd runs Watch on o, waits until it answers, and returns
// what Watch returns when it ends on its own (the test's end cancels it).
func watchUntilEnd(t *testing.T, o Options) <-chan error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- Watch(ctx, o, func() { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("watch: %v", err)
	}
	return done
}

// openWatched opens the index and requires that the watcher vouched for
// it (no stat of the tree).
func openWatched(t *testing.T, o Options) {
	t.Helper()
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	watched, direct := ix.watched, ix.Direct()
	ix.Close()
	if !watched {
		t.Fatal("the watcher did not answer: the query checked the tree with stat")
	}
	if direct != 2 { // bin.dat and utf16.txt: every change is indexed already
		t.Errorf("%d files searched directly, want 2", direct)
	}
}

// While a watcher runs, every change made before a query is in the index
// when the query reads it, and the answers equal the walk's, with no stat
// of the tree: edits in place, a rename over a file (as gopi's own
// writes), new and removed files, a new directory, an ignore file edited.
func TestWatcherKeepsIndexFresh(t *testing.T) {
	root := testTree(t)
	writeFile(t, root, "ignored/sub/y.go", "func alpha_value() {}\n")
	o := testOptions(t, root)
	mustBuild(t, o)
	writeFile(t, root, "gen/f01.txt", "changed before the watcher: alpha_value\n")
	startWatcher(t, o)
	if _, err := lockWatcher(o.watchLockPath()); !errors.Is(err, ErrWatched) {
		t.Errorf("a second watcher: %v, want ErrWatched", err)
	}
	openWatched(t, o)
	checkSame(t, "watched, changed before", o)
	writeFile(t, root, "gen/f02.txt", "alpha_value and quick, written in place\n")
	openWatched(t, o)
	checkSame(t, "watched, edited", o)
	tmp := filepath.Join(root, "a", ".b.go.tmp")
	os.WriteFile(tmp, []byte("package a\nfunc AlphaValue() string { return \"number21\" }\n"), 0o644)
	if err := os.Rename(tmp, filepath.Join(root, "a", "b.go")); err != nil {
		t.Fatal(err)
	}
	openWatched(t, o)
	checkSame(t, "watched, renamed over", o)
	writeFile(t, root, "newdir/sub/n.go", "AlphaValue kelvin number21\n")
	os.Remove(filepath.Join(root, "gen", "f05.txt"))
	openWatched(t, o)
	checkSame(t, "watched, added and removed", o)
	writeFile(t, root, "newdir/sub/m.go", "alpha_value in a directory made after the watcher began\n")
	writeFile(t, root, ".gitignore", "ignored/\n*.log\ngen/f1*\n")
	openWatched(t, o)
	checkSame(t, "watched, ignore file edited", o)
	// A directory ignored until now: the watcher watches it once the
	// ignore file lets the walk in, so later edits in it are seen.
	writeFile(t, root, ".gitignore", "*.log\ngen/f1*\n")
	openWatched(t, o)
	checkSame(t, "watched, ignored directory let in", o)
	writeFile(t, root, "ignored/sub/y.go", "func alpha_value_changed() { quick }\n")
	openWatched(t, o)
	checkSame(t, "watched, edit in the directory let in", o)
}

// A query against a watcher that does not answer in time (or at all)
// checks the tree itself: a dead watcher's socket is no promise.
func TestDeadWatcherSocketIgnored(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	ln, err := net.Listen("unix", o.socketPath())
	if err != nil {
		t.Fatal(err)
	}
	ln.Close() // the socket file stays, nobody listens: a watcher killed with -9
	writeFile(t, root, "gen/f02.txt", "alpha_value written with no watcher\n")
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.watched {
		t.Fatal("a dead socket vouched for the index")
	}
	checkSame(t, "dead watcher", o)
}

// A file replaced by a rename over it (gopi's atomic writes, most
// editors) changes its directory's mtime but not its names: the index
// stays usable and the file is searched directly.
func TestRenameOverKeepsIndex(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	time.Sleep(10 * time.Millisecond) // a directory mtime that differs
	tmp := filepath.Join(root, "gen", "f04.txt.tmp")
	os.WriteFile(tmp, []byte("alpha_value after a rename\n"), 0o644)
	if err := os.Rename(tmp, filepath.Join(root, "gen", "f04.txt")); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open after a rename over a file: %v", err)
	}
	direct := ix.Direct()
	ix.Close()
	if direct != 3 {
		t.Errorf("%d files searched directly, want 3 (the renamed one)", direct)
	}
	checkSame(t, "renamed over", o)
	// The same name now a link: the walk leaves it out, so must the index.
	os.Remove(filepath.Join(root, "gen", "f04.txt"))
	os.Symlink("f03.txt", filepath.Join(root, "gen", "f04.txt"))
	if _, err := Open(context.Background(), o); !errors.Is(err, ErrStale) {
		t.Fatalf("open after a file became a link: %v, want ErrStale", err)
	}
}

// Refreshes add small segments; past MaxSegments they are merged into
// one, keeping only live ids, and answers stay the walk's.
func TestRefreshSegmentsMerged(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	o.MaxSegments = 2
	mustBuild(t, o)
	for i, text := range []string{"alpha_value one\n", "quick two number21\n", "AlphaValue three\n", "kelvin \u212a four\n", "nothing\n"} {
		writeFile(t, root, "gen/f0"+string(rune('1'+i))+".txt", text)
		writeFile(t, root, "gen/f01.txt", text+"again\n")
		if _, err := Refresh(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		st, err := ReadStatus(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if st.Segments > 1+o.MaxSegments {
			t.Fatalf("after %d refreshes: %d segments, want at most %d", i+1, st.Segments, 1+o.MaxSegments)
		}
		checkSame(t, "refresh "+string(rune('1'+i)), o)
	}
}

// A watcher idle for a while applies changes almost at once (they are
// indexed while the search that follows them starts); one that refreshed
// a moment ago lets them settle, so a busy tree costs at most a refresh
// per watchQuiet.
func TestWatcherSettle(t *testing.T) {
	w := &watcher{}
	now := time.Now()
	if got := w.settle(now); got != watchSettle {
		t.Fatalf("never refreshed: settle %v, want %v", got, watchSettle)
	}
	w.applied = now.Add(-watchQuiet / 2)
	if got := w.settle(now); got != watchQuiet {
		t.Fatalf("refreshed %v ago: settle %v, want %v", watchQuiet/2, got, watchQuiet)
	}
	w.applied = now.Add(-2 * watchQuiet)
	if got := w.settle(now); got != watchSettle {
		t.Fatalf("refreshed %v ago: settle %v, want %v", 2*watchQuiet, got, watchSettle)
	}
	if watchSettle >= watchQuiet {
		t.Fatalf("watchSettle %v is not shorter than watchQuiet %v", watchSettle, watchQuiet)
	}
}

// Deleting the index while a watcher runs stops the watcher, instead of
// its next refresh building the index again behind the user's back.
func TestWatcherStopsWhenIndexDeleted(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	done := watchUntilEnd(t, o)
	if err := Delete(o); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "a/new.go", "package a\n")
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "deleted") {
			t.Errorf("watch ended with %v, want an error saying the index was deleted", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher still runs 10 s after its index was deleted")
	}
	if _, err := os.Stat(o.dbPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted index is back: %v", err)
	}
}

// A directory renamed while a watcher runs, with a directory inside it:
// later edits under the new name, in it and in its subdirectory, are
// seen (the kernel keeps the subdirectory's watch, which must not keep
// reporting its changes under the old name).
func TestWatcherFollowsRenamedDirectory(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	startWatcher(t, o)
	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "a2")); err != nil {
		t.Fatal(err)
	}
	openWatched(t, o)
	checkSame(t, "watched, directory renamed", o)
	writeFile(t, root, "a2/deep/c.go", "package deep\nvar alpha_value = 2\n")
	openWatched(t, o)
	checkSame(t, "watched, edited in a subdirectory of the renamed directory", o)
	writeFile(t, root, "a2/b.go", "package a\nfunc AlphaValue() { alpha_value() }\n")
	openWatched(t, o)
	checkSame(t, "watched, edited in the renamed directory", o)
}

// The tree's root moved away (or deleted) while a watcher runs, and
// another tree put at its path: the watcher, whose watches follow the
// moved directories, stops instead of vouching for an index of the tree
// now at the path, and queries check that tree with stat.
func TestWatcherStopsWhenTreeMoved(t *testing.T) {
	for _, how := range []string{"root renamed", "parent renamed", "root deleted"} {
		t.Run(how, func(t *testing.T) {
			base := t.TempDir()
			parent := filepath.Join(base, "parent")
			root := filepath.Join(parent, "tree")
			if err := os.MkdirAll(parent, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(testTree(t), root); err != nil {
				t.Fatal(err)
			}
			o := testOptions(t, root)
			mustBuild(t, o)
			done := watchUntilEnd(t, o)
			moved := filepath.Join(base, "moved")
			var err error
			switch how {
			case "root renamed":
				err = os.Rename(root, moved)
			case "parent renamed":
				err = os.Rename(parent, moved)
			case "root deleted":
				err = os.RemoveAll(root)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(parent, 0o755); err != nil {
				t.Fatal(err)
			}
			from := moved // a copy of the tree that moved, at its old path
			switch how {
			case "parent renamed":
				from = filepath.Join(moved, "tree")
			case "root deleted":
				from = testTree(t)
			}
			if err := os.CopyFS(root, os.DirFS(from)); err != nil {
				t.Fatal(err)
			}
			writeFile(t, root, "a/deep/c.go", "package deep\nvar alpha_value = 3\n")
			writeFile(t, root, "gen/f02.txt", "alpha_value in the tree now at the path\n")
			ix, err := Open(context.Background(), o)
			switch {
			case errors.Is(err, ErrStale): // the copy's directories differ: searches walk
			case err != nil:
				t.Fatalf("open: %v", err)
			default:
				watched := ix.watched
				ix.Close()
				if watched {
					t.Error("the watcher vouched for the index of a tree that moved away")
				}
				checkSame(t, how, o)
			}
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "moved or deleted") {
					t.Errorf("watch ended with %v, want an error saying the tree moved", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the watcher still runs 10 s after its tree moved")
			}
			if _, err := Refresh(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			checkSame(t, how+", refreshed", o)
		})
	}
}

// A watcher that stops on its own (here: its tree moved) while several
// queries are connecting ends all the same: a query accepted after its
// loop ended must not keep Watch (and a session's Close) waiting for ever.
func TestWatcherEndsWithQueriesPending(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "tree")
	if err := os.Rename(testTree(t), root); err != nil {
		t.Fatal(err)
	}
	o := testOptions(t, root)
	mustBuild(t, o)
	done := watchUntilEnd(t, o)
	if err := os.Rename(root, filepath.Join(base, "moved")); err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	for range 8 {
		c, err := net.Dial("unix", o.socketPath())
		if err != nil {
			break // the watcher stopped listening already
		}
		c.Write([]byte("sync\n"))
		conns = append(conns, c)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "moved or deleted") {
			t.Errorf("watch ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Watch has not returned 10 s after its tree moved, with queries pending")
	}
}

// Two sessions on one tree: the second's watcher leaves the tree to the
// first's; once the first session ends, a search of the second starts a
// watcher again instead of checking the tree with stat until it ends.
func TestFinderWatchesAgainAfterOtherWatcherEnds(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	dirFor := func(string) string { return o.Dir }
	first, second := NewFinder(dirFor), NewFinder(dirFor)
	first.Walk, second.Walk = o.Walk, o.Walk
	first.Watch, second.Watch = true, true
	defer second.Close()
	view := func(f *Finder) {
		t.Helper()
		v, ok, err := f.View(context.Background(), root, grep.Scope{Hidden: true, Gitignore: true, NodeModules: true})
		if !ok || err != nil {
			t.Fatalf("view: %v %v", ok, err)
		}
		v.Close()
	}
	watched := func() bool {
		ix, err := Open(context.Background(), o)
		if err != nil {
			return false
		}
		defer ix.Close()
		return ix.watched
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("still not %s after 10 s", what)
			}
		}
	}
	view(first)
	waitFor("watched by the first session", watched)
	view(second) // its watcher finds the tree watched and ends
	waitFor("left to the first session", func() bool {
		second.mu.Lock()
		defer second.mu.Unlock()
		return !second.watching[o.Root]
	})
	first.Close()
	if watched() {
		t.Fatal("still watched after the first session ended")
	}
	view(second)
	waitFor("watched by the second session", watched)
}

// A file rewritten with the same size and modification time (twice
// within one tick of the file system's clock, or its times set back)
// after the watcher indexed it: the watcher saw the write, so the index
// holds the new text although stat cannot tell.
func TestWatcherReindexesWrittenFileWithSameStat(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	mustBuild(t, o)
	startWatcher(t, o)
	abs := filepath.Join(root, "gen", "f03.txt")
	writeFile(t, root, "gen/f03.txt", "first text, nothing to find...\n")
	openWatched(t, o)
	before, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "gen/f03.txt", "alpha_value now, the same size\n")
	if err := os.Chtimes(abs, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	openWatched(t, o)
	checkSame(t, "watched, rewritten with the same stat", o)
}
