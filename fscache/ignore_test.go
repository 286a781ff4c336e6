package fscache

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates files (slash paths, parents made as needed) under root.
// A path ending in "/" makes an empty directory.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// git runs git with a configuration that needs nothing from the user.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "init.defaultBranch=main", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

// walkFiles returns the sorted regular-file paths of a walk.
func walkFiles(t *testing.T, root string, opts Options) []string {
	t.Helper()
	es, err := walkTree(context.Background(), root, opts, false, testExcludes())
	if err != nil {
		t.Fatalf("Walk(%s): %v", root, err)
	}
	var files []string
	for _, e := range es {
		if e.Type == TypeFile {
			files = append(files, e.Path)
		}
	}
	slices.Sort(files)
	return files
}

// TestGitignoreOracle checks the walk's ignore handling against git itself:
// for each fixture, the files Walk keeps (hidden included, gitignore on) must
// be exactly the untracked, non-ignored files git lists.
func TestGitignoreOracle(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := []struct {
		name    string
		files   map[string]string // repository content, relative to the repo root
		scan    string            // scan root below the repo root; "" is the root
		exclude string            // .git/info/exclude
		global  string            // global excludes at the default XDG location
		config  string            // ~/.gitconfig content; may name another excludes file
		homeIgn map[string]string // extra files under $HOME
	}{
		{name: "deeper file overrides shallower", files: map[string]string{
			".gitignore": "*.log\n", "a.log": "", "x.txt": "",
			"sub/.gitignore": "!keep.log\n", "sub/keep.log": "", "sub/other.log": "",
			"sub/deep/keep.log": "", "sub/deep/.gitignore": "keep.log\n",
		}},
		{name: "three levels", files: map[string]string{
			".gitignore": "*.gen\n", "1.gen": "",
			"a/.gitignore": "!*.gen\n", "a/2.gen": "",
			"a/b/.gitignore": "x.gen\n", "a/b/x.gen": "", "a/b/y.gen": "",
		}},
		{name: "directory-only rule", files: map[string]string{
			".gitignore": "build/\n", "build/x": "", "src/build": "", "deep/er/build/z": "", "src/builds/y": "",
		}},
		{name: "anchored rules", files: map[string]string{
			".gitignore": "/top.txt\n/gen\n", "top.txt": "", "sub/top.txt": "", "gen/a": "", "sub/gen/b": "",
		}},
		{name: "anchored wildcard stays at its level", files: map[string]string{
			".gitignore": "/a*\n!/abc/\n", "abc/def": "", "abc/axe": "", "abx": "", "sub/ab": "",
		}},
		{name: "rule with inner slash", files: map[string]string{
			".gitignore": "doc/*.txt\n", "doc/a.txt": "", "doc/b.md": "", "doc/sub/c.txt": "", "x/doc/a.txt": "",
		}},
		{name: "double star", files: map[string]string{
			".gitignore": "**/tmp/\nlogs/**\n!logs/keep.txt\na/**/z.c\n**/foo.txt\n",
			"tmp/1":      "", "q/tmp/2": "", "q/tmpx/3": "",
			"logs/keep.txt": "", "logs/d.txt": "", "logs/sub/e.txt": "",
			"a/z.c": "", "a/b/c/z.c": "", "a/b/y.c": "", "b/a/z.c": "",
			"foo.txt": "", "x/y/foo.txt": "", "x/y/foo.txt2": "",
		}},
		{name: "trailing double star directory-only", files: map[string]string{
			".gitignore": "vendor/**/\n", "vendor/a": "", "vendor/d/b": "", "vendor/d/e/c": "",
		}},
		{name: "excluded directory cannot be re-included into", files: map[string]string{
			".gitignore": "out/\n!out/keep\n", "out/keep": "", "out/x": "", "keep": "",
		}},
		{name: "directory content with negation", files: map[string]string{
			".gitignore": "cache/*\n!cache/keep\n", "cache/keep": "", "cache/x": "", "cache/sub/y": "",
		}},
		{name: "name rule matches directories anywhere", files: map[string]string{
			".gitignore": "node_cache\n", "node_cache/x": "", "a/node_cache/y": "", "a/node_cache.txt": "",
		}},
		{name: "classes, escapes and spaces", files: map[string]string{
			".gitignore": "[abc].c\n[!x]y.z\n\\#hash\n\\!bang\nq?.md\nsp.txt   \n# comment\n\n",
			"a.c":        "", "d.c": "", "ay.z": "", "xy.z": "", "#hash": "", "!bang": "", "q1.md": "", "q12.md": "", "sp.txt": "",
		}},
		{name: "info/exclude below .gitignore", files: map[string]string{
			".gitignore": "!keep.secret\n", "a.secret": "", "keep.secret": "", "ex-only.txt": "", "d/ex-only.txt": "",
		}, exclude: "*.secret\nex-only.txt\n"},
		{name: "global excludes below info/exclude", files: map[string]string{
			".gitignore": "!b.bak\n", "a.bak": "", "b.bak": "", "c.bak": "", "d/e.bak": "",
		}, exclude: "!c.bak\n", global: "*.bak\n"},
		{name: "core.excludesFile in ~/.gitconfig", files: map[string]string{
			"a.tmp": "", "b.txt": "", "sub/c.tmp": "",
		}, config: "[user]\n\tname = x\n[core]\n\texcludesFile = ~/my-ignore\n", homeIgn: map[string]string{"my-ignore": "*.tmp\n"}},
		{name: "gitignore above the scan root", scan: "sub", files: map[string]string{
			".gitignore": "*.o\n/sub/anchored.txt\nsub/deep/\n/root-only.txt\n",
			"sub/a.o":    "", "sub/anchored.txt": "", "sub/deep/x": "", "sub/root-only.txt": "", "sub/x/anchored.txt": "", "sub/ok.txt": "",
		}},
		{name: "two gitignores above the scan root", scan: "mid/inner", files: map[string]string{
			".gitignore": "*.a\n!keep.a\n", "mid/.gitignore": "keep.a\ninner/z/\n/inner/only.txt\n",
			"mid/inner/x.a": "", "mid/inner/keep.a": "", "mid/inner/z/1": "", "mid/inner/only.txt": "", "mid/inner/y/only.txt": "",
		}, exclude: "*.ex\n", global: "*.gl\n"},
		{name: "exclude and global above the scan root", scan: "s", files: map[string]string{
			"s/a.ex": "", "s/b.gl": "", "s/c.txt": "", "s/t/d.ex": "",
		}, exclude: "*.ex\n", global: "*.gl\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			home := filepath.Join(tmp, "home")
			xdg := filepath.Join(tmp, "xdg")
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", xdg)
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			writeTree(t, home, tc.homeIgn)
			if tc.config != "" {
				writeTree(t, home, map[string]string{".gitconfig": tc.config})
			}
			if tc.global != "" {
				writeTree(t, xdg, map[string]string{"git/ignore": tc.global})
			}
			repo := filepath.Join(tmp, "repo")
			git(t, tmp, "init", "-q", repo)
			writeTree(t, repo, tc.files)
			if tc.exclude != "" {
				writeTree(t, repo, map[string]string{".git/info/exclude": tc.exclude})
			}
			scan := filepath.Join(repo, filepath.FromSlash(tc.scan))

			var want []string
			for _, l := range strings.Split(git(t, scan, "ls-files", "--others", "--exclude-standard"), "\n") {
				if l != "" {
					want = append(want, strings.Trim(l, `"`))
				}
			}
			slices.Sort(want)
			got := walkFiles(t, scan, Options{Hidden: true, Gitignore: true})
			if !slices.Equal(got, want) {
				t.Errorf("walk and git disagree\n walk: %q\n  git: %q", got, want)
			}
		})
	}
}

