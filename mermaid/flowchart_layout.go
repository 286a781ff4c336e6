package mermaid

import (
	"fmt"
	"sort"
	"strings"
)

// vnode is a node of the layout: a real node, or a waypoint of an edge
// that spans several layers (label nil).
type vnode struct {
	node   *Node
	layer  int
	order  float64  // position within the layer while ordering
	cross  int      // start on the cross axis (x top-down)
	size   int      // extent on the cross axis
	thick  int      // extent on the rank axis (y top-down)
	center int      // cross + size/2: where edges attach
	loops  []*Edge  // the node's edges to itself, drawn beside it
	room   int      // cells beside the box its loops take
	groups []*Group // the subgraphs it is in, outermost first
}

// vedge joins two vnodes of adjacent layers, from the upper to the lower.
type vedge struct {
	from, to *vnode
	edge     *Edge // the edge it is part of
	first    bool  // the piece leaving the edge's upper end
	last     bool  // the piece entering the edge's lower end
	reversed bool  // the edge points up (it closed a cycle)
	channel  int   // row of its crossing, within the gap
}

// layout is a flowchart placed on the top-down grid.
type layout struct {
	fc       *Flowchart
	opts     Options
	layers   [][]*vnode
	edges    []*vedge
	byNode   map[*Node]*vnode
	rankPos  []int // start of each layer on the rank axis
	gapPos   []int // start of the gap after each layer
	gapLen   []int // rows of each gap
	labels   []int // rank extent of each gap's label area before the lower layer (0: no labels)
	upLabels []int // the same after the upper layer, for edges drawn upwards
	nch      []int // channels of each gap
	length   int   // rank extent of the whole layout
	// heights are the levels of subgraphs nested in each subgraph.
	heights map[*Group]int
	// openRows and closeRows are the rows before and after each layer
	// for the frames starting or ending there.
	openRows, closeRows []int
}

