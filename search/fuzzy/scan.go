package fuzzy

import (
	"context"

	"github.com/gopi-agent/gopi/fscache"
)

// Scanner is the part of *fscache.Cache Find uses. Tests substitute a
// fake; production code uses fscache.Default(). (search/glob declares the
// same interface, so one value satisfies both.)
type Scanner interface {
	GetOrScan(ctx context.Context, root string, opts fscache.Options) (*fscache.Scan, error)
	ForceRescan(ctx context.Context, root string, opts fscache.Options, store bool) (*fscache.Scan, error)
	Policy() fscache.Policy
}

// Hooks replaced by tests.
var (
	resolveRoot    = fscache.ResolveSearchPath
	defaultScanner = func() Scanner { return fscache.Default() }
)

// firstScan returns the scan to score: a fresh unstored walk without the
// cache, the cached scan (or a new stored one) with it.
func firstScan(ctx context.Context, s Scanner, root string, opts fscache.Options, cache bool) (*fscache.Scan, error) {
	if !cache {
		return s.ForceRescan(ctx, root, opts, false)
	}
	return s.GetOrScan(ctx, root, opts)
}

// staleNegative reports whether an empty result from scan deserves one
// stored rescan: only cached scans at least Policy().EmptyRecheck old.
// It defers to the cache's own rule (fscache's ShouldRecheckEmpty) when
// the scanner has one.
func staleNegative(s Scanner, scan *fscache.Scan, cache bool) bool {
	if !cache {
		return false
	}
	if r, ok := s.(interface{ ShouldRecheckEmpty(*fscache.Scan) bool }); ok {
		return r.ShouldRecheckEmpty(scan)
	}
	return scan.Age > 0 && scan.Age >= s.Policy().EmptyRecheck
}
