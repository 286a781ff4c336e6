package extensions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A package.json entry leading outside the extension's directory ("../",
// an absolute path, a symbolic link pointing out) is refused with an
// error naming the entry; the entries inside still load.
func TestManifestEntriesConfined(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := filepath.Join(root, "outside.ts")
	ext := filepath.Join(root, "exts", "pkg")
	if err := os.MkdirAll(ext, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{outside, filepath.Join(ext, "inside.ts")} {
		if err := os.WriteFile(f, []byte("export default function () {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(ext, "link.ts")); err != nil {
		t.Fatal(err)
	}
	manifest := `{"omp":{"extensions":["./inside.ts","../../outside.ts","` + outside + `","link.ts"]}}`
	if err := os.WriteFile(filepath.Join(ext, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []Sources{
		{Cwd: root, Paths: []string{ext}, NoDiscovery: true},                  // named on the command line
		{Cwd: t.TempDir(), AgentDirs: []string{filepath.Join(root, "agent")}}, // discovered
	} {
		if len(src.AgentDirs) > 0 {
			if err := os.MkdirAll(filepath.Join(src.AgentDirs[0], "extensions"), 0o755); err != nil {
				t.Fatal(err)
			}
			_ = os.Symlink(ext, filepath.Join(src.AgentDirs[0], "extensions", "pkg"))
		}
		entries, errs := Resolve(src)
		if len(entries) != 1 || filepath.Base(entries[0].Path) != "inside.ts" {
			t.Errorf("entries = %+v", entries)
		}
		if len(errs) != 3 {
			t.Fatalf("errors = %v", errs)
		}
		for i, want := range []string{"leads outside the directory", "is an absolute path", "symbolic link leading outside"} {
			if !strings.Contains(errs[i].Error(), want) || !strings.Contains(errs[i].Error(), "list files inside the extension's directory") {
				t.Errorf("error %d = %v", i, errs[i])
			}
		}
	}
}
