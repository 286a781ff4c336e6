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

// Describe fails with ErrUnavailable.
func (m *Matcher) Describe() ([]ParseInfo, error) { return nil, ErrUnavailable }

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

// Outline fails with ErrUnavailable without the native library.
func Outline(ctx context.Context, cache *ParseCache, lang, path string, stamp *FileStamp, data []byte, minLines int) ([]OutlineSpan, error) {
	return nil, ErrUnavailable
}

// ParseCache is a parse cache; inert without the native library.
type ParseCache struct{}

// NewParseCache returns an inert cache.
func NewParseCache(budget int64) *ParseCache { return &ParseCache{} }

// SetBudget does nothing.
func (c *ParseCache) SetBudget(budget int64) {}

// Invalidate does nothing.
func (c *ParseCache) Invalidate(path string) {}

// Stats returns zero counters.
func (c *ParseCache) Stats() CacheStats { return CacheStats{} }

// Close does nothing.
func (c *ParseCache) Close() {}
