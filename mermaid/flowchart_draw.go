package mermaid

import "fmt"

// pt is a point of the top-down grid: rank (down the layers) and cross
// (along a layer).
type pt struct{ rank, cross int }

// drawer maps the top-down grid onto the canvas in the flowchart's
// direction.
type drawer struct {
	c        *canvas
	dir      Direction
	length   int // rank extent
	vertical bool
}

// xy turns a grid point into canvas coordinates.
func (d *drawer) xy(p pt) (x, y int) {
	switch d.dir {
	case BottomUp:
		return p.cross, d.length - 1 - p.rank
	case LeftRight:
		return p.rank, p.cross
	case RightLeft:
		return d.length - 1 - p.rank, p.cross
	}
	return p.cross, p.rank
}

// line draws a straight line between two grid points.
func (d *drawer) line(a, b pt) {
	x0, y0 := d.xy(a)
	x1, y1 := d.xy(b)
	if x0 == x1 {
		d.c.vline(x0, y0, y1)
	} else {
		d.c.hline(x0, x1, y0)
	}
}

// path draws a polyline through grid points.
func (d *drawer) path(ps ...pt) {
	for i := 1; i < len(ps); i++ {
		d.line(ps[i-1], ps[i])
	}
}

// head draws an edge end at p, pointing down the rank axis (or up it
// when upward).
func (d *drawer) head(p pt, h Head, upward bool) {
	x, y := d.xy(p)
	d.c.set(x, y, headRune(h, d.dir, upward, d.c.ascii))
}

// headRune is the character of an edge end.
func headRune(h Head, dir Direction, upward, ascii bool) rune {
	switch h {
	case HeadCross:
		if ascii {
			return 'x'
		}
		return '×'
	case HeadCircle:
		if ascii {
			return 'o'
		}
		return '○'
	}
	arrows := map[Direction][2]rune{TopDown: {'▼', '▲'}, BottomUp: {'▲', '▼'}, LeftRight: {'►', '◄'}, RightLeft: {'◄', '►'}}
	if ascii {
		arrows = map[Direction][2]rune{TopDown: {'v', '^'}, BottomUp: {'^', 'v'}, LeftRight: {'>', '<'}, RightLeft: {'<', '>'}}
	}
	if upward {
		return arrows[dir][1]
	}
	return arrows[dir][0]
}

// renderFlowchart lays fc out and draws it.
func renderFlowchart(fc *Flowchart, o Options) (string, error) {
	if len(fc.Nodes) == 0 {
		return "", fmt.Errorf("the diagram has no nodes; add some, such as \"A --> B\"")
	}
	if o.UseASCII { // the state diagrams' start and end marks
		for _, id := range []string{"[*]start", "[*]end"} {
			if n := fc.byID[id]; n != nil {
				n.Label = []string{map[string]string{"[*]start": "*", "[*]end": "(*)"}[id]}
			}
		}
	}
	l, err := newLayout(fc, o)
	if err != nil {
		return "", err
	}
	width := 0
	for _, layer := range l.layers {
		for _, v := range layer {
			width = max(width, v.cross+v.size+v.room)
		}
	}
	frames := l.frames()
	for _, f := range frames {
		width = max(width, f.right+1)
	}
	d := &drawer{dir: fc.Direction, length: l.length, vertical: fc.Direction == TopDown || fc.Direction == BottomUp}
	w, h := width, l.length
	if !d.vertical {
		w, h = l.length, width
	}
	if w*h > MaxCells {
		return "", fmt.Errorf("the diagram would be %d×%d characters; split it into smaller diagrams or reduce the padding", w, h)
	}
	d.c = newCanvas(w, h, o.UseASCII)
	for _, layer := range l.layers {
		for _, v := range layer {
			if v.node != nil {
				l.drawNode(d, v)
			}
		}
	}
	for _, f := range frames {
		l.drawFrame(d, f)
	}
	for _, e := range l.edges {
		l.drawPiece(d, e)
	}
	for _, layer := range l.layers {
		for _, v := range layer {
			if len(v.loops) > 0 {
				l.drawLoop(d, v)
			}
		}
	}
	return d.c.String(), nil
}

// drawNode draws a node's box and its text.
func (l *layout) drawNode(d *drawer, v *vnode) {
	x0, y0 := d.xy(pt{l.rankPos[v.layer], v.cross})
	x1, y1 := d.xy(pt{l.rankPos[v.layer] + v.thick - 1, v.cross + v.size - 1})
	x, y := min(x0, x1), min(y0, y1)
	w, h := max(x0, x1)-x+1, max(y0, y1)-y+1
	var corners []rune
	switch v.node.Shape {
	case ShapeRound:
		corners = []rune{'╭', '╮', '╰', '╯'}
	case ShapeDecision:
		corners = []rune{'◇', '◇', '◇', '◇'}
	}
	d.c.box(x, y, w, h, corners)
	inner := w - 2
	top := y + 1 + (h-2-len(v.node.Label))/2
	for i, line := range v.node.Label {
		d.c.text(x+1+(inner-textWidth(line))/2, top+i, line)
	}
}

