// Package daptest helps the tests of the debug adapter client and the
// debug tool: it finds the real adapters scripts/setup.sh installs (dlv,
// debugpy) and runs a scripted fake adapter inside the test binary.
package daptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/testcache"
)

// Versions scripts/setup.sh installs.
const (
	DlvVersion     = "v1.27.2"
	DebugpyVersion = "1.8.17"
)

// CacheDir is where scripts/setup.sh installs test dependencies:
// $GOPI_TEST_CACHE, else ~/.cache/gopi-test.
func CacheDir() string { return testcache.Dir() }

// BinDir is the directory of the adapters' executables in the cache
// (dlv, and python with debugpy).
func BinDir() string { return filepath.Join(CacheDir(), "dap", "bin") }

// Dlv returns the path of dlv from the cache (else PATH), skipping the
// test when there is none.
func Dlv(t testing.TB) string {
	t.Helper()
	p := filepath.Join(BinDir(), "dlv")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err := exec.LookPath("dlv"); err == nil {
		return p
	}
	t.Skipf("dlv is not installed: run scripts/setup.sh (make setup), which installs dlv %s into %s", DlvVersion, BinDir())
	return ""
}

// Python returns a python with debugpy from the cache's virtual
// environment, skipping the test when there is none.
func Python(t testing.TB) string {
	t.Helper()
	p := filepath.Join(CacheDir(), "dap", "venv", "bin", "python")
	if _, err := os.Stat(filepath.Join(p)); err == nil {
		if exec.Command(p, "-c", "import debugpy").Run() == nil {
			return p
		}
	}
	t.Skipf("debugpy is not installed: run scripts/setup.sh (make setup), which installs debugpy %s into %s", DebugpyVersion, filepath.Dir(filepath.Dir(p)))
	return ""
}

// Env returns this process's environment with dir first on PATH.
func Env(dir string) []string {
	return append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// LLDBDap returns the directory of an lldb-dap (lldb-dap, or Debian's
// lldb-dap-NN, on PATH or in /usr/lib/llvm-NN/bin) and the path of a C
// compiler, skipping the test when either is missing.
func LLDBDap(t testing.TB) (dir, cc string) {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler (gcc, cc): the lldb-dap test is skipped")
		}
	}
	if p, err := exec.LookPath("lldb-dap"); err == nil {
		return filepath.Dir(p), cc
	}
	for v := 22; v >= 18; v-- {
		if p, err := exec.LookPath("lldb-dap-" + strconv.Itoa(v)); err == nil {
			return filepath.Dir(p), cc
		}
	}
	if m, _ := filepath.Glob("/usr/lib/llvm-*/bin/lldb-dap"); len(m) > 0 {
		return filepath.Dir(m[len(m)-1]), cc
	}
	t.Skip("lldb-dap is not installed: run scripts/setup.sh (make setup), which installs lldb-19 with apt-get where it can")
	return "", ""
}

// Alive reports whether pid is a live process: in /proc, not a zombie,
// and not already exiting (its memory released: a process past that point
// never runs its own code again, it only waits to be reaped). Linux only;
// elsewhere it reports false.
func Alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state), f[20] field 23 (vsize)
	if len(f) < 21 || f[0] == "Z" || f[0] == "X" {
		return false
	}
	return f[20] != "0"
}
