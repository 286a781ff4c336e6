// Package testcache names the directory scripts/setup.sh installs test
// dependencies into (language servers, debug adapters, MCP servers,
// Python packages), so every test helper looks in the same place.
package testcache

import (
	"os"
	"path/filepath"
)

// Dir is the test dependency cache: $GOPI_TEST_CACHE, else
// ~/.cache/gopi-test (the default of scripts/setup.sh).
func Dir() string {
	if d := os.Getenv("GOPI_TEST_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "gopi-test")
}
