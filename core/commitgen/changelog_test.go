package commitgen

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestApplyChangelog(t *testing.T) {
	content := "# Changelog\n\n## [Unreleased]\n\n### Fixed\n- Fixed a crash on empty input\n\n### Custom\n- Kept\n\n## [1.0.0] - 2026-01-01\n\n### Added\n- First release\n"
	u, err := ParseUnreleased(content)
	if err != nil || u.Start != 2 || u.End != 10 || !reflect.DeepEqual(u.Entries, map[string][]string{"Fixed": {"Fixed a crash on empty input"}, "Custom": {"Kept"}}) {
		t.Fatalf("%+v %v", u, err)
	}
	got := ApplyChangelog(content, u, map[string][]string{"Added": {"Added --dry-run"}, "Fixed": {"fixed a crash on empty input", "Fixed the exit status"}})
	want := "# Changelog\n\n## [Unreleased]\n\n### Added\n- Added --dry-run\n\n### Fixed\n- Fixed a crash on empty input\n- Fixed the exit status\n\n### Custom\n- Kept\n\n## [1.0.0] - 2026-01-01\n\n### Added\n- First release\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// At the end of the file.
	u, _ = ParseUnreleased("## Unreleased\n")
	if got := ApplyChangelog("## Unreleased\n", u, map[string][]string{"Removed": {"Removed -x"}}); got != "## Unreleased\n\n### Removed\n- Removed -x\n" {
		t.Fatalf("%q", got)
	}
	if _, err := ParseUnreleased("# Changelog\n## 1.0\n"); err != ErrNoUnreleased {
		t.Fatal(err)
	}
}

func TestChangelogFiles(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"CHANGELOG.md", "pkg/a/CHANGELOG.md"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte("## [Unreleased]\n"), 0o644)
	}
	paths, by := ChangelogFiles(root, []string{"pkg/a/x/y.go", "main.go", "pkg/b/z.go", "CHANGELOG.md"})
	if !reflect.DeepEqual(paths, []string{filepath.Join(root, "pkg/a/CHANGELOG.md"), filepath.Join(root, "CHANGELOG.md")}) ||
		!reflect.DeepEqual(by[filepath.Join(root, "CHANGELOG.md")], []string{"main.go", "pkg/b/z.go"}) {
		t.Fatalf("%v %v", paths, by)
	}
}

// Whatever a CHANGELOG.md holds, applying entries never panics, keeps
// the text outside [Unreleased], and the section read back has every
// entry it had plus the new one.
func FuzzChangelog(f *testing.F) {
	for _, s := range []string{
		"# Changelog\n\n## [Unreleased]\n\n### Fixed\n- a\n\n## [1.0]\n- b\n",
		"## Unreleased\n",
		"## [unreleased]\n### Added\n* x\n### Added\n- y\n## 2\n",
		"no section at all\n",
		"## [Unreleased]\n-\n### \n- z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		u, err := ParseUnreleased(content)
		if err != nil {
			return
		}
		got := ApplyChangelog(content, u, map[string][]string{"Added": {"Added the fuzz entry"}})
		again, err := ParseUnreleased(got)
		if err != nil {
			t.Fatalf("the section is gone from %q", got)
		}
		for c, items := range u.Entries {
			if strings.TrimSpace(c) == "" {
				continue
			}
			for _, it := range items {
				if !slices.ContainsFunc(again.Entries[c], func(e string) bool { return strings.EqualFold(e, it) }) {
					t.Fatalf("entry %q of %q lost: %q", it, c, got)
				}
			}
		}
		if !slices.Contains(again.Entries["Added"], "Added the fuzz entry") && !slices.ContainsFunc(again.Entries["Added"], func(e string) bool { return strings.EqualFold(e, "Added the fuzz entry") }) {
			t.Fatalf("new entry missing: %q", got)
		}
	})
}
