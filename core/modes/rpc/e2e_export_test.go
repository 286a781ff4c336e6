package rpc_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// export_html over RPC against the mock LLM: the page of the running
// session (with its system prompt and tools) under the default name in
// the working directory, then at a relative and an absolute path; the
// session file gains no entry; an in-memory session is refused with
// omp's text.
func TestRPCExportHTML(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("read", `{"path":"notes.txt"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("The notes say **hello**.")}},
	)
	r.Write("notes.txt", "hello\n")
	rr := startRPC(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	end := rr.Expect("agent_end")
	if resp := rr.Call("prompt", map[string]any{"message": "what do the notes say?"}); !resp.Success {
		t.Fatalf("prompt: %+v", resp)
	}
	end()
	file := r.SessionFiles()[0]
	before, _ := os.ReadFile(file)

	path, err := rr.C.ExportHTML(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(r.Project, "gopi-session-"+strings.TrimSuffix(filepath.Base(file), ".jsonl")+".html")
	if path != want {
		t.Errorf("exported to %s, want %s", path, want)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"what do the notes say?", "<strong>hello</strong>", "[read: notes.txt]", "System prompt", "Tools ("} {
		if !strings.Contains(string(page), s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	if p, err := rr.C.ExportHTML(ctx, "out/page.html"); err == nil {
		t.Errorf("export into a missing directory succeeded: %s", p)
	}
	os.Mkdir(filepath.Join(r.Project, "out"), 0o755)
	if p, err := rr.C.ExportHTML(ctx, "out/page.html"); err != nil || p != filepath.Join(r.Project, "out", "page.html") {
		t.Errorf("relative path: %s %v", p, err)
	}
	abs := filepath.Join(t.TempDir(), "abs.html")
	if p, err := rr.C.ExportHTML(ctx, abs); err != nil || p != abs {
		t.Errorf("absolute path: %s %v", p, err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("exporting changed the session file")
	}

	mem := startRPC(t, newAgentRig(t), "--no-session")
	resp := mem.Call("export_html", nil)
	if resp.Success || resp.Error != "Cannot export in-memory session to HTML" {
		t.Errorf("in-memory export: %+v", resp)
	}
}
