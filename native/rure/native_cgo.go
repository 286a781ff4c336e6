//go:build cgo

package rure

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo LDFLAGS: -L${SRCDIR}/../_lib -lgopi_native
#cgo linux LDFLAGS: -lm -ldl -lpthread
#cgo darwin LDFLAGS: -lm
#cgo windows LDFLAGS: -lkernel32 -ladvapi32 -lntdll -luserenv -lws2_32 -lbcrypt -lsynchronization
#cgo noescape gopi_native_test_panic
#cgo nocallback gopi_native_test_panic
#include <stdlib.h>
#include "gopi_native.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// Available reports whether the native engine is linked in (true in cgo
// builds).
const Available = true

// emptyHaystack gives empty inputs a valid, non-nil address: Rust may not
// build a slice from a null pointer, even an empty one.
var emptyHaystack [1]byte

// bytesArg returns a pointer to b's bytes for the duration of one C call.
// The memory stays owned by Go; C reads it and never keeps the pointer.
func bytesArg(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyHaystack[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// stringArg is bytesArg for strings. C only reads: Go strings are
// immutable and may live in read-only memory.
func stringArg(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyHaystack[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// takeString copies a string the library allocated into Go and frees it.
// The library owns nothing after this: s came from a gopi_ function, which
// transfers ownership to the caller.
func takeString(s *C.char) string {
	if s == nil {
		return ""
	}
	defer C.gopi_string_free(s)
	return C.GoString(s)
}

// internalError builds the error for a caught Rust panic, taking
// ownership of (and freeing) the message msg.
func internalError(pattern string, msg *C.char) *Error {
	text := takeString(msg)
	if text == "" {
		text = "internal error in native regex code"
	}
	return &Error{Kind: KindInternal, Pattern: pattern, Message: text, Pos: -1}
}

// liveObjects returns how many gopi_ objects and strings are live in the
// native library: the leak tests' counter.
func liveObjects() int64 { return int64(C.gopi_native_live_objects()) }

// panicInjections, when positive, makes that many of the next LineMatcher
// search calls run the library's test panic instead of the search, so tests
// can see a real caught Rust panic travel the search error path. Only tests
// set it.
var panicInjections atomic.Int64

// injectedPanic consumes one pending injection, if any, making the library
// panic inside its guard and storing the message in *msg. It reports
// whether it did.
func injectedPanic(msg **C.char) bool {
	if panicInjections.Load() <= 0 || panicInjections.Add(-1) < 0 {
		return false
	}
	return C.gopi_native_test_panic(msg) == -1
}

// nativeTestPanic makes the library panic inside its guard and returns the
// error it reported.
func nativeTestPanic() error {
	var msg *C.char // allocated by Rust on failure; freed by internalError
	if C.gopi_native_test_panic(&msg) != -1 {
		takeString(msg)
		return nil
	}
	return internalError("", msg)
}
