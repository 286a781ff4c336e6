package fscache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// fakeClock is a manually advanced clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// testCache returns a cache with a fake clock whose walks are counted.
func testCache(p Policy) (*Cache, *fakeClock, *atomic.Int64) {
	c := New(p)
	clk := &fakeClock{t: time.Unix(1_000_000, 0)}
	c.now = clk.Now
	var n atomic.Int64
	c.walk = func(ctx context.Context, root string, o Options) ([]Entry, error) {
		n.Add(1)
		return Walk(ctx, root, o)
	}
	return c, clk, &n
}

// must fails the test on a scan error: must(t)(c.GetOrScan(...)).
func must(t *testing.T) func(*Scan, error) *Scan {
	return func(s *Scan, err error) *Scan {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

func TestTTLZeroBypassesCache(t *testing.T) {
	t.Parallel()
	c, _, walks := testCache(Policy{TTL: 0, EmptyRecheck: time.Millisecond, MaxEntries: 4})
	root := t.TempDir()
	for i := range 3 {
		s := must(t)(c.GetOrScan(context.Background(), root, Options{}))
		if s.Age != 0 {
			t.Errorf("call %d: Age %v", i, s.Age)
		}
		s = must(t)(c.ForceRescan(context.Background(), root, Options{}, true))
		if s.Age != 0 {
			t.Errorf("force %d: Age %v", i, s.Age)
		}
	}
	if walks.Load() != 6 || len(c.entries) != 0 || c.ShouldRecheckEmpty(&Scan{Age: time.Hour}) {
		t.Errorf("walks %d, stored %d", walks.Load(), len(c.entries))
	}
}

func TestHitExpiryAndRescan(t *testing.T) {
	t.Parallel()
	c, clk, walks := testCache(Policy{TTL: time.Second, EmptyRecheck: 200 * time.Millisecond, MaxEntries: 4})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a": ""})
	ctx := context.Background()

	first := must(t)(c.GetOrScan(ctx, root, Options{}))
	if first.Age != 0 || walks.Load() != 1 || len(first.Entries) != 1 {
		t.Fatalf("first: %+v, walks %d", first, walks.Load())
	}
	clk.Advance(300 * time.Millisecond)
	writeTree(t, root, map[string]string{"b": ""})
	hit := must(t)(c.GetOrScan(ctx, root, Options{}))
	if hit.Age != 300*time.Millisecond || walks.Load() != 1 || &hit.Entries[0] != &first.Entries[0] {
		t.Fatalf("hit: Age %v, walks %d", hit.Age, walks.Load())
	}
	if !c.ShouldRecheckEmpty(hit) || c.ShouldRecheckEmpty(first) {
		t.Error("ShouldRecheckEmpty: want true for the 300ms hit, false for a fresh walk")
	}
	// A hit at the very moment of storing still reports a non-zero age.
	c2, _, _ := testCache(Policy{TTL: time.Second, MaxEntries: 1})
	must(t)(c2.GetOrScan(ctx, root, Options{}))
	if s := must(t)(c2.GetOrScan(ctx, root, Options{})); s.Age <= 0 {
		t.Errorf("same-instant hit: Age %v", s.Age)
	}

	clk.Advance(700 * time.Millisecond) // exactly the TTL: expired
	fresh := must(t)(c.GetOrScan(ctx, root, Options{}))
	if fresh.Age != 0 || walks.Load() != 2 || len(fresh.Entries) != 2 {
		t.Fatalf("expired: Age %v, walks %d, entries %d", fresh.Age, walks.Load(), len(fresh.Entries))
	}
	clk.Advance(10 * time.Millisecond)
	if s := must(t)(c.GetOrScan(ctx, root, Options{})); s.Age != 10*time.Millisecond || len(s.Entries) != 2 || walks.Load() != 2 {
		t.Errorf("re-stored entry not used: Age %v, walks %d", s.Age, walks.Load())
	}
}

func TestKeyPartitions(t *testing.T) {
	c, _, walks := testCache(Policy{TTL: time.Minute, MaxEntries: 16})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"sub/x": ""})
	ctx := context.Background()
	for round := range 2 {
		for _, h := range []bool{false, true} {
			for _, g := range []bool{false, true} {
				for _, n := range []bool{false, true} {
					must(t)(c.GetOrScan(ctx, root, Options{Hidden: h, Gitignore: g, SkipNodeModules: n}))
				}
			}
		}
		if walks.Load() != 8 {
			t.Fatalf("round %d: %d walks, want 8", round, walks.Load())
		}
	}
	// The same directory named differently shares the canonical key.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, alias := range []string{link, ".", "", "sub/..", root + "/"} {
		s := must(t)(c.GetOrScan(ctx, alias, Options{}))
		if s.Age == 0 || walks.Load() != 8 {
			t.Errorf("%q: not served from the cache (walks %d)", alias, walks.Load())
		}
		if real, _ := filepath.EvalSymlinks(root); s.Root != real {
			t.Errorf("%q: Root %q", alias, s.Root)
		}
	}
	if _, err := c.GetOrScan(ctx, filepath.Join(root, "nope"), Options{}); !errors.Is(err, ErrPathNotFound) {
		t.Errorf("missing root: %v", err)
	}
}

