package usagestats

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// fileStats are the sums of one session file, as the cache keeps them.
type fileStats struct {
	Size, MTime int64  // the file when it was read (MTime in Unix nanoseconds)
	Session     bool   // it starts with a session header
	Unreadable  bool   // it could not be read (never cached)
	Why         string // why it could not be read
	Folder      string
	Models      []modelStats
	Tools       map[string]int64
}

// modelStats are one model's sums in a file.
type modelStats struct {
	Key    ModelKey
	Totals Totals
}

// model returns the sums of key in f, added when missing.
func (f *fileStats) model(key ModelKey) *Totals {
	for i := range f.Models {
		if f.Models[i].Key == key {
			return &f.Models[i].Totals
		}
	}
	f.Models = append(f.Models, modelStats{Key: key})
	return &f.Models[len(f.Models)-1].Totals
}

// cacheVersion changes whenever what a file's sums hold changes: an
// older cache is then read afresh.
const cacheVersion = 1

// cacheFile is the cache's content.
type cacheFile struct {
	Version int
	Files   map[string]fileStats
}

// loadCache reads the cache; nil when it is missing, unreadable or of
// another version.
func loadCache(path string) map[string]fileStats {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var c cacheFile
	if gob.NewDecoder(bytes.NewReader(b)).Decode(&c) != nil || c.Version != cacheVersion {
		return nil
	}
	return c.Files
}

// saveCache writes the sums of the readable files found.
func saveCache(path string, files []found, results []fileStats) error {
	c := cacheFile{Version: cacheVersion, Files: make(map[string]fileStats, len(files))}
	for i, f := range files {
		if !results[i].Unreadable && f.size >= 0 {
			c.Files[f.path] = results[i]
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&c); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes(), 0o600)
}
