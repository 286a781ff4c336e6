//go:build cgo

package rure

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo noescape rure_iter_next
#cgo nocallback rure_iter_next
#cgo noescape rure_iter_next_captures
#cgo nocallback rure_iter_next_captures
#include "gopi_native.h"
*/
import "C"

import "runtime"

// Iter steps through the successive non-overlapping matches of one
// haystack, one C call per match. An empty match right after a match is
// skipped, and after an empty match the search resumes one byte later, so
// on non-ASCII text empty matches may fall inside a UTF-8 sequence (rure's
// byte-oriented semantics; LineMatcher keeps them on character
// boundaries). It belongs to one goroutine. Close it when done.
type Iter struct {
	ptr *C.rure_iter
	re  *Regex // keeps the regex the C iterator points to reachable
	// The haystack, held by Go and passed to C afresh on every step.
	str     string
	bytes   []byte
	isBytes bool
	cleanup runtime.Cleanup
}

// Iter returns an iterator over the matches of re in haystack.
func (re *Regex) Iter(haystack string) *Iter {
	return re.newIter(&Iter{str: haystack})
}

// IterBytes returns an iterator over the matches of re in haystack, which
// must not be modified until the iterator is closed.
func (re *Regex) IterBytes(haystack []byte) *Iter {
	return re.newIter(&Iter{bytes: haystack, isBytes: true})
}

func (re *Regex) newIter(it *Iter) *Iter {
	// Allocated by Rust; owned by it; freed by Close or the cleanup. It
	// points to re's C regex, so it must not outlive re (it.re keeps re
	// reachable; closing re first is a bug).
	p := C.rure_iter_new(re.live())
	runtime.KeepAlive(re)
	it.ptr, it.re = p, re
	it.cleanup = runtime.AddCleanup(it, func(p *C.rure_iter) { C.rure_iter_free(p) }, p)
	return it
}

func (it *Iter) haystack() (*C.uint8_t, C.size_t) {
	if it.isBytes {
		return bytesArg(it.bytes)
	}
	return stringArg(it.str)
}

// Next stores the next match in m and reports whether there was one.
func (it *Iter) Next(m *Match) bool {
	h, n := it.haystack()
	var cm C.rure_match
	ok := bool(C.rure_iter_next(it.live(), h, n, &cm))
	runtime.KeepAlive(it)
	if ok && m != nil {
		m.Start, m.End = int(cm.start), int(cm.end)
	}
	return ok
}

// NextCaptures records the next match's groups in caps (made by the
// iterator's Regex) and reports whether there was a match.
func (it *Iter) NextCaptures(caps *Captures) bool {
	caps.check(it.re)
	h, n := it.haystack()
	ok := bool(C.rure_iter_next_captures(it.live(), h, n, caps.live()))
	runtime.KeepAlive(it)
	runtime.KeepAlive(caps)
	return ok
}

// all drains the iterator into flat start,end pairs.
func (it *Iter) all() []int {
	var out []int
	var m Match
	for it.Next(&m) {
		out = append(out, m.Start, m.End)
	}
	return out
}

// Close frees the iterator. Calling it again does nothing.
func (it *Iter) Close() {
	if it == nil || it.ptr == nil {
		return
	}
	it.cleanup.Stop()
	C.rure_iter_free(it.ptr)
	it.ptr = nil
}

func (it *Iter) live() *C.rure_iter {
	if it.ptr == nil {
		panic("rure: use of closed Iter")
	}
	return it.ptr
}