// TestDotIgnoreOutsideGit checks that .ignore files apply without a
// repository (also from above the scan root) while .gitignore files do not.
func TestDotIgnoreOutsideGit(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "xdg"))
	writeTree(t, tmp, map[string]string{
		"top/.ignore":             "*.up\n",
		"top/root/.ignore":        "*.skip\n!keep.skip\n",
		"top/root/.gitignore":     "*.txt\n",
		"top/root/a.txt":          "",
		"top/root/b.skip":         "",
		"top/root/keep.skip":      "",
		"top/root/c.up":           "",
		"top/root/sub/.ignore":    "!c.up\n",
		"top/root/sub/c.up":       "",
		"top/root/sub/d.skip":     "",
		"top/root/.hidden/x.skip": "",
	})
	got := walkFiles(t, filepath.Join(tmp, "top", "root"), Options{Gitignore: true})
	want := []string{"a.txt", "keep.skip", "sub/c.up"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// With Gitignore off nothing is ignored.
	got = walkFiles(t, filepath.Join(tmp, "top", "root"), Options{Hidden: true})
	if len(got) != 10 { // every file under top/root
		t.Errorf("Gitignore off: got %q", got)
	}
}

// TestIgnorePrecedence covers what git cannot check: .ignore beats
// .gitignore, a whitelist un-hides a hidden entry as in ripgrep, and a nested
// repository does not inherit its parent's .gitignore rules.
func TestIgnorePrecedence(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "xdg"))
	writeTree(t, tmp, map[string]string{
		".git/HEAD":           "",
		".gitignore":          "*.log\n!.shown\n",
		".ignore":             "!b.log\n",
		"a.log":               "",
		"b.log":               "",
		".shown":              "",
		".hidden":             "",
		"nested/.git":         "gitdir: ../.git/modules/nested\n",
		"nested/c.log":        "",
		"nested/.gitignore":   "*.tmp\n",
		"nested/d.tmp":        "",
		"nested/deeper/e.tmp": "",
	})
	got := walkFiles(t, tmp, Options{Gitignore: true})
	want := []string{".shown", "b.log", "nested/c.log"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestNormalizeRules pins the rewrites applied before parsing.
func TestNormalizeRules(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a/**":             "a/**/*",
		"a/**/":            "a/**/*/",
		"!a/**  ":          "!a/**/*",
		"x\r\ny\r\n":       "x\ny\n",
		"# c/**":           "# c/**",
		"**/a\nb/**\nc\n":  "**/a\nb/**/*\nc\n",
		"plain\n":          "plain\n",
		"a/**/b\r\n":       "a/**/b\n",
		"/**\n":            "/**/*\n",
		"keep/** \\ \nz\n": "keep/** \\ \nz\n",
	} {
		if got := string(normalizeRules([]byte(in))); got != want {
			t.Errorf("normalizeRules(%q) = %q, want %q", in, got, want)
		}
	}
}

