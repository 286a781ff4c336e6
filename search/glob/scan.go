package glob

import (
	"context"

	"github.com/gopi-agent/gopi/fscache"
)

// Scanner is the part of *fscache.Cache the engine uses. Tests substitute
// a fake; production code uses fscache.Default().
type Scanner interface {
	GetOrScan(ctx context.Context, root string, opts fscache.Options) (*fscache.Scan, error)
	ForceRescan(ctx context.Context, root string, opts fscache.Options, store bool) (*fscache.Scan, error)
	Policy() fscache.Policy
}

// Hooks replaced by tests. resolveRoot validates and canonicalises the
// search root; defaultScanner supplies the shared cache.
var (
	resolveRoot    = fscache.ResolveSearchPath
	defaultScanner = func() Scanner { return fscache.Default() }
)

// scanner drives the cache contract for one call: Cache=false always walks
// afresh without storing; Cache=true reuses a cached scan, and if filtering
// it yields nothing while the scan is at least Policy().EmptyRecheck old,
// rescans once (storing the fresh scan) so files created since are found.
type scanner struct {
	s     Scanner
	root  string
	opts  fscache.Options
	cache bool
}

// first returns the initial scan.
func (sc *scanner) first(ctx context.Context) (*fscache.Scan, error) {
	if !sc.cache {
		return sc.s.ForceRescan(ctx, sc.root, sc.opts, false)
	}
	return sc.s.GetOrScan(ctx, sc.root, sc.opts)
}

// recheck returns a fresh scan when an empty result from scan may be a
// stale negative, or nil when the empty result stands.
func (sc *scanner) recheck(ctx context.Context, scan *fscache.Scan) (*fscache.Scan, error) {
	if !sc.cache || !staleNegative(sc.s, scan) {
		return nil, nil
	}
	return sc.s.ForceRescan(ctx, sc.root, sc.opts, true)
}

// staleNegative defers to the cache's own rule (fscache's
// ShouldRecheckEmpty) when the scanner has one; otherwise a scan counts as
// stale once it came from the cache at least Policy().EmptyRecheck ago.
func staleNegative(s Scanner, scan *fscache.Scan) bool {
	if r, ok := s.(interface{ ShouldRecheckEmpty(*fscache.Scan) bool }); ok {
		return r.ShouldRecheckEmpty(scan)
	}
	return scan.Age > 0 && scan.Age >= s.Policy().EmptyRecheck
}
