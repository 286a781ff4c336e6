package prompt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// found renders discovered files as "LEVEL DEPTH PATH" lines with paths
// relative to root, for comparison.
func found(files []ContextFile, root string) string {
	var b strings.Builder
	for _, f := range files {
		rel, _ := filepath.Rel(root, f.Path)
		fmt.Fprintf(&b, "%s %d %s\n", f.Level, f.Depth, filepath.ToSlash(rel))
	}
	return b.String()
}

// TestDiscoverContextFiles runs discovery over small trees. Every tree is
// written under a fresh directory; home is root/home unless the case says
// otherwise, and cwd is relative to root.
func TestDiscoverContextFiles(t *testing.T) {
	cases := []struct {
		name  string
		tree  string // txtar files
		cwd   string
		home  string // relative to root; "" means root/home
		dirs  []string
		want  string
		check func(t *testing.T, files []ContextFile)
	}{
		{
			name: "walk up to the repository root, farthest first",
			tree: `
-- AGENTS.md --
above the repository
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md --
root
-- repo/a/AGENTS.md --
a
-- repo/a/b/c/AGENTS.md --
c
`,
			cwd:  "repo/a/b/c",
			want: "project 3 repo/AGENTS.md\nproject 2 repo/a/AGENTS.md\nproject 0 repo/a/b/c/AGENTS.md\n",
		},
		{
			name: "without a repository the walk stops at home",
			tree: `
-- AGENTS.md --
above home
-- home/AGENTS.md --
home
-- home/work/AGENTS.md --
work
`,
			cwd:  "home/work",
			want: "project 1 home/AGENTS.md\nproject 0 home/work/AGENTS.md\n",
		},
		{
			name: "files in hidden directories are skipped",
			tree: `
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md --
root
-- repo/.config/AGENTS.md --
hidden
-- repo/.config/tool/AGENTS.md --
visible
`,
			cwd:  "repo/.config/tool",
			want: "project 2 repo/AGENTS.md\nproject 0 repo/.config/tool/AGENTS.md\n",
		},
		{
			name: "user file first, the highest-priority user directory wins",
			tree: `
-- home/.gopi/agent/AGENTS.md --
gopi user
-- home/.omp/agent/AGENTS.md --
omp user
-- home/.claude/CLAUDE.md --
claude user
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md --
project
`,
			cwd:  "repo",
			want: "user 0 home/.gopi/agent/AGENTS.md\nproject 0 repo/AGENTS.md\n",
		},
		{
			name: "lower user sources fill in when higher ones are missing or empty",
			tree: `
-- home/.gopi/agent/AGENTS.md --

-- home/.gemini/GEMINI.md --
gemini user
-- repo/.git/HEAD --
ref: refs/heads/main
`,
			cwd:  "repo",
			want: "user 0 home/.gemini/GEMINI.md\n",
		},
		{
			name: "one file per level: AGENTS.md over CLAUDE.md, configuration directories over both",
			tree: `
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md --
root agents
-- repo/CLAUDE.md --
root claude
-- repo/sub/CLAUDE.md --
sub claude
-- repo/sub/.claude/CLAUDE.md --
sub .claude
`,
			cwd:  "repo/sub",
			want: "project 1 repo/AGENTS.md\nproject 0 repo/sub/.claude/CLAUDE.md\n",
		},
		{
			name: "configuration directories count at their nearest non-empty ancestor only",
			tree: `
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/.omp/AGENTS.md --
omp at the root: shadowed by the nearer .omp
-- repo/x/.omp/settings.json --
{}
-- repo/x/y/.gopi/AGENTS.md --
gopi config
-- repo/x/y/z/AGENTS.md --
z
`,
			dirs: []string{"repo/x/y/z/.gopi"}, // empty: not the nearest .gopi
			cwd:  "repo/x/y/z",
			want: "project 1 repo/x/y/.gopi/AGENTS.md\nproject 0 repo/x/y/z/AGENTS.md\n",
		},
		{
			name: "identical content is kept once, at its later place",
			tree: `
-- home/.claude/CLAUDE.md --
same rules
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md --
same rules
-- repo/sub/AGENTS.md --
same rules
`,
			cwd:  "repo/sub",
			want: "project 0 repo/sub/AGENTS.md\n",
		},
		{
			name: "working directory equal to home: the user file is not repeated",
			tree: `
-- home/.claude/CLAUDE.md --
claude
`,
			cwd:  "home",
			want: "project 0 home/.claude/CLAUDE.md\n",
		},
		{
			name: "directories and empty files are not context files",
			tree: `
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md/x --
a directory named AGENTS.md
-- repo/CLAUDE.md --
claude
-- repo/sub/AGENTS.md --
   
`,
			cwd:  "repo/sub",
			want: "project 1 repo/CLAUDE.md\n",
		},
		{
			name: "cut to the cap at a line break",
			tree: `
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/AGENTS.md --
` + strings.Repeat("0123456789\n", 3000),
			cwd:  "repo",
			want: "project 0 repo/AGENTS.md\n",
			check: func(t *testing.T, files []ContextFile) {
				f := files[0]
				if !f.Truncated || f.Size != 33000 || len(f.Content) != DefaultMaxContextBytes/11*11 || !strings.HasSuffix(f.Content, "\n") {
					t.Errorf("truncated=%v size=%d content=%d bytes", f.Truncated, f.Size, len(f.Content))
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			writeFiles(t, root, txtar.Parse([]byte(c.tree)).Files)
			for _, d := range c.dirs {
				os.MkdirAll(filepath.Join(root, d), 0o755)
			}
			home := filepath.Join(root, "home")
			if c.home != "" {
				home = filepath.Join(root, c.home)
			}
			files, err := DiscoverContextFiles(DiscoverOptions{Cwd: filepath.Join(root, c.cwd), Home: home})
			if err != nil {
				t.Fatal(err)
			}
			if got := found(files, root); got != c.want {
				t.Errorf("found\n%swant\n%s", got, c.want)
			}
			if c.check != nil {
				c.check(t, files)
			}
		})
	}
}

// TestDiscoverDepthLimit: at most MaxDepth levels above the working
// directory are searched.
func TestDiscoverDepthLimit(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	parts := make([]string, 25)
	for i := range parts {
		parts[i] = fmt.Sprintf("d%02d", i)
	}
	cwd := filepath.Join(append([]string{root}, parts...)...)
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	// The directory 20 levels above cwd, and the one 21 above.
	at20 := filepath.Join(append([]string{root}, parts[:len(parts)-20]...)...)
	at21 := filepath.Dir(at20)
	os.WriteFile(filepath.Join(at20, "AGENTS.md"), []byte("twenty"), 0o644)
	os.WriteFile(filepath.Join(at21, "AGENTS.md"), []byte("twenty-one"), 0o644)

	for _, c := range []struct {
		max  int
		want string
	}{
		{0, "twenty"}, // the default, 20
		{20, "twenty"},
		{21, "twenty-one twenty"},
		{19, ""},
	} {
		files, err := DiscoverContextFiles(DiscoverOptions{Cwd: cwd, Home: root, UserDirs: []SourceDir{}, MaxDepth: c.max})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			got = append(got, f.Content)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("MaxDepth %d: found %q, want %q", c.max, got, c.want)
		}
	}
}

