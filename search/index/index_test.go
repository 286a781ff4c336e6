package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/search/grep"
)

// testTree writes a small tree with text, binary, ignored, hidden and
// awkwardly ordered files, and returns its root.
func testTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		".gitignore":        "ignored/\n*.log\n",
		".ignore":           "!.whitelisted\n",
		".whitelisted":      "alpha_value whitelisted though hidden\n",
		"a.c":               "int alpha_value = 1;\n",
		"a/b.go":            "package a\nfunc AlphaValue() int { return 1 }\n",
		"a/deep/c.go":       "package deep\n// the quick brown fox\n",
		"ignored/x.go":      "func alpha_value() {}\n",
		"debug.log":         "alpha_value\n",
		".hidden/h.go":      "alpha_value\n",
		"bin.dat":           "alpha_value\x00binary\n",
		"utf16.txt":         "\xff\xfea\x00l\x00p\x00h\x00a\x00\n\x00",
		"kelvin.txt":        "\u212aelvin sign\n",
		"multi/line.txt":    "foo\nbar baz\n",
		"node_modules/m.js": "alpha_value\n",
	}
	for i := range 40 {
		files[fmt.Sprintf("gen/f%02d.txt", i)] = fmt.Sprintf("line %d of filler text number%d\n", i, i*7)
	}
	for p, c := range files {
		writeFile(t, root, p, c)
	}
	return root
}

func writeFile(t *testing.T, root, rel, text string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func testOptions(t *testing.T, root string) Options {
	return Options{Root: root, Dir: filepath.Join(t.TempDir(), "ix"), Walk: Walk{Hidden: true, Gitignore: true, NodeModules: true}}
}

// scopes are the walks the differential tests compare: grep's CLI
// default, with hidden files, and the agent tool's (hidden files, no
// node_modules).
var scopes = []struct{ hidden, nodeModules bool }{{false, true}, {true, true}, {true, false}, {false, false}}

// searchBoth runs pattern over the tree by walking and over the index's
// candidates, and returns both outputs as "path:line:text" lines.
func searchBoth(t *testing.T, o Options, pattern string, fold, hidden, nodeModules bool) (walk, indexed string) {
	t.Helper()
	g := grep.DefaultOptions(pattern, o.Root)
	g.Hidden, g.IgnoreCase, g.NodeModules = hidden, fold, nodeModules
	res, err := grep.Search(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	walk = render(res)
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer ix.Close()
	q, ok := Plan(grep.EscapeLiteralBraces(pattern), fold)
	if !ok {
		t.Fatalf("Plan(%q) refused", pattern)
	}
	cands, err := ix.Candidates(context.Background(), q, Scope{NoHidden: !hidden, NoNodeModules: !nodeModules})
	if err != nil {
		t.Fatal(err)
	}
	g.Files = []grep.FileRef{}
	for _, c := range cands {
		g.Files = append(g.Files, grep.FileRef{Path: filepath.Join(o.Root, c)})
	}
	res, err = grep.Search(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return walk, strings.ReplaceAll(render(res), o.Root+"/", "")
}

func render(r *grep.Result) string {
	var b strings.Builder
	for _, m := range r.Matches {
		fmt.Fprintf(&b, "%s:%d:%s\n", m.Path, m.Line, m.Text)
	}
	return b.String()
}

var differentialPatterns = []struct {
	p    string
	fold bool
}{
	{"alpha_value", false}, {"AlphaValue", false}, {"alpha.?value", true}, {"kelvin", true},
	{"quick|number14", false}, {`\bfiller\b`, false}, {"foo\\nbar", false}, {"number2[18]", false},
	{"nothing-here", false}, {"x", false}, {"(?i)ALPHA", false},
}

func TestIndexMatchesWalk(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	if _, err := Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	check := func(stage string) { checkSame(t, stage, o) }
	check("built")
	// Edit in place (same directory stat): searched directly.
	writeFile(t, root, "gen/f03.txt", "now it says alpha_value and quick\n")
	check("edited")
	// Add and remove: the directories changed, Open says stale until a refresh.
	writeFile(t, root, "gen/new.txt", "AlphaValue here\n")
	os.Remove(filepath.Join(root, "a.c"))
	if _, err := Open(context.Background(), o); err != ErrStale {
		t.Fatalf("open after an add: %v, want ErrStale", err)
	}
	st, err := Refresh(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Changed != 2 || st.Removed != 1 || st.Rebuilt {
		t.Errorf("refresh: %+v, want 2 changed (edit, add), 1 removed", st)
	}
	check("refreshed")
}

func TestCandidatesNarrow(t *testing.T) {
	root := testTree(t)
	o := testOptions(t, root)
	if _, err := Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	q, _ := Plan("number21", false)
	got, err := ix.Candidates(context.Background(), q, Scope{NoHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	// f03, f30 and f31 hold "number21" (21, 210, 217); bin.dat and
	// utf16.txt are always searched.
	want := []string{"bin.dat", "gen/f03.txt", "gen/f30.txt", "gen/f31.txt", "utf16.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
}
