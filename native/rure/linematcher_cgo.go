//go:build cgo

package rure

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo noescape gopi_line_matcher_new
#cgo nocallback gopi_line_matcher_new
#cgo noescape gopi_line_matcher_find
#cgo nocallback gopi_line_matcher_find
#cgo noescape gopi_line_matcher_count
#cgo nocallback gopi_line_matcher_count
#cgo noescape gopi_line_matcher_is_match
#cgo nocallback gopi_line_matcher_is_match
#cgo noescape gopi_line_matcher_crosses_lines
#cgo nocallback gopi_line_matcher_crosses_lines
#include "gopi_native.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"
)

// Rust writes hits and spans straight into Hits' arrays, so LineHit and
// Span must have exactly the C layout (64-bit ints). These fail to compile
// if the sizes ever differ (for example where int is 32 bits).
var (
	_ [unsafe.Sizeof(LineHit{}) - unsafe.Sizeof(C.gopi_line_hit{})]byte
	_ [unsafe.Sizeof(C.gopi_line_hit{}) - unsafe.Sizeof(LineHit{})]byte
	_ [unsafe.Sizeof(Span{}) - unsafe.Sizeof(C.gopi_span{})]byte
	_ [unsafe.Sizeof(C.gopi_span{}) - unsafe.Sizeof(Span{})]byte
)

// Free room ensured before a find call, so typical buffers need one call.
const (
	minFreeHits  = 64
	minFreeSpans = 128
)

// LineMatcher finds the lines of a buffer that match a pattern, in one cgo
// call per buffer. It is safe for concurrent use by multiple goroutines.
// Close it when done.
//
// The pattern is compiled with multi-line anchors (^ and $ match at line
// boundaries). Unless LineOptions.Multiline is set, a match never spans a
// '\n': '\n' is removed from every class, a written \n is an error, and
// \A and \z act as line anchors, so each line behaves as if searched alone.
// Matches are leftmost-first, non-overlapping and may be empty (an empty
// match may fall anywhere, even inside a UTF-8 sequence or beside an
// invalid byte, as with Rust's regex::bytes and ripgrep); a buffer's
// last line counts even without a final '\n', the empty remainder after a
// final '\n' is not a line, and an empty buffer has no lines.
//
// When the pattern has Unicode word boundaries (\b, \B, \<, \> and
// friends), a second regex with their ASCII forms is compiled too and used
// for pure-ASCII buffers, where both give identical results.
type LineMatcher struct {
	ptr       *C.gopi_line_matcher
	pattern   string
	multiline bool
	cleanup   runtime.Cleanup
}

// NewLineMatcher compiles pattern for line matching. Errors are *Error.
func NewLineMatcher(pattern string, opts LineOptions) (*LineMatcher, error) {
	copts := C.gopi_line_options{
		size_limit:     C.uint64_t(max(opts.SizeLimit, 0)),
		dfa_size_limit: C.uint64_t(max(opts.DFASizeLimit, 0)),
	}
	if opts.CaseInsensitive {
		copts.flags |= C.GOPI_LINE_CASEI
	}
	if opts.Multiline {
		copts.flags |= C.GOPI_LINE_MULTILINE
	}
	if opts.noASCIIVariant {
		copts.flags |= C.GOPI_LINE_NO_ASCII_VARIANT
	}
	if opts.noInnerLiteral {
		copts.flags |= C.GOPI_LINE_NO_INNER_LITERAL
	}
	pat, n := stringArg(pattern)
	pos := C.int64_t(-1)
	var msg *C.char // allocated by Rust on failure; freed by takeString/internalError
	// Allocated by Rust on success; owned by the returned matcher; freed by
	// Close or the cleanup.
	p := C.gopi_line_matcher_new(pat, n, &copts, &pos, &msg)
	if p == nil {
		if pos < 0 && msg != nil && isInternal(msg) {
			return nil, internalError(pattern, msg)
		}
		kind := KindSyntax
		if pos < 0 {
			kind = KindLimit
		}
		return nil, &Error{Kind: kind, Pattern: pattern, Message: takeString(msg), Pos: int(pos)}
	}
	m := &LineMatcher{ptr: p, pattern: pattern, multiline: opts.Multiline}
	m.cleanup = runtime.AddCleanup(m, func(p *C.gopi_line_matcher) { C.gopi_line_matcher_free(p) }, p)
	return m, nil
}

