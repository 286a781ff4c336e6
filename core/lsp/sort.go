package lsp

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// severityRank orders severities, errors first; an unsaid severity is an
// error.
func severityRank(s protocol.DiagnosticSeverity) int {
	if s == 0 {
		return int(protocol.SeverityError)
	}
	return int(s)
}

// SortDiagnostics sorts by severity (errors first), then line, column and
// message.
func SortDiagnostics(d []protocol.Diagnostic) {
	slices.SortStableFunc(d, func(a, b protocol.Diagnostic) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Character, b.Range.Start.Character),
			strings.Compare(a.Message, b.Message),
		)
	})
}
