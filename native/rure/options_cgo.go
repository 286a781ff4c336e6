//go:build cgo

package rure

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#include "gopi_native.h"
*/
import "C"

import "runtime"

// Options holds compile limits for CompileOptions. It owns a C object:
// Close it when done (it may be closed right after compiling).
type Options struct {
	ptr     *C.rure_options
	cleanup runtime.Cleanup
}

// NewOptions returns options with rure's defaults (10 MiB program size,
// 2 MiB DFA cache).
func NewOptions() *Options {
	// Allocated by Rust; owned by o; freed by Close or the cleanup.
	p := C.rure_options_new()
	o := &Options{ptr: p}
	o.cleanup = runtime.AddCleanup(o, func(p *C.rure_options) { C.rure_options_free(p) }, p)
	return o
}

// SizeLimit caps the size of a compiled program in bytes.
func (o *Options) SizeLimit(n int) {
	C.rure_options_size_limit(o.live(), C.size_t(max(n, 0)))
	runtime.KeepAlive(o)
}

// DFASizeLimit caps each lazy DFA cache in bytes.
func (o *Options) DFASizeLimit(n int) {
	C.rure_options_dfa_size_limit(o.live(), C.size_t(max(n, 0)))
	runtime.KeepAlive(o)
}

// Close frees the options. Calling it again does nothing.
func (o *Options) Close() {
	if o == nil || o.ptr == nil {
		return
	}
	o.cleanup.Stop()
	C.rure_options_free(o.ptr)
	o.ptr = nil
}

func (o *Options) live() *C.rure_options {
	if o.ptr == nil {
		panic("rure: use of closed Options")
	}
	return o.ptr
}
