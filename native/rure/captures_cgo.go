//go:build cgo

package rure

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo noescape rure_find_captures
#cgo nocallback rure_find_captures
#cgo noescape rure_captures_at
#cgo nocallback rure_captures_at
#include "gopi_native.h"
*/
import "C"

import "runtime"

// Captures holds the group positions of one match. It belongs to the Regex
// that made it and to one goroutine at a time. Close it when done.
type Captures struct {
	ptr     *C.rure_captures
	re      *Regex
	cleanup runtime.Cleanup
}

// NewCaptures returns an empty Captures for use with re.
func (re *Regex) NewCaptures() *Captures {
	// Allocated by Rust; owned by caps; freed by Close or the cleanup. It
	// does not point back into re.
	p := C.rure_captures_new(re.live())
	runtime.KeepAlive(re)
	caps := &Captures{ptr: p, re: re}
	caps.cleanup = runtime.AddCleanup(caps, func(p *C.rure_captures) { C.rure_captures_free(p) }, p)
	return caps
}

// Captures finds the leftmost-first match in haystack and records its
// groups in caps, which must come from re.NewCaptures. It reports whether
// there was a match.
func (re *Regex) Captures(caps *Captures, haystack string) bool {
	h, n := stringArg(haystack)
	return re.captures(caps, h, n)
}

// CapturesBytes is Captures for a byte slice.
func (re *Regex) CapturesBytes(caps *Captures, haystack []byte) bool {
	h, n := bytesArg(haystack)
	return re.captures(caps, h, n)
}

func (re *Regex) captures(caps *Captures, h *C.uint8_t, n C.size_t) bool {
	caps.check(re)
	ok := bool(C.rure_find_captures(re.live(), h, n, 0, caps.live()))
	runtime.KeepAlive(re)
	runtime.KeepAlive(caps)
	return ok
}

// check panics when caps was made by another regex: rure would read a
// group layout that does not fit.
func (caps *Captures) check(re *Regex) {
	if caps.re != re {
		panic("rure: Captures used with a Regex other than the one that made it")
	}
}

// Group returns the byte range of group i in the last match; ok is false
// when the group did not participate or i is out of range.
func (caps *Captures) Group(i int) (start, end int, ok bool) {
	if i < 0 {
		return -1, -1, false
	}
	var m C.rure_match
	found := bool(C.rure_captures_at(caps.live(), C.size_t(i), &m))
	runtime.KeepAlive(caps)
	if !found {
		return -1, -1, false
	}
	return int(m.start), int(m.end), true
}

// Len returns the number of groups, including group 0.
func (caps *Captures) Len() int {
	n := int(C.rure_captures_len(caps.live()))
	runtime.KeepAlive(caps)
	return n
}

// Close frees caps. Calling it again does nothing.
func (caps *Captures) Close() {
	if caps == nil || caps.ptr == nil {
		return
	}
	caps.cleanup.Stop()
	C.rure_captures_free(caps.ptr)
	caps.ptr = nil
}

func (caps *Captures) live() *C.rure_captures {
	if caps.ptr == nil {
		panic("rure: use of closed Captures")
	}
	return caps.ptr
}
