package index

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

// listCache is a watcher's decoded copy of its index's file and
// directory lists, so that a refresh of a few files neither reads nor
// decodes the whole list (2.4 MB for the kernel tree, ~40 ms a refresh).
// It is current while the index's meta generation is the one the
// watcher's last refresh wrote; any other writer (a build, a refresh by
// another process) writes another one, or none, and the copy is read
// again.
type listCache struct {
	gen   string       // the generation the copy matches ("": none)
	files []fileRecord // ascending ids
	dirs  []dirState
}

// lists returns the index's lists: the copy when it matches gen (the
// generation the index holds), else as read from db.
func (c *listCache) lists(ctx context.Context, db querier, gen string) ([]fileRecord, []dirState, error) {
	if c != nil && c.gen != "" && c.gen == gen {
		return c.files, c.dirs, nil
	}
	return readLists(ctx, db)
}

// keep records the lists a refresh committed under gen.
func (c *listCache) keep(gen string, files []fileRecord, dirs []dirState) {
	if c != nil {
		c.gen, c.files, c.dirs = gen, files, dirs
	}
}

// newGeneration is a token naming one state of an index's lists.
func newGeneration() string {
	b := make([]byte, 12)
	rand.Read(b) // never fails (crypto/rand's contract since Go 1.24)
	return hex.EncodeToString(b)
}
