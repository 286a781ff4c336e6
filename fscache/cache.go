package fscache

import (
	"context"
	"sync"
	"time"
)

// key identifies one cache partition: a canonical root and a traversal policy.
type key struct {
	root string
	opts Options
}

// stored is one cached scan.
type stored struct {
	entries []Entry
	created time.Time // when the walk started
	seq     uint64    // insertion order, breaks ties between equal times
}

// flight is one walk in progress, shared by every caller that joined it.
type flight struct {
	done    chan struct{} // closed when entries/err are set
	entries []Entry
	err     error
	cancel  context.CancelFunc
	waiters int  // callers still waiting; the walk is cancelled when it drops to 0
	store   bool // store the result when done
	stale   bool // superseded or invalidated: do not store, do not join
}

// Cache is a cache of directory scans, a value its owner builds (New)
// and passes to the engines: an agent session holds one for its tools,
// a one-shot CLI command builds its own. It is safe for concurrent use. Scans of one key run at most once at a time: concurrent
// GetOrScan callers share the walk in progress.
type Cache struct {
	policy Policy
	now    func() time.Time                                                   // clock; tests replace it
	walk   func(ctx context.Context, root string, o Options) ([]Entry, error) // walker; tests replace it

	mu      sync.Mutex
	entries map[key]*stored
	flights map[key]*flight
	seq     uint64
}

// New returns an empty cache with policy p. A MaxEntries below 1 keeps one
// entry; a negative TTL or EmptyRecheck counts as 0.
func New(p Policy) *Cache {
	p.TTL = max(p.TTL, 0)
	p.EmptyRecheck = max(p.EmptyRecheck, 0)
	p.MaxEntries = max(p.MaxEntries, 1)
	return &Cache{
		policy: p,
		now:    time.Now,
		walk: func(ctx context.Context, root string, o Options) ([]Entry, error) {
			return walkTree(ctx, root, o, false, p.ExcludesFile)
		},
		entries: make(map[key]*stored),
		flights: make(map[key]*flight),
	}
}

// uncached serves lookups that name no scanner: every call walks afresh
// and nothing is stored (TTL 0), so it holds no state between calls.
var uncached = New(Policy{})

// Policy returns the cache's policy.
func (c *Cache) Policy() Policy { return c.policy }

// ShouldRecheckEmpty tells a consumer whose filtered result from s came out
// empty whether to retry once with ForceRescan(..., true): true when caching
// is on and s came from the cache at least Policy().EmptyRecheck ago. A scan
// walked by the call itself (Age 0) is never rechecked.
func (c *Cache) ShouldRecheckEmpty(s *Scan) bool {
	return s != nil && c.policy.TTL > 0 && s.Age > 0 && s.Age >= c.policy.EmptyRecheck
}

// GetOrScan returns the scan of root under opts, from the cache when a scan
// younger than the TTL is stored (Age > 0), else from a new walk that is then
// stored (Age 0). With a TTL of 0 it always walks and stores nothing. root is
// resolved with ResolveSearchPath first.
func (c *Cache) GetOrScan(ctx context.Context, root string, opts Options) (*Scan, error) {
	abs, err := ResolveSearchPath(root)
	if err != nil {
		return nil, err
	}
	if c.policy.TTL == 0 {
		return c.fresh(ctx, abs, opts)
	}
	k := key{root: abs, opts: opts}
	c.mu.Lock()
	if s, ok := c.entries[k]; ok {
		age := c.now().Sub(s.created)
		if age < c.policy.TTL {
			c.mu.Unlock()
			return &Scan{Root: abs, Entries: s.entries, Age: max(age, time.Nanosecond)}, nil
		}
		delete(c.entries, k)
	}
	f := c.flights[k]
	if f == nil {
		f = c.start(ctx, k, true)
	}
	f.waiters++
	c.mu.Unlock()
	return c.wait(ctx, k, f)
}

