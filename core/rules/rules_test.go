package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func dirs(t *testing.T) config.Dirs {
	root := t.TempDir()
	home, cwd := filepath.Join(root, "home"), filepath.Join(root, "proj", "sub")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	return config.ResolveDirs(func(string) string { return "" }, home, cwd)
}

func TestDiscoverBucketsAndPriority(t *testing.T) {
	d := dirs(t)
	// Buckets.
	write(t, filepath.Join(d.ProjectDir, "rules", "ttsr.md"), "---\ncondition: \"console\\\\.log\"\nalwaysApply: true\ndescription: no logging\n---\nDo not log.\n")
	write(t, filepath.Join(d.ProjectDir, "rules", "always.mdc"), "---\nalwaysApply: true\ndescription: both\n---\nAlways text.\n")
	write(t, filepath.Join(d.ProjectDir, "rules", "book.md"), "---\ndescription: Go style\nglobs: [\"*.go\"]\n---\nBook text.\n")
	write(t, filepath.Join(d.ProjectDir, "rules", "unused.md"), "No front matter, no description.\n")
	write(t, filepath.Join(d.ProjectDir, "rules", "legacy.md"), "---\nttsr_trigger: TODO\n---\nNo TODOs.\n")
	// Priority: native beats cursor beats cline; project gopi beats user.
	write(t, filepath.Join(d.AgentDir, "rules", "book.md"), "---\ndescription: user copy\n---\nuser\n")
	write(t, filepath.Join(d.OMPAgentDir, "rules", "omp-only.md"), "---\ndescription: from omp\n---\nomp\n")
	write(t, filepath.Join(d.Cwd, ".cursor", "rules", "book.mdc"), "---\ndescription: cursor copy\n---\ncursor\n")
	write(t, filepath.Join(d.Cwd, ".cursor", "rules", "cur.mdc"), "---\ndescription: cursor rule\nglobs: *.ts, *.tsx\n---\ncursor\n")
	write(t, filepath.Join(d.Home, ".codeium", "windsurf", "memories", "global_rules.md"), "---\nalwaysApply: true\n---\nWindsurf global.\n")
	write(t, filepath.Join(filepath.Dir(d.Cwd), ".clinerules", "cur.md"), "---\ndescription: cline copy\n---\ncline\n")
	write(t, filepath.Join(filepath.Dir(d.Cwd), ".clinerules", "cl.md"), "---\ndescription: cline rule\n---\ncline\n")
	// Broken front matter: loads, reported with its file.
	write(t, filepath.Join(d.ProjectDir, "rules", "broken.md"), "---\ndescription: still read\nglobs: [x\n---\nBroken body.\n")

	set, warns := Discover(d.RuleDirs())
	names := func(l []*Rule) string {
		var n []string
		for _, r := range l {
			n = append(n, r.Name)
		}
		return strings.Join(n, ",")
	}
	if got := names(set.TTSR); got != "legacy,ttsr" {
		t.Errorf("TTSR = %s", got)
	}
	if got := names(set.AlwaysApply); got != "always,global_rules" {
		t.Errorf("alwaysApply = %s", got)
	}
	if got := names(set.Rulebook); got != "book,broken,omp-only,cur,cl" {
		t.Errorf("rulebook = %s", got)
	}
	if r, _ := set.Get("book"); r == nil || r.Description != "Go style" || r.Globs[0] != "*.go" {
		t.Errorf("book = %+v", r)
	}
	if r, _ := set.Get("cur"); r == nil || r.Provider != config.ProviderCursor || strings.Join(r.Globs, "|") != "*.ts|*.tsx" {
		t.Errorf("cur = %+v, want cursor's", r)
	}
	var joined string
	for _, w := range warns {
		joined += w.Error() + "\n"
	}
	for _, frag := range []string{"broken.md: front matter is not valid YAML", "shadowed by " + filepath.Join(d.ProjectDir, "rules", "book.md")} {
		if !strings.Contains(joined, frag) {
			t.Errorf("warnings lack %q:\n%s", frag, joined)
		}
	}

	// rule:// serves the rulebook and always-apply rules only.
	if c, f, err := set.Read("rule://book"); err != nil || c != "Book text." || f != filepath.Join(d.ProjectDir, "rules", "book.md") {
		t.Errorf("rule://book = %q %q %v", c, f, err)
	}
	if c, _, err := set.Read("rule://always"); err != nil || c != "Always text." {
		t.Errorf("rule://always = %q %v", c, err)
	}
	for _, u := range []string{"rule://ttsr", "rule://unused", "rule://nope"} {
		if _, _, err := set.Read(u); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "book") {
			t.Errorf("%s: err = %v", u, err)
		}
	}
}

func TestClineSingleFile(t *testing.T) {
	d := dirs(t)
	write(t, filepath.Join(d.Cwd, ".clinerules"), "---\ndescription: single\n---\nOne file.\n")
	set, _ := Discover(d.RuleDirs())
	if r, ok := set.Get("clinerules"); !ok || r.Content != "One file." {
		t.Errorf("clinerules = %+v", r)
	}
}
