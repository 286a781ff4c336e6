package fscache

import (
	"context"
	"time"
)

// Scanner is the part of *Cache that search engines use. Engines accept one
// in their options: the owner's *Cache, or a fake in tests; nil walks
// afresh on every call and stores nothing.
type Scanner interface {
	GetOrScan(ctx context.Context, root string, opts Options) (*Scan, error)
	ForceRescan(ctx context.Context, root string, opts Options, store bool) (*Scan, error)
	ShouldRecheckEmpty(s *Scan) bool
}

// Lookup is one engine call's use of the scan cache under the opt-in
// contract: without UseCache every call walks afresh and stores nothing;
// with it the call reuses a stored scan, and when the call's filtered
// result from that scan is empty while the scan is old enough
// (ShouldRecheckEmpty), it rescans once, storing the fresh scan, so that
// files created since are found.
type Lookup struct {
	Scanner  Scanner // nil: walk afresh, store nothing (no global excludes file)
	Root     string  // canonical search root (see ResolveSearchPath)
	Options  Options // traversal policy, part of the cache key
	UseCache bool    // the caller opted in to the cache
	// NoStat says the caller needs neither MTime nor Size. It is honoured
	// only without the cache (stored scans always carry both) and by
	// scanners that offer WalkTypes, as *Cache does; then entries come from
	// a walk without the per-entry lstat and both fields are 0.
	NoStat bool
}

// typeWalker is implemented by scanners that can walk without lstat.
type typeWalker interface {
	WalkTypes(ctx context.Context, root string, opts Options) (*Scan, error)
}

// streamWalker is implemented by scanners that can hand entries over while
// they walk.
type streamWalker interface {
	WalkStream(ctx context.Context, root string, opts Options, noStat bool, fn func(Entry) error, idle func()) error
}

func (l Lookup) scanner() Scanner {
	if l.Scanner == nil {
		return uncached
	}
	return l.Scanner
}

// First returns the scan a call starts from: a fresh unstored walk without
// the cache; the stored scan, or a new stored one, with it.
func (l Lookup) First(ctx context.Context) (*Scan, error) {
	if !l.UseCache {
		if tw, ok := l.scanner().(typeWalker); ok && l.NoStat {
			return tw.WalkTypes(ctx, l.Root, l.Options)
		}
		return l.scanner().ForceRescan(ctx, l.Root, l.Options, false)
	}
	return l.scanner().GetOrScan(ctx, l.Root, l.Options)
}

// RecheckEmpty is called when the call's filtered result from scan came
// out empty. It returns a fresh, stored scan when that empty result may be
// a stale negative, or nil when it stands.
func (l Lookup) RecheckEmpty(ctx context.Context, scan *Scan) (*Scan, error) {
	if !l.UseCache || !l.scanner().ShouldRecheckEmpty(scan) {
		return nil, nil
	}
	return l.scanner().ForceRescan(ctx, l.Root, l.Options, true)
}

// Stream hands the entries of the call's scan to fn in scan order and
// returns the scan's age. Without UseCache, and with a scanner that can
// stream (as *Cache can), entries arrive while the walk goes on (without
// MTime and Size under NoStat) and idle
// (when not nil) is called whenever fn would wait for the walk; otherwise
// they come from First's scan. The empty-result recheck is the caller's
// business, as with First. A non-nil error from fn stops the call and is
// returned.
func (l Lookup) Stream(ctx context.Context, fn func(Entry) error, idle func()) (time.Duration, error) {
	if sw, ok := l.scanner().(streamWalker); ok && !l.UseCache {
		return 0, sw.WalkStream(ctx, l.Root, l.Options, l.NoStat, fn, idle)
	}
	scan, err := l.First(ctx)
	if err != nil {
		return 0, err
	}
	for _, e := range scan.Entries {
		if err := fn(e); err != nil {
			return scan.Age, err
		}
	}
	return scan.Age, nil
}
