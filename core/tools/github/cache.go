package github

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// cacheVersion is the format of a cache entry file; entries of another
// version are ignored (fetched anew).
const cacheVersion = 1

// cacheEntry is one cached view: the rendered text and gh's raw JSON.
type cacheEntry struct {
	Version   int             `json:"version"`
	Key       string          `json:"key"`       // what the entry is for, e.g. "issue owner/repo#12 comments"
	FetchedAt time.Time       `json:"fetchedAt"` // when gh answered
	Text      string          `json:"text"`      // the view read returns
	Raw       json.RawMessage `json:"raw,omitempty"`
}

// diskCache keeps views as one JSON file per key in dir, each replaced
// atomically. A zero dir keeps nothing.
type diskCache struct{ dir string }

// path is the file of key.
func (c diskCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:16])+".json")
}

// get returns the entry of key, if there is a readable one.
func (c diskCache) get(key string) (*cacheEntry, bool) {
	if c.dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Version != cacheVersion || e.Key != key {
		return nil, false
	}
	return &e, true
}

// put stores e; failures only cost a later refetch.
func (c diskCache) put(e *cacheEntry) {
	if c.dir == "" {
		return
	}
	e.Version = cacheVersion
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	if os.MkdirAll(c.dir, 0o700) != nil {
		return
	}
	_ = atomicfile.WriteFile(c.path(e.Key), data, 0o600)
}
