package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit"
)

// editBudget is lsp.diagnosticsBudgetMs' default (core/config), the
// longest an edit waits for the servers' diagnostics.
const editBudget = 2000 * time.Millisecond

// The edit tool breaking a Go file with a type error on the warm gopls,
// with the diagnostics after edits on (lsp.diagnosticsOnEdit, the
// default) and off: the difference is the latency diagnostics add to an
// edit; error-reported-% is how many of the timed edits had gopls' error
// in their own result (the target is all of them). Each timed edit is
// undone by an untimed one, which waits for the file to be clean again.
func BenchmarkGoplsEditDiagnostics(b *testing.B) {
	tl, root := gopls(b)
	const name = "edited.go"
	p := filepath.Join(root, name)
	if err := os.WriteFile(p, []byte("package main\n\nfunc edited() int { return 1 }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.Remove(p) })
	breaks, _ := json.Marshal(map[string]any{"path": name, "edits": []any{map[string]any{"old_text": "return 1", "new_text": `return "x"`}}})
	fixes, _ := json.Marshal(map[string]any{"path": name, "edits": []any{map[string]any{"old_text": `return "x"`, "new_text": "return 1"}}})
	for _, on := range []bool{true, false} {
		env := tool.NewEnv(root)
		env.WriteChecks = tool.NewWriteChecks()
		b.Cleanup(func() { env.WriteChecks.Close() })
		env.Settings.LSP = tool.LSP{Enabled: true, DiagnosticsOnEdit: true, DiagnosticsBudget: editBudget}
		label := "off"
		if on {
			env.Diagnostics, label = tl.mgr, "diagnostics"
		}
		et := edit.NewMode(env, tool.EditReplace)
		call := func(args []byte) string {
			res, err := tool.Run(context.Background(), et, args, nil)
			if err != nil || res.IsError {
				b.Fatalf("edit: %v %s", err, res.FirstText())
			}
			return res.FirstText()
		}
		b.Run(label, func(b *testing.B) {
			call(breaks) // warm: gopls has seen the file broken and fixed once
			call(fixes)
			reported := 0
			for b.Loop() {
				if text := call(breaks); strings.Contains(text, "cannot use \"x\" (untyped string constant) as int value") {
					reported++
				}
				b.StopTimer()
				call(fixes)
				b.StartTimer()
			}
			if on {
				b.ReportMetric(100*float64(reported)/float64(b.N), "error-reported-%")
			}
		})
	}
}
