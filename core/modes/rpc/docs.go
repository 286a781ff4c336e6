package rpc

import (
	"maps"
	"slices"
)

// CommandNames lists every command type the RPC server accepts, sorted,
// from the table it dispatches on (for gopi's generated documentation,
// docs/rpc.md).
func CommandNames() []string { return slices.Sorted(maps.Keys(commands)) }
