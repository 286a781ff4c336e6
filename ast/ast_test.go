package ast

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/native/astgrep"
)

func requireNative(t *testing.T) {
	t.Helper()
	if !astgrep.Available {
		t.Skip("native library not linked (built without cgo)")
	}
}

// tree writes files (path -> content) under a new temp dir.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func search(t *testing.T, req SearchRequest) *SearchResult {
	t.Helper()
	res, err := Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func locations(ms []Match) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.Path)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(m.Start.Line + 1))
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

func TestSearchMixedTreeSortedAndPaged(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{
		"b.py":               "foo(1)\nfoo(2)\n",
		"a.go":               "package a\n\nvar x = foo(3)\n",
		"sub/c.py":           "def f():\n    return foo(4)\n",
		"notes.txt":          "foo(5)\n",
		"node_modules/m.py":  "foo(6)\n",
		".hidden/h.py":       "foo(7)\n",
		"broken.py":          "foo(8)\nx = (:\n", // the error in the part that holds foo
		"config.toml":        "foo = 1\n",
		"sub/data.bin.py":    "foo(9)\x00\n",
		"sub/latin1.py":      "foo(10) # caf\xe9\n",
		"sub/deep/nested.py": strings.Repeat("(", 3000) + "foo(11)" + strings.Repeat(")", 3000) + "\n",
	})
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"foo($A)"}, Captures: true})
	want := ".hidden/h.py:1 a.go:3 b.py:1 b.py:2 broken.py:1 sub/c.py:2 sub/deep/nested.py:1"
	if got := locations(res.Matches); got != want {
		t.Fatalf("matches\n got %s\nwant %s", got, want)
	}
	if res.Matches[1].Captures[0].Name != "A" || res.Matches[1].Captures[0].Nodes[0].Text != "3" {
		t.Errorf("captures %+v", res.Matches[1].Captures)
	}
	var issues []string
	for _, is := range res.ParseIssues {
		issues = append(issues, is.String())
	}
	joined := strings.Join(issues, "\n")
	for _, w := range []string{"broken.py: syntax error at line 2", "sub/data.bin.py: binary", "sub/latin1.py: not UTF-8"} {
		if !strings.Contains(joined, w) {
			t.Errorf("issues lack %q:\n%s", w, joined)
		}
	}
	if res.Unsupported["toml"] != 1 {
		t.Errorf("unsupported %v", res.Unsupported)
	}
	if res.FilesSearched != 8 || res.FilesWithMatches != 6 || strings.Join(res.Languages, ",") != "go,python" {
		t.Errorf("counts %d %d %v", res.FilesSearched, res.FilesWithMatches, res.Languages)
	}
	page := search(t, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"foo($A)"}, Offset: 2, Limit: 2})
	if got := locations(page.Matches); got != "b.py:1 b.py:2" || !page.LimitReached || page.TotalMatches != 7 {
		t.Fatalf("page %s %v %d", got, page.LimitReached, page.TotalMatches)
	}
	nm := search(t, SearchRequest{Scope: Scope{Paths: []string{"node_modules/**/*.py"}, Cwd: dir}, Patterns: []string{"foo($A)"}})
	if got := locations(nm.Matches); got != "node_modules/m.py:1" {
		t.Fatalf("node_modules glob: %s", got)
	}
}

func TestGlobsAndMissingPaths(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n", "d/b.py": "f(2)\n", "d/e/c.py": "f(3)\n"})
	run := func(paths ...string) string {
		return locations(search(t, SearchRequest{Scope: Scope{Paths: paths, Cwd: dir}, Patterns: []string{"f($X)"}}).Matches)
	}
	if got := run("*.py"); got != "a.py:1" {
		t.Errorf("*.py: %s", got)
	}
	if got := run("d/**/*.py"); got != "d/b.py:1 d/e/c.py:1" {
		t.Errorf("d/**/*.py: %s", got)
	}
	if got := run("d/e/c.py", "a.py", "a.py"); got != "a.py:1 d/e/c.py:1" {
		t.Errorf("files: %s", got)
	}
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"nope", "a.py"}, Cwd: dir}, Patterns: []string{"f($X)"}})
	if len(res.Matches) != 1 || len(res.MissingPaths) != 1 {
		t.Errorf("partition: %+v", res)
	}
	_, err := Search(context.Background(), SearchRequest{Scope: Scope{Paths: []string{"nope"}, Cwd: dir}, Patterns: []string{"f($X)"}})
	if err == nil || err.Error() != "Path not found: nope" {
		t.Errorf("missing: %v", err)
	}
}

func TestSearchErrors(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.go": "package a\n", "x.unknown": "hi\n", "p.php": "<?php $x = 1;\n"})
	cases := []struct {
		req  SearchRequest
		want string
	}{
		{SearchRequest{Lang: "cobol", Patterns: []string{"x"}}, `Unsupported language "cobol"`},
		{SearchRequest{Lang: "toml", Patterns: []string{"x"}}, "grammar is not built into gopi"},
		{SearchRequest{Patterns: []string{"foo($name)"}}, "metavariable names must be upper case"},
		{SearchRequest{Patterns: []string{"a := 1; b := 2"}}, "Multiple AST nodes"},
		{SearchRequest{Scope: Scope{Paths: []string{"x.unknown"}}, Patterns: []string{"x"}}, "Cannot infer the language of x.unknown"},
	}
	for _, c := range cases {
		if c.req.Paths == nil {
			c.req.Paths = []string{"a.go"}
		}
		c.req.Cwd = dir
		_, err := Search(context.Background(), c.req)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.req.Patterns, err, c.want)
		}
	}
	// `$x` is a PHP variable, not a misspelt metavariable.
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"p.php"}, Cwd: dir}, Patterns: []string{"$x = 1"}})
	if len(res.Matches) != 1 {
		t.Errorf("php: %+v", res.Matches)
	}
}

