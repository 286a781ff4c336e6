package config

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"runtime"
)

// EnvIndexDir overrides where search indexes are kept (gopi index).
const EnvIndexDir = "GOPI_INDEX_DIR"

// Indexes is where the search indexes (gopi index) are kept.
type Indexes struct {
	// Root is the directory holding every tree's search index.
	Root string
}

// Index returns where search indexes live: $GOPI_INDEX_DIR, else
// gopi/index under the user's cache directory ($XDG_CACHE_HOME, else
// ~/.cache; ~/Library/Caches on macOS, %LocalAppData% on Windows).
func (c *Config) Index() Indexes {
	if d := c.Env.Get(EnvIndexDir); d != "" {
		return Indexes{Root: d}
	}
	cache := c.Env.Get("XDG_CACHE_HOME")
	if cache == "" || !filepath.IsAbs(cache) {
		switch runtime.GOOS {
		case "darwin":
			cache = filepath.Join(c.Home, "Library", "Caches")
		case "windows":
			cache = c.Env.Get("LocalAppData")
		default:
			cache = filepath.Join(c.Home, ".cache")
		}
	}
	return Indexes{Root: filepath.Join(cache, "gopi", "index")}
}

// Dir is where the search index of the tree at root (absolute and clean)
// lives: Root/<16 hex digits of the root's SHA-256>.
func (x Indexes) Dir(root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(x.Root, hex.EncodeToString(sum[:8]))
}
