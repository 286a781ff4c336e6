package prompt

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkBuild measures building the system prompt, the start-up cost
// of every run (target: well under the 15 ms gopi -p may take to its first
// request byte):
//
//   - fixture: the golden-test repository (four context files);
//   - repo: this repository, from core/prompt, without git status;
//   - repo+status: the same with a bounded `git status` (the only
//     external program Build may run).
func BenchmarkBuild(b *testing.B) {
	root := extract(b, "testdata/fixture.txtar")
	cwd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	repo := Options{Cwd: cwd, Home: home, Shell: "/bin/bash", Tools: builtinNames}
	withStatus := repo
	withStatus.GitStatusTimeout = time.Second
	cases := []struct {
		name string
		opts Options
		need string // a program the case runs
	}{
		{"fixture", fixtureOptions(root), ""},
		{"repo", repo, ""},
		{"repo+status", withStatus, "git"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			if c.need != "" {
				if _, err := exec.LookPath(c.need); err != nil {
					b.Skip(c.need, "is not installed")
				}
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(ctx, c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDiscover measures context-file discovery alone, from a
// directory 25 levels deep with no repository: the longest walk (21
// levels, every configuration directory and standalone name tried).
func BenchmarkDiscover(b *testing.B) {
	root, _ := filepath.EvalSymlinks(b.TempDir())
	cwd := root
	for range 25 {
		cwd = filepath.Join(cwd, "d")
	}
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "d", "AGENTS.md"), []byte("top"), 0o644)
	opts := DiscoverOptions{Cwd: cwd, Home: root, RepoRoot: ""}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DiscoverContextFiles(opts); err != nil {
			b.Fatal(err)
		}
	}
}
