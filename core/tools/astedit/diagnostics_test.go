package astedit

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/diagtest"
	"github.com/gopi-agent/gopi/core/tools/resolve"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// TestApplyCarriesDiagnostics: the files an applied rewrite wrote are
// checked by the language servers; their report follows the apply's text.
func TestApplyCarriesDiagnostics(t *testing.T) {
	t.Parallel()
	env, q := setup(t, map[string]string{"a.go": "package a\n\nvar v = old(4)\n", "b.go": "package a\n\nvar w = 1\n"}, false)
	fake := diagtest.New()
	env.Diagnostics, env.WriteChecks = fake, tool.NewWriteChecks()
	t.Cleanup(func() { env.WriteChecks.Close() })
	env.Settings.LSP = tool.LSP{Enabled: true, DiagnosticsOnEdit: true, DiagnosticsBudget: time.Hour}
	fake.Script(filepath.Join(env.Cwd, "a.go"), diagtest.Answer{Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 2, 8, "undefined: neu")}})
	callTool(t, New(env, q), `{"ops":[{"pat":"old($$$A)","out":"neu($$$A)"}],"paths":["."]}`)
	select {
	case c := <-fake.Calls():
		t.Fatalf("the preview asked the servers about %s", c.Path)
	default:
	}
	out := callTool(t, resolve.New(q), `{"action":"apply","reason":"ok"}`)
	want := "Applied 1 replacements in 1 files.\n\nLSP Diagnostics (1 error(s)):\n# a.go\n  3:9 [error] [fake] undefined: neu"
	if out.FirstText() != want {
		t.Fatalf("apply:\n%s\nwant:\n%s", out.FirstText(), want)
	}
	if d, ok := out.Details.(*resolve.Details).SourceResultDetails.(*Details); !ok || d.Diagnostics == nil || !d.Diagnostics.Errored {
		t.Errorf("details %+v", out.Details)
	}
	if c := <-fake.Calls(); c.Path != filepath.Join(env.Cwd, "a.go") || len(fake.Calls()) != 0 {
		t.Errorf("the servers were asked about %s and %d more files; only a.go was written", c.Path, len(fake.Calls()))
	}
}

func TestChangedSpans(t *testing.T) {
	f := ast.FileChanges{Changes: []ast.Change{
		{Start: astgrep.Pos{Line: 2}, Before: "a(1)", After: "b(\n1,\n)"}, // two lines more
		{Start: astgrep.Pos{Line: 5}, Before: "c(\n)", After: "d()"},      // one line less
		{Start: astgrep.Pos{Line: 9}, Before: "e", After: "f"},
	}}
	got := changedSpans(f)
	want := []tool.LineSpan{{First: 2, Last: 4}, {First: 7, Last: 7}, {First: 10, Last: 10}}
	if !slices.Equal(got, want) {
		t.Errorf("spans %v, want %v", got, want)
	}
}
