package mermaid

import "sort"

// Subgraphs are drawn as frames around their nodes. The layout keeps a
// subgraph's nodes next to each other in every layer, leaves room between
// nodes of different subgraphs and above and below the layers a subgraph
// starts and ends on, and draws the frame around the boxes of its nodes
// (and of its nested subgraphs' nodes, inside the frame by two cells per
// level). A frame that would enclose a node not its own (the layers
// interleave the subgraph with others) is left out: the nodes are drawn,
// unframed, rather than drawn in the wrong frame.

// groupPath is a group and its ancestors, outermost first.
func groupPath(g *Group) []*Group {
	var out []*Group
	for ; g != nil; g = g.Parent {
		out = append([]*Group{g}, out...)
	}
	return out
}

// commonPath is the longest common prefix of two group paths.
func commonPath(a, b []*Group) []*Group {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}

// groupHeights returns, per group, how many levels of groups nest inside
// it (0 for a group without nested groups): its frame lies 2 cells
// further out per level.
func groupHeights(groups []*Group) map[*Group]int {
	h := map[*Group]int{}
	for _, g := range groups {
		h[g] = max(h[g], 0)
		d := 1
		for p := g.Parent; p != nil; p = p.Parent {
			h[p] = max(h[p], d)
			d++
		}
	}
	return h
}

// setGroups gives every vnode its group path: a node's own, a waypoint's
// the path its edge's two ends share.
func (l *layout) setGroups() {
	for _, layer := range l.layers {
		for _, v := range layer {
			if v.node != nil {
				v.groups = groupPath(v.node.Group)
			}
		}
	}
	for _, e := range l.edges {
		if e.to.node == nil && e.to.groups == nil {
			from, to := l.byNode[l.fc.byID[e.edge.From]], l.byNode[l.fc.byID[e.edge.To]]
			e.to.groups = commonPath(from.groups, to.groups)
		}
	}
}

// groupOrder sorts each layer so that the vnodes of one group are next to
// each other (nested groups inside theirs), keeping the barycenter order
// otherwise: each vnode is keyed by the mean order of each of its groups'
// vnodes in the layer, outermost first, then by its own order.
func (l *layout) groupOrder() {
	for _, layer := range l.layers {
		sum, n := map[*Group]float64{}, map[*Group]int{}
		for _, v := range layer {
			for _, g := range v.groups {
				sum[g] += v.order
				n[g]++
			}
		}
		key := func(v *vnode) []float64 {
			k := make([]float64, 0, len(v.groups)+1)
			for _, g := range v.groups {
				k = append(k, sum[g]/float64(n[g]))
			}
			return append(k, v.order)
		}
		sort.SliceStable(layer, func(i, j int) bool {
			a, b := key(layer[i]), key(layer[j])
			for x := 0; x < len(a) && x < len(b); x++ {
				if a[x] != b[x] {
					return a[x] < b[x]
				}
			}
			return len(a) > len(b)
		})
		for i, v := range layer {
			v.order = float64(i)
		}
	}
}

// groupGap is the room between u and the next vnode v of a layer for the
// frames that close after u and open before v.
func (l *layout) groupGap(u, v *vnode) int {
	common := len(commonPath(u.groups, v.groups))
	need := 0
	if len(u.groups) > common {
		need += 2 + 2*l.heights[u.groups[common]]
	}
	if len(v.groups) > common {
		need += 2 + 2*l.heights[v.groups[common]]
	}
	if need > 0 {
		need++
	}
	return need
}

// frameRows returns the rows frames need before layer k (opening) and
// after it (closing), from the groups that start or end there.
func (l *layout) frameRows(k int) (open, close int) {
	for _, g := range l.fc.Groups {
		first, last, ok := l.groupLayers(g)
		if !ok {
			continue
		}
		if first == k {
			open = max(open, 1+2*l.heights[g])
		}
		if last == k {
			close = max(close, 2+2*l.heights[g])
		}
	}
	return open, close
}

// members reports whether v is in g or a group nested in it.
func members(v *vnode, g *Group) bool {
	for _, p := range v.groups {
		if p == g {
			return v.node != nil
		}
	}
	return false
}

// groupLayers returns the first and last layer holding g's nodes.
func (l *layout) groupLayers(g *Group) (first, last int, ok bool) {
	first, last = -1, -1
	for k, layer := range l.layers {
		for _, v := range layer {
			if members(v, g) {
				if first < 0 {
					first = k
				}
				last = k
			}
		}
	}
	return first, last, first >= 0
}

// frame is a group's rectangle on the top-down grid.
type frame struct {
	g                        *Group
	top, bottom, left, right int
}

// frames returns the frames to draw: each group's, around its nodes,
// unless it would enclose a node of another group.
func (l *layout) frames() []frame {
	var out []frame
	for _, g := range l.fc.Groups {
		first, last, ok := l.groupLayers(g)
		if !ok {
			continue
		}
		h := l.heights[g]
		f := frame{g: g, top: l.rankPos[first] - 2 - 2*h, bottom: l.gapPos[last] + 1 + 2*h, left: 1 << 30, right: -1}
		for _, layer := range l.layers {
			for _, v := range layer {
				if members(v, g) {
					f.left = min(f.left, v.cross-2-2*h)
					f.right = max(f.right, v.cross+v.size+v.room+1+2*h)
				}
			}
		}
		if l.encloses(f) {
			continue
		}
		if wide := f; f.g.Title != "" { // room for the whole title when nothing is in the way
			wide.right = max(f.right, f.left+textWidth(f.g.Title)+5)
			clear := wide
			clear.right += 3 // nor near another frame's line
			if !l.encloses(clear) {
				f = wide
			}
		}
		out = append(out, f)
	}
	return out
}

// encloses reports whether a frame overlaps a node that is not its own.
func (l *layout) encloses(f frame) bool {
	for k, layer := range l.layers {
		for _, v := range layer {
			if v.node == nil || members(v, f.g) {
				continue
			}
			r0, r1 := l.rankPos[k], l.rankPos[k]+v.thick-1
			c0, c1 := v.cross, v.cross+v.size+v.room-1
			if r1 >= f.top && r0 <= f.bottom && c1 >= f.left && c0 <= f.right {
				return true
			}
		}
	}
	return false
}

// drawFrame draws a group's frame with its title on its top line.
func (l *layout) drawFrame(d *drawer, f frame) {
	d.path(pt{f.top, f.left}, pt{f.top, f.right}, pt{f.bottom, f.right}, pt{f.bottom, f.left}, pt{f.top, f.left})
	x0, y0 := d.xy(pt{f.top, f.left})
	x1, y1 := d.xy(pt{f.bottom, f.right})
	x, y, w := min(x0, x1), min(y0, y1), max(x0, x1)-min(x0, x1)+1
	title := []rune(" " + f.g.Title + " ")
	for len(title) > 3 && textWidth(string(title)) > w-4 {
		title = append(title[:len(title)-3], '…', ' ')
	}
	if textWidth(string(title)) <= w-4 && f.g.Title != "" {
		d.c.text(x+2, y, string(title))
	}
}
