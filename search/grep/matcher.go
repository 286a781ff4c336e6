package grep

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/native/rure"
)

// lineMatcher finds the lines of a buffer that hold a match. Both
// implementations share the hit layout of the native binding so that the
// engine never converts results.
type lineMatcher interface {
	// findLines appends every matching line (or, in multiline mode, every
	// merged run of matched lines) to h, at most maxLines when maxLines > 0.
	// firstOnly is a hint: spans after the first of a line may be left out
	// (its search then stops there). The error is an engine failure (a
	// caught Rust panic) for this buffer.
	findLines(buf []byte, maxLines int, firstOnly bool, h *rure.Hits) error
	// countLines counts matching lines and matches without materialising them.
	countLines(buf []byte) (lines, matches int, err error)
	// countMatchingLines counts matching lines only, searching each line
	// up to its first match.
	countMatchingLines(buf []byte) (int, error)
	// isMatch reports whether any line matches.
	isMatch(buf []byte) (bool, error)
	// crossesLines reports whether a match can contain '\n' (multiline
	// mode with a pattern that can match it).
	crossesLines() bool
	// close releases native resources; the matcher is unusable afterwards.
	close()
}

// matcherConfig is what a compiled matcher depends on.
type matcherConfig struct {
	pattern    string
	ignoreCase bool
	multiline  bool
	goRegex    bool // Go's regexp even where the native engine is linked in (tests)
}

// compileMatcher builds the matcher for a search: literal braces escaped,
// then one retry with escaped parentheses after an unbalanced-group error.
func compileMatcher(cfg matcherConfig) (lineMatcher, error) {
	pattern := EscapeLiteralBraces(cfg.pattern)
	m, err := compileOnce(pattern, cfg)
	if err != nil && isGroupError(err.Error()) {
		if m2, err2 := compileOnce(EscapeParens(pattern), cfg); err2 == nil {
			return m2, nil
		}
	}
	if err != nil {
		return nil, originalPosition(err, cfg.pattern, pattern)
	}
	return m, nil
}

// originalPosition rewrites a native syntax error about the escaped form
// of a pattern so that it names the pattern as the user typed it, with the
// position in that text.
func originalPosition(err error, orig, escaped string) error {
	var re *rure.Error
	if orig == escaped || !errors.As(err, &re) {
		return err
	}
	fixed := *re
	fixed.Pattern = orig
	if re.Pos >= 0 {
		fixed.Pos = unescapedOffset(orig, escaped, re.Pos)
	}
	return &fixed
}

// unescapedOffset maps byte offset pos of escaped, which is orig with
// backslashes inserted (EscapeLiteralBraces, EscapeParens), to the offset
// of the same character in orig. A backslash is only ever inserted before
// a character that is not itself a backslash, so aligning the two strings
// greedily from the left is exact.
func unescapedOffset(orig, escaped string, pos int) int {
	i := 0
	for j := 0; j < pos && j < len(escaped); j++ {
		if i < len(orig) && escaped[j] == orig[i] {
			i++
		}
	}
	return min(i, len(orig))
}

func compileOnce(pattern string, cfg matcherConfig) (lineMatcher, error) {
	if rure.Available && !cfg.goRegex {
		m, err := rure.NewLineMatcher(pattern, rure.LineOptions{
			CaseInsensitive: cfg.ignoreCase,
			Multiline:       cfg.multiline,
		})
		if err != nil {
			return nil, err
		}
		return nativeMatcher{m}, nil
	}
	return newGoMatcher(pattern, cfg)
}

// nativeMatcher adapts the Rust line matcher.
type nativeMatcher struct{ m *rure.LineMatcher }

func (n nativeMatcher) findLines(buf []byte, maxLines int, firstOnly bool, h *rure.Hits) error {
	if firstOnly {
		return n.m.FindLinesFirstMatch(buf, maxLines, h)
	}
	return n.m.FindLines(buf, maxLines, h)
}
func (n nativeMatcher) countLines(buf []byte) (int, int, error) { return n.m.CountLines(buf) }
func (n nativeMatcher) countMatchingLines(buf []byte) (int, error) {
	return n.m.CountMatchingLines(buf)
}
func (n nativeMatcher) isMatch(buf []byte) (bool, error) { return n.m.IsMatch(buf) }
func (n nativeMatcher) crossesLines() bool               { return n.m.CrossesLines() }
func (n nativeMatcher) close()                           { n.m.Close() }

// CrossesLines reports whether a search with opts can find a match that
// contains a line terminator: only in multiline mode (asked for, or implied
// by a pattern holding \n), for a pattern with a literal or class that
// holds '\n' (`a\nb`, `\s`, `[^x]`, `(?s).`). ripgrep's --count counts
// matches instead of matching lines for exactly such searches. The error
// is the pattern's compile error.
func CrossesLines(opts Options) (bool, error) {
	m, err := compileMatcher(opts.matcherConfig())
	if err != nil {
		return false, err
	}
	defer m.close()
	return m.crossesLines(), nil
}

// compileError gives Go regexp errors the same leading words as the native
// engine's, which callers match on.
func compileError(pattern string, err error) error {
	msg := err.Error()
	if strings.HasPrefix(msg, "regex parse error") {
		return err
	}
	return fmt.Errorf("regex parse error: %s", strings.TrimPrefix(msg, "error parsing regexp: "))
}
