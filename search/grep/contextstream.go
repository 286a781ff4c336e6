package grep

import (
	"bytes"

	"github.com/gopi-agent/gopi/native/rure"
)

// contextStream builds the content results of a text read a block at a
// time (searchReader) when they carry context lines. A match is built, and
// handed on, once its context is complete: the next hit is known (the
// after-context stops before it), or ContextAfter lines follow it, or the
// text ended. Between blocks the reader keeps only what later matches may
// still need: ContextBefore lines before the first match not yet built.
// So memory follows the context asked for, not the size of the text (a
// 1 GiB file searched with -C2 used to be read whole).
//
// Offsets of the kept hits are relative to the start of the text the
// reader holds; dropped tells by how much that start moved.
type contextStream struct {
	w       *worker
	display string
	pending rure.Hits // hits found and not built yet; line numbers absolute
	shown   int       // the last line shown so far (0: none)
	// remaining: matching lines MaxCount still allows (when > 0); once it
	// reaches 0 nothing more is searched, and the stream is done when the
	// last match's after-context is complete.
	remaining int
	exhausted bool
}

// newContextStream starts the context search of one text.
func newContextStream(w *worker, display string) *contextStream {
	return &contextStream{w: w, display: display, remaining: w.opts.MaxCount}
}

// feed searches text[from:] (complete lines; text[:from] was searched by
// an earlier call and kept for context), where text starts at line
// firstLine+1 and byte base of the text searched. It hands every match
// whose context is complete to send (end: nothing more will come, so all
// are) and returns how many bytes at the start of text later calls no
// longer need; ok is false when send said to stop.
func (s *contextStream) feed(text []byte, from, firstLine int, base int64, end bool, send func(*FileResult) bool) (drop int, ok bool, err error) {
	o := s.w.opts
	work := &s.pending // the hits to build from
	if !s.exhausted && from < len(text) {
		h, err := s.w.findLimit(text[from:], s.remaining)
		if err != nil {
			return 0, false, err
		}
		// The worker's hits are ours until the next search: made relative
		// to text in place, and built from directly when nothing is
		// pending (the common case), so a block of lines that all match
		// is not copied.
		lineFrom := firstLine + bytes.Count(text[:from], []byte{'\n'})
		for i := range h.Lines {
			h.Lines[i].Line += lineFrom
			h.Lines[i].Start += from
			h.Lines[i].End += from
		}
		for i := range h.Spans {
			h.Spans[i].Start += from
			h.Spans[i].End += from
		}
		if len(s.pending.Lines) == 0 {
			work = h
		} else {
			s.appendPending(h, 0)
		}
		if o.MaxCount > 0 {
			s.remaining -= len(h.Lines)
			s.exhausted = s.remaining <= 0
		}
	}
	// Every hit but the last is bounded by the one after it; the last is
	// final once its after-context is in text, or nothing follows.
	n := len(work.Lines)
	final := max(n-1, 0)
	if n > 0 && (end || hasLinesAfter(text, work.Lines[n-1].End, o.ContextAfter)) {
		final = n
	}
	// Parts of at most buildChunk matches: a block of short lines that all
	// match holds hundreds of thousands.
	for lo := 0; lo < final; lo += buildChunk {
		if !s.build(text, work, lo, min(final, lo+buildChunk), base, send) {
			return 0, false, nil
		}
	}
	s.keepFrom(work, final)
	// Keep the ContextBefore lines before the first hit still pending (or
	// before the end of text, for hits still to be found).
	anchor := len(text)
	if len(s.pending.Lines) > 0 {
		anchor = s.pending.Lines[0].Start
	}
	drop = startOfLinesBefore(text, anchor, o.ContextBefore)
	s.rebase(drop)
	return drop, true, nil
}

// buildChunk is the most matches one part carries.
const buildChunk = 4096

// done reports whether nothing more can come: MaxCount was reached and
// every match found is built.
func (s *contextStream) done() bool {
	return s.exhausted && len(s.pending.Lines) == 0
}

// build hands the hits src.Lines[lo:hi], with their context, to send.
func (s *contextStream) build(text []byte, src *rure.Hits, lo, hi int, base int64, send func(*FileResult) bool) bool {
	o := s.w.opts
	lines := src.Lines
	part := &FileResult{Path: s.display, Lines: hi - lo, Count: lines[hi-1].SpanHi - lines[lo].SpanLo}
	if o.Invert {
		part.Count = hi - lo
	}
	part.Matches, s.shown = buildMatchesFrom(text, src, lo, hi, s.shown, s.display, o)
	moveMatches(part.Matches, 0, base) // line numbers are whole-text ones already
	if hi == len(lines) && s.exhausted {
		// The last match MaxCount allows: a matching line in its
		// after-context is printed as a match (see markTrailing).
		s.w.markTrailing(part.Matches)
	}
	return send(part)
}

// keepFrom makes src.Lines[from:] (and their spans) the pending hits.
func (s *contextStream) keepFrom(src *rure.Hits, from int) {
	if src == &s.pending {
		rest := s.pending.Lines[from:]
		if len(rest) == 0 {
			s.pending.Reset()
			return
		}
		lo := rest[0].SpanLo
		s.pending.Spans = s.pending.Spans[:copy(s.pending.Spans, s.pending.Spans[lo:])]
		s.pending.Lines = s.pending.Lines[:copy(s.pending.Lines, rest)]
		for i := range s.pending.Lines {
			s.pending.Lines[i].SpanLo -= lo
			s.pending.Lines[i].SpanHi -= lo
		}
		return
	}
	s.pending.Reset()
	s.appendPending(src, from)
}

// appendPending appends src.Lines[from:] and their spans to the pending
// hits (src is not the pending hits themselves).
func (s *contextStream) appendPending(src *rure.Hits, from int) {
	rest := src.Lines[from:]
	if len(rest) == 0 {
		return
	}
	lo := rest[0].SpanLo
	shift := len(s.pending.Spans) - lo
	s.pending.Spans = append(s.pending.Spans, src.Spans[lo:rest[len(rest)-1].SpanHi]...)
	for _, l := range rest {
		l.SpanLo += shift
		l.SpanHi += shift
		s.pending.Lines = append(s.pending.Lines, l)
	}
}

// rebase moves the pending hits' offsets back by drop bytes, the part of
// the text the reader lets go.
func (s *contextStream) rebase(drop int) {
	if drop == 0 {
		return
	}
	for i := range s.pending.Lines {
		s.pending.Lines[i].Start -= drop
		s.pending.Lines[i].End -= drop
	}
	for i := range s.pending.Spans {
		s.pending.Spans[i].Start -= drop
		s.pending.Spans[i].End -= drop
	}
}

// hasLinesAfter reports whether text holds n complete lines after the line
// ending at offset end (its '\n', if any, at text[end]).
func hasLinesAfter(text []byte, end, n int) bool {
	pos := end
	for range n + 1 {
		if pos >= len(text) {
			return false
		}
		i := bytes.IndexByte(text[pos:], '\n')
		if i < 0 {
			return false
		}
		pos += i + 1
	}
	return true
}

// startOfLinesBefore returns the offset of the start of the n-th line
// before the line starting at offset at (0 when text has fewer).
func startOfLinesBefore(text []byte, at, n int) int {
	pos := at
	for range n {
		if pos == 0 {
			return 0
		}
		pos = bytes.LastIndexByte(text[:pos-1], '\n') + 1
	}
	return pos
}
