package write

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/diagtest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// checkedWrite writes path with the write tool of env.
func checkedWrite(t *testing.T, env *tool.Env, path, content string) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]string{"path": path, "content": content})
	res, err := tool.Run(context.Background(), New(env), raw, nil)
	if err != nil || res.IsError {
		t.Fatalf("%v %v", res.FirstText(), err)
	}
	return res
}

func TestWriteDiagnostics(t *testing.T) {
	fake := diagtest.New()
	env := tool.NewEnv(t.TempDir())
	env.Diagnostics, env.WriteChecks = fake, tool.NewWriteChecks()
	t.Cleanup(func() { env.WriteChecks.Close() })
	env.Settings.LSP = tool.LSP{Enabled: true, DiagnosticsOnWrite: true, DiagnosticsBudget: time.Hour}
	notices := make(chan tool.Notice, 1)
	env.WriteChecks.SetDeliver(func(n tool.Notice) { notices <- n })
	abs := filepath.Join(env.Cwd, "src", "a.ts")
	fake.Script(abs, diagtest.Answer{Servers: []string{"typescript-language-server"}, Diags: []protocol.Diagnostic{diagtest.Diag(protocol.SeverityError, 0, 6, "Cannot find name 'y'.")}})

	res := checkedWrite(t, env, "src/a.ts", "const x = y;\n")
	want := "Created src/a.ts (1 line)\n\nLSP Diagnostics (1 error(s)):\n# src/\n## a.ts\n  1:7 [error] [fake] Cannot find name 'y'."
	if got := res.FirstText(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if d := res.Details.(*Details); d.Diagnostics == nil || d.Diagnostics.Server != "typescript-language-server" {
		t.Errorf("details %+v", d)
	}

	// Late: the result says nothing, the hidden message says it later.
	env.Settings.LSP.DiagnosticsBudget = 0
	release := make(chan struct{})
	fake.Script(abs, diagtest.Answer{Release: release})
	res = checkedWrite(t, env, "src/a.ts", "const x = 1;\n")
	if got := res.FirstText(); got != "Updated src/a.ts (1 line)" {
		t.Errorf("text: %s", got)
	}
	close(release)
	n, _ := testwait.Recv(t, "the late diagnostics", notices)
	if n.Text != "Late LSP diagnostics for src/a.ts (arrived after the write tool returned):\nOK" {
		t.Errorf("late notice %q", n.Text)
	}

	// lsp.diagnosticsOnWrite off: the servers are not asked.
	env.Settings.LSP.DiagnosticsOnWrite = false
	for len(fake.Calls()) > 0 {
		<-fake.Calls()
	}
	checkedWrite(t, env, "src/a.ts", "const x = 2;\n")
	if len(fake.Calls()) != 0 {
		t.Error("diagnosticsOnWrite false, yet the servers were asked")
	}
	if strings.Contains(res.FirstText(), "LSP") {
		t.Errorf("text: %s", res.FirstText())
	}
}

func TestChangedLines(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     []tool.LineSpan
	}{
		{"a\nb\nc\n", "a\nb\nc\n", nil},
		{"a\nb\nc\n", "a\nB\nc\n", []tool.LineSpan{{First: 1, Last: 1}}},
		{"a\nb\nc\n", "a\nb\nx\ny\nc\n", []tool.LineSpan{{First: 2, Last: 3}}},
		{"a\nb\nc\n", "a\nc\n", []tool.LineSpan{{First: 0, Last: 1}}},
		{"a\n", "b\nc\n", []tool.LineSpan{{First: 0, Last: 1}}},
	} {
		if got := changedLines(c.old, c.new); !slices.Equal(got, c.want) {
			t.Errorf("%q -> %q: %v, want %v", c.old, c.new, got, c.want)
		}
	}
}
