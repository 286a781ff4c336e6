package session

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai"
)

// writeBigSession writes a linear session of about size bytes shaped like
// a long coding session: prompts, assistant turns with text and tool
// calls, and tool results holding source code (quotes, tabs, newlines and
// non-ASCII text, so strings need unescaping).
func writeBigSession(tb testing.TB, path string, size int) {
	writeBigSessionIn(tb, path, "/work/project", size)
}

// writeBigSessionIn is writeBigSession for a session of the working
// directory cwd.
func writeBigSessionIn(tb testing.TB, path, cwd string, size int) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	h := Header{Version: 3, ID: "019c65f7-45b1-791b-aeb8-8b73a48ed247", Timestamp: "2026-02-16T10:20:30.000Z", Cwd: cwd}
	w.Write(h.encode())
	w.WriteByte('\n')
	code := strings.Repeat("func handle(w http.ResponseWriter, r *http.Request) {\n\tfmt.Fprintf(w, \"héllo %s\\n\", r.URL.Path) // ✓\n}\n\n", 120)
	parent, total, i := "", 0, 0
	for total < size {
		var msg ai.Message
		switch i % 3 {
		case 0:
			msg = &ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf("Step %d: please look at handler.go and fix the \"path\" bug", i))}, Attribution: "user", Timestamp: 1760000000000}
		case 1:
			msg = &ai.AssistantMessage{Content: ai.ContentList{&ai.ThinkingContent{Thinking: code[:800], ThinkingSignature: strings.Repeat("s", 300)},
				ai.Text("I will read the file."), &ai.ToolCall{ID: fmt.Sprintf("call_%d", i), Name: "read", Arguments: map[string]any{"path": "handler.go"}}},
				API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", StopReason: ai.StopReasonToolUse, Timestamp: 1760000000001}
		default:
			msg = &ai.ToolResultMessage{ToolCallID: fmt.Sprintf("call_%d", i-1), ToolName: "read", Content: ai.ContentList{ai.Text(code)}, Timestamp: 1760000000002}
		}
		e := &Entry{Type: TypeMessage, ID: fmt.Sprintf("%08x", i), ParentID: parent, Timestamp: "2026-02-16T10:20:31.000Z", Message: msg}
		raw, err := e.encode()
		if err != nil {
			tb.Fatal(err)
		}
		if raw, err = prepare(raw, nil); err != nil {
			tb.Fatal(err)
		}
		w.Write(raw)
		w.WriteByte('\n')
		total += len(raw) + 1
		parent = e.ID
		i++
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkOpen50MB loads a 50 MB session file and builds its context
// (target: 300 ms).
func BenchmarkOpen50MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	writeBigSession(b, path, 50<<20)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		m, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if c := m.BuildContext(); len(c.Messages) == 0 {
			b.Fatal("empty context")
		}
		m.Close()
	}
}

// TestWriteBenchSession writes the 50 MB session of BenchmarkOpen50MB to
// $SESSION_BENCH_FILE as a session of $SESSION_BENCH_CWD, for
// bench/agent.sh to time `gopi -p --continue` on it; skipped without them.
func TestWriteBenchSession(t *testing.T) {
	t.Parallel()
	path, cwd := os.Getenv("SESSION_BENCH_FILE"), os.Getenv("SESSION_BENCH_CWD")
	if path == "" || cwd == "" {
		t.Skip("SESSION_BENCH_FILE and SESSION_BENCH_CWD not set (bench/agent.sh sets them)")
	}
	writeBigSessionIn(t, path, cwd, 50<<20)
}

func TestBigSessionLoads(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.jsonl")
	writeBigSession(t, path, 2<<20)
	m := must[*Manager](t)(Open(path, Options{}))
	if len(m.Problems()) != 0 {
		t.Fatal(m.Problems())
	}
	n := len(m.BuildContext().Messages)
	if n != len(m.Entries()) || n < 100 {
		t.Errorf("%d messages of %d entries", n, len(m.Entries()))
	}
}
