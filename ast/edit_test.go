package ast

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEditPreviewThenApply(t *testing.T) {
	t.Parallel()
	requireNative(t)
	src := "function f() {\n  var a = 1;\n  if (x) {\n    old(a, 2);\n  }\n}\n"
	dir := tree(t, map[string]string{"a.js": src, "b.js": "let same = keep(1);\n", "broken.js": "var z = 1;\nfunction (\n"})
	req := EditRequest{
		Scope:  Scope{Paths: []string{"."}, Cwd: dir},
		Rules:  []Rewrite{{Pattern: "var $N = $V", Out: "let $N = $V"}, {Pattern: "old($$$ARGS)", Out: "neu($$$ARGS)"}, {Pattern: "keep($A)", Out: "keep($A)"}},
		DryRun: true,
	}
	res, err := Edit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	// broken.js has a syntax error of its own, which the rewrite leaves
	// as it is: the file is rewritten too, and its error still reported.
	if res.TotalReplacements != 3 || res.FilesTouched != 2 || res.Applied || res.Lang != "javascript" {
		t.Fatalf("preview %+v", res)
	}
	ch := res.Files[0].Changes
	if ch[0].Before != "var a = 1;" && ch[0].Before != "var a = 1" {
		t.Errorf("first change %+v", ch[0])
	}
	if read(t, dir, "a.js") != src {
		t.Fatal("dry run wrote")
	}
	if len(res.ParseIssues) != 1 || res.ParseIssues[0].Path != "broken.js" {
		t.Errorf("issues %+v", res.ParseIssues)
	}
	req.DryRun = false
	if _, err := Edit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want := "function f() {\n  let a = 1\n  if (x) {\n    neu(a, 2);\n  }\n}\n"
	if got := read(t, dir, "a.js"); got != want {
		t.Fatalf("applied:\n%s", got)
	}
	if got := read(t, dir, "broken.js"); got != "let z = 1\nfunction (\n" {
		t.Fatalf("file with an older syntax error: %q", got)
	}
}

func TestEditOverlapAndDelete(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(f(1))\nprint(2)\nx = 3\n"})
	_, err := Edit(context.Background(), EditRequest{Scope: Scope{Paths: []string{"a.py"}, Cwd: dir}, Rules: []Rewrite{{Pattern: "f($A)", Out: "g($A)"}}})
	if !errors.Is(err, ErrOverlap) || err.Error() != "Overlapping replacements detected; refine pattern to avoid ambiguous edits" {
		t.Fatalf("overlap: %v", err)
	}
	if read(t, dir, "a.py") != "f(f(1))\nprint(2)\nx = 3\n" {
		t.Fatal("overlap wrote")
	}
	if _, err := Edit(context.Background(), EditRequest{Scope: Scope{Paths: []string{"a.py"}, Cwd: dir}, Rules: []Rewrite{{Pattern: "print($A)", Out: ""}}}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "a.py"); got != "f(f(1))\n\nx = 3\n" {
		t.Fatalf("delete: %q", got)
	}
	// The ast-grep CLI's way (gopi ast run/scan -U): the outer of nested
	// matches is rewritten, the inner one left for a second run.
	if _, err := Edit(context.Background(), EditRequest{Scope: Scope{Paths: []string{"a.py"}, Cwd: dir}, Rules: []Rewrite{{Pattern: "f($A)", Out: "g($A)"}}, SkipOverlapping: true}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "a.py"); got != "g(f(1))\n\nx = 3\n" {
		t.Fatalf("skip overlapping: %q", got)
	}
}

