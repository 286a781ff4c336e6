package extensions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/tool"
)

// The bundle cache on disk (Options.BundleCacheDir): a bundled script
// kept with the content hash of every file that went into it, so a later
// gopi process loads an unchanged extension without esbuild (the
// engine's compilation of the script is not kept: goja cannot save it).
// One file per entry, named by a hash of the entry's path; a file that is
// unreadable, for another entry, or whose inputs changed is ignored and
// rewritten after the next build.

// diskBundle is one cache file.
type diskBundle struct {
	Entry  string            `json:"entry"`
	Inputs map[string]string `json:"inputs"` // absolute path → hex SHA-256
	Code   string            `json:"code"`
}

// diskPath is the cache file of entry in dir.
func diskPath(dir, entry string) string {
	sum := sha256.Sum256([]byte(entry))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".json")
}

// loadDisk returns entry's cached bundle from dir when its inputs are
// unchanged, and keeps it in memory; nil otherwise.
func loadDisk(dir, entry string) *cached {
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(diskPath(dir, entry))
	if err != nil {
		return nil
	}
	var d diskBundle
	if json.Unmarshal(b, &d) != nil || d.Entry != entry || len(d.Inputs) == 0 {
		return nil
	}
	c := &cached{inputs: map[string][32]byte{}, code: d.Code}
	for p, h := range d.Inputs {
		raw, err := hex.DecodeString(h)
		if err != nil || len(raw) != 32 {
			return nil
		}
		c.inputs[p] = [32]byte(raw)
	}
	if !unchanged(c.inputs) {
		return nil
	}
	cacheMu.Lock()
	cache[entry] = c
	cacheMu.Unlock()
	return c
}

// saveDisk writes entry's bundle to dir (best effort: a cache that cannot
// be written only costs the next start a build).
func saveDisk(dir, entry string, c *cached) {
	if dir == "" || c == nil || c.inputs == nil {
		return
	}
	d := diskBundle{Entry: entry, Inputs: map[string]string{}, Code: c.code}
	for p, h := range c.inputs {
		d.Inputs[p] = hex.EncodeToString(h[:])
	}
	b, err := json.Marshal(d)
	if err != nil || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	_ = tool.WriteFileAtomic(diskPath(dir, entry), b, 0o600)
}
