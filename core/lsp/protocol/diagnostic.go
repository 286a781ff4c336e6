package protocol

import "encoding/json"

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
