package index

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
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
	// ids maps the paths of files to their ids (nil until a refresh
	// with a hint needs it), kept up to date by keep.
	ids map[string]int64
	// old is the list the copy replaced, whose array the next refresh
	// fills (86,000 records of the kernel tree are 6 MB a refresh would
	// otherwise allocate, and the collector then scan).
	old []fileRecord
}

// spare is an empty list with room for n records, for a refresh to fill:
// the array of the list the copy replaced when there is one (never the
// copy's own).
func (c *listCache) spare(n int) []fileRecord {
	if c == nil || cap(c.old) < n {
		return make([]fileRecord, 0, n)
	}
	return c.old[:0]
}

// suspects are the ids (ascending) of the recorded files a watcher's
// hint names, when known is the copy (nil otherwise, or without a hint:
// the caller looks every path up in the hint).
func (c *listCache) suspects(known []fileRecord, hint *changeHint) []int64 {
	if c == nil || hint == nil || len(known) == 0 || len(c.files) != len(known) || &c.files[0] != &known[0] {
		return nil
	}
	if c.ids == nil {
		c.ids = make(map[string]int64, len(known))
		for i := range known {
			c.ids[known[i].path] = known[i].id
		}
	}
	sus := []int64{}
	for p := range hint.files {
		if id, ok := c.ids[p]; ok {
			sus = append(sus, id)
		}
	}
	slices.Sort(sus)
	return sus
}

// lists returns the index's lists: the copy when it matches gen (the
// generation the index holds), else as read from db.
func (c *listCache) lists(ctx context.Context, db querier, gen string) ([]fileRecord, []dirState, error) {
	if c != nil && c.gen != "" && c.gen == gen {
		return c.files, c.dirs, nil
	}
	if c != nil {
		c.ids = nil // of the copy: built again for the lists read
	}
	return readLists(ctx, db)
}

// keep records the lists a refresh committed under gen.
func (c *listCache) keep(gen string, files []fileRecord, dirs []dirState) {
	if c == nil {
		return
	}
	if c.ids != nil {
		// The records dropped leave the path index, then the new ones
		// (a changed file's new id among them) enter it.
		before, i := c.files, 0
		var added []*fileRecord
		for j := range files {
			for i < len(before) && before[i].id < files[j].id {
				delete(c.ids, before[i].path)
				i++
			}
			if i < len(before) && before[i].id == files[j].id {
				if before[i].path != files[j].path { // never within one refresh (new ids follow all recorded ones); cheap to honour
					delete(c.ids, before[i].path)
					added = append(added, &files[j])
				}
				i++
			} else {
				added = append(added, &files[j])
			}
		}
		for ; i < len(before); i++ {
			delete(c.ids, before[i].path)
		}
		for _, f := range added {
			c.ids[f.path] = f.id
		}
	}
	if len(c.files) > 0 && len(files) > 0 && &c.files[:1][0] != &files[:1][0] {
		c.old = c.files
	}
	c.gen, c.files, c.dirs = gen, files, dirs
}

// newGeneration is a token naming one state of an index's lists.
func newGeneration() string {
	b := make([]byte, 12)
	rand.Read(b) // never fails (crypto/rand's contract since Go 1.24)
	return hex.EncodeToString(b)
}