// isInternal tells a caught panic's message (see the crate's ffi::guard)
// from an ordinary compile error without taking ownership of msg.
func isInternal(msg *C.char) bool {
	const prefix = "internal error:"
	return C.GoStringN(msg, C.int(len(prefix))) == prefix
}

// String returns the source pattern.
func (m *LineMatcher) String() string { return m.pattern }

// Close frees the matcher. Calling it again does nothing. No goroutine may
// use m afterwards.
func (m *LineMatcher) Close() {
	if m == nil || m.ptr == nil {
		return
	}
	m.cleanup.Stop()
	C.gopi_line_matcher_free(m.ptr)
	m.ptr = nil
}

func (m *LineMatcher) live() *C.gopi_line_matcher {
	if m.ptr == nil {
		panic(fmt.Sprintf("rure: use of closed LineMatcher %q", m.pattern))
	}
	return m.ptr
}

// hasASCIIVariant reports whether m compiled the ASCII word-boundary form.
func (m *LineMatcher) hasASCIIVariant() bool {
	v := C.gopi_line_matcher_has_ascii_variant(m.live()) == 1
	runtime.KeepAlive(m)
	return v
}

// CrossesLines reports whether a match can contain a '\n'. That happens
// only in Multiline mode, for a pattern with a literal or class holding
// '\n' (`a\nb`, `\s`, `[^x]`, `(?s).`); look-around assertions such as `$`
// match no text. ripgrep's --count counts matches instead of lines exactly
// for such searches.
func (m *LineMatcher) CrossesLines() bool {
	v := C.gopi_line_matcher_crosses_lines(m.live()) == 1
	runtime.KeepAlive(m)
	return v
}

// FindLines appends the hits of buf to h: every line with at least one
// match, with all of that line's matches (or, in Multiline mode, every run
// of lines joined by matches). It stops after maxLines hits when maxLines
// is positive. Span offsets are relative to buf.
//
// It makes one cgo call, plus one more each time h's arrays fill up: Rust
// writes into the free capacity of h.Lines and h.Spans and, when a hit does
// not fit, returns a cursor from which the next call resumes after Go has
// grown the arrays. A panic in the native code comes back as an *Error of
// kind KindInternal; h then holds the hits found before it.
func (m *LineMatcher) FindLines(buf []byte, maxLines int, h *Hits) error {
	return m.findLines(buf, maxLines, false, h)
}

// FindLinesFirstMatch is FindLines for a printer of whole lines: in line
// mode a line's search stops at its first match, so each hit has exactly
// one span (in multiline mode it is FindLines).
func (m *LineMatcher) FindLinesFirstMatch(buf []byte, maxLines int, h *Hits) error {
	return m.findLines(buf, maxLines, true, h)
}

