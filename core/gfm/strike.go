package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// strikeParser reads ~text~ and ~~text~~ as struck-through text: runs of
// one or two tildes are delimiters, matched with a run of the same
// length by goldmark's delimiter algorithm; longer runs are plain text.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, tildes{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = segment.WithStop(segment.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

func (strikeParser) CloseBlock(parent gast.Node, pc parser.Context) {}

// tildes is the delimiter kind of strikethrough.
type tildes struct{}

func (tildes) IsDelimiter(b byte) bool { return b == '~' }

func (tildes) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (tildes) OnMatch(consumes int) gast.Node { return east.NewStrikethrough() }
