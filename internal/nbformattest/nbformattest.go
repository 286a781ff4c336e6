// Package nbformattest checks notebooks the way Jupyter reads them: with
// Python's json and nbformat (from PyPI, installed by scripts/setup.sh
// into the test cache). Tests that need it skip, naming the setup script,
// where it is not installed.
package nbformattest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/testcache"
)

// Version is the nbformat scripts/setup.sh installs.
const Version = "5.11.1"

// cacheDir is where scripts/setup.sh installs test dependencies:
// $GOPI_TEST_CACHE, else ~/.cache/gopi-test.
func cacheDir() string { return testcache.Dir() }

// Python returns a python that can import nbformat, from the cache's
// virtual environment, skipping the test when there is none.
func Python(t testing.TB) string {
	t.Helper()
	venv := filepath.Join(cacheDir(), "nbformat", "venv")
	p := filepath.Join(venv, "bin", "python")
	if _, err := os.Stat(p); err == nil {
		if exec.Command(p, "-c", "import nbformat").Run() == nil {
			return p
		}
	}
	t.Skipf("nbformat is not installed: run scripts/setup.sh (make setup), which installs nbformat %s into %s", Version, venv)
	return ""
}

// checkScript loads each file named on the command line with json, reads
// it with nbformat (no conversion) and validates it against its schema,
// printing one line per file that fails.
const checkScript = `
import json, sys, warnings
import nbformat
bad = 0
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        nbformat.validate(nb)
    except Exception as e:
        bad += 1
        print(f"{path}: {type(e).__name__}: {e}".replace("\n", " ")[:2000])
sys.exit(1 if bad else 0)
`

// Validate checks that every file opens with json and nbformat and
// validates, failing the test with the reasons of those that do not. One
// Python process checks them all.
func Validate(t testing.TB, files ...string) {
	t.Helper()
	if len(files) == 0 {
		return
	}
	py := Python(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{"-c", checkScript}, files...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Errorf("nbformat refuses notebooks (%v):\n%s", err, strings.TrimSpace(out.String()))
	}
}
