package fscache

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// The walk reads directories in parallel: a fixed pool of workers takes
// directories from a shared stack, lists and lstats their children, and
// pushes the subdirectories it will descend into. Each directory keeps its
// own sorted child list; once every worker is idle the per-directory lists
// are stitched together depth-first, so the output order does not depend on
// scheduling.

// dirNode is one directory to list.
type dirNode struct {
	abs     string        // absolute path
	rel     string        // slash path relative to the scan root; "" for the root
	ign     *ignoreState  // rules inherited from above; nil when Gitignore is off
	entries []Entry       // children kept, sorted by name
	subs    []subdir      // children descended into
	done    chan struct{} // closed once entries and subs are final; nil unless streaming
	parent  *dirNode      // nil for the root
	id      dirID         // the directory's identity, set when following links
	taken   bool          // a worker has taken it off the stack (set under walker.mu)
	denied  bool          // it could not be listed for lack of permission (set before done)
}

// hasAncestor reports whether id is d or a directory above it.
func (d *dirNode) hasAncestor(id dirID) bool {
	for p := d; p != nil; p = p.parent {
		if p.id == id {
			return true
		}
	}
	return false
}

// subdir links the entry at index at of the parent's entries to its node.
type subdir struct {
	at   int
	node *dirNode
}

// walker is the shared state of one Walk.
type walker struct {
	ctx    context.Context
	opts   Options
	noStat bool // skip the per-entry lstat (WalkTypes)
	global *globalExcludes
	count  atomic.Int64 // entries collected so far

	mu      sync.Mutex
	cond    *sync.Cond
	stack   []*dirNode
	pending int           // directories queued or being listed
	stop    bool          // the context was cancelled or the consumer stopped
	halted  chan struct{} // closed when stop is set; nil unless streaming
	// A streamed walk stays at most lookahead() entries ahead of its
	// consumer: ahead counts the entries of listed directories the consumer
	// has not reached yet; want is the directory the consumer waits for,
	// which a worker takes whatever ahead says (it is the heap's first).
	ahead int
	want  *dirNode
	// reached counts the entries handed to the consumer: the bound grows
	// with it (lookahead), so that a consumer that is just starting, whose
	// first results someone may be waiting for, does not share the cores
	// with a walk listing thousands of entries it will not need for a while.
	reached int
	// maxAhead and startAhead are the walk's streamLookahead and
	// streamLookaheadStart; tests lower them (before start).
	maxAhead, startAhead int
}

// streamLookahead bounds how far a streamed walk lists ahead of its consumer
// (entries of directories listed but not reached): a slow consumer (a
// search of every file) keeps neither the listing of a whole tree in memory
// nor the walk's workers busy on cores it needs itself.
const streamLookahead = 4096

// streamLookaheadStart is the bound before the consumer has reached any
// entry; it grows by one for each entry reached, up to streamLookahead.
const streamLookaheadStart = 256

// lookahead is the current bound of a streamed walk. Must be called with
// w.mu held.
func (w *walker) lookahead() int {
	return min(w.maxAhead, w.startAhead+w.reached)
}

// Walk lists every entry below root (not root itself) under the traversal
// policy opts, without using any cache, in depth-first order with siblings
// sorted bytewise by name. It applies no global excludes file; a Cache
// walks with its Policy.ExcludesFile.
//
// `.git` is never listed or entered. Symlinks are listed as TypeSymlink and
// never followed (a symlinked root is). Hidden names are skipped unless
// opts.Hidden, except that a negated ignore pattern matching them keeps
// them, as in ripgrep. With opts.Gitignore, ignored entries are dropped and
// ignored directories not entered; with opts.SkipNodeModules, directories
// named node_modules are pruned.
//
// Unreadable directories are listed, their contents skipped (an entry marked
// Denied when permission was refused); entries that vanish during the walk
// are skipped silently; a missing root or a root that is not a directory is a
// *RootError. A cancelled ctx stops the walk with ctx.Err().
func Walk(ctx context.Context, root string, opts Options) ([]Entry, error) {
	return walkTree(ctx, root, opts, false, "")
}

// WalkTypes is Walk without the lstat of every entry, for callers that need
// neither MTime nor Size (both are 0): an entry's Type comes from its
// directory entry, with an lstat only where the file system does not report
// it. It saves one system call per entry, the largest part of a walk.
func WalkTypes(ctx context.Context, root string, opts Options) ([]Entry, error) {
	return walkTree(ctx, root, opts, true, "")
}

// walkTree is Walk, with or without the per-entry lstat, applying the
// global excludes file excludes ("" for none) inside git repositories.
func walkTree(ctx context.Context, root string, opts Options, noStat bool, excludes string) ([]Entry, error) {
	w, top, err := newWalker(ctx, root, opts, noStat, excludes, false)
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	w.start(&wg)
	wg.Wait()
	if w.stop {
		return nil, ctx.Err()
	}
	out := make([]Entry, 0, w.count.Load())
	return flatten(top, out), nil
}

