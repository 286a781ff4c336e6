package grep

// Default engine sizes (see tuning).
const (
	// defaultWholeFileLimit is the largest file read whole; larger ones
	// (and named files that are not regular files) are read a block at a
	// time.
	defaultWholeFileLimit int64 = 1 << 20
	// defaultBlockSize is how much the block reader reads at a time.
	defaultBlockSize = 1 << 20
	// defaultRenderSpill is how much formatted output Rendering.Spill lets
	// Buf hold before handing it on.
	defaultRenderSpill = 256 << 10
)

// tuning holds the engine's internal sizes and seams. It rides on Options
// (unexported, so only this package's tests set it): a test lowers the
// sizes to drive the block reader over a few bytes, or swaps the regex
// engine, without touching package state, so tests run in parallel. The
// zero value is the production configuration; resolved fills in its sizes.
type tuning struct {
	wholeFileLimit int64 // 0: defaultWholeFileLimit
	blockSize      int   // 0: defaultBlockSize
	renderSpill    int   // 0: defaultRenderSpill
	// goRegex: use Go's regexp even where the native engine is linked in.
	goRegex bool
	// compile builds the search's matcher; nil: compileMatcher. Tests wrap
	// it to inject engine failures.
	compile func(matcherConfig) (lineMatcher, error)
}

// resolved returns t with every zero size set to its default.
func (t tuning) resolved() tuning {
	if t.wholeFileLimit <= 0 {
		t.wholeFileLimit = defaultWholeFileLimit
	}
	if t.blockSize <= 0 {
		t.blockSize = defaultBlockSize
	}
	if t.renderSpill <= 0 {
		t.renderSpill = defaultRenderSpill
	}
	return t
}

// compileSearch builds the matcher of a search with opts.
func (o *Options) compileSearch() (lineMatcher, error) {
	compile := o.tuning.compile
	if compile == nil {
		compile = compileMatcher
	}
	return compile(o.matcherConfig())
}

// matcherConfig is what compileMatcher needs of opts.
func (o *Options) matcherConfig() matcherConfig {
	return matcherConfig{
		pattern:    o.Pattern,
		ignoreCase: o.IgnoreCase,
		multiline:  o.Multiline || NeedsMultiline(o.Pattern),
		goRegex:    o.tuning.goRegex,
	}
}
