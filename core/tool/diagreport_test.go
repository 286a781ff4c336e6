package tool

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
)

func diagAt(sev protocol.DiagnosticSeverity, line, char int, msg string) protocol.Diagnostic {
	return protocol.Diagnostic{Range: protocol.Range{Start: protocol.Position{Line: line, Character: char}, End: protocol.Position{Line: line, Character: char + 1}}, Severity: sev, Message: msg}
}

func TestFormatDiagnostic(t *testing.T) {
	d := diagAt(protocol.SeverityWarning, 4, 1, "unused variable\nfor further information visit https://x\nhttps://example.com/lint")
	d.Source, d.Code = "compiler", json.RawMessage(`"UnusedVar"`)
	if got, want := FormatDiagnostic(d, "pkg/a.go"), "pkg/a.go:5:2 [warning] [compiler] unused variable (UnusedVar)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	d = diagAt(0, 0, 0, "no severity")
	d.Code = json.RawMessage(`2304`)
	if got, want := FormatDiagnostic(d, "a.ts"), "a.ts:1:1 [error] no severity (2304)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSummarizeAndSort(t *testing.T) {
	ds := []protocol.Diagnostic{
		diagAt(protocol.SeverityHint, 1, 0, "h"),
		diagAt(protocol.SeverityError, 9, 0, "b"),
		diagAt(protocol.SeverityWarning, 0, 0, "w"),
		diagAt(protocol.SeverityError, 2, 5, "a"),
		diagAt(protocol.SeverityError, 2, 5, "0"),
	}
	if got, want := SummarizeDiagnostics(ds), "3 error(s), 1 warning(s), 1 hint(s)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if got := SummarizeDiagnostics(nil); got != "no issues" {
		t.Errorf("summary of none %q", got)
	}
	protocol.SortDiagnostics(ds)
	var order []string
	for _, d := range ds {
		order = append(order, d.Message)
	}
	if got := strings.Join(order, ","); got != "0,a,b,w,h" {
		t.Errorf("order %s", got)
	}
}

func TestGroupDiagnosticMessages(t *testing.T) {
	got := GroupDiagnosticMessages([]string{
		"main.go:3:1 [error] x",
		"pkg/a.go:1:2 [warning] y",
		"main.go:4:1 [error] z",
		"pkg/b.go:7:7 [error] w",
		"something else",
	})
	want := `# main.go
  3:1 [error] x
  4:1 [error] z

# pkg/
## a.go
  1:2 [warning] y
## b.go
  7:7 [error] w

something else`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestMergeAndNotice(t *testing.T) {
	a := &FileDiagnostics{Server: "gopls", Messages: []string{"a.go:1:1 [error] bad"}, Summary: "1 error(s)", Errored: true}
	b := &FileDiagnostics{Server: "gopls, vet", Messages: []string{}, Summary: "OK", Cleared: []string{"b.go"}}
	m := MergeFileDiagnostics(nil, a, b)
	if m.Server != "gopls, vet" || m.Summary != "1 error(s)" || !m.Errored {
		t.Errorf("merged %+v", m)
	}
	want := "\n\nLSP Diagnostics (1 error(s)):\n# a.go\n  1:1 [error] bad\n\nLSP Diagnostics: no issues left in b.go."
	if got := m.Notice(); got != want {
		t.Errorf("notice %q, want %q", got, want)
	}
	if MergeFileDiagnostics(nil, nil) != nil {
		t.Error("merge of nothing is not nil")
	}
	if (*FileDiagnostics)(nil).Notice() != "" || (&FileDiagnostics{Messages: []string{}, Summary: "OK"}).Notice() != "" {
		t.Error("a clean report says something")
	}
	var many []string
	for i := range 70 {
		many = append(many, fmt.Sprintf("a.go:%d:1 [warning] w", i+1))
	}
	m = MergeFileDiagnostics(&FileDiagnostics{Messages: many[:40]}, &FileDiagnostics{Messages: many[40:]})
	if len(m.Messages) != DiagnosticMessageLimit || m.Summary != "70 warning(s)" || m.Errored {
		t.Errorf("capped merge: %d messages, %q", len(m.Messages), m.Summary)
	}
}

func TestAppendTextAndResultDiagnostics(t *testing.T) {
	r := &Result{Content: []Content{Text("first"), &ImageContent{}, Text("second")}}
	r.AppendText("\n\nnote")
	if got := r.Content[2].(*TextContent).Text; got != "second\n\nnote" {
		t.Errorf("last text block %q", got)
	}
	r = &Result{}
	r.AppendText("\n\nnote")
	if len(r.Content) != 1 || r.FirstText() != "note" {
		t.Errorf("no text block: %+v", r.Content)
	}
	if ResultDiagnostics(nil) != nil || ResultDiagnostics(json.RawMessage(`{"diff":"x"}`)) != nil {
		t.Error("diagnostics out of nothing")
	}
	d := ResultDiagnostics(struct {
		Diagnostics *FileDiagnostics `json:"diagnostics"`
	}{&FileDiagnostics{Summary: "1 error(s)", Messages: []string{"a.go:1:1 [error] x"}, Errored: true}})
	if d == nil || d.Summary != "1 error(s)" || !d.Errored {
		t.Errorf("from a struct: %+v", d)
	}
}
