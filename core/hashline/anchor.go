package hashline

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Ref is a parsed anchor token: a 1-based line number and the hash the
// model saw for it.
type Ref struct {
	Line int    // 1-based line number
	Hash string // two lowercase letters
}

// String returns the token form, e.g. "41th".
func (r Ref) String() string { return strconv.Itoa(r.Line) + r.Hash }

// Sentinel errors of the anchor parsers, for errors.Is. The edit tool turns
// them into its user-facing `line N: …` messages.
var (
	ErrBadAnchor     = errors.New("not a full anchor")                          // token is not LINE+2 letters
	ErrNotRange      = errors.New("not a range")                                // no ".." in a range operand
	ErrRangeShape    = errors.New("range needs two full anchors around \"..\"") // "..", but not two anchors
	ErrRangeReversed = errors.New("range ends before it starts")                // B's line < A's line
	ErrRangeConflict = errors.New("range names one line with two hashes")       // same line, different hashes
)

// ParseAnchor parses a token such as "41th": a positive decimal line number
// without leading zeros followed by exactly two lowercase letters. Spaces
// around the token are ignored. Errors wrap ErrBadAnchor.
func ParseAnchor(tok string) (Ref, error) {
	s := strings.TrimSpace(tok)
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || s[0] == '0' || len(s) != n+2 ||
		s[n] < 'a' || s[n] > 'z' || s[n+1] < 'a' || s[n+1] > 'z' {
		return Ref{}, fmt.Errorf("%w: %q", ErrBadAnchor, tok)
	}
	line, _ := strconv.Atoi(s[:n]) // at most 9 digits: cannot fail or overflow
	return Ref{Line: line, Hash: s[n:]}, nil
}

// ParseRange parses "A..B" where A and B are anchors (spaces around either
// are ignored). A range over one line ("5ab..5ab") is allowed. Errors wrap
// ErrNotRange, ErrRangeShape, ErrRangeReversed or ErrRangeConflict.
func ParseRange(s string) (from, to Ref, err error) {
	i := strings.Index(s, "..")
	if i < 0 {
		return Ref{}, Ref{}, fmt.Errorf("%w: %q", ErrNotRange, s)
	}
	from, err1 := ParseAnchor(s[:i])
	to, err2 := ParseAnchor(s[i+2:])
	if err1 != nil || err2 != nil {
		return Ref{}, Ref{}, fmt.Errorf("%w: %q", ErrRangeShape, s)
	}
	if to.Line < from.Line {
		return Ref{}, Ref{}, fmt.Errorf("%w: %s..%s", ErrRangeReversed, from, to)
	}
	if to.Line == from.Line && to.Hash != from.Hash {
		return Ref{}, Ref{}, fmt.Errorf("%w: %s..%s", ErrRangeConflict, from, to)
	}
	return from, to, nil
}

// OutOfRangeError reports an anchor past the end of the file. Its message
// is the user-facing text "Line N does not exist (file has M lines)".
type OutOfRangeError struct {
	Line      int // the anchor's line
	FileLines int // lines in the file
}

func (e *OutOfRangeError) Error() string {
	return fmt.Sprintf("Line %d does not exist (file has %d lines)", e.Line, e.FileLines)
}

// MismatchError reports an anchor whose hash differs from the line's
// current hash: the file changed since the model read it.
type MismatchError struct {
	Ref    Ref    // the anchor as given
	Actual string // the line's current hash
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("line %d changed: anchor %s, current %d%s", e.Ref.Line, e.Ref, e.Ref.Line, e.Actual)
}

// Check verifies r against the file's lines (without terminators, as from
// SplitLines). It returns nil, an *OutOfRangeError or a *MismatchError.
func Check(r Ref, lines []string) error {
	if r.Line < 1 || r.Line > len(lines) {
		return &OutOfRangeError{Line: r.Line, FileLines: len(lines)}
	}
	if h := LineHash(r.Line, lines[r.Line-1]); h != r.Hash {
		return &MismatchError{Ref: r, Actual: h}
	}
	return nil
}
