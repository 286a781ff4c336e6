//go:build cgo

package rure

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo noescape rure_compile
#cgo nocallback rure_compile
#cgo noescape rure_is_match
#cgo nocallback rure_is_match
#cgo noescape rure_find
#cgo nocallback rure_find
#cgo noescape gopi_regex_syntax_error
#cgo nocallback gopi_regex_syntax_error
#include <stdlib.h>
#include "gopi_native.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// Regex is a compiled rure regular expression. It is safe for concurrent
// use by multiple goroutines. Close it when done.
type Regex struct {
	ptr     *C.rure
	pattern string
	cleanup runtime.Cleanup
}

// Compile compiles pattern with FlagDefault and default limits.
func Compile(pattern string) (*Regex, error) {
	return CompileOptions(pattern, FlagDefault, nil)
}

// MustCompile is Compile that panics on error; for patterns known to be
// valid, such as constants.
func MustCompile(pattern string) *Regex {
	re, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return re
}

// CompileOptions compiles pattern with the given Flag* bits and limits
// (nil opts means defaults). Errors are *Error.
func CompileOptions(pattern string, flags uint32, opts *Options) (*Regex, error) {
	var copts *C.rure_options
	if opts != nil {
		copts = opts.live()
	}
	// Allocated by Rust; owned here; freed before returning.
	cerr := C.rure_error_new()
	defer C.rure_error_free(cerr)
	pat, n := stringArg(pattern)
	// Allocated by Rust on success; owned by the returned Regex; freed by
	// Close or the cleanup.
	p := C.rure_compile(pat, n, C.uint32_t(flags), copts, cerr)
	runtime.KeepAlive(opts)
	if p == nil {
		return nil, compileError(pattern, flags, C.GoString(C.rure_error_message(cerr)))
	}
	re := &Regex{ptr: p, pattern: pattern}
	re.cleanup = runtime.AddCleanup(re, func(p *C.rure) { C.rure_free(p) }, p)
	return re, nil
}

// compileError explains why rure rejected pattern: a syntax error with its
// exact byte offset (found by re-parsing in our crate), or rure's own
// message when the pattern parses but still failed (a size limit).
func compileError(pattern string, flags uint32, rureMsg string) *Error {
	pat, n := stringArg(pattern)
	pos := C.int64_t(-1)
	var msg *C.char // allocated by Rust when set; freed by takeString
	switch C.gopi_regex_syntax_error(pat, n, C.uint32_t(flags), &pos, &msg) {
	case 1:
		return &Error{Kind: KindSyntax, Pattern: pattern, Message: takeString(msg), Pos: int(pos)}
	case 0:
		return &Error{Kind: KindLimit, Pattern: pattern, Message: strings.TrimSpace(rureMsg), Pos: -1}
	default:
		return internalError(pattern, msg)
	}
}

// String returns the source pattern.
func (re *Regex) String() string { return re.pattern }

// Close frees the compiled regex. Calling it again does nothing. No other
// goroutine, Iter or Captures may use re afterwards.
func (re *Regex) Close() {
	if re == nil || re.ptr == nil {
		return
	}
	re.cleanup.Stop()
	C.rure_free(re.ptr)
	re.ptr = nil
}

func (re *Regex) live() *C.rure {
	if re.ptr == nil {
		panic(fmt.Sprintf("rure: use of closed Regex %q", re.pattern))
	}
	return re.ptr
}

// IsMatch reports whether haystack contains a match.
func (re *Regex) IsMatch(haystack string) bool {
	h, n := stringArg(haystack)
	ok := bool(C.rure_is_match(re.live(), h, n, 0))
	runtime.KeepAlive(re)
	return ok
}

// IsMatchBytes is IsMatch for a byte slice.
func (re *Regex) IsMatchBytes(haystack []byte) bool {
	h, n := bytesArg(haystack)
	ok := bool(C.rure_is_match(re.live(), h, n, 0))
	runtime.KeepAlive(re)
	return ok
}

// Find returns the leftmost-first match in haystack.
func (re *Regex) Find(haystack string) (start, end int, ok bool) {
	h, n := stringArg(haystack)
	return re.find(h, n)
}

// FindBytes is Find for a byte slice.
func (re *Regex) FindBytes(haystack []byte) (start, end int, ok bool) {
	h, n := bytesArg(haystack)
	return re.find(h, n)
}

func (re *Regex) find(h *C.uint8_t, n C.size_t) (start, end int, ok bool) {
	var m C.rure_match
	found := bool(C.rure_find(re.live(), h, n, 0, &m))
	runtime.KeepAlive(re)
	if !found {
		return -1, -1, false
	}
	return int(m.start), int(m.end), true
}

// FindAll returns every successive non-overlapping match as flat
// start,end pairs (nil when there is none). It crosses into C once per
// match; LineMatcher is the batch alternative.
func (re *Regex) FindAll(haystack string) []int {
	it := re.Iter(haystack)
	defer it.Close()
	return it.all()
}

// FindAllBytes is FindAll for a byte slice.
func (re *Regex) FindAllBytes(haystack []byte) []int {
	it := re.IterBytes(haystack)
	defer it.Close()
	return it.all()
}

// CaptureNames returns the name of every capture group by index; unnamed
// groups, including group 0 (the whole match), have "".
func (re *Regex) CaptureNames() []string {
	// Allocated by Rust; owned here; freed before returning. The name
	// strings belong to the iterator and are copied before it is freed.
	it := C.rure_iter_capture_names_new(re.live())
	defer C.rure_iter_capture_names_free(it)
	var names []string
	var name *C.char
	for C.rure_iter_capture_names_next(it, &name) {
		names = append(names, C.GoString(name))
	}
	runtime.KeepAlive(re)
	return names
}

// CaptureIndex returns the index of the group called name, or -1.
func (re *Regex) CaptureIndex(name string) int {
	if strings.IndexByte(name, 0) >= 0 {
		return -1 // a C string cannot hold it, and no group is named so
	}
	// Allocated with malloc by cgo; owned here; freed before returning.
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	i := int(C.rure_capture_name_index(re.live(), cname))
	runtime.KeepAlive(re)
	return i
}
