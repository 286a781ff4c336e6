package config

import (
	"os"
	"path/filepath"
	"testing"
)

// fixture is a fake home directory and project for Load: HOME points at
// home, the working directory is cwd, and nothing of the real user's
// configuration is read.
type fixture struct {
	t         *testing.T
	root      string   // temporary directory holding home/ and work/
	home, cwd string   // home directory and working directory
	environ   []string // the process environment Load sees
}

func newFixture(t *testing.T, environ ...string) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, root: root, home: filepath.Join(root, "home"), cwd: filepath.Join(root, "work", "proj")}
	for _, d := range []string{f.home, f.cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.environ = append([]string{"HOME=" + f.home}, environ...)
	return f
}

// write creates a file below the fixture root ("home/…" or "work/proj/…").
func (f *fixture) write(rel, content string) string {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// read returns a file below the fixture root ("" when missing).
func (f *fixture) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(rel)))
	return string(b)
}

// options returns LoadOptions for the fixture.
func (f *fixture) options() LoadOptions {
	return LoadOptions{Cwd: f.cwd, Environ: f.environ}
}

// load runs Load and fails the test on an error.
func (f *fixture) load() *Config {
	f.t.Helper()
	c, err := Load(f.options())
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// loadTrusted runs Load with the project trusted (as --trust-project).
func (f *fixture) loadTrusted() *Config {
	f.t.Helper()
	o := f.options()
	o.TrustProject = true
	c, err := Load(o)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}
