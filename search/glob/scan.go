package glob

import "github.com/gopi-agent/gopi/fscache"

// rootResolver is a scanner that resolves search roots itself: tests' fake
// scanners, which serve made-up roots.
type rootResolver interface {
	resolveRoot(root string) (string, error)
}

// resolveRoot validates and canonicalises the search root: through s when
// it resolves roots itself, with fscache.ResolveSearchPath otherwise. The
// cache contract itself (opt-in, the empty-result recheck) is
// fscache.Lookup's.
func resolveRoot(s fscache.Scanner, root string) (string, error) {
	if r, ok := s.(rootResolver); ok {
		return r.resolveRoot(root)
	}
	return fscache.ResolveSearchPath(root)
}