// layerNodes assigns each node its layer: the longest path to it from a
// node without incoming edges, after edges closing a cycle are reversed.
func layerNodes(fc *Flowchart) (layer map[*Node]int, reversed map[int]bool) {
	idx := map[*Node]int{}
	for i, n := range fc.Nodes {
		idx[n] = i
	}
	out := make([][]int, len(fc.Nodes)) // edge indexes by source
	for i, e := range fc.Edges {
		out[idx[fc.byID[e.From]]] = append(out[idx[fc.byID[e.From]]], i)
	}
	// Depth-first search in declaration order: an edge to a node on the
	// current path closes a cycle.
	reversed = map[int]bool{}
	state := make([]uint8, len(fc.Nodes)) // 0 new, 1 on path, 2 done
	var visit func(int)
	visit = func(v int) {
		state[v] = 1
		for _, ei := range out[v] {
			w := idx[fc.byID[fc.Edges[ei].To]]
			switch state[w] {
			case 0:
				visit(w)
			case 1:
				reversed[ei] = true
			}
		}
		state[v] = 2
	}
	for v := range fc.Nodes {
		if state[v] == 0 {
			visit(v)
		}
	}
	// Longest path over the now acyclic edges (self-loops left out), by
	// relaxing in topological order.
	indeg := make([]int, len(fc.Nodes))
	succ := make([][]int, len(fc.Nodes))
	for i, e := range fc.Edges {
		a, b := idx[fc.byID[e.From]], idx[fc.byID[e.To]]
		if a == b {
			continue
		}
		if reversed[i] {
			a, b = b, a
		}
		succ[a] = append(succ[a], b)
		indeg[b]++
	}
	depth := make([]int, len(fc.Nodes))
	var queue []int
	for v := range fc.Nodes {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range succ[v] {
			depth[w] = max(depth[w], depth[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	layer = map[*Node]int{}
	for v, n := range fc.Nodes {
		layer[n] = depth[v]
	}
	return layer, reversed
}

// newLayout places fc's nodes in layers, orders and positions them, and
// routes the edges; sizes are in cells of the top-down grid.
func newLayout(fc *Flowchart, o Options) (*layout, error) {
	l := &layout{fc: fc, opts: o, byNode: map[*Node]*vnode{}}
	layer, reversed := layerNodes(fc)
	vertical := fc.Direction == TopDown || fc.Direction == BottomUp
	for _, n := range fc.Nodes {
		w, h := boxSize(n, o)
		v := &vnode{node: n, layer: layer[n], size: w, thick: h}
		if !vertical {
			v.size, v.thick = h, w
		}
		l.add(v)
	}
	for i := range fc.Edges {
		e := &fc.Edges[i]
		a, b := l.byNode[fc.byID[e.From]], l.byNode[fc.byID[e.To]]
		if a == b { // a self-loop: drawn beside the node
			a.loops = append(a.loops, e)
			label := 0
			if e.Label != "" && vertical { // left-right the label runs along the rank axis
				label = textWidth(e.Label) + 1
			}
			a.room = max(a.room, 4+label)
			continue
		}
		rev := reversed[i]
		if rev {
			a, b = b, a
		}
		prev := a
		for k := a.layer + 1; k <= b.layer; k++ {
			next := b
			if k < b.layer {
				next = &vnode{layer: k, size: 1}
				l.add(next)
			}
			l.edges = append(l.edges, &vedge{from: prev, to: next, edge: e, first: prev == a, last: next == b, reversed: rev})
			prev = next
		}
	}
	if len(l.edges) > MaxNodes*8 {
		return nil, fmt.Errorf("the diagram's edges cross too many layers to draw; split it into smaller diagrams")
	}
	l.heights = groupHeights(fc.Groups)
	l.setGroups()
	l.order()
	if len(fc.Groups) > 0 {
		l.groupOrder()
	}
	l.place(vertical)
	return l, nil
}

func (l *layout) add(v *vnode) {
	for len(l.layers) <= v.layer {
		l.layers = append(l.layers, nil)
	}
	v.order = float64(len(l.layers[v.layer]))
	l.layers[v.layer] = append(l.layers[v.layer], v)
	if v.node != nil {
		l.byNode[v.node] = v
	}
}

// order sorts each layer by the mean order of the neighbours in the
// layer above, then below, a few times over (the barycenter heuristic).
func (l *layout) order() {
	up, down := map[*vnode][]*vnode{}, map[*vnode][]*vnode{}
	for _, e := range l.edges {
		up[e.to] = append(up[e.to], e.from)
		down[e.from] = append(down[e.from], e.to)
	}
	sweep := func(k int, nb map[*vnode][]*vnode) {
		for _, v := range l.layers[k] {
			if ns := nb[v]; len(ns) > 0 {
				sum := 0.0
				for _, n := range ns {
					sum += n.order
				}
				v.order = sum/float64(len(ns)) + v.order*1e-6 // ties keep the current order
			}
		}
		sort.SliceStable(l.layers[k], func(i, j int) bool { return l.layers[k][i].order < l.layers[k][j].order })
		for i, v := range l.layers[k] {
			v.order = float64(i)
		}
	}
	for range 4 {
		for k := 1; k < len(l.layers); k++ {
			sweep(k, up)
		}
		for k := len(l.layers) - 2; k >= 0; k-- {
			sweep(k, down)
		}
	}
}

// place sets every vnode's cross position (centred under its
// predecessors where there is room) and every layer's and gap's rank
// position, giving each edge piece its own channel in its gap.
func (l *layout) place(vertical bool) {
	gap := l.opts.PaddingX
	rankGap := l.opts.PaddingY
	if !vertical {
		gap, rankGap = l.opts.PaddingY, l.opts.PaddingX
	}
	l.placeCross(gap)
	l.placeRanks(vertical, rankGap)
}

// placeCross sets every vnode's position along its layer: after the one
// before it (gap apart, more between subgraphs), under the centre of its
// predecessors where there is room; then all are shifted so that the
// leftmost starts after the room the frames need.
func (l *layout) placeCross(gap int) {
	preds := map[*vnode][]*vnode{}
	for _, e := range l.edges {
		preds[e.to] = append(preds[e.to], e.from)
	}
	lowest := 0
	for k, layer := range l.layers {
		next, first := 0, true
		var prev *vnode
		for _, v := range layer {
			g := gap
			if v.node == nil {
				g = min(gap, 2)
			}
			if prev != nil {
				g = max(g, l.groupGap(prev, v))
			}
			prev = v
			start := next + g
			if first {
				start = 0
			}
			if ps := preds[v]; k > 0 && len(ps) > 0 {
				sum := 0
				for _, p := range ps {
					sum += p.center
				}
				want := sum/len(ps) - v.size/2
				if first || want > start {
					start = want // the first of a layer may move left of 0
				}
			}
			first = false
			v.cross, v.center = start, start+v.size/2
			next = start + v.size + v.room
			lowest = min(lowest, start)
		}
	}
	margin := 0 // room for the frames left of the first nodes
	for _, h := range l.heights {
		margin = max(margin, 2+2*h)
	}
	for _, layer := range l.layers {
		for _, v := range layer {
			v.cross += margin - lowest
			v.center += margin - lowest
		}
	}
}

// placeRanks sets every layer's and gap's position on the rank axis,
// giving each edge piece its own channel in its gap (the pieces that go
// across share a row only when their spans do not meet) and the gaps room
// for the labels and the frames.
func (l *layout) placeRanks(vertical bool, rankGap int) {
	l.rankPos = make([]int, len(l.layers))
	l.gapPos = make([]int, len(l.layers))
	l.gapLen = make([]int, len(l.layers))
	l.labels = make([]int, len(l.layers))
	l.upLabels = make([]int, len(l.layers))
	l.nch = make([]int, len(l.layers))
	byGap := make([][]*vedge, len(l.layers))
	for _, e := range l.edges {
		byGap[e.from.layer] = append(byGap[e.from.layer], e)
		switch k := e.from.layer; {
		case hasLabel(e) && e.reversed:
			l.upLabels[k] = labelRank(vertical, e, l.upLabels[k])
		case hasLabel(e):
			l.labels[k] = labelRank(vertical, e, l.labels[k])
		}
	}
	l.openRows = make([]int, len(l.layers)+1)
	l.closeRows = make([]int, len(l.layers))
	for k := range l.layers {
		l.openRows[k], l.closeRows[k] = l.frameRows(k)
	}
	pos := l.openRows[0]
	for k, layer := range l.layers {
		thick := 1
		for _, v := range layer {
			thick = max(thick, v.thick)
		}
		l.rankPos[k] = pos
		pos += thick
		l.nch[k] = assignChannels(byGap[k])
		need := l.closeRows[k] + 1 + l.upLabels[k] + max(l.nch[k], 1) + l.labels[k] + l.openRows[k+1] + 1
		l.gapPos[k] = pos
		l.gapLen[k] = max(need, rankGap)
		if k < len(l.layers)-1 {
			pos += l.gapLen[k]
		}
	}
	l.length = pos
	if n := len(l.layers); n > 0 {
		l.length += l.closeRows[n-1]
	}
}

// hasLabel reports whether piece e carries its edge's label: the piece
// at the edge's head (the last, or the first of an edge drawn upwards,
// whose label goes just after its head, apart from the labels of the
// edges drawn downwards).
func hasLabel(e *vedge) bool {
	return e.edge.Label != "" && (e.last && !e.reversed || e.first && e.reversed)
}

// labelRank is how much room a gap needs on the rank axis for e's label
// (at least cur): one row top-down, the label plus two columns
// left-right.
func labelRank(vertical bool, e *vedge, cur int) int {
	if vertical {
		return 1
	}
	return max(cur, textWidth(e.edge.Label)+2)
}

// bundle is pieces of one gap drawn on one channel.
type bundle struct {
	pieces []*vedge
	lo, hi int // the cross span they cover
}

// assignChannels gives each piece that goes across a channel (0, 1, …)
// and returns how many there are. The pieces leaving one vnode share a
// channel (they branch from one stub); bundles whose spans meet get
// different ones. Straight pieces need none.
func assignChannels(es []*vedge) int {
	var bundles []*bundle
	type port struct {
		v *vnode
		x int
	}
	byFrom := map[port]*bundle{}
	for _, e := range es {
		if e.fromX() == e.toX() {
			continue
		}
		key := port{e.from, e.fromX()}
		b := byFrom[key]
		if b == nil {
			b = &bundle{lo: e.fromX(), hi: e.fromX()}
			byFrom[key] = b
			bundles = append(bundles, b)
		}
		b.pieces = append(b.pieces, e)
		b.lo, b.hi = min(b.lo, lo(e)), max(b.hi, hi(e))
	}
	bundles = mergeBuses(es, bundles)
	sort.SliceStable(bundles, func(i, j int) bool { return bundles[i].lo < bundles[j].lo })
	var ends []int // last cross position used on each channel
	for _, b := range bundles {
		c := len(ends)
		for i, end := range ends {
			if b.lo > end+1 {
				c = i
				break
			}
		}
		if c == len(ends) {
			ends = append(ends, 0)
		}
		ends[c] = b.hi
		for _, e := range b.pieces {
			e.channel = c
		}
	}
	return len(ends)
}

// mergeBuses joins the bundles of sources that go, without labels, to
// the same two or more targets into one bundle: one row (a bus) joins
// all their stubs and all their targets, as omp draws a complete
// bipartite set of edges, instead of one crossing row per source that
// runs through every other source's targets (40 sources to the same 40
// targets made 40 rows of merged lines). Bundles keep their order.
func mergeBuses(es []*vedge, bundles []*bundle) []*bundle {
	type target struct {
		v *vnode
		x int
	}
	targets := map[*vnode][]target{} // every piece of a source, straight ones too
	kinds := map[*vnode]map[string]bool{}
	for _, e := range es {
		targets[e.from] = append(targets[e.from], target{e.to, e.toX()})
		// Only plain edges from node to node of the next layer share a
		// bus, and only with edges drawn alike.
		kind := "mixed"
		if e.first && e.last && !e.reversed && e.from.node != nil && e.to.node != nil && e.edge.Label == "" {
			kind = fmt.Sprintf("%v/%v/%v/%v", e.edge.Head, e.edge.Tail, e.edge.Dotted, e.edge.Thick)
		}
		if kinds[e.from] == nil {
			kinds[e.from] = map[string]bool{}
		}
		kinds[e.from][kind] = true
	}
	signature := func(v *vnode) string {
		ts := targets[v]
		if len(ts) < 2 || len(kinds[v]) != 1 || kinds[v]["mixed"] {
			return ""
		}
		keys := make([]string, len(ts))
		for i, t := range ts {
			keys[i] = fmt.Sprintf("%p@%d", t.v, t.x)
		}
		sort.Strings(keys)
		for k := range kinds[v] {
			keys = append(keys, k)
		}
		return strings.Join(keys, ",")
	}
	var out []*bundle
	bus := map[string]*bundle{}
	for _, b := range bundles {
		sig := signature(b.pieces[0].from)
		if sig == "" {
			out = append(out, b)
			continue
		}
		if into, ok := bus[sig]; ok {
			into.pieces = append(into.pieces, b.pieces...)
			into.lo, into.hi = min(into.lo, b.lo), max(into.hi, b.hi)
			continue
		}
		bus[sig] = b
		out = append(out, b)
	}
	return out
}

func lo(e *vedge) int { return min(e.fromX(), e.toX()) }
func hi(e *vedge) int { return max(e.fromX(), e.toX()) }

// fromX is where the piece leaves its upper vnode on the cross axis: the
// centre, or beside it for the head of an edge drawn upwards into a real
// node wide enough (so the head does not sit on the other edges' stub).
func (e *vedge) fromX() int {
	if e.first && e.from.node != nil && e.upperHead() != HeadNone && e.from.size >= 7 {
		return e.from.center + 2
	}
	return e.from.center
}

// toX is where the piece enters its lower vnode: the centre.
func (e *vedge) toX() int { return e.to.center }

// upperHead and lowerHead are the ends drawn at the piece's upper and
// lower vnodes (HeadNone on waypoints).
func (e *vedge) upperHead() Head {
	h := e.edge.Tail
	if e.reversed {
		h = e.edge.Head
	}
	if !e.first {
		return HeadNone
	}
	return h
}

func (e *vedge) lowerHead() Head {
	h := e.edge.Head
	if e.reversed {
		h = e.edge.Tail
	}
	if !e.last {
		return HeadNone
	}
	return h
}

// boxSize is a node's box, top-down: its text plus the border padding on
// each side and the border.
func boxSize(n *Node, o Options) (w, h int) {
	tw := 0
	for _, line := range n.Label {
		tw = max(tw, textWidth(line))
	}
	return tw + 2 + 2*o.BoxBorderPadding, len(n.Label) + 2 + 2*o.BoxBorderPadding
}
