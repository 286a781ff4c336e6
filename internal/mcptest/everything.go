package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/internal/testcache"
)

// EverythingPackage is the npm package of the real test server, and
// EverythingVersion the version scripts/setup.sh installs.
const (
	EverythingPackage = "@modelcontextprotocol/server-everything"
	EverythingVersion = "2026.8.31"
)

// CacheDir is where scripts/setup.sh installs test dependencies:
// $GOPI_TEST_CACHE, else ~/.cache/gopi-test.
func CacheDir() string { return testcache.Dir() }

// Everything returns the command and arguments that start the real
// server-everything over stdio. It skips the test when node or npm is
// missing and fails it when npm is there but the package was not
// installed (run scripts/setup.sh, or make setup).
func Everything(t testing.TB) (command string, args []string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the test against a real MCP server from npm is skipped")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: the test against a real MCP server from npm is skipped")
	}
	entry := filepath.Join(CacheDir(), "mcp", "node_modules", filepath.FromSlash(EverythingPackage), "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("%s is not installed in %s: run scripts/setup.sh (make setup) first", EverythingPackage, filepath.Join(CacheDir(), "mcp"))
	}
	return node, []string{entry, "stdio"}
}
