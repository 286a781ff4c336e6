package mermaid

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Line directions of a cell: which of its four sides a line leaves by.
const (
	up uint8 = 1 << iota
	down
	left
	right
)

// cell is one character position: a fixed character, or the directions
// of the lines through it.
type cell struct {
	ch rune // fixed character (text, corner, arrowhead); 0: drawn from lines
	// cluster is a character of text made of several code points (an
	// emoji sequence joined by ZWJ, a letter with combining marks),
	// printed instead of ch.
	cluster string
	lines   uint8 // line directions, for cells without ch
	style   Style // how a straight line through the cell is drawn
	wide    bool  // the second column of a wide character: prints nothing
}

// Style is how a line is drawn: solid, dotted or thick.
type Style uint8

// Line styles. A cell two styles cross is drawn solid.
const (
	Solid Style = iota
	Dotted
	Thick
)

// canvas is a grid of cells that grows as it is drawn on.
type canvas struct {
	ascii bool
	pen   Style // the style lines are drawn with now
	rows  [][]cell
	width int
}

func newCanvas(w, h int, ascii bool) *canvas {
	c := &canvas{ascii: ascii, width: w}
	c.rows = make([][]cell, h)
	for i := range c.rows {
		c.rows[i] = make([]cell, w)
	}
	return c
}

// at returns the cell at x, y, or nil outside the canvas.
func (c *canvas) at(x, y int) *cell {
	if y < 0 || y >= len(c.rows) || x < 0 || x >= c.width {
		return nil
	}
	return &c.rows[y][x]
}

// set puts a fixed character at x, y.
func (c *canvas) set(x, y int, ch rune) {
	if p := c.at(x, y); p != nil {
		*p = cell{ch: ch}
	}
}

// text writes s from x on row y, one user-perceived character (grapheme
// cluster) per cell, wide ones taking two cells.
func (c *canvas) text(x, y int, s string) {
	for s != "" {
		g, rest, w := nextGrapheme(s)
		s = rest
		r, size := utf8.DecodeRuneInString(g)
		c.set(x, y, r)
		if size < len(g) {
			if p := c.at(x, y); p != nil {
				p.cluster = g
			}
		}
		if w == 2 {
			if p := c.at(x+1, y); p != nil {
				*p = cell{wide: true}
			}
		}
		x += w
	}
}

// addLine adds directions to the cell at x, y unless it holds a fixed
// character.
func (c *canvas) addLine(x, y int, dirs uint8) {
	if p := c.at(x, y); p != nil && p.ch == 0 && !p.wide {
		if p.lines == 0 {
			p.style = c.pen
		} else if p.style != c.pen {
			p.style = Solid
		}
		p.lines |= dirs
	}
}

// hline draws a horizontal line from x0 to x1 on row y.
func (c *canvas) hline(x0, x1, y int) {
	c.segment(x0, x1, func(x int, d uint8) { c.addLine(x, y, d) }, left, right)
}

// vline draws a vertical line from y0 to y1 in column x.
func (c *canvas) vline(x, y0, y1 int) {
	c.segment(y0, y1, func(y int, d uint8) { c.addLine(x, y, d) }, up, down)
}

// segment draws a straight line from a0 to a1 along one axis: each cell
// gets the direction towards its neighbours on the line (back, forward);
// a one-cell line gets both.
func (c *canvas) segment(a0, a1 int, add func(a int, d uint8), back, forward uint8) {
	if a0 > a1 {
		a0, a1 = a1, a0
	}
	for a := a0; a <= a1; a++ {
		var d uint8
		if a > a0 {
			d |= back
		}
		if a < a1 {
			d |= forward
		}
		if a0 == a1 {
			d = back | forward
		}
		add(a, d)
	}
}

// box draws a rectangle's border; corners are the four runes given (or
// the line junctions when corners is nil).
func (c *canvas) box(x, y, w, h int, corners []rune) {
	c.hline(x, x+w-1, y)
	c.hline(x, x+w-1, y+h-1)
	c.vline(x, y, y+h-1)
	c.vline(x+w-1, y, y+h-1)
	if corners != nil && !c.ascii {
		c.set(x, y, corners[0])
		c.set(x+w-1, y, corners[1])
		c.set(x, y+h-1, corners[2])
		c.set(x+w-1, y+h-1, corners[3])
	}
}

// lineRune is the character of a cell's line directions.
func (c *canvas) lineRune(d uint8) rune {
	if c.ascii {
		switch d {
		case up | down, up, down:
			return '|'
		case left | right, left, right:
			return '-'
		case 0:
			return ' '
		}
		return '+'
	}
	return boxRunes[d]
}

// styledRune is the character of a cell's lines in its style: dotted
// and thick apply to straight lines, junctions are drawn solid.
func (c *canvas) styledRune(d uint8, st Style) rune {
	vertical, horizontal := d&^(up|down) == 0, d&^(left|right) == 0
	switch {
	case d == 0 || st == Solid || !vertical && !horizontal:
	case st == Dotted && c.ascii && vertical:
		return ':'
	case st == Dotted && c.ascii:
		return '.'
	case st == Thick && c.ascii && horizontal:
		return '='
	case st == Dotted && vertical:
		return '┆'
	case st == Dotted:
		return '┄'
	case st == Thick && vertical:
		return '┃'
	case st == Thick:
		return '━'
	}
	return c.lineRune(d)
}

// boxRunes maps line directions to box-drawing characters.
var boxRunes = [16]rune{
	' ', '│', '│', '│',
	'─', '┘', '┐', '┤',
	'─', '└', '┌', '├',
	'─', '┴', '┬', '┼',
}

// String renders the canvas, trailing blanks of each row trimmed, blank
// rows at either end dropped and the blank columns every row starts with
// removed.
func (c *canvas) String() string {
	var b strings.Builder
	var lines []string
	for _, row := range c.rows {
		b.Reset()
		for _, p := range row {
			switch {
			case p.wide:
			case p.cluster != "":
				b.WriteString(p.cluster)
			case p.ch != 0:
				b.WriteRune(p.ch)
			default:
				b.WriteRune(c.styledRune(p.lines, p.style))
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	indent := -1 // the blank columns every line starts with
	for _, l := range lines {
		if l != "" {
			n := len(l) - len(strings.TrimLeft(l, " "))
			if indent < 0 || n < indent {
				indent = n
			}
		}
	}
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n")
}

// nextGrapheme splits the first user-perceived character (grapheme
// cluster) off s, with the terminal columns it takes as the TUI measures
// them: 1 or 2 (a character of no width counts as 1).
func nextGrapheme(s string) (g, rest string, width int) {
	g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if g == "" { // not expected; never loop on no progress
		_, size := utf8.DecodeRuneInString(s)
		g = s[:size]
	}
	return g, s[len(g):], min(max(w, 1), 2)
}

// textWidth is the number of terminal columns s takes.
func textWidth(s string) int {
	n := 0
	for s != "" {
		_, rest, w := nextGrapheme(s)
		n += w
		s = rest
	}
	return n
}
