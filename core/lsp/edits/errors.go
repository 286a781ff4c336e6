package edits

import (
	"errors"
	"fmt"
	"strings"
)

// The kinds of refusal, for errors.Is on an Apply error.
var (
	// ErrStale: a file changed since the server computed the edit.
	ErrStale = errors.New("file changed since the edit was computed")
	// ErrOutsideWorkspace: the edit would touch a path outside the roots.
	ErrOutsideWorkspace = errors.New("path outside the workspace")
	// ErrInvalid: the edit cannot be applied as sent (overlapping or
	// out-of-range edits, a missing file, an existing destination, …).
	ErrInvalid = errors.New("edit cannot be applied")
)

// RefusedError is an edit Apply would not make. It is found before
// anything is written, so nothing changed.
type RefusedError struct {
	Change int    // index in Sequence(edit) of the refused change; -1: not one change
	Kind   error  // ErrStale, ErrOutsideWorkspace or ErrInvalid
	Reason string // what is wrong and what to do, naming the file
}

// Error is one line: the reason, and that nothing was changed.
func (e *RefusedError) Error() string {
	return "Cannot apply the language server's edit: " + e.Reason + "; nothing was changed"
}

// Unwrap returns the kind, so errors.Is(err, ErrStale) works.
func (e *RefusedError) Unwrap() error { return e.Kind }

func refuse(change int, kind error, format string, args ...any) *RefusedError {
	return &RefusedError{Change: change, Kind: kind, Reason: fmt.Sprintf(format, args...)}
}

// WriteError is a failure while the edit was being written: the changes
// made before it were undone (Unrestored lists those that could not be).
type WriteError struct {
	Change     int      // index of the change that failed (as in RefusedError)
	Err        error    // the failure, naming the file
	Restored   int      // changes made before the failure and undone
	Unrestored []string // changes that could not be undone, each with its error
}

// Error says what failed and in which state the files were left.
func (e *WriteError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Cannot apply the language server's edit: %v", e.Err)
	if len(e.Unrestored) > 0 {
		fmt.Fprintf(&b, "; undoing what was already changed failed too (%s): check those files by hand", strings.Join(e.Unrestored, "; "))
		return b.String()
	}
	switch e.Restored {
	case 0:
		b.WriteString("; nothing was changed")
	case 1:
		b.WriteString("; the one change already made was undone, nothing was changed")
	default:
		fmt.Fprintf(&b, "; the %d changes already made were undone, nothing was changed", e.Restored)
	}
	return b.String()
}

// Unwrap returns the failure.
func (e *WriteError) Unwrap() error { return e.Err }
