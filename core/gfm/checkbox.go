package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// checkBoxParser reads "[ ] " or "[x] " at the very start of a list item's
// first paragraph as a task check box (the white space after the bracket
// is taken with it).
type checkBoxParser struct{}

func (checkBoxParser) Trigger() []byte { return []byte{'['} }

func (checkBoxParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	item := parent.Parent()
	if item == nil || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	if _, ok := item.(*gast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return nil
	}
	mark := line[1]
	if mark != 'x' && mark != 'X' && !isRegexpSpace(mark) {
		return nil
	}
	n := 3
	for n < len(line) && isRegexpSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(mark == 'x' || mark == 'X')
}

func (checkBoxParser) CloseBlock(parent gast.Node, pc parser.Context) {}

// isRegexpSpace is the white space of Go's regexp `\s`, the set
// goldmark's own task-list and table rules are written with.
func isRegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
