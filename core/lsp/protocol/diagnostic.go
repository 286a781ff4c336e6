package protocol

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// DiagnosticSeverity ranks a diagnostic; 0 is "not said" (clients treat it
// as an error).
type DiagnosticSeverity int

// The severities the protocol defines.
const (
	SeverityError       DiagnosticSeverity = 1
	SeverityWarning     DiagnosticSeverity = 2
	SeverityInformation DiagnosticSeverity = 3
	SeverityHint        DiagnosticSeverity = 4
)

// String is the severity's lower-case name ("error" for an unset one).
func (s DiagnosticSeverity) String() string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error"
}

// Diagnostic is a problem a server reports in a document.
type Diagnostic struct {
	Range    Range              `json:"range"`
	Severity DiagnosticSeverity `json:"severity,omitempty"`
	// Code is the server's code for the problem: a number or a string,
	// kept as sent.
	Code    json.RawMessage `json:"code,omitempty"`
	Source  string          `json:"source,omitempty"`
	Message string          `json:"message"`
	Tags    []int           `json:"tags,omitempty"`
}

// PublishDiagnosticsParams are a server's textDocument/publishDiagnostics:
// every diagnostic of one document, replacing those sent before.
type PublishDiagnosticsParams struct {
	URI         DocumentURI  `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Norm is the severity a client acts on: an unset or unknown one counts as
// an error.
func (s DiagnosticSeverity) Norm() DiagnosticSeverity {
	if s < SeverityError || s > SeverityHint {
		return SeverityError
	}
	return s
}

// SortDiagnostics orders diagnostics the way gopi shows them: by severity
// (errors first), then position, then message; equal ones keep their order.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Severity.Norm(), b.Severity.Norm()),
			cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Character, b.Range.Start.Character),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// DedupeDiagnostics drops diagnostics with the same range and message as
// an earlier one (two servers reporting one problem), keeping the order.
func DedupeDiagnostics(ds []Diagnostic) []Diagnostic {
	type key struct {
		r   Range
		msg string
	}
	seen := map[key]bool{}
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		if k := (key{d.Range, d.Message}); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
