// Package lsptest holds what the tests of the language server client and
// the lsp tool share: finding the real servers scripts/setup.sh installs,
// and a scripted fake server the test binary itself can run.
//
// The fake is the test binary started again with FakeEnv set: a test
// package's TestMain calls RunFakeIfAsked first thing, which serves LSP on
// stdin/stdout in the mode FakeEnv names and exits.
package lsptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/internal/testcache"
)

// SetupCommand is what installs the real servers.
const SetupCommand = "scripts/setup.sh (make)"

// CacheDir is where scripts/setup.sh installs language servers:
// $GOPI_TEST_CACHE/lsp, by default ~/.cache/gopi-test/lsp.
func CacheDir() string {
	return filepath.Join(testcache.Dir(), "lsp")
}

// BinDirs are the directories of the cache that hold server programs.
func BinDirs() []string {
	return []string{filepath.Join(CacheDir(), "bin"), filepath.Join(CacheDir(), "node_modules", ".bin")}
}

// Need returns the path of a server program from the cache or PATH, or
// skips the test naming the server and the command that installs it.
func Need(t testing.TB, program string) string {
	t.Helper()
	for _, d := range BinDirs() {
		p := filepath.Join(d, program)
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	if p, err := exec.LookPath(program); err == nil {
		return p
	}
	t.Skipf("%s is not installed; run %s to install the language servers the tests use", program, SetupCommand)
	return ""
}
