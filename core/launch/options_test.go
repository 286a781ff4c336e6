package launch

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOtherProject(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	link := filepath.Join(dir, "link")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		session, cwd string
		want         bool
	}{
		{"", real, false},
		{real, real + "/", false},
		{link, real, false},
		{real, dir, true},
		{filepath.Join(dir, "gone"), real, true},
	} {
		if got := otherProject(c.session, c.cwd); got != c.want {
			t.Errorf("otherProject(%q, %q) = %v", c.session, c.cwd, got)
		}
	}
}

// --no-lsp is lsp.enabled false for the run.
func TestNoLSPOverride(t *testing.T) {
	if v, ok := (&Request{NoLSP: true}).overrides()["lsp.enabled"]; !ok || v != false {
		t.Fatalf("%v %v", v, ok)
	}
	if _, ok := (&Request{}).overrides()["lsp.enabled"]; ok {
		t.Fatal("set without the flag")
	}
}