func TestGoAmbiguousPatternFindsCalls(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"e.go": "package e\n\nimport \"fmt\"\n\nfunc f(n int) error {\n\tif n > 1 {\n\t\treturn fmt.Errorf(\"bad %d\", n)\n\t}\n\treturn fmt.Errorf(\"x\")\n}\n"})
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"fmt.Errorf($$$A)"}})
	if got := locations(res.Matches); got != "e.go:7 e.go:9" {
		t.Fatalf("got %s", got)
	}
}

func TestCancelled(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Search(ctx, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"f($A)"}})
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("err %v", err)
	}
}

func TestCheckMetavariables(t *testing.T) {
	t.Parallel()
	goLang, _ := LookupLanguage("go")
	for pat, bad := range map[string]bool{"f($A)": false, "f($$$ARGS)": false, "f($_)": false, "f($$$)": false, "f($a)": true, "f($$$rest)": true, "x := \"$5\"": false} {
		if err := checkMetavariables(pat, goLang); (err != nil) != bad {
			t.Errorf("%q: %v", pat, err)
		}
	}
}

func TestLanguageRegistry(t *testing.T) {
	t.Parallel()
	if n := len(Languages()); n != 56 {
		t.Fatalf("%d languages", n)
	}
	for name, want := range map[string]string{"JS": "javascript", "ts": "typescript", "golang": "go", "c++": "cpp", "yml": "yaml"} {
		l, err := LookupLanguage(name)
		if err != nil || l.Name != want {
			t.Errorf("%s: %v %v", name, l, err)
		}
	}
	for path, want := range map[string]string{"a/b.tsx": "tsx", "Dockerfile": "dockerfile", "x.H": "c", "Makefile": "make", "y.rs": "rust"} {
		if l := InferLanguage(path); l == nil || l.Name != want {
			t.Errorf("%s: %v", path, l)
		}
	}
	if InferLanguage("README") != nil {
		t.Error("README inferred")
	}
}

func TestExplicitLanguageNarrowsScans(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n", "b.js": "f(2)\n", "notes.txt": "f(3)\n"})
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Patterns: []string{"f($A)"}, Lang: "py"})
	if got := locations(res.Matches); got != "a.py:1" || res.FilesSearched != 1 {
		t.Fatalf("scan: %s (%d searched)", got, res.FilesSearched)
	}
	// Named files of another language are skipped too (as the ast-grep
	// CLI does), not parsed as the given language.
	res = search(t, SearchRequest{Scope: Scope{Paths: []string{"notes.txt", "b.js", "a.py"}, Cwd: dir}, Patterns: []string{"f($A)"}, Lang: "python"})
	if got := locations(res.Matches); got != "a.py:1" || res.FilesSearched != 1 {
		t.Fatalf("named files: %s (%d searched)", got, res.FilesSearched)
	}
	res = search(t, SearchRequest{Scope: Scope{Paths: []string{"b.js"}, Cwd: dir}, Patterns: []string{"f($A)"}, Lang: "python"})
	if len(res.Matches) != 0 || res.FilesSearched != 0 {
		t.Fatalf("named file of another language: %v (%d searched)", res.Matches, res.FilesSearched)
	}
}

// Scope.Globs filter the files found in directories like ast-grep's
// --globs: includes, '!' excludes, the last match wins; node_modules is
// searched only when an including glob names it.
func TestScopeGlobs(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.js": "f(1)\n", "sub/b.js": "f(2)\n", "sub/gen/c.js": "f(3)\n", "d.ts": "f(4)\n", "node_modules/p/e.js": "f(5)\n"})
	for _, tc := range []struct {
		globs []string
		want  []string
	}{
		{nil, []string{"a.js", "d.ts", "sub/b.js", "sub/gen/c.js"}},
		{[]string{"*.js"}, []string{"a.js", "sub/b.js", "sub/gen/c.js"}},
		{[]string{"!gen"}, []string{"a.js", "d.ts", "sub/b.js"}},
		{[]string{"*.js", "!sub/gen/**"}, []string{"a.js", "sub/b.js"}},
		{[]string{"!*.js", "sub/b.js"}, []string{"sub/b.js"}},
		{[]string{"node_modules/**"}, []string{"node_modules/p/e.js"}},
		{[]string{"*.js", "!node_modules"}, []string{"a.js", "sub/b.js", "sub/gen/c.js"}},
	} {
		res, err := Search(context.Background(), SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir, Globs: tc.globs}, Patterns: []string{"f($A)"}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.Path)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("globs %q: %q, want %q", tc.globs, got, tc.want)
		}
	}
}
