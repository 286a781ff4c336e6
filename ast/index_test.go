package ast

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/search/grep"
	"github.com/gopi-agent/gopi/search/index/indextest"
)

// TestIndexMatchesWalk: a search or a rewrite preview whose directories
// are listed by the index, and whose files are ruled out by the index
// when they lack the rules' literal tokens, gives the walk's result in
// every field (matches, files searched, parse issues, unsupported
// counts), on a fresh index, after edits in place (a file that gained
// the literals since indexing is found, one that lost them is not) and
// on a stale index (the walk answers).
func TestIndexMatchesWalk(t *testing.T) {
	requireNative(t)
	root := indextest.Tree(t)
	ix := indextest.Index(t, root)
	type run struct {
		paths    []string
		patterns []string
		lang     string
		strict   astgrep.Strictness
		noPre    bool
		noHidden bool
		globs    []string
		maxSize  int64
	}
	runs := []run{
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}},
		{paths: []string{"."}, patterns: []string{"printk(KERN_INFO, $$$A)", "printk(KERN_INFO $$$A)"}, lang: "c"},
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)", "return $X"}},
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}, noHidden: true},
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}, strict: astgrep.Template},
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}, noPre: true},
		{paths: []string{"."}, patterns: []string{"$A"}, lang: "c"},
		{paths: []string{"a", "sub", "c/m.c"}, patterns: []string{"fmt.Errorf($$$A)"}},
		{paths: []string{"**/*.go"}, patterns: []string{"fmt.Errorf($$$A)"}},
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}, globs: []string{"*.go", "!gen"}},
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}, globs: []string{"node_modules"}},
		{paths: []string{"node_modules", ".hid"}, patterns: []string{"fmt.Errorf($$$A)"}},
		{paths: []string{"."}, patterns: []string{"raise ValueError($A)"}},
		// Files above the size limit are reported whatever they hold,
		// also those the index would rule out.
		{paths: []string{"."}, patterns: []string{"fmt.Errorf($$$A)"}, maxSize: 30},
		{paths: []string{"c"}, patterns: []string{"printk(KERN_INFO $$$A)"}, lang: "c", maxSize: 40},
	}
	check := func(t *testing.T, state string, answers bool) {
		t.Helper()
		if answers {
			indextest.MustAnswer(t, ix, root, grep.Scope{Hidden: true, Gitignore: true})
		}
		for i, r := range runs {
			sc := Scope{Paths: r.paths, Cwd: root, NoHidden: r.noHidden, Globs: r.globs}
			req := SearchRequest{Scope: sc, Patterns: r.patterns, Lang: r.lang, Strictness: r.strict, NoPrefilter: r.noPre, Captures: true, MaxFileSize: r.maxSize}
			walk, err1 := Search(context.Background(), req)
			req.Index = ix
			indexed, err2 := Search(context.Background(), req)
			if !reflect.DeepEqual(walk, indexed) || !reflect.DeepEqual(err1, err2) {
				t.Errorf("%s, search %d %+v:\nwalk:  %s (%v)\nindex: %s (%v)", state, i, r, show(walk), err1, show(indexed), err2)
			}
			if r.lang == "" || len(r.patterns) != 1 {
				continue
			}
			ereq := EditRequest{Scope: sc, Rules: []Rewrite{{Pattern: r.patterns[0], Out: "nil"}}, Lang: r.lang, Strictness: r.strict, DryRun: true, MaxFileSize: r.maxSize}
			ewalk, err1 := Edit(context.Background(), ereq)
			ereq.Index = ix
			eindexed, err2 := Edit(context.Background(), ereq)
			if !reflect.DeepEqual(ewalk, eindexed) || !reflect.DeepEqual(err1, err2) {
				t.Errorf("%s, edit %d %+v:\nwalk:  %s (%v)\nindex: %s (%v)", state, i, r, show(ewalk), err1, show(eindexed), err2)
			}
		}
		// A Go rewrite (one language: -l go).
		ereq := EditRequest{Scope: Scope{Paths: []string{"."}, Cwd: root}, Rules: []Rewrite{{Pattern: "fmt.Errorf($$$A)", Out: "errors.New($$$A)"}}, Lang: "go", DryRun: true}
		ewalk, err1 := Edit(context.Background(), ereq)
		ereq.Index = ix
		eindexed, err2 := Edit(context.Background(), ereq)
		if !reflect.DeepEqual(ewalk, eindexed) || !reflect.DeepEqual(err1, err2) {
			t.Errorf("%s, go rewrite:\nwalk:  %s (%v)\nindex: %s (%v)", state, show(ewalk), err1, show(eindexed), err2)
		}
	}
	check(t, "fresh index", true)
	indextest.EditInPlace(t, root)
	check(t, "files edited after indexing", true)
	res, err := Search(context.Background(), SearchRequest{Scope: Scope{Paths: []string{"."}, Cwd: root, Index: ix}, Patterns: []string{"fmt.Errorf($$$A)"}})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range res.Matches {
		paths = append(paths, m.Path)
	}
	if !slices.Contains(paths, "a/b/y.go") || slices.Contains(paths, "a/x.go") {
		t.Errorf("after the edits the index answered %v: want a/b/y.go (gained a match) and not a/x.go (lost it)", paths)
	}
	indextest.Write(t, root, "a/new.go", "package a\nvar e = fmt.Errorf(\"new\")\n")
	check(t, "a file added", false)
	if err := os.Remove(filepath.Join(root, "c", "m.c")); err != nil {
		t.Fatal(err)
	}
	check(t, "a file removed", false)
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLiteralSets: the texts the index is asked for are substrings of
// the native prefilter's literals, per rule; a rule without a literal
// leaves nothing to narrow.
func TestLiteralSets(t *testing.T) {
	requireNative(t)
	compile := func(lang string, pats ...string) *astgrep.Matcher {
		var rules []astgrep.Rule
		for _, p := range pats {
			rules = append(rules, astgrep.Rule{Pattern: p})
		}
		m, err := astgrep.Compile(lang, rules, astgrep.Smart)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	sets, ok := literalSets(compile("go", "fmt.Errorf($$$A)", "$A + $B"))
	if !ok || len(sets) != 2 || !slices.Contains(sets[0], "Errorf") || !slices.Contains(sets[0], "fmt") || len(sets[1]) != 0 {
		t.Fatalf("sets %q ok %v", sets, ok)
	}
	sets, ok = literalSets(compile("c", "printk(KERN_INFO $$$A)"))
	if !ok || len(sets) != 1 || !slices.Contains(sets[0], "KERN_INFO") || !slices.Contains(sets[0], "printk") {
		t.Fatalf("sets %q ok %v", sets, ok)
	}
}
