package tool

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// DiagnosticMessageLimit is how many diagnostic lines one result shows at
// most (the lsp tool's cap, omp's DIAGNOSTIC_MESSAGE_LIMIT).
const DiagnosticMessageLimit = 50

// FileDiagnostics is what the language servers reported about the files
// a tool call wrote: the details.diagnostics of edit and write results,
// in omp's shape (its FileDiagnosticsResult), plus gopi's Cleared.
type FileDiagnostics struct {
	// Server names the servers that answered, comma-separated.
	Server string `json:"server,omitempty"`
	// Messages are the diagnostics, one "path:line:col [severity] …" line
	// each (FormatDiagnostic): those the change introduced or touched
	// first, then the others, at most DiagnosticMessageLimit.
	Messages []string `json:"messages"`
	// Summary counts the problems ("2 error(s), 1 warning(s)"); "OK" when
	// a server answered with none.
	Summary string `json:"summary"`
	// Errored is true when at least one problem is an error.
	Errored bool `json:"errored"`
	// Cleared lists the files (as shown to the model) that had problems
	// before the change and have none after it.
	Cleared []string `json:"cleared,omitempty"`
}

// Notice is the text appended to a tool result for d: the problems under
// "LSP Diagnostics (<summary>):", grouped by directory and file, and a
// line for files the change left clean. Empty when there is nothing to
// say (nil, or a clean file that was clean before).
func (d *FileDiagnostics) Notice() string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	if len(d.Messages) > 0 {
		fmt.Fprintf(&b, "\n\nLSP Diagnostics (%s):\n%s", d.Summary, GroupDiagnosticMessages(d.Messages))
	}
	if len(d.Cleared) > 0 {
		fmt.Fprintf(&b, "\n\nLSP Diagnostics: no issues left in %s.", strings.Join(d.Cleared, ", "))
	}
	return b.String()
}

// MergeFileDiagnostics joins the reports of several files of one call
// into one: messages in file order (capped again), the summary counted
// from them, the servers and cleared files of all. Nil reports (no
// server for that file) are skipped; nil when all are.
func MergeFileDiagnostics(reports ...*FileDiagnostics) *FileDiagnostics {
	var out *FileDiagnostics
	var servers []string
	for _, r := range reports {
		if r == nil {
			continue
		}
		if out == nil {
			out = &FileDiagnostics{Messages: []string{}}
		}
		for _, s := range strings.Split(r.Server, ",") {
			if s = strings.TrimSpace(s); s != "" && !slices.Contains(servers, s) {
				servers = append(servers, s)
			}
		}
		out.Messages = append(out.Messages, r.Messages...)
		out.Cleared = append(out.Cleared, r.Cleared...)
	}
	if out == nil {
		return nil
	}
	out.Server = strings.Join(servers, ", ")
	out.Summary, out.Errored = summarizeMessages(out.Messages)
	if len(out.Messages) > DiagnosticMessageLimit {
		out.Messages = out.Messages[:DiagnosticMessageLimit]
	}
	return out
}

// severityTag finds the "[severity]" of a formatted diagnostic line.
var severityTag = regexp.MustCompile(`(?i)\[(error|warning|info|hint)\]`)

// summarizeMessages counts formatted diagnostic lines by their severity
// tag: the summary of a merged report ("OK" for none).
func summarizeMessages(msgs []string) (summary string, errored bool) {
	if len(msgs) == 0 {
		return "OK", false
	}
	var counts [5]int
	for _, m := range msgs {
		if sm := severityTag.FindStringSubmatch(m); sm != nil {
			counts[severityRank(strings.ToLower(sm[1]))]++
		}
	}
	return countSummary(counts), counts[protocol.SeverityError] > 0
}

// severityRank maps a severity name back to its protocol value.
func severityRank(name string) protocol.DiagnosticSeverity {
	switch name {
	case "warning":
		return protocol.SeverityWarning
	case "info":
		return protocol.SeverityInformation
	case "hint":
		return protocol.SeverityHint
	}
	return protocol.SeverityError
}

// countSummary renders counts indexed by severity: "2 error(s), 1
// warning(s)", or "no issues" when every count is zero.
func countSummary(counts [5]int) string {
	var parts []string
	for _, s := range []protocol.DiagnosticSeverity{protocol.SeverityError, protocol.SeverityWarning, protocol.SeverityInformation, protocol.SeverityHint} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s(s)", counts[s], s))
		}
	}
	if len(parts) == 0 {
		return "no issues"
	}
	return strings.Join(parts, ", ")
}

