package plugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sleeper links /bin/sleep under a name of its own in dir, so that a test
// can tell its processes from every other sleep, and returns the path.
func sleeper(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Symlink("/bin/sleep", p); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitRunning waits (10 s at most) until a live process started as prog
// exists (want) or none does, failing with what it waited for.
func waitRunning(t *testing.T, prog string, want bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); running(prog) != want; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s (%s)", what, prog)
		}
	}
}

// running reports whether a live (not zombie) process was started as
// prog; it reads /proc, so elsewhere it never finds one.
func running(prog string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.HasPrefix(string(b), prog+"\x00") {
			if st, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stat")); err == nil && !strings.Contains(string(st), ") Z ") {
				return true
			}
		}
	}
	return false
}
