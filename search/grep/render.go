package grep

import (
	"iter"

	"github.com/gopi-agent/gopi/native/rure"
)

// renderBufs is a search's free list of output buffers
// (Needs.ReuseRendered): the printer puts back what it has written, the
// workers take from it before they allocate. Nil when not reused.
type renderBufs chan []byte

// maxReusedRender is the largest buffer kept for reuse: one that held a
// very long line is left to the garbage collector.
const maxReusedRender = 32 << 20

// get returns an empty buffer of about size bytes, a reused one if any is
// free. A new one has a quarter more room: the next part is often a little
// longer than the last (one long line printed again with a wider column),
// and a buffer that had to grow would be allocated twice.
func (p renderBufs) get(size int) []byte {
	select {
	case b := <-p: // a nil channel is never ready
		return b[:0]
	default:
		return make([]byte, 0, size+size/4)
	}
}

// put hands b back for reuse, unless it is too large or the list is full.
func (p renderBufs) put(b []byte) {
	if p == nil || cap(b) == 0 || cap(b) > maxReusedRender {
		return
	}
	select {
	case p <- b:
	default:
	}
}

// Rendering is where Needs.Render writes the formatted lines of one file
// (or of one block of a file read in blocks). Render appends to Buf and
// calls Spill after each line it writes: a file whose output is huge (one
// long line with millions of matches under -o or --vimgrep) is then handed
// to the printer a piece at a time instead of being held whole.
type Rendering struct {
	// Buf holds the lines formatted since the last spill.
	Buf []byte
	// spill hands a full Buf to the printer as a part of the file's
	// results; it reports false once the search is being abandoned. Nil
	// where nothing can be handed on early.
	spill   func([]byte) bool
	bufs    renderBufs // where the next Buf comes from
	spillAt int        // how much Buf holds before Spill hands it on
	stopped bool
}

// Spill hands Buf to the printer once it holds the spill size (256 KiB) or more and
// starts an empty one. It reports false once the search is being abandoned
// (the printer stopped, the caller has enough): Render should then return
// without formatting more.
func (r *Rendering) Spill() bool {
	if r.stopped {
		return false
	}
	if len(r.Buf) < r.spillAt || r.spill == nil {
		return true
	}
	full := r.Buf
	r.Buf = r.bufs.get(len(full))
	if !r.spill(full) {
		r.stopped = true
	}
	return !r.stopped
}

// renders reports whether the matches of w's search are formatted by
// Needs.Render rather than built as records.
func (w *worker) renders() bool {
	return w.needs.Render != nil && w.opts.ContextBefore <= 0 && w.opts.ContextAfter <= 0
}

// renderMatches is buildMatches through Needs.Render (render): it formats buf's
// hits, numbered from lineBase+1 and with buf starting at byte byteBase of
// the text searched, into out. view and cut are the worker's scratch: the
// view handed to Render and the buffer of a line cut to MaxColumns. The
// spans of h are made relative to their lines in place (a line can hold
// millions of them: a copy would double the largest allocation of the
// search), so h is spent afterwards.
func renderMatches(out *Rendering, buf []byte, h *rure.Hits, path string, lineBase int, byteBase int64, opts *Options, render func(*Rendering, string, iter.Seq[*MatchView]), view *MatchView, cut *[]byte) {
	render(out, path, func(yield func(*MatchView) bool) {
		for _, hit := range h.Lines {
			if out.stopped {
				return
			}
			text := buf[hit.Start:hit.End]
			*view = MatchView{Line: hit.Line + lineBase, Offset: byteBase + int64(hit.Start), Text: text}
			limit := len(text)
			if opts.MaxColumns > 0 && len(text) > opts.MaxColumns {
				if c := cutBytes(text, opts.MaxColumns); c < len(text) {
					*cut = append(append((*cut)[:0], text[:c]...), "…"...)
					view.Text, view.Truncated = *cut, true
					limit = len(*cut)
				}
			}
			spans := h.Spans[hit.SpanLo:hit.SpanHi]
			kept := len(spans)
			for i := range spans {
				s := &spans[i]
				s.Start -= hit.Start
				s.End -= hit.Start
				if view.Truncated && s.End > limit-len("…") {
					kept = i
					break
				}
			}
			view.Spans = spans[:kept:kept]
			if !yield(view) {
				return
			}
		}
	})
}
