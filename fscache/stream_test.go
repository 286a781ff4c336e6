package fscache

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// streamAll collects what WalkStream hands over.
func streamAll(t *testing.T, root string, opts Options) ([]Entry, int) {
	t.Helper()
	var got []Entry
	idles := 0
	err := WalkStream(context.Background(), root, opts, false, func(e Entry) error {
		got = append(got, e)
		return nil
	}, func() { idles++ })
	if err != nil {
		t.Fatalf("WalkStream: %v", err)
	}
	return got, idles
}

// The streamed walk hands over exactly Walk's entries in Walk's order,
// under every traversal policy.
func TestWalkStreamMatchesWalk(t *testing.T) {
	t.Parallel()
	root := filepath.Join(goroot(t), "src")
	if testing.Short() {
		root = filepath.Join(root, "net")
	}
	for _, opts := range []Options{{Hidden: true}, {Gitignore: true, SkipNodeModules: true}, {}} {
		want := walkAll(t, root, opts)
		got, _ := streamAll(t, root, opts)
		if !slices.Equal(got, want) {
			t.Fatalf("%+v: WalkStream differs from Walk (%d vs %d entries)", opts, len(got), len(want))
		}
	}
	small := t.TempDir()
	writeTree(t, small, map[string]string{"a/b/c": "", "a/d": "", ".h/x": "", "z": "", ".gitignore": "z\n"})
	for _, opts := range []Options{{Hidden: true}, {Hidden: true, Gitignore: true}, {}} {
		want := walkAll(t, small, opts)
		got, _ := streamAll(t, small, opts)
		if !slices.Equal(got, want) {
			t.Fatalf("%+v: %v, want %v", opts, paths(got), paths(want))
		}
	}
}

// A consumer that stops early gets its error back and the walk ends.
func TestWalkStreamStopsEarly(t *testing.T) {
	t.Parallel()
	stop := errors.New("enough")
	n := 0
	err := WalkStream(context.Background(), filepath.Join(goroot(t), "src"), Options{}, false, func(Entry) error {
		n++
		if n == 10 {
			return stop
		}
		return nil
	}, nil)
	if !errors.Is(err, stop) || n != 10 {
		t.Fatalf("err %v after %d entries, want the consumer's error after 10", err, n)
	}
}

func TestWalkStreamCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := WalkStream(ctx, t.TempDir(), Options{}, false, func(Entry) error { return nil }, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(time.Millisecond); cancel() }()
	err := WalkStream(ctx, filepath.Join(goroot(t), "src"), Options{}, false, func(Entry) error { return nil }, nil)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("mid-walk: %v", err)
	}
	if err := WalkStream(context.Background(), filepath.Join(t.TempDir(), "missing"), Options{}, false, func(Entry) error { return nil }, nil); !errors.Is(err, ErrPathNotFound) {
		t.Errorf("missing root: %v", err)
	}
}

