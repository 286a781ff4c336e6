package toolsearch

import (
	"math"
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	for in, want := range map[string][]string{
		"MCPToolName":      {"mcp", "tool", "name"},
		"fooBar v2Beta":    {"foo", "bar", "v2", "beta"},
		"café—│read_file":  {"cafe", "read", "file"},
		"  ?! ":            nil,
		"mcp__fake__echo":  {"mcp", "fake", "echo"},
		"GitHub PR review": {"git", "hub", "pr", "review"},
	} {
		if got := Tokenize(in); !slices.Equal(got, want) {
			t.Errorf("Tokenize(%q) = %q; want %q", in, got, want)
		}
	}
}

// Scores follow BM25+ with omp's parameters and field weights: one
// document, one query term in the name (weight 6) gives
// idf·(6·2.2/(6+1.2)+1) with idf = ln(1+0.5/1.5).
func TestSearchScores(t *testing.T) {
	ix := NewIndex([]Doc{{Name: "echo"}})
	m, err := ix.Search("echo", 8, nil)
	if err != nil || len(m) != 1 {
		t.Fatalf("%v %v", m, err)
	}
	want := math.Log(1+0.5/1.5) * (6*2.2/(6+1.2) + 1)
	if math.Abs(m[0].Score-want) > 1e-12 {
		t.Errorf("score %v; want %v", m[0].Score, want)
	}
}

func TestSearchRanking(t *testing.T) {
	ix := NewIndex([]Doc{
		{Name: "mcp__k8s__list_pods", Label: "k8s: list pods", Server: "k8s", MCPName: "list_pods", Summary: "List the pods of a namespace", SchemaKeys: []string{"namespace"}},
		{Name: "mcp__k8s__delete_pod", Label: "k8s: delete pod", Server: "k8s", MCPName: "delete_pod", Summary: "Delete one pod"},
		{Name: "mcp__git__commit", Label: "git: commit", Server: "git", MCPName: "commit", Summary: "Record changes"},
		{Name: "b_other", Summary: "namespace"},
		{Name: "a_other", Summary: "namespace"},
	})
	m, err := ix.Search("list pods", 8, nil)
	if err != nil || len(m) != 1 || m[0].Doc.Name != "mcp__k8s__list_pods" {
		t.Fatalf("list pods: %+v %v", m, err)
	}
	m, _ = ix.Search("namespace", 8, map[string]bool{"mcp__k8s__list_pods": true})
	if len(m) != 2 || m[0].Doc.Name != "a_other" || m[1].Doc.Name != "b_other" {
		t.Errorf("ties go by name, skipped names are left out: %+v", m)
	}
	if m, _ = ix.Search("pod", 1, nil); len(m) != 1 {
		t.Errorf("limit 1 gave %d", len(m))
	}
	if _, err := ix.Search("--", 8, nil); err != ErrNoTerms {
		t.Errorf("no terms: %v", err)
	}
	if m, err := NewIndex(nil).Search("x", 8, nil); err != nil || len(m) != 0 {
		t.Errorf("empty index: %v %v", m, err)
	}
}

// The query is the model's text: any string tokenizes and searches
// without panicking, and returned scores are positive and sorted.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"kubernetes pod", "MCPTool", "café", "", "\x00\xff", "ǅungla"} {
		f.Add(s)
	}
	ix := NewIndex([]Doc{{Name: "mcp__a__b", Label: "A B", Summary: "kubernetes pods café"}, {Name: "write", Summary: "Write a file"}})
	f.Fuzz(func(t *testing.T, q string) {
		m, err := ix.Search(q, 8, nil)
		if err != nil {
			return
		}
		for i := range m {
			if !(m[i].Score > 0) || (i > 0 && m[i].Score > m[i-1].Score) {
				t.Fatalf("%q: %+v", q, m)
			}
		}
	})
}
