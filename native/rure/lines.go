package rure

// LineOptions configures NewLineMatcher.
type LineOptions struct {
	// CaseInsensitive makes the whole pattern case-insensitive.
	CaseInsensitive bool
	// Multiline lets matches span lines (grep enables it only when the
	// pattern contains \n). When false, no match ever contains '\n'.
	Multiline bool
	// SizeLimit caps the compiled program in bytes; 0 means 10 MiB.
	SizeLimit int
	// DFASizeLimit caps each search cache in bytes; 0 means 2 MiB.
	DFASizeLimit int

	// noASCIIVariant disables the ASCII word-boundary variant, so tests
	// and benchmarks can compare it with the general regex.
	noASCIIVariant bool
	// noInnerLiteral disables the required-literal line prefilter, so
	// tests and benchmarks can compare the two paths.
	noInnerLiteral bool
}

// Span is one match as a half-open byte range of the searched buffer.
type Span struct{ Start, End int }

// LineHit is one group of matching lines: a single line, or in Multiline
// mode all consecutive lines covered by matches that share a line.
type LineHit struct {
	// Line is the 1-based number of the hit's first line.
	Line int
	// Start and End delimit the hit's line(s), excluding the final '\n'.
	Start, End int
	// SpanLo and SpanHi locate this hit's matches: Hits.Spans[SpanLo:SpanHi].
	SpanLo, SpanHi int
}

// Hits collects FindLines results. Keep one per goroutine and Reset it
// between buffers: the arrays are reused, so steady-state searching does
// not allocate.
type Hits struct {
	// Lines holds the hits in buffer order.
	Lines []LineHit
	// Spans holds every hit's matches, in buffer order.
	Spans []Span
}

// Reset empties h, keeping its capacity.
func (h *Hits) Reset() {
	h.Lines = h.Lines[:0]
	h.Spans = h.Spans[:0]
}

// Matches returns the matches of hit, which must come from h.Lines.
func (h *Hits) Matches(hit LineHit) []Span {
	return h.Spans[hit.SpanLo:hit.SpanHi]
}