// A consumer blocked on the first entry does not hold up the walk's
// workers for ever: once it gives up, WalkStream returns.
func TestWalkStreamConsumerStopsWhileWalking(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	blocked := make(chan struct{})
	var once sync.Once
	go func() {
		done <- WalkStream(ctx, filepath.Join(goroot(t), "src"), Options{}, false, func(Entry) error {
			once.Do(func() { close(blocked) })
			<-ctx.Done()
			return ctx.Err()
		}, nil)
	}()
	<-blocked
	cancel()
	if err, _ := testwait.Recv(t, "WalkStream to return after its consumer stopped", done); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// SkipPseudoDirs prunes /proc, /sys and /dev below the root / only.
func TestSkipPseudoDirs(t *testing.T) {
	t.Parallel()
	if !isPseudoDir("/", "proc") || !isPseudoDir("/", "dev") || isPseudoDir("/usr", "proc") || isPseudoDir("/", "procs") {
		t.Fatal("isPseudoDir")
	}
	seen := map[string]bool{}
	err := WalkStream(context.Background(), "/", Options{SkipPseudoDirs: true}, false, func(e Entry) error {
		if e.Type == TypeDir && (e.Path == "proc" || e.Path == "sys" || e.Path == "dev") {
			seen[e.Path] = true
		}
		if len(e.Path) > 5 && e.Path[:5] == "proc/" {
			return errors.New("walked into /proc: " + e.Path)
		}
		if e.Path == "etc" {
			return errStopTest
		}
		return nil
	}, nil)
	if err != nil && !errors.Is(err, errStopTest) {
		t.Fatal(err)
	}
	if seen["dev"] {
		t.Error("/dev was listed")
	}
}

var errStopTest = errors.New("stop")

// With noStat the streamed walk hands over WalkTypes' entries.
func TestWalkStreamNoStatMatchesWalkTypes(t *testing.T) {
	t.Parallel()
	root := filepath.Join(goroot(t), "src", "net")
	want, err := WalkTypes(context.Background(), root, Options{Gitignore: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []Entry
	if err := WalkStream(context.Background(), root, Options{Gitignore: true}, true, func(e Entry) error {
		got = append(got, e)
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
}

// A streamed walk lists at most about streamLookahead entries ahead of a
// slow consumer, and still hands over every entry in order.
func TestWalkStreamBoundedLookahead(t *testing.T) {
	root := filepath.Join(goroot(t), "src")
	want := walkAll(t, root, Options{})
	w, top, err := newWalker(context.Background(), root, Options{}, false, "", true)
	if err != nil {
		t.Fatal(err)
	}
	w.maxAhead = 64
	var wg sync.WaitGroup
	w.start(&wg)
	var got []Entry
	maxAhead := 0
	err = w.emit(top, func(e Entry) error {
		got = append(got, e)
		if len(got)%16 == 0 {
			time.Sleep(10 * time.Microsecond) // a consumer slower than the walk
		}
		w.mu.Lock()
		maxAhead = max(maxAhead, w.ahead)
		w.mu.Unlock()
		return nil
	}, nil)
	w.halt()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	// One listing per worker may start just under the bound; the largest
	// directory of the tree bounds what each adds.
	largest := 0
	if err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if ents, err := os.ReadDir(p); err == nil {
				largest = max(largest, len(ents))
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if limit := w.maxAhead + runtime.GOMAXPROCS(0)*largest; maxAhead > limit {
		t.Fatalf("the walk ran %d entries ahead of its consumer, bound %d", maxAhead, limit)
	}
	t.Logf("at most %d entries ahead (bound %d, %d entries)", maxAhead, w.maxAhead, len(want))
}

// At its start a streamed walk's bound is streamLookaheadStart, growing
// with what the consumer has reached: a consumer that stalls on its first
// entry (a search whose first result someone waits for) has the walk stop
// early instead of listing up to streamLookahead entries.
func TestWalkStreamLookaheadStartsSmall(t *testing.T) {
	root := filepath.Join(goroot(t), "src")
	w, top, err := newWalker(context.Background(), root, Options{}, false, "", true)
	if err != nil {
		t.Fatal(err)
	}
	w.maxAhead, w.startAhead = 4096, 16
	var wg sync.WaitGroup
	w.start(&wg)
	var ahead int
	stop := errors.New("stop")
	err = w.emit(top, func(e Entry) error {
		// Wait until the workers have run as far ahead as they may: no
		// listing in progress, and none they may start.
		testwait.Until(t, "the walk to stop ahead of its consumer", func() bool {
			w.mu.Lock()
			defer w.mu.Unlock()
			ahead = w.ahead
			return w.pending == len(w.stack) && (len(w.stack) == 0 || w.throttled())
		})
		return stop
	}, nil)
	w.halt()
	wg.Wait()
	if !errors.Is(err, stop) {
		t.Fatal(err)
	}
	// One listing per worker may start just under the bound; GOROOT/src's
	// directories hold at most a few hundred entries each.
	if limit := 16 + len(top.entries) + runtime.GOMAXPROCS(0)*1024; ahead > limit {
		t.Fatalf("the walk ran %d entries ahead of a consumer stalled on its first entry, bound %d", ahead, limit)
	}
	if ahead >= 4096 {
		t.Fatalf("the walk ran %d entries ahead: the start bound was not applied", ahead)
	}
	t.Logf("%d entries ahead", ahead)
}
