//go:build !cgo

package rure

import "fmt"

// Available reports whether the native engine is linked in. This build has
// no cgo, so it is false and every constructor fails with ErrUnavailable.
const Available = false

func unavailable(pattern string) error {
	return fmt.Errorf("rure: compile %q: %w", pattern, ErrUnavailable)
}

// Regex is a compiled regular expression; none can exist without cgo.
type Regex struct{}

// Compile fails with ErrUnavailable without cgo.
func Compile(pattern string) (*Regex, error) { return nil, unavailable(pattern) }

// CompileOptions fails with ErrUnavailable without cgo.
func CompileOptions(pattern string, flags uint32, opts *Options) (*Regex, error) {
	return nil, unavailable(pattern)
}

// MustCompile panics without cgo.
func MustCompile(pattern string) *Regex { panic(unavailable(pattern)) }

// String returns "".
func (re *Regex) String() string { return "" }

// Close does nothing.
func (re *Regex) Close() {}

// IsMatch reports false.
func (re *Regex) IsMatch(haystack string) bool { return false }

// IsMatchBytes reports false.
func (re *Regex) IsMatchBytes(haystack []byte) bool { return false }

// Find reports no match.
func (re *Regex) Find(haystack string) (start, end int, ok bool) { return -1, -1, false }

// FindBytes reports no match.
func (re *Regex) FindBytes(haystack []byte) (start, end int, ok bool) { return -1, -1, false }

// FindAll returns nil.
func (re *Regex) FindAll(haystack string) []int { return nil }

// FindAllBytes returns nil.
func (re *Regex) FindAllBytes(haystack []byte) []int { return nil }

// CaptureNames returns nil.
func (re *Regex) CaptureNames() []string { return nil }

// CaptureIndex returns -1.
func (re *Regex) CaptureIndex(name string) int { return -1 }

// NewCaptures returns an empty Captures.
func (re *Regex) NewCaptures() *Captures { return &Captures{} }

// Captures reports no match.
func (re *Regex) Captures(caps *Captures, haystack string) bool { return false }

// CapturesBytes reports no match.
func (re *Regex) CapturesBytes(caps *Captures, haystack []byte) bool { return false }

// Iter returns an iterator with no matches.
func (re *Regex) Iter(haystack string) *Iter { return &Iter{} }

// IterBytes returns an iterator with no matches.
func (re *Regex) IterBytes(haystack []byte) *Iter { return &Iter{} }

// Options holds compile limits; inert without cgo.
type Options struct{}

// NewOptions returns inert options.
func NewOptions() *Options { return &Options{} }

// SizeLimit does nothing.
func (o *Options) SizeLimit(n int) {}

// DFASizeLimit does nothing.
func (o *Options) DFASizeLimit(n int) {}

// Close does nothing.
func (o *Options) Close() {}

// Captures holds group positions; always empty without cgo.
type Captures struct{}

// Group reports no group.
func (caps *Captures) Group(i int) (start, end int, ok bool) { return -1, -1, false }

// Len returns 0.
func (caps *Captures) Len() int { return 0 }

// Close does nothing.
func (caps *Captures) Close() {}

// Iter steps through matches; always exhausted without cgo.
type Iter struct{}

// Next reports false.
func (it *Iter) Next(m *Match) bool { return false }

// NextCaptures reports false.
func (it *Iter) NextCaptures(caps *Captures) bool { return false }

// Close does nothing.
func (it *Iter) Close() {}

// LineMatcher finds matching lines; none can exist without cgo.
type LineMatcher struct{}

// NewLineMatcher fails with ErrUnavailable without cgo.
func NewLineMatcher(pattern string, opts LineOptions) (*LineMatcher, error) {
	return nil, unavailable(pattern)
}

// String returns "".
func (m *LineMatcher) String() string { return "" }

// FindLines appends nothing.
func (m *LineMatcher) FindLines(buf []byte, maxLines int, h *Hits) error { return nil }

// FindLinesFirstMatch is unavailable without cgo.
func (m *LineMatcher) FindLinesFirstMatch(buf []byte, maxLines int, h *Hits) error { return nil }

// CountLines returns zeros.
func (m *LineMatcher) CountLines(buf []byte) (lines, matches int, err error) { return 0, 0, nil }

// CountMatchingLines returns zero.
func (m *LineMatcher) CountMatchingLines(buf []byte) (int, error) { return 0, nil }

// IsMatch reports false.
func (m *LineMatcher) IsMatch(buf []byte) (bool, error) { return false, nil }

// CrossesLines reports false.
func (m *LineMatcher) CrossesLines() bool { return false }

// Close does nothing.
func (m *LineMatcher) Close() {}
