package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/search/index/indextest"
)

// TestFindAndASTIndexMatchWalk: gopi find and gopi ast grep, run, edit and scan
// print the same bytes (and exit with the same status) reading the
// tree's index as walking it (--no-index), on the indextest tree (ignored
// and hidden files, node_modules, binary and non-UTF-8 files, links, a
// nested .gitignore, syntax errors), after files were edited in place
// (the index still answers: gopi index --status says the edited files
// are searched directly) and after a file was added (it walks).
func TestFindAndASTIndexMatchWalk(t *testing.T) {
	root := indextest.Tree(t)
	t.Chdir(root)
	environ := isolatedEnviron(t)
	if code, out, errOut := gopiRun(t, environ, "index"); code != 0 {
		t.Fatalf("gopi index: exit %d, %q %q", code, out, errOut)
	}
	runs := [][]string{
		{"find", "-t", "f"}, {"find", "-t", "f", "-H"}, {"find", "-t", "f", "--json", "*.go"}, {"find", "-t", "x"},
		{"find", "-t", "f", "-e", "c", "--newest"}, {"find", "-t", "f", ".", "sub"}, {"find"}, {"find", "-t", "l"},
	}
	if astgrep.Available {
		runs = append(runs,
			[]string{"ast", "grep", "-p", "fmt.Errorf($$$A)", "--stats"},
			[]string{"ast", "grep", "-p", "fmt.Errorf($$$A)", "--json", "--no-hidden"},
			[]string{"ast", "grep", "-l", "c", "-p", "printk(KERN_INFO $$$A)", "--stats"},
			[]string{"ast", "grep", "-p", "fmt.Errorf($$$A)", "--no-prefilter", "--stats"},
			[]string{"ast", "grep", "-p", "$A", "-l", "c", "--stats"},
			[]string{"ast", "run", "-p", "fmt.Errorf($$$A)"},
			[]string{"ast", "run", "-p", "fmt.Errorf($$$A)", "--json=stream", "a", "sub"},
			[]string{"ast", "run", "-l", "go", "-p", "fmt.Errorf($$$A)", "-r", "errors.New($$$A)"},
			[]string{"ast", "run", "-p", "fmt.Errorf($$$A)", "--globs", "*.go", "--globs", "!gen"},
			[]string{"ast", "edit", "-l", "go", "-p", "fmt.Errorf($$$A)", "-r", "nil", "."},
			[]string{"ast", "scan", "--inline-rules", "id: e\nlanguage: go\nrule:\n  pattern: fmt.Errorf($$$A)\n"},
			[]string{"ast", "scan", "--inline-rules", "id: r\nlanguage: go\nrule:\n  kind: return_statement\n  has:\n    pattern: fmt.Errorf($$$A)\n    stopBy: end\n"},
		)
	}
	// Without a watcher, find lists from the index only when asked
	// (--index: a whole listing would stat every indexed file, more than a
	// walk costs); last, as --index also refreshes the index.
	runs = append(runs, []string{"find", "--index", "-t", "f"}, []string{"find", "--index", "-t", "f", "--json", "*.go"})
	compare := func(stage string) {
		t.Helper()
		for _, r := range runs {
			code, out, errOut := gopiRun(t, environ, r...)
			at := 1
			if r[0] == "ast" {
				at = 2
			}
			rest := slices.DeleteFunc(slices.Clone(r[at:]), func(a string) bool { return a == "--index" })
			walk := append(append(append([]string{}, r[:at]...), "--no-index"), rest...)
			wcode, wout, werr := gopiRun(t, environ, walk...)
			if out != wout || errOut != werr || code != wcode {
				t.Errorf("%s: gopi %q with the index: exit %d\n%s%s\nwithout: exit %d\n%s%s", stage, r, code, out, errOut, wcode, wout, werr)
			}
		}
	}
	status := func(want string) {
		t.Helper()
		if _, out, _ := gopiRun(t, environ, "index", "--status"); !strings.Contains(out, want) {
			t.Fatalf("gopi index --status:\n%s\nwant %q", out, want)
		}
	}
	status("state:    up to date")
	compare("fresh index")
	indextest.EditInPlace(t, root)
	status("files changed since: searched directly")
	compare("files edited after indexing")
	indextest.Write(t, root, "a/new.go", "package a\nvar e = fmt.Errorf(\"new\")\n")
	status("files added or removed since")
	compare("a file added")
}