func TestEditRules(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.go": "package a\n", "b.py": "x = 1\n", "c.go": "package c\nvar v = h(1)\n", "d.go": "package d\nvar w = h(2)\n"})
	ctx := context.Background()
	if _, err := Edit(ctx, EditRequest{Scope: Scope{Paths: []string{"."}, Cwd: dir}, Rules: []Rewrite{{Pattern: "h($A)", Out: "k($A)"}}}); err == nil || !strings.Contains(err.Error(), "one language per call") {
		t.Errorf("mixed languages: %v", err)
	}
	if err := ValidateRewrites([]Rewrite{{Pattern: "a", Out: "b"}, {Pattern: " a ", Out: "c"}}); err == nil || !strings.Contains(err.Error(), "Duplicate") {
		t.Errorf("duplicate: %v", err)
	}
	res, err := Edit(ctx, EditRequest{Scope: Scope{Paths: []string{"*.go"}, Cwd: dir}, Rules: []Rewrite{{Pattern: "h($A)", Out: "k($A)"}}, MaxFiles: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.FilesTouched != 1 || !res.LimitReached || read(t, dir, "c.go") != "package c\nvar v = k(1)\n" || read(t, dir, "d.go") != "package d\nvar w = h(2)\n" {
		t.Fatalf("max files: %+v", res)
	}
	// A pattern that does not compile is a parse issue; the others still apply.
	res, err = Edit(ctx, EditRequest{Scope: Scope{Paths: []string{"d.go"}, Cwd: dir}, Rules: []Rewrite{{Pattern: "h($A)", Out: "k($A)"}, {Pattern: "a := 1; b := 2", Out: ""}}})
	if err != nil || res.TotalReplacements != 1 || len(res.ParseIssues) != 1 {
		t.Fatalf("bad rule: %v %+v", err, res)
	}
}

// TestEditKeepsCRLF rewrites a call into several lines in a CRLF file: the
// new lines must end with "\r\n" like the rest of the file.
func TestEditKeepsCRLF(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.go": "package a\r\n\r\nfunc f() {\r\n\tfoo(1)\r\n}\r\n"})
	req := EditRequest{
		Scope: Scope{Paths: []string{"."}, Cwd: dir},
		Rules: []Rewrite{{Pattern: "foo($A)", Out: "if x {\n\tbar($A)\n}"}},
	}
	if _, err := Edit(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := read(t, dir, "a.go")
	if strings.Contains(strings.ReplaceAll(got, "\r\n", ""), "\n") {
		t.Fatalf("bare LF after the rewrite: %q", got)
	}
	if !strings.Contains(got, "bar(1)") {
		t.Fatalf("not rewritten: %q", got)
	}
}

func TestToCRLF(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "a": "a", "a\nb": "a\r\nb", "a\r\nb\n": "a\r\nb\r\n", "\n": "\r\n"} {
		if got := toCRLF(in); got != want {
			t.Errorf("toCRLF(%q) = %q, want %q", in, got, want)
		}
	}
}

// A rewrite whose result does not parse is refused for that file and
// reported as a parse issue; other files are still rewritten.
func TestEditRefusesSyntaxBreakingRewrite(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.js": "old(1);\n", "b.js": "old(2);\nkeep();\n"})
	req := EditRequest{
		Scope: Scope{Paths: []string{"."}, Cwd: dir},
		Rules: []Rewrite{{Pattern: "old($A)", Out: "neu($A"}},
	}
	res, err := Edit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := "a.js: rewrite not applied: it would add a syntax error (missing ) at line 1, column 6 of the rewritten file); fix the replacement so the result is valid code"
	if res.FilesTouched != 0 || len(res.ParseIssues) != 0 || len(res.Refused) != 2 || res.Refused[0].String() != want {
		t.Fatalf("result %+v", res)
	}
	if read(t, dir, "a.js") != "old(1);\n" || read(t, dir, "b.js") != "old(2);\nkeep();\n" {
		t.Fatal("a rewrite with a syntax error was written")
	}
	req.Rules = []Rewrite{{Pattern: "old($A)", Out: "neu($A)"}}
	if res, err = Edit(context.Background(), req); err != nil || res.FilesTouched != 2 || len(res.ParseIssues) != 0 {
		t.Fatalf("valid rewrite: %+v %v", res, err)
	}
}

// A file that already has syntax errors is rewritten when the rewrite adds
// none, and refused, naming the added error, when it adds one: before the
// old error, after it (where the parser, which reports only the first
// missing token, would not show it) or in a file whose old error is a
// missing token itself.
func TestEditFileWithSyntaxErrors(t *testing.T) {
	t.Parallel()
	requireNative(t)
	const (
		errLast  = "package main\n\nfunc main() {\n\tfoo(1)\n}\n\nfunc broken( {\n"
		errFirst = "package main\n\nfunc broken( {\n}\n\nfunc main() {\n\tfoo(1)\n}\n"
		missing  = "package main\n\nfunc a() {\n\tx := \n}\n\nfunc main() {\n\tfoo(1)\n}\n"
		inside   = "package main\n\nfunc broken( {\n\tfoo(1)\n"
	)
	for _, tc := range []struct {
		name, src, out string
		refused        string // "" = rewritten
	}{
		{"error after the edit", errLast, "qux($A)", ""},
		{"error before the edit", errFirst, "qux($A)", ""},
		{"missing token before the edit", missing, "qux($A, 2)", ""},
		{"edit inside the error", inside, "qux($A)", ""},
		{"new error before the old one", errLast, "qux($A", "missing ) at line 4, column 7"},
		{"new error after the old one", errFirst, "qux($A", "missing ) at line 7, column 7"},
		{"new error after a missing token", missing, "qux($A", "missing ) at line 8, column 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tree(t, map[string]string{"br.go": tc.src})
			res, err := Edit(context.Background(), EditRequest{
				Scope: Scope{Paths: []string{"br.go"}, Cwd: dir},
				Rules: []Rewrite{{Pattern: "foo($A)", Out: tc.out}},
			})
			if err != nil {
				t.Fatal(err)
			}
			got := read(t, dir, "br.go")
			if tc.refused == "" {
				want := strings.Replace(tc.src, "foo(1)", strings.Replace(tc.out, "$A", "1", 1), 1)
				if res.FilesTouched != 1 || len(res.Refused) != 0 || got != want {
					t.Fatalf("not rewritten: %+v\n%s", res, got)
				}
				return
			}
			want := "br.go: rewrite not applied: it would add a syntax error (" + tc.refused + " of the rewritten file); fix the replacement so the result is valid code"
			if res.FilesTouched != 0 || len(res.Refused) != 1 || res.Refused[0].String() != want || got != tc.src {
				t.Fatalf("not refused: %+v\n%s", res, got)
			}
		})
	}
}

func TestMapOffset(t *testing.T) {
	t.Parallel()
	// "aXXbYc" -> "aZbYYYc": XX (1-3) becomes Z, Y (4-5) becomes YYY.
	changes := []Change{{EditStart: 1, EditEnd: 3, After: "Z"}, {EditStart: 4, EditEnd: 5, After: "YYY"}}
	for _, tc := range []struct {
		p     int
		atEnd bool
		want  int
	}{
		{0, false, 0}, {1, false, 1}, {1, true, 1}, {2, false, 1}, {2, true, 2},
		{3, false, 2}, {4, false, 3}, {5, false, 6}, {6, true, 7},
	} {
		if got := mapOffset(tc.p, changes, tc.atEnd); got != tc.want {
			t.Errorf("mapOffset(%d, atEnd %v) = %d, want %d", tc.p, tc.atEnd, got, tc.want)
		}
	}
}