func (m *LineMatcher) findLines(buf []byte, maxLines int, firstOnly bool, h *Hits) error {
	p := m.live()
	first := C.int32_t(0)
	if firstOnly {
		first = 1
	}
	b, n := bytesArg(buf)
	var cur C.gopi_line_cursor // resume state, zero at buffer start; Go-owned
	h.Lines = slices.Grow(h.Lines, minFreeHits)
	h.Spans = slices.Grow(h.Spans, minFreeSpans)
	for {
		limit := max(maxLines, 0) // hits still wanted; 0 means no limit
		// The free tails of h's arrays, owned by Go and lent to Rust for
		// this call only; Rust writes at most cap-len elements into each.
		freeHits := h.Lines[len(h.Lines):cap(h.Lines)]
		freeSpans := h.Spans[len(h.Spans):cap(h.Spans)]
		var nh, ns C.size_t
		var msg *C.char // allocated by Rust on failure; freed by internalError
		var st C.int32_t
		if injectedPanic(&msg) {
			st = C.GOPI_FAILED
		} else {
			st = C.gopi_line_matcher_find(p, b, n, &cur, C.int64_t(limit), first,
				(*C.gopi_line_hit)(unsafe.Pointer(unsafe.SliceData(freeHits))), C.size_t(len(freeHits)), &nh,
				(*C.gopi_span)(unsafe.Pointer(unsafe.SliceData(freeSpans))), C.size_t(len(freeSpans)), &ns,
				C.int64_t(len(h.Spans)), &msg)
		}
		runtime.KeepAlive(m)
		if st == C.GOPI_FAILED {
			return internalError(m.pattern, msg)
		}
		h.Lines = h.Lines[:len(h.Lines)+int(nh)]
		h.Spans = h.Spans[:len(h.Spans)+int(ns)]
		if maxLines > 0 {
			if maxLines -= int(nh); maxLines <= 0 {
				return nil
			}
		}
		switch st {
		case C.GOPI_DONE:
			return nil
		case C.GOPI_FULL_HITS:
			h.Lines = slices.Grow(h.Lines, max(2*len(freeHits), minFreeHits))
		case C.GOPI_FULL_SPANS:
			// Room for the whole hit that did not fit (Rust counted its
			// spans), at least doubling: a line with millions of matches
			// is then stored after one growth instead of twenty.
			h.Spans = slices.Grow(h.Spans, max(int(cur.spans_needed), 2*len(freeSpans), minFreeSpans))
		}
	}
}

// CountLines returns how many lines of buf match (each line once) and how
// many matches there are, without materialising them. A panic in the
// native code comes back as an *Error of kind KindInternal.
func (m *LineMatcher) CountLines(buf []byte) (lines, matches int, err error) {
	p := m.live()
	b, n := bytesArg(buf)
	var nl, nm C.uint64_t
	var msg *C.char // allocated by Rust on failure; freed by internalError
	var st C.int32_t
	if injectedPanic(&msg) {
		st = C.GOPI_FAILED
	} else {
		st = C.gopi_line_matcher_count(p, b, n, &nl, &nm, &msg)
	}
	runtime.KeepAlive(m)
	if st == C.GOPI_FAILED {
		return 0, 0, internalError(m.pattern, msg)
	}
	return int(nl), int(nm), nil
}

// CountMatchingLines returns how many lines of buf match, searching each
// line only up to its first match: faster than CountLines when the number
// of matches is not needed. A panic in the native code comes back as an
// *Error of kind KindInternal.
func (m *LineMatcher) CountMatchingLines(buf []byte) (int, error) {
	p := m.live()
	b, n := bytesArg(buf)
	var nl C.uint64_t
	var msg *C.char // allocated by Rust on failure; freed by internalError
	var st C.int32_t
	if injectedPanic(&msg) {
		st = C.GOPI_FAILED
	} else {
		st = C.gopi_line_matcher_count_lines(p, b, n, &nl, &msg)
	}
	runtime.KeepAlive(m)
	if st == C.GOPI_FAILED {
		return 0, internalError(m.pattern, msg)
	}
	return int(nl), nil
}

// IsMatch reports whether any line of buf matches. A panic in the native
// code comes back as an *Error of kind KindInternal.
func (m *LineMatcher) IsMatch(buf []byte) (bool, error) {
	p := m.live()
	b, n := bytesArg(buf)
	var msg *C.char // allocated by Rust on failure; freed by internalError
	var r C.int32_t
	if injectedPanic(&msg) {
		r = -1
	} else {
		r = C.gopi_line_matcher_is_match(p, b, n, &msg)
	}
	runtime.KeepAlive(m)
	if r < 0 {
		return false, internalError(m.pattern, msg)
	}
	return r == 1, nil
}