// SummarizeDiagnostics counts diagnostics by severity: "2 error(s), 1
// warning(s), 3 info(s), 1 hint(s)" (zero counts left out), or "no
// issues". A diagnostic without a severity counts as an error.
func SummarizeDiagnostics(ds []protocol.Diagnostic) string {
	var counts [5]int
	for _, d := range ds {
		counts[d.Severity.Norm()]++
	}
	return countSummary(counts)
}

// FormatDiagnostic renders one diagnostic of the file shown as file:
// "file:line:col [severity] [source] message (code)", line and column
// 1-based, the source and code only when the server gave them. Lines of
// the message that only point to a web page are dropped.
func FormatDiagnostic(d protocol.Diagnostic, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d [%s] ", file, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity.Norm())
	if d.Source != "" {
		fmt.Fprintf(&b, "[%s] ", d.Source)
	}
	b.WriteString(cleanDiagnosticMessage(d.Message))
	if code := diagnosticCode(d.Code); code != "" {
		fmt.Fprintf(&b, " (%s)", code)
	}
	return b.String()
}

// cleanDiagnosticMessage drops the lines of a message that are only a
// link ("for further information visit …", a bare URL) and trims it.
func cleanDiagnosticMessage(msg string) string {
	lines := strings.Split(msg, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "for further information visit") || strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") {
			continue
		}
		kept = append(kept, l)
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// diagnosticCode renders a diagnostic's code: a string without its
// quotes, a number as written; "" when there is none (or it is 0 or
// empty, which servers send for "no code").
func diagnosticCode(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	switch v := strings.TrimSpace(string(raw)); v {
	case "null", "0", "false":
		return ""
	default:
		return v
	}
}

// diagnosticLine splits a formatted diagnostic at its first
// ":line:col " boundary: the file, and the rest.
var diagnosticLine = regexp.MustCompile(`^(.+?):(\d+:\d+\s+.*)$`)

// GroupDiagnosticMessages lays formatted diagnostics out by directory and
// file, as search results are: "# dir/", "## file", then "  line:col …"
// per diagnostic; a file in the working directory itself gets a single
// "# file" header. Groups are separated by a blank line, in the order the
// files first appear; lines that are not "file:line:col …" follow at the
// end, after a blank line.
func GroupDiagnosticMessages(msgs []string) string {
	byFile := map[string][]string{}
	var files, ungrouped []string
	for _, m := range msgs {
		sm := diagnosticLine.FindStringSubmatch(m)
		if sm == nil {
			ungrouped = append(ungrouped, m)
			continue
		}
		file := strings.ReplaceAll(sm[1], `\`, "/")
		if _, ok := byFile[file]; !ok {
			files = append(files, file)
		}
		byFile[file] = append(byFile[file], "  "+sm[2])
	}
	if len(files) == 0 {
		return strings.Join(ungrouped, "\n")
	}
	var dirs []string
	inDir := map[string][]string{}
	for _, f := range files {
		d := path.Dir(f)
		if _, ok := inDir[d]; !ok {
			dirs = append(dirs, d)
		}
		inDir[d] = append(inDir[d], f)
	}
	var out []string
	for _, d := range dirs {
		for i, f := range inDir[d] {
			if len(out) > 0 && (d == "." || i == 0) {
				out = append(out, "")
			}
			switch {
			case d == ".":
				out = append(out, "# "+path.Base(f))
			case i == 0:
				out = append(out, "# "+d+"/", "## "+path.Base(f))
			default:
				out = append(out, "## "+path.Base(f))
			}
			out = append(out, byFile[f]...)
		}
	}
	if len(ungrouped) > 0 {
		out = append(out, "")
		out = append(out, ungrouped...)
	}
	return strings.Join(out, "\n")
}

// ResultDiagnostics returns the diagnostics a tool result's details
// carry (details.diagnostics of edit, write and ast_edit), for front
// ends. details may be the tool's own struct (a live result) or the
// decoded JSON of a stored one; nil when there are none.
func ResultDiagnostics(details any) *FileDiagnostics {
	if details == nil {
		return nil
	}
	raw, ok := details.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(details); err != nil {
			return nil
		}
	}
	var d struct {
		Diagnostics *FileDiagnostics `json:"diagnostics"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	return d.Diagnostics
}