// drawPiece draws one edge piece: out of its upper vnode, down to its
// channel, across, and down into its lower vnode, with the heads and
// label of its edge where they belong.
func (l *layout) drawPiece(d *drawer, e *vedge) {
	k := e.from.layer
	end := l.rankPos[k+1] - 1 // the row above the lower layer
	start := l.rankPos[k] + e.from.thick - 1
	if e.from.node == nil {
		start = l.rankPos[k] // a waypoint: the line runs through its layer
	}
	upperHead, lowerHead := e.upperHead(), e.lowerHead()
	d.c.pen = Solid
	switch {
	case e.edge.Dotted:
		d.c.pen = Dotted
	case e.edge.Thick:
		d.c.pen = Thick
	}
	defer func() { d.c.pen = Solid }()
	from := pt{start, e.fromX()}
	if e.from.node != nil && upperHead != HeadNone {
		from.rank++ // the head sits below the box, not on its border
	}
	to := pt{end, e.to.center}
	if e.to.node == nil {
		to.rank = l.rankPos[k+1]
	}
	if e.from.node == nil {
		d.line(pt{l.rankPos[k], e.from.center}, pt{l.gapPos[k], e.from.center})
	}
	if e.fromX() == e.toX() {
		d.path(from, to)
	} else {
		ch := end - l.openRows[k+1] - l.labels[k] - l.nch[k] + e.channel
		d.path(from, pt{ch, e.fromX()}, pt{ch, e.toX()}, to)
	}
	if upperHead != HeadNone {
		d.head(from, upperHead, true)
	}
	if lowerHead != HeadNone {
		d.head(to, lowerHead, false)
	}
	switch {
	case hasLabel(e) && e.reversed && d.vertical: // beside its line, which the other stubs run near
		x, y := d.xy(pt{max(from.rank+1, l.gapPos[k]+l.closeRows[k]), e.fromX() + 2})
		d.c.text(x, y, e.edge.Label)
	case hasLabel(e) && e.reversed:
		r0 := max(from.rank+1, l.gapPos[k]+l.closeRows[k])
		l.drawLabel(d, e.edge.Label, r0, r0+l.upLabels[k]-1, e.fromX())
	case hasLabel(e):
		r1 := end - l.openRows[k+1] - 1
		l.drawLabel(d, e.edge.Label, r1-l.labels[k]+1, r1, e.toX())
	}
}

// drawLabel writes an edge's label in the rank span r0..r1 of its line
// at cross: centred across the line on r1 top-down, along the line
// left-right.
func (l *layout) drawLabel(d *drawer, text string, r0, r1, cross int) {
	if d.vertical {
		x, y := d.xy(pt{r1, cross})
		d.c.text(x-textWidth(text)/2, y, text)
		return
	}
	x0, y := d.xy(pt{r0 + 1, cross})
	x1, _ := d.xy(pt{r1, cross})
	d.c.text(min(x0, x1)+(max(x0, x1)-min(x0, x1)+1-textWidth(text))/2, y, text)
}

// drawLoop draws a node's edges to itself as one loop beside the box:
// out of its far side near the top, round, and back in near the bottom
// with the head of the first such edge, its label beside the loop.
func (l *layout) drawLoop(d *drawer, v *vnode) {
	top := l.rankPos[v.layer]
	r0, r1 := top+1, top+v.thick-2
	if r1 <= r0 {
		r0, r1 = top, top+v.thick-1
	}
	side := v.cross + v.size - 1
	d.path(pt{r0, side}, pt{r0, side + 3}, pt{r1, side + 3}, pt{r1, side + 1})
	e := v.loops[0]
	if e.Head != HeadNone {
		x, y := d.xy(pt{r1, side + 1})
		d.c.set(x, y, crossHeadRune(e.Head, d.vertical, d.c.ascii))
	}
	if e.Label != "" {
		x, y := d.xy(pt{(r0 + r1) / 2, side + 5})
		if !d.vertical { // the cross axis runs down: the label goes after the loop's bottom
			x, y = d.xy(pt{r1 + 2, side + 3})
			if d.dir == RightLeft {
				x -= textWidth(e.Label) - 1
			}
		}
		d.c.text(x, y, e.Label)
	}
}

// crossHeadRune is an edge end pointing back along the cross axis (left
// top-down, up left-right).
func crossHeadRune(h Head, vertical, ascii bool) rune {
	if h != HeadArrow {
		return headRune(h, TopDown, false, ascii)
	}
	switch {
	case vertical && ascii:
		return '<'
	case vertical:
		return '◄'
	case ascii:
		return '^'
	}
	return '▲'
}