func TestMaxEntriesEvictsOldest(t *testing.T) {
	t.Parallel()
	c, clk, walks := testCache(Policy{TTL: time.Hour, MaxEntries: 2})
	base := t.TempDir()
	writeTree(t, base, map[string]string{"a/": "", "b/": "", "c/": ""})
	ctx := context.Background()
	scan := func(name string) {
		must(t)(c.GetOrScan(ctx, filepath.Join(base, name), Options{}))
		clk.Advance(time.Second)
	}
	scan("a")
	scan("b")
	scan("a") // a hit does not refresh a's creation time
	scan("c") // evicts a, the oldest
	if walks.Load() != 3 || len(c.entries) != 2 {
		t.Fatalf("walks %d, stored %d", walks.Load(), len(c.entries))
	}
	scan("b") // still cached
	if walks.Load() != 3 {
		t.Errorf("b was evicted")
	}
	scan("a") // rescanned
	if walks.Load() != 4 {
		t.Errorf("a was not evicted")
	}
}

func TestForceRescan(t *testing.T) {
	t.Parallel()
	c, clk, walks := testCache(Policy{TTL: time.Hour, MaxEntries: 4})
	root := t.TempDir()
	ctx := context.Background()

	// store=false never populates the cache.
	must(t)(c.ForceRescan(ctx, root, Options{}, false))
	if len(c.entries) != 0 {
		t.Fatal("ForceRescan(store=false) stored an entry")
	}
	old := must(t)(c.GetOrScan(ctx, root, Options{}))
	writeTree(t, root, map[string]string{"new": ""})
	clk.Advance(time.Minute)

	// store=false leaves the cached entry alone.
	if s := must(t)(c.ForceRescan(ctx, root, Options{}, false)); len(s.Entries) != 1 || s.Age != 0 {
		t.Fatalf("store=false: %+v", s)
	}
	if s := must(t)(c.GetOrScan(ctx, root, Options{})); len(s.Entries) != len(old.Entries) || s.Age != time.Minute {
		t.Fatalf("store=false replaced the entry: %+v", s)
	}
	// store=true replaces it.
	if s := must(t)(c.ForceRescan(ctx, root, Options{}, true)); len(s.Entries) != 1 || s.Age != 0 {
		t.Fatalf("store=true: %+v", s)
	}
	clk.Advance(time.Second)
	if s := must(t)(c.GetOrScan(ctx, root, Options{})); len(s.Entries) != 1 || s.Age != time.Second {
		t.Fatalf("after store=true: %+v", s)
	}
	if walks.Load() != 4 {
		t.Errorf("walks %d, want 4", walks.Load())
	}
}

func TestShouldRecheckEmpty(t *testing.T) {
	t.Parallel()
	c := New(Policy{TTL: time.Second, EmptyRecheck: 200 * time.Millisecond, MaxEntries: 1})
	for _, tc := range []struct {
		s    *Scan
		want bool
	}{
		{nil, false},
		{&Scan{Age: 0}, false},
		{&Scan{Age: 199 * time.Millisecond}, false},
		{&Scan{Age: 200 * time.Millisecond}, true},
		{&Scan{Age: time.Second}, true},
	} {
		if got := c.ShouldRecheckEmpty(tc.s); got != tc.want {
			t.Errorf("%+v: got %v", tc.s, got)
		}
	}
}

