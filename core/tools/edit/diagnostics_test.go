package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/diagtest"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// diagEnv is a working directory with main.go, checked by fake with the
// given budget; late notices arrive on the channel.
func diagEnv(t *testing.T, fake *diagtest.Fake, budget time.Duration) (*tool.Env, chan tool.Notice) {
	t.Helper()
	env := tool.NewEnv(t.TempDir())
	if err := os.WriteFile(filepath.Join(env.Cwd, "main.go"), []byte("package main\n\nfunc main() {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env.Diagnostics = fake
	env.WriteChecks = tool.NewWriteChecks()
	env.Settings.LSP = tool.LSP{Enabled: true, DiagnosticsOnWrite: true, DiagnosticsOnEdit: true, DiagnosticsBudget: budget}
	notices := make(chan tool.Notice, 4)
	env.WriteChecks.SetDeliver(func(n tool.Notice) { notices <- n })
	t.Cleanup(func() { env.WriteChecks.Close() })
	return env, notices
}

func TestEditResultCarriesDiagnostics(t *testing.T) {
	fake := diagtest.New()
	env, _ := diagEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "main.go")
	fake.SetKnown(abs, diagtest.Diag(protocol.SeverityWarning, 0, 0, "package comment missing"))
	fake.Script(abs, diagtest.Answer{Servers: []string{"gopls"}, Diags: []protocol.Diagnostic{
		diagtest.Diag(protocol.SeverityWarning, 0, 0, "package comment missing"),
		diagtest.Diag(protocol.SeverityError, 3, 1, "undefined: x"),
	}})
	res := call(t, NewMode(env, tool.EditReplace), map[string]any{"path": "main.go", "edits": []any{map[string]any{"old_text": "func main() {\n}", "new_text": "func main() {\n\tx++\n}"}}})
	if res.IsError {
		t.Fatal(res.FirstText())
	}
	want := "Successfully replaced text in main.go.\n\nLSP Diagnostics (1 error(s), 1 warning(s)):\n# main.go\n  4:2 [error] [fake] undefined: x\n  1:1 [warning] [fake] package comment missing"
	if got := res.FirstText(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	d := res.Details.(*Details)
	if d.Diagnostics == nil || d.Diagnostics.Server != "gopls" || !d.Diagnostics.Errored {
		t.Errorf("details.diagnostics %+v", d.Diagnostics)
	}
}

func TestEditHashlineFixClearsErrors(t *testing.T) {
	fake := diagtest.New()
	env, _ := diagEnv(t, fake, time.Hour)
	abs := filepath.Join(env.Cwd, "main.go")
	fake.SetKnown(abs, diagtest.Diag(protocol.SeverityError, 3, 0, "missing return"))
	fake.Script(abs, diagtest.Answer{})
	res := call(t, New(env), map[string]any{"input": "@@ main.go\n+ EOF\n~// done\n"})
	if res.IsError {
		t.Fatal(res.FirstText())
	}
	if got := res.FirstText(); !strings.HasSuffix(got, "\n\nLSP Diagnostics: no issues left in main.go.") {
		t.Errorf("text:\n%s", got)
	}
	if d := res.Details.(*Details); d.Diagnostics == nil || d.Diagnostics.Summary != "OK" {
		t.Errorf("details.diagnostics %+v", d.Diagnostics)
	}
}

func TestEditNoServerNoDiagnostics(t *testing.T) {
	fake := diagtest.New()
	env, _ := diagEnv(t, fake, time.Hour)
	res := call(t, NewMode(env, tool.EditReplace), map[string]any{"path": "main.go", "edits": []any{map[string]any{"old_text": "package main", "new_text": "package app"}}})
	if got := res.FirstText(); strings.Contains(got, "LSP") || res.Details.(*Details).Diagnostics != nil {
		t.Errorf("a file no server handles got diagnostics: %s", got)
	}
}

func TestApplyPatchDiagnosticsPerFile(t *testing.T) {
	fake := diagtest.New()
	env, _ := diagEnv(t, fake, time.Hour)
	main, util := filepath.Join(env.Cwd, "main.go"), filepath.Join(env.Cwd, "pkg", "util.go")
	fake.Script(main, diagtest.Answer{Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 2, 0, "undefined: util")}})
	fake.Script(util, diagtest.Answer{})
	patch := "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n+\tutil()\n }\n*** Add File: pkg/util.go\n+package pkg\n*** End Patch"
	res := call(t, NewMode(env, tool.EditApplyPatch), map[string]any{"input": patch})
	if res.IsError {
		t.Fatal(res.FirstText())
	}
	if got := res.FirstText(); !strings.HasSuffix(got, "LSP Diagnostics (1 error(s)):\n# main.go\n  3:1 [error] [fake] undefined: util") {
		t.Errorf("text:\n%s", got)
	}
	d := res.Details.(*Details)
	if len(d.PerFileResults) != 2 || d.PerFileResults[0].Diagnostics == nil || d.PerFileResults[0].Diagnostics.Summary != "1 error(s)" ||
		d.PerFileResults[1].Diagnostics == nil || d.PerFileResults[1].Diagnostics.Summary != "OK" {
		t.Errorf("per-file diagnostics: %+v", d.PerFileResults)
	}
}

func TestEditLateDiagnostics(t *testing.T) {
	fake := diagtest.New()
	env, notices := diagEnv(t, fake, 0)
	abs := filepath.Join(env.Cwd, "main.go")
	release := make(chan struct{})
	fake.Script(abs, diagtest.Answer{Release: release, Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 3, 1, "undefined: x")}})
	res := call(t, NewMode(env, tool.EditReplace), map[string]any{"path": "main.go", "edits": []any{map[string]any{"old_text": "func main() {\n}", "new_text": "func main() {\n\tx++\n}"}}})
	if got := res.FirstText(); strings.Contains(got, "LSP") {
		t.Errorf("diagnostics held back, yet the result says: %s", got)
	}
	close(release)
	n, _ := testwait.Recv(t, "the late diagnostics", notices)
	if n.CustomType != tool.LateDiagnosticType || !strings.HasPrefix(n.Text, "Late LSP diagnostics for main.go (arrived after the edit tool returned):\n1 error(s)\nmain.go:4:2 [error]") {
		t.Errorf("notice %+v", n)
	}
}

func TestEditDiagnosticsOff(t *testing.T) {
	fake := diagtest.New()
	env, _ := diagEnv(t, fake, time.Hour)
	env.Settings.LSP.DiagnosticsOnEdit = false
	abs := filepath.Join(env.Cwd, "main.go")
	fake.Script(abs, diagtest.Answer{Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 0, 0, "x")}})
	res := call(t, NewMode(env, tool.EditReplace), map[string]any{"path": "main.go", "edits": []any{map[string]any{"old_text": "package main", "new_text": "package app"}}})
	if strings.Contains(res.FirstText(), "LSP") {
		t.Errorf("lsp.diagnosticsOnEdit false, yet: %s", res.FirstText())
	}
	select {
	case c := <-fake.Calls():
		t.Errorf("the servers were asked about %s", c.Path)
	default:
	}
}

func TestChangedSpans(t *testing.T) {
	if changedSpans(nil) != nil {
		t.Error("no edits, yet changed lines")
	}
	got := changedSpans(diff.Lines(strings.Split("a\nb\nc\nd\ne", "\n"), strings.Split("a\nB\nc\nd", "\n")))
	want := []tool.LineSpan{{First: 0, Last: 1}, {First: 3, Last: 4}}
	if len(got) != len(want) {
		t.Fatalf("spans %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("spans %v, want %v", got, want)
		}
	}
}
