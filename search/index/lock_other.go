//go:build !unix

package index

import "context"

// lockBuilder does not lock where flock is missing: two builders each
// build, and the last rename wins (each result is a whole index).
func lockBuilder(context.Context, string) (func(), error) { return func() {}, nil }

// lockWatcher does not lock where flock is missing: a second watcher
// runs too (both keep the index fresh).
func lockWatcher(string) (func(), error) { return func() {}, nil }

// lockIsExclusive: without flock another builder may be writing its
// temporary file, so none is removed.
const lockIsExclusive = false
