//go:build cgo

package astgrep

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo LDFLAGS: -L${SRCDIR}/../_lib -lgopi_native
#cgo linux LDFLAGS: -lm -ldl -lpthread
#cgo darwin LDFLAGS: -lm
#cgo windows LDFLAGS: -lkernel32 -ladvapi32 -lntdll -luserenv -lws2_32 -lbcrypt -lsynchronization
#include <stdlib.h>
#include "gopi_native.h"
*/
import "C"

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// Available reports whether the native engine is linked in (true with cgo).
const Available = true

var emptyArg [1]byte

// bytesArg lends b to C for one call.
func bytesArg(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyArg[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// takeString copies a library-allocated string into Go and frees it.
func takeString(s *C.char) string {
	if s == nil {
		return ""
	}
	defer C.gopi_string_free(s)
	return C.GoString(s)
}

// Matcher is a compiled rule set for one language. Close it when done.
type Matcher struct {
	p       *C.gopi_ast_matcher
	lang    string
	rules   []Rule
	cleanup runtime.Cleanup
}

// Compile compiles rules for lang (a canonical name from Languages) at
// the given strictness. A *CompileError names the failing rule.
func Compile(lang string, rules []Rule, strictness Strictness) (*Matcher, error) {
	if len(rules) == 0 {
		return nil, &CompileError{Lang: lang, Rule: -1, Message: "no pattern given"}
	}
	lp, ll := bytesArg([]byte(lang))
	blob := encodeRules(rules)
	rp, rl := bytesArg(blob)
	var errRule C.int32_t = -1
	var msg *C.char
	p := C.gopi_ast_matcher_new(lp, ll, rp, rl, C.uint32_t(strictness), &errRule, &msg)
	runtime.KeepAlive(blob)
	if p == nil {
		e := &CompileError{Lang: lang, Rule: int(errRule), Message: takeString(msg)}
		if e.Rule >= 0 && e.Rule < len(rules) {
			e.Pattern = rules[e.Rule].Pattern
			e.Config = rules[e.Rule].Config != ""
		}
		if e.Message == "" {
			e.Message = "native compile failed"
		}
		return nil, e
	}
	m := &Matcher{p: p, lang: lang, rules: rules}
	m.cleanup = runtime.AddCleanup(m, func(p *C.gopi_ast_matcher) { C.gopi_ast_matcher_free(p) }, p)
	return m, nil
}

// Lang returns the language the matcher was compiled for.
func (m *Matcher) Lang() string { return m.lang }

// Rules returns the rules the matcher was compiled from.
func (m *Matcher) Rules() []Rule { return m.rules }

// Close frees the native matcher; later use panics. Safe to call twice.
func (m *Matcher) Close() {
	if m == nil || m.p == nil {
		return
	}
	m.cleanup.Stop()
	C.gopi_ast_matcher_free(m.p)
	m.p = nil
}

// Describe returns one ParseInfo per parse of each rule (a rule has more
// than one when an ambiguous pattern got an alternative parse).
func (m *Matcher) Describe() ([]ParseInfo, error) {
	if m == nil || m.p == nil {
		return nil, errors.New("astgrep: Describe on a closed Matcher")
	}
	var msg *C.char
	s := C.gopi_ast_matcher_describe(m.p, &msg)
	runtime.KeepAlive(m)
	if s == nil {
		return nil, errors.New(takeString(msg))
	}
	var out []ParseInfo
	for _, line := range strings.Split(strings.TrimSuffix(takeString(s), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		pi := ParseInfo{RootKind: f[1]}
		for _, c := range f[0] {
			pi.Rule = pi.Rule*10 + int(c-'0')
		}
		if f[2] != "" {
			pi.Literals = strings.Split(f[2], ",")
		}
		out = append(out, pi)
	}
	return out, nil
}

// Search runs the matcher over a batch of inputs and returns one result
// per input, in order. When the search is cancelled or times out it
// returns the results so far (unfinished inputs have Status Stopped)
// together with ErrCancelled or ErrTimeout.
func (m *Matcher) Search(in []Input, opts Options) ([]FileResult, error) {
	if m == nil || m.p == nil {
		return nil, errors.New("astgrep: Search on a closed Matcher")
	}
	blob := encodeInputs(in)
	ip, il := bytesArg(blob)
	var copts C.gopi_ast_search_options
	copts.max_file_size = C.uint64_t(max(opts.MaxFileSize, 0))
	copts.timeout_ms = C.int64_t(opts.Timeout.Milliseconds())
	if opts.Timeout > 0 && copts.timeout_ms == 0 {
		copts.timeout_ms = 1
	}
	var flags uint32
	if opts.Captures {
		flags |= C.GOPI_AST_CAPTURES
	}
	if opts.Edits {
		flags |= C.GOPI_AST_EDITS
	}
	if opts.NoPrefilter {
		flags |= C.GOPI_AST_NO_PREFILTER
	}
	copts.flags = C.uint32_t(flags)
	if cp := opts.Cache.acquire(); cp != nil {
		defer opts.Cache.mu.RUnlock()
		copts.cache = cp
	}
	var cancel *C.gopi_ast_cancel
	if opts.Cancel != nil {
		cancel = opts.Cancel.p
	}
	var out *C.uint8_t
	var outLen C.size_t
	var msg *C.char
	rc := C.gopi_ast_search(m.p, ip, il, &copts, cancel, &out, &outLen, &msg)
	runtime.KeepAlive(blob)
	runtime.KeepAlive(m)
	runtime.KeepAlive(opts.Cancel)
	if rc < 0 {
		return nil, errors.New(takeString(msg))
	}
	// The result buffer belongs to the library until gopi_ast_buffer_free.
	// It is decoded in place (every string is copied out), which also works
	// for buffers beyond C.int's range.
	defer C.gopi_ast_buffer_free(out, outLen)
	var buf []byte
	if outLen > 0 {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(out)), int(outLen))
	}
	res, err := decodeResults(buf, len(in))
	if err != nil {
		return nil, err
	}
	switch rc {
	case C.GOPI_AST_CANCELLED:
		return res, ErrCancelled
	case C.GOPI_AST_TIMEOUT:
		return res, ErrTimeout
	}
	return res, nil
}

// Canceller is a cancel flag for searches; Cancel stops every Search it
// was passed to. Close it when no search uses it any more.
type Canceller struct {
	mu sync.Mutex // guards p: Cancel may run (from a context callback) while Close frees it
	p  *C.gopi_ast_cancel
}

// NewCanceller returns an unset cancel flag.
func NewCanceller() *Canceller {
	return &Canceller{p: C.gopi_ast_cancel_new()}
}

// Cancel sets the flag. Safe from any goroutine, any number of times, also
// concurrently with or after Close (then it does nothing).
func (c *Canceller) Cancel() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != nil {
		C.gopi_ast_cancel_set(c.p)
	}
}

// Close frees the flag; no search may still be using it. Later calls do
// nothing.
func (c *Canceller) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p != nil {
		C.gopi_ast_cancel_free(c.p)
		c.p = nil
	}
}

var (
	langOnce sync.Once
	langList []string
)

// Languages returns the canonical names of the linked grammars, sorted.
func Languages() []string {
	langOnce.Do(func() {
		langList = strings.Split(takeString(C.gopi_ast_languages()), ",")
	})
	return append([]string(nil), langList...)
}

// liveObjects returns the native live-object counter (leak tests).
func liveObjects() int64 { return int64(C.gopi_native_live_objects()) }

// nativePanic makes the library panic inside its guard and returns the
// message it reported.
func nativePanic() string {
	var msg *C.char
	C.gopi_native_test_panic(&msg)
	return takeString(msg)
}
