package lsp

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

// Output caps.
const (
	diagnosticLimit       = 50  // diagnostic lines shown per answer
	referenceContextLimit = 50  // references shown with their context lines
	workspaceSymbolLimit  = 200 // workspace symbols shown
	contextLines          = 1   // lines shown above and below a location
)

// sources reads files for context lines once per call.
type sources map[string][]string

// lines returns the lines of abs (nil when it cannot be read).
func (s sources) lines(abs string) []string {
	if l, ok := s[abs]; ok {
		return l
	}
	data, err := lsp.ReadDocument(abs) // a regular file of bounded size
	var l []string
	if err == nil {
		l = strings.Split(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), "\n")
	}
	s[abs] = l
	return l
}

// location renders path:line:col (1-based) for a location, the path
// relative to the working directory when inside it.
func (c *call) location(loc protocol.Location) string {
	return fmt.Sprintf("%s:%d:%d", c.displayURI(loc.URI), loc.Range.Start.Line+1, loc.Range.Start.Character+1)
}

// displayURI renders a document URI as a path for the model.
func (c *call) displayURI(u protocol.DocumentURI) string {
	p, err := u.Path()
	if err != nil {
		return string(u)
	}
	return c.t.env.DisplayPath(p)
}

// locationWithContext renders a location and the lines around it:
//
//	path:12:5
//	  11: previous line
//	  12: the line
//	  13: next line
func (c *call) locationWithContext(loc protocol.Location, src sources) string {
	head := "  " + c.location(loc)
	p, err := loc.URI.Path()
	if err != nil {
		return head
	}
	lines := src.lines(p)
	if len(lines) == 0 {
		return head
	}
	target := loc.Range.Start.Line + 1
	var b strings.Builder
	b.WriteString(head)
	for n := max(1, target-contextLines); n <= min(len(lines), target+contextLines); n++ {
		fmt.Fprintf(&b, "\n    %d: %s", n, strings.TrimSuffix(lines[n-1], "\r"))
	}
	return b.String()
}

// diagLine is one diagnostic ready to print: the file it is in and the
// rest of its line.
type diagLine struct {
	file string // display path, slash-separated
	rest string // "line:col [severity] [source] message (code)"
}

// formatDiagnostic renders a diagnostic of file.
func formatDiagnostic(d protocol.Diagnostic, file string) diagLine {
	src := ""
	if d.Source != "" {
		src = "[" + d.Source + "] "
	}
	code := ""
	if c := diagnosticCode(d.Code); c != "" {
		code = " (" + c + ")"
	}
	return diagLine{file: file, rest: fmt.Sprintf("%d:%d [%s] %s%s%s",
		d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity, src, stripNoise(d.Message), code)}
}

// diagnosticCode renders a code given as a string or a number.
func diagnosticCode(raw []byte) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s, err := strconv.Unquote(string(raw)); err == nil {
		return s
	}
	return string(raw)
}

// stripNoise drops the lines of a message that only point elsewhere ("for
// further information visit …", bare URLs).
func stripNoise(msg string) string {
	var keep []string
	for _, l := range strings.Split(msg, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "for further information visit") || strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// summary counts diagnostics by severity: "2 error(s), 1 warning(s)", or
// "no issues".
func summary(diags []protocol.Diagnostic) string {
	var n [5]int
	for _, d := range diags {
		s := d.Severity
		if s < 1 || s > 4 {
			s = protocol.SeverityError
		}
		n[s]++
	}
	var parts []string
	for s, label := range []string{"", "error", "warning", "info", "hint"} {
		if s > 0 && n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s(s)", n[s], label))
		}
	}
	if len(parts) == 0 {
		return "no issues"
	}
	return strings.Join(parts, ", ")
}

// groupDiagnostics renders diagnostic lines grouped by directory and
// file, at most diagnosticLimit of them:
//
//	# main.go            (a file in the working directory)
//	  3:1 [error] …
//
//	# pkg/
//	## util.go
//	  7:2 [warning] …
func groupDiagnostics(lines []diagLine) string {
	shown := lines[:min(len(lines), diagnosticLimit)]
	type group struct {
		dir   string
		files []string
		rows  map[string][]string
	}
	var groups []*group
	byDir := map[string]*group{}
	for _, l := range shown {
		dir := path.Dir(l.file)
		g := byDir[dir]
		if g == nil {
			g = &group{dir: dir, rows: map[string][]string{}}
			byDir[dir] = g
			groups = append(groups, g)
		}
		if _, ok := g.rows[l.file]; !ok {
			g.files = append(g.files, l.file)
		}
		g.rows[l.file] = append(g.rows[l.file], "  "+l.rest)
	}
	var out []string
	sep := func() {
		if len(out) > 0 {
			out = append(out, "")
		}
	}
	for _, g := range groups {
		if g.dir == "." {
			for _, f := range g.files {
				sep()
				out = append(out, "# "+path.Base(f))
				out = append(out, g.rows[f]...)
			}
			continue
		}
		sep()
		out = append(out, "# "+g.dir+"/")
		for _, f := range g.files {
			out = append(out, "## "+path.Base(f))
			out = append(out, g.rows[f]...)
		}
	}
	if more := len(lines) - len(shown); more > 0 {
		out = append(out, fmt.Sprintf("... %d more diagnostic(s) not shown", more))
	}
	return strings.Join(out, "\n")
}
