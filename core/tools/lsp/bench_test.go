package lsp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/tool"
)

// benchCall runs one tool call per iteration.
func benchCall(b *testing.B, tl *Tool, args map[string]any) {
	raw, _ := json.Marshal(args)
	if _, err := tool.Run(context.Background(), tl, raw, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := tool.Run(context.Background(), tl, raw, nil)
		if err != nil || res.Details.(Details).Success != true {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// The tool's own cost around a request: the fake answers at once, so
// this is framing, URI mapping, file sync and formatting (plus the
// fake's own decoding, in another process).
func BenchmarkFakeDefinition(b *testing.B) {
	tl, root := fakeTool(b, lsptest.FakeOK, lsp.ManagerOptions{})
	writeFiles(b, root, map[string]string{"a.txt": "one\ntwo\n"})
	benchCall(b, tl, map[string]any{"action": "definition", "file": "a.txt", "line": 2})
}

// settle waits until the servers of file (relative to the tool's
// working directory) have published its diagnostics: the analysis after
// opening it is over, and requests time the answer alone.
func settle(b *testing.B, tl *Tool, file string) {
	b.Helper()
	if _, _, err := tl.mgr.Fresh(b.Context(), tl.env.Resolve(file)); err != nil {
		b.Fatal(err)
	}
}

// A warm definition through gopls, end to end.
func BenchmarkGoplsDefinition(b *testing.B) {
	tl, _ := gopls(b)
	settle(b, tl, "main.go")
	benchCall(b, tl, map[string]any{"action": "definition", "file": "main.go", "line": 16, "symbol": "helper"})
}
