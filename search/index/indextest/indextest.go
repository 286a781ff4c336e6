// Package indextest builds the trees and indexes of the differential
// tests that compare an answer read from the persistent search index with
// the walk's: a tree with ignored files (a nested .gitignore among them),
// hidden files, node_modules, binary and non-UTF-8 files, symbolic links
// to a file and to a directory, Go and C sources and a syntax error; an
// index of it in a test's temporary directory; and edits made after
// indexing, which the index must answer by reading the files again.
package indextest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index"
)

// files are the tree's regular files. fmt.Errorf and printk(KERN_INFO
// are the literals the AST tests look for.
var files = map[string]string{
	".gitignore":          "ignored/\n*.log\n",
	".ignore":             "!.whitelisted.go\n",
	".whitelisted.go":     "package w\nfunc W() error { return fmt.Errorf(\"w\") }\n",
	".hid/h.go":           "package h\nfunc H() error { return fmt.Errorf(\"h %d\", 1) }\n",
	"a/x.go":              "package a\n\nfunc F() error {\n\treturn fmt.Errorf(\"x %d\", 1)\n}\n",
	"a/b/y.go":            "package b\n\nfunc G() { fmt.Println(\"hi\") }\n",
	"a/b/errors_test.go":  "package b\n\nvar e = fmt.Errorf(\"t\")\n",
	"c/m.c":               "int main(void) { printk(KERN_INFO \"x\"); return 0; }\n",
	"c/n.c":               "int f(void) { return printk(KERN_ERR \"y\"); }\n",
	"c/x.h":               "#define X printk(KERN_INFO \"h\")\n",
	"node_modules/m/n.go": "package n\nfunc N() error { return fmt.Errorf(\"n\") }\n",
	"node_modules/m/p.js": "module.exports = 1;\n",
	"sub/.gitignore":      "ign/\n",
	"sub/ign/i.go":        "package i\nfunc I() error { return fmt.Errorf(\"i\") }\n",
	"sub/keep.go":         "package sub\nfunc K() error { return fmt.Errorf(\"k\") }\n",
	"sub/broken.go":       "package sub\nfunc (\n",
	"sub/syntax.go":       "package sub\nfunc S() error { return fmt.Errorf(\"s\" }\n",
	"ignored/z.go":        "package z\nfunc Z() error { return fmt.Errorf(\"z\") }\n",
	"debug.log":           "fmt.Errorf\n",
	"bin.go":              "package bin\nvar s = fmt.Errorf(\"\x00\")\n",
	"latin1.go":           "package l\n// caf\xe9\nvar e = fmt.Errorf(\"l\")\n",
	"dir with space/s.go": "package s\nfunc S() error { return fmt.Errorf(\"space\") }\n",
	"main.py":             "def f():\n    raise ValueError('x')\n",
	"README.md":           "fmt.Errorf is used in Go files\n",
}

// Tree writes the tree in a new temporary directory and returns its root.
func Tree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	all := map[string]string{}
	for p, c := range files {
		all[p] = c
	}
	for i := range 30 {
		all[fmt.Sprintf("gen/f%02d.go", i)] = fmt.Sprintf("package gen\n\nvar v%d = %d\n", i, i*7)
	}
	for p, c := range all {
		Write(t, root, p, c)
	}
	for link, target := range map[string]string{"link.go": "a/x.go", "linkdir": "a", "c/dangling.c": "nowhere.c"} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Write writes text to the file rel below root, making its directories.
func Write(t testing.TB, root, rel, text string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Index builds the index of root (gopi's standard walk) in a temporary
// directory and returns a finder of it.
func Index(t testing.TB, root string) *index.Finder {
	t.Helper()
	dir := t.TempDir()
	f := index.NewFinder(func(r string) string {
		return filepath.Join(dir, strings.ReplaceAll(strings.Trim(r, string(filepath.Separator)), string(filepath.Separator), "_"))
	})
	o, err := f.Options(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	f.ListUnwatched = true // compare listings with the walk without a watcher
	return f
}

// EditInPlace changes files after indexing without changing any
// directory: a file gains the literals (fmt.Errorf, printk(KERN_INFO),
// one loses them, one keeps its size but not its text. The index must
// read them again (their stat changed); a later mtime is set so that a
// change within the clock's resolution still shows.
func EditInPlace(t testing.TB, root string) {
	t.Helper()
	edits := map[string]string{
		"a/b/y.go":   "package b\n\nfunc G() error { return fmt.Errorf(\"now\") }\n",
		"a/x.go":     "package a\n\nfunc F() error {\n\treturn nil\n}\n",
		"gen/f03.go": "package gen\n\nvar v3 = fmt.Errorf(\"\")\n"[:len("package gen\n\nvar v3 = 21\n")],
		"c/n.c":      "int f(void) { return printk(KERN_INFO \"y\"); }\n",
	}
	later := time.Now().Add(2 * time.Second)
	for rel, text := range edits {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(abs, later, later); err != nil {
			t.Fatal(err)
		}
	}
}

// MustAnswer fails the test unless the index of f answers for a walk of
// dir with scope s: a differential test must compare the index with the
// walk, not the walk with itself.
func MustAnswer(t testing.TB, f *index.Finder, dir string, s grep.Scope) {
	t.Helper()
	v, ok, err := f.View(context.Background(), dir, s)
	if err != nil || !ok {
		t.Fatalf("the index of %s does not answer (%v): the test would compare the walk with itself", dir, err)
	}
	v.Close()
}

// States calls check on the tree as indexed, after EditInPlace (the
// index still answers) and after a file was added (the index is stale:
// answers is false, the walk answers).
func States(t testing.TB, root string, check func(state string, answers bool)) {
	t.Helper()
	check("fresh index", true)
	EditInPlace(t, root)
	check("files edited after indexing", true)
	Write(t, root, "a/new.go", "package a\nvar e = fmt.Errorf(\"new\")\n")
	check("a file added", false)
}