// WalkStream walks like Walk and hands every entry to fn in the order Walk
// returns them, as soon as that entry and all entries before it are known,
// while the walk goes on below: the first files of a huge tree reach the
// caller long before the walk ends. idle, when not nil, is called each time
// fn would otherwise wait for the walk, so that a caller batching entries
// can hand over what it holds. A non-nil error from fn stops the walk and is
// returned; so is ctx.Err() when ctx ends first. Entries already handed over
// are not kept, so memory follows the part of the tree still being listed.
//
// With noStat the entries are those of WalkTypes: no lstat per entry, and
// MTime and Size are 0.
func WalkStream(ctx context.Context, root string, opts Options, noStat bool, fn func(Entry) error, idle func()) error {
	return walkStream(ctx, root, opts, noStat, "", fn, idle)
}

// walkStream is WalkStream applying the global excludes file excludes.
func walkStream(ctx context.Context, root string, opts Options, noStat bool, excludes string, fn func(Entry) error, idle func()) error {
	w, top, err := newWalker(ctx, root, opts, noStat, excludes, true)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	w.start(&wg)
	err = w.emit(top, fn, idle)
	w.halt()
	wg.Wait()
	if err == nil && w.stop && ctx.Err() != nil {
		err = ctx.Err()
	}
	return err
}

// newWalker prepares the walk of root; with stream, directories signal when
// their listing is final.
func newWalker(ctx context.Context, root string, opts Options, noStat bool, excludes string, stream bool) (*walker, *dirNode, error) {
	abs, err := checkDir(root)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	opts.Follow = opts.Follow && followSupported
	w := &walker{ctx: ctx, opts: opts, noStat: noStat, maxAhead: streamLookahead, startAhead: streamLookaheadStart}
	w.cond = sync.NewCond(&w.mu)
	top := &dirNode{abs: abs}
	if stream {
		w.halted = make(chan struct{})
		top.done = make(chan struct{})
	}
	if opts.Gitignore {
		w.global = &globalExcludes{path: excludes}
		top.ign = rootIgnoreState(abs, w.global)
	}
	w.stack = append(w.stack, top)
	w.pending = 1
	return w, top, nil
}

// start launches the workers on wg.
func (w *walker) start(wg *sync.WaitGroup) {
	// The walk is bound by lstat and getdents system calls, which keep their
	// P for their short duration; one worker per P measured as well as more.
	for range runtime.GOMAXPROCS(0) {
		wg.Go(w.work)
	}
}

// halt stops the walk: workers finish the directory in hand and leave.
func (w *walker) halt() {
	w.mu.Lock()
	w.setStop()
	w.mu.Unlock()
}

// setStop marks the walk stopped and wakes everyone waiting on it. Must be
// called with w.mu held.
func (w *walker) setStop() {
	if !w.stop {
		w.stop = true
		if w.halted != nil {
			close(w.halted)
		}
	}
	w.cond.Broadcast()
}

