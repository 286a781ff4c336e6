//go:build cgo

package outline

import (
	"context"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// grammar returns the tree-sitter language for a grammar name.
func grammar(lang string) *sitter.Language {
	switch lang {
	case "python":
		return python.GetLanguage()
	case "javascript":
		return javascript.GetLanguage()
	case "typescript":
		return typescript.GetLanguage()
	case "tsx":
		return tsx.GetLanguage()
	case "rust":
		return rust.GetLanguage()
	}
	return nil
}

// referenceBodies is how Bodies found the spans of the tree-sitter
// languages before the native core did it through its parse cache: with
// github.com/smacker/go-tree-sitter's runtime and grammars. The tests
// hold the two equal on real trees.
func referenceBodies(ctx context.Context, lang string, src []byte, minLines int) ([]Span, error) {
	g := grammar(lang)
	if g == nil {
		return nil, ErrUnsupported
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(g)
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		return nil, ErrSyntax
	}
	kinds := functionKinds[lang]
	braced := lang != "python"
	var spans []Span
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	for {
		n := c.CurrentNode()
		descend := true
		if n.IsNamed() && kinds[n.Type()] {
			if body := n.ChildByFieldName("body"); body != nil {
				isBlock := braced && body.EndByte() > body.StartByte() && src[body.StartByte()] == '{'
				if braced == isBlock { // arrow functions with an expression body are kept
					end := body.EndPoint()
					endRow := int(end.Row)
					if end.Column == 0 && endRow > int(body.StartPoint().Row) {
						endRow-- // the body ends at the start of the next line
					}
					sp, ok := bodySpan(int(n.StartPoint().Row), int(body.StartPoint().Row), endRow, braced)
					if ok && sp.Lines() >= max(minLines, 1) {
						spans = append(spans, sp)
						descend = false
					}
				}
			}
		}
		if descend && c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return spans, nil
			}
		}
	}
}
