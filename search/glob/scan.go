package glob

import "github.com/gopi-agent/gopi/fscache"

// resolveRoot validates and canonicalises the search root; tests replace
// it so that fake scanners can serve made-up roots. The cache contract
// itself (opt-in, the empty-result recheck) is fscache.Lookup's.
var resolveRoot = fscache.ResolveSearchPath