// emit hands d's entries and, depth-first, those of its subdirectories to
// fn, waiting for each directory's listing; it drops each directory's lists
// once they are handed over.
func (w *walker) emit(d *dirNode, fn func(Entry) error, idle func()) error {
	if err := w.await(d, idle); err != nil {
		return err
	}
	w.mu.Lock()
	w.want = nil
	wasThrottled := w.ahead >= w.lookahead()
	w.ahead -= len(d.entries)
	w.reached += len(d.entries)
	if wasThrottled && w.ahead < w.lookahead() {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
	sub := 0
	for i := range d.entries {
		e := d.entries[i]
		isSub := sub < len(d.subs) && d.subs[sub].at == i
		if e.Type == 0 {
			if isSub {
				sub++
			}
			continue
		}
		if isSub {
			// The directory's entry says whether it could be listed:
			// wait for its listing first.
			if err := w.await(d.subs[sub].node, idle); err != nil {
				return err
			}
			e.Denied = d.subs[sub].node.denied
		}
		if err := fn(e); err != nil {
			return err
		}
		if isSub {
			if err := w.emit(d.subs[sub].node, fn, idle); err != nil {
				return err
			}
			sub++
		}
	}
	d.entries, d.subs = nil, nil
	return nil
}

// await waits until d is listed, asking the workers for it first.
func (w *walker) await(d *dirNode, idle func()) error {
	select {
	case <-d.done:
		return nil
	default:
	}
	if idle != nil {
		idle()
	}
	w.mu.Lock()
	w.want = d
	w.cond.Broadcast()
	w.mu.Unlock()
	select {
	case <-d.done:
		return nil
	case <-w.halted:
		return w.ctx.Err()
	}
}

// work is one worker's loop: list directories until none is pending.
func (w *walker) work() {
	var sc scratch
	for {
		w.mu.Lock()
		for !w.stop && (len(w.stack) == 0 && w.pending > 0 || w.throttled()) {
			w.cond.Wait()
		}
		if w.stop || len(w.stack) == 0 {
			w.mu.Unlock()
			return
		}
		d := w.pop()
		w.mu.Unlock()

		cancelled := w.ctx.Err() != nil
		if !cancelled {
			w.list(d, &sc)
		}

		w.mu.Lock()
		if cancelled {
			w.setStop()
		}
		if d.done != nil {
			w.ahead += len(d.entries)
		}
		w.pending--
		if w.pending == 0 {
			w.cond.Broadcast()
		}
		w.mu.Unlock()
		if d.done != nil {
			close(d.done) // after ahead counts d, which the consumer's emit subtracts
			// Let the consumer run: woken by the close, it would otherwise
			// wait for this P until the walk is lookahead() entries ahead,
			// and the caller's first results (the first match of `gopi
			// grep x /`) with it. A listing takes microseconds, a system
			// call too short for the scheduler to hand the P on.
			runtime.Gosched()
		}
	}
}

// throttled reports whether a streamed walk is far enough ahead of its
// consumer that the workers should wait. Must be called with w.mu held.
func (w *walker) throttled() bool {
	return w.halted != nil && len(w.stack) > 0 && w.ahead >= w.lookahead() && (w.want == nil || w.want.taken)
}

// push queues the subdirectories of one listing, so that other workers can
// start on them while this one is still lstat-ing files.
func (w *walker) push(subs []subdir) {
	if len(subs) == 0 {
		return
	}
	w.mu.Lock()
	if w.halted != nil {
		for _, s := range subs {
			w.pushOrdered(s.node)
		}
	} else {
		for i := len(subs) - 1; i >= 0; i-- {
			w.stack = append(w.stack, subs[i].node)
		}
	}
	w.pending += len(subs)
	w.cond.Broadcast()
	w.mu.Unlock()
}

// pop takes the next directory to list. A streamed walk keeps w.stack as
// a heap ordered by output position, so the directory the consumer waits
// for is listed first; a plain walk uses it as a stack (depth first, which
// keeps the pending set small). Must be called with w.mu held.
func (w *walker) pop() *dirNode {
	n := len(w.stack) - 1
	if w.halted == nil || n == 0 {
		d := w.stack[n]
		w.stack = w.stack[:n]
		d.taken = true
		return d
	}
	top := w.stack[0]
	top.taken = true
	w.stack[0] = w.stack[n]
	w.stack = w.stack[:n]
	// Sift down.
	for i := 0; ; {
		l, smallest := 2*i+1, i
		if l < n && walkBefore(w.stack[l], w.stack[smallest]) {
			smallest = l
		}
		if r := l + 1; r < n && walkBefore(w.stack[r], w.stack[smallest]) {
			smallest = r
		}
		if smallest == i {
			break
		}
		w.stack[i], w.stack[smallest] = w.stack[smallest], w.stack[i]
		i = smallest
	}
	return top
}

// pushOrdered adds d to the heap of a streamed walk. Must be called with
// w.mu held.
func (w *walker) pushOrdered(d *dirNode) {
	w.stack = append(w.stack, d)
	for i := len(w.stack) - 1; i > 0; {
		parent := (i - 1) / 2
		if !walkBefore(w.stack[i], w.stack[parent]) {
			break
		}
		w.stack[i], w.stack[parent] = w.stack[parent], w.stack[i]
		i = parent
	}
}

// walkBefore reports whether a comes before b in the walk's output order:
// depth first with siblings sorted bytewise, which is the bytewise order
// of the relative paths with '/' taken as the lowest byte.
func walkBefore(a, b *dirNode) bool {
	x, y := a.rel, b.rel
	for i := 0; i < len(x) && i < len(y); i++ {
		cx, cy := x[i], y[i]
		if cx == cy {
			continue
		}
		if cx == '/' {
			return true
		}
		if cy == '/' {
			return false
		}
		return cx < cy
	}
	return len(x) < len(y)
}

// dirent is one name read from a directory.
type dirent struct {
	name string
	kind EntryType // from the directory entry; 0 when unknown
}

// dirID identifies a directory (device and inode) for link-loop checks.
type dirID struct{ dev, ino uint64 }

// scratch is a worker's reusable buffers.
type scratch struct {
	buf  []byte
	ents []dirent
}

// list reads one directory, filters its children and records them.
func (w *walker) list(d *dirNode, sc *scratch) {
	h, ok, denied := openDir(d.abs, d.rel == "" || w.opts.Follow)
	if !ok {
		// Unreadable: the directory is listed by its parent (its entry
		// marked Denied when permission was refused), its content skipped.
		d.denied = denied
		return
	}
	defer h.close()
	if w.opts.Follow {
		id, ok := h.id()
		if !ok {
			return
		}
		d.id = id
	}
	if sc.buf == nil {
		sc.buf = make([]byte, 32<<10)
	}
	ents := h.read(sc.buf, sc.ents[:0])
	sc.ents = ents
	if len(ents) == 0 {
		return
	}
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })

	opts := w.opts
	st := d.ign
	if opts.Gitignore {
		var m dirMarkers
		for _, e := range ents {
			switch e.name {
			case ".git":
				m.git = true
			case ".gitignore":
				m.gitignore = true
			case ".ignore":
				m.dotIgnore = true
			}
		}
		st = st.child(d.abs, d.rel, m, w.global)
	}
	matching := st != nil && !st.empty()
	stat := h.statter(d.abs)

	// Filter on the names and the directory-entry types first; lstat after
	// the subdirectories are queued.
	d.entries = make([]Entry, 0, len(ents))
	for _, de := range ents {
		name := de.name
		if name == ".git" {
			continue
		}
		hidden := name[0] == '.'
		if hidden && !opts.Hidden && !matching {
			continue
		}
		if de.kind == 0 {
			e, ok := stat.lstat(name)
			if !ok {
				continue
			}
			de.kind = e.Type
		}
		if de.kind == TypeSymlink && opts.Follow {
			if e, id, ok := stat.stat(name); ok && (e.Type == TypeDir || e.Type == TypeFile) {
				if e.Type == TypeDir && d.hasAncestor(id) {
					// A loop, as ripgrep and fd call it: left out.
					continue
				}
				de.kind = e.Type
			}
		}
		isDir := de.kind == TypeDir
		if isDir && opts.SkipNodeModules && name == "node_modules" {
			continue
		}
		if isDir && opts.SkipPseudoDirs && isPseudoDir(d.abs, name) {
			continue
		}
		path := name
		if d.rel != "" {
			path = d.rel + "/" + name
		}
		if matching {
			v := st.match(path, isDir)
			if v == ignored || (hidden && !opts.Hidden && v != whitelist) {
				continue
			}
		}
		d.entries = append(d.entries, Entry{Path: path, Type: de.kind})
		if isDir && (opts.MaxDepth <= 0 || strings.Count(path, "/")+1 < opts.MaxDepth) {
			node := &dirNode{abs: joinAbs(d.abs, name), rel: path, ign: st, parent: d}
			if w.halted != nil {
				node.done = make(chan struct{})
			}
			d.subs = append(d.subs, subdir{at: len(d.entries) - 1, node: node})
		}
	}
	w.push(d.subs)
	w.count.Add(int64(len(d.entries)))
	if w.noStat {
		return
	}

	for i := range d.entries {
		e := &d.entries[i]
		got, ok := stat.lstat(nameOf(e.Path))
		if ok && got.Type == TypeSymlink && opts.Follow {
			if target, _, tok := stat.stat(nameOf(e.Path)); tok && (target.Type == TypeDir || target.Type == TypeFile) {
				got = target // a followed link takes its target's kind, size and time
			}
		}
		if !ok {
			e.Type = 0 // vanished since the listing; dropped by flatten
			continue
		}
		if got.Type != TypeDir && e.Type == TypeDir {
			e.Type = 0 // replaced since the listing; its listing is dropped
			continue
		}
		e.Type, e.MTime, e.Size = got.Type, got.MTime, got.Size
	}
}

