//go:build !cgo

package astgrep

import "context"

// Available reports whether the native engine is linked in: false here.
const Available = false

// Matcher is a compiled rule set; none can exist without cgo.
type Matcher struct{}

// Compile fails with ErrUnavailable without cgo.
func Compile(lang string, rules []Rule, strictness Strictness) (*Matcher, error) {
	return nil, ErrUnavailable
}

// Lang returns "".
func (m *Matcher) Lang() string { return "" }

// Rules returns nil.
func (m *Matcher) Rules() []Rule { return nil }

// Close does nothing.
func (m *Matcher) Close() {}

// Search fails with ErrUnavailable.
func (m *Matcher) Search(in []Input, opts Options) ([]FileResult, error) { return nil, ErrUnavailable }

// Canceller is a cancel flag; inert without cgo.
type Canceller struct{}

// NewCanceller returns an inert flag.
func NewCanceller() *Canceller { return &Canceller{} }

// Cancel does nothing.
func (c *Canceller) Cancel() {}

// Close does nothing.
func (c *Canceller) Close() {}

// Languages returns nil: no grammar is linked without cgo.
func Languages() []string { return nil }

// SetParseCache does nothing without the native library.
func SetParseCache(budget int64) {}

// InvalidateParseCache does nothing without the native library.
func InvalidateParseCache(path string) {}

// ParseCacheStats returns zero counters without the native library.
func ParseCacheStats() CacheStats { return CacheStats{} }

// Outline fails with ErrUnavailable without the native library.
func Outline(ctx context.Context, lang, path string, stamp *FileStamp, data []byte, minLines int) ([]OutlineSpan, error) {
	return nil, ErrUnavailable
}