// testExcludes is the global excludes file git would use in this test: the
// tests point HOME and XDG_CONFIG_HOME (read here, by the test, as git and
// rg read them) at fixture directories.
func testExcludes() string {
	return GlobalExcludesPath(os.Getenv("HOME"), os.Getenv("XDG_CONFIG_HOME"))
}

// TestCacheAppliesPolicyExcludesFile checks that the global excludes file
// comes from the cache's policy (the package reads no environment).
func TestCacheAppliesPolicyExcludesFile(t *testing.T) {
	tmp := t.TempDir()
	writeTree(t, tmp, map[string]string{
		"ignore":         "*.gl\n",
		"repo/.git/HEAD": "",
		"repo/a.gl":      "",
		"repo/b.txt":     "",
	})
	root := filepath.Join(tmp, "repo")
	files := func(s *Scan) []string {
		var out []string
		for _, e := range s.Entries {
			if e.Type == TypeFile {
				out = append(out, e.Path)
			}
		}
		return out
	}
	opts := Options{Gitignore: true}
	with := New(Policy{ExcludesFile: filepath.Join(tmp, "ignore"), MaxEntries: 1})
	s, err := with.GetOrScan(context.Background(), root, opts)
	if err != nil || !slices.Equal(files(s), []string{"b.txt"}) {
		t.Fatalf("with excludes: %v %v", files(s), err)
	}
	s, err = with.WalkTypes(context.Background(), root, opts)
	if err != nil || !slices.Equal(files(s), []string{"b.txt"}) {
		t.Fatalf("WalkTypes with excludes: %v %v", files(s), err)
	}
	es, err := Walk(context.Background(), root, opts)
	if err != nil || len(es) != 2 {
		t.Fatalf("Walk applies no global excludes: %v %v", es, err)
	}
}