// pseudoDirs are the kernel's pseudo-file systems that SkipPseudoDirs prunes.
var pseudoDirs = [...]string{"proc", "sys", "dev"}

// isPseudoDir reports whether name inside the directory dir is one of
// pseudoDirs at the top of the file system.
func isPseudoDir(dir, name string) bool {
	if dir != "/" {
		return false
	}
	for _, p := range pseudoDirs {
		if name == p {
			return true
		}
	}
	return false
}

// nameOf returns the last component of a slash path.
func nameOf(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// joinAbs appends a name to an absolute directory path.
func joinAbs(dir, name string) string {
	if strings.HasSuffix(dir, string(os.PathSeparator)) {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

// flatten appends d's entries depth-first: each directory entry is followed
// by its own content. Entries whose lstat failed (Type 0) are dropped.
func flatten(d *dirNode, out []Entry) []Entry {
	sub := 0
	for i := range d.entries {
		e := &d.entries[i]
		if e.Type == 0 {
			if sub < len(d.subs) && d.subs[sub].at == i {
				sub++
			}
			continue
		}
		if sub < len(d.subs) && d.subs[sub].at == i {
			node := d.subs[sub].node
			out = append(out, *e)
			out[len(out)-1].Denied = node.denied
			out = flatten(node, out)
			sub++
			continue
		}
		out = append(out, *e)
	}
	return out
}
