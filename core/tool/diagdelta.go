package tool

// The report of one written file: what the servers said after the write,
// set against what they had said before it.

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// report is a file's diagnostics after a write, and whether a late
// delivery of them would tell the model something.
type report struct {
	*FileDiagnostics
	worthSaying bool // new or touched problems, or the file became clean
}

// report builds the file's report from what the servers answered: nil
// FileDiagnostics when none did.
func (w *WriteDiag) report(shown string, diags []protocol.Diagnostic, servers []string, changed []LineSpan) report {
	if len(servers) == 0 {
		return report{}
	}
	diags = protocol.DedupeDiagnostics(diags)
	fd := &FileDiagnostics{Server: strings.Join(servers, ", "), Messages: []string{}, Summary: "OK"}
	if len(diags) == 0 {
		if len(w.known) > 0 {
			fd.Cleared = []string{shown}
		}
		return report{FileDiagnostics: fd, worthSaying: len(w.known) > 0}
	}
	first, rest := splitByChange(diags, w.known, changed)
	protocol.SortDiagnostics(first)
	protocol.SortDiagnostics(rest)
	for _, d := range append(first, rest...) {
		if len(fd.Messages) == DiagnosticMessageLimit {
			break
		}
		fd.Messages = append(fd.Messages, FormatDiagnostic(d, shown))
	}
	fd.Summary = SummarizeDiagnostics(diags)
	for _, d := range diags {
		if d.Severity.Norm() == protocol.SeverityError {
			fd.Errored = true
		}
	}
	return report{FileDiagnostics: fd, worthSaying: len(first) > 0}
}

// lateText is the hidden message for diagnostics that arrived after the
// call of the named tool returned.
func lateText(shown, toolName string, fd *FileDiagnostics) string {
	lines := []string{fmt.Sprintf("Late LSP diagnostics for %s (arrived after the %s tool returned):", shown, toolName), fd.Summary}
	lines = append(lines, fd.Messages...)
	return strings.Join(lines, "\n")
}

// splitByChange separates the diagnostics the change is answerable for —
// not among those known before the write (compared by severity, source,
// code and message, since lines move), or on a changed line — from the
// others.
func splitByChange(diags, known []protocol.Diagnostic, changed []LineSpan) (first, rest []protocol.Diagnostic) {
	type key struct {
		sev          protocol.DiagnosticSeverity
		source, code string
		msg          string
	}
	keyOf := func(d protocol.Diagnostic) key {
		return key{d.Severity.Norm(), d.Source, string(d.Code), d.Message}
	}
	before := map[key]int{}
	for _, d := range known {
		before[keyOf(d)]++
	}
	for _, d := range diags {
		k := keyOf(d)
		isNew := before[k] == 0
		if !isNew {
			before[k]--
		}
		if isNew || touches(d.Range, changed) {
			first = append(first, d)
		} else {
			rest = append(rest, d)
		}
	}
	return first, rest
}

// touches reports whether r shares a line with one of the spans.
func touches(r protocol.Range, spans []LineSpan) bool {
	for _, s := range spans {
		if r.Start.Line <= s.Last && r.End.Line >= s.First {
			return true
		}
	}
	return false
}