// ForceRescan walks root under opts regardless of what is cached. With store
// the result replaces the cached entry (unless the TTL is 0); without it the
// cache is neither read nor written, as a no-cache request requires.
func (c *Cache) ForceRescan(ctx context.Context, root string, opts Options, store bool) (*Scan, error) {
	abs, err := ResolveSearchPath(root)
	if err != nil {
		return nil, err
	}
	if !store || c.policy.TTL == 0 {
		return c.fresh(ctx, abs, opts)
	}
	k := key{root: abs, opts: opts}
	c.mu.Lock()
	if old := c.flights[k]; old != nil {
		old.stale = true // it started before this call and may miss recent changes
	}
	f := c.start(ctx, k, true)
	f.waiters++
	c.mu.Unlock()
	return c.wait(ctx, k, f)
}

// WalkTypes walks root afresh with WalkTypes (entries without MTime and
// Size) and never stores the result: stored scans always carry both. root
// is resolved with ResolveSearchPath first.
func (c *Cache) WalkTypes(ctx context.Context, root string, opts Options) (*Scan, error) {
	abs, err := ResolveSearchPath(root)
	if err != nil {
		return nil, err
	}
	entries, err := walkTree(ctx, abs, opts, true, c.policy.ExcludesFile)
	if err != nil {
		return nil, err
	}
	return &Scan{Root: abs, Entries: entries}, nil
}

// WalkStream walks root afresh like the package's WalkStream, applying the
// policy's global excludes file, and never stores the result. root is
// resolved with ResolveSearchPath first.
func (c *Cache) WalkStream(ctx context.Context, root string, opts Options, noStat bool, fn func(Entry) error, idle func()) error {
	abs, err := ResolveSearchPath(root)
	if err != nil {
		return err
	}
	return walkStream(ctx, abs, opts, noStat, c.policy.ExcludesFile, fn, idle)
}

// fresh walks without touching the cache.
func (c *Cache) fresh(ctx context.Context, abs string, opts Options) (*Scan, error) {
	entries, err := c.walk(ctx, abs, opts)
	if err != nil {
		return nil, err
	}
	return &Scan{Root: abs, Entries: entries}, nil
}

// start launches the walk for k and registers it as the key's flight. The
// walk runs on a context detached from the caller's cancellation (values are
// kept) so that one caller giving up does not fail the others. Must be called
// with c.mu held.
func (c *Cache) start(ctx context.Context, k key, store bool) *flight {
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	f := &flight{done: make(chan struct{}), cancel: cancel, store: store}
	c.flights[k] = f
	started := c.now()
	go func() {
		entries, err := c.walk(wctx, k.root, k.opts)
		cancel()
		c.mu.Lock()
		f.entries, f.err = entries, err
		if c.flights[k] == f {
			delete(c.flights, k)
		}
		if err == nil && f.store && !f.stale {
			c.put(k, entries, started)
		}
		c.mu.Unlock()
		close(f.done)
	}()
	return f
}

// wait blocks until f finishes or ctx is done. The last waiter to leave
// cancels the walk and detaches the flight so later callers start afresh.
func (c *Cache) wait(ctx context.Context, k key, f *flight) (*Scan, error) {
	select {
	case <-f.done:
		if f.err != nil {
			return nil, f.err
		}
		return &Scan{Root: k.root, Entries: f.entries}, nil
	case <-ctx.Done():
		c.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			f.stale = true
			if c.flights[k] == f {
				delete(c.flights, k)
			}
			f.cancel()
		}
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

// put stores a scan and enforces MaxEntries by evicting the oldest entries.
// Must be called with c.mu held.
func (c *Cache) put(k key, entries []Entry, created time.Time) {
	c.seq++
	c.entries[k] = &stored{entries: entries, created: created, seq: c.seq}
	for len(c.entries) > c.policy.MaxEntries {
		var oldest key
		var victim *stored
		for ek, e := range c.entries {
			if victim == nil || e.created.Before(victim.created) || (e.created.Equal(victim.created) && e.seq < victim.seq) {
				oldest, victim = ek, e
			}
		}
		delete(c.entries, oldest)
	}
}