// TestDiscoverUnreadable: a file that exists but cannot be read (here a
// symbolic link to itself, which even root cannot open) is reported and
// skipped; the others are still found.
func TestDiscoverUnreadable(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755)
	os.MkdirAll(filepath.Join(root, "repo", "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "repo", "AGENTS.md"), []byte("root"), 0o644)
	loop := filepath.Join(root, "repo", "sub", "AGENTS.md")
	if err := os.Symlink(loop, loop); err != nil {
		t.Skip("no symbolic links:", err)
	}
	files, err := DiscoverContextFiles(DiscoverOptions{Cwd: filepath.Join(root, "repo", "sub"), Home: root})
	if err == nil || !strings.Contains(err.Error(), loop) {
		t.Errorf("error %v does not name %s", err, loop)
	}
	if len(files) != 1 || files[0].Content != "root" {
		t.Errorf("files: %+v", files)
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"ab\ncd\nef", 7, "ab\ncd\n"},
		{"abcdefgh\nij", 6, "abcdef"},               // no break in the second half
		{"abc\ndefghij", 9, "abc\ndefgh"},           // the break is in the first half
		{"aaaé", 4, "aaa"},                          // never splits a character
		{"a\u4e16\u754c", 5, "a\u4e16"},             // 3-byte characters
		{"x\U0001F600yz", 4, "x"},                   // a 4-byte character cut at its third byte
		{"\u4e16\u754cx", 6, "\u4e16\u754c"},        // whole characters stay
		{"line\n\U0001F600\U0001F600", 8, "line\n"}, // break in the second half wins
	} {
		if got := string(cut([]byte(c.in), c.limit)); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestDefaultFileName(t *testing.T) {
	for src, want := range map[string]string{"gopi": "AGENTS.md", "omp": "AGENTS.md", "claude": "CLAUDE.md", "codex": "AGENTS.md", "gemini": "GEMINI.md", "other": "AGENTS.md"} {
		if got := DefaultFileName(src); got != want {
			t.Errorf("%s: %s, want %s", src, got, want)
		}
	}
}