// blockingCache returns a cache whose walks block until release is closed
// and then return one entry; walk contexts are reported on started.
func blockingCache(p Policy) (c *Cache, walks *atomic.Int64, started chan context.Context, release chan struct{}) {
	c = New(p)
	walks = new(atomic.Int64)
	started = make(chan context.Context, 16)
	release = make(chan struct{})
	c.walk = func(ctx context.Context, root string, o Options) ([]Entry, error) {
		walks.Add(1)
		started <- ctx
		select {
		case <-release:
			return []Entry{{Path: "x", Type: TypeFile}}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return
}

// waiters returns how many callers wait on the flight for root.
func waiters(c *Cache, root string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.flights[key{root: root}]; f != nil {
		return f.waiters
	}
	return 0
}

// waitFor polls cond until it holds (testwait.Until).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	testwait.Until(t, "the condition", cond)
}

func TestSingleflight(t *testing.T) {
	t.Parallel()
	c, walks, _, release := blockingCache(Policy{TTL: time.Minute, MaxEntries: 4})
	root, _ := ResolveSearchPath(t.TempDir())
	const n = 8
	results := make([]*Scan, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s, err := c.GetOrScan(context.Background(), root, Options{})
			if err != nil {
				t.Error(err)
			}
			results[i] = s
		})
	}
	waitFor(t, func() bool { return waiters(c, root) == n })
	close(release)
	wg.Wait()
	if walks.Load() != 1 {
		t.Errorf("%d walks, want 1", walks.Load())
	}
	for i, s := range results {
		if s == nil || len(s.Entries) != 1 || &s.Entries[0] != &results[0].Entries[0] {
			t.Errorf("caller %d got a different result", i)
		}
	}
	if s := must(t)(c.GetOrScan(context.Background(), root, Options{})); s.Age == 0 || walks.Load() != 1 {
		t.Error("shared walk was not stored")
	}
}

func TestSingleflightCancelledWaiter(t *testing.T) {
	t.Parallel()
	c, walks, started, release := blockingCache(Policy{TTL: time.Minute, MaxEntries: 4})
	root, _ := ResolveSearchPath(t.TempDir())

	ctx1, cancel1 := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := c.GetOrScan(ctx1, root, Options{})
		errs <- err
	}()
	walkCtx := <-started
	got := make(chan *Scan, 1)
	go func() {
		s, _ := c.GetOrScan(context.Background(), root, Options{})
		got <- s
	}()
	waitFor(t, func() bool { return waiters(c, root) == 2 })
	cancel1()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	if walkCtx.Err() != nil {
		t.Fatal("the shared walk was cancelled while a caller still waits")
	}
	close(release)
	if s := <-got; s == nil || len(s.Entries) != 1 {
		t.Fatalf("remaining waiter: %+v", s)
	}
	if walks.Load() != 1 {
		t.Errorf("%d walks", walks.Load())
	}
}

func TestSingleflightAllWaitersGone(t *testing.T) {
	t.Parallel()
	c, walks, started, release := blockingCache(Policy{TTL: time.Minute, MaxEntries: 4})
	root, _ := ResolveSearchPath(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := c.GetOrScan(ctx, root, Options{})
			errs <- err
		}()
	}
	walkCtx := <-started
	waitFor(t, func() bool { return waiters(c, root) == 2 })
	cancel()
	for range 2 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Fatalf("waiter: %v", err)
		}
	}
	select {
	case <-walkCtx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("walk not cancelled after every caller left")
	}
	// A new caller starts a new walk rather than joining the abandoned one.
	close(release)
	s := must(t)(c.GetOrScan(context.Background(), root, Options{}))
	if s.Age != 0 || walks.Load() != 2 {
		t.Errorf("Age %v, walks %d", s.Age, walks.Load())
	}
}

func TestInvalidateDuringWalkDoesNotStore(t *testing.T) {
	t.Parallel()
	c, walks, started, release := blockingCache(Policy{TTL: time.Minute, MaxEntries: 4})
	root, _ := ResolveSearchPath(t.TempDir())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := c.GetOrScan(context.Background(), root, Options{}); err != nil {
			t.Error(err)
		}
	}()
	<-started
	c.Invalidate(filepath.Join(root, "written.txt"))
	close(release)
	<-done
	if len(c.entries) != 0 {
		t.Fatal("a walk that raced an invalidation was stored")
	}
	must(t)(c.GetOrScan(context.Background(), root, Options{}))
	if walks.Load() != 2 {
		t.Errorf("walks %d", walks.Load())
	}
}

func TestPolicyNormalized(t *testing.T) {
	p := New(Policy{TTL: -1, EmptyRecheck: -1, MaxEntries: 0}).Policy()
	if p != (Policy{MaxEntries: 1}) {
		t.Errorf("got %+v", p)
	}
}
