package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveInput(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	os.MkdirAll(filepath.Join(home, "p"), 0o755)
	os.WriteFile(filepath.Join(dir, "rel.md"), []byte("from a relative path\n"), 0o644)
	os.WriteFile(filepath.Join(home, "p", "home.md"), []byte("from home"), 0o644)
	abs := filepath.Join(dir, "abs.md")
	os.WriteFile(abs, []byte("from an absolute path"), 0o644)

	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Be terse.", "Be terse."},
		{"rel.md", "from a relative path\n"},
		{abs, "from an absolute path"},
		{"~/p/home.md", "from home"},
		{"missing.md", "missing.md"},                           // not a file: the text itself
		{"home", "home"},                                       // a directory: the text itself
		{"rel.md\nand more", "rel.md\nand more"},               // several lines are always text
		{strings.Repeat("x", 5000), strings.Repeat("x", 5000)}, // too long for a file name
	} {
		got, err := ResolveInput(c.in, dir, home)
		if err != nil || got != c.want {
			t.Errorf("ResolveInput(%.40q) = %.40q, %v; want %.40q", c.in, got, err, c.want)
		}
	}

	if os.Getuid() == 0 {
		return // root reads unreadable files
	}
	secret := filepath.Join(dir, "secret.md")
	os.WriteFile(secret, []byte("x"), 0o000)
	if _, err := ResolveInput(secret, dir, home); err == nil || !strings.Contains(err.Error(), secret) {
		t.Errorf("unreadable file: %v", err)
	}
}
