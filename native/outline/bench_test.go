//go:build cgo

package outline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// goFile10k returns a 10,002-line Go file of 250 functions.
func goFile10k() []byte {
	var s strings.Builder
	s.WriteString("package p\n\n")
	for i := range 250 {
		fmt.Fprintf(&s, "// F%d adds.\nfunc F%d(a, b int) int {\n\tx := a + %d\n", i, i, i)
		for range 34 {
			s.WriteString("\tx = x*31 + b\n")
		}
		s.WriteString("\treturn x\n}\n\n")
	}
	return []byte(s.String())
}

// BenchmarkBodiesGo10k finds the bodies of a 10,000-line Go file
// (go/parser).
func BenchmarkBodiesGo10k(b *testing.B) {
	src := goFile10k()
	for b.Loop() {
		if spans, err := Bodies(context.Background(), "go", src, 4); err != nil || len(spans) != 250 {
			b.Fatal(len(spans), err)
		}
	}
}

// BenchmarkTreeSitterGo10k only parses the same file with the
// tree-sitter Go grammar: the reason Go does not go through tree-sitter.
func BenchmarkTreeSitterGo10k(b *testing.B) {
	src := goFile10k()
	for b.Loop() {
		p := sitter.NewParser()
		p.SetLanguage(golang.GetLanguage())
		tree, err := p.ParseCtx(context.Background(), nil, src)
		if err != nil {
			b.Fatal(err)
		}
		tree.Close()
		p.Close()
	}
}
