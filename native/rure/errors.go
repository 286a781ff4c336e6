package rure

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped by every constructor's error when the package
// was built without cgo, so the native engine is not linked in.
var ErrUnavailable = errors.New("native regex engine unavailable (built without cgo)")

// ErrorKind classifies an *Error.
type ErrorKind int

const (
	// KindSyntax: the pattern is not valid regex syntax; Pos is set.
	KindSyntax ErrorKind = iota + 1
	// KindLimit: the pattern is valid but too big to compile within the
	// size limits (see Options and LineOptions); Pos is -1.
	KindLimit
	// KindInternal: the native code failed (a caught Rust panic). Compile
	// functions and the LineMatcher search methods return it.
	KindInternal
)

// String returns the kind's name.
func (k ErrorKind) String() string {
	switch k {
	case KindSyntax:
		return "syntax"
	case KindLimit:
		return "limit"
	case KindInternal:
		return "internal"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is a failure to compile a pattern. Its text always starts with
// "regex parse error": callers match on that prefix.
type Error struct {
	// Kind says what went wrong.
	Kind ErrorKind
	// Pattern is the pattern as given.
	Pattern string
	// Message describes the problem, without the pattern.
	Message string
	// Pos is the byte offset in Pattern where the problem starts, or -1.
	Pos int
}

// Error renders the error with its position.
func (e *Error) Error() string {
	if e.Pos >= 0 {
		return fmt.Sprintf("regex parse error at byte %d of %q: %s", e.Pos, e.Pattern, e.Message)
	}
	return fmt.Sprintf("regex parse error (position unknown) in %q: %s", e.Pattern, e.Message)
}
