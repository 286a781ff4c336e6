//go:build cgo

package linktest

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// TestBothTreeSitterRuntimes parses the same Go source with both runtimes
// in one process and checks each gives the expected answer.
func TestBothTreeSitterRuntimes(t *testing.T) {
	src := []byte("package p\n\nfunc f() { g(1); g(2) }\n")

	tree, err := sitter.ParseCtx(context.Background(), src, golang.GetLanguage())
	if err != nil {
		t.Fatal(err)
	}
	if got := tree.Type(); got != "source_file" {
		t.Fatalf("go-tree-sitter root kind %q", got)
	}
	calls := 0
	it := sitter.NewIterator(tree, sitter.DFSMode)
	_ = it.ForEach(func(n *sitter.Node) error {
		if n.Type() == "call_expression" {
			calls++
		}
		return nil
	})
	if calls != 2 {
		t.Fatalf("go-tree-sitter found %d calls", calls)
	}

	m, err := astgrep.Compile("go", []astgrep.Rule{{Pattern: "g($A)"}}, astgrep.Smart)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	res, err := m.Search([]astgrep.Input{{Path: "x.go", Data: src}}, astgrep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res[0].Matches); n != 2 {
		t.Fatalf("ast-grep found %d matches", n)
	}
}
