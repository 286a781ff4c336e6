// Package rure is gopi's cgo binding to Rust's regex engine, plus the batch
// line matcher gopi's grep is built on.
//
// Two layers share one static library, libgopi_native.a (built from
// native/ by `make native`):
//
//   - Regex, Captures, Iter and Options wrap rure, the regex crate's
//     official C API, with the API shape of the well-known rure-go binding:
//     one cgo call per operation. Right for compiling a pattern and testing
//     a few strings.
//   - LineMatcher is gopi's own entry point. Calling across cgo once per
//     match costs more than the search itself on typical source files, so
//     FindLines hands the whole buffer to Rust, which searches it in one
//     pass and writes every matching line and all of its match spans
//     straight into the caller's Hits arrays. Line numbers are counted on
//     the Rust side with a vectorised newline count.
//
// Ownership at the boundary: Go passes haystacks and patterns as pointers
// into Go memory for the duration of one call only; C never keeps them. C
// objects (compiled regexes, iterators, captures, option sets, line
// matchers) are owned by the Go value that wraps them and freed by its
// Close method; a runtime cleanup frees them if Close is forgotten, but
// that is only a safety net. Strings returned by the library are copied
// into Go strings and freed at once.
//
// Concurrency: a Regex or LineMatcher may be used by any number of
// goroutines at once (the Rust engines keep per-thread search caches).
// Captures, Iter and Options belong to one goroutine at a time. Closing an
// object while another goroutine still uses it is a bug.
//
// Without cgo (CGO_ENABLED=0) the package still compiles: Available is
// false and every constructor returns an error wrapping ErrUnavailable.
//
// Syntax is Rust's regex syntax. Its \w, \d, \s and \b are Unicode-aware
// by default, where Go's regexp is ASCII-only; (?-u:\w) is the ASCII form.
package rure
